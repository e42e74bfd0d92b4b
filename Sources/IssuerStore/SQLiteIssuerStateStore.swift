public import Foundation
import JSON
public import OpenID4VCI

// The only file of this module that speaks SQLite's C API; the patterns follow
// CredentialWallet/Store/SQLiteConnection.swift (bound values only, extended result codes).
#if canImport(SQLite3)
  internal import SQLite3
#else
  internal import CSQLite
#endif

/// An ``IssuerStateStore`` in one SQLite file, so that an issuer's state survives a restart
/// and several processes (`dcwallet issuer serve` and `dcwallet issuer offer`) can share it.
///
/// One table, `issuer_state(kind, key, value, expires_at)`, unique on `(kind, key)`; the file is
/// in WAL mode with a busy timeout. Each operation is a single statement or an immediate
/// transaction, so single-use records are taken by exactly one caller even across processes.
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
