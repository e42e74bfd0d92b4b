import DCCrypto
import DCStore
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 32, item 8: each credential row's trust level, issuance record and status carry an
/// authentication tag under a key derived from the key-encryption key; a row changed without it
/// is reported and not trusted, and rows written before tags existed are adopted explicitly.
@Suite("Credential rows: authenticated")
struct CredentialRowAuthenticationTests {
  let dir: TemporaryDirectory
  let home: WalletHome
  let now: Date
  let issuer: ImportRefusalTests.Issuer

  init() throws {
    dir = try TemporaryDirectory()
    home = WalletHome(directory: dir.path)
    now = Date()
    issuer = try ImportRefusalTests.Issuer(name: "PID", clock: now)
  }

  func wallet() throws -> Wallet {
    let now = self.now
    return try Wallet(
      home: home, policy: WalletPolicy(acceptsUnverifiedIssuers: true), clock: { now })
  }

  /// Imports an SD-JWT VC of `issuer` (no anchor: unverified).
  func importPID(_ wallet: Wallet, id: String) async throws -> StoredCredential {
    let device = try ECPrivateKey(curve: .p256)
    return try await wallet.importSDJWT(
      try issuer.issue(holder: device.publicKey, clock: now), deviceKey: device, id: id)
  }

  /// The one listed credential, and the problems reported for it.
  func read(_ wallet: Wallet, _ id: String) async throws -> (StoredCredential, [StoreProblem]) {
    let listing = try await wallet.credentialListing()
    let credential = try #require(listing.credentials.first { $0.id == id })
    return (credential, listing.problems.filter { $0.record == .credential(id: id) })
  }

  @Test("An unverified import rewritten as trusted reads as unverified, and is reported")
  func tamperedTrustLevel() async throws {
    defer { dir.remove() }
    let wallet = try wallet()
    let imported = try await importPID(wallet, id: "pid")
    #expect(imported.issuerTrust == .unverified)
    let (clean, none) = try await read(wallet, "pid")
    #expect(clean.unauthenticated.isEmpty && none.isEmpty)
    _ = try await wallet.store.execute(
      "UPDATE credentials SET issuer_trust = 'trusted' WHERE id = 'pid'")
    let (credential, problems) = try await read(wallet, "pid")
    #expect(credential.issuerTrust == .unverified)
    #expect(credential.unauthenticated == .record)
    #expect(problems.map(\.error.code) == [.unauthenticatedRecord])
  }

  @Test("A forged issuance record is not authenticated either")
  func tamperedIssuanceRecord() async throws {
    defer { dir.remove() }
    let wallet = try wallet()
    _ = try await importPID(wallet, id: "pid")
    let forged =
      #"{"configurationID":"pid","credentialIssuer":"https://pid.example","#
      + #""display":[],"trustBasis":"wallet-anchor"}"#
    _ = try await wallet.store.execute(
      "UPDATE credentials SET issuance = ?, issuer_trust = 'trusted' WHERE id = 'pid'",
      [.text(forged)])
    let (credential, problems) = try await read(wallet, "pid")
    #expect(credential.issuerTrust == .unverified)
    #expect(credential.unauthenticated == .record)
    #expect(problems.map(\.error.code) == [.unauthenticatedRecord])
  }

  @Test("A revoked status reset to valid, or to never checked, reads as unknown, and is reported")
  func tamperedStatus() async throws {
    defer { dir.remove() }
    let wallet = try wallet()
    _ = try await importPID(wallet, id: "pid")
    let revoked = CredentialStatusRecord(outcome: .invalid, checkedAt: now)
    #expect(try await wallet.store.setLastKnownStatus(revoked, forCredential: "pid"))
    #expect(try await read(wallet, "pid").0.lastKnownStatus == revoked)
    for reset in [
      "UPDATE credentials SET status_outcome = 'valid', status_value = 0 WHERE id = 'pid'",
      """
      UPDATE credentials SET status_outcome = NULL, status_value = NULL,
        status_checked_at_ms = NULL WHERE id = 'pid'
      """,
    ] {
      _ = try await wallet.store.execute(reset)
      let (credential, problems) = try await read(wallet, "pid")
      guard case .unknown(let why)? = credential.lastKnownStatus?.outcome else {
        Issue.record("a reset status was used: \(String(describing: credential.lastKnownStatus))")
        continue
      }
      #expect(why.code == .unauthenticated)
      #expect(credential.unauthenticated == .status)
      #expect(problems.map(\.error.code) == [.unauthenticatedRecord])
    }
  }

  @Test("Another row's tags do not authenticate a row")
  func tagsAreBoundToTheirRow() async throws {
    defer { dir.remove() }
    let wallet = try wallet()
    for id in ["a", "b"] {
      _ = try await importPID(wallet, id: id)
    }
    _ = try await wallet.store.execute(
      """
      UPDATE credentials SET
        authentication_tag = (SELECT authentication_tag FROM credentials WHERE id = 'a'),
        status_authentication_tag = (SELECT status_authentication_tag FROM credentials
          WHERE id = 'a')
      WHERE id = 'b'
      """)
    #expect(try await read(wallet, "a").0.unauthenticated.isEmpty)
    #expect(try await read(wallet, "b").0.unauthenticated == [.record, .status])
  }

  // MARK: Migration of rows written before tags (schema version 6)

  /// A version 6 row as today's main writes it (no tag columns).
  func insertVersion6(
    _ store: WalletStore, id: String, issued: String, trust: String, issuance: String? = nil,
    status: (outcome: String, value: Int64)? = nil
  ) async throws {
    _ = try await store.execute(
      """
      INSERT INTO credentials (id, format, type, issued, display, created_at_ms, issuer_trust,
        issuance, status_outcome, status_value, status_checked_at_ms)
      VALUES (?, 'dc+sd-jwt', 'urn:eudi:pid:1', ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(id), .blob(Array(issued.utf8)), .text(#"{"claimNames":{},"title":"PID"}"#),
        .integer(StoreTime.milliseconds(now)), .text(trust), issuance.map { .text($0) } ?? .null,
        status.map { .text($0.outcome) } ?? .null, status.map { .integer($0.value) } ?? .null,
        status.map { _ in .integer(StoreTime.milliseconds(now)) } ?? .null,
      ])
  }

  /// A version 6 wallet: the issuer's root as an authenticated anchor, and three credentials:
  /// `good` (chains to it, trusted, status valid), `forged` (another issuer's, written as
  /// trusted, status invalid) and `vouched` (issued through the issuer's own IACA).
  func makeVersion6Home() async throws {
    try home.create()
    let settings = try SettingsAuthentication(
      keyEncryptionKey: try KeyEncryptionKey.loadOrCreate(at: home.keyEncryptionKeyPath))
    let store = try WalletStore(
      path: home.databasePath, busyTimeout: .seconds(5), schemaVersion: 6)
    let anchor = TrustAnchorRecord(
      role: .issuer, certificateDER: issuer.root.derBytes, subject: "CN=PID")
    try await store.addTrustAnchor(anchor.tagged(settings.tag(for: anchor)))
    let holder = try ECPrivateKey(curve: .p256).publicKey
    let stranger = try ImportRefusalTests.Issuer(name: "Stranger", clock: now)
    try await insertVersion6(
      store, id: "good", issued: try issuer.issue(holder: holder, clock: now), trust: "trusted",
      status: ("valid", 0))
    try await insertVersion6(
      store, id: "forged", issued: try stranger.issue(holder: holder, clock: now),
      trust: "trusted", status: ("invalid", 1))
    try await insertVersion6(
      store, id: "vouched", issued: try stranger.issue(holder: holder, clock: now),
      trust: "trusted",
      issuance: #"{"configurationID":"pid","credentialIssuer":"https://pid.example","#
        + #""display":[],"trustBasis":"issuer-published-iaca"}"#)
  }

  @Test("A version 6 wallet opens; its rows are adopted with trust and status derived again")
  func legacyRowsAreAdopted() async throws {
    defer { dir.remove() }
    try await makeVersion6Home()
    let wallet = try wallet()
    #expect(try await wallet.store.schemaVersion() == WalletStore.currentSchemaVersion)
    let listing = try await wallet.credentialListing()
    #expect(listing.problems.isEmpty, "\(listing.problems)")
    let byID = Dictionary(uniqueKeysWithValues: listing.credentials.map { ($0.id, $0) })
    #expect(byID.values.allSatisfy { $0.unauthenticated.isEmpty })
    // Trusted only where the chain reaches an authenticated anchor.
    #expect(byID["good"]?.issuerTrust == .trusted)
    #expect(byID["forged"]?.issuerTrust == .unverified)
    #expect(byID["vouched"]?.issuerTrust == .issuerVouched)
    // A legacy status is kept only when it withholds the credential.
    #expect(byID["good"]?.lastKnownStatus == nil)
    #expect(byID["forged"]?.lastKnownStatus?.outcome == .invalid)
    // Adopted once: a row added later without tags is not.
    _ = try await wallet.store.execute(
      "UPDATE credentials SET authentication_tag = NULL WHERE id = 'good'")
    let reopened = try self.wallet()
    #expect(try await read(reopened, "good").0.issuerTrust == .unverified)
  }

  @Test("A version 6 file opened without the wallet's key waits at version 6 for the wallet")
  func openedWithoutTheKeyFirst() async throws {
    defer { dir.remove() }
    try await makeVersion6Home()
    // As an app extension opens its key store connection before the wallet.
    let keyless = try WalletStore(path: home.databasePath)
    #expect(try await keyless.schemaVersion() == 6)
    let wallet = try wallet()
    #expect(try await wallet.store.schemaVersion() == WalletStore.currentSchemaVersion)
    let (credential, problems) = try await read(wallet, "good")
    #expect(credential.issuerTrust == .trusted)
    #expect(credential.unauthenticated.isEmpty && problems.isEmpty)
    // A file without credentials has nothing to adopt: it is migrated at once.
    let empty = try TemporaryDirectory()
    defer { empty.remove() }
    let old = try WalletStore(path: empty.databasePath, busyTimeout: .seconds(5), schemaVersion: 6)
    #expect(try await old.schemaVersion() == 6)
    #expect(
      try await WalletStore(path: empty.databasePath).schemaVersion()
        == WalletStore.currentSchemaVersion)
  }

  @Test("A row written without the wallet's key is not authenticated")
  func rowWrittenWithoutTheKey() async throws {
    defer { dir.remove() }
    let wallet = try wallet()
    let keyless = try WalletStore(path: home.databasePath)
    let device = try ECPrivateKey(curve: .p256)
    try await keyless.insert(
      StoredCredential(
        id: "planted", format: .sdJWT, type: "urn:eudi:pid:1",
        issued: Array(try issuer.issue(holder: device.publicKey, clock: now).utf8),
        display: CredentialDisplay(title: "PID"), issuerTrust: .trusted))
    let (credential, problems) = try await read(wallet, "planted")
    #expect(credential.issuerTrust == .unverified)
    #expect(credential.unauthenticated == [.record, .status])
    #expect(problems.map(\.error.code) == [.unauthenticatedRecord])
  }
}
