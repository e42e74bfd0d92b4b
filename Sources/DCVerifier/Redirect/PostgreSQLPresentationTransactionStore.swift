import DCJSON
package import DCPostgreSQL
public import Foundation

/// A ``PresentationTransactionStore`` in a PostgreSQL database, for verifier instances behind
/// a load balancer: a transaction made on one instance has its `request_uri` served, its
/// response accepted and its result read on any other, and survives the instance that made it.
///
/// One table, `presentation_transactions` (a verifier and an issuer may share the database),
/// migrated in numbered steps recorded in `dc_schema_version` (component `verifier`). Every
/// phase change is one `UPDATE … WHERE phase = … RETURNING`: of two instances racing for a step,
/// the database lets exactly one win. The capacity is checked in the inserting statement;
/// under concurrent inserts it may be exceeded by at most the number of instances.
public final class PostgreSQLPresentationTransactionStore: PresentationTransactionStore,
  @unchecked Sendable
{
  private let database: PostgreSQLDatabase<PresentationStoreError>
  /// The most transactions kept at once.
  package let capacity: Int

  private static let migrations = [
    PostgreSQLMigration(
      version: 1,
      [
        """
        CREATE TABLE presentation_transactions (
          request_id TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, phase TEXT NOT NULL,
          body TEXT NOT NULL, result TEXT, expires_at DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX presentation_transactions_expiry ON presentation_transactions (expires_at)",
      ]),
    // The DC API transactions of `DigitalCredentialVerifier` (issue 31): one row each, its
    // requests' state in `body`; `answered` flips once, in the statement that reads it.
    PostgreSQLMigration(
      version: 2,
      [
        """
        CREATE TABLE dc_api_transactions (
          id TEXT PRIMARY KEY, body TEXT NOT NULL, answered INTEGER NOT NULL DEFAULT 0,
          expires_at DOUBLE PRECISION NOT NULL)
        """,
        "CREATE INDEX dc_api_transactions_expiry ON dc_api_transactions (expires_at)",
      ]),
  ]

  /// Connects to the database at `url` and brings its schema up to date.
  ///
  /// - Parameters:
  ///   - url: a libpq connection URI, `postgresql://user@host:port/database` (a Unix socket
  ///     directory as `?host=/path`).
  ///   - capacity: the most transactions kept at once.
  ///   - connections: the most connections this instance keeps open at once.
  /// - Throws: `unavailable` when no connection can be made or the schema cannot be set up.
  public init(url: String, capacity: Int = 10_000, connections: Int = 4)
    throws(PresentationStoreError)
  {
    self.capacity = capacity
    do throws(PresentationStoreError) {
      database = try PostgreSQLDatabase(url: url, connections: connections)
      try database.migrate(Self.migrations, component: "verifier")
    } catch {
      throw PresentationStoreError(
        .unavailable, "cannot open the verifier's PostgreSQL store: \(error.reason)",
        underlying: error)
    }
  }

  public func insert(_ transaction: PresentationTransaction) throws(PresentationStoreError)
    -> Bool
  {
    try !database.execute(
      """
      INSERT INTO presentation_transactions (request_id, id, phase, body, expires_at)
      SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM presentation_transactions) < $6
      ON CONFLICT DO NOTHING RETURNING request_id
      """,
      [
        .text(transaction.requestID), .text(transaction.id), .text(transaction.phase.rawValue),
        .text(transaction.storedBody.serialized()),
        .double(transaction.expiresAt.timeIntervalSince1970), .integer(Int64(capacity)),
      ]
    ).rows.isEmpty
  }

  public func transaction(id: String) throws(PresentationStoreError) -> PresentationTransaction? {
    try read(
      database.execute(
        "SELECT body, phase, result FROM presentation_transactions WHERE id = $1", [.text(id)]))
  }

  public func transaction(requestID: String) throws(PresentationStoreError)
    -> PresentationTransaction?
  {
    try read(
      database.execute(
        "SELECT body, phase, result FROM presentation_transactions WHERE request_id = $1",
        [.text(requestID)]))
  }

  public func advance(
    requestID: String, from: PresentationTransaction.Phase, to: PresentationTransaction.Phase
  ) throws(PresentationStoreError) -> PresentationTransaction? {
    try read(
      database.execute(
        """
        UPDATE presentation_transactions SET phase = $1 WHERE request_id = $2 AND phase = $3
        RETURNING body, phase, result
        """, [.text(to.rawValue), .text(requestID), .text(from.rawValue)]))
  }

  public func record(_ result: PresentationResult, requestID: String)
    throws(PresentationStoreError)
  {
    guard let stored = result.stored else { return }
    try database.execute(
      """
      UPDATE presentation_transactions SET result = $1
      WHERE request_id = $2 AND phase = 'answered' AND result IS NULL
      """, [.text(stored.serialized()), .text(requestID)])
  }

  @discardableResult
  public func purge(expiredBefore date: Date) throws(PresentationStoreError) -> Int {
    try database.execute(
      "DELETE FROM presentation_transactions WHERE expires_at < $1",
      [.double(date.timeIntervalSince1970)]
    ).affectedRows
  }

  private func read(_ result: PostgreSQLResult) throws(PresentationStoreError)
    -> PresentationTransaction?
  {
    guard let row = result.rows.first else { return nil }
    return try PresentationTransaction(stored: row.text(0), phase: row.text(1), result: row.text(2))
  }
}

extension PostgreSQLPresentationTransactionStore: DigitalCredentialTransactionStoring {
  package func insertDCAPITransaction(
    _ entry: DigitalCredentialTransactionStore.Entry, now: Date
  ) throws(PresentationStoreError) -> Bool {
    try database.execute(
      "DELETE FROM dc_api_transactions WHERE expires_at < $1", [.double(now.timeIntervalSince1970)])
    // One statement: the uniqueness is the primary key's; the capacity, checked where the row is
    // written, may be exceeded by at most the number of instances inserting at once.
    return try !database.execute(
      """
      INSERT INTO dc_api_transactions (id, body, expires_at)
      SELECT $1, $2, $3 WHERE (SELECT COUNT(*) FROM dc_api_transactions) < $4
      ON CONFLICT DO NOTHING RETURNING id
      """,
      [
        .text(entry.id), .text(entry.storedBody.serialized()),
        .double(entry.expiresAt.timeIntervalSince1970), .integer(Int64(capacity)),
      ]
    ).rows.isEmpty
  }

  package func dcAPITransaction(id: String, now: Date) throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
  {
    let result = try database.execute(
      "SELECT body, answered FROM dc_api_transactions WHERE id = $1 AND expires_at >= $2",
      [.text(id), .double(now.timeIntervalSince1970)])
    guard let row = result.rows.first else { return nil }
    return try DigitalCredentialTransactionStore.Entry(
      stored: row.text(0), answered: (row.int64(1) ?? 1) != 0)
  }

  package func takeDCAPITransaction(id: String, now: Date) throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
  {
    // Single use where the row is written: the row lock lets one of two instances flip it.
    let taken = try database.execute(
      """
      UPDATE dc_api_transactions SET answered = 1
      WHERE id = $1 AND expires_at >= $2 AND answered = 0 RETURNING body
      """, [.text(id), .double(now.timeIntervalSince1970)])
    if let row = taken.rows.first {
      return try DigitalCredentialTransactionStore.Entry(stored: row.text(0), answered: false)
    }
    return try dcAPITransaction(id: id, now: now)
  }
}

extension PresentationStoreErrorCode: PostgreSQLFailureCode {
  /// The store's code for a failure of the PostgreSQL layer, which it keeps as the cause.
  package static func failure(for error: PostgreSQLError) -> PresentationStoreError {
    PresentationStoreError(.unavailable, error.reason, underlying: error)
  }
}
