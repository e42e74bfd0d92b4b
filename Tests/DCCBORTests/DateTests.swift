import DCCBOR
import DCTestSupport
import Foundation
import Testing

/// RFC 8949 §3.4.1 (tag 0), §3.4.2 (tag 1) and RFC 8943 (tags 1004 and 100).
struct DateTests {
  @Test func tag0RoundTrip() throws {
    let date = Date(timeIntervalSince1970: 1_363_896_240)
    let item = CBOR.dateTime(date)
    #expect(item.encoded().hex == "c074323031332d30332d32315432303a30343a30305a")
    let decoded = try CBOR.decode(item.encoded())
    #expect(decoded.dateTime == date)
    #expect(try Date(cbor: decoded) == date)
  }

  @Test func tag0WithFractionAndOffsets() throws {
    let base = 1_363_896_240.0
    let cases: [(String, Double)] = [
      ("2013-03-21T20:04:00Z", base),
      ("2013-03-21T20:04:00.5Z", base + 0.5),
      ("2013-03-21T21:04:00+01:00", base),
      ("2013-03-21T15:34:00.25-04:30", base + 0.25),
      ("2013-03-21t20:04:00z", base),
      ("1970-01-01T00:00:00Z", 0),
      ("1969-12-31T23:59:59Z", -1),
      ("2016-12-31T23:59:60Z", 1_483_228_800),
      ("0000-01-01T00:00:00Z", -62_167_219_200),
    ]
    for (text, seconds) in cases {
      let item = CBOR.tagged(0, .textString(text))
      #expect(item.dateTime?.timeIntervalSince1970 == seconds, "\(text)")
    }
  }

  @Test func tag0Emission() {
    #expect(CBOR.dateTime(Date(timeIntervalSince1970: 0)).tagValue == "1970-01-01T00:00:00Z")
    #expect(CBOR.dateTime(Date(timeIntervalSince1970: -0.5)).tagValue == "1969-12-31T23:59:59.5Z")
    #expect(
      CBOR.dateTime(Date(timeIntervalSince1970: 951_782_400.125)).tagValue
        == "2000-02-29T00:00:00.125Z")
    // Years beyond 9999 cannot be written as RFC 3339 text and fall back to tag 1.
    #expect(CBOR.dateTime(Date(timeIntervalSince1970: 300_000_000_000)).tag == 1)
  }

  @Test(arguments: [
    "2023-02-30T00:00:00Z", "2023-13-01T00:00:00Z", "2023-01-01T00:00:00",
    "2023-01-01 00:00:00Z", "2023-01-01T24:00:00Z", "2023-01-01T00:60:00Z",
    "2023-01-01T00:00:61Z", "2023-01-01T00:00:00.Z", "2023-01-01T00:00:00+0100",
    "2023-01-01T00:00:00+24:00", "2023-1-01T00:00:00Z", "2023-01-01T00:00:00ZZ",
    "2023-00-10T00:00:00Z", "2023-01-00T00:00:00Z", "", "2023-01-01",
    "+2023-01-01T00:00:00Z", "2023-01-01T00:00:00Z ",
  ])
  func invalidDateTimesAreRejected(_ text: String) {
    let item = CBOR.tagged(0, .textString(text))
    #expect(item.dateTime == nil, "\(text)")
    let refused = #expect(throws: CBORError.self) { try Date(cbor: item) }
    #expect(refused?.code == .invalidTagContent, "\(text)")
  }

  @Test func tag1EpochTimes() throws {
    #expect(
      try CBOR.decode([UInt8](hex: "c11a514b67b0")).dateTime?.timeIntervalSince1970 == 1_363_896_240
    )
    #expect(
      try CBOR.decode([UInt8](hex: "c1fb41d452d9ec200000")).dateTime?.timeIntervalSince1970
        == 1_363_896_240.5)
    #expect(CBOR.tagged(1, CBOR(-10)).dateTime?.timeIntervalSince1970 == -10)
    #expect(CBOR.tagged(1, .double(.nan)).dateTime == nil)
    #expect(CBOR.tagged(1, "x").dateTime == nil)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(CBOR.epochDateTime(date).encoded().hex == "c11a6553f100")
    #expect(CBOR.epochDateTime(date).dateTime == date)
    #expect(CBOR.epochDateTime(Date(timeIntervalSince1970: 1.5)).encoded().hex == "c1f93e00")
  }

  @Test func fullDateRoundTrip() throws {
    let date = try FullDate(year: 2024, month: 2, day: 29)
    #expect(date.description == "2024-02-29")
    let item = CBOR.fullDate(date)
    #expect(item.encoded().hex == "d903ec6a323032342d30322d3239")
    let decoded = try CBOR.decode(item.encoded())
    #expect(decoded.fullDate == date)
    #expect(try FullDate(cbor: decoded) == date)
    #expect(try FullDate("0001-01-01") < FullDate("1999-12-31"))
    #expect(try FullDate("1970-01-01").daysSinceEpoch == 0)
    #expect(CBOR.tagged(100, CBOR(19_782)).fullDate == date)
    #expect(try FullDate(daysSinceEpoch: date.daysSinceEpoch) == date)
    #expect(try FullDate(daysSinceEpoch: -719_528) == FullDate("0000-01-01"))
    #expect(try FullDate(daysSinceEpoch: 2_932_896) == FullDate("9999-12-31"))
  }

  @Test(arguments: [
    "2023-02-29", "2023-02-30", "2023-13-01", "2023-00-01", "2023-04-31", "2023-01-32",
    "23-01-01", "2023-01-01T00:00:00Z", "2023/01/01", "1900-02-29", "",
  ])
  func invalidFullDatesAreRejected(_ text: String) {
    let invalidTagContentError = #expect(throws: CBORError.self) { try FullDate(text) }
    #expect(invalidTagContentError?.code == .invalidTagContent)
    #expect(CBOR.tagged(1004, .textString(text)).fullDate == nil)
  }

  @Test func fullDateNeedsTag() {
    #expect(CBOR.textString("2024-01-01").fullDate == nil)
    let valueOutOfRangeError = #expect(throws: CBORError.self) {
      try FullDate(year: 2023, month: 2, day: 29)
    }
    #expect(valueOutOfRangeError?.code == .valueOutOfRange)
    let valueOutOfRangeError2 = #expect(throws: CBORError.self) {
      try FullDate(year: 10_000, month: 1, day: 1)
    }
    #expect(valueOutOfRangeError2?.code == .valueOutOfRange)
  }

  @Test func civilCalendarAgreesWithFoundation() throws {
    var generator = SplitMix64(state: 42)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    for _ in 0..<500 {
      let seconds = Double(Int64.random(in: -2_000_000_000...32_000_000_000, using: &generator))
      let date = Date(timeIntervalSince1970: seconds)
      let item = CBOR.dateTime(date)
      #expect(item.dateTime == date)
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let text = try #require(item.tagValue?.text)
      let fullDate = try FullDate(String(text.prefix(10)))
      #expect(
        fullDate.year == parts.year && fullDate.month == parts.month && fullDate.day == parts.day)
    }
  }
}
