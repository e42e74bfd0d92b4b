import DCCBOR
import DCJSON
import DCTestSupport
import Foundation

/// A JSON value that keeps numbers as their source text, so 2^64 and -0.0 survive intact.
indirect enum JSONValue: Equatable {
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])
  case bool(Bool)
  case null

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default: return false
    }
  }

  subscript(_ key: String) -> JSONValue? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  var bool: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }
}

struct JSONParseError: Error {
  var offset: Int
}

/// A small strict JSON parser for the vector files (RFC 8259).
struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0

  static func parse(_ data: Data) throws -> JSONValue {
    var parser = JSONParser(bytes: Array(data))
    let value = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw JSONParseError(offset: parser.index) }
    return value
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[index]) { index += 1 }
  }

  private mutating func expect(_ literal: String) throws {
    for byte in literal.utf8 {
      guard index < bytes.count, bytes[index] == byte else { throw JSONParseError(offset: index) }
      index += 1
    }
  }

  private mutating func value() throws -> JSONValue {
    skipSpace()
    guard index < bytes.count else { throw JSONParseError(offset: index) }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var pairs: [(String, JSONValue)] = []
      skipSpace()
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(pairs)
      }
      while true {
        skipSpace()
        let key = try string()
        skipSpace()
        try expect(":")
        pairs.append((key, try value()))
        skipSpace()
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else {
          try expect("}")
          return .object(pairs)
        }
      }
    case UInt8(ascii: "["):
      index += 1
      var items: [JSONValue] = []
      skipSpace()
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        items.append(try value())
        skipSpace()
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else {
          try expect("]")
          return .array(items)
        }
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    default:
      let start = index
      while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
      guard index > start else { throw JSONParseError(offset: index) }
      return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }
  }

  private mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { throw JSONParseError(offset: index) }
    index += 4
    return value
  }

  private mutating func string() throws -> String {
    try expect("\"")
    var scalars = String.UnicodeScalarView()
    var raw: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
      raw.removeAll()
    }
    while true {
      guard index < bytes.count else { throw JSONParseError(offset: index) }
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\"") { break }
      guard byte == UInt8(ascii: "\\") else {
        raw.append(byte)
        continue
      }
      flush()
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0c}")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xd800..<0xdc00).contains(code) {
          try expect("\\u")
          let low = try hex4()
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw JSONParseError(offset: index) }
        scalars.append(scalar)
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    flush()
    return String(scalars)
  }
}

enum TestData {
  static func json(_ name: String) throws -> JSONValue {
    try JSONParser.parse(Data(VectorFile.bytes(name, in: .module)))
  }
}

extension Array where Element == UInt8 {
  init(hex: String) {
    var bytes: [UInt8] = []
    var pending: UInt8? = nil
    for character in hex.utf8 {
      guard let nibble = UInt8(String(UnicodeScalar(character)), radix: 16) else { continue }
      if let high = pending {
        bytes.append(high << 4 | nibble)
        pending = nil
      } else {
        pending = nibble
      }
    }
    self = bytes
  }

  var hex: String {
    map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
      .joined()
  }
}

/// Decimal arithmetic on digit strings, enough to compare bignums with JSON numbers.
enum Decimal10 {
  static func fromBigEndian(_ bytes: [UInt8]) -> String {
    var digits: [UInt8] = [0]  // little-endian base-10 digits
    for byte in bytes {
      var carry = Int(byte)
      for i in digits.indices {
        let value = Int(digits[i]) * 256 + carry
        digits[i] = UInt8(value % 10)
        carry = value / 10
      }
      while carry > 0 {
        digits.append(UInt8(carry % 10))
        carry /= 10
      }
    }
    while digits.count > 1, digits.last == 0 { digits.removeLast() }
    return String(digits.reversed().map { Character(String($0)) })
  }

  static func plusOne(_ decimal: String) -> String {
    var digits = Array(decimal.utf8.reversed().map { Int($0) - 48 })
    var i = 0
    while true {
      if i == digits.count {
        digits.append(1)
        break
      }
      digits[i] += 1
      if digits[i] < 10 { break }
      digits[i] = 0
      i += 1
    }
    return String(digits.reversed().map { Character(String($0)) })
  }
}
