import Foundation
import Testing

/// The README's "Registration certificates (EU trust)" commands run as written (issue 29): its
/// ```sh block, with bash -e in a fresh directory, the built dcwallet first on PATH, bounded in
/// time. The wallet trusts only the development LoTE; the verifier sends its access certificate
/// and registration; the consent shows the registration and marks the over-asked claim; the
/// over-asking request is refused under the policy; the request within the registration is
/// answered and verifies; the issuer's registration is shown before issuance.
@Suite("README registration certificates")
struct RegistrationReadmeTests {
  static let heading = "## Registration certificates (EU trust)"

  @Test("The registration section's shell block runs as written")
  func registrationRuns() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)
    #expect(!block.contains("trust add"), "the section must not add anchors by hand")
    #expect(!block.contains("--registrar-cert"), "the registrar must come from the list")

    let (status, out, err) = try ReadmeTourTests.runScript(
      block, named: "registration", timeLimit: 120)
    #expect(status == 0, "the registration block failed:\n\(err)\n\(out)")
    #expect(out.contains("- registered as: Development Shop (Development Shop Ltd)"), "\(out)")
    #expect(out.contains("  purpose: Age verification at the checkout"), "\(out)")
    #expect(out.contains("  privacy policy: https://shop.example/privacy"), "\(out)")
    #expect(
      out.contains("org.iso.18013.5.1/birth_date (not retained): 1971-09-01 [OVER-ASKING"),
      "\(out)")
    #expect(!out.contains("given_name (not retained): Erika [OVER-ASKING"), "\(out)")
    #expect(err.contains("1 claim(s) beyond the registration"), "\(err)")
    #expect(out.contains("ok  disclosure org.iso.18013.5.1.mDL: 2 element(s)"), "\(out)")
    #expect(
      out.contains("issuer registered as: Development Issuer (Development Issuer Agency)"),
      "\(out)")
  }
}
