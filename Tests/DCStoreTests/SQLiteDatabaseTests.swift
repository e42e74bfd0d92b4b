import DCErrors
import DCStore
import DCTestSupport
import Foundation
import Testing

/// A fresh directory under the test process's scratch directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = TestScratch.path("store-tests")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  var databasePath: String { path + "/store.sqlite" }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A store's own error, to show that the layer throws the owner's type.
struct OwnerError: SQLiteFailure, Equatable {
  let code: StoreErrorCode?
  let reason: String

  init(_ error: StoreError) {
    code = error.code
    reason = error.reason
  }

  init(ownReason: String) {
    code = nil
    reason = ownReason
  }

  var isBusy: Bool { code == .busy }
}

@Suite("The SQLite layer: files, transactions, migrations, hostile files")
struct SQLiteDatabaseTests {
  private func open(_ path: String) throws(StoreError) -> SQLiteDatabase<StoreError> {
    try SQLiteDatabase(path: path, busyTimeout: .seconds(2))
  }

  private let steps: [SQLiteMigration<StoreError>] = [
    SQLiteMigration(version: 1, ["CREATE TABLE t (n INTEGER NOT NULL)"]),
    SQLiteMigration(version: 2, ["ALTER TABLE t ADD COLUMN label TEXT"]),
    SQLiteMigration(
      version: 3, ["CREATE TABLE u (n INTEGER PRIMARY KEY)"],
      then: { (connection) throws(StoreError) in
        try connection.run("INSERT INTO u (n) SELECT n FROM t")
      }),
  ]

  private func count(_ database: SQLiteDatabase<StoreError>, _ table: String) throws -> Int64 {
    try database.connection.query("SELECT COUNT(*) FROM \(table)") { $0.int64(0) }.first ?? -1
  }

  // MARK: Files

  /// The file is created readable and writable by its owner only, whatever the umask, and so
  /// are SQLite's `-wal` and `-shm` files (they take the database file's mode).
  @Test func aNewFileIsReadableByItsOwnerOnly() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps)
    try database.write { () throws(StoreError) in
      try database.connection.run("INSERT INTO t (n) VALUES (1)")
    }
    for suffix in ["", "-wal", "-shm"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: dir.databasePath + suffix)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(suffix)")
    }
  }

  /// An existing file keeps its mode and its contents.
  @Test func anExistingFileIsOpenedAsItIs() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let database = try open(dir.databasePath)
      try database.migrate(steps)
      try database.connection.run("INSERT INTO t (n) VALUES (7)")
    }
    let database = try open(dir.databasePath)
    #expect(try database.schemaVersion() == 3)
    #expect(try count(database, "t") == 1)
  }

  @Test func theConnectionIsInWALModeWithForeignKeys() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    let connection = database.connection
    #expect(try connection.query("PRAGMA journal_mode") { $0.text(0) } == ["wal"])
    #expect(try connection.query("PRAGMA foreign_keys") { $0.int64(0) } == [1])
    #expect(try connection.query("PRAGMA synchronous") { $0.int64(0) } == [2])
  }

  @Test func aNegativeBusyTimeoutIsRefused() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let error = #expect(throws: StoreError.self) {
      _ = try SQLiteDatabase<StoreError>(path: dir.databasePath, busyTimeout: .seconds(-1))
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test func aFileInAMissingDirectoryCannotBeOpened() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let error = #expect(throws: StoreError.self) {
      _ = try open(dir.path + "/missing/store.sqlite")
    }
    #expect(error?.code == .cannotOpen)
  }

  // MARK: Hostile files

  /// A file that is not SQLite (here JSON) is refused with a typed error, and left unchanged.
  @Test func aFileThatIsNotSQLiteIsRefused() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let bytes = Array(String(repeating: "{\"not\": \"a database\"}\n", count: 300).utf8)
    _ = FileManager.default.createFile(atPath: dir.databasePath, contents: Data(bytes))
    let error = #expect(throws: StoreError.self) { _ = try open(dir.databasePath) }
    #expect(error?.code == .notADatabase)
    #expect(FileManager.default.contents(atPath: dir.databasePath) == Data(bytes))
  }

  /// A database cut short (the first half of its pages) gives a typed error when opened or
  /// read, never a crash or a silently empty table.
  @Test func aTruncatedDatabaseGivesATypedError() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let source = dir.path + "/source.sqlite"
    do {
      let database = try open(source)
      try database.migrate(steps)
      try database.write { () throws(StoreError) in
        for n in 0..<2_000 {
          try database.connection.runCached(
            "INSERT INTO t (n, label) VALUES (?, ?)",
            [.integer(Int64(n)), .text(String(repeating: "x", count: 100))])
        }
      }
      // Everything into the main file, so the copy below is the whole database.
      _ = try database.connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    }
    let whole = try #require(FileManager.default.contents(atPath: source))
    #expect(whole.count > 8 * 4096)
    _ = FileManager.default.createFile(
      atPath: dir.databasePath, contents: whole.prefix(whole.count / 2))
    let error = #expect(throws: StoreError.self) {
      let database = try open(dir.databasePath)
      try database.migrate(steps)
      _ = try database.connection.query("SELECT SUM(length(label)) FROM t") { $0.int64(0) }
    }
    #expect([.corruptDatabase, .notADatabase].contains(error?.code))
  }

  /// A file holding a few bytes of an SQLite header only is not a database either.
  @Test func aHeaderAloneIsNotADatabase() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    _ = FileManager.default.createFile(
      atPath: dir.databasePath, contents: Data("SQLite format 3\u{0}".utf8 + [0x10, 0x00]))
    let error = #expect(throws: StoreError.self) {
      let database = try open(dir.databasePath)
      try database.migrate(steps)
    }
    #expect([.corruptDatabase, .notADatabase].contains(error?.code))
  }

  // MARK: Transactions

  @Test func aTransactionCommitsAllOfItsWrites() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps)
    let inserted = try database.write { () throws(StoreError) -> Int64 in
      try database.connection.run("INSERT INTO t (n) VALUES (1)")
      try database.connection.run("INSERT INTO t (n) VALUES (2)")
      return database.connection.lastInsertRowID
    }
    #expect(inserted == 2)
    #expect(try count(database, "t") == 2)
    #expect(!database.connection.inTransaction)
  }

  /// A body that throws rolls back everything it wrote, and the error reaches the caller as
  /// thrown (the owner's own error type, not the layer's).
  @Test func aTransactionThatThrowsIsRolledBack() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try SQLiteDatabase<OwnerError>(path: dir.databasePath, busyTimeout: .seconds(2))
    try database.connection.run("CREATE TABLE t (n INTEGER NOT NULL)")
    let error = #expect(throws: OwnerError.self) {
      try database.write { () throws(OwnerError) in
        try database.connection.run("INSERT INTO t (n) VALUES (1)")
        throw OwnerError(ownReason: "stop")
      }
    }
    #expect(error == OwnerError(ownReason: "stop"))
    #expect(!database.connection.inTransaction)
    #expect(try database.connection.query("SELECT COUNT(*) FROM t") { $0.int64(0) } == [0])
  }

  /// A constraint failure inside a transaction rolls back the writes before it, and its code
  /// says which rule was broken.
  @Test func aConstraintFailureRollsBackAndIsTyped() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps)
    try database.connection.run("INSERT INTO u (n) VALUES (1)")
    let unique = #expect(throws: StoreError.self) {
      try database.write { () throws(StoreError) in
        try database.connection.run("INSERT INTO t (n) VALUES (5)")
        try database.connection.run("INSERT INTO u (n) VALUES (1)")
      }
    }
    #expect(unique?.code == .uniqueViolation)
    #expect(try count(database, "t") == 0)
    let notNull = #expect(throws: StoreError.self) {
      try database.connection.run("INSERT INTO t (n) VALUES (NULL)")
    }
    #expect(notNull?.code == .constraintViolation)
  }

  @Test func transactionsDoNotNest() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    let error = #expect(throws: StoreError.self) {
      try database.write { () throws(StoreError) in
        try database.write { () throws(StoreError) in }
      }
    }
    #expect(error?.code == .databaseFailure)
    #expect(!database.connection.inTransaction)
  }

  /// A second connection waiting on the write lock past its busy timeout gets `.busy`.
  @Test func aLockHeldPastTheBusyTimeoutIsBusy() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let holder = try open(dir.databasePath)
    try holder.migrate(steps)
    let waiter = try SQLiteDatabase<StoreError>(
      path: dir.databasePath, busyTimeout: .milliseconds(50))
    try holder.begin()
    defer { holder.rollback() }
    let error = #expect(throws: StoreError.self) {
      try waiter.write { () throws(StoreError) in
        try waiter.connection.run("INSERT INTO t (n) VALUES (1)")
      }
    }
    #expect(error?.code == .busy)
  }

  @Test func boundValuesRoundTripByType() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let connection = try open(dir.databasePath).connection
    try connection.run("CREATE TABLE v (a, b, c, d, e, f)")
    let values: [SQLValue] = [
      .null, .integer(-42), .real(1.5), .text("a\u{0}b é"), .blob([0, 1, 255]), .blob([]),
    ]
    try connection.run("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)", values)
    #expect(try connection.query("SELECT * FROM v") { $0.values() } == [values])
    let wrongCount = #expect(throws: StoreError.self) {
      try connection.run("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)", [.null])
    }
    #expect(wrongCount?.code == .databaseFailure)
  }

  // MARK: Migrations

  /// A new file runs every step in order, in one transaction, and records the version.
  @Test func migrationsRunInOrderAndRecordTheVersion() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    #expect(try database.schemaVersion() == 0)
    #expect(try database.migrate(steps, to: 2) == 2)
    #expect(try database.schemaVersion() == 2)
    try database.connection.run("INSERT INTO t (n, label) VALUES (1, 'one'), (2, 'two')")
    // Step 3's follow-up sees what steps 1 and 2 made and the rows written since.
    #expect(try database.migrate(steps) == 3)
    #expect(
      try database.connection.query("PRAGMA user_version") { $0.int64(0) } == [3])
    #expect(try count(database, "u") == 2)
  }

  /// Migrating again, or opening again, changes nothing.
  @Test func migrationsAreIdempotent() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let database = try open(dir.databasePath)
      #expect(try database.migrate(steps) == 3)
      #expect(try database.migrate(steps) == 3)
      try database.connection.run("INSERT INTO t (n) VALUES (1)")
    }
    let database = try open(dir.databasePath)
    #expect(try database.migrate(steps) == 3)
    #expect(try count(database, "t") == 1)
    // Asking for an older version leaves a newer file as it is.
    #expect(try database.migrate(steps, to: 1) == 3)
  }

  /// A step that fails leaves the file at the version before the migration: every step of
  /// that run is rolled back, not only the failing one.
  @Test func aFailingStepRollsBackTheWholeMigration() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps, to: 1)
    let failing =
      Array(steps.prefix(2)) + [
        SQLiteMigration(version: 3, ["CREATE TABLE u (n INTEGER)", "NOT SQL"])
      ]
    let error = #expect(throws: StoreError.self) { try database.migrate(failing) }
    #expect(error?.code == .databaseFailure)
    #expect(try database.schemaVersion() == 1)
    // Step 2's column is gone with it.
    let columns = try database.connection.query("PRAGMA table_info(t)") { $0.text(1) }
    #expect(columns == ["n"])
  }

  /// A file from a newer version of the code is refused, and left as it is.
  @Test func aFileFromANewerSchemaIsRefused() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    do {
      let database = try open(dir.databasePath)
      try database.migrate(steps)
      try database.connection.run("PRAGMA user_version = 9")
    }
    let database = try open(dir.databasePath)
    let error = #expect(throws: StoreError.self) { try database.migrate(steps) }
    #expect(error?.code == .unsupportedSchemaVersion)
    #expect(try database.schemaVersion() == 9)
  }

  /// The owner's error type carries the layer's code.
  @Test func aNewerSchemaReachesTheOwnerAsItsOwnError() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try SQLiteDatabase<OwnerError>(path: dir.databasePath, busyTimeout: .seconds(1))
    try database.connection.run("PRAGMA user_version = 4")
    let error = #expect(throws: OwnerError.self) {
      try database.migrate([SQLiteMigration(version: 1, ["CREATE TABLE t (n)"])])
    }
    #expect(error?.code == .unsupportedSchemaVersion)
  }

  @Test func misnumberedStepsAndUnknownTargetsAreRefused() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    let gap = #expect(throws: StoreError.self) {
      try database.migrate([steps[0], steps[2]])
    }
    #expect(gap?.code == .invalidArgument)
    let beyond = #expect(throws: StoreError.self) { try database.migrate(steps, to: 4) }
    #expect(beyond?.code == .invalidArgument)
    #expect(try database.schemaVersion() == 0)
  }

  /// The limit holds a file back: it is given the version found under the lock.
  @Test func theLimitHoldsAFileBack() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps, to: 1)
    var seen: [Int] = []
    let reached = try database.migrate(steps) { (found, target) throws(StoreError) -> Int in
      seen.append(found)
      return 2
    }
    #expect(reached == 2)
    #expect(seen == [1])
    #expect(try database.schemaVersion() == 2)
  }

  // MARK: Suspension

  /// A suspended database refuses statements with `.suspended` and holds no file open;
  /// resumed, it works again with its pragmas set.
  @Test func aSuspendedDatabaseRefusesStatementsUntilResumed() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let database = try open(dir.databasePath)
    try database.migrate(steps)
    database.connection.suspension.interrupt()
    database.suspend()
    #expect(!database.connection.isOpen)
    let error = #expect(throws: StoreError.self) {
      try database.connection.run("INSERT INTO t (n) VALUES (1)")
    }
    #expect(error?.code == .suspended)
    try database.resume()
    try database.connection.run("INSERT INTO t (n) VALUES (1)")
    #expect(try database.connection.query("PRAGMA foreign_keys") { $0.int64(0) } == [1])
  }

  // MARK: Authenticated rows

  /// The tag depends on the key, the label, every value and its type, and verifies only itself.
  @Test func rowTagsBindKeyLabelValuesAndTypes() {
    let key = RowAuthenticator(key: Array(repeating: 7, count: 32))
    let other = RowAuthenticator(key: Array(repeating: 8, count: 32))
    let row: [SQLValue] = [.text("id"), .integer(1), .blob([1, 2]), .null]
    let tag = key.tag(label: "rows", row)
    #expect(tag.count == 32)
    #expect(key.verifies(tag, key.tag(label: "rows", row)))
    #expect(!key.verifies(nil, tag))
    #expect(!key.verifies(tag, other.tag(label: "rows", row)))
    #expect(!key.verifies(tag, key.tag(label: "other", row)))
    #expect(
      !key.verifies(tag, key.tag(label: "rows", [.text("id"), .text("1"), .blob([1, 2]), .null])))
    // Lengths are encoded: moving a byte from one column to the next changes the tag.
    #expect(
      key.tag(label: "rows", [.blob([1]), .blob([2, 3])])
        != key.tag(label: "rows", [.blob([1, 2]), .blob([3])]))
  }

  /// The encoding is fixed: wallets hold tags written by earlier versions. The expected value
  /// was computed apart, with Python's `hmac` over the documented encoding.
  @Test func rowTagsKeepTheirEncoding() {
    let key = RowAuthenticator(key: Array(0..<32))
    let tag = key.tag(
      label: "credentials", [.text("a"), .integer(-1), .real(0.5), .null, .blob([])])
    #expect(
      tag.map { String(format: "%02x", $0) }.joined()
        == "0c8019d024e940c47d0b12ab30784d3f542f80741a51079b2f9c413fb732a8c9")
  }
}
