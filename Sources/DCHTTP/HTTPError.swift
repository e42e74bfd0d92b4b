@_exported public import DCErrors

/// An error from sending or serving HTTP: an extensible code naming what failed, and a reason.
public typealias HTTPError = DCError<HTTPErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct HTTPErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The URL is not allowed by the client's policy (not https, and not a loopback address
  /// in development mode).
  public static let urlNotAllowed = Self("urlNotAllowed")
  /// The server could not be reached or the connection failed.
  public static let connectionFailed = Self("connectionFailed")
  /// No complete response arrived within the timeout.
  public static let timedOut = Self("timedOut")
  /// The response body exceeds the client's size limit.
  public static let responseTooLarge = Self("responseTooLarge")
  /// The server could not start (port in use, bad address, ...).
  package static let serverStartFailed = Self("serverStartFailed")
  /// The request cannot be sent as given (a header name that is not an RFC 9110 token, a value
  /// with CR, LF or NUL, a method that is not a token).
  public static let invalidRequest = Self("invalidRequest")
  /// The Swift task that sent the request was cancelled.
  public static let cancelled = Self("cancelled")
}
