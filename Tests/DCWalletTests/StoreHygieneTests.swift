import DCAPI
import DCCBOR
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCStore
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 10 §7.4, §7.6, §7.11, §7.12: what the wallet refuses at import, what it records about a
/// credential's issuer and validity, damaged rows, and settings changed without the wallet's key.
@Suite("Store hygiene: duplicates, issuer trust, validity, damaged rows, authenticated settings")
struct StoreHygieneTests {
  struct Setup {
    let dir: TemporaryDirectory
    let pki: TestPKI
    let device: ECPrivateKey

    init() throws {
      dir = try TemporaryDirectory()
      pki = try TestPKI(now: Date())
      device = try ECPrivateKey(curve: .p256)
    }

    func wallet(
      authenticator: any UserAuthenticator = ImplicitAuthenticator(),
      clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> Wallet {
      try Wallet(
        home: WalletHome(directory: dir.path), authenticator: authenticator,
        policy: WalletPolicy(acceptsUnverifiedIssuers: true), clock: clock)
    }

    /// An Annex C request for the mDL's age_over_18.
    func envelope() throws -> RequestEnvelope {
      let items = ItemsRequest(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      let info = EncryptionInfo(
        nonce: [UInt8](repeating: 1, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
      let request = AnnexCRequest(
        deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
        encryptionInfo: info)
      return RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
      ])
    }
  }

  // MARK: §7.4

  @Test("An mdoc repeating an element identifier is refused at import and nothing is stored")
  func duplicateElementRefusedAtImport() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let issuer = MdocIssuer(signer: setup.pki.dsKey, certificateChain: [setup.pki.documentSigner])
    let twice = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        ("org.iso.18013.5.1", [("age_over_18", true), ("age_over_18", false)])
      ],
      deviceKey: setup.device.publicKey,
      validity: ValidityInfo(
        signed: setup.pki.clock, validFrom: setup.pki.clock.addingTimeInterval(-3600),
        validUntil: setup.pki.clock.addingTimeInterval(86_400)))
    _ = try await wallet.addTrustAnchor(setup.pki.iaca, role: .issuer)
    await #expect {
      try await wallet.importMdoc(twice.bytes, deviceKey: setup.device)
    } throws: { error in
      guard let error = error as? WalletError else { return false }
      return error.code == .importRejected && error.reason.contains("more than once")
    }
    #expect(try await wallet.credentials().isEmpty)
  }

  // MARK: §7.11

  @Test("With no issuer anchor an import is stored as unverified; with one, as trusted")
  func issuerTrustIsRecorded() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let mdoc = try setup.pki.issue(deviceKey: setup.device.publicKey)
    let unverified = try await wallet.importMdoc(mdoc.bytes, deviceKey: setup.device, id: "a")
    #expect(unverified.issuerTrust == .unverified)
    _ = try await wallet.addTrustAnchor(setup.pki.iaca, role: .issuer)
    let trusted = try await wallet.importMdoc(mdoc.bytes, deviceKey: setup.device, id: "b")
    #expect(trusted.issuerTrust == .trusted)
    // Persisted: a new Wallet on the same home reads both back.
    let reopened = try setup.wallet()
    #expect(try await reopened.credentials().map(\.issuerTrust) == [.unverified, .trusted])
  }

  // MARK: §7.6

  @Test("A credential's validity follows the clock: not yet valid, valid, expired")
  func validityState() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let stored = try await wallet.importMdoc(
      try setup.pki.issue(deviceKey: setup.device.publicKey).bytes, deviceKey: setup.device)
    let from = try #require(stored.validFrom)
    let until = try #require(stored.validUntil)
    #expect(stored.validity(at: from.addingTimeInterval(-1)) == .notYetValid)
    #expect(stored.validity(at: from) == .valid)
    #expect(stored.validity(at: until) == .valid)
    #expect(stored.validity(at: until.addingTimeInterval(1)) == .expired)
    let open = StoredCredential(
      format: .sdJWT, type: "t", issued: [], display: CredentialDisplay(title: "t"))
    #expect(open.validity(at: .distantFuture) == .valid)
  }

  // MARK: §7.12 damaged rows

  @Test("A damaged row is reported and skipped; the good rows list and answer requests")
  func damagedRowIsSkipped() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    _ = try await wallet.importMdoc(
      try setup.pki.issue(deviceKey: setup.device.publicKey).bytes, deviceKey: setup.device,
      id: "good")
    // A second mDL whose display column is not JSON (a bad write, a disk error, a hostile edit).
    _ = try await wallet.store.execute(
      """
      INSERT INTO credentials (id, format, type, issued, display, created_at_ms)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        .text("bad"), .text("mso_mdoc"), .text("org.iso.18013.5.1.mDL"), .blob([0xA0]),
        .text("{not json"), .integer(0),
      ])
    #expect(try await wallet.credentials().map(\.id) == ["good"])
    let listing = try await wallet.credentialListing()
    #expect(listing.credentials.map(\.id) == ["good"])
    #expect(listing.problems.map(\.record) == [.credential(id: "bad")])
    #expect(listing.problems.first?.error.code == .corruptRecord)
    // A request for that type is still answered, from the good row.
    let request = try await wallet.resolve(try setup.envelope(), origin: "https://shop.example")
    let response = try await wallet.respond(to: request, consent: try request.proposedConsent())
    #expect(response.protocolIdentifier == "org-iso-mdoc")
    // A row too damaged to read can still be removed.
    try await wallet.removeCredential(id: "bad")
    #expect(try await wallet.credentialListing().problems.isEmpty)
    let notFoundError = await #expect(throws: WalletError.self) {
      try await wallet.removeCredential(id: "bad")
    }
    #expect(notFoundError?.code == .notFound)
  }

  @Test("A damaged activity entry is reported and skipped; the rest of the log reads")
  func damagedActivityIsSkipped() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let first = try await wallet.store.append(
      NewActivity(protocolIdentifier: "org-iso-mdoc", outcome: .refused, detail: "one"))
    let second = try await wallet.store.append(
      NewActivity(protocolIdentifier: "org-iso-mdoc", outcome: .shared, detail: "two"))
    _ = try await wallet.store.execute(
      "UPDATE activity SET shared_items = 'not json' WHERE id = ?", [.integer(first)])
    #expect(try await wallet.activity().map(\.id) == [second])
    let listing = try await wallet.activityListing()
    #expect(listing.problems.map(\.record) == [.activity(id: first)])
    #expect(listing.problems.first?.error.code == .corruptRecord)
  }

  // MARK: §7.12 authenticated settings

  @Test(
    "A trust anchor changed, retargeted or added without the key is not trusted and is reported")
  func tamperedAnchors() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let record = try await wallet.addTrustAnchor(setup.pki.readerRoot, role: .reader)
    #expect(record.authenticationTag?.count == 32)
    #expect(try await wallet.trustAnchors(role: .reader) == [setup.pki.readerRoot])
    #expect(try await wallet.trustAnchorListing().problems.isEmpty)

    // Another certificate written over the row.
    let stranger = try TestPKI().readerRoot
    _ = try await wallet.store.execute(
      "UPDATE trust_anchors SET certificate = ? WHERE id = ?",
      [.blob(stranger.derBytes), .text(record.id)])
    #expect(try await wallet.trustAnchors(role: .reader).isEmpty)
    let listing = try await wallet.trustAnchorListing()
    #expect(listing.anchors.isEmpty)
    #expect(listing.problems.map(\.record) == [.trustAnchor(id: record.id)])
    #expect(listing.problems.first?.error.code == .unauthenticatedRecord)

    // The right certificate again, but moved to another role.
    _ = try await wallet.store.execute(
      "UPDATE trust_anchors SET certificate = ?, role = 'issuer' WHERE id = ?",
      [.blob(setup.pki.readerRoot.derBytes), .text(record.id)])
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    _ = try await wallet.store.execute(
      "UPDATE trust_anchors SET role = 'reader' WHERE id = ?", [.text(record.id)])
    #expect(try await wallet.trustAnchors(role: .reader) == [setup.pki.readerRoot])

    // A row added straight to the store, with no tag (or a tag made with another key).
    try await wallet.store.addTrustAnchor(
      TrustAnchorRecord(
        id: "planted", role: .issuer, certificateDER: stranger.derBytes, subject: "CN=Planted"))
    let forged = TrustAnchorRecord(
      id: "forged", role: .issuer, certificateDER: stranger.derBytes, subject: "CN=Forged")
    let otherKey = try SettingsAuthentication(key: [UInt8](repeating: 7, count: 32))
    try await wallet.store.addTrustAnchor(forged.tagged(otherKey.tag(for: forged)))
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    #expect(
      Set(try await wallet.trustAnchorListing(role: .issuer).problems.map(\.record)) == [
        .trustAnchor(id: "planted"), .trustAnchor(id: "forged"),
      ])
    // The wallet's own key, on a new Wallet over the same home, accepts what it wrote.
    #expect(try await setup.wallet().trustAnchors(role: .reader) == [setup.pki.readerRoot])
  }

  @Test("A policy changed without the key falls back to the strictest one and is reported")
  func tamperedPolicy() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.setUserAuthenticationPolicy(.always)
    #expect(try await wallet.userAuthenticationPolicyStatus().problem == nil)
    #expect(try await wallet.userAuthenticationPolicy() == .always)
    try await wallet.setUserAuthenticationPolicy(.never)
    #expect(try await wallet.userAuthenticationPolicy() == .never)

    // The value edited in the database: from "always" to "never" with the old tag.
    try await wallet.setUserAuthenticationPolicy(.always)
    _ = try await wallet.store.execute(
      "UPDATE settings SET value = 'never' WHERE key = ?",
      [.text(UserAuthenticationPolicy.settingKey)])
    let status = try await wallet.userAuthenticationPolicyStatus()
    #expect(status.policy == .always)
    #expect(status.problem?.record == .setting(key: UserAuthenticationPolicy.settingKey))
    #expect(status.problem?.error.code == .unauthenticatedRecord)

    // Written with no tag at all: refused the same way, and the holder is asked before sharing.
    try await wallet.store.setSetting(UserAuthenticationPolicy.settingKey, "never")
    #expect(try await wallet.userAuthenticationPolicyStatus().problem != nil)
    _ = try await wallet.importMdoc(
      try setup.pki.issue(deviceKey: setup.device.publicKey).bytes, deviceKey: setup.device)
    let authenticator = ScriptedAuthenticator([.authenticated])
    let asking = try setup.wallet(authenticator: authenticator)
    let request = try await asking.resolve(try setup.envelope(), origin: "https://shop.example")
    _ = try await asking.respond(to: request, consent: try request.proposedConsent())
    #expect(authenticator.prompts.count == 1)
  }

  @Test(
    "The settings key is HKDF-SHA256 of the KEK with its own label, and tags cover every column")
  func settingsKeyDerivation() throws {
    let kek = [UInt8](repeating: 0x11, count: 32)
    let derived = try SettingsAuthentication(keyEncryptionKey: kek)
    let expected = try SettingsAuthentication(
      key: try HKDF.deriveKey(
        .sha256, inputKeyMaterial: kek, salt: [UInt8](),
        info: Array("dcwallet settings authentication v1".utf8), outputByteCount: 32))
    let anchor = TrustAnchorRecord(
      id: "a", role: .reader, certificateDER: [1, 2, 3], subject: "CN=A",
      addedAt: Date(timeIntervalSince1970: 1))
    #expect(derived.tag(for: anchor) == expected.tag(for: anchor))
    // Not the KEK itself.
    #expect(try SettingsAuthentication(key: kek).tag(for: anchor) != derived.tag(for: anchor))
    // Each column changes the tag; field boundaries are unambiguous.
    let variants = [
      TrustAnchorRecord(
        id: "b", role: .reader, certificateDER: [1, 2, 3], subject: "CN=A",
        addedAt: anchor.addedAt),
      TrustAnchorRecord(
        id: "a", role: .issuer, certificateDER: [1, 2, 3], subject: "CN=A",
        addedAt: anchor.addedAt),
      TrustAnchorRecord(
        id: "a", role: .reader, certificateDER: [1, 2], subject: "CN=A", addedAt: anchor.addedAt),
      TrustAnchorRecord(
        id: "a", role: .reader, certificateDER: [1, 2, 3], subject: "CN=B",
        addedAt: anchor.addedAt),
      TrustAnchorRecord(
        id: "a", role: .reader, certificateDER: [1, 2, 3], subject: "CN=A",
        addedAt: Date(timeIntervalSince1970: 2)),
    ]
    for variant in variants { #expect(derived.tag(for: variant) != derived.tag(for: anchor)) }
    #expect(
      derived.tag(forSetting: "ab", value: "c") != derived.tag(forSetting: "a", value: "bc"))
    let invalidArgumentError = #expect(throws: WalletStoreError.self) {
      try SettingsAuthentication(key: [1, 2, 3])
    }
    #expect(invalidArgumentError?.code == .invalidArgument)
  }

  // MARK: Migration

  @Test("A version 3 file migrates: credentials read as unverified, old anchors are reported")
  func migrationFromVersion3() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let home = WalletHome(directory: setup.dir.path)
    try home.create()
    do {
      let v3 = try WalletStore(
        path: home.databasePath, busyTimeout: .seconds(5), schemaVersion: 3)
      _ = try await v3.execute(
        """
        INSERT INTO credentials (id, format, type, issued, display, created_at_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text("old"), .text("mso_mdoc"), .text("org.iso.18013.5.1.mDL"), .blob([0xA0]),
          .text(#"{"claimNames":{},"title":"Old"}"#), .integer(1),
        ])
      _ = try await v3.execute(
        """
        INSERT INTO trust_anchors (id, role, certificate, subject, added_at_ms)
        VALUES (?, ?, ?, ?, ?)
        """,
        [
          .text("iaca"), .text("issuer"), .blob(setup.pki.iaca.derBytes), .text("CN=IACA"),
          .integer(5),
        ])
      _ = try await v3.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?)",
        [.text(UserAuthenticationPolicy.settingKey), .text("never")])
    }
    let wallet = try setup.wallet()
    #expect(try await wallet.store.schemaVersion() == WalletStore.currentSchemaVersion)
    #expect(try await wallet.credentials().map(\.issuerTrust) == [.unverified])
    let anchors = try await wallet.trustAnchorListing()
    #expect(anchors.anchors.isEmpty)
    #expect(anchors.problems.first?.error.reason.contains("no authentication tag") == true)
    #expect(try await wallet.userAuthenticationPolicy() == .always)
    // Added again through the wallet, the anchor is trusted.
    _ = try await wallet.addTrustAnchor(setup.pki.iaca, role: .issuer)
    #expect(try await wallet.trustAnchors(role: .issuer) == [setup.pki.iaca])
  }
}
