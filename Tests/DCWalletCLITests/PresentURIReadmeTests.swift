import Foundation
import Testing

/// The README's "Presenting from a link or QR code (OpenID4VP)" commands run as written: its
/// ```sh block, with bash -e in a fresh directory, the built dcwallet first on PATH, bounded in
/// time. The verifier it starts listens on 127.0.0.1 only and is killed when the script ends.
@Suite("README present-uri")
struct PresentURIReadmeTests {
  static let heading = "## Presenting from a link or QR code (OpenID4VP)"

  @Test("The present-uri section's shell block runs as written; the verifier reports the PID")
  func presentURIRuns() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)

    let (status, out, err) = try ReadmeTourTests.runScript(
      block, named: "present-uri", timeLimit: 60)
    #expect(status == 0, "the present-uri block failed:\n\(err)\n\(out)")
    #expect(out.contains("pid: dc+sd-jwt urn:eudi:pid:1"))
    #expect(out.contains(#"given_name: "Erika""#))
    #expect(out.contains("ok  every Credential Query answered"))
    // present-uri says on standard error what it sent (issue 32, item 17).
    #expect(
      err.contains("sent to x509_san_dns:localhost: pid (given_name, age_over_18)\n"), "\(err)")
  }
}
