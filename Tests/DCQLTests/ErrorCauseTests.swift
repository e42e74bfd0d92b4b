import DCQL
import Foundation
import Testing

/// Errors keep their cause (issue 11) in DCQL: a path error relocated into the query keeps the
/// throw site of the path parser.
struct DCQLErrorCauseTests {
  @Test func relocatedPathErrorKeepsItsThrowSite() throws {
    let text = #"{"credentials":[{"id":"a","format":"dc+sd-jwt","claims":[{"path":["x",-1]}]}]}"#
    do {
      _ = try DCQLQuery(jsonData: Data(text.utf8))
      Issue.record("a negative index was accepted")
    } catch {
      #expect(error.code == .invalidPath)
      #expect(error.location == "credentials[0].claims[0].path[1]")
      #expect(error.file == "DCQL/ClaimsPathPointer.swift")
    }
  }

  @Test func textThatIsNotJSONKeepsTheParserError() throws {
    do {
      _ = try ClaimValue(jsonData: Data("{".utf8))
      Issue.record("text that is not JSON was accepted")
    } catch {
      #expect(error.code == .invalidJSON)
      #expect(error.underlying != nil)
    }
  }
}
