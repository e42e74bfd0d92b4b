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
      ])
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

extension PresentationStoreErrorCode: PostgreSQLFailureCode {
  /// The store's code for a failure of the PostgreSQL layer, which it keeps as the cause.
  package static func failure(for error: PostgreSQLError) -> PresentationStoreError {
    PresentationStoreError(.unavailable, error.reason, underlying: error)
  }
}
