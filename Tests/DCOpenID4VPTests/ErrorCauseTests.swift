import DCAPI
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import Foundation
import Testing

/// Errors keep their cause (issue 11): a wrapped error exposes the lower module's error as a
/// value, and says where it was thrown.
struct ErrorCauseTests {
  func refusal(_ protocolID: OpenID4VPProtocol, _ data: JSONValue) throws -> OpenID4VPError {
    do {
      _ = try AuthorizationRequest(
        protocol: protocolID, data: data, origin: try WebOrigin("https://verifier.example"),
        verifierTrustAnchors: [], now: Date(timeIntervalSince1970: 1_750_000_000))
    } catch let error as OpenID4VPError {
      return error
    }
    Issue.record("the request was accepted")
    throw JSONError(.invalidJSON, "unreachable")
  }

  /// A signed request whose JWS header is not base64url: OpenID4VPError → JOSEError →
  /// EncodingError.
  @Test func signedRequestWithBadBase64KeepsTwoLayersOfCause() throws {
    let error = try refusal(.signed, .object([("request", .string("!!!.e30.AAAA"))]))
    #expect(error.code == .malformed)
    #expect(error.file.hasPrefix("DCOpenID4VP/"))
    #expect(error.line > 0)
    let jose = try #require(error.underlying as? JOSEError)
    #expect(jose.code == .malformedJWS)
    #expect(jose.file.hasPrefix("DCJOSE/"))
    let encoding = try #require(jose.underlying as? EncodingError)
    #expect(encoding.code == .invalidBase64)
    #expect(encoding.file == "DCEncoding/Base64.swift")
    #expect(encoding.underlying == nil)
    // The text stays as it was: the cause is added, not printed.
    #expect(!error.description.contains(error.file))
    #expect(
      error.description
        == "OpenID4VPError.malformed: request JWS: protected header: invalid base64url character at offset 0"
    )
    #expect(error.debugDescription.contains("caused by: JOSEError.malformedJWS"))
    #expect(error.debugDescription.contains("caused by: EncodingError.invalidBase64"))
  }

  /// Request `data` as a string that is not JSON: the JSON parser's error is the cause.
  @Test func dataStringThatIsNotJSONKeepsTheParserError() throws {
    let error = try refusal(.unsigned, .string("{not json"))
    #expect(error.code == .malformed)
    #expect(error.file == "DCOpenID4VP/AuthorizationRequest.swift")
    #expect((error.underlying as? JSONError)?.code == .invalidJSON)
  }

  /// Equality and hashing compare the code and reason, never the cause or the throw site.
  @Test func equalityIgnoresReasonCauseAndThrowSite() {
    let plain = OpenID4VPError(.malformed, "x")
    let wrapped = OpenID4VPError(
      .malformed, "x", underlying: JSONError(.invalidJSON, "y"), file: "Elsewhere.swift", line: 7)
    #expect(plain == wrapped)
    #expect(Set([plain, wrapped]).count == 1)
    #expect(plain == OpenID4VPError(.malformed, "z"))
    #expect(plain != OpenID4VPError(.invalidRequest, "x"))
    #expect(wrapped.file == "Elsewhere.swift" && wrapped.line == 7)
    #expect(plain.file == "DCOpenID4VPTests/ErrorCauseTests.swift")
  }
}
