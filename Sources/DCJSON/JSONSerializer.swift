extension JSONValue {
  /// The compact serialization: no insignificant whitespace, members in stored order, `/` not
  /// escaped, non-ASCII as raw UTF-8 (RFC 8259 §7); non-finite numbers, which JSON cannot carry,
  /// become `null`.
  public func serialized() -> String {
    String(decoding: serializedBytes(), as: UTF8.self)
  }

  /// The compact serialization as UTF-8 bytes (RFC 8259 §8.1).
  public func serializedBytes() -> [UInt8] {
    var out = [UInt8]()
    // Most values serialized on a hot path (headers, claims, responses) fit without regrowing.
    out.reserveCapacity(256)
    write(to: &out)
    return out
  }

  private func write(to out: inout [UInt8]) {
    switch self {
    case .null: Self.append("null", to: &out)
    case .bool(let b): Self.append(b ? "true" : "false", to: &out)
    case .integer(let i): out.append(contentsOf: String(i).utf8)
    case .number(let d):
      if !d.isFinite {
        Self.append("null", to: &out)
      } else if let exact = Int64(exactly: d), abs(d) < 1e15 {
        out.append(contentsOf: String(exact).utf8)
      } else {
        // Swift's shortest round-trip form ("1e-07", "1.5") is valid RFC 8259 §6 grammar.
        out.append(contentsOf: d.description.utf8)
      }
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for index in elements.indices {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        elements[index].write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for index in members.indices {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(members[index].key, to: &out)
        out.append(UInt8(ascii: ":"))
        members[index].value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func append(_ literal: StaticString, to out: inout [UInt8]) {
    literal.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  private static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings (base64url, identifiers) need no escape: copy their UTF-8 in one append.
    let copied = s.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in s.utf8 {
      switch byte {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x00..<0x20:
        append("\\u00", to: &out)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
