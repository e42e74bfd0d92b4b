import DCErrors
import Testing

/// The one error shape (`DCError`): equality by code, the description a module's code type
/// names, the cause chain in the debug description, and the throw site.
struct DCErrorTests {
  struct SampleCode: DCErrorCode {
    let name: String
    var description: String { name }
    static var errorName: String { "SampleError" }

    static let bad = SampleCode(name: "bad")
    static let worse = SampleCode(name: "worse")
  }

  typealias SampleError = DCError<SampleCode>

  /// A code type whose errors carry a detail (a byte offset) and describe it, as a parser's do.
  struct LocatedCode: DCErrorCode {
    typealias Detail = Int
    let name: String
    var description: String { name }

    static let truncated = LocatedCode(name: "truncated")

    static func description(of error: DCError<LocatedCode>) -> String {
      guard let offset = error.detail else { return "LocatedError.\(error.code): \(error.reason)" }
      return "LocatedError.\(error.code) at offset \(offset): \(error.reason)"
    }
  }

  typealias LocatedError = DCError<LocatedCode>

  @Test func errorsWithTheSameCodeAreEqualWhateverTheirText() {
    let one = SampleError(.bad, "one reason", file: "A/A.swift", line: 1)
    let other = SampleError(
      .bad, "another reason", underlying: LocatedError(.truncated, "short"), file: "B/B.swift",
      line: 2)
    #expect(one == other)
    #expect(one.hashValue == other.hashValue)
    #expect(Set([one, other]).count == 1)
    #expect(one != SampleError(.worse, "one reason", file: "A/A.swift", line: 1))
    #expect(Set([one, SampleError(.worse, "one reason")]).count == 2)
  }

  @Test func theDescriptionIsTheErrorNameTheCodeAndTheReason() {
    #expect(SampleError(.bad, "it broke").description == "SampleError.bad: it broke")
    #expect("\(SampleError(.worse, "again"))" == "SampleError.worse: again")
  }

  @Test func aCodeTypeWithADetailDescribesIt() {
    let located = LocatedError(.truncated, "the input ended", detail: 3)
    #expect(located.description == "LocatedError.truncated at offset 3: the input ended")
    #expect(located.detail == 3)
    let unlocated = LocatedError(.truncated, "the input ended")
    #expect(unlocated.description == "LocatedError.truncated: the input ended")
    #expect(unlocated.detail == nil)
    #expect(located == unlocated)
  }

  @Test func theDebugDescriptionNamesTheThrowSiteAndEveryCause() {
    let root = LocatedError(.truncated, "short", detail: 1, file: "C/C.swift", line: 9)
    let middle = SampleError(.worse, "inner", underlying: root, file: "M/M.swift", line: 5)
    let outer = SampleError(.bad, "outer", underlying: middle, file: "O/O.swift", line: 7)
    #expect(
      outer.debugDescription
        == """
        SampleError.bad: outer (O/O.swift:7)
          caused by: SampleError.worse: inner (M/M.swift:5)
          caused by: LocatedError.truncated at offset 1: short (C/C.swift:9)
        """)
    #expect(
      SampleError(.bad, "root", file: "R/R.swift", line: 3).debugDescription
        == "SampleError.bad: root (R/R.swift:3)")
    #expect((outer.underlying as? SampleError)?.underlying as? LocatedError == root)
  }

  @Test func theThrowSiteDefaultsToTheCaller() {
    let line: UInt = #line + 1
    let error = SampleError(.bad, "here")
    #expect(error.file == #fileID)
    #expect(error.line == line)
    #expect(error.underlying == nil)
    #expect(error.detail == nil)
  }
}

/// A code type that does not name its error: the name is the type's, without `Code`.
struct UnnamedErrorCode: DCErrorCode {
  let name: String
  var description: String { name }
}

struct DCErrorNameTests {
  @Test func aCodeTypeNamesItsErrorAfterItselfByDefault() {
    #expect(UnnamedErrorCode.errorName == "UnnamedError")
    #expect(
      DCError(UnnamedErrorCode(name: "odd"), "a reason").description == "UnnamedError.odd: a reason"
    )
    #expect(DCErrorTests.SampleCode.errorName == "SampleError")
  }
}
