/// Decodes one CBOR data item from bytes, checking well-formedness, validity and resource limits.
///
/// RFC 8949 §5 (creating CBOR-based protocols: §5.2 generic decoders and limits, §5.3 validity,
/// §5.6 duplicate keys) and Appendix C (well-formedness pseudocode).
public struct CBORDecoder: Sendable {
  /// Bounds that keep decoding of untrusted input cheap (RFC 8949 §5.2, §10 security considerations).
  public struct Limits: Sendable, Hashable {
    /// The deepest nesting of arrays, maps and tags; decoding recurses once per level (RFC 8949 §10).
    public var maxDepth: Int
    /// The longest string in bytes, or the most members of one array or map (RFC 8949 §10).
    public var maxItemLength: Int
    /// The most data items in one input (RFC 8949 §10).
    public var maxTotalItems: Int
    /// The deepest nesting of arrays, maps and tags inside one map key, counting the key itself.
    ///
    /// A key that is not in deterministic form is re-encoded to compare it with the others
    /// (RFC 8949 §5.6), and a key inside a key again: without this bound, maps nested as keys of
    /// maps make that work grow with the square of the depth (found by the `cbor` fuzz target).
    /// Protocol keys are integers and text strings (depth 0).
    package var maxKeyDepth: Int

    /// Creates limits (RFC 8949 §10).
    public init(
      maxDepth: Int = 64, maxItemLength: Int = 16 << 20, maxTotalItems: Int = 1 << 22,
      maxKeyDepth: Int = 4
    ) {
      self.maxDepth = maxDepth
      self.maxItemLength = maxItemLength
      self.maxTotalItems = maxTotalItems
      self.maxKeyDepth = maxKeyDepth
    }

    /// Depth 64, items up to 16 MiB, at most 4 Mi data items, keys nesting at most 4 levels
    /// (RFC 8949 §10).
    public static let `default` = Limits()
  }

  /// The limits applied to every input (RFC 8949 §5.2).
  public var limits: Limits

  /// Creates a decoder (RFC 8949 §5.2).
  public init(limits: Limits = .default) {
    self.limits = limits
  }

  /// Decodes exactly one data item that spans all of `bytes` (RFC 8949 §5.3).
  public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
    try decodeReportingDeterminism(bytes).value
  }

  /// Decodes one data item and reports whether its bytes are in core deterministic encoding (RFC 8949 §4.2.1).
  public func decodeReportingDeterminism(
    _ bytes: [UInt8]
  ) throws(CBORError) -> (value: CBOR, isDeterministic: Bool) {
    var reader = Reader(bytes: bytes, limits: limits)
    let value = try reader.readItem(depth: 0)
    try reader.requireEnd()
    return (value, reader.isDeterministic)
  }

  /// Decodes the one data item that starts at `offset`, checked as if it were nested `depth`
  /// levels deep in an item decoded from the start of `bytes` (so the depth limit applies as it
  /// would there), and returns it with the offset just past it (RFC 8949 §5.3). For package
  /// readers that walk a known structure themselves and hand the generic decoder its open parts.
  /// The item count limit covers this item alone.
  package func decodeItem(
    in bytes: [UInt8], at offset: Int, depth: Int
  ) throws(CBORError) -> (value: CBOR, end: Int) {
    var reader = Reader(bytes: bytes, limits: limits)
    reader.offset = offset
    let value = try reader.readItem(depth: depth)
    return (value, reader.offset)
  }

  /// Renders the bytes in diagnostic notation, showing indefinite-length markers (RFC 8949 §8, §8.1).
  public func diagnosticNotation(of bytes: [UInt8]) throws(CBORError) -> String {
    // Validate the whole item first so the rendering walk never sees ill-formed input.
    _ = try decode(bytes)
    var reader = Reader(bytes: bytes, limits: limits)
    var out = ""
    try reader.renderItem(depth: 0, into: &out)
    try reader.requireEnd()
    return out
  }
}

extension CBOR {
  /// Decodes exactly one data item with the default limits (RFC 8949 §5.3).
  public init(decoding bytes: [UInt8]) throws(CBORError) {
    self = try CBORDecoder().decode(bytes)
  }

  /// Decodes exactly one data item with the default limits (RFC 8949 §5.3).
  public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
    try CBORDecoder().decode(bytes)
  }
}

/// The initial byte and argument of a data item (RFC 8949 §3).
struct Head {
  var major: UInt8
  var info: UInt8
  var argument: UInt64
  var offset: Int

  var isIndefinite: Bool { info == 31 }
}

/// A cursor over the input that enforces RFC 8949 Appendix C well-formedness.
struct Reader {
  let bytes: [UInt8]
  let limits: CBORDecoder.Limits
  var offset = 0
  var isDeterministic = true
  private var itemCount = 0
  /// The depth of the outermost map key being read, if any (for `Limits.maxKeyDepth`).
  var keyBaseDepth: Int? = nil

  init(bytes: [UInt8], limits: CBORDecoder.Limits) {
    self.bytes = bytes
    self.limits = limits
  }

  var remaining: Int { bytes.count - offset }

  func requireEnd() throws(CBORError) {
    if offset != bytes.count {
      throw CBORError(
        .trailingBytes, offset: offset,
        reason: "\(bytes.count - offset) bytes follow the data item")
    }
  }

  mutating func readByte() throws(CBORError) -> UInt8 {
    guard offset < bytes.count else {
      throw CBORError(.truncated, offset: offset, reason: "input ends where a byte is needed")
    }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func readArgument(byteCount: Int) throws(CBORError) -> UInt64 {
    guard remaining >= byteCount else {
      throw CBORError(
        .truncated, offset: offset,
        reason: "input ends inside a \(byteCount)-byte argument")
    }
    var value: UInt64 = 0
    for index in offset..<(offset + byteCount) { value = value << 8 | UInt64(bytes[index]) }
    offset += byteCount
    return value
  }

  mutating func readHead() throws(CBORError) -> Head {
    let start = offset
    let initial = try readByte()
    let major = initial >> 5
    let info = initial & 0x1f
    let argument: UInt64
    switch info {
    case 0..<24:
      argument = UInt64(info)
    case 24:
      argument = try readArgument(byteCount: 1)
      if major != 7 && argument < 24 { isDeterministic = false }
    case 25:
      argument = try readArgument(byteCount: 2)
      if major != 7 && argument <= 0xff { isDeterministic = false }
    case 26:
      argument = try readArgument(byteCount: 4)
      if major != 7 && argument <= 0xffff { isDeterministic = false }
    case 27:
      argument = try readArgument(byteCount: 8)
      if major != 7 && argument <= 0xffff_ffff { isDeterministic = false }
    case 28...30:
      throw CBORError(
        .reservedAdditionalInfo, offset: start,
        reason: "additional information \(info) is reserved (RFC 8949 §3)")
    default:
      argument = 0
    }
    return Head(major: major, info: info, argument: argument, offset: start)
  }

  mutating func countItem(at offset: Int) throws(CBORError) {
    itemCount += 1
    if itemCount > limits.maxTotalItems {
      throw CBORError(
        .tooManyItems, offset: offset,
        reason: "more than \(limits.maxTotalItems) data items")
    }
  }

  /// RFC 8949 §10: a declared length is checked against the limit and the bytes left before
  /// anything is allocated for it.
  func checkLength(_ head: Head, minimumBytesEach: Int, what: String) throws(CBORError) -> Int {
    guard head.argument <= UInt64(limits.maxItemLength) else {
      throw CBORError(
        .lengthTooLarge, offset: head.offset,
        reason: "\(what) of length \(head.argument) exceeds the limit \(limits.maxItemLength)")
    }
    let length = Int(head.argument)
    guard length <= remaining / minimumBytesEach else {
      throw CBORError(
        .truncated, offset: head.offset,
        reason: "\(what) declares length \(length) but only \(remaining) bytes remain")
    }
    return length
  }

  func checkDepth(_ depth: Int, at offset: Int) throws(CBORError) {
    if depth >= limits.maxDepth {
      throw CBORError(
        .nestingTooDeep, offset: offset,
        reason: "nesting deeper than \(limits.maxDepth)")
    }
    if let keyBaseDepth, depth - keyBaseDepth >= limits.maxKeyDepth {
      throw CBORError(
        .nestingTooDeep, offset: offset,
        reason: "a map key nests deeper than \(limits.maxKeyDepth) levels")
    }
  }

  mutating func readStringBytes(_ head: Head) throws(CBORError) -> [UInt8] {
    let what = head.major == 2 ? "byte string" : "text string"
    let length = try checkLength(head, minimumBytesEach: 1, what: what)
    defer { offset += length }
    return Array(bytes[offset..<(offset + length)])
  }

  /// The text of `bytes[range]`, or nil when it is not valid UTF-8 (RFC 8949 §3.1, major type 3).
  /// ASCII, what protocol names and most values are, is checked byte by byte and copied as is
  /// (every ASCII sequence is valid UTF-8); anything else goes through the full validator.
  static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
    bytes.withUnsafeBufferPointer { buffer in
      let slice = UnsafeBufferPointer(rebasing: buffer[range])
      for byte in slice where byte >= 0x80 {
        return String(validating: slice, as: UTF8.self)
      }
      return String(decoding: slice, as: UTF8.self)
    }
  }

  static func validateUTF8(_ raw: [UInt8], at offset: Int) throws(CBORError) -> String {
    guard let string = String(validating: raw, as: UTF8.self) else {
      throw CBORError(.invalidUTF8, offset: offset, reason: "text string is not valid UTF-8")
    }
    return string
  }

  /// RFC 8949 §3.2.3: the chunks of an indefinite-length string are definite-length strings
  /// of the same major type; text chunks must each be valid UTF-8.
  mutating func readChunks(_ head: Head, body: (Head, [UInt8]) throws(CBORError) -> Void)
    throws(CBORError)
  {
    var total = 0
    while true {
      guard offset < bytes.count else {
        throw CBORError(
          .truncated, offset: offset,
          reason: "input ends inside an indefinite-length string")
      }
      if bytes[offset] == 0xff {
        offset += 1
        return
      }
      let chunkHead = try readHead()
      guard chunkHead.major == head.major, !chunkHead.isIndefinite else {
        throw CBORError(
          .malformedIndefiniteLength, offset: chunkHead.offset,
          reason:
            "a chunk of an indefinite-length string must be a definite string of the same type")
      }
      let chunk = try readStringBytes(chunkHead)
      total += chunk.count
      if total > limits.maxItemLength {
        throw CBORError(
          .lengthTooLarge, offset: chunkHead.offset,
          reason: "indefinite-length string exceeds the limit \(limits.maxItemLength)")
      }
      try body(chunkHead, chunk)
    }
  }

  mutating func readItem(depth: Int) throws(CBORError) -> CBOR {
    let head = try readHead()
    try countItem(at: head.offset)
    switch head.major {
    case 0, 1:
      if head.isIndefinite { throw malformedIndefinite(head) }
      return head.major == 0 ? .unsigned(head.argument) : .negative(head.argument)
    case 2:
      if head.isIndefinite {
        isDeterministic = false
        var collected: [UInt8] = []
        try readChunks(head) { (_, chunk) throws(CBORError) in collected += chunk }
        return .byteString(collected)
      }
      return .byteString(try readStringBytes(head))
    case 3:
      if head.isIndefinite {
        isDeterministic = false
        var collected = ""
        try readChunks(head) { (chunkHead, chunk) throws(CBORError) in
          collected += try Reader.validateUTF8(chunk, at: chunkHead.offset)
        }
        return .textString(collected)
      }
      // Validate straight from the input, without an intermediate array.
      let length = try checkLength(head, minimumBytesEach: 1, what: "text string")
      defer { offset += length }
      guard let string = Reader.text(bytes, offset..<(offset + length)) else {
        throw CBORError(.invalidUTF8, offset: head.offset, reason: "text string is not valid UTF-8")
      }
      return .textString(string)
    case 4:
      try checkDepth(depth, at: head.offset)
      var items: [CBOR] = []
      if head.isIndefinite {
        isDeterministic = false
        while try !consumeBreak(inside: head) {
          if items.count >= limits.maxItemLength { throw tooLong(head) }
          items.append(try readItem(depth: depth + 1))
        }
      } else {
        let count = try checkLength(head, minimumBytesEach: 1, what: "array")
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try readItem(depth: depth + 1)) }
      }
      return .array(items)
    case 5:
      try checkDepth(depth, at: head.offset)
      return .map(try readMap(head, depth: depth))
    case 6:
      if head.isIndefinite { throw malformedIndefinite(head) }
      try checkDepth(depth, at: head.offset)
      let contentOffset = offset
      let content = try readItem(depth: depth + 1)
      try TypedTag.checkContent(tag: head.argument, content: content, offset: contentOffset)
      return .tagged(head.argument, content)
    default:
      return try readSimpleOrFloat(head)
    }
  }

  func malformedIndefinite(_ head: Head) -> CBORError {
    CBORError(
      .malformedIndefiniteLength, offset: head.offset,
      reason: "major type \(head.major) cannot have indefinite length (RFC 8949 §3.2.4)")
  }

  func tooLong(_ head: Head) -> CBORError {
    CBORError(
      .lengthTooLarge, offset: head.offset,
      reason: "indefinite-length item has more than \(limits.maxItemLength) members")
  }

  /// Consumes the break that ends an indefinite-length container, reporting whether it was there.
  mutating func consumeBreak(inside head: Head) throws(CBORError) -> Bool {
    guard offset < bytes.count else {
      throw CBORError(
        .truncated, offset: offset,
        reason: "input ends inside an indefinite-length item started at \(head.offset)")
    }
    if bytes[offset] == 0xff {
      offset += 1
      return true
    }
    return false
  }

  mutating func readMap(_ head: Head, depth: Int) throws(CBORError) -> CBORMap {
    var keys: [CBOR] = []
    var values: [CBOR] = []
    // While every key arrives in deterministic form and strictly after the previous one in
    // bytewise order (RFC 8949 §4.2.1), each key is greater than all earlier keys and so
    // distinct from them: no comparison with earlier keys is needed. At the first key that breaks
    // the run, the canonical encodings of the keys so far are gathered and every later key is
    // checked against them: pairwise while the map is small, hashed once it grows.
    var increasing = true
    var seenList: [ArraySlice<UInt8>] = []
    var seenSet: Set<ArraySlice<UInt8>>? = nil
    var previousKey: Range<Int>? = nil

    func insertKey(_ canonical: ArraySlice<UInt8>) -> Bool {
      if var set = seenSet {
        seenSet = nil
        let inserted = set.insert(canonical).inserted
        seenSet = set
        return inserted
      }
      if seenList.contains(canonical) { return false }
      seenList.append(canonical)
      if seenList.count > 64 {
        seenSet = Set(seenList)
        seenList = []
      }
      return true
    }

    func readPair(_ reader: inout Reader) throws(CBORError) {
      let keyStart = reader.offset
      let wasDeterministic = reader.isDeterministic
      reader.isDeterministic = true
      let outerKeyBase = reader.keyBaseDepth
      if outerKeyBase == nil { reader.keyBaseDepth = depth + 1 }
      let key = try reader.readItem(depth: depth + 1)
      reader.keyBaseDepth = outerKeyBase
      let keyIsDeterministic = reader.isDeterministic
      reader.isDeterministic = wasDeterministic && keyIsDeterministic
      let keyRange = keyStart..<reader.offset
      // RFC 8949 §4.2.1: keys must appear in bytewise lexicographic order of their encodings.
      var inOrder = true
      if let previousKey,
        !reader.bytes[previousKey].lexicographicallyPrecedes(reader.bytes[keyRange])
      {
        reader.isDeterministic = false
        inOrder = false
      }
      previousKey = keyRange
      if increasing && (!inOrder || !keyIsDeterministic) {
        // The run ends: every earlier key was deterministic, so its encoding is canonical.
        increasing = false
        let encoder = CBOREncoder()
        for earlier in keys { _ = insertKey(ArraySlice(encoder.encode(earlier))) }
      }
      if !increasing {
        // RFC 8949 §5.6: keys are compared as data model values, so compare canonical
        // encodings. A key that arrived in deterministic form already is its canonical encoding.
        let canonical =
          keyIsDeterministic ? reader.bytes[keyRange] : ArraySlice(CBOREncoder().encode(key))
        guard insertKey(canonical) else {
          throw CBORError(
            .duplicateMapKey, offset: keyStart,
            reason: "map key \(key.diagnosticNotation) appears twice (RFC 8949 §5.6)")
        }
      }
      keys.append(key)
      values.append(try reader.readItem(depth: depth + 1))
    }

    if head.isIndefinite {
      isDeterministic = false
      while try !consumeBreak(inside: head) {
        if keys.count >= limits.maxItemLength { throw tooLong(head) }
        try readPair(&self)
      }
    } else {
      let count = try checkLength(head, minimumBytesEach: 2, what: "map")
      keys.reserveCapacity(count)
      values.reserveCapacity(count)
      for _ in 0..<count { try readPair(&self) }
    }
    return CBORMap(uncheckedKeys: keys, values: values)
  }

  mutating func readSimpleOrFloat(_ head: Head) throws(CBORError) -> CBOR {
    switch head.info {
    case 20: return .boolean(false)
    case 21: return .boolean(true)
    case 22: return .null
    case 23: return .undefined
    case 0..<20: return .simple(head.info)
    case 24:
      // RFC 8949 §3.3: the two-byte form of a simple value below 32 is not well-formed.
      guard head.argument >= 32 else {
        throw CBORError(
          .invalidSimpleValue, offset: head.offset,
          reason: "simple value \(head.argument) must use the one-byte form (RFC 8949 §3.3)")
      }
      return .simple(UInt8(head.argument))
    case 25:
      let bits = UInt16(head.argument)
      let value = Half.double(fromBits: bits)
      if value.isNaN && bits != Half.canonicalNaN { isDeterministic = false }
      return .half(bits)
    case 26:
      let single = Float(bitPattern: UInt32(head.argument))
      if PreferredFloat(Double(single)).width < 4 { isDeterministic = false }
      return .float(single)
    case 27:
      let double = Double(bitPattern: head.argument)
      if PreferredFloat(double).width < 8 { isDeterministic = false }
      return .double(double)
    default:
      throw CBORError(
        .unexpectedBreak, offset: head.offset,
        reason: "break stop code outside an indefinite-length item (RFC 8949 §3.2.1)")
    }
  }
}
