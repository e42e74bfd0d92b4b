import DCJSON
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  @Test("Parses every kind of value and keeps member order")
  func parse() throws {
    let value = try JSONValue(
      parsing:
        #" { "z": 1, "a": [true, false, null, -0.5, 1e3, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "m": {} } "#
    )
    #expect(value.keys == ["z", "a", "m"])
    #expect(value["z"] == .integer(1))
    #expect(value["z"]?.int == 1)
    #expect(value["a"]?[0]?.bool == true)
    #expect(value["a"]?[2]?.isNull == true)
    #expect(value["a"]?[3]?.double == -0.5)
    #expect(value["a"]?[4]?.int == 1000)
    #expect(value["a"]?[5]?.string == "x\"\\/\u{8}\u{c}\n\r\té😀")
    #expect(value["m"]?.object?.isEmpty == true)
    #expect(value["missing"] == nil)
    #expect(value["a"]?[99] == nil)
  }

  @Test("Compact serialization: no spaces, stored order, / unescaped, UTF-8 raw, controls escaped")
  func serialize() throws {
    let value: JSONValue = ["b": 1, "a": ["x/y", "é", "\u{1}\n"], "c": nil, "d": 1.5, "e": false]
    #expect(value.serialized() == #"{"b":1,"a":["x/y","é","\u0001\n"],"c":null,"d":1.5,"e":false}"#)
    #expect(try JSONValue(parsing: value.serialized()) == value)
  }

  @Test("Integers up to 2^53 and Int64 bounds round-trip exactly")
  func integers() throws {
    for text in [
      "9007199254740992", "-9007199254740993", "9223372036854775807", "-9223372036854775808", "0",
      "-0",
    ] {
      let value = try JSONValue(parsing: text)
      #expect(value.serialized() == (text == "-0" ? "0" : text))
    }
    #expect(try JSONValue(parsing: "18446744073709551616").double == 18_446_744_073_709_551_616)
    #expect(try JSONValue(parsing: "1.0").int == 1)
    #expect(try JSONValue(parsing: "1.0") == 1)
    #expect(Set<JSONValue>([1, 1.0, 2.5]).count == 2)
    #expect(JSONValue.number(0.5) != .integer(0))
    #expect(try JSONValue(parsing: "1.5").int == nil)
  }

  @Test(
    "Rejects malformed JSON",
    arguments: [
      #"{"a":1,"a":2}"#, #"{"a":1} x"#, "[1,]", "{,}", "[01]", "[1.]", "[.5]", "[1e]", "[+1]",
      "[NaN]", "[Infinity]", "'a'", #"["\x"]"#, #"["\ud800"]"#, #"["\udc00"]"#, "[\"a\u{1}\"]",
      "", " ", "[", "{\"a\"}", "{\"a\":}", "tru", "nul", "[1e400]", "{1:2}", "[1 2]",
    ])
  func malformed(_ text: String) {
    expectJSONError(.invalidJSON) { try JSONValue(parsing: text) }
  }

  @Test("Rejects invalid UTF-8 inside strings")
  func invalidUTF8() {
    expectJSONError(.invalidJSON) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    expectJSONError(.invalidJSON) { try JSONValue(parsing: [0x22, 0xED, 0xA0, 0x80, 0x22]) }
  }

  @Test("Depth 10,000 is refused without exhausting the stack; depth 64 is accepted")
  func depth() throws {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    expectJSONError(.invalidJSON) { try JSONValue(parsing: deep) }
    let deepObject =
      String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
    expectJSONError(.invalidJSON) { try JSONValue(parsing: deepObject) }
    let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    _ = try JSONValue(parsing: ok)
    expectJSONError(.invalidJSON) {
      try JSONValue(parsing: "[" + ok + "]")
    }
  }

  @Test("Length limit is enforced")
  func length() {
    expectJSONError(.invalidJSON) {
      try JSONValue(
        parsing: "\"" + String(repeating: "a", count: 100) + "\"", limits: JSONLimits(maxLength: 50)
      )
    }
  }

  @Test("setting and removing keep order")
  func editing() {
    let value: JSONValue = ["a": 1, "b": 2]
    #expect(value.setting("a", to: 3).serialized() == #"{"a":3,"b":2}"#)
    #expect(value.setting("c", to: "x").serialized() == #"{"a":1,"b":2,"c":"x"}"#)
    #expect(value.removing("a").serialized() == #"{"b":2}"#)
  }
}
