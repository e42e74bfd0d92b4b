/// Strict base64url without padding, as JOSE, SD-JWT and the DC API use it (RFC 7515 §2,
/// RFC 4648 §5).
public enum Base64URL {
  /// Encodes bytes as base64url with the trailing `=` removed (RFC 7515 §2).
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    Base64Codec.encode(bytes, url: true)
  }

  /// Decodes unpadded base64url, rejecting padding, `+`, `/`, whitespace, impossible lengths and
  /// non-zero unused bits, so every value has exactly one encoding (RFC 7515 §2, RFC 4648 §3.5).
  public static func decode(_ text: String) throws(EncodingError) -> [UInt8] {
    try Base64Codec.decode(text.utf8, url: true)
  }

  /// ``decode(_:)`` of ASCII text given as bytes, such as one part of a compact JWS read
  /// without making a `String` of it first (RFC 7515 §2).
  public static func decode(ascii bytes: some Collection<UInt8>) throws(EncodingError) -> [UInt8] {
    try Base64Codec.decode(bytes, url: true)
  }
}

/// Standard padded base64 (RFC 4648 §4), as `x5c` certificates use it (RFC 7515 §4.1.6).
public enum Base64 {
  /// Encodes bytes as base64 with `=` padding (RFC 4648 §4).
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    Base64Codec.encode(bytes, url: false)
  }

  /// Decodes padded base64, rejecting missing padding, `-`, `_`, whitespace and non-zero unused
  /// bits (RFC 4648 §3.5, §4).
  public static func decode(_ text: String) throws(EncodingError) -> [UInt8] {
    try Base64Codec.decode(text.utf8, url: false)
  }
}

enum Base64Codec {
  static let urlAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  static let standardAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  /// Each byte's 6-bit value in an alphabet, 0xFF for a byte outside it (RFC 4648 Tables 1, 2).
  static let urlValues = values(of: urlAlphabet)
  static let standardValues = values(of: standardAlphabet)

  private static func values(of alphabet: [UInt8]) -> [UInt8] {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
    return table
  }

  static func encode(_ bytes: some Collection<UInt8>, url: Bool) -> String {
    if let encoded = bytes.withContiguousStorageIfAvailable({ encode($0, url: url) }) {
      return encoded
    }
    return Array(bytes).withUnsafeBufferPointer { encode($0, url: url) }
  }

  /// RFC 4648 §4/§5: each 3 bytes become 4 characters; a final 1 or 2 bytes become 2 or 3
  /// characters, followed by `=` padding to 4 when `url` is false.
  static func encode(_ bytes: UnsafeBufferPointer<UInt8>, url: Bool) -> String {
    let rest = bytes.count % 3
    let whole = bytes.count - rest
    let count = whole / 3 * 4 + (rest == 0 ? 0 : url ? rest + 1 : 4)
    guard count > 0 else { return "" }
    let alphabet = url ? urlAlphabet : standardAlphabet
    return alphabet.withUnsafeBufferPointer { alphabet in
      String(unsafeUninitializedCapacity: count) { out in
        var o = 0
        var i = 0
        while i < whole {
          let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
          out[o] = alphabet[Int(n >> 18 & 63)]
          out[o + 1] = alphabet[Int(n >> 12 & 63)]
          out[o + 2] = alphabet[Int(n >> 6 & 63)]
          out[o + 3] = alphabet[Int(n & 63)]
          i += 3
          o += 4
        }
        if rest > 0 {
          var n = UInt32(bytes[i]) << 16
          if rest == 2 { n |= UInt32(bytes[i + 1]) << 8 }
          out[o] = alphabet[Int(n >> 18 & 63)]
          out[o + 1] = alphabet[Int(n >> 12 & 63)]
          o += 2
          if rest == 2 {
            out[o] = alphabet[Int(n >> 6 & 63)]
            o += 1
          }
          if !url {
            while o < count {
              out[o] = UInt8(ascii: "=")
              o += 1
            }
          }
        }
        return count
      }
    }
  }

  /// Decodes; `url` selects base64url without padding, else standard base64 with mandatory padding.
  static func decode(_ input: some Collection<UInt8>, url: Bool) throws(EncodingError) -> [UInt8] {
    let decoded = input.withContiguousStorageIfAvailable {
      (buffer) -> Result<[UInt8], EncodingError> in
      do throws(EncodingError) {
        return .success(try decode(buffer, url: url))
      } catch {
        return .failure(error)
      }
    }
    if let decoded { return try decoded.get() }
    return try Array(input).withUnsafeBufferPointer { (buffer) throws(EncodingError) in
      try decode(buffer, url: url)
    }
  }

  static func decode(
    _ input: UnsafeBufferPointer<UInt8>, url: Bool
  ) throws(EncodingError) -> [UInt8] {
    let name = url ? "base64url" : "base64"
    var count = input.count
    if !url {
      guard count % 4 == 0 else {
        throw EncodingError(.invalidBase64, "\(name) length \(count) is not a multiple of 4")
      }
      var pad = 0
      while pad < 2, count > 0, input[count - 1] == UInt8(ascii: "=") {
        count -= 1
        pad += 1
      }
    }
    // RFC 4648 §4: a final group of one character cannot encode a whole byte.
    guard count % 4 != 1 else {
      throw EncodingError(.invalidBase64, "\(name) length \(count) is impossible")
    }
    let table = url ? urlValues : standardValues
    let outputCount = count / 4 * 3 + max(0, count % 4 - 1)
    var invalidOffset = -1
    var trailingBits: UInt32 = 0
    let output = table.withUnsafeBufferPointer { table in
      [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
        var i = 0
        var o = 0
        // Whole groups of four characters: 24 bits, three bytes.
        while i + 4 <= count {
          let a = table[Int(input[i])]
          let b = table[Int(input[i + 1])]
          let c = table[Int(input[i + 2])]
          let d = table[Int(input[i + 3])]
          guard (a | b | c | d) & 0xC0 == 0 else {
            // The first character outside the alphabet, for the reason.
            invalidOffset = a == 0xFF ? i : b == 0xFF ? i + 1 : c == 0xFF ? i + 2 : i + 3
            initialized = o
            return
          }
          let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          out[o] = UInt8(truncatingIfNeeded: n >> 16)
          out[o + 1] = UInt8(truncatingIfNeeded: n >> 8)
          out[o + 2] = UInt8(truncatingIfNeeded: n)
          i += 4
          o += 3
        }
        // A final group of two or three characters: one or two bytes and 4 or 2 unused bits.
        if i < count {
          var n: UInt32 = 0
          for k in i..<count {
            let v = table[Int(input[k])]
            guard v != 0xFF else {
              invalidOffset = k
              initialized = o
              return
            }
            n = n << 6 | UInt32(v)
          }
          let bits = (count - i) * 6
          let bytes = bits / 8
          let unused = bits - bytes * 8
          trailingBits = n & ((1 << UInt32(unused)) - 1)
          n >>= UInt32(unused)
          for k in 0..<bytes {
            out[o + k] = UInt8(truncatingIfNeeded: n >> UInt32(8 * (bytes - 1 - k)))
          }
          o += bytes
        }
        initialized = o
      }
    }
    guard invalidOffset < 0 else {
      throw EncodingError(.invalidBase64, "invalid \(name) character at offset \(invalidOffset)")
    }
    // RFC 4648 §3.5: unused trailing bits must be zero, so that the encoding is canonical.
    guard trailingBits == 0 else {
      throw EncodingError(.invalidBase64, "\(name) has non-zero trailing bits")
    }
    return output
  }
}
