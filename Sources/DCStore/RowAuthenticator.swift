internal import DCCrypto
import DCErrors

/// Authenticated rows: HMAC-SHA256 (RFC 2104) over a row's columns as bound or read, under a key
/// the owner derives and keeps outside the database, so that whoever can write the file without
/// the key cannot forge or alter a row that carries a tag.
///
/// The tagged input is a label (which table, which part of the row), then each column encoded
/// with its SQLite type and length, so no two rows encode alike: a type byte (0 NULL, 1 INTEGER,
/// 2 REAL, 3 TEXT, 4 BLOB), then, except for NULL, an 8-byte big-endian length and the bytes
/// (an integer as its decimal digits, a real as the decimal digits of its bit pattern, text as
/// UTF-8). The label is encoded as a length and its bytes. Not covered: deleting a row, putting
/// back an older tagged row, and anyone who holds the key.
package struct RowAuthenticator: Sendable {
  private let key: [UInt8]

  /// Uses `key` (the owner's derived key; at least 32 bytes).
  package init(key: [UInt8]) {
    self.key = key
  }

  /// The tag over the columns, under the label.
  package func tag(label: String, _ columns: [SQLValue]) -> [UInt8] {
    var encoded = Self.field(Array(label.utf8))
    for column in columns { encoded += Self.encoding(column) }
    return HMAC.authenticationCode(.sha256, for: encoded, key: key)
  }

  /// Whether `tag` is the one these columns should carry (compared in constant time).
  package func verifies(_ tag: [UInt8]?, _ expected: [UInt8]) -> Bool {
    guard let tag else { return false }
    return constantTimeEquals(tag, expected)
  }

  /// A type byte, then the value as an 8-byte big-endian length and its bytes.
  private static func encoding(_ value: SQLValue) -> [UInt8] {
    switch value {
    case .null: [0]
    case .integer(let number): [1] + field(Array(String(number).utf8))
    case .real(let number): [2] + field(Array(String(number.bitPattern).utf8))
    case .text(let text): [3] + field(Array(text.utf8))
    case .blob(let bytes): [4] + field(bytes)
    }
  }

  private static func field(_ bytes: [UInt8]) -> [UInt8] {
    let count = UInt64(bytes.count)
    var out = stride(from: 56, through: 0, by: -8).map {
      UInt8(truncatingIfNeeded: count >> UInt64($0))
    }
    out += bytes
    return out
  }
}
