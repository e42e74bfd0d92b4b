import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

/// Loads a vector file of this target's `Vectors` folder (SOURCE.md names each one's origin).
func vciVector(_ name: String, ext: String = "json") throws -> [UInt8] {
  try VectorFile.bytes(name, ext: ext, in: .module)
}

/// Parses JSON written in a test.
func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

/// Expects `body` to throw an `OpenID4VCIError` with `code`; returns it for further checks.
@discardableResult
func expectVCIError<T>(
  _ code: OpenID4VCIErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) -> OpenID4VCIError? {
  do {
    _ = try body()
    Issue.record(
      "expected OpenID4VCIError.\(code), nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as OpenID4VCIError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    return error
  } catch {
    Issue.record("expected OpenID4VCIError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

/// A minimal valid credential issuer metadata object for `issuer`, to mutate in negative tests.
func minimalIssuerMetadata(issuer: String = "https://issuer.example.com") -> JSONValue {
  [
    "credential_issuer": .string(issuer),
    "credential_endpoint": .string(issuer + "/credential"),
    "credential_configurations_supported": [
      "mDL": ["format": "mso_mdoc", "doctype": "org.iso.18013.5.1.mDL"]
    ],
  ]
}

/// Sets the member at `path` (object keys) in `value`, creating objects on the way.
func setting(_ value: JSONValue, _ path: [String], _ new: JSONValue?) -> JSONValue {
  guard let first = path.first else { return new ?? .null }
  if path.count == 1 {
    return new.map { value.setting(first, to: $0) } ?? value.removing(first)
  }
  return value.setting(
    first, to: setting(value[first] ?? .object([]), Array(path.dropFirst()), new))
}
