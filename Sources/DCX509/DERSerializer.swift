import DCErrors
package import Foundation

extension DER {
  /// A TLV with the given identifier and contents, with a minimal definite length (X.690 §10.1).
  package static func encode(_ identifier: UInt8, _ content: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [identifier]
    if content.count < 0x80 {
      out.append(UInt8(content.count))
    } else {
      var length = content.count
      var octets: [UInt8] = []
      while length > 0 {
        octets.insert(UInt8(length & 0xFF), at: 0)
        length >>= 8
      }
      out.append(0x80 | UInt8(octets.count))
      out += octets
    }
    return out + content
  }

  /// A SEQUENCE of already-encoded members (X.690 §8.9).
  package static func sequence(_ members: [[UInt8]]) -> [UInt8] {
    encode(Identifier.sequence, members.flatMap { $0 })
  }

  /// A SET OF already-encoded members, sorted by encoding as DER requires (X.690 §11.6).
  package static func set(_ members: [[UInt8]]) -> [UInt8] {
    let sorted = members.sorted { $0.lexicographicallyPrecedes($1) }
    return encode(Identifier.set, sorted.flatMap { $0 })
  }

  /// An INTEGER from unsigned big-endian magnitude bytes, made minimal (X.690 §8.3.2).
  package static func integer(unsignedBytes bytes: [UInt8]) -> [UInt8] {
    var magnitude = Array(bytes.drop(while: { $0 == 0 }))
    if magnitude.isEmpty { magnitude = [0] }
    if magnitude[0] & 0x80 != 0 { magnitude.insert(0, at: 0) }
    return encode(Identifier.integer, magnitude)
  }

  /// An INTEGER from a Swift integer (X.690 §8.3).
  package static func integer(_ value: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var remaining = value
    repeat {
      bytes.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
      remaining >>= 8
    } while remaining != 0 && remaining != -1
    // Keep the sign bit right: positive values need a leading 0x00 when the top bit is set.
    if value >= 0, bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
    if value < 0, bytes[0] & 0x80 == 0 { bytes.insert(0xFF, at: 0) }
    return encode(Identifier.integer, bytes)
  }

  /// A BOOLEAN, 0xFF for true (X.690 §11.1).
  package static func boolean(_ value: Bool) -> [UInt8] {
    encode(Identifier.boolean, [value ? 0xFF : 0x00])
  }

  /// NULL (X.690 §8.8).
  package static var null: [UInt8] { [Identifier.null, 0x00] }

  /// An OBJECT IDENTIFIER (X.690 §8.19).
  package static func objectIdentifier(_ oid: ASN1ObjectIdentifier) -> [UInt8] {
    let arcs = oid.arcs
    var values: [UInt64] = []
    if arcs.count >= 2 {
      values.append(arcs[0] &* 40 &+ arcs[1])
      values += arcs.dropFirst(2)
    } else {
      values = arcs
    }
    var content: [UInt8] = []
    for value in values {
      var chunk: [UInt8] = [UInt8(value & 0x7F)]
      var rest = value >> 7
      while rest > 0 {
        chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
        rest >>= 7
      }
      content += chunk
    }
    return encode(Identifier.objectIdentifier, content)
  }

  /// A BIT STRING of whole bytes, or with trailing unused bits that must already be zero.
  package static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> [UInt8] {
    encode(Identifier.bitString, [unusedBits] + bytes)
  }

  /// An OCTET STRING (X.690 §8.7).
  package static func octetString(_ bytes: [UInt8]) -> [UInt8] {
    encode(Identifier.octetString, bytes)
  }

  /// A UTF8String (X.680 §41).
  package static func utf8String(_ text: String) -> [UInt8] {
    encode(Identifier.utf8String, Array(text.utf8))
  }

  /// A PrintableString (X.680 §41.4); the caller keeps to its character set.
  package static func printableString(_ text: String) -> [UInt8] {
    encode(Identifier.printableString, Array(text.utf8))
  }

  /// An IA5String (X.680 §41), as dNSName and URI use (RFC 5280 §4.2.1.6).
  package static func ia5String(_ text: String) -> [UInt8] {
    encode(Identifier.ia5String, Array(text.utf8))
  }

  /// UTCTime `YYMMDDHHMMSSZ` (RFC 5280 §4.1.2.5.1), whole seconds.
  package static func utcTime(_ date: Date) -> [UInt8] {
    let parts = CivilTime(date)
    let text =
      digits(parts.year % 100, 2) + digits(parts.month, 2) + digits(parts.day, 2)
      + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + "Z"
    return encode(Identifier.utcTime, Array(text.utf8))
  }

  /// GeneralizedTime `YYYYMMDDHHMMSSZ` (RFC 5280 §4.1.2.5.2), whole seconds.
  package static func generalizedTime(_ date: Date) -> [UInt8] {
    let parts = CivilTime(date)
    let text =
      digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
      + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + "Z"
    return encode(Identifier.generalizedTime, Array(text.utf8))
  }

  /// The certificate `Time` choice: UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5).
  package static func time(_ date: Date) -> [UInt8] {
    let year = CivilTime(date).year
    return (1950...2049).contains(year) ? utcTime(date) : generalizedTime(date)
  }

  /// An explicit context tag `[number]` wrapping an encoded value (X.690 §8.14.3).
  package static func explicit(_ number: UInt8, _ encoded: [UInt8]) -> [UInt8] {
    encode(Identifier.contextSpecific(number, constructed: true), encoded)
  }

  /// An implicit context tag `[number]` replacing the tag of an encoded value (X.690 §8.14.2).
  package static func implicit(_ number: UInt8, _ encoded: [UInt8]) -> [UInt8] {
    guard let first = encoded.first else { return encoded }
    let constructed = first & 0x20 != 0
    return [Identifier.contextSpecific(number, constructed: constructed)] + encoded.dropFirst()
  }

  private static func digits(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// A UTC calendar date and time, converted without Foundation's calendar so results never depend
/// on the process locale or time zone (proleptic Gregorian, as X.680 §46 times are).
struct CivilTime {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  init(_ date: Date) {
    // Clamp to ±3e12 s (about ±95 000 years) so no Date can overflow the arithmetic below.
    let seconds1970 = date.timeIntervalSince1970
    let clamped = seconds1970.isNaN ? 0 : min(max(seconds1970, -3e12), 3e12)
    let total = Int(clamped.rounded(.down))
    var days = total / 86_400
    var seconds = total % 86_400
    if seconds < 0 {
      seconds += 86_400
      days -= 1
    }
    // Days to civil date, after H. Hinnant's public-domain chrono algorithms.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    self.year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    self.month = month
    self.day = day
    self.hour = seconds / 3600
    self.minute = seconds % 3600 / 60
    self.second = seconds % 60
  }

  var date: Date {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    return Date(
      timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
  }

  var isValid: Bool {
    guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
      (0...59).contains(second)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return (1...lengths[month - 1]).contains(day)
  }
}

extension DER.Node {
  /// A certificate `Time`: UTCTime `YYMMDDHHMMSSZ` or GeneralizedTime `YYYYMMDDHHMMSSZ`, the
  /// only forms RFC 5280 §4.1.2.5.1 and §4.1.2.5.2 allow.
  package func timeValue() throws(CertificateError) -> Date {
    let text = Array(content)
    let isUTC = identifier == DER.Identifier.utcTime
    guard isUTC || identifier == DER.Identifier.generalizedTime else {
      throw CertificateError(.invalidDER, "expected UTCTime or GeneralizedTime")
    }
    let digitCount = isUTC ? 12 : 14
    guard text.count == digitCount + 1, text.last == UInt8(ascii: "Z"),
      text.dropLast().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else {
      throw CertificateError(
        .invalidDER, "time '\(String(decoding: text, as: UTF8.self))' is not in RFC 5280 form")
    }
    let numbers = text.dropLast().map { Int($0 - 0x30) }
    func pair(_ at: Int) -> Int { numbers[at] * 10 + numbers[at + 1] }
    var year: Int
    var offset: Int
    if isUTC {
      // RFC 5280 §4.1.2.5.1: YY >= 50 is 19YY, otherwise 20YY.
      year = pair(0)
      year += year >= 50 ? 1900 : 2000
      offset = 2
    } else {
      year = pair(0) * 100 + pair(2)
      offset = 4
    }
    let civil = CivilTime(
      year: year, month: pair(offset), day: pair(offset + 2), hour: pair(offset + 4),
      minute: pair(offset + 6), second: pair(offset + 8))
    guard civil.isValid else {
      throw CertificateError(
        .invalidDER, "time '\(String(decoding: text, as: UTF8.self))' is not a calendar date")
    }
    return civil.date
  }
}
