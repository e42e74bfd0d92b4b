/// Lowercase hexadecimal text for bytes (RFC 4648 §8, base16), and its strict inverse.
public enum Hex {
  private static let digits = Array("0123456789abcdef".utf8)

  /// Two lowercase hex digits per byte (RFC 4648 §8).
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes hex of either case (RFC 4648 §8); an odd length or any other character throws.
  public static func decode(_ text: some StringProtocol) throws(EncodingError) -> [UInt8] {
    let chars = Array(text.utf8)
    guard chars.count % 2 == 0 else {
      throw EncodingError(.invalidHex, "hex length \(chars.count) is odd")
    }
    var out = [UInt8]()
    out.reserveCapacity(chars.count / 2)
    var index = 0
    while index < chars.count {
      guard let high = value(of: chars[index]), let low = value(of: chars[index + 1]) else {
        throw EncodingError(.invalidHex, "invalid hex character at offset \(index)")
      }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  /// The value of one hex digit, or nil.
  package static func value(of c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
