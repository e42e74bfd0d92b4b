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

/// A connection configured for the wallet: WAL, foreign keys, a busy timeout, short write
/// transactions taken with `BEGIN IMMEDIATE`, and retries when another process holds the lock.
///
/// Several processes (the app, an iOS app extension, an Android `:dcapi` process) open the same
/// file. WAL lets readers run beside one writer; `BEGIN IMMEDIATE` takes the write lock up
/// front, so a transaction never fails halfway through on a lock it could not upgrade.
final class WalletDatabase {
  let connection: SQLiteConnection
  let busyTimeout: Duration

  /// Opens the file and brings its schema to `targetVersion` (tests ask for older versions).
  init(path: String, busyTimeout: Duration, targetVersion: Int) throws(WalletStoreError) {
    guard busyTimeout >= .zero else {
      throw WalletStoreError(.invalidArgument, "busy timeout must not be negative")
    }
    self.busyTimeout = busyTimeout
    try Self.createOwnerOnlyFile(path)
    connection = try SQLiteConnection(path: path)
    try configure()
    try migrate(to: targetVersion)
  }

  /// Closes the connection so that the process holds no lock on the files: iOS terminates a
  /// suspended process that holds a file lock in a shared (App Group) container, exception
  /// code 0xdead10cc. An open transaction is rolled back; the caller interrupted it first.
  func suspend() {
    connection.close()
  }

  /// Opens the connection again after ``suspend()`` and configures it as `init` did (the busy
  /// handler and the pragmas belong to the connection, not the file).
  func resume() throws(WalletStoreError) {
    guard connection.suspension.isSuspended || !connection.isOpen else { return }
    do throws(WalletStoreError) {
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
  private static func createOwnerOnlyFile(_ path: String) throws(WalletStoreError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd >= 0 {
      close(fd)
    } else if errno != EEXIST {
      throw WalletStoreError(
        .cannotOpen, "cannot create \(path): \(String(cString: strerror(errno)))")
    }
  }

  private func configure() throws(WalletStoreError) {
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    connection.setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
    // Switching to WAL needs a moment of exclusive access; another process opening the same new
    // file at once gets SQLITE_BUSY here, which the retry absorbs. WAL persists in the file.
    let mode = try retrying { () throws(WalletStoreError) -> String? in
      try connection.query("PRAGMA journal_mode=WAL") { $0.text(0) }.first ?? nil
    }
    guard mode?.lowercased() == "wal" else {
      throw WalletStoreError(
        .databaseFailure, "the database refused WAL mode (journal_mode is \(mode ?? "unknown"))")
    }
    try retrying { () throws(WalletStoreError) in
      try connection.run("PRAGMA foreign_keys=ON")
      // FULL: a commit survives power loss too, not only a killed process.
      try connection.run("PRAGMA synchronous=FULL")
    }
  }

  /// The schema version recorded in the file (`PRAGMA user_version`).
  func schemaVersion() throws(WalletStoreError) -> Int {
    try retrying { () throws(WalletStoreError) -> Int in
      Int(try connection.query("PRAGMA user_version") { $0.int64(0) }.first ?? 0)
    }
  }

  private func migrate(to target: Int) throws(WalletStoreError) {
    guard (0...Schema.currentVersion).contains(target) else {
      throw WalletStoreError(.invalidArgument, "no schema version \(target)")
    }
    let seen = try schemaVersion()
    guard seen <= Schema.currentVersion else {
      throw WalletStoreError(
        .unsupportedSchemaVersion,
        "the database has schema version \(seen); this code knows up to \(Schema.currentVersion)")
    }
    guard seen < target else { return }
    try write { () throws(WalletStoreError) in
      // Read again under the write lock: another process may have migrated meanwhile.
      let version = Int(try connection.query("PRAGMA user_version") { $0.int64(0) }.first ?? 0)
      guard version <= Schema.currentVersion else {
        throw WalletStoreError(
          .unsupportedSchemaVersion,
          "the database has schema version \(version); this code knows up to \(Schema.currentVersion)"
        )
      }
      guard version < target else { return }
      for step in (version + 1)...target {
        for statement in Schema.migration(to: step) { try connection.run(statement) }
      }
      // PRAGMA takes no bound parameters; target is a constant of this code, never input.
      try connection.run("PRAGMA user_version = \(target)")
    }
  }

  /// Runs body in a write transaction: all of it commits, or none of it does.
  func write<T>(_ body: () throws(WalletStoreError) -> T) throws(WalletStoreError) -> T {
    try begin()
    let value: T
    do throws(WalletStoreError) {
      value = try body()
    } catch {
      connection.rollbackQuietly()
      throw error
    }
    try commit()
    return value
  }

  /// Takes the write lock (`BEGIN IMMEDIATE`), waiting up to the busy timeout.
  func begin() throws(WalletStoreError) {
    guard !connection.inTransaction else {
      throw WalletStoreError(.databaseFailure, "transactions do not nest")
    }
    try retrying { () throws(WalletStoreError) in try connection.runCached("BEGIN IMMEDIATE") }
  }

  /// Commits, waiting up to the busy timeout; on failure the transaction is rolled back.
  func commit() throws(WalletStoreError) {
    do throws(WalletStoreError) {
      try retrying { () throws(WalletStoreError) in try connection.runCached("COMMIT") }
    } catch {
      connection.rollbackQuietly()
      throw error
    }
  }

  /// Rolls back the open transaction, if any.
  func rollback() { connection.rollbackQuietly() }

  /// Retries work while it fails with `.busy`, until the busy timeout has passed.
  ///
  /// SQLite's own busy handler covers most waits; it is not called in a few cases (another
  /// connection running WAL recovery, changing the journal mode), which this loop covers.
  func retrying<T>(_ work: () throws(WalletStoreError) -> T) throws(WalletStoreError) -> T {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: busyTimeout)
    var pause = 0.002
    while true {
      do throws(WalletStoreError) {
        return try work()
      } catch  where error.code == .busy && clock.now < deadline {
        // Jitter keeps two processes from retrying in lockstep.
        Thread.sleep(forTimeInterval: pause * Double.random(in: 0.5...1.5))
        pause = min(pause * 2, 0.05)
      }
    }
  }
}
