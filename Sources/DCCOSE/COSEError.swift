import DCCBOR
import DCCrypto
public import DCErrors

/// An error from COSE (RFC 9052/9053): an extensible code and a reason.
public struct COSEError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The structure is not a well-formed COSE message or key.
    public static let malformed = Code("malformed")
    /// The algorithm is absent, unknown, or not allowed here.
    public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
    /// The algorithm does not fit the key (ES256 needs P-256, and so on).
    public static let algorithmKeyMismatch = Code("algorithmKeyMismatch")
    /// The signature or MAC does not verify.
    public static let invalidSignature = Code("invalidSignature")
    /// The payload is detached but none was supplied, or is attached and one was supplied.
    package static let payloadMismatch = Code("payloadMismatch")
    /// A COSE_Key is not a usable key.
    public static let invalidKey = Code("invalidKey")
    /// A critical header parameter is not understood (RFC 9052 §3.1 `crit`).
    package static let unknownCriticalHeader = Code("unknownCriticalHeader")
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

  init(_ error: CBORError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.malformed, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  init(_ error: CryptoError, _ context: String, file: String = #fileID, line: UInt = #line) {
    self.init(.invalidKey, "\(context): \(error.reason)", underlying: error, file: file, line: line)
  }

  /// `COSEError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
