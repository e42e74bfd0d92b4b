public import DCErrors
/// An error from JOSE parsing, signing, verification or encryption: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
import DCJSON

public struct JOSEError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }

    /// The code's name, for logs.
    public var description: String { name }

    /// Text is not strict base64url (RFC 7515 §2, RFC 4648 §5) or base64 (RFC 4648 §4).
    package static let invalidBase64URL = Code("invalidBase64URL")
    /// Text is not JSON under RFC 8259 and this module's limits (depth, length, duplicate keys).
    public static let invalidJSON = Code("invalidJSON")
    /// An `alg`, `enc`, `kty` or `crv` value this module does not implement (RFC 7518 §3.1).
    public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
    /// The algorithm names a curve other than the key's (RFC 7518 §3.4).
    public static let algorithmKeyMismatch = Code("algorithmKeyMismatch")
    /// A JWS signature does not verify, or has the wrong length (RFC 7515 §5.2).
    public static let invalidSignature = Code("invalidSignature")
    /// A JWS is not well formed (RFC 7515 §5.2, §7).
    public static let malformedJWS = Code("malformedJWS")
    /// A JWE is not well formed (RFC 7516 §5.2, §7.1).
    package static let malformedJWE = Code("malformedJWE")
    /// JWE decryption failed: wrong key, or tampered header, IV, ciphertext or tag (RFC 7516 §5.2).
    public static let decryptionFailed = Code("decryptionFailed")
    /// A JWK is malformed, off its curve, or its private part does not match (RFC 7517 §4).
    public static let invalidKey = Code("invalidKey")
    /// A header parameter is missing, mistyped or not understood (RFC 7515 §4.1, §4.1.11).
    public static let invalidHeader = Code("invalidHeader")
    /// The JWT has expired (RFC 7519 §4.1.4).
    public static let expired = Code("expired")
    /// The JWT is not valid yet (RFC 7519 §4.1.5, §4.1.6).
    public static let notYetValid = Code("notYetValid")
    /// A required JWT claim is absent (RFC 7519 §4.1).
    public static let missingClaim = Code("missingClaim")
    /// A JWT claim has the wrong type (RFC 7519 §4.1).
    public static let invalidClaim = Code("invalidClaim")
    /// No key in a JWK Set matches the requested `kid` (RFC 7517 §5).
    package static let keyNotFound = Code("keyNotFound")
    /// The signer or the crypto backend failed while producing a JWS or JWE.
    public static let cryptoFailure = Code("cryptoFailure")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation, never containing key material.
  public let reason: String

  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code and a reason.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.underlying = underlying
    self.file = file
    self.line = line
    self.code = code
    self.reason = reason
  }

  /// `JOSEError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
