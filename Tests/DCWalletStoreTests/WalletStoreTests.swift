import DCStore
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

@Suite("WalletStore")
struct WalletStoreTests {
  @Test func createsFileAndDirectoryAtCurrentSchema() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.path + "/nested/deeper/wallet.sqlite"
    let store = try WalletStore(path: path)
    #expect(try await store.schemaVersion() == WalletStore.currentSchemaVersion)
    #expect(WalletStore.currentSchemaVersion == 8)
    #expect(FileManager.default.fileExists(atPath: path))
    let mode = try await store.execute("PRAGMA journal_mode")
    #expect(mode == [[.text("wal")]])
    #expect(try await store.execute("PRAGMA foreign_keys") == [[.integer(1)]])
    // Credentials are personal data: the file and its WAL are the owner's alone.
    try await store.insert(sampleCredential(id: "c"))
    for file in [path, path + "-wal"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: file)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
    }
  }

  @Test func credentialRoundTripAndOrdering() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let base = Date(timeIntervalSince1970: 1_780_000_000)
    let later = sampleCredential(id: "a-later", createdAt: base.addingTimeInterval(10))
    let sdjwt = sampleCredential(id: "b-sdjwt", format: .sdJWT, createdAt: base)
    let tieZ = sampleCredential(id: "z-tie", createdAt: base.addingTimeInterval(5))
    let tieC = sampleCredential(id: "c-tie", createdAt: base.addingTimeInterval(5))
    for credential in [later, sdjwt, tieZ, tieC] { try await store.insert(credential) }

    #expect(try await store.credential(id: "a-later") == later)
    #expect(try await store.credential(id: "missing") == nil)
    #expect(try await store.credentials().map(\.id) == ["b-sdjwt", "c-tie", "z-tie", "a-later"])
    #expect(
      try await store.credentials(format: .msoMdoc).map(\.id) == ["c-tie", "z-tie", "a-later"])
    #expect(try await store.credentials(format: .sdJWT) == [sdjwt])
    // Matching reads only the requested format and types.
    #expect(
      try await store.credentials(format: .msoMdoc, types: ["org.iso.18013.5.1.mDL"]).map(\.id)
        == ["c-tie", "z-tie", "a-later"])
    #expect(try await store.credentials(format: .msoMdoc, types: ["urn:eudi:pid:1"]).isEmpty)
    #expect(try await store.credentials(format: .sdJWT, types: ["urn:eudi:pid:1", "x"]) == [sdjwt])
    #expect(try await store.credentials(format: .sdJWT, types: []).isEmpty)
  }

  @Test func storesEveryFieldExactly() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let bare = StoredCredential(
      id: "bare", format: .sdJWT, type: "urn:vct", issued: [],
      display: CredentialDisplay(title: ""), createdAt: Date(timeIntervalSince1970: 0.0015))
    let full = sampleCredential(id: "full\u{0}with-nul", createdAt: Date())
    try await store.insert(bare)
    try await store.insert(full)
    let readBare = try #require(try await store.credential(id: "bare"))
    #expect(readBare == bare)
    #expect(readBare.issued == [])
    #expect(readBare.validFrom == nil && readBare.deviceKeyID == nil)
    #expect(readBare.issuerAuthorityKeyIdentifiers.isEmpty)
    #expect(try await store.credential(id: "full\u{0}with-nul") == full)
    #expect(try await store.credential(id: "full") == nil)
  }

  @Test func duplicateCredentialIDIsRejectedAndFirstKept() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let first = sampleCredential(id: "same")
    try await store.insert(first)
    let error = await #expect(throws: WalletStoreError.self) {
      try await store.insert(sampleCredential(id: "same", format: .sdJWT))
    }
    #expect(error?.code == .duplicateID)
    #expect(try await store.credentials() == [first])
  }

  @Test func emptyIdentifiersAreRejected() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let error = await #expect(throws: WalletStoreError.self) {
      try await store.insert(sampleCredential(id: ""))
    }
    #expect(error?.code == .invalidArgument)
    let settingError = await #expect(throws: WalletStoreError.self) {
      try await store.setSetting("", "x")
    }
    #expect(settingError?.code == .invalidArgument)
  }

  @Test func removeCredential() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "one"))
    #expect(try await store.removeCredential(id: "unknown") == false)
    #expect(try await store.removeCredential(id: "one") == true)
    #expect(try await store.removeCredential(id: "one") == false)
    #expect(try await store.credentials().isEmpty)
  }

  @Test func batchInsertIsAllOrNothing() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "existing"))
    let error = await #expect(throws: WalletStoreError.self) {
      try await store.insert(contentsOf: [
        sampleCredential(id: "new-1"), sampleCredential(id: "new-2"),
        sampleCredential(id: "existing"),
      ])
    }
    #expect(error?.code == .duplicateID)
    #expect(try await store.credentials().map(\.id) == ["existing"])
    // A duplicate inside the batch itself fails the same way.
    let duplicateIDError = await #expect(throws: WalletStoreError.self) {
      try await store.insert(contentsOf: [sampleCredential(id: "x"), sampleCredential(id: "x")])
    }
    #expect(duplicateIDError?.code == .duplicateID)
    #expect(try await store.credentials().map(\.id) == ["existing"])
  }

  @Test func transactionRollsBackOnConstraintViolation() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.addTrustAnchor(
      TrustAnchorRecord(id: "anchor", role: .issuer, certificateDER: [1], subject: "CN=Existing"))
    let constraintViolationError = await #expect(throws: WalletStoreError.self) {
      try await store.transaction { tx in
        try tx.insert(sampleCredential(id: "c1"))
        try tx.append(NewActivity(protocolIdentifier: "import", outcome: .shared))
        try tx.setSetting("imported", "yes")
        // The credential names a device key that does not exist: a foreign-key violation.
        try tx.insert(sampleCredential(id: "c2", deviceKeyID: "no-such-key"))
      }
    }
    #expect(constraintViolationError?.code == .constraintViolation)
    #expect(try await store.credentials().isEmpty)
    #expect(try await store.activities().isEmpty)
    #expect(try await store.setting("imported") == nil)
    #expect(try await store.trustAnchors().map(\.id) == ["anchor"])
  }

  @Test func transactionRollsBackOnCallerError() async throws {
    struct VerificationFailed: Error {}
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    await #expect(throws: VerificationFailed.self) {
      try await store.transaction { tx in
        try tx.insert(sampleCredential(id: "c1"))
        #expect(try tx.credential(id: "c1") != nil)
        throw VerificationFailed()
      }
    }
    #expect(try await store.credentials().isEmpty)
    // The store is usable afterwards, and a successful transaction commits everything.
    let id = try await store.transaction { tx in
      try tx.insert(sampleCredential(id: "c1"))
      return try tx.append(NewActivity(protocolIdentifier: "import", outcome: .shared))
    }
    #expect(try await store.credentials().map(\.id) == ["c1"])
    #expect(try await store.activities().map(\.id) == [id])
  }

  @Test func trustAnchors() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    let iaca = TrustAnchorRecord(
      id: "iaca", role: .issuer, certificateDER: [0x30, 0x82, 0x01], subject: "CN=Test IACA",
      addedAt: t0.addingTimeInterval(2))
    let reader = TrustAnchorRecord(
      id: "reader", role: .reader, certificateDER: [0x30, 0x03], subject: "CN=Reader Root",
      addedAt: t0)
    let verifier = TrustAnchorRecord(
      id: "verifier", role: .verifier, certificateDER: [0x30], subject: "CN=Verifier",
      addedAt: t0.addingTimeInterval(1))
    for anchor in [iaca, reader, verifier] { try await store.addTrustAnchor(anchor) }
    #expect(try await store.trustAnchors() == [reader, verifier, iaca])
    #expect(try await store.trustAnchors(role: .issuer) == [iaca])
    #expect(try await store.trustAnchors(role: .reader) == [reader])
    let duplicate = await #expect(throws: WalletStoreError.self) {
      try await store.addTrustAnchor(
        TrustAnchorRecord(id: "iaca", role: .reader, certificateDER: [], subject: ""))
    }
    #expect(duplicate?.code == .duplicateID)
    #expect(try await store.removeTrustAnchor(id: "nope") == false)
    #expect(try await store.removeTrustAnchor(id: "iaca") == true)
    #expect(try await store.trustAnchors(role: .issuer).isEmpty)
  }

  @Test func activityLogIsNewestFirstWithLimit() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    let shared = NewActivity(
      timestamp: t0, protocolIdentifier: "org-iso-mdoc", origin: "https://verifier.example",
      relyingParty: "CN=Test Reader", outcome: .shared, credentialIDs: ["mdl"],
      sharedItems: ["org.iso.18013.5.1/family_name", "org.iso.18013.5.1/age_over_18"],
      detail: "")
    let refused = NewActivity(
      timestamp: t0.addingTimeInterval(60), protocolIdentifier: "openid4vp-v1-signed",
      outcome: .refused, detail: "user declined")
    let failed = NewActivity(
      timestamp: t0.addingTimeInterval(60), protocolIdentifier: "org-iso-mdoc", outcome: .failed,
      detail: "untrusted reader")
    let id1 = try await store.append(shared)
    let id2 = try await store.append(refused)
    let id3 = try await store.append(failed)
    #expect(id1 < id2 && id2 < id3)
    let all = try await store.activities()
    // Same timestamp: the later insertion first.
    #expect(all.map(\.id) == [id3, id2, id1])
    #expect(all[2] == ActivityRecord(id: id1, shared))
    #expect(all[2].sharedItems == shared.sharedItems && all[2].origin == "https://verifier.example")
    #expect(try await store.activities(limit: 1).map(\.id) == [id3])
    #expect(try await store.activities(limit: 0).isEmpty)
    let invalidArgumentError = await #expect(throws: WalletStoreError.self) {
      try await store.activities(limit: -1)
    }
    #expect(invalidArgumentError?.code == .invalidArgument)
  }

  @Test func settings() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    #expect(try await store.setting("theme") == nil)
    try await store.setSetting("theme", "dark")
    #expect(try await store.setting("theme") == "dark")
    try await store.setSetting("theme", "")
    #expect(try await store.setting("theme") == "")
    try await store.setSetting("theme", nil)
    #expect(try await store.setting("theme") == nil)
    try await store.setSetting("never-set", nil)
  }

  @Test func transactionHandleIsUnusableAfterItEnds() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    final class Box: @unchecked Sendable { var transaction: WalletStore.Transaction? }
    let box = Box()
    try await store.transaction { tx in box.transaction = tx }
    let error = #expect(throws: WalletStoreError.self) {
      try box.transaction?.insert(sampleCredential(id: "late"))
    }
    #expect(error?.code == .transactionClosed)
    #expect(try await store.credentials().isEmpty)
  }

  @Test func unreadableRowsFailTyped() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    _ = try await store.execute(
      """
      INSERT INTO credentials (id, format, type, issued, display, created_at_ms)
      VALUES (?, ?, ?, ?, ?, ?)
      """, [.text("odd"), .text("ldp_vc"), .text("t"), .blob([1]), .text("{}"), .integer(0)])
    // A row that cannot be read is reported, not returned, and fails no listing.
    #expect(try await store.credentials().isEmpty)
    let listing = try await store.credentialListing()
    #expect(listing.problems.map(\.record) == [.credential(id: "odd")])
    #expect(listing.problems.first?.error.code == .corruptRecord)
    _ = try await store.execute(
      "UPDATE credentials SET format = ?, display = ? WHERE id = ?",
      [.text("mso_mdoc"), .text("not json"), .text("odd")])
    let display = await #expect(throws: WalletStoreError.self) {
      try await store.credential(id: "odd")
    }
    #expect(display?.code == .corruptRecord)
  }

  @Test func refusesNewerSchema() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let store = try WalletStore(path: dir.databasePath)
      _ = try await store.execute("PRAGMA user_version = 99")
    }
    let error = #expect(throws: WalletStoreError.self) {
      _ = try WalletStore(path: dir.databasePath)
    }
    #expect(error?.code == .unsupportedSchemaVersion)
  }
}
