import DCJSON
import DCQL
import Foundation
import Testing

/// JSON text to claim values: booleans, integers and other numbers kept apart.
@Suite struct ClaimValueTests {
  @Test(arguments: [
    ("true", ClaimValue.bool(true)),
    ("false", .bool(false)),
    ("1", .integer(1)),
    ("0", .integer(0)),
    ("-3", .integer(-3)),
    ("9007199254740993", .integer(9_007_199_254_740_993)),
    ("1.5", .number(1.5)),
    ("2.0", .number(2.0)),
    // 2^64 - 1 reads as the Double 2^64.
    ("18446744073709551615", .number(18_446_744_073_709_551_616.0)),
    ("\"1\"", .string("1")),
    ("null", .null),
    ("[true, 1, \"a\"]", .array([.bool(true), .integer(1), .string("a")])),
    (
      "{\"a\": {\"b\": [null, false]}}",
      .object(["a": .object(["b": .array([.null, .bool(false)])])])
    ),
  ])
  func fromJSONText(text: String, expected: ClaimValue) throws {
    #expect(try ClaimValue(jsonData: Data(text.utf8)) == expected)
  }

  @Test func booleansAndOnesStayApart() throws {
    let value = try ClaimValue(jsonData: Data("[true, 1, false, 0]".utf8))
    #expect(value == [true, 1, false, 0])
    #expect(ClaimValue.bool(true) != .integer(1))
  }

  @Test func nonJSONValuesAreRefused() {
    expectDCQLError(.invalidJSON) { try ClaimValue(jsonData: Data("{".utf8)) }
  }
}

/// Claims path pointers back to their JSON form (OpenID4VP 1.0 §7).
@Suite struct ClaimPathTests {
  @Test func jsonRoundTrip() throws {
    let json: ClaimValue = ["degrees", nil, "type", 0]
    let path = try ClaimsPathPointer(json: json)
    #expect(path.components == [.key("degrees"), .allElements, .key("type"), .index(0)])
    #expect(path.json == json)
    #expect(path.description == #"["degrees",null,"type",0]"#)
    #expect(concrete("a", 2).json == ["a", 2])
  }
}
