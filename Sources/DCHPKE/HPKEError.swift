public import DCErrors

/// An error from HPKE (RFC 9180): an extensible code and a reason.
public struct HPKEError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The encapsulated key is not a valid public key of the suite's KEM (RFC 9180 §7.1.1).
    public static let invalidEncapsulatedKey = Code("invalidEncapsulatedKey")
    /// A key is on the wrong curve for the suite's KEM.
    public static let invalidKey = Code("invalidKey")
    /// Decryption failed: wrong key, info, AAD, sequence or a tampered ciphertext (RFC 9180 §5.2).
    public static let openFailed = Code("openFailed")
    /// PSK and PSK id are inconsistent with the mode (RFC 9180 §5.1 VerifyPSKInputs).
    public static let invalidPSKInputs = Code("invalidPSKInputs")
    /// The context's sequence number is exhausted (RFC 9180 §5.2 MessageLimitReachedError).
    public static let messageLimitReached = Code("messageLimitReached")
    /// DeriveKeyPair found no valid scalar in 256 candidates (RFC 9180 §7.1.3).
    public static let deriveKeyPairFailed = Code("deriveKeyPairFailed")
    /// Seal or open was called on an export-only suite (RFC 9180 §5.3).
    public static let exportOnly = Code("exportOnly")
    /// A parameter is out of range (export length, for example).
    public static let invalidParameter = Code("invalidParameter")
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

  /// `HPKEError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
