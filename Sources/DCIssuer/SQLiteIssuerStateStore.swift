public import DCCrypto
import DCJSON
import DCOpenID4VCI
public import Foundation

// The only file of this module that speaks SQLite's C API; the patterns follow
// CredentialWallet/Store/SQLiteConnection.swift (bound values only, extended result codes).
#if canImport(SQLite3)
  internal import SQLite3
#else
  internal import CDCSQLite
#endif

/// An ``IssuerStateStore`` in one SQLite file, so that an issuer's state survives a restart
/// and several processes (`dcwallet issuer serve` and `dcwallet issuer offer`) can share it.
///
/// One table, `issuer_state(kind, key, value, expires_at)`, unique on `(kind, key)`; the file is
/// in WAL mode with a busy timeout. Each operation is a single statement or an immediate
/// transaction, so single-use records are taken by exactly one caller even across processes.
///
/// The status lists (issue 15) are two more tables: `status_lists(id, bits, size, created_at)`
/// and `status_entries(credential_id, list_id, idx, status, configuration_id, issued_at)`,
/// unique on the credential id and on `(list_id, idx)`, so the database itself refuses a second
/// credential at an index. Neither is ever deleted from: list ids (AUTOINCREMENT) and indices
/// are never reused.
public final class SQLiteIssuerStateStore: IssuerStateStore, @unchecked Sendable {
  private let lock = NSLock()
  private let handle: OpaquePointer
  /// The database file.
  public let path: String

  /// `SQLITE_TRANSIENT`: SQLite copies bound bytes before the bind call returns.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// Opens (creating if needed) the store at `path`.
  ///
  /// - Parameter busyTimeout: how long a statement waits for another process's lock, in
  ///   milliseconds.
  public init(path: String, busyTimeout: Int32 = 5_000) throws(IssuerStoreError) {
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)
      throw IssuerStoreError(.cannotOpen, "cannot open \(path): \(message)")
    }
    handle = db
    self.path = path
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, busyTimeout)
    do {
      // sqlite.org/wal.html: readers do not block the writer, across processes.
      try exec("PRAGMA journal_mode=WAL")
      try exec(
        """
        CREATE TABLE IF NOT EXISTS issuer_state (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL,
          key TEXT NOT NULL,
          value TEXT NOT NULL,
          expires_at REAL,
          UNIQUE (kind, key)
        )
        """)
      try exec(
        """
        CREATE TABLE IF NOT EXISTS status_lists (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          bits INTEGER NOT NULL CHECK (bits IN (1, 2, 4, 8)),
          size INTEGER NOT NULL CHECK (size > 0),
          created_at REAL NOT NULL
        )
        """)
      try exec(
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
        """)
    } catch {
      sqlite3_close_v2(db)
      throw IssuerStoreError(
        .cannotOpen, "cannot set up \(path): \(error.reason)", underlying: error)
    }
  }

  deinit { sqlite3_close_v2(handle) }

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
        return sqlite3_changes(handle) > 0
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

  private enum Value {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
  }

  private func bindings(_ record: IssuerStateRecord) -> [Value] {
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
    try exec("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try exec("COMMIT")
      return result
    } catch {
      sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  private func exec(_ sql: String) throws(IssuerStoreError) {
    let rc = sqlite3_exec(handle, sql, nil, nil, nil)
    guard rc == SQLITE_OK else { throw failure(rc, sql) }
  }

  private func run(_ sql: String, _ values: [Value]) throws(IssuerStoreError) {
    let statement = try prepare(sql, values)
    defer { sqlite3_finalize(statement) }
    while try step(statement, sql) {}
  }

  private func query(_ sql: String, _ values: [Value]) throws(IssuerStoreError)
    -> [IssuerStateRecord]
  {
    let statement = try prepare(sql, values)
    defer { sqlite3_finalize(statement) }
    var rows: [IssuerStateRecord] = []
    while try step(statement, sql) {
      guard let kindText = text(statement, 0), let kind = IssuerStateKind(rawValue: kindText),
        let key = text(statement, 1), let valueText = text(statement, 2)
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
      let expiresAt =
        sqlite3_column_type(statement, 3) == SQLITE_NULL
        ? nil : Date(timeIntervalSince1970: sqlite3_column_double(statement, 3))
      rows.append(IssuerStateRecord(kind: kind, key: key, value: value, expiresAt: expiresAt))
    }
    return rows
  }

  private func prepare(_ sql: String, _ values: [Value]) throws(IssuerStoreError) -> OpaquePointer {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw failure(rc, sql)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let bound: Int32
      switch value {
      case .null: bound = sqlite3_bind_null(statement, index)
      case .integer(let number): bound = sqlite3_bind_int64(statement, index, number)
      case .real(let number): bound = sqlite3_bind_double(statement, index, number)
      case .text(let string):
        let count = string.utf8.count
        bound = string.withCString {
          sqlite3_bind_text(statement, index, $0, Int32(clamping: count), Self.transient)
        }
      }
      guard bound == SQLITE_OK else {
        sqlite3_finalize(statement)
        throw failure(bound, sql)
      }
    }
    return statement
  }

  /// The rows of a query, each read by `row`.
  private func select<T>(
    _ sql: String, _ values: [Value], _ row: (OpaquePointer) throws(IssuerStoreError) -> T
  ) throws(IssuerStoreError) -> [T] {
    let statement = try prepare(sql, values)
    defer { sqlite3_finalize(statement) }
    var rows: [T] = []
    while try step(statement, sql) { rows.append(try row(statement)) }
    return rows
  }

  private func step(_ statement: OpaquePointer, _ sql: String) throws(IssuerStoreError) -> Bool {
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let rc: throw failure(rc, sql)
    }
  }

  private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
    guard sqlite3_column_type(statement, column) != SQLITE_NULL,
      let pointer = sqlite3_column_text(statement, column)
    else { return nil }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  private func failure(_ rc: Int32, _ sql: String) -> IssuerStoreError {
    let message = String(cString: sqlite3_errmsg(handle))
    return IssuerStoreError(
      .databaseFailure, "\(sql.prefix(60)): \(message) (SQLite code \(rc))")
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
        let open = try select(
          """
          SELECT l.id, l.size, (SELECT COUNT(*) FROM status_entries e WHERE e.list_id = l.id)
          FROM status_lists l WHERE l.bits = ? AND l.size = ? ORDER BY l.id DESC LIMIT 1
          """, [.integer(Int64(settings.bits)), .integer(Int64(settings.size))]
        ) { row in
          (
            id: sqlite3_column_int64(row, 0), size: Int(sqlite3_column_int64(row, 1)),
            used: Int(sqlite3_column_int64(row, 2))
          )
        }.first.flatMap { $0.used < $0.size ? $0 : nil }
        let listID: Int64
        let used: Int
        if let open {
          (listID, used) = (open.id, open.used)
        } else {
          try run(
            "INSERT INTO status_lists (bits, size, created_at) VALUES (?, ?, ?)",
            [
              .integer(Int64(settings.bits)), .integer(Int64(settings.size)),
              .real(now.timeIntervalSince1970),
            ])
          (listID, used) = (sqlite3_last_insert_rowid(handle), 0)
        }
        guard
          let index = try StatusIndexChooser.choose(
            size: settings.size, used: used, random: random,
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
                  { Int(sqlite3_column_int64($0, 0)) }))
            })
        else { throw IssuerStoreError(.databaseFailure, "status list \(listID) has no free index") }
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
            { Int(sqlite3_column_int64($0, 0)) }
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
            { (bits: Int(sqlite3_column_int64($0, 0)), size: Int(sqlite3_column_int64($0, 1))) }
          ).first
        else { return nil }
        var statuses: [Int: UInt8] = [:]
        for (index, status) in try select(
          "SELECT idx, status FROM status_entries WHERE list_id = ? AND status != 0",
          [.integer(Int64(id))],
          { (Int(sqlite3_column_int64($0, 0)), UInt8(clamping: sqlite3_column_int64($0, 1))) })
        {
          statuses[index] = status
        }
        return StoredStatusList(id: id, bits: shape.bits, size: shape.size, statuses: statuses)
      }
    }
  }

  private func credentialRecords(where condition: String, _ values: [Value])
    throws(IssuerStoreError) -> [IssuedCredentialStatus]
  {
    try select(
      "SELECT \(Self.credentialColumns) FROM status_entries WHERE \(condition) ORDER BY issued_at, rowid",
      values
    ) { (row) throws(IssuerStoreError) in
      guard let id = text(row, 0), let configuration = text(row, 1) else {
        throw IssuerStoreError(.corruptRecord, "a row of status_entries lacks its ids")
      }
      return IssuedCredentialStatus(
        credentialID: id, configurationID: configuration,
        listID: Int(sqlite3_column_int64(row, 2)), index: Int(sqlite3_column_int64(row, 3)),
        status: UInt8(clamping: sqlite3_column_int64(row, 4)),
        issuedAt: Date(timeIntervalSince1970: sqlite3_column_double(row, 5)))
    }
  }
}
