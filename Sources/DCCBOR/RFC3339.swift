import DCErrors

/// Proleptic Gregorian calendar arithmetic (RFC 3339 §5.7 and Appendix B).
enum CivilCalendar {
  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 for a civil date (era-based, valid for all years).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date for a count of days since 1970-01-01.
  static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// A strict scanner for the RFC 3339 §5.6 grammar.
struct DateScanner {
  private let characters: [UInt8]
  private let text: String
  private var position = 0

  init(_ text: String) {
    self.text = text
    self.characters = Array(text.utf8)
  }

  var isAtEnd: Bool { position == characters.count }

  func failure(_ what: String) -> CBORError {
    CBORError(.invalidTagContent, reason: "\"\(text)\": \(what) (RFC 3339 §5.6)")
  }

  mutating func digits(_ count: Int, _ what: String) throws(CBORError) -> Int {
    var value = 0
    for _ in 0..<count {
      guard position < characters.count, (0x30...0x39).contains(characters[position]) else {
        throw failure("expected \(count) digits for \(what)")
      }
      value = value * 10 + Int(characters[position] - 0x30)
      position += 1
    }
    return value
  }

  mutating func expect(_ allowed: String, _ what: String) throws(CBORError) -> UInt8 {
    guard position < characters.count, allowed.utf8.contains(characters[position]) else {
      throw failure("expected \(what)")
    }
    defer { position += 1 }
    return characters[position]
  }

  mutating func peek(_ allowed: String) -> Bool {
    position < characters.count && allowed.utf8.contains(characters[position])
  }

  mutating func fullDate() throws(CBORError) -> FullDate {
    let year = try digits(4, "the year")
    _ = try expect("-", "'-' after the year")
    let month = try digits(2, "the month")
    _ = try expect("-", "'-' after the month")
    let day = try digits(2, "the day")
    do {
      return try FullDate(year: year, month: month, day: day)
    } catch {
      throw failure("no such date")
    }
  }

  /// RFC 3339 §5.6 `date-time`: seconds since 1970-01-01T00:00:00Z, leap second 60 allowed.
  mutating func dateTime() throws(CBORError) -> Double {
    let date = try fullDate()
    // RFC 3339 §5.6 note: "T" and "Z" may be lowercase.
    _ = try expect("Tt", "'T' between date and time")
    let hour = try digits(2, "the hour")
    _ = try expect(":", "':' after the hour")
    let minute = try digits(2, "the minute")
    _ = try expect(":", "':' after the minute")
    let second = try digits(2, "the second")
    guard hour <= 23, minute <= 59, second <= 60 else { throw failure("time out of range") }
    var fraction = 0.0
    if peek(".") {
      position += 1
      var scale = 0.1
      var count = 0
      while peek("0123456789") {
        fraction += Double(characters[position] - 0x30) * scale
        scale /= 10
        count += 1
        position += 1
      }
      guard count > 0 else { throw failure("expected digits after '.'") }
    }
    var offsetSeconds = 0
    let sign = try expect("Zz+-", "'Z' or a numeric offset")
    if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      let offsetHour = try digits(2, "the offset hour")
      _ = try expect(":", "':' in the offset")
      let offsetMinute = try digits(2, "the offset minute")
      guard offsetHour <= 23, offsetMinute <= 59 else { throw failure("offset out of range") }
      offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
    guard isAtEnd else { throw failure("extra characters after the time") }
    let days = date.daysSinceEpoch
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Double(seconds) + fraction
  }
}
