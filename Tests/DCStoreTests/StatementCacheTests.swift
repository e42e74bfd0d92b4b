import DCErrors
import DCStore
import Foundation
import Testing

/// Kept statements (`runCached`, `queryCached`) are reset after every call: a query left
/// half-read would otherwise keep its read snapshot, so the connection would not see other
/// connections' writes and no checkpoint could reset the WAL.
@Suite("SQLite kept statements")
struct StatementCacheTests {
  private func open(_ path: String) throws -> SQLiteConnection<StoreError> {
    let connection = try SQLiteConnection<StoreError>(path: path)
    _ = try connection.query("PRAGMA journal_mode=WAL") { $0.text(0) }
    return connection
  }

  @Test func aKeptQueryHoldsNoSnapshotAfterAnErrorOrBetweenCalls() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let reader = try open(dir.databasePath)
    try reader.run("CREATE TABLE t (n INTEGER NOT NULL)")
    for n in 1...3 { try reader.runCached("INSERT INTO t (n) VALUES (?)", [.integer(Int64(n))]) }
    let sql = "SELECT n FROM t ORDER BY n"

    // The row mapping throws on the first of three rows: the statement stops mid-way.
    let rowError = #expect(throws: StoreError.self) {
      _ = try reader.queryCached(sql) { (_) throws(StoreError) -> Int64 in
        throw StoreError(.invalidArgument, "stop")
      }
    }
    #expect(rowError?.code == .invalidArgument)

    // Another connection writes and resets the WAL: no reader may hold a snapshot.
    let writer = try open(dir.databasePath)
    try writer.run("INSERT INTO t (n) VALUES (4)")
    let checkpoint = try writer.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    #expect(checkpoint == [0])  // 0: not blocked by a reader

    // The kept statement runs again, on the current data.
    #expect(try reader.queryCached(sql) { $0.int64(0) } == [1, 2, 3, 4])
    #expect(try reader.queryCached(sql) { $0.int64(0) } == [1, 2, 3, 4])
  }

  /// A connection with kept statements is released, and closes its files, when its last user
  /// lets go of it (a statement pointing back at its connection would be a cycle: each store
  /// opened would leave three descriptors open until the process ends).
  @Test func aConnectionWithKeptStatementsIsReleasedAndClosesItsFiles() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    weak var released: SQLiteConnection<StoreError>?
    do {
      let connection = try open(dir.databasePath)
      try connection.run("CREATE TABLE t (n INTEGER NOT NULL)")
      try connection.runCached("INSERT INTO t (n) VALUES (?)", [.integer(1)])
      #expect(try connection.queryCached("SELECT n FROM t") { $0.int64(0) } == [1])
      released = connection
      #expect(Self.openDescriptors(under: dir.path) > 0 || !Self.canListDescriptors)
    }
    #expect(released == nil)
    #expect(Self.openDescriptors(under: dir.path) == 0)
  }

  private static let canListDescriptors = FileManager.default.fileExists(atPath: "/proc/self/fd")

  /// How many of this process's descriptors name a file under the directory (Linux `/proc`;
  /// zero where it cannot be listed).
  private static func openDescriptors(under directory: String) -> Int {
    let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.count { fd in
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
      return target?.hasPrefix(resolved) ?? false
    }
  }
}
