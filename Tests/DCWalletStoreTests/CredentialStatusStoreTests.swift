import DCStore
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

/// Schema version 6: each credential's last known Token Status List status.
@Suite("Credential status store")
struct CredentialStatusStoreTests {
  @Test func version5FileGainsTheStatusColumnsAndReadsAsNeverChecked() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let v5 = try WalletStore(path: dir.databasePath, busyTimeout: .seconds(5), schemaVersion: 5)
      let columns = try await v5.execute("SELECT name FROM pragma_table_info('credentials')")
      #expect(!columns.contains([.text("status_outcome")]))
      try await v5.insertVersion5Credential(id: "old")
    }
    let store = try WalletStore(path: dir.databasePath)
    // Without the wallet's key, a file holding credentials stops at version 6 (issue 32: the
    // step to 7 tags them, with the key).
    #expect(try await store.schemaVersion() == 6)
    let columns = try await store.execute("SELECT name FROM pragma_table_info('credentials')")
      .compactMap { row -> String? in
        if case .text(let name)? = row.first { return name }
        return nil
      }
    for column in [
      "status_outcome", "status_value", "status_reason", "status_detail", "status_checked_at_ms",
      "status_fresh_until_ms",
    ] {
      #expect(columns.contains(column))
    }
    let old = try #require(try await store.credential(id: "old"))
    #expect(old.lastKnownStatus == nil)
    // The migrated row takes a status.
    let record = CredentialStatusRecord(
      outcome: .suspended, checkedAt: Date(timeIntervalSince1970: 1_800_000_000),
      freshUntil: Date(timeIntervalSince1970: 1_800_000_600))
    #expect(try await store.setLastKnownStatus(record, forCredential: "old"))
    #expect(try await store.credential(id: "old")?.lastKnownStatus == record)
    #expect(try await !store.setLastKnownStatus(record, forCredential: "absent"))
  }

  @Test(arguments: [
    CredentialStatusOutcome.valid, .invalid, .suspended, .applicationSpecific(3),
    .applicationSpecific(0xff),
    .unknown(CredentialStatusUnknownReason(.unreachable, detail: "connection refused")),
    .unknown(CredentialStatusUnknownReason(.indexOutOfRange)),
  ])
  func everyOutcomeRoundTrips(_ outcome: CredentialStatusOutcome) async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "c"))
    let record = CredentialStatusRecord(
      outcome: outcome, checkedAt: Date(timeIntervalSince1970: 1_800_000_000.123),
      freshUntil: outcome.statusValue == nil ? nil : Date(timeIntervalSince1970: 1_800_003_600))
    try await store.setLastKnownStatus(record, forCredential: "c")
    #expect(try await store.credential(id: "c")?.lastKnownStatus == record)
    // Only the status columns change: the rest of the row reads back as inserted.
    let back = try #require(try await store.credential(id: "c"))
    #expect(back.issued == sampleCredential(id: "c").issued)
    try await store.setLastKnownStatus(nil, forCredential: "c")
    #expect(try await store.credential(id: "c")?.lastKnownStatus == nil)
  }

  @Test func inconsistentStatusRowIsReportedNotMisread() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    try await store.insert(sampleCredential(id: "a"))
    try await store.insert(sampleCredential(id: "b"))
    // "valid" with the value of INVALID must not read as either.
    _ = try await store.execute(
      "UPDATE credentials SET status_outcome = 'valid', status_value = 1, status_checked_at_ms = 1 WHERE id = 'a'"
    )
    let listing = try await store.credentialListing()
    #expect(listing.credentials.map(\.id) == ["b"])
    #expect(listing.problems.map(\.record) == [.credential(id: "a")])
  }

  @Test func freshnessFollowsTheTokenAndUnknownIsNeverFresh() {
    let checked = Date(timeIntervalSince1970: 1_800_000_000)
    let valid = CredentialStatusRecord(
      outcome: .valid, checkedAt: checked, freshUntil: checked.addingTimeInterval(60))
    #expect(valid.isFresh(at: checked.addingTimeInterval(59)))
    #expect(!valid.isFresh(at: checked.addingTimeInterval(60)))
    #expect(!CredentialStatusRecord(outcome: .valid, checkedAt: checked).isFresh(at: checked))
    let unknown = CredentialStatusRecord(
      outcome: .unknown(CredentialStatusUnknownReason(.unreachable)), checkedAt: checked,
      freshUntil: checked.addingTimeInterval(60))
    #expect(!unknown.isFresh(at: checked))
  }
}

extension WalletStore {
  /// A credential row as schema version 5 wrote it (no status columns).
  func insertVersion5Credential(id: String) throws(WalletStoreError) {
    _ = try execute(
      """
      INSERT INTO credentials (id, format, type, issued, display, created_at_ms)
      VALUES (?, 'mso_mdoc', 'org.iso.18013.5.1.mDL', ?, ?, 1700000000000)
      """, [.text(id), .blob([0xA0]), .text(#"{"claimNames":{},"title":"Old"}"#)])
  }
}
