@_exported public import DCErrors

/// An error from a proximity transport: an extensible code naming what failed, and a reason.
public typealias TransportError = DCError<TransportErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct TransportErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The peer ended the connection between two messages (a TCP close at a frame boundary, the
  /// BLE State characteristic's End, or a BLE disconnect with no message under way).
  public static let peerClosed = Self("peerClosed")
  /// The peer ended the connection in the middle of a message (inside a TCP frame, or between
  /// two BLE chunks of one message).
  public static let truncatedMessage = Self("truncatedMessage")
  /// Nothing arrived (or could be sent) within the configured time.
  public static let timedOut = Self("timedOut")
  /// A message is larger than the transport's limit (declared by a TCP frame header, or
  /// reached while BLE chunks arrive, or the number of chunks of one message), or a message
  /// given to send is larger than that limit.
  public static let messageTooLarge = Self("messageTooLarge")
  /// The peer broke the transport's rules: an unknown State value, a chunk without its
  /// continuation byte, a write to the wrong characteristic, an empty message, more messages
  /// waiting than the limit allows.
  public static let protocolViolation = Self("protocolViolation")
  /// The BLE Ident characteristic read from the mdoc reader is not the value derived from this
  /// session's EDeviceKeyBytes (ISO/IEC 18013-5 §8.3.3.1.1.4).
  public static let identMismatch = Self("identMismatch")
  /// The connection could not be made or failed underneath (connect refused, a socket error,
  /// the radio link reporting a failure).
  public static let connectionFailed = Self("connectionFailed")
  /// The transport was closed on this side, or is used in a way its state does not allow (a
  /// second receive while one waits, a send before the connection is set up).
  public static let closed = Self("closed")
}
