/// An error from the DC API layer: an extensible code and a reason.
public struct DigitalCredentialsError: Error, Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
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

  // Errors keep their cause (issue 11): the same shape in every protocol module's error.
  // `code` is stable and the thing to match on; `reason` is for people; `underlying` keeps the
  // error this one wraps as a value (cast it to the lower module's error type, it is never
  // flattened into `reason`); `file`/`line` say where it was thrown (`#fileID`, `#line`).
  // Equality and hashing use the code and reason only (plus this type's own location fields),
  // never the cause or the throw site, so tests can build the expected error directly.

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

  public var description: String { "DigitalCredentialsError.\(code): \(reason)" }

  /// Equal when the code and reason are; the cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason
  }

  /// Hashes the fields `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
  }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String {
    var text = "\(description) (\(file):\(line))"
    if let underlying { text += "\n  caused by: " + String(reflecting: underlying) }
    return text
  }

}
