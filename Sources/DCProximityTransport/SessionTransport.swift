import DCErrors

/// A channel that carries whole ISO/IEC 18013-5 session messages between an mdoc and an mdoc
/// reader: each message is one CBOR data item (SessionEstablishment or SessionData, §9.1.1.4),
/// handed over and received whole.
///
/// The session layer treats every transport alike: the BLE GATT message layer
/// (``BLEGATTTransport``, §8.3.3.1.1) and the loopback TCP development transport
/// (the package's `LoopbackTCPTransport`, not part of ISO/IEC 18013-5) both conform. A transport
/// neither reads nor checks the CBOR it carries; it only bounds its size (``TransportLimits``).
///
/// Errors are ``TransportError`` values: `peerClosed` when the peer ended the connection between
/// messages, `truncatedMessage` when it ended inside one, `timedOut`, `messageTooLarge`,
/// `protocolViolation`, `closed` after ``close()``. A `timedOut` receive leaves the transport
/// usable; every other error ends it.
public protocol SessionTransport: AnyObject, Sendable {
  /// Sends one whole message. Sends are carried out in the order they are called.
  ///
  /// - Throws: `messageTooLarge` for an empty message or one above the limit, `closed`,
  ///   `peerClosed`, `timedOut`, `connectionFailed`.
  func send(_ message: [UInt8]) async throws(TransportError)

  /// Waits for the next whole message from the peer.
  ///
  /// One receive may wait at a time.
  func receive() async throws(TransportError) -> [UInt8]

  /// Ends the connection on this side: a waiting receive ends with `closed`, and so does every
  /// later call. Closing twice does nothing. On BLE this is the transport-specific termination
  /// (State End, §8.3.3.1.1.5); on TCP the socket is shut down and closed.
  func close() async
}

/// The bounds every transport applies to what its peer sends (docs/LIMITS.md, "Proximity
/// transports").
public struct TransportLimits: Sendable, Hashable {
  /// The largest message, in bytes, sent or received. A received message is refused as soon as
  /// its size is known to exceed this (a TCP frame header, or the BLE chunks so far), before
  /// anything of that size is allocated.
  public var maxMessageBytes: Int
  /// The most BLE chunks one message may take (a chunk with nothing after its continuation byte
  /// adds no bytes, so the byte limit alone would not end a stream of them).
  public var maxChunksPerMessage: Int
  /// The most whole messages received and not yet taken by ``SessionTransport/receive()``.
  package var maxQueuedMessages: Int

  /// 2 MiB per message (a DeviceResponse with a portrait is tens to hundreds of kilobytes; the
  /// command line reads at most 2 MiB for a response, `InputLimit.response`), 131 072 chunks (a
  /// 2 MiB message at the smallest ATT_MTU, 23, takes 110 377), 8 queued messages.
  public static let standard = TransportLimits(
    maxMessageBytes: 2 * 1024 * 1024, maxChunksPerMessage: 131_072, maxQueuedMessages: 8)

  /// Creates limits.
  public init(maxMessageBytes: Int, maxChunksPerMessage: Int, maxQueuedMessages: Int) {
    self.maxMessageBytes = maxMessageBytes
    self.maxChunksPerMessage = maxChunksPerMessage
    self.maxQueuedMessages = maxQueuedMessages
  }
}
