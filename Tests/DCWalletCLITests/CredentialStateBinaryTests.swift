import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCStore
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 10 §7.6 (display), §7.11 and §7.12 through the binary: validity state in list and
/// show, unverified issuers, damaged rows and tampered anchors.
@Suite("dcwallet credential state", .serialized)
struct CredentialStateBinaryTests {
  /// The wallet store the CLI uses, opened beside it.
  static func store(_ cli: DCWallet) throws -> WalletStore {
    try WalletStore(path: WalletHome(directory: cli.home).databasePath)
  }

  @Test("With no issuer anchor, import warns (exit 0) and show says the issuer is unverified")
  func unverifiedIssuer() throws {
    let cli = try DCWallet()
    let pki = try TestPKI(now: Date())
    let device = try ECPrivateKey(curve: .p256)
    let devicePath = try cli.file("device.pem", device.pemRepresentation)
    let imported = try cli.run([
      "import", "--mdoc",
      try cli.file("mdl.cbor", try pki.issue(deviceKey: device.publicKey).bytes), "--device-key",
      devicePath, "--id", "mdl",
    ])
    #expect(imported.code == 0 && imported.out == "mdl")
    #expect(imported.err.contains("warning:") && imported.err.contains("unverified"))
    #expect(imported.err.contains("it claims to be Test DS"))
    let show = try cli.run(["show", "mdl"])
    #expect(show.out.contains("issuer unverified (claims to be Test DS)"), "\(show.out)")
    #expect(!show.out.contains("issuer: Test DS"))
    let json = try JSONValue(parsing: try cli.run(["show", "mdl", "--json"]).out)
    #expect(json["issuerTrust"]?.string == "unverified")

    // An SD-JWT VC whose issuer nobody vouches for: the same warning.
    let issuerKey = try ECPrivateKey(curve: .p256)
    let issuerCert = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Self-made Bank", country: "UT"),
      publicKey: issuerKey.publicKey, notBefore: Date().addingTimeInterval(-3600),
      notAfter: Date().addingTimeInterval(86_400), extensions: [.keyUsage(.digitalSignature)]
    ).selfSigned(signer: issuerKey)
    let sdJWT = try SDJWTIssuer.issue(
      claims: .object([("given_name", "Erika")]), selectivelyDisclosable: ["given_name"],
      holderKey: device.publicKey, vct: "urn:eudi:pid:1", issuer: "https://bank.example",
      issuedAt: Date(), expiresAt: Date().addingTimeInterval(86_400), signer: issuerKey,
      x5c: [issuerCert], random: SecureRandom())
    let sd = try cli.run([
      "import", "--sd-jwt", try cli.file("pid.sdjwt", sdJWT.serialized), "--device-key",
      devicePath, "--id", "pid",
    ])
    #expect(sd.code == 0 && sd.err.contains("unverified"), "\(sd.err)")
    #expect(try cli.run(["show", "pid"]).out.contains("issuer unverified (claims to be"))

    // With the IACA trusted, an import is quiet and show names the issuer as established.
    let fixture = try CLIFixture()
    let trustedShow = try fixture.cli.run(["show", "mdl"])
    #expect(trustedShow.out.contains("issuer: Test DS (chains to a trusted issuer anchor)"))
    let again = try fixture.cli.run([
      "import", "--mdoc",
      try fixture.cli.file("mdl2.cbor", try fixture.pki.issue(deviceKey: device.publicKey).bytes),
      "--device-key", try fixture.cli.file("device2.pem", device.pemRepresentation),
    ])
    #expect(again.code == 0 && again.err.isEmpty, "\(again.err)")
  }

  @Test("list and show give each credential's validity state; JSON carries it")
  func validityState() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let store = try Self.store(cli)
    let issued = try fixture.pki.issue(deviceKey: try ECPrivateKey(curve: .p256).publicKey).bytes
    let now = Date()
    for (id, from, until) in [
      ("old", now.addingTimeInterval(-86_400 * 10), now.addingTimeInterval(-86_400)),
      ("future", now.addingTimeInterval(86_400), now.addingTimeInterval(86_400 * 10)),
    ] {
      try await store.insert(
        StoredCredential(
          id: id, format: .msoMdoc, type: "org.iso.18013.5.1.mDL", issued: issued,
          display: CredentialDisplay(title: "Mobile driving licence"), validFrom: from,
          validUntil: until, issuerTrust: .trusted))
    }
    let list = try cli.run(["list"])
    #expect(list.code == 0)
    let lines = list.out.split(separator: "\n").map(String.init)
    #expect(lines.first { $0.hasPrefix("old ") }?.contains("[EXPIRED since") == true, "\(list.out)")
    #expect(lines.first { $0.hasPrefix("future ") }?.contains("[NOT YET VALID until") == true)
    #expect(lines.first { $0.hasPrefix("mdl ") }?.contains("[") == false)
    let json = try JSONValue(parsing: try cli.run(["list", "--json"]).out).array ?? []
    let states = Dictionary(
      uniqueKeysWithValues: json.compactMap { item in
        item["id"]?.string.map { ($0, item["validity"]?.string ?? "") }
      })
    #expect(states == ["mdl": "valid", "old": "expired", "future": "not-yet-valid"])
    #expect(try cli.run(["show", "old"]).out.contains("state: EXPIRED since"))
    #expect(try cli.run(["show", "mdl"]).out.contains("state: valid"))
    #expect(
      try JSONValue(parsing: try cli.run(["show", "future", "--json"]).out)["validity"]?.string
        == "not-yet-valid")
  }

  @Test("A damaged row is skipped with a warning; list and requests for its type still work")
  func damagedRow() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    _ = try await Self.store(cli).execute(
      """
      INSERT INTO credentials (id, format, type, issued, display, created_at_ms)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        .text("broken"), .text("mso_mdoc"), .text("org.iso.18013.5.1.mDL"), .blob([0xA0]),
        .text("{not json"), .integer(0),
      ])
    let list = try cli.run(["list"])
    #expect(list.code == 0, "\(list.err)")
    #expect(list.out.hasPrefix("mdl "))
    #expect(list.err.contains("warning: credential broken skipped"))
    let show = try cli.run(["show", "broken"])
    #expect(show.code == 1 && show.err.contains("cannot be read"))
    let (request, _) = try fixture.request()
    let respond = try cli.run(["respond", "--origin", "https://shop.example", "--request", request])
    #expect(respond.code == 0, "\(respond.err)")
    // A damaged activity entry: log still prints the others, with a warning.
    #expect(
      try cli.run(["respond", "--origin", "https://shop.example", "--request", request]).code == 0)
    _ = try await Self.store(cli).execute(
      "UPDATE activity SET outcome = 'exploded' WHERE id = (SELECT min(id) FROM activity)")
    let log = try cli.run(["log"])
    #expect(log.code == 0 && log.out.contains("shared"), "\(log.err)")
    #expect(log.err.contains("warning: activity entry") && log.err.contains("unknown outcome"))
    // The damaged row can be removed, and the warning goes with it.
    #expect(try cli.run(["remove", "broken"]).code == 0)
    let after = try cli.run(["list"])
    #expect(after.code == 0 && after.err.isEmpty && after.out.hasPrefix("mdl "))
  }

  /// Issue 32, item 8: a credential row's trust level and status are authenticated too.
  @Test("A credential's trust or status edited in the database is reported and not trusted")
  func tamperedCredentialRow() async throws {
    let cli = try DCWallet()
    let pki = try TestPKI(now: Date())
    let device = try ECPrivateKey(curve: .p256)
    let imported = try cli.run([
      "import", "--mdoc",
      try cli.file("mdl.cbor", try pki.issue(deviceKey: device.publicKey).bytes), "--device-key",
      try cli.file("device.pem", device.pemRepresentation), "--id", "mdl",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    let clean = try cli.run(["list"])
    #expect(clean.code == 0 && clean.err.isEmpty, "\(clean.err)")
    // Someone with write access to the database, but not the key, makes the unverified import
    // trusted and gives it a valid status.
    _ = try await Self.store(cli).execute(
      "UPDATE credentials SET issuer_trust = 'trusted', status_outcome = 'valid', "
        + "status_value = 0, status_checked_at_ms = 0 WHERE id = 'mdl'")
    let list = try cli.run(["list", "--json"])
    #expect(list.code == 0)
    #expect(list.err.contains("warning: credential mdl was changed without this wallet's key"))
    let shown = try JSONValue(parsing: try cli.run(["show", "mdl", "--json"]).out)
    #expect(shown["issuerTrust"]?.string == "unverified")
    #expect(shown["status"]?["status"]?.string == "unknown")
    #expect(shown["status"]?["reason"]?.string == "unauthenticated")
  }

  @Test("A trust anchor edited in the database is not trusted and is reported")
  func tamperedAnchor() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, _) = try fixture.request()
    let arguments = [
      "respond", "--origin", "https://shop.example", "--request", request,
      "--require-trusted-reader",
    ]
    #expect(try cli.run(arguments).code == 0)
    // Someone with write access to the database, but not the key, swaps the reader root.
    let stranger = try TestPKI(now: Date())
    _ = try await Self.store(cli).execute(
      "UPDATE trust_anchors SET certificate = ? WHERE role = 'reader'",
      [.blob(stranger.readerRoot.derBytes)])
    let list = try cli.run(["trust", "list"])
    #expect(list.code == 0)
    #expect(list.err.contains("warning: trust anchor") && list.err.contains("not trusted"))
    #expect(!list.out.contains("reader"))
    let refused = try cli.run(arguments)
    #expect(refused.code == 1 && refused.out.isEmpty, "\(refused.err)")
  }
}
