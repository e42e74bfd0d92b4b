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
    write(to: &out)
    return out
  }

  private func write(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: Array("null".utf8))
    case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
    case .integer(let i): out.append(contentsOf: Array(String(i).utf8))
    case .number(let d):
      if !d.isFinite {
        out.append(contentsOf: Array("null".utf8))
      } else if let exact = Int64(exactly: d), abs(d) < 1e15 {
        out.append(contentsOf: Array(String(exact).utf8))
      } else {
        // Swift's shortest round-trip form ("1e-07", "1.5") is valid RFC 8259 §6 grammar.
        out.append(contentsOf: Array(d.description.utf8))
      }
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        element.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        member.value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings (base64url, identifiers) need no escape: copy their UTF-8 in one append.
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      out.append(contentsOf: s.utf8)
      out.append(UInt8(ascii: "\""))
      return
    }
    let hex = Array("0123456789abcdef".utf8)
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
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
