import DCJSON
import Foundation
import Testing

/// The README's "Issuance (OpenID4VCI)" commands run as written: its ```sh block, with bash -e
/// in a fresh directory, the built dcwallet first on PATH, bounded in time. The issuer it starts
/// listens on 127.0.0.1 only and is killed when the script ends.
@Suite("README issuance")
struct IssuanceReadmeTests {
  static let heading = "## Issuance (OpenID4VCI)"

  @Test("The issuance section's shell block runs as written and stores a batch of three")
  func issuanceRuns() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)

    let (status, out, err) = try ReadmeTourTests.runScript(
      block, named: "issuance", timeLimit: 60)
    #expect(status == 0, "the issuance block failed:\n\(err)\n\(out)")
    let jsonLine = try #require(out.split(separator: "\n").first { $0.hasPrefix("{") })
    let json = try JSONValue(parsing: Array(jsonLine.utf8))
    #expect(json["credentials"]?.array?.count == 3)
    #expect(out.contains("Mobile Driving Licence"))
    // Issue 32: stored through --trust-issuer-iacas, labelled so, and its status is checked
    // under the issuer's own IACA: the suspension is seen.
    let refreshed = out.split(separator: "\n").filter { $0.contains("[issuer-vouched]") }
    #expect(refreshed.count >= 3, "\(out)")
    #expect(refreshed.filter { $0.contains("[status: SUSPENDED]") }.count == 1, "\(out)")
  }
}
