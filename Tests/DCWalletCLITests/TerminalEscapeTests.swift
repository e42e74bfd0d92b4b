import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 10 §7.3: strings that requesters and issuers chose never reach the terminal as control
/// sequences. `ESC[1A ESC[2K` (cursor up, erase line) would otherwise erase the consent line that
/// shows the portrait will be shared.
@Suite("terminal escape injection", .serialized)
struct TerminalEscapeTests {
  static let erase = "\u{1b}[1A\u{1b}[2K"
  /// An element identifier that tries to erase the line above it.
  static let evilElement = "nickname\(erase)"

  /// No raw control character but the line feed, DEL, C1 or bidi override in the output.
  static func clean(_ text: String) -> Bool {
    !text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n") || (0x7f...0x9f).contains($0.value)
        || (0x202a...0x202e).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
  }

  @Test("terminalSafe escapes C0, DEL, C1 and bidi controls, and keeps text and line feeds")
  func function() {
    #expect(CBOR.terminalSafe("plain \"text\" \\ é 水") == "plain \"text\" \\ é 水")
    #expect(CBOR.terminalSafe("a\u{1b}[2Kb") == "a\\u001b[2Kb")
    #expect(CBOR.terminalSafe("\u{9b}2K\u{7f}\t\r") == "\\u009b2K\\u007f\\t\\r")
    #expect(CBOR.terminalSafe("abc\u{202e}fed") == "abc\\u202efed")
    #expect(CBOR.terminalSafe("one\ntwo") == "one\\ntwo")
    #expect(CBOR.terminalSafe("one\ntwo", keepingNewlines: true) == "one\ntwo")
    // Diagnostic notation (what inspect prints) escapes the same characters.
    #expect(CBOR.textString("\u{9b}\u{202e}").diagnosticNotation == "\"\\u009b\\u202e\"")
  }

  @Test("show, list, respond --interactive, log and error messages escape outside strings")
  func binary() throws {
    let fixture = try CLIFixture(importMDL: false)
    let cli = fixture.cli
    let device = try ECPrivateKey(curve: .p256)
    let issuer = MdocIssuer(
      signer: fixture.pki.dsKey, certificateChain: [fixture.pki.documentSigner])
    let mdoc = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            ("family_name", "Mustermann\u{1b}]0;pwned\u{07}"), ("given_name", "Erika\u{9b}2K"),
            (Self.evilElement, "Eri\u{202e}ka"), ("portrait", .byteString([1, 2, 3])),
          ]
        )
      ],
      deviceKey: device.publicKey,
      validity: ValidityInfo(
        signed: fixture.pki.clock, validFrom: fixture.pki.clock.addingTimeInterval(-3600),
        validUntil: fixture.pki.clock.addingTimeInterval(86_400)))
    let imported = try cli.run([
      "import", "--mdoc", try cli.file("evil.cbor", mdoc.bytes), "--device-key",
      try cli.file("evil.pem", device.pemRepresentation), "--id", "mdl",
    ])
    #expect(imported.code == 0, "\(imported.err)")

    let show = try cli.run(["show", "mdl"])
    #expect(show.code == 0)
    #expect(Self.clean(show.out) && Self.clean(show.err))
    #expect(show.out.contains("org.iso.18013.5.1/nickname\\u001b[1A\\u001b[2K: Eri\\u202eka"))
    #expect(show.out.contains("Mustermann\\u001b]0;pwned\\u0007"))

    let list = try cli.run(["list"])
    #expect(list.code == 0 && Self.clean(list.out))
    #expect(list.out.contains("Erika\\u009b2K"))
    // JSON stays JSON: the escapes decode to the same strings.
    let json = try cli.run(["show", "mdl", "--json"])
    #expect(Self.clean(json.out))
    let claims = try JSONValue(parsing: json.out)["claims"]
    #expect(claims?["org.iso.18013.5.1/\(Self.evilElement)"]?.string == "Eri\u{202e}ka")

    let (request, _) = try fixture.request(elements: ["portrait", Self.evilElement])
    let declined = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "n\n")
    #expect(declined.code == 1)
    #expect(Self.clean(declined.err), "\(declined.err)")
    #expect(declined.err.contains("nickname\\u001b[1A\\u001b[2K"))
    let accepted = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "y\n")
    #expect(accepted.code == 0, "\(accepted.err)")
    #expect(Self.clean(accepted.err))
    let log = try cli.run(["log"])
    #expect(log.code == 0 && Self.clean(log.out))
    #expect(log.out.contains("nickname\\u001b[1A\\u001b[2K"))

    // A line feed in a requested element name cannot forge a line of the consent screen.
    let (forging, _) = try fixture.request(elements: ["portrait", "x\n  injected line"])
    let forged = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", forging, "--interactive"],
      stdin: "n\n")
    #expect(forged.code == 1)
    #expect(!forged.err.contains("\n  injected line"), "\(forged.err)")
    #expect(forged.err.contains("x\\n  injected line"), "\(forged.err)")

    // Error messages: one line, escaped.
    let missing = try cli.run(["show", "x\(Self.erase)\ninjected line"])
    #expect(missing.code == 1 && missing.out.isEmpty)
    #expect(Self.clean(missing.err))
    #expect(
      missing.err.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1,
      "\(missing.err)")
  }
}
