public import DCJSON
public import Foundation

/// The claims of a JWT (RFC 7519 §4): a JSON object with typed access to the registered claims.
///
/// Registered claims are type-checked on construction; every other claim is reachable by name.
public struct JWTClaims: Sendable, Hashable {
  /// The claims object, members in the order received.
  public let json: JSONValue

  /// Wraps a claims object, checking the types of the registered claims (RFC 7519 §4.1).
  public init(json: JSONValue) throws(JOSEError) {
    guard case .object = json else {
      throw JOSEError(.invalidClaim, "JWT claims must be a JSON object (RFC 7519 §7.2 step 10)")
    }
    for name in ["iss", "sub", "jti", "nonce"] {
      if let value = json[name], value.string == nil {
        throw JOSEError(.invalidClaim, "claim \(name) must be a string")
      }
    }
    for name in ["exp", "nbf", "iat"] {
      if let value = json[name], value.double == nil {
        throw JOSEError(.invalidClaim, "claim \(name) must be a NumericDate (RFC 7519 §2)")
      }
    }
    if let aud = json["aud"], aud.string == nil {
      guard let array = aud.array, array.allSatisfy({ $0.string != nil }) else {
        throw JOSEError(.invalidClaim, "claim aud must be a string or an array of strings")
      }
    }
    self.json = json
  }

  /// Parses a JWS payload as claims (RFC 7519 §7.2 step 10).
  public init(payload: [UInt8]) throws(JOSEError) {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: payload)
    } catch {
      throw JOSEError(.invalidClaim, "JWT claims are not JSON: \(error.reason)", underlying: error)
    }
    try self.init(json: json)
  }

  /// Any claim by name (RFC 7519 §4).
  public subscript(name: String) -> JSONValue? { json[name] }

  /// The claim `name`, or `missingClaim` when absent (RFC 7519 §4).
  public func require(_ name: String) throws(JOSEError) -> JSONValue {
    guard let value = json[name] else { throw JOSEError(.missingClaim, "claim \(name) is missing") }
    return value
  }

  /// The issuer, `iss` (RFC 7519 §4.1.1).
  public var iss: String? { json["iss"]?.string }
  /// The subject, `sub` (RFC 7519 §4.1.2).
  public var sub: String? { json["sub"]?.string }
  /// The audiences, `aud`, a single string read as a one-element list (RFC 7519 §4.1.3).
  public var aud: [String]? {
    if let single = json["aud"]?.string { return [single] }
    return json["aud"]?.array?.compactMap(\.string)
  }
  /// The expiration time, `exp` (RFC 7519 §4.1.4).
  public var exp: Date? { date("exp") }
  /// The not-before time, `nbf` (RFC 7519 §4.1.5).
  public var nbf: Date? { date("nbf") }
  /// The issued-at time, `iat` (RFC 7519 §4.1.6).
  public var iat: Date? { date("iat") }
  /// The JWT ID, `jti` (RFC 7519 §4.1.7).
  package var jti: String? { json["jti"]?.string }
  /// The `nonce` claim (OpenID Connect Core §2, registered in the IANA JWT Claims registry).
  package var nonce: String? { json["nonce"]?.string }

  private func date(_ name: String) -> Date? {
    json[name]?.double.map { Date(timeIntervalSince1970: $0) }
  }

  /// Checks `exp`, `nbf` and `iat` against `now`, allowing `leeway` seconds of clock skew
  /// (RFC 7519 §4.1.4-4.1.6).
  ///
  /// - Throws: `expired` when `now` is at or after `exp + leeway`; `notYetValid` when `now + leeway`
  ///   is before `nbf`, or `iat` lies more than `leeway` in the future.
  public func validateTimes(now: Date, leeway: TimeInterval = 0) throws(JOSEError) {
    if let exp, now >= exp.addingTimeInterval(leeway) {
      throw JOSEError(.expired, "JWT expired at \(exp.timeIntervalSince1970)")
    }
    if let nbf, now.addingTimeInterval(leeway) < nbf {
      throw JOSEError(.notYetValid, "JWT not valid before \(nbf.timeIntervalSince1970)")
    }
    if let iat, iat > now.addingTimeInterval(leeway) {
      throw JOSEError(.notYetValid, "JWT issued in the future at \(iat.timeIntervalSince1970)")
    }
  }
}
