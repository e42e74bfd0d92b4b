import Foundation
import Testing

@testable import DCQL

/// docs/LIMITS.md, "Parser limits": the DCQL JSON nesting depth at its value and one past it.
@Suite("DCQL limits")
struct DCQLLimitTests {
  static func nested(_ levels: Int) -> Data {
    Data((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8)
  }

  @Test("A claim value nests to exactly 256 levels; 257 is refused as invalid JSON")
  func depth() throws {
    #expect(ClaimValue.maximumDepth == 256)
    _ = try ClaimValue(jsonData: Self.nested(256))
    do {
      _ = try ClaimValue(jsonData: Self.nested(257))
      Issue.record("257 levels parsed")
    } catch {
      #expect(error.code == .invalidJSON)
    }
  }
}
