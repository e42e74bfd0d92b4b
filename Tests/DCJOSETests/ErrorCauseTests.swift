import DCJOSE
import DCJSON
import Testing

/// Errors keep their cause (issue 11) in JOSE.
struct JOSEErrorCauseTests {
  @Test func jwkMemberThatIsNotBase64URLKeepsTheDecoderError() throws {
    let json = try JSONValue(
      parsing: Array(#"{"kty":"EC","crv":"P-256","x":"!!","y":"AAAA"}"#.utf8))
    do {
      _ = try JWK(json: json)
      Issue.record("a JWK member that is not base64url was accepted")
    } catch {
      #expect(error.code == .invalidBase64URL)
      #expect(error.file == "DCJOSE/JWK.swift")
      #expect((error.underlying as? JSONError)?.code == .invalidBase64)
    }
  }
}
