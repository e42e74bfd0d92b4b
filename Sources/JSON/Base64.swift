/// Strict base64url without padding, as JOSE, SD-JWT and the DC API use it (RFC 7515 §2, RFC 4648 §5).
public enum Base64URL {
  /// Encodes bytes as base64url with the trailing `=` removed (RFC 7515 §2).
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    Base64Codec.encode(Array(bytes), alphabet: Base64Codec.urlAlphabet, padding: false)
  }

  /// Decodes unpadded base64url, rejecting padding, `+`, `/`, whitespace, impossible lengths and
  /// non-zero unused bits, so every value has exactly one encoding (RFC 7515 §2, RFC 4648 §3.5).
  public static func decode(_ text: String) throws(JSONError) -> [UInt8] {
    try Base64Codec.decode(Array(text.utf8), url: true)
  }
}

/// Standard padded base64 (RFC 4648 §4), as `x5c` certificates use it (RFC 7515 §4.1.6).
public enum Base64 {
  /// Encodes bytes as base64 with `=` padding (RFC 4648 §4).
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    Base64Codec.encode(Array(bytes), alphabet: Base64Codec.standardAlphabet, padding: true)
  }

  /// Decodes padded base64, rejecting missing padding, `-`, `_`, whitespace and non-zero unused
  /// bits (RFC 4648 §3.5, §4).
  public static func decode(_ text: String) throws(JSONError) -> [UInt8] {
    try Base64Codec.decode(Array(text.utf8), url: false)
  }
}

enum Base64Codec {
  static let urlAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  static let standardAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: [UInt8], alphabet: [UInt8], padding: Bool) -> String {
    var out = [UInt8]()
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(alphabet[Int(n >> 6 & 63)])
      out.append(alphabet[Int(n & 63)])
      index += 3
    }
    let rest = bytes.count - index
    if rest == 1 {
      let n = UInt32(bytes[index]) << 16
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      if padding { out.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")]) }
    } else if rest == 2 {
      let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(alphabet[Int(n >> 6 & 63)])
      if padding { out.append(UInt8(ascii: "=")) }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func value(of c: UInt8, url: Bool) -> UInt32? {
    switch c {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
    case UInt8(ascii: "-") where url: 62
    case UInt8(ascii: "_") where url: 63
    case UInt8(ascii: "+") where !url: 62
    case UInt8(ascii: "/") where !url: 63
    default: nil
    }
  }

  /// Decodes; `url` selects base64url without padding, else standard base64 with mandatory padding.
  static func decode(_ input: [UInt8], url: Bool) throws(JSONError) -> [UInt8] {
    let name = url ? "base64url" : "base64"
    var chars = input[...]
    if !url {
      guard input.count % 4 == 0 else {
        throw JSONError(.invalidBase64, "\(name) length \(input.count) is not a multiple of 4")
      }
      var pad = 0
      while pad < 2, chars.last == UInt8(ascii: "=") {
        chars = chars.dropLast()
        pad += 1
      }
    }
    // RFC 4648 §4: a final group of one character cannot encode a whole byte.
    guard chars.count % 4 != 1 else {
      throw JSONError(.invalidBase64, "\(name) length \(chars.count) is impossible")
    }
    var out = [UInt8]()
    out.reserveCapacity(chars.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for (offset, c) in chars.enumerated() {
      guard let v = value(of: c, url: url) else {
        throw JSONError(.invalidBase64, "invalid \(name) character at offset \(offset)")
      }
      accumulator = accumulator << 6 | v
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // RFC 4648 §3.5: unused trailing bits must be zero, so that the encoding is canonical.
    guard accumulator == 0 else {
      throw JSONError(.invalidBase64, "\(name) has non-zero trailing bits")
    }
    return out
  }
}
