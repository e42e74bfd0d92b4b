public import DCErrors

/// An error from the DC API layer: an extensible code and a reason.
public struct DigitalCredentialsError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The request envelope or its `data` cannot be read.
    public static let invalidRequest = Code("invalidRequest")
    /// No request in the envelope uses a protocol this wallet answers.
    public static let unsupportedProtocol = Code("unsupportedProtocol")
    /// The origin is not a serialized web origin (WHATWG HTML §7.5).
    public static let invalidOrigin = Code("invalidOrigin")
    /// `encryptionInfo` is malformed: tag, nonce or recipient key (ISO/IEC TS 18013-7 C.3.2.1).
    public static let invalidEncryptionInfo = Code("invalidEncryptionInfo")
    /// A reader signature does not verify: the request must be refused.
    public static let invalidReaderAuthentication = Code("invalidReaderAuthentication")
    /// The reader is not trusted and the caller's policy requires it.
    public static let untrustedReader = Code("untrustedReader")
    /// The consent asks for something the request or the credential does not cover.
    public static let consentViolation = Code("consentViolation")
    /// No stored credential can answer the request.
    public static let noMatchingCredential = Code("noMatchingCredential")
    /// The encrypted response cannot be opened (wrong key, origin or a tampered message).
    public static let decryptionFailed = Code("decryptionFailed")
    /// The response does not verify (issuer, device authentication, or what was returned).
    public static let verificationFailed = Code("verificationFailed")
    /// A signing or sealing step failed.
    public static let cryptoFailure = Code("cryptoFailure")
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

  /// `DigitalCredentialsError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
