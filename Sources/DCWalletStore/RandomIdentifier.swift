package import DCCrypto
package import Foundation

/// Random identifiers for stored rows (credentials, device keys, batches).
///
/// UUIDs (RFC 9562) in lowercase text (§4), as `UUID().uuidString.lowercased()` writes them, but
/// with their random bits from the system generator that every key of the wallet already comes
/// from (``SecureRandom``, OpenSSL's DRBG): Foundation's `UUID()` on Linux opens, reads and
/// closes `/dev/urandom` for each one, three system calls per identifier, and an issued batch
/// of ten needs twenty-one. Rows use version 7 (``timeOrderedUUID(at:using:)``); version 4
/// (``uuid(using:)``) stays for identifiers that should not carry a time.
package enum RandomIdentifier {
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// A new random UUID, lowercase, with hyphens (8-4-4-4-12).
  package static func uuid(using random: some RandomSource = SecureRandom()) -> String {
    var bytes = random.bytes(count: 16)
    // RFC 9562 §5.4: version 4 in the high nibble of octet 6, variant 10 in octet 8.
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return format(bytes)
  }

  /// A new version 7 UUID (RFC 9562 §5.7), lowercase, with hyphens: the Unix time in
  /// milliseconds in the first 48 bits (big-endian), then 74 random bits around the version and
  /// variant. The ids of stored credentials, device keys and batches are these: rows made later
  /// sort later, so the SQLite indexes keyed by them grow at their right edge and an issued batch
  /// dirties a few index pages instead of one page per id (each page is written to the WAL and
  /// synced at commit). The time is no secret: every row also stores when it was made.
  package static func timeOrderedUUID(
    at date: Date = Date(), using random: some RandomSource = SecureRandom()
  )
    -> String
  {
    var bytes = random.bytes(count: 16)
    let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
    for index in 0..<6 {
      bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * index))
    }
    // RFC 9562 §5.7: version 7 in the high nibble of octet 6, variant 10 in octet 8.
    bytes[6] = (bytes[6] & 0x0F) | 0x70
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
