public import DCCrypto
import DCJSON
import DCOpenID4VCI
package import DCPostgreSQL
public import Foundation

/// An ``IssuerStateStore`` in a PostgreSQL database, so that several issuer instances behind a
/// load balancer share their codes, tokens, nonces, DPoP `jti`s, deferred and notification
/// state and status lists, and an instance's death loses nothing.
///
/// Single use is the database's: `take` is one `DELETE … RETURNING`, `insertIfAbsent` one
/// `INSERT … ON CONFLICT … RETURNING`, ``update(_:_:now:_:)`` holds the row lock (`SELECT … FOR
/// UPDATE`) from the read to the write, and a status index is unique on `(list_id, idx)` and
/// assigned under a transaction-scoped advisory lock. Tables are `issuer_state`,
/// `issuer_status_lists` and `issuer_status_entries`, migrated in numbered steps recorded in
/// `dc_schema_version` (component `issuer`); a verifier may share the database.
public final class PostgreSQLIssuerStateStore: IssuerStateStore, @unchecked Sendable {
  private let database: PostgreSQLDatabase<IssuerStoreError>

  /// The schema, in numbered steps (never edited once shipped).
  private static let migrations = [
    PostgreSQLMigration(
      version: 1,
      [
        """
        CREATE TABLE issuer_state (
          id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
          expires_at DOUBLE PRECISION, UNIQUE (kind, key))
        """,
        "CREATE INDEX issuer_state_expiry ON issuer_state (expires_at)",
        """
        CREATE TABLE issuer_status_lists (
          id BIGSERIAL PRIMARY KEY, bits INTEGER NOT NULL CHECK (bits IN (1, 2, 4, 8)),
          size INTEGER NOT NULL CHECK (size > 0), created_at DOUBLE PRECISION NOT NULL)
        """,
        """
        CREATE TABLE issuer_status_entries (
          credential_id TEXT PRIMARY KEY, list_id BIGINT NOT NULL REFERENCES issuer_status_lists (id),
          idx INTEGER NOT NULL CHECK (idx >= 0),
          status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 255),
          configuration_id TEXT NOT NULL, issued_at DOUBLE PRECISION NOT NULL,
          seq BIGSERIAL NOT NULL, UNIQUE (list_id, idx))
        """,
      ])
  ]

  /// Connects to the database at `url` and brings its schema up to date.
  ///
  /// - Parameters:
  ///   - url: a libpq connection URI, `postgresql://user@host:port/database` (a Unix socket
  ///     directory as `?host=/path`).
  ///   - connections: the most connections this instance keeps open at once.
  /// - Throws: `cannotOpen` when no connection can be made or the schema cannot be set up.
  public init(url: String, connections: Int = 4) throws(IssuerStoreError) {
    do throws(IssuerStoreError) {
      database = try PostgreSQLDatabase(url: url, connections: connections)
      try database.migrate(Self.migrations, component: "issuer")
    } catch {
      throw IssuerStoreError(
        .cannotOpen, "cannot open the issuer's PostgreSQL state: \(error.reason)",
        underlying: error)
    }
  }

  /// Runs body in one transaction (retried after a lost race).
  func transaction<T>(
    _ body: (PostgreSQLConnection<IssuerStoreError>) throws(IssuerStoreError) -> T
  ) throws(IssuerStoreError) -> T {
    try database.transaction(body)
  }

  /// Runs one statement.
  @discardableResult
  func execute(_ sql: String, _ values: [PostgreSQLValue]) throws(IssuerStoreError)
    -> PostgreSQLResult
  {
    try database.execute(sql, values)
  }

  private static let columns = "kind, key, value, expires_at"
  private static let live = "(expires_at IS NULL OR expires_at > $3)"

  public func insertIfAbsent(_ record: IssuerStateRecord, now: Date) throws(IssuerStoreError)
    -> Bool
  {
    // One statement: a live record under the key wins; an expired one is replaced.
    try !database.execute(
      """
      INSERT INTO issuer_state (kind, key, value, expires_at) VALUES ($1, $2, $3, $4)
      ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value,
        expires_at = excluded.expires_at
      WHERE issuer_state.expires_at IS NOT NULL AND issuer_state.expires_at <= $5
      RETURNING id
      """, Self.bindings(record) + [.double(now.timeIntervalSince1970)]
    ).rows.isEmpty
  }

  public func upsert(_ record: IssuerStateRecord) throws(IssuerStoreError) {
    try database.execute(Self.upsertSQL, Self.bindings(record))
  }

  private static let upsertSQL = """
    INSERT INTO issuer_state (kind, key, value, expires_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
    """

  public func find(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  {
    try Self.records(
      database.execute(
        "SELECT \(Self.columns) FROM issuer_state WHERE kind = $1 AND key = $2 AND \(Self.live)",
        [.text(kind.rawValue), .text(key), .double(now.timeIntervalSince1970)])
    ).first
  }

  public func take(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  {
    // One statement: of two instances taking the same record, one deletes it.
    try Self.records(
      database.execute(
        "DELETE FROM issuer_state WHERE kind = $1 AND key = $2 RETURNING \(Self.columns)",
        [.text(kind.rawValue), .text(key)])
    ).first { $0.isLive(at: now) }
  }

  public func update<T>(
    _ kind: IssuerStateKind, _ key: String, now: Date,
    _ change: (inout IssuerStateRecord?) -> T
  ) throws(IssuerStoreError) -> T {
    try database.transaction { (connection) throws(IssuerStoreError) -> T in
      // The row lock is held until COMMIT: another instance's update of the row waits.
      var record = try Self.records(
        connection.execute(
          """
          SELECT \(Self.columns) FROM issuer_state
          WHERE kind = $1 AND key = $2 AND \(Self.live) FOR UPDATE
          """, [.text(kind.rawValue), .text(key), .double(now.timeIntervalSince1970)])
      ).first
      let result = change(&record)
      if var record {
        record.kind = kind
        record.key = key
        try connection.execute(Self.upsertSQL, Self.bindings(record))
      } else {
        try connection.execute(
          "DELETE FROM issuer_state WHERE kind = $1 AND key = $2",
          [.text(kind.rawValue), .text(key)])
      }
      return result
    }
  }

  public func remove(_ kind: IssuerStateKind, _ key: String) throws(IssuerStoreError) {
    try database.execute(
      "DELETE FROM issuer_state WHERE kind = $1 AND key = $2", [.text(kind.rawValue), .text(key)])
  }

  public func records(_ kind: IssuerStateKind, now: Date) throws(IssuerStoreError)
    -> [IssuerStateRecord]
  {
    try Self.records(
      database.execute(
        """
        SELECT \(Self.columns) FROM issuer_state
        WHERE kind = $1 AND (expires_at IS NULL OR expires_at > $2) ORDER BY id
        """, [.text(kind.rawValue), .double(now.timeIntervalSince1970)]))
  }

  public func purgeExpired(now: Date) throws(IssuerStoreError) {
    try database.execute(
      "DELETE FROM issuer_state WHERE expires_at <= $1", [.double(now.timeIntervalSince1970)])
  }

  private static func bindings(_ record: IssuerStateRecord) -> [PostgreSQLValue] {
    [
      .text(record.kind.rawValue), .text(record.key), .text(record.value.serialized()),
      record.expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null,
    ]
  }

  private static func records(_ result: PostgreSQLResult) throws(IssuerStoreError)
    -> [IssuerStateRecord]
  {
    var records: [IssuerStateRecord] = []
    for row in result.rows {
      guard let kind = row.text(0).flatMap(IssuerStateKind.init(rawValue:)),
        let key = row.text(1), let text = row.text(2)
      else {
        throw IssuerStoreError(.corruptRecord, "a row of issuer_state lacks its kind, key or value")
      }
      let value: JSONValue
      do {
        value = try JSONValue(parsing: Array(text.utf8))
      } catch {
        throw IssuerStoreError(
          .corruptRecord, "a stored \(kind.rawValue) is not JSON", underlying: error)
      }
      records.append(
        IssuerStateRecord(
          kind: kind, key: key, value: value,
          expiresAt: row.double(3).map(Date.init(timeIntervalSince1970:))))
    }
    return records
  }
}

extension IssuerStoreErrorCode: PostgreSQLFailureCode {
  /// The issuer's code for a failure of the PostgreSQL layer, which it keeps as the cause.
  package static func failure(for error: PostgreSQLError) -> IssuerStoreError {
    IssuerStoreError(
      error.code == .cannotConnect ? .cannotOpen : .databaseFailure, error.reason,
      underlying: error)
  }
}
