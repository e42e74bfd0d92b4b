/// A CBOR data item with the byte positions the Longfellow mdoc witness needs: where its head
/// starts and, for strings, where the content starts. Read as longfellow-zk's host decoder reads
/// (`lib/cbor/host_decoder.h`, CborDoc::decode): definite lengths with arguments of at most 4
/// bytes, simple values false, true and null only; anything else is refused — the circuit cannot
/// take an mdoc that its witness builder cannot read.
struct LocatedCBOR {
  enum Kind: Equatable {
    case unsigned(UInt64)
    case negative(UInt64)
    case bytes
    case text
    case array
    case map
    case tag(UInt64)
    case simple(UInt8)
  }

  let kind: Kind
  /// Position of the item's head (`header_pos`), counted from the start of the buffer read,
  /// plus the offset given to the reader.
  let head: Int
  /// Position of a string's content (bytes and text), else the head.
  let contentStart: Int
  /// A string's byte count, else 0.
  let contentLength: Int
  /// An array's elements, a map's keys and values alternating, a tag's one item.
  let children: [LocatedCBOR]

  /// Nesting deeper than this is refused (a DeviceResponse nests 8 levels).
  static let maxDepth = 24

  /// Reads one item of `bytes[position..<end]`; `position` moves past it.
  static func read(
    _ bytes: [UInt8], end: Int, position: inout Int, offset: Int = 0, depth: Int = 0
  ) throws(ZKError) -> LocatedCBOR {
    guard depth < maxDepth else { throw malformed("nested deeper than \(maxDepth)") }
    let head = position
    guard position < end else { throw malformed("ends within an item") }
    let initial = bytes[position]
    position += 1
    let major = initial >> 5
    let argument = try readArgument(bytes, info: initial & 0x1F, end: end, position: &position)
    switch major {
    case 0:
      return LocatedCBOR(leaf: .unsigned(argument), head: head + offset)
    case 1:
      return LocatedCBOR(leaf: .negative(argument), head: head + offset)
    case 2, 3:
      guard argument <= UInt64(end - position) else {
        throw malformed("a string runs past the end")
      }
      let item = LocatedCBOR(
        kind: major == 2 ? .bytes : .text, head: head + offset, contentStart: position + offset,
        contentLength: Int(argument), children: [])
      position += Int(argument)
      return item
    case 4, 5, 6:
      let count = major == 6 ? 1 : (major == 5 ? 2 : 1) * argument
      // Every item takes at least one byte: more children than bytes left cannot be there.
      guard count <= UInt64(end - position) else { throw malformed("more items than bytes") }
      var children: [LocatedCBOR] = []
      children.reserveCapacity(Int(count))
      for _ in 0..<Int(count) {
        children.append(
          try read(bytes, end: end, position: &position, offset: offset, depth: depth + 1))
      }
      let kind: Kind = major == 4 ? .array : (major == 5 ? .map : .tag(argument))
      return LocatedCBOR(
        kind: kind, head: head + offset, contentStart: head + offset, contentLength: 0,
        children: children)
    default:
      // host_decoder.h: only false (20), true (21) and null (22).
      guard (20...22).contains(argument) else { throw malformed("a simple value or float") }
      return LocatedCBOR(leaf: .simple(UInt8(argument)), head: head + offset)
    }
  }

  private init(leaf: Kind, head: Int) {
    self.init(kind: leaf, head: head, contentStart: head, contentLength: 0, children: [])
  }

  private init(
    kind: Kind, head: Int, contentStart: Int, contentLength: Int, children: [LocatedCBOR]
  ) {
    self.kind = kind
    self.head = head
    self.contentStart = contentStart
    self.contentLength = contentLength
    self.children = children
  }

  private static func readArgument(
    _ bytes: [UInt8], info: UInt8, end: Int, position: inout Int
  ) throws(ZKError) -> UInt64 {
    if info < 24 { return UInt64(info) }
    let width: Int
    switch info {
    case 24: width = 1
    case 25: width = 2
    case 26: width = 4
    default: throw malformed("an 8-byte or indefinite length")
    }
    guard end - position >= width else { throw malformed("ends within an item's head") }
    var value: UInt64 = 0
    for index in position..<position + width { value = value << 8 | UInt64(bytes[index]) }
    position += width
    return value
  }

  static func malformed(_ reason: String) -> ZKError {
    ZKError(.mdocMalformed, "the mdoc is not CBOR the Longfellow witness reads: \(reason)")
  }

  // MARK: Look-ups (CborDoc::lookup, aref, lookup_unsigned, lookup_negative).

  /// The key and value of a map entry whose key is the text `key`.
  func lookup(_ key: String, in bytes: [UInt8], base: Int = 0) -> (
    key: LocatedCBOR, value: LocatedCBOR
  )? {
    guard kind == .map else { return nil }
    let wanted = Array(key.utf8)
    for index in stride(from: 0, to: children.count, by: 2) {
      let candidate = children[index]
      guard candidate.kind == .text, candidate.contentLength == wanted.count else { continue }
      let start = candidate.contentStart - base
      if Array(bytes[start..<start + wanted.count]) == wanted {
        return (candidate, children[index + 1])
      }
    }
    return nil
  }

  /// The entry whose key is the integer `kind` (unsigned or negative with that argument).
  func lookup(_ wanted: Kind) -> (key: LocatedCBOR, value: LocatedCBOR)? {
    guard kind == .map else { return nil }
    for index in stride(from: 0, to: children.count, by: 2) where children[index].kind == wanted {
      return (children[index], children[index + 1])
    }
    return nil
  }

  /// An array's element.
  func element(_ index: Int) -> LocatedCBOR? {
    kind == .array && index < children.count ? children[index] : nil
  }

  /// CborDoc::position: a string's content, a tag's inner string's content, else the head.
  var position: Int {
    if case .tag = kind, let inner = children.first, inner.kind == .bytes || inner.kind == .text {
      return inner.contentStart
    }
    return contentStart
  }

  /// CborDoc::length: a string's length, an integer's encoded size, 1 for a simple value; nil
  /// where upstream has no length (arrays, maps, a tag not over a string).
  var length: Int? {
    switch kind {
    case .unsigned(let value), .negative(let value):
      return value < 24 ? 1 : value < 256 ? 2 : value < 65536 ? 3 : 5
    case .bytes, .text: return contentLength
    case .tag:
      guard let inner = children.first, inner.kind == .bytes || inner.kind == .text else {
        return nil
      }
      return inner.contentLength
    case .simple: return 1
    case .array, .map: return nil
    }
  }
}
