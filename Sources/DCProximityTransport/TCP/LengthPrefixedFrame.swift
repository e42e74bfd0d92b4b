import DCErrors

/// The framing of the loopback TCP development transport: each session message is sent as a
/// 4-byte big-endian length followed by the message itself.
///
/// This framing is NOT part of ISO/IEC 18013-5 (whose transports are BLE, NFC and Wi-Fi Aware,
/// §8.3.3.1); it carries the same SessionEstablishment / SessionData messages between two
/// processes on one machine for the command line and tests.
public enum LengthPrefixedFrame {
  /// The bytes of the length prefix.
  package static let headerLength = 4

  /// `message` framed: its length as 4 bytes, most significant first, then the message.
  ///
  /// - Throws: `messageTooLarge` for an empty message or one above `maxMessageBytes`.
  public static func encode(_ message: [UInt8], maxMessageBytes: Int) throws(TransportError)
    -> [UInt8]
  {
    guard !message.isEmpty else {
      throw TransportError(
        .messageTooLarge, "an empty message cannot be sent: no CBOR data item is empty")
    }
    guard message.count <= min(maxMessageBytes, Int(UInt32.max)) else {
      throw TransportError(
        .messageTooLarge,
        "the message of \(message.count) bytes is above the limit of \(maxMessageBytes)")
    }
    let length = UInt32(message.count)
    var frame: [UInt8] = [
      UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
      UInt8(length & 0xFF),
    ]
    frame.reserveCapacity(headerLength + message.count)
    frame.append(contentsOf: message)
    return frame
  }
}

/// Reads length-prefixed frames (``LengthPrefixedFrame``) from bytes as they arrive, in pieces
/// of any size. The declared length is checked against the limit as soon as its 4 bytes are
/// in, before any of the body is kept; the body is kept as it arrives, never allocated at its
/// declared size ahead of it.
public struct LengthPrefixedFrameDecoder: Sendable {
  /// The largest message accepted.
  public let maxMessageBytes: Int
  private var header: [UInt8] = []
  private var expected: Int?
  private var body: [UInt8] = []

  /// A decoder with nothing read.
  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Whether part of a frame has been read and its end has not.
  package var isMidFrame: Bool { !header.isEmpty || expected != nil }

  /// Takes bytes from the front of `input` until one whole message is read, and returns it; nil
  /// when `input` ran out first (what was taken is kept for the next call).
  ///
  /// - Throws: `messageTooLarge` when a header declares more than ``maxMessageBytes``;
  ///   `protocolViolation` when it declares 0 (no CBOR data item is empty). The decoder is
  ///   then unusable: the stream has lost its framing.
  public mutating func next(from input: inout ArraySlice<UInt8>) throws(TransportError)
    -> [UInt8]?
  {
    while true {
      guard let length = expected else {
        let needed = LengthPrefixedFrame.headerLength - header.count
        let taken = input.prefix(needed)
        header.append(contentsOf: taken)
        input = input.dropFirst(taken.count)
        guard header.count == LengthPrefixedFrame.headerLength else { return nil }
        let declared = header.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard declared != 0 else {
          throw TransportError(.protocolViolation, "a frame declares an empty message")
        }
        guard declared <= UInt64(maxMessageBytes) else {
          throw TransportError(
            .messageTooLarge,
            "a frame declares \(declared) bytes, above the limit of \(maxMessageBytes)")
        }
        expected = Int(declared)
        continue
      }
      let taken = input.prefix(length - body.count)
      body.append(contentsOf: taken)
      input = input.dropFirst(taken.count)
      guard body.count == length else { return nil }
      let message = body
      body = []
      header = []
      expected = nil
      return message
    }
  }
}
