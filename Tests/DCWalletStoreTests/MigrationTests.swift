import DCStore
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

@Suite("Schema migration")
struct MigrationTests {
  @Test func migratesVersion1FileAndKeepsItsData() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // A file as the first release wrote it: the version 1 DDL, and rows inserted through it.
    do {
      let v1 = try WalletStore(path: dir.databasePath, busyTimeout: .seconds(5), schemaVersion: 1)
      #expect(try await v1.schemaVersion() == 1)
      let columns = try await v1.execute("SELECT name FROM pragma_table_info('credentials')")
      #expect(!columns.contains([.text("issuer_authority_key_ids")]))
      _ = try await v1.execute(
        """
        INSERT INTO device_keys (id, curve, public_key, protection, wrapped_private_key,
          created_at_ms) VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text("key-1"), .text("P-256"), .blob([4, 1, 2]), .text("aes-256-gcm-kek"), .blob([9]),
          .integer(1_700_000_000_000),
        ])
      _ = try await v1.execute(
        """
        INSERT INTO credentials (id, format, type, issued, display, valid_from_ms,
          valid_until_ms, device_key_id, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text("mdl-1"), .text("mso_mdoc"), .text("org.iso.18013.5.1.mDL"), .blob([0xA2, 0x01]),
          .text(#"{"claimNames":{},"title":"Driving licence"}"#), .integer(1_700_000_000_000),
          .null, .text("key-1"), .integer(1_700_000_000_500),
        ])
      _ = try await v1.execute(
        """
        INSERT INTO trust_anchors (id, role, certificate, subject, added_at_ms)
        VALUES (?, ?, ?, ?, ?)
        """, [.text("iaca"), .text("issuer"), .blob([0x30]), .text("CN=IACA"), .integer(5)])
      _ = try await v1.execute(
        """
        INSERT INTO activity (timestamp_ms, protocol, origin, relying_party, outcome,
          credential_ids, shared_items, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(1_700_000_001_000), .text("org-iso-mdoc"), .text("https://rp.example"), .null,
          .text("shared"), .text(#"["mdl-1"]"#), .text(#"["org.iso.18013.5.1/age_over_18"]"#),
          .text(""),
        ])
    }

    let store = try WalletStore(path: dir.databasePath)
    // Without the wallet's key, a file holding credentials stops at version 6 (issue 32: the
    // step to 7 tags them, with the key).
    #expect(try await store.schemaVersion() == 6)
    let credential = try #require(try await store.credential(id: "mdl-1"))
    #expect(
      credential
        == StoredCredential(
          id: "mdl-1", format: .msoMdoc, type: "org.iso.18013.5.1.mDL", issued: [0xA2, 0x01],
          display: CredentialDisplay(title: "Driving licence"),
          validFrom: Date(timeIntervalSince1970: 1_700_000_000), validUntil: nil,
          deviceKeyID: "key-1", issuerAuthorityKeyIdentifiers: [],
          createdAt: Date(timeIntervalSince1970: 1_700_000_000.5)))
    #expect(try await store.trustAnchors().map(\.subject) == ["CN=IACA"])
    let activity = try await store.activities()
    #expect(activity.count == 1)
    #expect(activity.first?.credentialIDs == ["mdl-1"])
    #expect(activity.first?.sharedItems == ["org.iso.18013.5.1/age_over_18"])
    // What version 2 added works on the migrated file.
    try await store.setSetting("migrated", "yes")
    #expect(try await store.setting("migrated") == "yes")
    try await store.insert(sampleCredential(id: "new", deviceKeyID: "key-1"))
    #expect(try await store.credential(id: "new")?.issuerAuthorityKeyIdentifiers.count == 2)
    // The foreign key from version 1 still holds after the migration.
    let constraintViolationError = await #expect(throws: WalletStoreError.self) {
      try await store.insert(sampleCredential(id: "orphan", deviceKeyID: "key-2"))
    }
    #expect(constraintViolationError?.code == .constraintViolation)
  }

  @Test func reopeningAtCurrentVersionChangesNothing() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let store = try WalletStore(path: dir.databasePath)
      try await store.insert(sampleCredential(id: "kept"))
    }
    let again = try WalletStore(path: dir.databasePath)
    #expect(try await again.schemaVersion() == WalletStore.currentSchemaVersion)
    #expect(try await again.credentials().map(\.id) == ["kept"])
  }

  @Test("Version 8 adds trusted_lists to a version 7 file; list rows round-trip with their tag")
  func version8AddsTrustedLists() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let v7 = try WalletStore(path: dir.databasePath, busyTimeout: .seconds(5), schemaVersion: 7)
      let tables = try await v7.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
      #expect(!tables.contains([.text("trusted_lists")]))
    }
    let store = try WalletStore(path: dir.databasePath)
    #expect(try await store.schemaVersion() == 8)
    let key = try SettingsAuthentication(key: [UInt8](repeating: 3, count: 32))
    let record = TrustedListRecord(
      id: "list-1", kind: "lote", location: "https://lists.example/lote", listBytes: [1, 2, 3],
      operatorCertificates: [[0x30, 0x00], [0x30, 0x01]], verifiedForm: Array("{}".utf8),
      importedAt: Date(timeIntervalSince1970: 1_700_000_000))
    try await store.addTrustedList(record.tagged(key.tag(for: record)))
    let rows = try await store.trustedLists()
    guard case .success(let read)? = rows.first else {
      Issue.record("the row does not read back: \(rows)")
      return
    }
    #expect(read == record.tagged(key.tag(for: record)))
    #expect(key.verifies(read))
    // Each column is covered by the tag: another location, the same tag, does not verify.
    _ = try await store.execute(
      "UPDATE trusted_lists SET location = 'https://evil.example/lote' WHERE id = 'list-1'")
    guard case .success(let moved)? = try await store.trustedLists().first else {
      Issue.record("the changed row does not read")
      return
    }
    #expect(!key.verifies(moved))
    await #expect(throws: WalletStoreError.self) {
      try await store.addTrustedList(record)
    }
  }
}
