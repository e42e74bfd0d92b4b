import Foundation
import Testing

/// The README's "Trusting published lists (EU trust)" commands run as written (issue 29): its
/// ```sh block, with bash -e in a fresh directory, the built dcwallet first on PATH, bounded in
/// time. The wallet trusts only the development LoTE: the listed mDL and reader are accepted and
/// the decisions name the list's entries; the unlisted ones are refused with the reason.
@Suite("README trusted lists")
struct TrustedListReadmeTests {
  static let heading = "## Trusting published lists (EU trust)"

  @Test("The trusted-list section's shell block runs as written, naming each decision")
  func trustedListsRun() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)
    #expect(!block.contains("trust add"), "the section must not add anchors by hand")

    let (status, out, err) = try ReadmeTourTests.runScript(
      block, named: "trusted-lists", timeLimit: 90)
    #expect(status == 0, "the trusted-list block failed:\n\(err)\n\(out)")
    #expect(out.contains("Development Trust Scheme"), "\(out)")
    #expect(
      out.contains("issuer trust: trusted by Development PID Provider, a PID provider"), "\(out)")
    #expect(
      err.contains(
        "; issuer trust: not trusted: the chain validates to no anchor or listed entity"),
      "\(err)")
    #expect(
      out.contains("requester trust: trusted by Development Access CA, an access certificate"),
      "\(out)")
    #expect(out.contains("reader Unlisted Shop is not trusted"), "\(out)")
    // read decides the mDL's issuer through the VICAL (its docType is listed).
    #expect(
      out.contains(
        "issuer trust  documents: trusted by Development IACA, a mdoc issuing authority in the VICAL of Development Trust Scheme"
      ), "\(out)")
    // dev files' VICAL imports with --kind vical (ISO/IEC 18013-5 Annex C.1.7.1).
    #expect(out.contains("  vical  Development Trust Scheme  issued "), "\(out)")
    #expect(out.contains("  1 entry"), "\(out)")
  }
}
