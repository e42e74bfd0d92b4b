package import DCCrypto
import DCEncoding
import DCHTTP
import DCJSON

/// Proof Key for Code Exchange (RFC 7636) with the `S256` method, the only one HAIP 1.0 allows.
///
/// The client keeps ``verifier`` secret, sends ``challenge`` in the authorization request and
/// the verifier in the token request; the server checks one against the other with
/// ``PKCE/verify(verifier:challenge:method:)``.
package struct PKCE: Sendable, Hashable {
  /// The `code_verifier` (RFC 7636 §4.1): 43-128 characters of `[A-Za-z0-9-._~]`.
  package let verifier: String

  /// The `code_challenge_method` this type implements (RFC 7636 §4.2).
  package static let method = "S256"

  /// The shortest and longest `code_verifier` (RFC 7636 §4.1).
  package static let verifierLengths = 43...128

  /// A fresh verifier: `byteCount` bytes from `random` (the crypto backend's secure generator
  /// by default), base64url-encoded without padding as RFC 7636 §4.1 recommends.
  ///
  /// 32 bytes (the default) give a 43-character verifier with 256 bits of entropy; `byteCount`
  /// must lie in 32...96 so that the verifier has 43-128 characters.
  package init(byteCount: Int = 32, random: any RandomSource = SecureRandom())
    throws(OpenID4VCIError)
  {
    guard (32...96).contains(byteCount) else {
      throw OpenID4VCIError(
        .invalidCodeVerifier,
        "a code_verifier needs 32-96 random bytes (43-128 characters), not \(byteCount)")
    }
    let bytes = random.bytes(count: byteCount)
    guard bytes.count == byteCount else {
      throw OpenID4VCIError(.invalidCodeVerifier, "the random source returned too few bytes")
    }
    verifier = Base64URL.encode(bytes)
  }

  /// Wraps an existing verifier, checking its length and alphabet (RFC 7636 §4.1).
  package init(verifier: String) throws(OpenID4VCIError) {
    try Self.checkVerifier(verifier)
    self.verifier = verifier
  }

  /// The `code_challenge`: `BASE64URL(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2).
  package var challenge: String { Self.challenge(for: verifier) }

  /// The S256 challenge of a verifier (RFC 7636 §4.2); the verifier is not checked.
  package static func challenge(for verifier: String) -> String {
    Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
  }

  /// The server's check (RFC 7636 §4.6): the verifier is well formed and hashes to the stored
  /// challenge. Only `S256` is accepted: `plain` would reveal the verifier in the front channel.
  ///
  /// The comparison is over the two SHA-256 digests in constant time, so timing reveals nothing
  /// about how much of the challenge matched.
  ///
  /// - Throws: `unsupportedCodeChallengeMethod`, `invalidCodeVerifier`, `codeChallengeMismatch`.
  package static func verify(verifier: String, challenge: String, method: String = Self.method)
    throws(OpenID4VCIError)
  {
    guard method == Self.method else {
      throw OpenID4VCIError(
        .unsupportedCodeChallengeMethod, "code_challenge_method \(method) is not S256")
    }
    try checkVerifier(verifier)
    let computed = SHA256.hash(data: Array(verifier.utf8))
    let expected: [UInt8]
    do {
      expected = try Base64URL.decode(challenge)
    } catch {
      throw OpenID4VCIError(
        .codeChallengeMismatch, "the stored code_challenge is not base64url", underlying: error)
    }
    guard constantTimeEquals(computed, expected) else {
      throw OpenID4VCIError(.codeChallengeMismatch, "code_verifier does not match code_challenge")
    }
  }

  /// RFC 7636 §4.1: `code-verifier = 43*128unreserved`, `unreserved = ALPHA / DIGIT / "-" / "." /
  /// "_" / "~"`.
  static func checkVerifier(_ verifier: String) throws(OpenID4VCIError) {
    let bytes = Array(verifier.utf8)
    guard verifierLengths.contains(bytes.count) else {
      throw OpenID4VCIError(
        .invalidCodeVerifier, "code_verifier has \(bytes.count) characters, not 43-128")
    }
    for byte in bytes where !isUnreserved(byte) {
      throw OpenID4VCIError(
        .invalidCodeVerifier, "code_verifier has a character outside [A-Za-z0-9-._~]")
    }
  }

  static func isUnreserved(_ byte: UInt8) -> Bool { FormEncoding.isUnreserved(byte) }
}
