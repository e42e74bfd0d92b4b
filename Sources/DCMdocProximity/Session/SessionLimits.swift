/// The bounds a session applies to what it receives (docs/LIMITS.md, "Proximity session").
public struct SessionLimits: Sendable, Hashable {
  /// The largest SessionEstablishment or SessionData accepted, in bytes. A larger message ends the
  /// session with status 11 before it is decoded.
  package var maxMessageByteCount: Int

  /// Creates limits.
  public init(maxMessageByteCount: Int = 4 << 20) {
    self.maxMessageByteCount = maxMessageByteCount
  }

  /// 4 MiB: a DeviceResponse with an mDL and its portrait is tens of kilobytes, and several
  /// documents with portraits stay well under 1 MiB.
  public static let `default` = SessionLimits()
}
