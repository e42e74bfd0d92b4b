import DCErrors
public import Foundation

extension CBOR {
  /// A tag 0 item with RFC 3339 text, `YYYY-MM-DDTHH:MM:SSZ` for whole seconds (RFC 8949 §3.4.1).
  ///
  /// ISO/IEC 18013-5 `tdate` forbids fractions, so whole seconds carry none; other instants
  /// get up to six fraction digits. Instants outside years 0 to 9999 become tag 1 (§3.4.2).
  public static func dateTime(_ date: Date) -> CBOR {
    let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
    guard microseconds.magnitude < 4e17 else { return epochDateTime(date) }
    let total = Int(microseconds)
    let seconds = total >= 0 ? total / 1_000_000 : (total - 999_999) / 1_000_000
    let fraction = total - seconds * 1_000_000
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let civil = CivilCalendar.civil(days: days)
    guard (0...9999).contains(civil.year) else { return epochDateTime(date) }
    var text =
      "\(CivilCalendar.pad(civil.year, 4))-\(CivilCalendar.pad(civil.month, 2))-"
      + "\(CivilCalendar.pad(civil.day, 2))T\(CivilCalendar.pad(secondOfDay / 3600, 2)):"
      + "\(CivilCalendar.pad(secondOfDay / 60 % 60, 2)):\(CivilCalendar.pad(secondOfDay % 60, 2))"
    if fraction != 0 {
      var digits = CivilCalendar.pad(fraction, 6)
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return .tagged(0, .textString(text + "Z"))
  }

  /// A tag 1 item with the seconds since the epoch, an integer when whole (RFC 8949 §3.4.2).
  package static func epochDateTime(_ date: Date) -> CBOR {
    let seconds = date.timeIntervalSince1970
    if seconds == seconds.rounded(), seconds.magnitude < 9e18 {
      return .tagged(1, CBOR(Int(seconds)))
    }
    return .tagged(1, .double(seconds))
  }

  /// The instant of a tag 0 (RFC 3339 text) or tag 1 (epoch seconds) item (RFC 8949 §3.4.1, §3.4.2).
  public var dateTime: Date? {
    try? Date(cbor: self)
  }
}

extension Date: CBORCodable {
  /// Encodes as a tag 0 date/time string (RFC 8949 §3.4.1).
  package func cbor() -> CBOR {
    CBOR.dateTime(self)
  }

  /// Decodes a tag 0 date/time string or a tag 1 epoch time (RFC 8949 §3.4.1, §3.4.2).
  package init(cbor: CBOR) throws(CBORError) {
    switch cbor.unwrapped {
    case .tagged(0, let content):
      guard let text = content.text else {
        throw CBORError(.invalidTagContent, reason: "tag 0 content must be a text string")
      }
      var scanner = DateScanner(text)
      self.init(timeIntervalSince1970: try scanner.dateTime())
    case .tagged(1, let content):
      let seconds: Double
      if let int = content.int {
        seconds = Double(int)
      } else if let double = content.double, double.isFinite {
        seconds = double
      } else {
        throw CBORError(
          .invalidTagContent, reason: "tag 1 content must be a finite integer or float")
      }
      self.init(timeIntervalSince1970: seconds)
    default:
      throw CBORError(.typeMismatch, reason: "expected a tag 0 or tag 1 date/time")
    }
  }
}
