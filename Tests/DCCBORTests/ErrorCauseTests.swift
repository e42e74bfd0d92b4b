import DCCBOR
import Testing

/// Errors keep their cause (issue 11): `inContext` adds context and keeps cause and throw site.
struct CBORErrorCauseTests {
  struct Cause: Error, Sendable {}

  @Test func inContextKeepsCauseAndThrowSite() {
    let error = CBORError(
      .valueOutOfRange, offset: 3, reason: "too big", underlying: Cause(), file: "DCCBOR/X.swift",
      line: 9)
    let placed = error.inContext("Type.field")
    #expect(placed.reason == "Type.field: too big")
    #expect(placed.offset == 3)
    #expect(placed.underlying is Cause)
    #expect(placed.file == "DCCBOR/X.swift" && placed.line == 9)
  }

  @Test func equalityComparesTheCodeOnly() {
    let a = CBORError(.valueOutOfRange, offset: 1, reason: "r")
    #expect(a == CBORError(.valueOutOfRange, offset: 1, reason: "r", underlying: Cause(), line: 1))
    #expect(a == CBORError(.valueOutOfRange, offset: 2, reason: "s"))
    #expect(a != CBORError(.typeMismatch, offset: 1, reason: "r"))
    #expect(a.file == "DCCBORTests/ErrorCauseTests.swift")
  }

  @Test func theDescriptionNamesTheOffsetWhenKnown() {
    let located = CBORError(.truncated, offset: 3, reason: "the input ended")
    #expect(located.description == "CBORError.truncated at offset 3: the input ended")
    #expect(located.offset == 3)
    let unlocated = CBORError(.truncated, reason: "the input ended")
    #expect(unlocated.description == "CBORError.truncated: the input ended")
    #expect(unlocated.offset == nil)
    #expect(CBORErrorCode.errorName == "CBORError")
  }
}
