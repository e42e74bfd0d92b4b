import DCProximityTransport

// MARK: - Proximity transports (issue 14)

/// The bounds the transport targets run with: small, so inputs reach them.
private let fuzzLimits = TransportLimits(
  maxMessageBytes: 1024, maxChunksPerMessage: 64, maxQueuedMessages: 1)

/// The BLE reassembler (ISO/IEC 18013-5 §8.3.3.1.1.6). Input: one byte choosing the value limit
/// (2...65), then chunks, each a length byte and that many bytes. A message returned is exactly
/// the chunks' bytes after their continuation bytes, within the limits, and chunks back (with
/// `BLEMessageChunker`) to chunks that reassemble to it.
@Sendable func fuzzBLEReassembly(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let valueLength = 2 + Int(first % 64)
  var reassembler = BLEMessageReassembler(limits: fuzzLimits, maximumValueLength: valueLength)
  var expected: [UInt8] = []
  var chunks = 0
  var rest = bytes.dropFirst()
  while let length = rest.first {
    let chunk = Array(rest.dropFirst().prefix(Int(length)))
    rest = rest.dropFirst(1 + chunk.count)
    do {
      let message = try reassembler.append(chunk)
      expected += chunk.dropFirst()
      chunks += 1
      guard let message else {
        if !reassembler.isMidMessage { violated("a partial message left the reassembler empty") }
        continue
      }
      if message != expected { violated("the message is not the chunks' bytes") }
      if message.isEmpty || message.count > fuzzLimits.maxMessageBytes {
        violated("a message of \(message.count) bytes passed the limits")
      }
      if chunks > fuzzLimits.maxChunksPerMessage { violated("more chunks than the limit") }
      if reassembler.isMidMessage { violated("the reassembler kept bytes after a message") }
      // Full chunks never outnumber the chunks it came in (each carried at most a full one's bytes).
      guard
        let again = try? BLEMessageChunker.chunks(
          message, maximumValueLength: valueLength, limits: fuzzLimits)
      else { violated("a received message cannot be chunked again") }
      var fresh = BLEMessageReassembler(limits: fuzzLimits, maximumValueLength: valueLength)
      var result: [UInt8]?
      for piece in again {
        // `try?` would flatten the "more follows" nil into a failure: catch instead.
        do {
          result = try fresh.append(piece)
        } catch {
          violated("own chunks refused: \(error)")
        }
      }
      if result != message { violated("own chunks reassemble to another message") }
      expected = []
      chunks = 0
    } catch {
      if reassembler.isMidMessage { violated("a refused chunk left part of a message") }
      expected = []
      chunks = 0
    }
  }
}

/// The TCP frame decoder of the loopback development transport. Input: one byte choosing the
/// piece size the stream arrives in (1...32, or whole for 0), then the stream. The messages are
/// the same whatever the pieces; their frames are the stream's prefix that was taken; each is
/// within the limit; a refusal happens for the same input read whole.
@Sendable func fuzzTCPFrames(_ bytes: [UInt8]) {
  guard let first = bytes.first else { return }
  let stream = Array(bytes.dropFirst())
  func decode(pieceSize: Int) -> (messages: [[UInt8]], failed: Bool, consumed: Int) {
    var decoder = LengthPrefixedFrameDecoder(maxMessageBytes: fuzzLimits.maxMessageBytes)
    var messages: [[UInt8]] = []
    var offset = 0
    while offset < stream.count {
      var piece = stream[offset..<min(offset + pieceSize, stream.count)]
      let before = piece.count
      do {
        while let message = try decoder.next(from: &piece) { messages.append(message) }
      } catch {
        return (messages, true, offset + before - piece.count)
      }
      if !piece.isEmpty { violated("the decoder left bytes of a piece untaken") }
      offset += before
    }
    return (messages, false, stream.count)
  }
  let pieceSize = first == 0 ? max(stream.count, 1) : Int(first % 32) + 1
  let pieces = decode(pieceSize: pieceSize)
  let whole = decode(pieceSize: max(stream.count, 1))
  if pieces.messages != whole.messages || pieces.failed != whole.failed {
    violated("the messages depend on how the stream was cut")
  }
  var framed: [UInt8] = []
  for message in whole.messages {
    if message.isEmpty || message.count > fuzzLimits.maxMessageBytes {
      violated("a message of \(message.count) bytes passed the limit")
    }
    guard
      let frame = try? LengthPrefixedFrame.encode(
        message, maxMessageBytes: fuzzLimits.maxMessageBytes)
    else { violated("a received message cannot be framed again") }
    framed += frame
  }
  if Array(stream.prefix(framed.count)) != framed {
    violated("the frames are not the stream's prefix")
  }
}
