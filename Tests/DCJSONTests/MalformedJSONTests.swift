import DCJSON
import Testing

/// Hostile JSON text: each refusal names its rule, and none of them crashes or hangs.
@Suite("Malformed JSON")
struct MalformedJSONTests {
  @Test("A duplicate object key is refused (RFC 7515 §5.2 step 4 requires it for headers)")
  func duplicateKey() throws {
    expectJSONError(.invalidJSON) { try JSONValue(parsing: #"{"alg":"ES256","alg":"none"}"#) }
    expectJSONError(.invalidJSON) { try JSONValue(parsing: #"{"a":{"b":1,"b":1}}"#) }
    #expect(try JSONValue(parsing: #"{"a":{"b":1},"b":1}"#).keys == ["a", "b"])
  }

  @Test("Lone surrogates in escapes are refused (RFC 8259 §7, §8.2)")
  func loneSurrogates() throws {
    for text in [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#, #""\ud83d\ud83d""#]
    {
      expectJSONError(.invalidJSON) { try JSONValue(parsing: text) }
    }
    #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("\u{1F600}"))
  }

  @Test("Content after the value is refused")
  func trailingGarbage() throws {
    for text in ["{} {}", "1 2", "[1]]", "null,", "\"a\"\u{0}", "true false"] {
      expectJSONError(.invalidJSON) { try JSONValue(parsing: text) }
    }
    #expect(try JSONValue(parsing: " \n[1]\t ") == [1])
  }

  @Test("Nesting beyond the limit is refused at exactly one past it")
  func depthLimit() throws {
    let limits = JSONLimits(maxDepth: 3)
    #expect(try JSONValue(parsing: "[[[1]]]", limits: limits) == [[[1]]])
    expectJSONError(.invalidJSON) { try JSONValue(parsing: "[[[[1]]]]", limits: limits) }
    expectJSONError(.invalidJSON) {
      try JSONValue(parsing: #"{"a":{"b":{"c":{}}}}"#, limits: limits)
    }
  }

  @Test("Integers stay exact; fractions, exponents and out-of-range integers are doubles")
  func numberFidelity() throws {
    #expect(try JSONValue(parsing: "9007199254740993") == .integer(9_007_199_254_740_993))
    #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(.min))
    guard case .number(let big) = try JSONValue(parsing: "9223372036854775808") else {
      Issue.record("an integer above Int64.max is a double")
      return
    }
    #expect(big == 9_223_372_036_854_775_808)
    guard case .number = try JSONValue(parsing: "2.0") else {
      Issue.record("2.0 is written with a fraction, so it is a number, not an integer")
      return
    }
    #expect(try JSONValue(parsing: "[1,2.5]").serialized() == "[1,2.5]")
  }
}
