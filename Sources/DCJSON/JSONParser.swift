/// Bounds the JSON parser enforces, so hostile input cannot exhaust stack or memory.
public struct JSONLimits: Sendable, Hashable {
  /// The deepest nesting of arrays and objects accepted.
  public var maxDepth: Int
  /// The longest input accepted, in bytes.
  public var maxLength: Int

  /// Creates limits.
  public init(maxDepth: Int = 64, maxLength: Int = 4 << 20) {
    self.maxDepth = maxDepth
    self.maxLength = maxLength
  }

  /// Depth 64 and 4 MiB: roomy for JOSE headers, JWT claims and OpenID4VP requests.
  public static let `default` = JSONLimits()
}

extension JSONValue {
  /// Parses one JSON text strictly (RFC 8259): valid UTF-8, no duplicate object keys
  /// (RFC 7515 §5.2 step 4 requires rejecting them in headers), no trailing content.
  public init(parsing bytes: some Collection<UInt8>, limits: JSONLimits = .default)
    throws(JSONError)
  {
    guard bytes.count <= limits.maxLength else {
      throw JSONError(.invalidJSON, "JSON text of \(bytes.count) bytes exceeds \(limits.maxLength)")
    }
    var parser = JSONParser(bytes: Array(bytes), limits: limits)
    self = try parser.parseDocument()
  }

  /// Parses one JSON text strictly (RFC 8259); see `init(parsing:limits:)` for bytes.
  public init(parsing text: String, limits: JSONLimits = .default) throws(JSONError) {
    try self.init(parsing: Array(text.utf8), limits: limits)
  }
}

struct JSONParser {
  let bytes: [UInt8]
  let limits: JSONLimits
  var position = 0

  init(bytes: [UInt8], limits: JSONLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  private func fail(_ what: String) -> JSONError {
    JSONError(.invalidJSON, "\(what) at offset \(position)")
  }

  mutating func parseDocument() throws(JSONError) -> JSONValue {
    // RFC 8259 §8.1: no byte order mark is emitted, and we accept none.
    skipWhitespace()
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard position == bytes.count else { throw fail("trailing content") }
    return value
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
    guard position < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw fail("unexpected character")
    }
  }

  private mutating func expectLiteral(_ literal: String) throws(JSONError) {
    let expected = Array(literal.utf8)
    let count = expected.count
    guard position + count <= bytes.count,
      bytes[position..<position + count].elementsEqual(expected)
    else { throw fail("invalid literal") }
    position += count
  }

  private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    var seen = Set<String>()
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw fail("expected an object key")
      }
      let key = try parseString()
      // Small objects (headers, claims) are searched directly; larger ones through a set.
      let duplicate: Bool
      if members.count < 16 {
        duplicate = members.contains { $0.key == key }
      } else {
        if seen.isEmpty { seen = Set(members.map(\.key)) }
        duplicate = !seen.insert(key).inserted
      }
      guard !duplicate else { throw fail("duplicate object key \"\(key)\"") }
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw fail("expected ':'")
      }
      position += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth)))
      skipWhitespace()
      guard position < bytes.count else { throw fail("unterminated object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard bytes[position] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
      position += 1
      return .object(members)
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      guard position < bytes.count else { throw fail("unterminated array") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard bytes[position] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
      position += 1
      return .array(elements)
    }
  }

  private mutating func parseHex4() throws(JSONError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw fail("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[position]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw fail("invalid \\u escape")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  private mutating func parseString() throws(JSONError) -> String {
    position += 1
    // Fast path: a string without escapes is its bytes between the quotes.
    let start = position
    var end = position
    while end < bytes.count {
      let c = bytes[end]
      if c == UInt8(ascii: "\"") {
        position = end + 1
        // RFC 8259 §8.1: text must be UTF-8; invalid sequences are an error, never repaired.
        guard let string = String(validating: bytes[start..<end], as: UTF8.self) else {
          throw fail("string is not valid UTF-8")
        }
        return string
      }
      if c == UInt8(ascii: "\\") || c < 0x20 { break }
      end += 1
    }
    var out = Array(bytes[start..<end])
    position = end
    while true {
      guard position < bytes.count else { throw fail("unterminated string") }
      let c = bytes[position]
      switch c {
      case UInt8(ascii: "\""):
        position += 1
        // RFC 8259 §8.1: text must be UTF-8; invalid sequences are an error, never repaired.
        guard let string = String(validating: out, as: UTF8.self) else {
          throw fail("string is not valid UTF-8")
        }
        return string
      case UInt8(ascii: "\\"):
        position += 1
        guard position < bytes.count else { throw fail("unterminated escape") }
        let e = bytes[position]
        position += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try parseHex4()
          if (0xD800...0xDBFF).contains(scalar) {
            // RFC 8259 §7: a non-BMP character is escaped as a UTF-16 surrogate pair.
            guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw fail("unpaired surrogate") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("unpaired surrogate")
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
          out.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
          throw fail("invalid escape")
        }
      case 0x00..<0x20:
        throw fail("unescaped control character in string")
      default:
        out.append(c)
        position += 1
      }
    }
  }

  private mutating func parseNumber() throws(JSONError) -> JSONValue {
    // RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    let start = position
    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) { throw fail("leading zero in number") }
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    var isInteger = true
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid fraction") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
    {
      isInteger = false
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid exponent") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let double = Double(text), double.isFinite else { throw fail("number out of range") }
    return .number(double)
  }
}
