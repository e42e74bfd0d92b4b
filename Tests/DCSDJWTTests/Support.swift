import DCCrypto
import DCJOSE
import DCJSON
import DCSDJWT
import DCTestSupport
import Foundation
import Testing

/// Loads a vector file shipped in this target's `Vectors` folder, parsed with our own parser.
func loadVector(_ name: String) throws -> JSONValue {
  try JSONValue(parsing: VectorFile.bytes(name, in: .module))
}

/// Expects `body` to throw an `SDJWTError` with `code`.
func expectSDJWTError<T>(
  _ code: SDJWTErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  do {
    _ = try body()
    Issue.record("expected SDJWTError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as SDJWTError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected SDJWTError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
}

/// The value with every object's members sorted by key, for order-insensitive comparison.
func canonical(_ value: JSONValue) -> JSONValue {
  switch value {
  case .object(let members):
    .object(members.map { ($0.key, canonical($0.value)) }.sorted { $0.0 < $1.0 })
  case .array(let elements): .array(elements.map(canonical))
  default: value
  }
}

/// A deterministic random source (not for production).
struct CountingRandom: RandomSource {
  let seed: UInt8
  func bytes(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
  }
}

/// Signs an arbitrary issuer payload, for crafting SD-JWTs the issuer API refuses to make.
func craftedSDJWT(
  payload: JSONValue, disclosures: [String], signer: any Signer,
  header: JSONValue = ["typ": "dc+sd-jwt"], keyBindingJWT: String = ""
) throws -> String {
  let jwt = try JWS.sign(
    payload: payload.serializedBytes(), protectedHeader: header, signer: signer)
  return ([jwt] + disclosures).joined(separator: "~") + "~" + keyBindingJWT
}

/// Signs an arbitrary KB-JWT, for crafting presentations the holder API refuses to make.
func craftedKeyBindingJWT(
  claims: JSONValue, signer: any Signer, header: JSONValue = ["typ": "kb+jwt"]
) throws -> String {
  try JWS.sign(payload: claims.serializedBytes(), protectedHeader: header, signer: signer)
}

extension Date {
  /// A date from Unix seconds.
  static func unix(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}
