import Foundation

/// Date-times in the ETSI lists: RFC 3339 / xsd:dateTime with a zone (TS 119 602 date-times,
/// TS 119 612 §5.3.14 ListIssueDateTime and §5.3.15 NextUpdate, TS 119 182-1 §5.2.1 sigT).
enum ETSIDateTime {
  /// Reads a date-time with `Z` or an offset, with or without fractional seconds; a date-time
  /// without a zone is refused (its instant would be ambiguous).
  static func parse(_ text: String) -> Date? {
    guard text.utf8.count <= 64 else { return nil }
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    if let date = plain.date(from: text) { return date }
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return fractional.date(from: text)
  }

  /// Writes `YYYY-MM-DDThh:mm:ssZ` (the form TS 119 182-1 §5.2.1 gives sigT).
  static func format(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
