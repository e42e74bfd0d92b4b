import DCCBOR
import DCErrors
import Testing

/// The shared error shape (ErrorKit `CausedError`): description, debugDescription and equality
/// come from one place for every module's error.
struct CausedErrorTests {
  struct Sample: CausedError {
    struct Code: Hashable, Sendable, CustomStringConvertible {
      let name: String
      var description: String { name }
    }
    let code: Code
    let reason: String
    let underlying: (any Error & Sendable)?
    let file: String
    let line: UInt
    var description: String { causedDescription }
    var debugDescription: String { causedDebugDescription }
  }

  @Test func theDefaultsDescribeCompareAndChainTheCause() {
    let cause = CBORError(.truncated, reason: "short")
    let error = Sample(
      code: .init(name: "bad"), reason: "r", underlying: cause, file: "M/F.swift", line: 7)
    #expect(error.description == "Sample.bad: r")
    #expect(
      error.debugDescription
        == "Sample.bad: r (M/F.swift:7)\n  caused by: \(String(reflecting: cause))")
    let plain = Sample(code: .init(name: "bad"), reason: "r", underlying: nil, file: "x", line: 1)
    #expect(error == plain)
    #expect(Set([error, plain]).count == 1)
    #expect(
      error != Sample(code: .init(name: "bad"), reason: "s", underlying: nil, file: "", line: 0))
  }
}
