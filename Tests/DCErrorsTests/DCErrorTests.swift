import DCCBOR
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

  @Test func errorsWithTheSameCodeAreEqualWhateverTheirText() {
    let one = SampleError(.bad, "one reason", file: "A/A.swift", line: 1)
    let other = SampleError(
      .bad, "another reason", underlying: CBORError(.truncated, reason: "short"), file: "B/B.swift",
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
    let located = CBORError(.truncated, offset: 3, reason: "the input ended")
    #expect(located.description == "CBORError.truncated at offset 3: the input ended")
    #expect(located.offset == 3)
    #expect(located.detail == 3)
    let unlocated = CBORError(.truncated, reason: "the input ended")
    #expect(unlocated.description == "CBORError.truncated: the input ended")
    #expect(unlocated.offset == nil)
    #expect(located == unlocated)
  }

  @Test func theDebugDescriptionNamesTheThrowSiteAndEveryCause() {
    let root = CBORError(.truncated, offset: 1, reason: "short", file: "C/C.swift", line: 9)
    let middle = SampleError(.worse, "inner", underlying: root, file: "M/M.swift", line: 5)
    let outer = SampleError(.bad, "outer", underlying: middle, file: "O/O.swift", line: 7)
    #expect(
      outer.debugDescription
        == """
        SampleError.bad: outer (O/O.swift:7)
          caused by: SampleError.worse: inner (M/M.swift:5)
          caused by: CBORError.truncated at offset 1: short (C/C.swift:9)
        """)
    #expect(
      SampleError(.bad, "root", file: "R/R.swift", line: 3).debugDescription
        == "SampleError.bad: root (R/R.swift:3)")
    #expect((outer.underlying as? SampleError)?.underlying as? CBORError == root)
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
    #expect(CBORErrorCode.errorName == "CBORError")
  }
}
