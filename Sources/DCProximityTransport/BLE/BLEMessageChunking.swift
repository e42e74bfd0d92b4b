import DCErrors

/// Splits a session message into the characteristic values that carry it (ISO/IEC 18013-5
/// §8.3.3.1.1.6): each value is at most ATT_MTU − 3 bytes; its first byte is 0x01 when more of
/// the message follows and 0x00 on the last one, the rest is the next part of the message.
public enum BLEMessageChunker {
  /// The continuation byte of a chunk after which more follow.
  package static let moreFollows: UInt8 = 0x01
  /// The continuation byte of a message's last chunk.
  package static let last: UInt8 = 0x00

  /// The chunks of `message` for values of at most `maximumValueLength` bytes (ATT_MTU − 3).
  ///
  /// - Throws: `messageTooLarge` for an empty message or one above `limits.maxMessageBytes`, or
  ///   one needing more than `limits.maxChunksPerMessage` chunks; `protocolViolation` when
  ///   `maximumValueLength` leaves no room for a byte of the message (below 2).
  public static func chunks(
    _ message: [UInt8], maximumValueLength: Int, limits: TransportLimits = .standard
  ) throws(TransportError) -> [[UInt8]] {
    guard !message.isEmpty else {
      throw TransportError(
        .messageTooLarge, "an empty message cannot be sent: no CBOR data item is empty")
    }
    guard message.count <= limits.maxMessageBytes else {
      throw TransportError(
        .messageTooLarge,
        "the message of \(message.count) bytes is above the limit of \(limits.maxMessageBytes)")
    }
    guard maximumValueLength >= 2 else {
      throw TransportError(
        .protocolViolation,
        "a characteristic value of \(maximumValueLength) bytes leaves no room after the continuation byte"
      )
    }
    let payload = maximumValueLength - 1
    let count = (message.count + payload - 1) / payload
    guard count <= limits.maxChunksPerMessage else {
      throw TransportError(
        .messageTooLarge,
        "the message needs \(count) chunks of \(payload) bytes, above the limit of \(limits.maxChunksPerMessage)"
      )
    }
    var chunks: [[UInt8]] = []
    chunks.reserveCapacity(count)
    var start = 0
    while start < message.count {
      let end = min(start + payload, message.count)
      var chunk: [UInt8] = [end == message.count ? last : moreFollows]
      chunk.append(contentsOf: message[start..<end])
      chunks.append(chunk)
      start = end
    }
    return chunks
  }
}

/// Joins the chunks of one session message back together (ISO/IEC 18013-5 §8.3.3.1.1.6),
/// bounded in the message's size and its number of chunks.
public struct BLEMessageReassembler: Sendable {
  /// The bounds applied.
  package let limits: TransportLimits
  /// The largest chunk accepted, in bytes (ATT_MTU − 3 of the link; a value cannot be longer).
  public let maximumValueLength: Int
  private var buffer: [UInt8] = []
  private var chunkCount = 0

  /// A reassembler with nothing received.
  public init(limits: TransportLimits = .standard, maximumValueLength: Int = 512) {
    self.limits = limits
    self.maximumValueLength = maximumValueLength
  }

  /// Whether part of a message has arrived and its last chunk has not.
  public var isMidMessage: Bool { chunkCount > 0 }

  /// Takes one chunk; returns the whole message when this was its last chunk.
  ///
  /// - Throws: `protocolViolation` for an empty chunk, a continuation byte other than 0x00 or
  ///   0x01, a chunk longer than ``maximumValueLength``, a "more follows" chunk carrying nothing,
  ///   or a message that ends empty; `messageTooLarge` when the message passes
  ///   `limits.maxMessageBytes` or `limits.maxChunksPerMessage`. After a throw the reassembler
  ///   is empty again.
  public mutating func append(_ chunk: [UInt8]) throws(TransportError) -> [UInt8]? {
    do {
      return try take(chunk)
    } catch {
      buffer = []
      chunkCount = 0
      throw error
    }
  }

  private mutating func take(_ chunk: [UInt8]) throws(TransportError) -> [UInt8]? {
    guard let flag = chunk.first else {
      throw TransportError(.protocolViolation, "an empty chunk has no continuation byte")
    }
    guard flag == BLEMessageChunker.last || flag == BLEMessageChunker.moreFollows else {
      throw TransportError(
        .protocolViolation, "the continuation byte is \(flag); only 0x00 and 0x01 are defined")
    }
    guard chunk.count <= maximumValueLength else {
      throw TransportError(
        .protocolViolation,
        "a chunk of \(chunk.count) bytes is longer than the characteristic value limit of \(maximumValueLength)"
      )
    }
    guard flag == BLEMessageChunker.last || chunk.count > 1 else {
      throw TransportError(
        .protocolViolation, "a chunk with more to follow carries no message bytes")
    }
    guard chunkCount < limits.maxChunksPerMessage else {
      throw TransportError(
        .messageTooLarge, "the message takes more than \(limits.maxChunksPerMessage) chunks")
    }
    guard chunk.count - 1 <= limits.maxMessageBytes - buffer.count else {
      throw TransportError(
        .messageTooLarge, "the message is larger than the limit of \(limits.maxMessageBytes) bytes")
    }
    chunkCount += 1
    buffer.append(contentsOf: chunk.dropFirst())
    guard flag == BLEMessageChunker.last else { return nil }
    let message = buffer
    buffer = []
    chunkCount = 0
    guard !message.isEmpty else {
      throw TransportError(.protocolViolation, "a message ended with no bytes")
    }
    return message
  }
}
