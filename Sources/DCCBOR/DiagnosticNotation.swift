import DCErrors

extension CBOR: CustomStringConvertible {
  /// The value in diagnostic notation (RFC 8949 §8).
  public var description: String { diagnosticNotation }

  /// The value in diagnostic notation, e.g. `{1: h'01', "a": [_ 1]}` without length markers (RFC 8949 §8).
  ///
  /// Values carry no memory of indefinite lengths; use `CBORDecoder.diagnosticNotation(of:)`
  /// to render the `_` markers of §8.1 from the original bytes.
  public var diagnosticNotation: String {
    var out = ""
    Diagnostic.render(self, into: &out)
    return out
  }

  /// Text made safe to print on a terminal: every control or formatting character (C0, DEL,
  /// C1, the Unicode bidirectional controls) is written as the escape diagnostic notation uses
  /// for it (`\t`, `\u001b`), and every other character as it is. Quotes and backslashes stay
  /// as they are, so ordinary text reads unchanged.
  ///
  /// - Parameter keepingNewlines: keep line feeds as line breaks (for text of several lines).
  package static func terminalSafe(_ text: String, keepingNewlines: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: Diagnostic.isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if keepingNewlines && scalar == "\n" {
        out += "\n"
      } else {
        Diagnostic.appendEscaping(scalar, to: &out)
      }
    }
    return out
  }
}

/// RFC 8949 §8 and §8.1 rendering.
enum Diagnostic {
  static func render(_ value: CBOR, into out: inout String) {
    switch value {
    case .unsigned(let n):
      out += String(n)
    case .negative(let n):
      // RFC 8949 §3.1: the value is -1 - n, which reaches -2^64 when n is UInt64.max.
      out += n == .max ? "-18446744073709551616" : "-" + String(n + 1)
    case .byteString(let bytes):
      out += hex(bytes)
    case .textString(let text):
      out += quoted(text)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += ", " }
        render(item, into: &out)
      }
      out += "]"
    case .map(let map):
      out += "{"
      for (index, pair) in map.enumerated() {
        if index > 0 { out += ", " }
        render(pair.key, into: &out)
        out += ": "
        render(pair.value, into: &out)
      }
      out += "}"
    case .tagged(let tag, let content):
      out += String(tag) + "("
      render(content, into: &out)
      out += ")"
    case .simple(let simple):
      out += "simple(\(simple))"
    case .boolean(let flag):
      out += flag ? "true" : "false"
    case .null:
      out += "null"
    case .undefined:
      out += "undefined"
    case .half(let bits):
      out += number(Half.double(fromBits: bits))
    case .float(let single):
      out += number(Double(single))
    case .double(let double):
      out += number(double)
    case .encoded(let encoded):
      render(encoded.value, into: &out)
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var text = "h'"
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return text + "'"
  }

  /// RFC 8949 §8: text strings are written as JSON strings; characters that would act on a
  /// terminal rather than print are escaped (see `appendEscaping`).
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: appendEscaping(scalar, to: &out)
      }
    }
    return out + "\""
  }

  /// Appends a scalar, escaped as in a JSON string (RFC 8259 §7) when it is a control or
  /// formatting character: C0 (`\n`, `\r`, `\t` by name), DEL, C1 (ECMA-48 §5.3: 0x9B is CSI,
  /// the single-byte escape introducer) and the bidirectional formatting characters of Unicode
  /// UAX #9 §2 (which reorder what follows them on screen).
  static func appendEscaping(_ scalar: Unicode.Scalar, to out: inout String) {
    switch scalar {
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where isControl(scalar):
      let hexValue = String(scalar.value, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hexValue.count) + hexValue
    default:
      out.unicodeScalars.append(scalar)
    }
  }

  /// C0, DEL, C1, U+061C, U+200E/U+200F, U+202A-U+202E, U+2066-U+2069, and U+2028/U+2029 (line
  /// and paragraph separators, which some terminals treat as line breaks).
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1f, 0x7f...0x9f, 0x061c, 0x200e, 0x200f, 0x2028...0x202e, 0x2066...0x2069:
      true
    default: false
    }
  }

  /// RFC 8949 §8: floats always show a fraction or exponent, and the specials by name.
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    var text = value.description
    if let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
      !text[..<exponent].contains(".")
    {
      text.insert(contentsOf: ".0", at: exponent)
    } else if !text.contains(".") && !text.contains("e") {
      text += ".0"
    }
    return text
  }
}

extension Reader {
  /// Renders one item from the bytes, keeping the `_` markers of RFC 8949 §8.1. The input has
  /// already been validated by a full decode, so errors here only guard against surprises.
  mutating func renderItem(depth: Int, into out: inout String) throws(CBORError) {
    let start = offset
    let head = try readHead()
    switch head.major {
    case 2 where head.isIndefinite, 3 where head.isIndefinite:
      // RFC 8949 §8.1: `(_ h'01', h'02')`, and `''_` / `""_` when there are no chunks.
      var chunks: [String] = []
      try readChunks(head) { (_, chunk) throws(CBORError) in
        if head.major == 2 {
          chunks.append(Diagnostic.hex(chunk))
        } else {
          chunks.append(Diagnostic.quoted(try Reader.validateUTF8(chunk, at: 0)))
        }
      }
      if chunks.isEmpty {
        out += head.major == 2 ? "''_" : "\"\"_"
      } else {
        out += "(_ " + chunks.joined(separator: ", ") + ")"
      }
    case 4, 5:
      // Arrays and maps share the member loop; a map member is a key and a value (§8).
      try checkDepth(depth, at: head.offset)
      let isMap = head.major == 5
      out += isMap ? (head.isIndefinite ? "{_ " : "{") : (head.isIndefinite ? "[_ " : "[")
      var first = true
      var remainingCount = head.argument
      while head.isIndefinite ? try !consumeBreak(inside: head) : remainingCount > 0 {
        remainingCount -= head.isIndefinite ? 0 : 1
        if !first { out += ", " }
        first = false
        try renderItem(depth: depth + 1, into: &out)
        if isMap {
          out += ": "
          try renderItem(depth: depth + 1, into: &out)
        }
      }
      out += isMap ? "}" : "]"
    case 6:
      try checkDepth(depth, at: head.offset)
      out += String(head.argument) + "("
      try renderItem(depth: depth + 1, into: &out)
      out += ")"
    default:
      offset = start
      Diagnostic.render(try readItem(depth: depth), into: &out)
    }
  }
}
