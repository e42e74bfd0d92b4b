// Base64url without padding (RFC 4648 §5), as `aki` values are encoded (OpenID4VP 1.0 §6.1.1.1).

enum Base64URL {
  /// Decodes unpadded base64url; `nil` for any other character, a dangling sextet or non-zero
  /// trailing bits (RFC 4648 §3.5: canonical encodings only).
  static func decode(_ text: String) -> [UInt8]? {
    var out = [UInt8]()
    out.reserveCapacity(text.utf8.count * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for c in text.utf8 {
      let v: UInt32
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "-"): v = 62
      case UInt8(ascii: "_"): v = 63
      default: return nil
      }
      buffer = (buffer << 6) | v
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
        buffer &= (1 << UInt32(bits)) - 1
      }
    }
    // A single leftover character (6 bits) cannot encode a byte; leftover bits must be zero.
    guard bits < 6, buffer == 0 else { return nil }
    return out
  }
}
