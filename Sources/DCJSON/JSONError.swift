public import DCErrors

/// An error from parsing JSON text, base64, base64url or hex: an extensible code and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
public struct JSONError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }

    /// The code's name, for logs.
    public var description: String { name }

    /// Text is not JSON under RFC 8259 and the parser's limits (depth, length, duplicate keys).
    public static let invalidJSON = Code("invalidJSON")
    /// Text is not strict base64url (RFC 4648 §5) or padded base64 (RFC 4648 §4).
    public static let invalidBase64 = Code("invalidBase64")
    /// Text is not an even number of hex digits (RFC 4648 §8).
    package static let invalidHex = Code("invalidHex")
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

  /// `JSONError.<code>: <reason>`.
  public var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
