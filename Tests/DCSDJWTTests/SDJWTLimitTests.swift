import DCJSON
import Testing

@testable import DCSDJWT

/// docs/LIMITS.md, "Parser limits": the SD-JWT processing depth at its value and one past it.
@Suite("SD-JWT limits")
struct SDJWTLimitTests {
  /// `levels` objects nested under the payload: the innermost is at depth `levels`.
  static func payload(_ levels: Int) -> JSONValue {
    var value = JSONValue.object([])
    for _ in 0..<levels { value = .object([(key: "a", value: value)]) }
    return value
  }

  @Test("Processing nests to exactly 128 levels; 129 is refused as malformed")
  func depth() throws {
    #expect(ProcessedSDJWT.maximumDepth == 128)
    _ = try ProcessedSDJWT(issuerPayload: Self.payload(128), disclosures: [])
    do {
      _ = try ProcessedSDJWT(issuerPayload: Self.payload(129), disclosures: [])
      Issue.record("129 levels processed")
    } catch {
      #expect(error.code == .malformed)
    }
  }
}
