import Foundation
import Testing

/// `dcwallet read`'s status options, as `verifier verify`'s: the CLI fixture's mDL references no
/// status list, so the default check reports it as not referenced.
@Suite("dcwallet read: credential status options", .serialized)
struct InPersonStatusBinaryTests {
  @Test("default: not referenced; --no-status-check: skipped; both with --status-list: usage error")
  func options() throws {
    let f = try CLIFixture()
    let checked = try PresentProcess(f.cli, [])
    let plain = try InPersonBinaryTests().read(f, checked, [])
    #expect(plain.code == 0, "\(plain.err)")
    #expect(
      plain.out.contains("not referenced (the credential names no status list)"), "\(plain.out)")
    #expect(checked.finish().code == 0)
    let skipping = try PresentProcess(f.cli, [])
    let skipped = try InPersonBinaryTests().read(f, skipping, ["--no-status-check"])
    #expect(skipped.code == 0, "\(skipped.err)")
    #expect(skipped.out.contains("skipped (--no-status-check)"), "\(skipped.out)")
    #expect(skipping.finish().code == 0)
    let both = try f.cli.run([
      "read", "--engagement", "mdoc:x", "--connect", "127.0.0.1:1", "--doctype",
      InPersonBinaryTests.mdl, "--element", "org.iso.18013.5.1/age_over_18", "--no-status-check",
      "--status-list", try f.cli.file("x.jwt", "x"),
    ])
    #expect(both.code == 2)
    #expect(both.err.contains("--no-status-check and --status-list exclude each other"))
  }
}
