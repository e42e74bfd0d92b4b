import DCCBOR

/// A cursor over the encoding of a known ISO 18013-5 structure that reads it directly and gives
/// up (nil) at the first thing it does not read; the structure readers are extensions (see
/// `DeviceRequest.readDirectly(_:)` and `IssuerSigned.readDirectly(_:)`), this part reads heads,
/// strings and keys (RFC 8949 §3) and hands open parts to the generic decoder.
struct DirectReader {
  /// The largest input read directly. Below this size no string, array or map can exceed
  /// `CBORDecoder.Limits.default`'s item length or item count, so the generic limits need not
  /// be repeated by the readers.
  static let maxInput = 1 << 20

  let bytes: [UInt8]
  var offset = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  var remaining: Int { bytes.count - offset }

  /// A definite-length head (RFC 8949 §3): major type and argument; nil for an indefinite
  /// length, reserved additional information, an argument past the input, or a truncated head.
  mutating func head() -> (major: UInt8, argument: Int)? {
    // Every length and tag number read here is small; anything larger goes the generic way.
    guard let head = fullHead(), head.argument <= UInt64(Self.maxInput) else { return nil }
    return (head.major, Int(head.argument))
  }

  /// A definite-length head with its whole 64-bit argument (an unsigned integer's value); nil
  /// for an indefinite length, reserved additional information or a truncated head. The offset
  /// moves past the head only when it is read.
  mutating func fullHead() -> (major: UInt8, argument: UInt64)? {
    guard offset < bytes.count else { return nil }
    let initial = bytes[offset]
    let info = initial & 0x1f
    let width: Int
    switch info {
    case 0..<24: width = 0
    case 24: width = 1
    case 25: width = 2
    case 26: width = 4
    case 27: width = 8
    default: return nil
    }
    guard remaining > width else { return nil }
    var argument = width == 0 ? UInt64(info) : 0
    if width > 0 {
      for index in 1...width { argument = argument << 8 | UInt64(bytes[offset + index]) }
    }
    offset += 1 + width
    return (initial >> 5, argument)
  }

  /// The content range of a definite-length text string (major type 3).
  mutating func textRange() -> Range<Int>? {
    guard let head = head(), head.major == 3, head.argument <= remaining else { return nil }
    defer { offset += head.argument }
    return offset..<(offset + head.argument)
  }

  /// The text of `bytes[range]` as the generic decoder makes it, nil when not valid UTF-8.
  func text(_ range: Range<Int>) -> String? {
    bytes.withUnsafeBufferPointer { buffer in
      let slice = UnsafeBufferPointer(rebasing: buffer[range])
      for byte in slice where byte >= 0x80 {
        return String(validating: slice, as: UTF8.self)
      }
      return String(decoding: slice, as: UTF8.self)
    }
  }

  /// A definite-length text string's value.
  mutating func readText() -> String? {
    guard let range = textRange() else { return nil }
    return text(range)
  }

  /// Whether two ranges of the input hold the same bytes (lengths first, then byte by byte
  /// through the buffer, not through generic slice equality).
  func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    guard a.count == b.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      for index in 0..<a.count where buffer[a.lowerBound + index] != buffer[b.lowerBound + index] {
        return false
      }
      return true
    }
  }

  /// The length and the first three and last four bytes of a key: keys with different prints
  /// differ, so only keys with equal prints are compared byte by byte.
  func fingerprint(_ range: Range<Int>) -> UInt64 {
    var print = UInt64(truncatingIfNeeded: range.count) << 56
    for index in 0..<min(3, range.count) {
      print |= UInt64(bytes[range.lowerBound + index]) << (32 + 8 * UInt64(index))
    }
    for index in 0..<min(4, range.count) {
      print |= UInt64(bytes[range.upperBound - 1 - index]) << (8 * UInt64(index))
    }
    return print
  }

  /// Whether the key at `range` repeats one of `ranges` (RFC 8949 §5.6: text keys are equal when
  /// their UTF-8 bytes are); its print is appended to `prints` (one per range) when it does not.
  func isRepeat(_ range: Range<Int>, among ranges: [Range<Int>], prints: inout [UInt64]) -> Bool {
    let print = fingerprint(range)
    for index in prints.indices where prints[index] == print && sameBytes(ranges[index], range) {
      return true
    }
    prints.append(print)
    return false
  }

  /// Whether the key at `range` is `key` (lengths first, then byte by byte through the buffer,
  /// not through generic slice equality: most keys tried differ in length).
  func matches(_ range: Range<Int>, _ key: [UInt8]) -> Bool {
    guard range.count == key.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      for index in key.indices where buffer[range.lowerBound + index] != key[index] {
        return false
      }
      return true
    }
  }

  /// A map head with at least one pair, each pair needing at least two bytes.
  mutating func mapCount() -> Int? {
    guard let head = head(), head.major == 5, head.argument > 0,
      head.argument <= remaining / 2
    else { return nil }
    return head.argument
  }

  /// `#6.24(bstr)` (RFC 8949 §3.4.5.1): the embedded bytes, copied exactly.
  mutating func tag24Content() -> [UInt8]? {
    guard let tag = head(), tag.major == 6, tag.argument == 24,
      let content = head(), content.major == 2, content.argument <= remaining
    else { return nil }
    defer { offset += content.argument }
    return Array(bytes[offset..<(offset + content.argument)])
  }

  /// One item of any shape through the generic decoder, at its depth in the structure.
  mutating func genericItem(depth: Int) -> CBOR? {
    guard let item = try? CBORDecoder().decodeItem(in: bytes, at: offset, depth: depth) else {
      return nil
    }
    offset = item.end
    return item.value
  }
}
