public import DCErrors

/// An error from sending or serving HTTP: an extensible code naming what failed, and a reason.
public struct HTTPError: CausedError {
  /// What kind of failure this is; match on it, never on the reason text.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    /// The code's name.
    public var description: String { name }

    /// The URL is not allowed by the client's policy (not https, and not a loopback address
    /// in development mode).
    public static let urlNotAllowed = Code("urlNotAllowed")
    /// The server could not be reached or the connection failed.
    public static let connectionFailed = Code("connectionFailed")
    /// No complete response arrived within the timeout.
    public static let timedOut = Code("timedOut")
    /// The response body exceeds the client's size limit.
    public static let responseTooLarge = Code("responseTooLarge")
    /// The server could not start (port in use, bad address, ...).
    public static let serverStartFailed = Code("serverStartFailed")
    /// The request cannot be sent as given (a header name that is not an RFC 9110 token, a value
    /// with CR, LF or NUL, a method that is not a token).
    public static let invalidRequest = Code("invalidRequest")
    /// The Swift task that sent the request was cancelled.
    public static let cancelled = Code("cancelled")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String
  /// The error this one wraps (a `URLError`, a system error), kept as a value.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with its code, a reason, and optionally the error it wraps.
  public init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.file = file
    self.line = line
  }

  /// `HTTPError.code: reason`.
  public var description: String { causedDescription }
  /// The description, the throw site and the cause chain.
  public var debugDescription: String { causedDebugDescription }
}
