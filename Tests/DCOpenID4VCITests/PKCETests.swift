import DCCrypto
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
  @Test("RFC 7636 Appendix B: the octets give the verifier, the verifier the S256 challenge")
  func appendixB() throws {
    let vector = try loadVector("rfc7636-appendix-b")
    let octets = try #require(vector["octets"]?.array).compactMap { $0.int.map(UInt8.init) }
    let verifier = try #require(vector["code_verifier"]?.string)
    let challenge = try #require(vector["code_challenge"]?.string)
    let pkce = try PKCE(byteCount: 32, random: FixedRandom(octets: octets))
    #expect(pkce.verifier == verifier)
    #expect(pkce.challenge == challenge)
    try PKCE.verify(verifier: verifier, challenge: challenge)
  }

  @Test("A fresh verifier is 43 characters of the unreserved set and differs each time")
  func fresh() throws {
    let a = try PKCE()
    let b = try PKCE()
    #expect(a.verifier.utf8.count == 43)
    #expect(a.verifier != b.verifier)
    #expect(try PKCE(verifier: a.verifier) == a)
    #expect(try PKCE(byteCount: 96).verifier.utf8.count == 128)
    try PKCE.verify(verifier: a.verifier, challenge: a.challenge)
  }

  @Test("The server refuses a verifier that does not match the challenge")
  func mismatch() throws {
    let a = try PKCE()
    let b = try PKCE()
    expectError(.codeChallengeMismatch) {
      try PKCE.verify(verifier: b.verifier, challenge: a.challenge)
    }
    expectError(.codeChallengeMismatch) {
      try PKCE.verify(verifier: a.verifier, challenge: "not base64url!")
    }
  }

  @Test("Only S256 is accepted, never plain")
  func plain() throws {
    let a = try PKCE()
    expectError(.unsupportedCodeChallengeMethod) {
      try PKCE.verify(verifier: a.verifier, challenge: a.verifier, method: "plain")
    }
  }

  @Test(
    "Verifiers outside 43-128 unreserved characters are refused, by client and server",
    arguments: [
      String(repeating: "a", count: 42), String(repeating: "a", count: 129),
      String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + "é",
      String(repeating: "a", count: 42) + "=",
    ])
  func malformedVerifier(_ verifier: String) throws {
    expectError(.invalidCodeVerifier) { try PKCE(verifier: verifier) }
    // The challenge matches, so only the format check can refuse it.
    expectError(.invalidCodeVerifier) {
      try PKCE.verify(verifier: verifier, challenge: PKCE.challenge(for: verifier))
    }
  }

  @Test("Random byte counts outside 32-96 are refused", arguments: [0, 31, 97])
  func byteCount(_ count: Int) {
    expectError(.invalidCodeVerifier) { try PKCE(byteCount: count) }
  }

  @Test("Edge lengths 43 and 128 and every unreserved character are accepted")
  func edges() throws {
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    _ = try PKCE(verifier: String(alphabet.prefix(43)))
    _ = try PKCE(verifier: alphabet + String(alphabet.prefix(128 - alphabet.count)))
  }
}
