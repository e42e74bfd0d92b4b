import DCJSON
package import DCStore
public import Foundation

/// A ``PresentationTransactionStore`` in one SQLite file: transactions outlive the process that
/// made them, and several `verifier serve` processes on one machine may share the file.
///
/// One table, `presentation_transactions`, keyed by request id and unique on the frontend id;
/// on the package's SQLite layer (file created 0600, WAL, busy timeout, numbered migrations in
/// `PRAGMA user_version`). Every phase change is one `UPDATE … WHERE phase = … RETURNING`, so of
/// two requests racing for a step exactly one wins, across processes too.
public final class SQLitePresentationTransactionStore: PresentationTransactionStore,
  @unchecked Sendable
{
  private let lock = NSLock()
  private let database: SQLiteDatabase<PresentationStoreError>
  private var connection: SQLiteConnection<PresentationStoreError> { database.connection }
  /// The most transactions kept at once.
  package let capacity: Int

  private static var migrations: [SQLiteMigration<PresentationStoreError>] {
    [
      SQLiteMigration(
        version: 1,
        [
          """
          CREATE TABLE presentation_transactions (
            request_id TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, phase TEXT NOT NULL,
            body TEXT NOT NULL, result TEXT, expires_at REAL NOT NULL)
          """,
          "CREATE INDEX presentation_transactions_expiry ON presentation_transactions (expires_at)",
        ]),
      // The DC API transactions of `DigitalCredentialVerifier` (issue 31): one row each, its
      // requests' state in `body`; `answered` flips once, in the statement that reads it.
      SQLiteMigration(
        version: 2,
        [
          """
          CREATE TABLE dc_api_transactions (
            id TEXT PRIMARY KEY, body TEXT NOT NULL, answered INTEGER NOT NULL DEFAULT 0,
            expires_at REAL NOT NULL)
          """,
          "CREATE INDEX dc_api_transactions_expiry ON dc_api_transactions (expires_at)",
        ]),
    ]
  }

  /// Opens (creating if needed, readable only by its owner) the store at `path`.
  ///
  /// - Parameters:
  ///   - path: the SQLite database file; created with mode 0600 when missing.
  ///   - capacity: the most transactions kept at once.
  /// - Throws: `unavailable` when the file cannot be opened or its schema set up.
  public init(path: String, capacity: Int = 10_000) throws(PresentationStoreError) {
    self.capacity = capacity
    do throws(PresentationStoreError) {
      database = try SQLiteDatabase(path: path, busyTimeout: .seconds(5))
      try database.migrate(Self.migrations)
    } catch {
      throw PresentationStoreError(
        .unavailable, "cannot open \(path): \(error.reason)", underlying: error)
    }
  }

  private func locked<T>(_ body: () throws(PresentationStoreError) -> T)
    throws(PresentationStoreError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    return try database.retrying(body)
  }

  public func insert(_ transaction: PresentationTransaction) throws(PresentationStoreError)
    -> Bool
  {
    try locked { () throws(PresentationStoreError) -> Bool in
      // One statement: the capacity and the uniqueness are checked where the row is written.
      try connection.run(
        """
        INSERT INTO presentation_transactions (request_id, id, phase, body, expires_at)
        SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM presentation_transactions) < ?
        ON CONFLICT DO NOTHING
        """,
        [
          .text(transaction.requestID), .text(transaction.id), .text(transaction.phase.rawValue),
          .text(transaction.storedBody.serialized()),
          .real(transaction.expiresAt.timeIntervalSince1970), .integer(Int64(capacity)),
        ])
      return connection.changes > 0
    }
  }

  public func transaction(id: String) throws(PresentationStoreError) -> PresentationTransaction? {
    try select("SELECT body, phase, result FROM presentation_transactions WHERE id = ?", id)
  }

  public func transaction(requestID: String) throws(PresentationStoreError)
    -> PresentationTransaction?
  {
    try select(
      "SELECT body, phase, result FROM presentation_transactions WHERE request_id = ?", requestID)
  }

  public func advance(
    requestID: String, from: PresentationTransaction.Phase, to: PresentationTransaction.Phase
  ) throws(PresentationStoreError) -> PresentationTransaction? {
    try locked { () throws(PresentationStoreError) in
      try connection.query(
        """
        UPDATE presentation_transactions SET phase = ? WHERE request_id = ? AND phase = ?
        RETURNING body, phase, result
        """, [.text(to.rawValue), .text(requestID), .text(from.rawValue)], row: Self.read
      ).first
    }
  }

  public func record(_ result: PresentationResult, requestID: String)
    throws(PresentationStoreError)
  {
    guard let stored = result.stored else { return }
    try locked { () throws(PresentationStoreError) in
      try connection.run(
        """
        UPDATE presentation_transactions SET result = ?
        WHERE request_id = ? AND phase = 'answered' AND result IS NULL
        """, [.text(stored.serialized()), .text(requestID)])
    }
  }

  @discardableResult
  public func purge(expiredBefore date: Date) throws(PresentationStoreError) -> Int {
    try locked { () throws(PresentationStoreError) -> Int in
      try connection.run(
        "DELETE FROM presentation_transactions WHERE expires_at < ?",
        [.real(date.timeIntervalSince1970)])
      return connection.changes
    }
  }

  private func select(_ sql: String, _ key: String) throws(PresentationStoreError)
    -> PresentationTransaction?
  {
    try locked { () throws(PresentationStoreError) in
      try connection.query(sql, [.text(key)], row: Self.read).first
    }
  }

  private static func read(_ row: SQLiteStatement<PresentationStoreError>)
    throws(PresentationStoreError) -> PresentationTransaction
  {
    try PresentationTransaction(
      stored: row.text(0), phase: row.text(1), result: row.isNull(2) ? nil : row.text(2))
  }
}

extension SQLitePresentationTransactionStore: DigitalCredentialTransactionStoring {
  package func insertDCAPITransaction(
    _ entry: DigitalCredentialTransactionStore.Entry, now: Date
  ) throws(PresentationStoreError) -> Bool {
    try locked { () throws(PresentationStoreError) -> Bool in
      try connection.run(
        "DELETE FROM dc_api_transactions WHERE expires_at < ?", [.real(now.timeIntervalSince1970)])
      // One statement: the capacity and the uniqueness are checked where the row is written.
      try connection.run(
        """
        INSERT INTO dc_api_transactions (id, body, expires_at)
        SELECT ?, ?, ? WHERE (SELECT COUNT(*) FROM dc_api_transactions) < ?
        ON CONFLICT DO NOTHING
        """,
        [
          .text(entry.id), .text(entry.storedBody.serialized()),
          .real(entry.expiresAt.timeIntervalSince1970), .integer(Int64(capacity)),
        ])
      return connection.changes > 0
    }
  }

  package func dcAPITransaction(id: String, now: Date) throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
  {
    try locked { () throws(PresentationStoreError) in
      try connection.query(
        "SELECT body, answered FROM dc_api_transactions WHERE id = ? AND expires_at >= ?",
        [.text(id), .real(now.timeIntervalSince1970)]
      ) { row throws(PresentationStoreError) in
        try DigitalCredentialTransactionStore.Entry(
          stored: row.text(0), answered: row.int64(1) != 0)
      }.first
    }
  }

  package func takeDCAPITransaction(id: String, now: Date) throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
  {
    // Single use where the row is written: of two takers (processes too) one flips `answered`.
    let taken = try locked { () throws(PresentationStoreError) in
      try connection.query(
        """
        UPDATE dc_api_transactions SET answered = 1
        WHERE id = ? AND expires_at >= ? AND answered = 0 RETURNING body
        """, [.text(id), .real(now.timeIntervalSince1970)]
      ) { row throws(PresentationStoreError) in
        try DigitalCredentialTransactionStore.Entry(stored: row.text(0), answered: false)
      }.first
    }
    if let taken { return taken }
    return try dcAPITransaction(id: id, now: now)
  }
}

extension PresentationTransaction {
  /// A transaction from a row's text columns (body JSON, phase, result JSON or nil).
  init(stored body: String?, phase: String?, result: String?) throws(PresentationStoreError) {
    guard let body, let phase else { throw .corrupt("a transaction row lacks its body or phase") }
    do {
      try self.init(
        storedBody: try JSONValue(parsing: Array(body.utf8)), phase: phase,
        result: try result.map { try JSONValue(parsing: Array($0.utf8)) })
    } catch let error as PresentationStoreError {
      throw error
    } catch {
      throw .corrupt("a transaction row is not JSON")
    }
  }
}

extension PresentationStoreErrorCode: SQLiteFailureCode {
  /// The store's code for a failure of the SQLite layer, which it keeps as the cause.
  package static func failure(for error: StoreError) -> PresentationStoreError {
    PresentationStoreError(.unavailable, error.reason, underlying: error)
  }

  /// Whether the SQLite layer gave up on another process's lock.
  package static func isBusy(_ error: PresentationStoreError) -> Bool {
    (error.underlying as? StoreError)?.code == .busy
  }
}
