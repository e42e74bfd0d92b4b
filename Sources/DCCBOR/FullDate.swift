/// A calendar date without time or offset, `YYYY-MM-DD`.
///
/// RFC 8943 §3 (tag 1004 full-date, tag 100 days since 1970-01-01) with the RFC 3339 §5.6
/// `full-date` syntax, as ISO/IEC 18013-5 uses it for `full-date = #6.1004(tstr)`.
public struct FullDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The year, 0 through 9999 (RFC 3339 §5.6 `date-fullyear`).
  public let year: Int
  /// The month, 1 through 12 (RFC 3339 §5.6 `date-month`).
  public let month: Int
  /// The day of the month, 1 through 28 to 31 (RFC 3339 §5.7).
  public let day: Int

  /// Creates a date, rejecting days that do not exist (RFC 3339 §5.7).
  public init(year: Int, month: Int, day: Int) throws(CBORError) {
    guard (0...9999).contains(year), (1...12).contains(month),
      (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
    else {
      throw CBORError(
        .valueOutOfRange,
        reason: "\(year)-\(month)-\(day) is not a valid date (RFC 3339 §5.7)")
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD` (RFC 3339 §5.6 `full-date`, RFC 8943 §3).
  public init(_ text: String) throws(CBORError) {
    var scanner = DateScanner(text)
    let date = try scanner.fullDate()
    guard scanner.isAtEnd else { throw scanner.failure("extra characters after the date") }
    self = date
  }

  /// The date counted in days since 1970-01-01 (RFC 8943 §3, tag 100).
  public var daysSinceEpoch: Int {
    CivilCalendar.days(year: year, month: month, day: day)
  }

  /// Creates the date that lies a number of days after 1970-01-01 (RFC 8943 §3, tag 100).
  public init(daysSinceEpoch days: Int) throws(CBORError) {
    guard (-719_528...2_932_896).contains(days) else {
      throw CBORError(.valueOutOfRange, reason: "day \(days) is outside years 0 to 9999")
    }
    let civil = CivilCalendar.civil(days: days)
    try self.init(year: civil.year, month: civil.month, day: civil.day)
  }

  /// The `YYYY-MM-DD` form (RFC 3339 §5.6 `full-date`).
  public var description: String {
    "\(CivilCalendar.pad(year, 4))-\(CivilCalendar.pad(month, 2))-\(CivilCalendar.pad(day, 2))"
  }

  /// Orders dates chronologically (RFC 3339 §5.1).
  public static func < (lhs: FullDate, rhs: FullDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}

extension CBOR {
  /// A tag 1004 item holding the date as `YYYY-MM-DD` text (RFC 8943 §3).
  public static func fullDate(_ date: FullDate) -> CBOR {
    .tagged(1004, .textString(date.description))
  }

  /// The date of a tag 1004 text or tag 100 day-count item, or nil when it is not one (RFC 8943 §3).
  public var fullDate: FullDate? {
    try? FullDate(cbor: self)
  }
}
