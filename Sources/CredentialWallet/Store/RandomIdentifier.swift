import CryptoPrimitives

/// Random identifiers for stored rows (credentials, device keys, batches).
///
/// A version 4 UUID (RFC 9562 §5.4) in lowercase text (§4), as
/// `UUID().uuidString.lowercased()` writes it, but with its 122 random bits from the system
/// generator that every key of the wallet already comes from (``SecureRandom``, OpenSSL's
/// DRBG): Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for each one,
/// three system calls per identifier, and an issued batch of ten needs twenty-one.
enum RandomIdentifier {
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// A new random UUID, lowercase, with hyphens (8-4-4-4-12).
  static func uuid(using random: some RandomSource = SecureRandom()) -> String {
    var bytes = random.bytes(count: 16)
    // RFC 9562 §5.4: version 4 in the high nibble of octet 6, variant 10 in octet 8.
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return format(bytes)
  }

  /// The RFC 9562 §4 text form of 16 bytes, lowercase hexadecimal.
  static func format(_ bytes: [UInt8]) -> String {
    precondition(bytes.count == 16, "a UUID has 16 bytes")  // internal callers only
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
