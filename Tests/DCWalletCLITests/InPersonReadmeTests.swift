import Foundation
import Testing

/// The README's "In person (ISO 18013-5)" commands run as written: its ```sh block, with bash -e
/// in a fresh directory, the built dcwallet first on PATH, bounded in time. `present` listens on
/// 127.0.0.1 only and the block waits for its exit.
@Suite("README in person")
struct InPersonReadmeTests {
  static let heading = "## In person (ISO 18013-5)"

  @Test("The in-person section's shell block runs as written: read verifies, present exits 0")
  func inPersonRuns() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)

    let (status, out, err) = try ReadmeTourTests.runScript(
      block, named: "in-person", timeLimit: 60)
    #expect(status == 0, "the in-person block failed:\n\(err)\n\(out)")
    #expect(out.contains("org.iso.18013.5.1/age_over_21: yes"), "\(out)")
    #expect(out.lowercased().contains("mac"), "\(out)")
  }
}
