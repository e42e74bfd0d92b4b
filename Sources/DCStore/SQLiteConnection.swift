import DCErrors
internal import Foundation

// With SQLiteDatabase.swift, the only code of the package that speaks SQLite's C API. Everything
// above it sees `SQLiteConnection`, `SQLiteStatement` and its own error type, never a result code
// or a raw pointer.
#if canImport(SQLite3)
  internal import SQLite3
#else
  internal import CDCSQLite
#endif

/// A value bound to a `?` parameter or read from a column. SQL text never carries values: every
/// value reaches SQLite through `sqlite3_bind_*`.
package enum SQLValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// Extended result codes this layer tells apart (sqlite.org/rescode.html).
private enum ResultCode {
  static let constraintCheck: Int32 = 1 << 8 | 19  // SQLITE_CONSTRAINT_CHECK
  static let constraintForeignKey: Int32 = 3 << 8 | 19  // SQLITE_CONSTRAINT_FOREIGNKEY
  static let constraintNotNull: Int32 = 5 << 8 | 19  // SQLITE_CONSTRAINT_NOTNULL
  static let constraintPrimaryKey: Int32 = 6 << 8 | 19  // SQLITE_CONSTRAINT_PRIMARYKEY
  static let constraintUnique: Int32 = 8 << 8 | 19  // SQLITE_CONSTRAINT_UNIQUE
}

/// `SQLITE_TRANSIENT`: SQLite copies bound bytes before the bind call returns, so Swift buffers
/// need not outlive it. The C macro is a cast of -1 that Swift cannot import.
private var transient: sqlite3_destructor_type {
  unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// What another thread may do to a connection while the store's queue runs a statement on it:
/// mark it suspended and interrupt that statement (`sqlite3_interrupt` is the one SQLite call
/// documented as safe from another thread, sqlite.org/c3ref/interrupt.html). The lock keeps an
/// interrupt from reaching a handle that is being closed.
package final class SQLiteSuspension: @unchecked Sendable {
  private let lock = NSLock()
  private var handle: OpaquePointer?
  private var suspended = false

  /// Whether the connection refuses new statements until it is resumed.
  package var isSuspended: Bool { lock.withLock { suspended } }

  /// Marks the connection suspended and interrupts the statement it runs, if any: the statement
  /// fails with `SQLITE_INTERRUPT` and its transaction is rolled back.
  package func interrupt() {
    lock.withLock {
      suspended = true
      if let handle { sqlite3_interrupt(handle) }
    }
  }

  /// Records the open handle (nil once closed); `resumed` clears the suspended mark.
  package func attach(_ handle: OpaquePointer?, resumed: Bool = false) {
    lock.withLock {
      self.handle = handle
      if resumed { suspended = false }
    }
  }
}

/// The busy handler's context: the retry limit and whether the connection is being suspended
/// (a suspended connection stops waiting for locks at once).
private final class BusyContext {
  let limit: Int
  let suspension: SQLiteSuspension
  init(limit: Int, suspension: SQLiteSuspension) {
    self.limit = limit
    self.suspension = suspension
  }
}

/// One SQLite connection, which can be closed and opened again (``close()``, ``reopen()``) so a
/// suspended process holds no file lock. Not thread-safe by itself: its owner confines it (the
/// wallet store to its actor, the issuer store to a lock); only ``suspension`` is touched from
/// other threads. Every call throws the owner's error type, `Failure`.
package final class SQLiteConnection<Failure: SQLiteFailure> {
  private var handle: OpaquePointer?
  private let path: String
  private var busyContext: BusyContext?
  /// Statements kept prepared by ``runCached(_:_:)``, by SQL text; finalized before the handle
  /// closes (a statement left unfinalized would keep the file open after `close()`).
  private var cache: [String: SQLiteStatement<Failure>] = [:]
  /// Shared with the owner's nonisolated `suspend()` (`WalletStore`).
  package let suspension = SQLiteSuspension()
  /// Tags rows as they are written and checks them as they are read, for the owner's
  /// authenticated rows (the wallet's credential rows, issue 32); nil for a connection opened
  /// without the key, which writes no tags and checks none.
  package var rowAuthenticator: RowAuthenticator?

  /// Opens (creating if needed) the database file at path.
  package init(path: String) throws(Failure) {
    self.path = path
    try open()
  }

  deinit {
    cache.removeAll()
    suspension.attach(nil)
    // v2 defers the close until every statement is finalized; statements never outlive a call.
    if let handle { sqlite3_close_v2(handle) }
  }

  private func open() throws(Failure) {
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)
      throw Failure(StoreError(.cannotOpen, "cannot open \(path): \(message)"))
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    suspension.attach(db)
  }

  /// Whether the connection is open.
  package var isOpen: Bool { handle != nil }

  /// Closes the connection, releasing every lock it holds on the database, `-wal` and `-shm`
  /// files; an open transaction is rolled back first. When it is the file's last connection,
  /// SQLite checkpoints the WAL into the database and removes the `-wal` file
  /// (sqlite.org/wal.html, "Automatic Checkpoint" and "Persistence of WAL mode").
  package func close() {
    guard let handle else { return }
    rollbackQuietly()
    cache.removeAll()
    suspension.attach(nil)
    sqlite3_close_v2(handle)
    self.handle = nil
  }

  /// Opens the file again after ``close()`` and clears the suspended mark. The caller
  /// configures the new connection (busy timeout, pragmas are per connection).
  package func reopen() throws(Failure) {
    if handle == nil { try open() }
    suspension.attach(handle, resumed: true)
  }

  /// Lets SQLite sleep and retry for about this long when another connection holds a lock.
  ///
  /// Not `sqlite3_busy_timeout`: its handler backs off to 100 ms between tries, so a process
  /// committing in a loop can keep a waiting process out for the whole timeout. Retrying about
  /// every millisecond keeps waiters in the race. The wait is bounded by the number of tries,
  /// and ends at once when the connection is being suspended.
  package func setBusyTimeout(milliseconds: Int32) {
    guard let handle else { return }
    let context = BusyContext(limit: Int(max(milliseconds, 0)), suspension: suspension)
    busyContext = context  // kept alive as long as the handler may run
    sqlite3_busy_handler(
      handle,
      { context, tries in
        guard let context else { return 0 }
        let busy = Unmanaged<BusyContext>.fromOpaque(context).takeUnretainedValue()
        guard Int(tries) < busy.limit, !busy.suspension.isSuspended else { return 0 }
        Thread.sleep(forTimeInterval: Double.random(in: 0.0005...0.0015))
        return 1
      }, Unmanaged.passUnretained(context).toOpaque())
  }

  /// Whether a transaction is open on this connection.
  package var inTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  package var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// The rowid of the most recent successful INSERT.
  package var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// Compiles one SQL statement.
  ///
  /// - Throws: `.suspended` while the store is suspended or closed: no statement starts then.
  package func prepare(_ sql: String) throws(Failure) -> SQLiteStatement<Failure> {
    guard let handle, !suspension.isSuspended else {
      throw Failure(StoreError(.suspended, "the store is suspended; resume() it first"))
    }
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw error(rc, "preparing \(sql.prefix(60))")
    }
    return SQLiteStatement(handle: statement, connection: self)
  }

  /// Runs one statement to completion with bound values.
  package func run(_ sql: String, _ values: [SQLValue] = []) throws(Failure) {
    _ = try prepare(sql).rows(values) { (_) throws(Failure) in () }
  }

  /// Runs one statement to completion with bound values, as ``run(_:_:)`` does, keeping the
  /// compiled statement for the next call with the same SQL text (for the statements a batch
  /// or every visit repeats: one compile instead of one per call). The statement is reset
  /// after each run, so it holds no lock between calls (sqlite.org/c3ref/reset.html).
  package func runCached(_ sql: String, _ values: [SQLValue] = []) throws(Failure) {
    _ = try queryCached(sql, values) { (_) throws(Failure) in () }
  }

  /// Runs a query and maps each row.
  package func query<T>(
    _ sql: String, _ values: [SQLValue] = [],
    row: (SQLiteStatement<Failure>) throws(Failure) -> T
  ) throws(Failure) -> [T] {
    try prepare(sql).rows(values, row: row)
  }

  /// As ``query(_:_:row:)``, keeping the compiled statement as ``runCached(_:_:)`` does: for
  /// SQL text that is a constant of this code (never text built from input, which would grow
  /// the cache without bound).
  package func queryCached<T>(
    _ sql: String, _ values: [SQLValue] = [],
    row: (SQLiteStatement<Failure>) throws(Failure) -> T
  ) throws(Failure) -> [T] {
    let statement = try cachedStatement(sql)
    defer { statement.reset() }
    return try statement.rows(values, row: row)
  }

  /// The kept statement for this SQL text, compiled on first use.
  private func cachedStatement(_ sql: String) throws(Failure) -> SQLiteStatement<Failure> {
    if let cached = cache[sql] {
      guard handle != nil, !suspension.isSuspended else {
        throw Failure(StoreError(.suspended, "the store is suspended; resume() it first"))
      }
      return cached
    }
    let statement = try prepare(sql)
    cache[sql] = statement
    return statement
  }

  /// How many statements are kept prepared (``runCached(_:_:)``, ``queryCached(_:_:row:)``).
  package var cachedStatementCount: Int { cache.count }

  /// Rolls back the open transaction, if any; used on paths that are already failing.
  package func rollbackQuietly() {
    if let handle, inTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
  }

  /// Turns a result code into the owner's error, with SQLite's message.
  package func error(_ rc: Int32, _ context: String) -> Failure {
    Failure(storeError(rc, context))
  }

  /// Turns a result code into this layer's error, with SQLite's message.
  func storeError(_ rc: Int32, _ context: String) -> StoreError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the connection is closed"
    switch rc & 0xff {
    case SQLITE_INTERRUPT:
      // Only the owner's suspend() interrupts (sqlite.org/c3ref/interrupt.html).
      return StoreError(.suspended, "\(context): interrupted by suspend()")
    case SQLITE_BUSY, SQLITE_LOCKED:
      return StoreError(.busy, "\(context): \(message)")
    case SQLITE_CONSTRAINT:
      switch rc {
      case ResultCode.constraintPrimaryKey, ResultCode.constraintUnique:
        return StoreError(.uniqueViolation, "\(context): \(message)")
      default:
        return StoreError(.constraintViolation, "\(context): \(message)")
      }
    case SQLITE_CANTOPEN:
      return StoreError(.cannotOpen, "\(context): \(message)")
    case SQLITE_NOTADB:
      return StoreError(.notADatabase, "\(context): \(message)")
    case SQLITE_CORRUPT:
      return StoreError(.corruptDatabase, "\(context): \(message)")
    default:
      return StoreError(.databaseFailure, "\(context): \(message) (SQLite code \(rc))")
    }
  }
}

/// A prepared statement, finalized when released.
package final class SQLiteStatement<Failure: SQLiteFailure> {
  private let handle: OpaquePointer
  /// Unowned: the connection keeps its cached statements, so a strong reference back would be
  /// a cycle that never closes the files. No statement outlives its connection.
  private unowned let connection: SQLiteConnection<Failure>

  fileprivate init(handle: OpaquePointer, connection: SQLiteConnection<Failure>) {
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement to run again and clears its bindings.
  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds the values, then runs the statement to completion, mapping each row.
  package func rows<T>(
    _ values: [SQLValue], row: (SQLiteStatement<Failure>) throws(Failure) -> T
  ) throws(Failure) -> [T] {
    try bind(values)
    var rows = [T]()
    while try step() { rows.append(try row(self)) }
    return rows
  }

  /// Binds values to parameters 1...n.
  package func bind(_ values: [SQLValue]) throws(Failure) {
    guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
      throw Failure(
        StoreError(
          .databaseFailure,
          "statement takes \(sqlite3_bind_parameter_count(handle)) values, got \(values.count)"))
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .null:
        rc = sqlite3_bind_null(handle, index)
      case .integer(let v):
        rc = sqlite3_bind_int64(handle, index, v)
      case .real(let v):
        rc = sqlite3_bind_double(handle, index, v)
      case .text(let s):
        let count = s.utf8.count
        guard count <= Int(Int32.max) else {
          throw Failure(StoreError(.invalidArgument, "text value of \(count) bytes is too long"))
        }
        // An explicit length keeps embedded NULs; withCString never passes NULL, so "" stays "".
        rc = s.withCString { sqlite3_bind_text(handle, index, $0, Int32(count), transient) }
      case .blob(let bytes):
        if bytes.isEmpty {
          // A zero-length bind_blob with a NULL pointer would store NULL, not an empty blob.
          rc = sqlite3_bind_zeroblob(handle, index, 0)
        } else {
          rc = bytes.withUnsafeBytes {
            sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), transient)
          }
        }
      }
      guard rc == SQLITE_OK else { throw connection.error(rc, "binding parameter \(index)") }
    }
  }

  /// Advances; true when a row is available, false when the statement is done.
  package func step() throws(Failure) -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let sql = sqlite3_sql(handle).map { String(cString: $0) } ?? "statement"
      throw connection.error(rc, String(sql.prefix(60)))
    }
  }

  /// The number of columns in a result row.
  package var columnCount: Int32 { sqlite3_column_count(handle) }

  /// Whether column i of the current row is NULL.
  package func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The storage class of column i (`SQLITE_INTEGER`, `SQLITE_TEXT`, ...).
  package func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

  /// Column i as a floating-point number (0 for NULL).
  package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// Column i as an integer (0 for NULL).
  package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// Column i as an integer, or nil for NULL.
  package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

  /// Column i as UTF-8 text, or nil for NULL.
  package func text(_ column: Int32) -> String? {
    guard !isNull(column), let pointer = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// Column i as bytes ([] for NULL or an empty blob).
  package func blob(_ column: Int32) -> [UInt8] {
    guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}

extension SQLiteStatement {
  /// Every column of the current row, typed as SQLite stores it.
  package func values() -> [SQLValue] {
    (0..<columnCount).map { column in
      switch columnType(column) {
      case SQLITE_INTEGER: .integer(int64(column))
      case SQLITE_FLOAT: .real(double(column))
      case SQLITE_TEXT: .text(text(column) ?? "")
      case SQLITE_BLOB: .blob(blob(column))
      default: .null
      }
    }
  }
}
