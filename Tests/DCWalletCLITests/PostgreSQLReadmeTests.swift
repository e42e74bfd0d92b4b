import DCTestSupport
import Foundation
import Testing

/// The README's "Several instances on one PostgreSQL database" commands run as written against
/// a real PostgreSQL server (issue 31): its ```sh block, with `DATABASE_URL` a fresh database,
/// bash -e in a fresh directory, the built dcwallet first on PATH, bounded in time.
@Suite("README PostgreSQL instances", .enabled(if: PostgreSQLTestServer.shouldRun))
struct PostgreSQLReadmeTests {
  static let heading = "## Several instances on one PostgreSQL database"

  @Test("Two verifier instances on one database: made on A, answered, its result served by B")
  func twoInstancesRun() throws {
    let block = try ReadmeTourTests.shellBlock(under: Self.heading)
    let database = try PostgreSQLTestServer.freshDatabase()
    let (status, out, err) = try ReadmeTourTests.runScript(
      "export DATABASE_URL='\(database)'\n" + block, named: "postgresql", timeLimit: 60)
    #expect(status == 0, "the PostgreSQL block failed:\n\(err)\n\(out)")
    #expect(out.contains(#"{"status":"verified","result":"#))
    #expect(out.contains(#""type":"urn:eudi:pid:1""#))
  }
}
