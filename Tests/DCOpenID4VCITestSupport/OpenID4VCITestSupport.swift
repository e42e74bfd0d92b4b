public import DCCrypto
import DCEncoding
import DCJOSE
public import DCJSON
public import DCOpenID4VCI
public import Foundation
public import Testing

// What the OpenID4VCI protocol tests and the issuer's tests share (issue 27: one copy).

/// Expects `body` to throw an `OpenID4VCIError` with `code`.
public func expectError<T>(
  _ code: OpenID4VCIErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    _ = try body()
    Issue.record(
      "expected OpenID4VCIError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as OpenID4VCIError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected OpenID4VCIError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
}

/// A fixed instant for the injected clocks.
public let testNow = Date(timeIntervalSince1970: 1_760_000_000)

/// A JWS built by hand, so that a test can put anything in the header (even what `JWS.sign`
/// refuses, such as a private `jwk`).
public func rawJWS(header: JSONValue, claims: JSONValue, key: ECPrivateKey) throws -> String {
  let input =
    Base64URL.encode(header.serializedBytes()) + "."
    + Base64URL.encode(claims.serializedBytes())
  let signature = try key.signature(for: Array(input.utf8))
  return input + "." + Base64URL.encode(signature.rawRepresentation)
}

/// Returns `object` with member `name` set to `value` (appended when absent), or removed when
/// `value` is nil.
public func setting(_ object: JSONValue, _ name: String, _ value: JSONValue?) -> JSONValue {
  guard case .object(var members) = object else { return object }
  if let index = members.firstIndex(where: { $0.key == name }) {
    if let value { members[index].value = value } else { members.remove(at: index) }
  } else if let value {
    members.append((name, value))
  }
  return .object(members)
}

/// The decoded header and claims of a compact JWS.
public func decodeJWT(_ compact: String) throws -> (header: JSONValue, claims: JSONValue) {
  let parts = compact.split(separator: ".")
  return (
    try JSONValue(parsing: try Base64URL.decode(String(parts[0]))),
    try JSONValue(parsing: try Base64URL.decode(String(parts[1])))
  )
}

/// Random bytes given in advance, then zeros.
public struct FixedRandom: RandomSource {
  public let octets: [UInt8]
  public init(octets: [UInt8]) { self.octets = octets }
  public func bytes(count: Int) -> [UInt8] {
    Array((octets + [UInt8](repeating: 0, count: max(0, count - octets.count))).prefix(count))
  }
}
