import DCJSON
import Testing

/// docs/LIMITS.md, "Parser limits": each default JSON parser limit at its value and one past it.
@Suite("JSON limits")
struct JSONLimitTests {
  @Test("Nesting of exactly maxDepth (64) arrays or objects parses; 65 is refused")
  func depth() throws {
    #expect(JSONLimits.default.maxDepth == 64)
    func arrays(_ levels: Int) -> String {
      String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    }
    func objects(_ levels: Int) -> String {
      String(repeating: #"{"a":"#, count: levels - 1) + "{}"
        + String(repeating: "}", count: levels - 1)
    }
    _ = try JSONValue(parsing: arrays(64))
    _ = try JSONValue(parsing: objects(64))
    let invalidJSONError = #expect(throws: JSONError.self) { try JSONValue(parsing: arrays(65)) }
    #expect(invalidJSONError?.code == .invalidJSON)
    let invalidJSONError2 = #expect(throws: JSONError.self) { try JSONValue(parsing: objects(65)) }
    #expect(invalidJSONError2?.code == .invalidJSON)
  }

  @Test("A text of exactly maxLength (4 MiB) bytes parses; one byte more is refused")
  func length() throws {
    let limit = JSONLimits.default.maxLength
    #expect(limit == 4 << 20)
    func text(_ count: Int) -> [UInt8] {
      [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: count - 2)
        + [UInt8(ascii: "\"")]
    }
    #expect(try JSONValue(parsing: text(limit)).string?.utf8.count == limit - 2)
    do {
      _ = try JSONValue(parsing: text(limit + 1))
      Issue.record("\(limit + 1) bytes parsed")
    } catch {
      #expect(error.reason.contains("exceeds"))
    }
  }
}
