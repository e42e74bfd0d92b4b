/// What a received message means to the session that read it (ISO 18013-5 §9.1.1.4).
public enum SessionEvent: Sendable, Hashable {
  /// A decrypted message: the DeviceRequest (for the mdoc) or the DeviceResponse (for the reader).
  case message([UInt8])
  /// A decrypted message sent together with status 20: the other side has ended the session.
  case finalMessage([UInt8])
  /// Status 20 alone: the other side has ended the session.
  case terminated
}

/// Where a session is.
public enum SessionState: Sendable, Hashable {
  /// The mdoc waits for the SessionEstablishment; the reader has not sent it yet.
  case awaitingEstablishment
  /// Messages flow both ways.
  case established
  /// The session ended (normally or by a failure); every further message is refused.
  case closed
}
