import Foundation
import Testing

@testable import CredentialWallet

/// Kept statements (`runCached`, `queryCached`) are reset after every call: a query left
/// half-read would otherwise keep its read snapshot, so the connection would not see other
/// connections' writes and no checkpoint could reset the WAL.
@Suite("SQLite kept statements")
struct StatementCacheTests {
  private func open(_ path: String) throws -> SQLiteConnection {
    let connection = try SQLiteConnection(path: path)
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
    #expect(throws: WalletStoreError.self) {
      _ = try reader.queryCached(sql) { (_) throws(WalletStoreError) -> Int64 in
        throw WalletStoreError(.corruptRecord, "stop")
      }
    }

    // Another connection writes and resets the WAL: no reader may hold a snapshot.
    let writer = try open(dir.databasePath)
    try writer.run("INSERT INTO t (n) VALUES (4)")
    let checkpoint = try writer.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
    #expect(checkpoint == [0])  // 0: not blocked by a reader

    // The kept statement runs again, on the current data.
    #expect(try reader.queryCached(sql) { $0.int64(0) } == [1, 2, 3, 4])
    #expect(try reader.queryCached(sql) { $0.int64(0) } == [1, 2, 3, 4])
  }
}
