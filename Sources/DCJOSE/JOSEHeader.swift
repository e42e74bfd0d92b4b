// Header checks shared by JWS (RFC 7515 §4) and JWE (RFC 7516 §4).
import DCEncoding
import DCJSON

enum JOSEHeader {
  /// Decodes and parses a base64url protected header into a JSON object (RFC 7515 §5.2 steps 2-4).
  static func decodeProtected(_ encoded: Substring, code: JOSEErrorCode) throws(JOSEError) -> (
    bytes: [UInt8], value: JSONValue
  ) {
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(String(encoded))
    } catch {
      throw JOSEError(code, "protected header: \(error.reason)", underlying: error)
    }
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes)
    } catch {
      throw JOSEError(
        code, "protected header is not valid JSON: \(error.reason)", underlying: error)
    }
    guard case .object = value else {
      throw JOSEError(code, "protected header is not a JSON object")
    }
    return (bytes, value)
  }

  /// Rejects `crit` (RFC 7515 §4.1.11) unless every name it lists is in `understood` (the
  /// extension parameters the caller processes, e.g. JAdES `sigT`), present in the protected
  /// header, not defined by RFC 7515 itself, and listed once; an empty list is invalid. Also
  /// rejects `b64: false` (RFC 7797 §3), whose unencoded payload this module does not implement.
  static func checkExtensions(
    protected: JSONValue, unprotected: JSONValue?, understood: Set<String> = []
  ) throws(JOSEError) {
    if let crit = protected["crit"] {
      try checkCritical(crit, protected: protected, understood: understood)
    }
    if unprotected?["crit"] != nil {
      throw JOSEError(.invalidHeader, "crit must be integrity protected (RFC 7515 §4.1.11)")
    }
    for header in [protected, unprotected ?? .object([])] {
      if let b64 = header["b64"] {
        guard b64 == .bool(true) else {
          throw JOSEError(.invalidHeader, "b64 other than true is not supported (RFC 7797)")
        }
      }
    }
  }

  /// The names RFC 7515 §4.1 and RFC 7518 define, which `crit` must not list (RFC 7515 §4.1.11).
  static let registeredNames: Set<String> = [
    "alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit",
  ]

  /// Checks one `crit` value (RFC 7515 §4.1.11).
  static func checkCritical(
    _ crit: JSONValue, protected: JSONValue, understood: Set<String>
  ) throws(JOSEError) {
    let names = crit.array?.compactMap(\.string) ?? []
    guard let array = crit.array, !array.isEmpty, names.count == array.count,
      Set(names).count == names.count
    else {
      throw JOSEError(.invalidHeader, "crit must be a non-empty array of distinct names")
    }
    for name in names {
      guard understood.contains(name), !registeredNames.contains(name), protected[name] != nil
      else {
        throw JOSEError(
          .invalidHeader,
          "critical header parameters are not understood: \(names.joined(separator: ","))")
      }
    }
  }

  /// Checks that protected and unprotected header names are disjoint (RFC 7515 §7.2.1).
  static func checkDisjoint(protected: JSONValue, unprotected: JSONValue?) throws(JOSEError) {
    guard let unprotected else { return }
    guard case .object(let members) = unprotected else {
      throw JOSEError(.malformedJWS, "unprotected header must be a JSON object")
    }
    for member in members where protected[member.key] != nil {
      throw JOSEError(
        .malformedJWS, "header parameter \(member.key) is both protected and unprotected")
    }
  }

  /// Reads an optional string parameter, rejecting other types (RFC 7515 §4.1).
  static func string(_ name: String, in header: JSONValue) throws(JOSEError) -> String? {
    guard let value = header[name] else { return nil }
    guard let s = value.string else {
      throw JOSEError(.invalidHeader, "header parameter \(name) must be a string")
    }
    return s
  }

  /// Reads `x5c`: an array of standard-base64 DER certificates (RFC 7515 §4.1.6).
  static func x5c(in header: JSONValue) throws(JOSEError) -> [[UInt8]]? {
    guard let value = header["x5c"] else { return nil }
    guard let array = value.array, !array.isEmpty else {
      throw JOSEError(.invalidHeader, "x5c must be a non-empty array")
    }
    var chain: [[UInt8]] = []
    for element in array {
      guard let text = element.string else {
        throw JOSEError(.invalidHeader, "x5c entries must be strings")
      }
      do {
        chain.append(try Base64.decode(text))
      } catch {
        throw JOSEError(
          .invalidHeader, "x5c entry is not base64 (not base64url): \(error.reason)",
          underlying: error)
      }
    }
    return chain
  }

  /// Reads an embedded `jwk` (RFC 7515 §4.1.3); it must be a public key.
  static func jwk(in header: JSONValue) throws(JOSEError) -> JWK? {
    guard let value = header["jwk"] else { return nil }
    let key = try JWK(json: value)
    guard !key.isPrivate else {
      throw JOSEError(.invalidHeader, "a header jwk must not contain a private key")
    }
    return key
  }

  /// Encodes certificates for `x5c` (RFC 7515 §4.1.6).
  static func x5cValue(_ chain: [[UInt8]]) -> JSONValue {
    .array(chain.map { .string(Base64.encode($0)) })
  }
}
