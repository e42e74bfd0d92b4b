import DCStore
package import Foundation

/// A row of `issuance_sessions`: the tokens stay sealed here (see `IssuanceSecrets`).
package struct IssuanceSessionRow: Sendable, Hashable {
  package var id: String
  package var credentialIssuer: String
  package var notificationEndpoint: String?
  package var deferredEndpoint: String?
  /// nonce || ciphertext || tag of the tokens' JSON, or nil when the session has none.
  package var sealedTokens: [UInt8]?
  package var dpopKeyID: String?
  package var createdAt: Date

  /// Creates a session row.
  package init(
    id: String, credentialIssuer: String, notificationEndpoint: String?,
    deferredEndpoint: String?, sealedTokens: [UInt8]?, dpopKeyID: String?, createdAt: Date
  ) {
    self.id = id
    self.credentialIssuer = credentialIssuer
    self.notificationEndpoint = notificationEndpoint
    self.deferredEndpoint = deferredEndpoint
    self.sealedTokens = sealedTokens
    self.dpopKeyID = dpopKeyID
    self.createdAt = createdAt
  }
}

// Issuance (schema version 5): sessions, pending deferred issuances, issued credentials
// written with their session, and presentation counts.
extension WalletStore {
  /// Stores verified issued credentials and the session they name in one transaction: all of
  /// them or none. The session is written (or its endpoints and tokens updated) first.
  ///
  /// `keys` are device keys wrapped by `SoftwareKeyStore.wrap(_:)` for this store, written first
  /// in the same transaction: one durable commit for a batch's keys, session and credentials,
  /// and a key is stored only with the credential that binds it.
  package func insertIssued(
    _ credentials: [StoredCredential], keys: [WrappedDeviceKey] = [], session: IssuanceSessionRow?
  ) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      let connection = database.connection
      for key in keys { try connection.insertDeviceKey(key.row) }
      if let session { try connection.upsertIssuanceSession(session) }
      try connection.insertCredentials(credentials)
    }
  }

  /// One visit for an issued batch: reads the trust anchors of `role` (outside any
  /// transaction), has `plan` verify and prepare the batch with them here, on the store's
  /// queue, and writes what it returns as ``insertIssued(_:keys:session:)`` does (nothing when
  /// it returns no write). A caller that would read the anchors, verify, then write saves a
  /// round trip to this queue (two thread wake-ups) per batch. `plan` is synchronous and does
  /// no I/O; other callers of this store wait for it.
  package func insertIssued<T: Sendable>(
    anchorsOf role: TrustRole,
    plan: @Sendable ([TrustAnchorRecord]) -> (write: IssuedBatchWrite?, value: T)
  ) throws(WalletStoreError) -> T {
    let records = try trustAnchors(role: role)
    let (write, value) = plan(records)
    if let write {
      try insertIssued(write.credentials, keys: write.keys, session: write.session)
    }
    return value
  }

  /// Which of these device keys a stored credential names (one query for a batch).
  package func usedDeviceKeys(_ keyIDs: [String]) throws(WalletStoreError) -> Set<String> {
    guard !keyIDs.isEmpty else { return [] }
    let unique = Array(Set(keyIDs))
    return try database.retrying { () throws(WalletStoreError) -> Set<String> in
      var used = Set<String>()
      // SQLite binds at most 32766 parameters (SQLITE_MAX_VARIABLE_NUMBER); batches are small.
      for start in stride(from: 0, to: unique.count, by: 500) {
        let chunk = unique[start..<min(start + 500, unique.count)]
        let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
        let rows = try database.connection.query(
          "SELECT DISTINCT device_key_id FROM credentials WHERE device_key_id IN (\(placeholders))",
          chunk.map { .text($0) }
        ) { $0.text(0) }
        for case let id? in rows { used.insert(id) }
      }
      return used
    }
  }

  /// The session row with this id, or nil.
  package func issuanceSessionRow(id: String) throws(WalletStoreError) -> IssuanceSessionRow? {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.issuanceSession(id: id)
    }
  }

  /// Removes a session that no credential and no pending issuance names any more; returns the
  /// removed row (whose DPoP key the caller deletes), or nil when it is still used or absent.
  package func removeIssuanceSessionIfUnused(id: String) throws(WalletStoreError)
    -> IssuanceSessionRow?
  {
    try database.write { () throws(WalletStoreError) -> IssuanceSessionRow? in
      let connection = database.connection
      guard let row = try connection.issuanceSession(id: id) else { return nil }
      try connection.run(
        """
        DELETE FROM issuance_sessions WHERE id = ?
          AND NOT EXISTS (SELECT 1 FROM credentials WHERE issuance_session_id = ?)
          AND NOT EXISTS (SELECT 1 FROM deferred_issuances WHERE session_id = ?)
        """, [.text(id), .text(id), .text(id)])
      return connection.changes > 0 ? row : nil
    }
  }

  /// Adds one to the presentation count of each credential (one transaction).
  package func markPresented(ids: [String]) throws(WalletStoreError) {
    guard !ids.isEmpty else { return }
    try database.write { () throws(WalletStoreError) in
      for id in Set(ids) {
        try database.connection.run(
          "UPDATE credentials SET presentation_count = presentation_count + 1 WHERE id = ?",
          [.text(id)])
      }
    }
  }

  /// Stores a pending deferred issuance with its session, in one transaction.
  package func insertDeferred(_ pending: PendingDeferredIssuance, session: IssuanceSessionRow)
    throws(WalletStoreError)
  {
    let json = try StoreJSON.encode(pending)
    try database.write { () throws(WalletStoreError) in
      try database.connection.upsertIssuanceSession(session)
      do throws(WalletStoreError) {
        try database.connection.run(
          "INSERT INTO deferred_issuances (id, session_id, pending, created_at_ms) VALUES (?, ?, ?, ?)",
          [
            .text(pending.id), .text(pending.sessionID), .text(json),
            .integer(StoreTime.milliseconds(pending.createdAt)),
          ])
      } catch  where error.code == .duplicateID {
        throw WalletStoreError(.duplicateID, "a pending issuance with id \(pending.id) exists")
      }
    }
  }

  /// The pending deferred issuances, oldest first; one that cannot be read is reported.
  package func pendingDeferred() throws(WalletStoreError)
    -> [Result<PendingDeferredIssuance, StoreProblem>]
  {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.query(
        "SELECT id, pending FROM deferred_issuances ORDER BY created_at_ms, id"
      ) { row -> Result<PendingDeferredIssuance, StoreProblem> in
        let id = row.text(0) ?? ""
        do throws(WalletStoreError) {
          return .success(
            try StoreJSON.decode(
              PendingDeferredIssuance.self, row.text(1), what: "pending issuance \(id)"))
        } catch {
          return .failure(StoreProblem(record: .deferredIssuance(id: id), error: error))
        }
      }
    }
  }

  /// Removes a pending deferred issuance; false when none has this id.
  package func removeDeferred(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) -> Bool in
      try database.connection.run("DELETE FROM deferred_issuances WHERE id = ?", [.text(id)])
      return database.connection.changes > 0
    }
  }

  /// Removes a pending deferred issuance and stores the credentials it became, in one
  /// transaction (so a poll that succeeded is never both pending and stored).
  package func completeDeferred(id: String, with credentials: [StoredCredential])
    throws(WalletStoreError)
  {
    try database.write { () throws(WalletStoreError) in
      try database.connection.run("DELETE FROM deferred_issuances WHERE id = ?", [.text(id)])
      try database.connection.insertCredentials(credentials)
    }
  }
}

extension WalletConnection {
  private static let sessionColumns = """
    id, credential_issuer, notification_endpoint, deferred_endpoint, sealed_tokens, dpop_key_id,
    created_at_ms
    """

  func upsertIssuanceSession(_ row: IssuanceSessionRow) throws(WalletStoreError) {
    guard !row.id.isEmpty else {
      throw WalletStoreError(.invalidArgument, "an issuance session needs a non-empty id")
    }
    try run(
      """
      INSERT INTO issuance_sessions (\(Self.sessionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET credential_issuer = excluded.credential_issuer,
        notification_endpoint = excluded.notification_endpoint,
        deferred_endpoint = excluded.deferred_endpoint, sealed_tokens = excluded.sealed_tokens,
        dpop_key_id = excluded.dpop_key_id
      """,
      [
        .text(row.id), .text(row.credentialIssuer),
        row.notificationEndpoint.map { .text($0) } ?? .null,
        row.deferredEndpoint.map { .text($0) } ?? .null,
        row.sealedTokens.map { .blob($0) } ?? .null,
        row.dpopKeyID.map { .text($0) } ?? .null, .integer(StoreTime.milliseconds(row.createdAt)),
      ])
  }

  func issuanceSession(id: String) throws(WalletStoreError) -> IssuanceSessionRow? {
    try query(
      "SELECT \(Self.sessionColumns) FROM issuance_sessions WHERE id = ?", [.text(id)]
    ) { row in
      IssuanceSessionRow(
        id: row.text(0) ?? "", credentialIssuer: row.text(1) ?? "",
        notificationEndpoint: row.text(2), deferredEndpoint: row.text(3),
        sealedTokens: row.isNull(4) ? nil : row.blob(4), dpopKeyID: row.text(5),
        createdAt: StoreTime.date(milliseconds: row.int64(6)))
    }.first
  }
}

/// What an issued batch writes in one transaction: its wrapped device keys, its issuance
/// session and its credentials.
package struct IssuedBatchWrite: Sendable {
  package var credentials: [StoredCredential]
  package var keys: [WrappedDeviceKey]
  package var session: IssuanceSessionRow?

  /// Creates a batch write.
  package init(
    credentials: [StoredCredential], keys: [WrappedDeviceKey], session: IssuanceSessionRow?
  ) {
    self.credentials = credentials
    self.keys = keys
    self.session = session
  }
}
