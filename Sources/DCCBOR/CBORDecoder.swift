import DCErrors

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
  package init(decoding bytes: [UInt8]) throws(CBORError) {
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
  /// The ranges of the keys of the maps being read, while their keys arrive in order (see
  /// `readMap`).
  var keyRanges: [Range<Int>] = []

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

  @inline(__always)
  mutating func readByte() throws(CBORError) -> UInt8 {
    guard offset < bytes.count else { throw truncatedByte() }
    defer { offset += 1 }
    return bytes[offset]
  }

  // The errors of the checks made for every item are built out of line, so that the checks
  // themselves stay small enough to inline.
  @inline(never)
  func truncatedByte() -> CBORError {
    CBORError(.truncated, offset: offset, reason: "input ends where a byte is needed")
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

  @inline(__always)
  mutating func countItem(at offset: Int) throws(CBORError) {
    itemCount += 1
    if itemCount > limits.maxTotalItems { throw tooManyItems(at: offset) }
  }

  @inline(never)
  func tooManyItems(at offset: Int) -> CBORError {
    CBORError(
      .tooManyItems, offset: offset,
      reason: "more than \(limits.maxTotalItems) data items")
  }

  /// RFC 8949 §10: a declared length is checked against the limit and the bytes left before
  /// anything is allocated for it.
  @inline(__always)
  func checkLength(_ head: Head, minimumBytesEach: Int, what: String) throws(CBORError) -> Int {
    if head.argument <= UInt64(limits.maxItemLength) {
      let length = Int(head.argument)
      if length <= remaining / minimumBytesEach { return length }
    }
    throw lengthError(head, minimumBytesEach: minimumBytesEach, what: what)
  }

  @inline(never)
  func lengthError(_ head: Head, minimumBytesEach: Int, what: String) -> CBORError {
    guard head.argument <= UInt64(limits.maxItemLength) else {
      return CBORError(
        .lengthTooLarge, offset: head.offset,
        reason: "\(what) of length \(head.argument) exceeds the limit \(limits.maxItemLength)")
    }
    let length = Int(head.argument)
    return CBORError(
      .truncated, offset: head.offset,
      reason: "\(what) declares length \(length) but only \(remaining) bytes remain")
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

  /// What `readMap` keeps while it reads one map's pairs.
  struct MapState {
    var keys: [CBOR] = []
    var values: [CBOR] = []
    /// Whether every key so far arrived in deterministic form, each after the one before.
    var increasing = true
    /// Whether the keys are checked through `seen` (a key not in deterministic form, or more
    /// than 16 keys after the run ended) rather than on `keyRanges`.
    var usesSet = false
    var seen = MapKeySet()
    var previousKey: Range<Int>? = nil
    /// Where this map's keys start on `keyRanges`.
    let base: Int
  }

  mutating func readMap(_ head: Head, depth: Int) throws(CBORError) -> CBORMap {
    // While every key arrives in deterministic form and strictly after the previous one in
    // bytewise order (RFC 8949 §4.2.1), each key is greater than all earlier keys and so
    // distinct from them: no comparison with earlier keys is needed, only their ranges are
    // noted, on the stack all maps being read share (a nested map pushes its keys above and
    // takes them off before this map reads on). At the first key that breaks the run, every
    // later key is checked against the canonical encodings of the keys before it: a key that
    // arrived in deterministic form is its own canonical encoding, compared where it lies in
    // the input (on the stack while the map has few keys, then in a `MapKeySet`); only a key
    // that did not is re-encoded.
    var state = MapState(base: keyRanges.count)
    defer { keyRanges.removeSubrange(state.base...) }
    if head.isIndefinite {
      isDeterministic = false
      while try !consumeBreak(inside: head) {
        if state.keys.count >= limits.maxItemLength { throw tooLong(head) }
        try readPair(&state, depth: depth)
      }
    } else {
      let count = try checkLength(head, minimumBytesEach: 2, what: "map")
      state.keys.reserveCapacity(count)
      state.values.reserveCapacity(count)
      for _ in 0..<count { try readPair(&state, depth: depth) }
    }
    return CBORMap(uncheckedKeys: state.keys, values: state.values)
  }

  /// Reads one key and its value into `state` (see `readMap`).
  mutating func readPair(_ state: inout MapState, depth: Int) throws(CBORError) {
    let keyStart = offset
    let wasDeterministic = isDeterministic
    isDeterministic = true
    let outerKeyBase = keyBaseDepth
    if outerKeyBase == nil { keyBaseDepth = depth + 1 }
    let key = try readItem(depth: depth + 1)
    keyBaseDepth = outerKeyBase
    let keyIsDeterministic = isDeterministic
    isDeterministic = wasDeterministic && keyIsDeterministic
    let keyRange = keyStart..<offset
    // RFC 8949 §4.2.1: keys must appear in bytewise lexicographic order of their encodings.
    var inOrder = true
    if let previousKey = state.previousKey, !precedes(previousKey, keyRange) {
      isDeterministic = false
      inOrder = false
    }
    state.previousKey = keyRange
    state.increasing = state.increasing && inOrder && keyIsDeterministic
    if state.increasing {
      keyRanges.append(keyRange)
    } else if !state.usesSet && keyIsDeterministic && keyRanges.count - state.base < 16 {
      // A few keys, every one in deterministic form: compared in place, on the stack.
      for earlier in keyRanges[state.base...] where sameBytes(earlier, keyRange) {
        throw CBORError(
          .duplicateMapKey, offset: keyStart,
          reason: "map key \(key.diagnosticNotation) appears twice (RFC 8949 §5.6)")
      }
      keyRanges.append(keyRange)
    } else {
      if !state.usesSet {
        // Every earlier key was deterministic, its range its canonical encoding.
        state.usesSet = true
        state.seen = MapKeySet(keyRanges[state.base...], of: bytes)
      }
      // RFC 8949 §5.6: keys are compared as data model values, so compare canonical encodings.
      let inserted =
        keyIsDeterministic
        ? state.seen.insert(input: keyRange, of: bytes)
        : state.seen.insert(encoded: CBOREncoder().encode(key), of: bytes)
      guard inserted else {
        throw CBORError(
          .duplicateMapKey, offset: keyStart,
          reason: "map key \(key.diagnosticNotation) appears twice (RFC 8949 §5.6)")
      }
    }
    state.keys.append(key)
    state.values.append(try readItem(depth: depth + 1))
  }

  /// Whether the input holds the same bytes at `a` and `b`.
  func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    guard a.count == b.count else { return false }
    return bytes.withUnsafeBufferPointer { buffer in
      for index in 0..<a.count where buffer[a.lowerBound + index] != buffer[b.lowerBound + index] {
        return false
      }
      return true
    }
  }

  /// Whether the encoding at `a` precedes the one at `b` in bytewise lexicographic order
  /// (RFC 8949 §4.2.1), compared in place.
  func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      let common = min(a.count, b.count)
      for index in 0..<common {
        let (x, y) = (buffer[a.lowerBound + index], buffer[b.lowerBound + index])
        if x != y { return x < y }
      }
      return a.count < b.count
    }
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

/// The canonical encodings (RFC 8949 §4.2.1) of the keys of one map read so far, for the
/// duplicate key check (RFC 8949 §5.6). A key that arrived in deterministic form is kept as its
/// range of the input; a key that did not, as its re-encoding. Each is compared by a print of
/// its length and end bytes first, byte by byte only when the prints are equal, and through a
/// hash set once the map has more than 64 keys.
struct MapKeySet {
  private struct Entry {
    /// Where the canonical encoding lies: in the input, or in `encodings`.
    var range: Range<Int>
    var inInput: Bool
    var print: UInt64
  }

  private var entries: [Entry] = []
  /// The re-encoded keys, one after another.
  private var encodings: [UInt8] = []
  private var hashed: Set<ArraySlice<UInt8>>? = nil

  init() {}

  /// The set of the keys at `ranges` of the input, all in deterministic form and distinct.
  init(_ ranges: ArraySlice<Range<Int>>, of input: [UInt8]) {
    entries.reserveCapacity(ranges.count + 4)
    for range in ranges { _ = insert(range, inInput: true, input: input, checking: false) }
  }

  /// Adds the key whose canonical encoding is `input[range]`, returning false when an earlier
  /// key has it.
  mutating func insert(input range: Range<Int>, of input: [UInt8]) -> Bool {
    insert(range, inInput: true, input: input, checking: true)
  }

  /// Adds a key by its re-encoding, returning false when an earlier key has it.
  mutating func insert(encoded: [UInt8], of input: [UInt8]) -> Bool {
    let start = encodings.count
    encodings += encoded
    return insert(start..<encodings.count, inInput: false, input: input, checking: true)
  }

  private mutating func insert(
    _ range: Range<Int>, inInput: Bool, input: [UInt8], checking: Bool
  ) -> Bool {
    if hashed != nil {
      let slice = inInput ? input[range] : encodings[range]
      return hashed?.insert(slice).inserted ?? true
    }
    let print = inInput ? Self.print(input, range) : Self.print(encodings, range)
    if checking {
      for entry in entries where entry.print == print {
        if equal(entry.range, entry.inInput, range, inInput, input: input) { return false }
      }
    }
    entries.append(Entry(range: range, inInput: inInput, print: print))
    if entries.count > 64 {
      var set = Set<ArraySlice<UInt8>>(minimumCapacity: entries.count * 2)
      for entry in entries {
        set.insert(entry.inInput ? input[entry.range] : encodings[entry.range])
      }
      hashed = set
      entries = []
    }
    return true
  }

  private func equal(
    _ a: Range<Int>, _ aInInput: Bool, _ b: Range<Int>, _ bInInput: Bool, input: [UInt8]
  ) -> Bool {
    guard a.count == b.count else { return false }
    return input.withUnsafeBufferPointer { inputBuffer in
      encodings.withUnsafeBufferPointer { encodedBuffer in
        let x = aInInput ? inputBuffer : encodedBuffer
        let y = bInInput ? inputBuffer : encodedBuffer
        for index in 0..<a.count where x[a.lowerBound + index] != y[b.lowerBound + index] {
          return false
        }
        return true
      }
    }
  }
  /// The length and the first three and last four bytes of an encoding: encodings with
  /// different prints differ.
  private static func print(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
    bytes.withUnsafeBufferPointer { buffer in
      var print = UInt64(truncatingIfNeeded: range.count) << 56
      for index in 0..<min(3, range.count) {
        print |= UInt64(buffer[range.lowerBound + index]) << (32 + 8 * UInt64(index))
      }
      for index in 0..<min(4, range.count) {
        print |= UInt64(buffer[range.upperBound - 1 - index]) << (8 * UInt64(index))
      }
      return print
    }
  }
}
