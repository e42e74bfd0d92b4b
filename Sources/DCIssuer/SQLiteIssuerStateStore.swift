public import DCCrypto
import DCJSON
import DCOpenID4VCI
package import DCStore
public import Foundation

/// An ``IssuerStateStore`` in one SQLite file, so that an issuer's state survives a restart
/// and several processes (`dcwallet issuer serve` and `dcwallet issuer offer`) can share it.
///
/// One table, `issuer_state(kind, key, value, expires_at)`, unique on `(kind, key)`; the file is
/// on the package's SQLite layer (`SQLiteDatabase`): created readable only by its owner (0600),
/// in WAL mode with a busy timeout, its schema in numbered migrations (`PRAGMA user_version`). Each operation is a single statement or an immediate
/// transaction, so single-use records are taken by exactly one caller even across processes.
///
/// The status lists (issue 15) are two more tables: `status_lists(id, bits, size, created_at)`
/// and `status_entries(credential_id, list_id, idx, status, configuration_id, issued_at)`,
/// unique on the credential id and on `(list_id, idx)`, so the database itself refuses a second
/// credential at an index. Neither is ever deleted from: list ids (AUTOINCREMENT) and indices
/// are never reused.
public final class SQLiteIssuerStateStore: IssuerStateStore, @unchecked Sendable {
  private let lock = NSLock()
  private let database: SQLiteDatabase<IssuerStoreError>
  private var connection: SQLiteConnection<IssuerStoreError> { database.connection }
  /// The database file.
  public let path: String

  /// The schema. Version 1 is the tables as created before the schema was versioned (`IF NOT
  /// EXISTS`: a file from then opens unchanged and is recorded as version 1).
  private static var migrations: [SQLiteMigration<IssuerStoreError>] {
    [
      SQLiteMigration(
        version: 1,
        [
          """
          CREATE TABLE IF NOT EXISTS issuer_state (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            expires_at REAL,
            UNIQUE (kind, key)
          )
          """,
          """
          CREATE TABLE IF NOT EXISTS status_lists (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            bits INTEGER NOT NULL CHECK (bits IN (1, 2, 4, 8)),
            size INTEGER NOT NULL CHECK (size > 0),
            created_at REAL NOT NULL
          )
          """,
          """
          CREATE TABLE IF NOT EXISTS status_entries (
            credential_id TEXT PRIMARY KEY,
            list_id INTEGER NOT NULL REFERENCES status_lists (id),
            idx INTEGER NOT NULL CHECK (idx >= 0),
            status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 255),
            configuration_id TEXT NOT NULL,
            issued_at REAL NOT NULL,
            UNIQUE (list_id, idx)
          )
          """,
        ])
    ]
  }

  /// Opens (creating if needed, readable only by its owner) the store at `path`.
  ///
  /// - Parameters:
  ///   - path: the SQLite database file; created with mode 0600 when missing.
  ///   - busyTimeout: how long a statement waits for another process's lock, in milliseconds.
  /// - Throws: `cannotOpen` when the file cannot be opened or created; `databaseFailure` when the
  ///   schema cannot be set up.
  public init(path: String, busyTimeout: Int32 = 5_000) throws(IssuerStoreError) {
    self.path = path
    do throws(IssuerStoreError) {
      // sqlite.org/wal.html: readers do not block the writer, across processes.
      database = try SQLiteDatabase(
        path: path, busyTimeout: .milliseconds(max(busyTimeout, 0)))
      try database.migrate(Self.migrations)
    } catch {
      throw IssuerStoreError(
        .cannotOpen, "cannot open \(path): \(error.reason)", underlying: error)
    }
  }

  public func insertIfAbsent(_ record: IssuerStateRecord, now: Date) throws(IssuerStoreError)
    -> Bool
  {
    try locked { () throws(IssuerStoreError) in
      try transaction { () throws(IssuerStoreError) in
        try run(
          "DELETE FROM issuer_state WHERE kind = ? AND key = ? AND expires_at <= ?",
          [.text(record.kind.rawValue), .text(record.key), .real(now.timeIntervalSince1970)])
        try run(
          "INSERT OR IGNORE INTO issuer_state (kind, key, value, expires_at) VALUES (?, ?, ?, ?)",
          bindings(record))
        return connection.changes > 0
      }
    }
  }

  public func upsert(_ record: IssuerStateRecord) throws(IssuerStoreError) {
    try locked { () throws(IssuerStoreError) in
      try run(
        """
        INSERT INTO issuer_state (kind, key, value, expires_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value,
          expires_at = excluded.expires_at
        """, bindings(record))
    }
  }

  public func find(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  {
    try locked { () throws(IssuerStoreError) in
      try query(
        "SELECT kind, key, value, expires_at FROM issuer_state WHERE kind = ? AND key = ?",
        [.text(kind.rawValue), .text(key)]
      ).first { $0.isLive(at: now) }
    }
  }

  public func take(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  {
    try locked { () throws(IssuerStoreError) in
      // One statement: of two processes taking the same record, one deletes it (RETURNING,
      // SQLite 3.35).
      try query(
        "DELETE FROM issuer_state WHERE kind = ? AND key = ? RETURNING kind, key, value, expires_at",
        [.text(kind.rawValue), .text(key)]
      ).first { $0.isLive(at: now) }
    }
  }

  public func update<T>(
    _ kind: IssuerStateKind, _ key: String, now: Date,
    _ change: (inout IssuerStateRecord?) -> T
  ) throws(IssuerStoreError) -> T {
    try locked { () throws(IssuerStoreError) -> T in
      // BEGIN IMMEDIATE: the write lock is held from the read to the write, across processes.
      try transaction { () throws(IssuerStoreError) -> T in
        var record = try query(
          "SELECT kind, key, value, expires_at FROM issuer_state WHERE kind = ? AND key = ?",
          [.text(kind.rawValue), .text(key)]
        ).first { $0.isLive(at: now) }
        let result = change(&record)
        if var record {
          record.kind = kind
          record.key = key
          try run(
            """
            INSERT INTO issuer_state (kind, key, value, expires_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value,
              expires_at = excluded.expires_at
            """, bindings(record))
        } else {
          try run(
            "DELETE FROM issuer_state WHERE kind = ? AND key = ?",
            [.text(kind.rawValue), .text(key)])
        }
        return result
      }
    }
  }

  public func remove(_ kind: IssuerStateKind, _ key: String) throws(IssuerStoreError) {
    try locked { () throws(IssuerStoreError) in
      try run(
        "DELETE FROM issuer_state WHERE kind = ? AND key = ?", [.text(kind.rawValue), .text(key)])
    }
  }

  public func records(_ kind: IssuerStateKind, now: Date) throws(IssuerStoreError)
    -> [IssuerStateRecord]
  {
    try locked { () throws(IssuerStoreError) in
      try query(
        "SELECT kind, key, value, expires_at FROM issuer_state WHERE kind = ? ORDER BY id",
        [.text(kind.rawValue)]
      ).filter { $0.isLive(at: now) }
    }
  }

  public func purgeExpired(now: Date) throws(IssuerStoreError) {
    try locked { () throws(IssuerStoreError) in
      try run(
        "DELETE FROM issuer_state WHERE expires_at <= ?", [.real(now.timeIntervalSince1970)])
    }
  }

  // MARK: SQLite

  private func bindings(_ record: IssuerStateRecord) -> [SQLValue] {
    [
      .text(record.kind.rawValue), .text(record.key), .text(record.value.serialized()),
      record.expiresAt.map { .real($0.timeIntervalSince1970) } ?? .null,
    ]
  }

  private func locked<T>(_ body: () throws(IssuerStoreError) -> T) throws(IssuerStoreError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Runs `body` in an immediate transaction (the write lock is taken at BEGIN, so no other
  /// process writes between its statements).
  private func transaction<T>(_ body: () throws(IssuerStoreError) -> T) throws(IssuerStoreError)
    -> T
  {
    try database.write(body)
  }

  private func run(_ sql: String, _ values: [SQLValue]) throws(IssuerStoreError) {
    try connection.run(sql, values)
  }

  private func query(_ sql: String, _ values: [SQLValue]) throws(IssuerStoreError)
    -> [IssuerStateRecord]
  {
    try connection.query(sql, values) { (row) throws(IssuerStoreError) in
      guard let kindText = row.text(0), let kind = IssuerStateKind(rawValue: kindText),
        let key = row.text(1), let valueText = row.text(2)
      else {
        throw IssuerStoreError(.corruptRecord, "a row of issuer_state lacks its kind, key or value")
      }
      let value: JSONValue
      do {
        value = try JSONValue(parsing: Array(valueText.utf8))
      } catch {
        throw IssuerStoreError(
          .corruptRecord, "a stored \(kind.rawValue) is not JSON", underlying: error)
      }
      let expiresAt = row.isNull(3) ? nil : Date(timeIntervalSince1970: row.double(3))
      return IssuerStateRecord(kind: kind, key: key, value: value, expiresAt: expiresAt)
    }
  }

  /// The rows of a query, each read by `row`.
  private func select<T>(
    _ sql: String, _ values: [SQLValue],
    _ row: (SQLiteStatement<IssuerStoreError>) throws(IssuerStoreError) -> T
  ) throws(IssuerStoreError) -> [T] {
    try connection.query(sql, values, row: row)
  }
}

extension IssuerStoreErrorCode: SQLiteFailureCode {
  /// The issuer's code for a failure of the SQLite layer, which it keeps as the cause.
  package static func failure(for error: StoreError) -> IssuerStoreError {
    IssuerStoreError(
      error.code == .cannotOpen ? .cannotOpen : .databaseFailure, error.reason, underlying: error)
  }

  /// Whether the SQLite layer gave up on another process's lock.
  package static func isBusy(_ error: IssuerStoreError) -> Bool {
    (error.underlying as? StoreError)?.code == .busy
  }
}

// MARK: Status lists

extension SQLiteIssuerStateStore {
  private static let credentialColumns =
    "credential_id, configuration_id, list_id, idx, status, issued_at"

  public func assignStatusIndex(
    credentialID: String, configurationID: String, settings: StatusListSettings, now: Date,
    random: any RandomSource
  ) throws(IssuerStoreError) -> IssuedCredentialStatus {
    try settings.validate()
    return try locked { () throws(IssuerStoreError) in
      // One immediate transaction: no other process assigns between the choice and the insert,
      // and a failure leaves no new list behind.
      try transaction { () throws(IssuerStoreError) in
        if try !select(
          "SELECT 1 FROM status_entries WHERE credential_id = ?", [.text(credentialID)],
          { _ in true }
        ).isEmpty {
          throw IssuerStoreError(
            .duplicateCredential, "credential \(credentialID) already has a status list index")
        }
        let (listID, used) = try listWithRoom(settings, now: now)
        let index = try freeIndex(in: listID, size: settings.size, used: used, random: random)
        try run(
          """
          INSERT INTO status_entries (credential_id, list_id, idx, status, configuration_id, issued_at)
          VALUES (?, ?, ?, 0, ?, ?)
          """,
          [
            .text(credentialID), .integer(listID), .integer(Int64(index)), .text(configurationID),
            .real(now.timeIntervalSince1970),
          ])
        return IssuedCredentialStatus(
          credentialID: credentialID, configurationID: configurationID, listID: Int(listID),
          index: index, status: IssuerStatusValue.valid, issuedAt: now)
      }
    }
  }

  /// The newest list of these settings with a free index and how many it uses; a new list when
  /// none has room. Called inside the assignment's transaction.
  private func listWithRoom(
    _ settings: StatusListSettings, now: Date
  ) throws(IssuerStoreError) -> (listID: Int64, used: Int) {
    let open = try select(
      """
      SELECT l.id, l.size, (SELECT COUNT(*) FROM status_entries e WHERE e.list_id = l.id)
      FROM status_lists l WHERE l.bits = ? AND l.size = ? ORDER BY l.id DESC LIMIT 1
      """, [.integer(Int64(settings.bits)), .integer(Int64(settings.size))]
    ) { row in
      (id: row.int64(0), size: Int(row.int64(1)), used: Int(row.int64(2)))
    }.first.flatMap { $0.used < $0.size ? $0 : nil }
    if let open { return (open.id, open.used) }
    try run(
      "INSERT INTO status_lists (bits, size, created_at) VALUES (?, ?, ?)",
      [
        .integer(Int64(settings.bits)), .integer(Int64(settings.size)),
        .real(now.timeIntervalSince1970),
      ])
    return (connection.lastInsertRowID, 0)
  }

  /// A random free index of the list (`StatusIndexChooser`). Called inside the assignment's
  /// transaction.
  private func freeIndex(
    in listID: Int64, size: Int, used: Int, random: any RandomSource
  ) throws(IssuerStoreError) -> Int {
    guard
      let index = try StatusIndexChooser.choose(
        size: size, used: used, random: random,
        isUsed: { (candidate) throws(IssuerStoreError) in
          try !select(
            "SELECT 1 FROM status_entries WHERE list_id = ? AND idx = ?",
            [.integer(listID), .integer(Int64(candidate))], { _ in true }
          ).isEmpty
        },
        usedIndices: { () throws(IssuerStoreError) in
          Set(
            try select(
              "SELECT idx FROM status_entries WHERE list_id = ?", [.integer(listID)],
              { Int($0.int64(0)) }))
        })
    else { throw IssuerStoreError(.databaseFailure, "status list \(listID) has no free index") }
    return index
  }

  public func changeStatus(credentialID: String, _ change: CredentialStatusChange)
    throws(IssuerStoreError) -> IssuedCredentialStatus
  {
    try locked { () throws(IssuerStoreError) in
      try transaction { () throws(IssuerStoreError) in
        guard
          var record = try credentialRecords(where: "credential_id = ?", [.text(credentialID)])
            .first,
          let bits = try select(
            "SELECT bits FROM status_lists WHERE id = ?", [.integer(Int64(record.listID))],
            { Int($0.int64(0)) }
          ).first
        else {
          throw IssuerStoreError(.unknownCredential, "no issued credential \(credentialID)")
        }
        record.status = try change.apply(to: record.status, bits: bits)
        try run(
          "UPDATE status_entries SET status = ? WHERE credential_id = ?",
          [.integer(Int64(record.status)), .text(credentialID)])
        return record
      }
    }
  }

  public func issuedCredentialStatus(credentialID: String) throws(IssuerStoreError)
    -> IssuedCredentialStatus?
  {
    try locked { () throws(IssuerStoreError) in
      try credentialRecords(where: "credential_id = ?", [.text(credentialID)]).first
    }
  }

  public func issuedCredentialStatuses() throws(IssuerStoreError) -> [IssuedCredentialStatus] {
    try locked { () throws(IssuerStoreError) in try credentialRecords(where: "1", []) }
  }

  public func statusList(id: Int) throws(IssuerStoreError) -> StoredStatusList? {
    try locked { () throws(IssuerStoreError) in
      // One read transaction, so the shape and the entries are of the same moment.
      try transaction { () throws(IssuerStoreError) in
        guard
          let shape = try select(
            "SELECT bits, size FROM status_lists WHERE id = ?", [.integer(Int64(id))],
            { (bits: Int($0.int64(0)), size: Int($0.int64(1))) }
          ).first
        else { return nil }
        var statuses: [Int: UInt8] = [:]
        for (index, status) in try select(
          "SELECT idx, status FROM status_entries WHERE list_id = ? AND status != 0",
          [.integer(Int64(id))],
          { (Int($0.int64(0)), UInt8(clamping: $0.int64(1))) })
        {
          statuses[index] = status
        }
        return StoredStatusList(id: id, bits: shape.bits, size: shape.size, statuses: statuses)
      }
    }
  }

  private func credentialRecords(where condition: String, _ values: [SQLValue])
    throws(IssuerStoreError) -> [IssuedCredentialStatus]
  {
    try select(
      "SELECT \(Self.credentialColumns) FROM status_entries WHERE \(condition) ORDER BY issued_at, rowid",
      values
    ) { (row) throws(IssuerStoreError) in
      guard let id = row.text(0), let configuration = row.text(1) else {
        throw IssuerStoreError(.corruptRecord, "a row of status_entries lacks its ids")
      }
      return IssuedCredentialStatus(
        credentialID: id, configurationID: configuration,
        listID: Int(row.int64(2)), index: Int(row.int64(3)),
        status: UInt8(clamping: row.int64(4)),
        issuedAt: Date(timeIntervalSince1970: row.double(5)))
    }
  }
}
