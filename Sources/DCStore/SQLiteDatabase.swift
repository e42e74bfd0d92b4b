import DCErrors
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Android)
  internal import Android
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// One step of a schema: the statements that bring a file from `version - 1` to `version`, and
/// what else that step does in the same transaction (rewriting rows SQL alone cannot, such as
/// the wallet's row tags). Steps are never edited once shipped: a change is a new step.
package struct SQLiteMigration<Failure: SQLiteFailure> {
  /// The version this step brings the file to: 1 for the first.
  package let version: Int
  /// The statements, run in order.
  package let statements: [String]
  /// Run after the statements, in the same transaction; nil for none.
  package let then: ((SQLiteConnection<Failure>) throws(Failure) -> Void)?

  /// Creates a step.
  package init(
    version: Int, _ statements: [String],
    then: ((SQLiteConnection<Failure>) throws(Failure) -> Void)? = nil
  ) {
    self.version = version
    self.statements = statements
    self.then = then
  }
}

/// A connection configured for several processes sharing one file: created readable only by its
/// owner, WAL, foreign keys, `synchronous=FULL`, a busy timeout, short write transactions taken
/// with `BEGIN IMMEDIATE`, retries when another process holds the lock, and the schema's
/// numbered migrations, the version kept in `PRAGMA user_version`.
///
/// WAL lets readers run beside one writer; `BEGIN IMMEDIATE` takes the write lock up front, so
/// a transaction never fails halfway through on a lock it could not upgrade.
package final class SQLiteDatabase<Failure: SQLiteFailure> {
  /// The connection, for the owner's statements.
  package let connection: SQLiteConnection<Failure>
  /// How long a statement waits for another connection's lock.
  package let busyTimeout: Duration

  /// Creates the file if needed (mode 0600), opens it and configures the connection.
  package init(path: String, busyTimeout: Duration) throws(Failure) {
    guard busyTimeout >= .zero else {
      throw Failure(StoreError(.invalidArgument, "busy timeout must not be negative"))
    }
    self.busyTimeout = busyTimeout
    try Self.createOwnerOnlyFile(path)
    connection = try SQLiteConnection(path: path)
    try configure()
  }

  /// Closes the connection so that the process holds no lock on the files: iOS terminates a
  /// suspended process that holds a file lock in a shared (App Group) container, exception
  /// code 0xdead10cc. An open transaction is rolled back; the caller interrupted it first.
  package func suspend() {
    connection.close()
  }

  /// Opens the connection again after ``suspend()`` and configures it as `init` did (the busy
  /// handler and the pragmas belong to the connection, not the file).
  package func resume() throws(Failure) {
    guard connection.suspension.isSuspended || !connection.isOpen else { return }
    do throws(Failure) {
      try connection.reopen()
      try configure()
    } catch {
      connection.suspension.interrupt()  // stays suspended: no half-configured connection
      connection.close()
      throw error
    }
  }

  /// Creates an empty database file readable only by its owner, unless one exists. SQLite
  /// gives the `-wal` and `-shm` files the database file's mode, so they are private too; an
  /// empty file is a valid empty database. O_EXCL never truncates another process's new file.
  private static func createOwnerOnlyFile(_ path: String) throws(Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd >= 0 {
      close(fd)
    } else if errno != EEXIST {
      throw Failure(
        StoreError(.cannotOpen, "cannot create \(path): \(String(cString: strerror(errno)))"))
    }
  }

  private func configure() throws(Failure) {
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    connection.setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
    // Switching to WAL needs a moment of exclusive access; another process opening the same new
    // file at once gets SQLITE_BUSY here, which the retry absorbs. WAL persists in the file.
    let mode = try retrying { () throws(Failure) -> String? in
      try connection.query("PRAGMA journal_mode=WAL") { $0.text(0) }.first ?? nil
    }
    guard mode?.lowercased() == "wal" else {
      throw Failure(
        StoreError(
          .databaseFailure,
          "the database refused WAL mode (journal_mode is \(mode ?? "unknown"))"))
    }
    try retrying { () throws(Failure) in
      try connection.run("PRAGMA foreign_keys=ON")
      // FULL: a commit survives power loss too, not only a killed process.
      try connection.run("PRAGMA synchronous=FULL")
    }
  }

  /// The schema version recorded in the file (`PRAGMA user_version`).
  package func schemaVersion() throws(Failure) -> Int {
    try retrying { () throws(Failure) -> Int in try recordedVersion() }
  }

  private func recordedVersion() throws(Failure) -> Int {
    Int(try connection.query("PRAGMA user_version") { $0.int64(0) }.first ?? 0)
  }

  /// Brings the schema to `target` (the last step when nil) and returns the version the file
  /// then has.
  ///
  /// A new file runs every step from version 1; an older file runs the steps it lacks, all in
  /// one `BEGIN IMMEDIATE` transaction, with the new version recorded in `PRAGMA user_version`
  /// in the same transaction: a migration is all-or-nothing, and two processes opening an old
  /// file at once migrate it once. A file at or past the target is left as it is.
  ///
  /// - Parameters:
  ///   - steps: the schema, numbered 1, 2, ... in order, without gaps.
  ///   - limit: given the version found under the write lock and the target, the version to
  ///     migrate to (at most the target); the wallet holds some files back.
  /// - Throws: `.unsupportedSchemaVersion` for a file written by a newer schema than `steps`
  ///   knows (nothing is changed), `.invalidArgument` for misnumbered steps or a target
  ///   outside them.
  @discardableResult
  package func migrate(
    _ steps: [SQLiteMigration<Failure>], to target: Int? = nil,
    limit: (_ found: Int, _ target: Int) throws(Failure) -> Int = { (_, target) in target }
  ) throws(Failure) -> Int {
    for (offset, step) in steps.enumerated() where step.version != offset + 1 {
      throw Failure(
        StoreError(
          .invalidArgument,
          "migration \(offset + 1) is numbered \(step.version): steps are numbered 1, 2, ..."))
    }
    let latest = steps.count
    let target = target ?? latest
    guard (0...latest).contains(target) else {
      throw Failure(StoreError(.invalidArgument, "no schema version \(target)"))
    }
    let seen = try schemaVersion()
    try refuseNewer(seen, latest)
    guard seen < target else { return seen }
    return try write { () throws(Failure) -> Int in
      // Read again under the write lock: another process may have migrated meanwhile.
      let version = try recordedVersion()
      try refuseNewer(version, latest)
      let target = min(try limit(version, target), target)
      guard version < target else { return version }
      for step in steps[version..<target] {
        for statement in step.statements { try connection.run(statement) }
        try step.then?(connection)
      }
      // PRAGMA takes no bound parameters; target is a count of the caller's steps, never input.
      try connection.run("PRAGMA user_version = \(target)")
      return target
    }
  }

  private func refuseNewer(_ version: Int, _ latest: Int) throws(Failure) {
    guard version <= latest else {
      throw Failure(
        StoreError(
          .unsupportedSchemaVersion,
          "the database has schema version \(version); this code knows up to \(latest)"))
    }
  }

  /// Runs body in a write transaction: all of it commits, or none of it does.
  package func write<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try begin()
    let value: T
    do throws(Failure) {
      value = try body()
    } catch {
      connection.rollbackQuietly()
      throw error
    }
    try commit()
    return value
  }

  /// Takes the write lock (`BEGIN IMMEDIATE`), waiting up to the busy timeout.
  package func begin() throws(Failure) {
    guard !connection.inTransaction else {
      throw Failure(StoreError(.databaseFailure, "transactions do not nest"))
    }
    try retrying { () throws(Failure) in try connection.runCached("BEGIN IMMEDIATE") }
  }

  /// Commits, waiting up to the busy timeout; on failure the transaction is rolled back.
  package func commit() throws(Failure) {
    do throws(Failure) {
      try retrying { () throws(Failure) in try connection.runCached("COMMIT") }
    } catch {
      connection.rollbackQuietly()
      throw error
    }
  }

  /// Rolls back the open transaction, if any.
  package func rollback() { connection.rollbackQuietly() }

  /// Retries work while it fails with `.busy`, until the busy timeout has passed.
  ///
  /// SQLite's own busy handler covers most waits; it is not called in a few cases (another
  /// connection running WAL recovery, changing the journal mode), which this loop covers.
  package func retrying<T>(_ work: () throws(Failure) -> T) throws(Failure) -> T {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: busyTimeout)
    var pause = 0.002
    while true {
      do throws(Failure) {
        return try work()
      } catch  where error.isBusy && clock.now < deadline {
        // Jitter keeps two processes from retrying in lockstep.
        Thread.sleep(forTimeInterval: pause * Double.random(in: 0.5...1.5))
        pause = min(pause * 2, 0.05)
      }
    }
  }
}
