@_exported public import DCErrors
import DCJSON

/// An error from JOSE parsing, signing, verification or encryption: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
public typealias JOSEError = DCError<JOSEErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct JOSEErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  /// Text is not strict base64url (RFC 7515 §2, RFC 4648 §5) or base64 (RFC 4648 §4).
  package static let invalidBase64URL = Self("invalidBase64URL")
  /// Text is not JSON under RFC 8259 and this module's limits (depth, length, duplicate keys).
  package static let invalidJSON = Self("invalidJSON")
  /// An `alg`, `enc`, `kty` or `crv` value this module does not implement (RFC 7518 §3.1).
  public static let unsupportedAlgorithm = Self("unsupportedAlgorithm")
  /// The algorithm names a curve other than the key's (RFC 7518 §3.4).
  package static let algorithmKeyMismatch = Self("algorithmKeyMismatch")
  /// A JWS signature does not verify, or has the wrong length (RFC 7515 §5.2).
  public static let invalidSignature = Self("invalidSignature")
  /// A JWS is not well formed (RFC 7515 §5.2, §7).
  public static let malformedJWS = Self("malformedJWS")
  /// A JWE is not well formed (RFC 7516 §5.2, §7.1).
  package static let malformedJWE = Self("malformedJWE")
  /// JWE decryption failed: wrong key, or tampered header, IV, ciphertext or tag (RFC 7516 §5.2).
  public static let decryptionFailed = Self("decryptionFailed")
  /// A JWK is malformed, off its curve, or its private part does not match (RFC 7517 §4).
  public static let invalidKey = Self("invalidKey")
  /// A header parameter is missing, mistyped or not understood (RFC 7515 §4.1, §4.1.11).
  package static let invalidHeader = Self("invalidHeader")
  /// The JWT has expired (RFC 7519 §4.1.4).
  public static let expired = Self("expired")
  /// The JWT is not valid yet (RFC 7519 §4.1.5, §4.1.6).
  public static let notYetValid = Self("notYetValid")
  /// A required JWT claim is absent (RFC 7519 §4.1).
  public static let missingClaim = Self("missingClaim")
  /// A JWT claim has the wrong type (RFC 7519 §4.1).
  package static let invalidClaim = Self("invalidClaim")
  /// No key in a JWK Set matches the requested `kid` (RFC 7517 §5).
  package static let keyNotFound = Self("keyNotFound")
  /// The signer or the crypto backend failed while producing a JWS or JWE.
  package static let cryptoFailure = Self("cryptoFailure")
}
