public import DCErrors

/// An error from a cryptographic operation: an extensible code clients can match, and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention).
public struct CryptoError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A key's bytes are malformed, of the wrong size, or out of range for its curve.
    public static let invalidKey = Code("invalidKey")
    /// A public point is not on the expected curve, or is the point at infinity.
    package static let invalidPoint = Code("invalidPoint")
    /// A signature's encoding is malformed (not strict DER, or the wrong raw length).
    package static let invalidSignatureEncoding = Code("invalidSignatureEncoding")
    /// AEAD authentication failed: wrong key, nonce, associated data or tag.
    package static let authenticationFailure = Code("authenticationFailure")
    /// A parameter is out of range (key or nonce length, output length).
    public static let invalidParameter = Code("invalidParameter")
    /// Two keys on different curves were combined.
    package static let curveMismatch = Code("curveMismatch")
    /// The key type or curve is not one this library supports.
    public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
    /// A PEM document is malformed or has an unexpected label.
    public static let invalidPEM = Code("invalidPEM")
    /// The crypto backend reported an unexpected failure.
    package static let backendFailure = Code("backendFailure")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
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

  /// `CryptoError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
