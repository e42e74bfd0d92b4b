import DCErrors
internal import Foundation

/// One step of a schema: the statements that bring a component's tables from `version - 1` to
/// `version`. Steps are never edited once shipped: a change is a new step.
package struct PostgreSQLMigration: Sendable {
  /// The version this step brings the schema to: 1 for the first.
  package let version: Int
  /// The statements, run in order.
  package let statements: [String]

  /// Creates a step.
  package init(version: Int, _ statements: [String]) {
    self.version = version
    self.statements = statements
  }
}

/// A small pool of connections to one PostgreSQL database, shared by a server's handlers:
/// statements with bound values only, transactions that retry when the server rolled them back
/// for a lost race (serialization failure, deadlock), and numbered migrations recorded per
/// component in the table `dc_schema_version`.
///
/// Single use is the database's job: callers write `UPDATE … RETURNING`, `DELETE … RETURNING`,
/// unique constraints and row locks (`SELECT … FOR UPDATE`), never a read then a write in Swift.
package final class PostgreSQLDatabase<Failure: PostgreSQLFailure>: @unchecked Sendable {
  private let url: String
  private let capacity: Int
  private let wait: Duration
  private let condition = NSCondition()
  private var idle: [PostgreSQLConnection<Failure>] = []
  private var openCount = 0

  /// The most times a transaction runs when the server keeps rolling it back for a lost race.
  package static var transactionAttempts: Int { 8 }

  /// Connects once to `url` (so a wrong URL fails here), keeping up to `connections`
  /// connections; a caller waits at most `wait` for a free one.
  ///
  /// - Throws: `.cannotConnect`, `.invalidArgument` for fewer than one connection.
  package init(url: String, connections: Int = 4, wait: Duration = .seconds(10)) throws(Failure) {
    guard connections > 0 else {
      throw Failure(PostgreSQLError(.invalidArgument, "a pool has at least one connection"))
    }
    self.url = url
    self.capacity = connections
    self.wait = wait
    idle = [try PostgreSQLConnection(url: url)]
    openCount = 1
  }

  /// Lends a connection to body, exclusively, and takes it back; a connection that broke is
  /// reset before the next caller gets it.
  package func withConnection<T>(
    _ body: (PostgreSQLConnection<Failure>) throws(Failure) -> T
  ) throws(Failure) -> T {
    let connection = try acquire()
    defer { release(connection) }
    if !connection.isHealthy { connection.reset() }
    return try body(connection)
  }

  /// Runs one statement outside a transaction (it commits by itself).
  @discardableResult
  package func execute(_ sql: String, _ values: [PostgreSQLValue] = []) throws(Failure)
    -> PostgreSQLResult
  {
    try withConnection { (connection) throws(Failure) in try connection.execute(sql, values) }
  }

  /// Runs body in one transaction (`BEGIN` … `COMMIT`): all of it commits, or none does. When
  /// the server rolls it back for a lost race (`.serializationFailure`), body runs again, at
  /// most ``transactionAttempts`` times; so body only talks to the database.
  package func transaction<T>(
    _ body: (PostgreSQLConnection<Failure>) throws(Failure) -> T
  ) throws(Failure) -> T {
    try withConnection { (connection) throws(Failure) -> T in
      var attempt = 1
      while true {
        do throws(Failure) {
          try connection.execute("BEGIN")
          let value = try body(connection)
          try connection.execute("COMMIT")
          return value
        } catch {
          if connection.isHealthy { _ = try? connection.execute("ROLLBACK") }
          guard error.postgreSQLError?.code == .serializationFailure,
            attempt < Self.transactionAttempts
          else { throw error }
          attempt += 1
          Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.005) * Double(attempt))
        }
      }
    }
  }

  /// Brings `component`'s schema to its last step and returns the version it then has.
  ///
  /// The steps a database lacks run in one transaction with the new version recorded in
  /// `dc_schema_version` in the same transaction, under a transaction-scoped advisory lock:
  /// two instances starting at once migrate once, and a migration is all-or-nothing.
  ///
  /// - Throws: `.unsupportedSchemaVersion` for a database written by a newer schema (nothing is
  ///   changed), `.invalidArgument` for misnumbered steps.
  @discardableResult
  package func migrate(_ steps: [PostgreSQLMigration], component: String) throws(Failure) -> Int {
    for (offset, step) in steps.enumerated() where step.version != offset + 1 {
      throw Failure(
        PostgreSQLError(
          .invalidArgument,
          "migration \(offset + 1) is numbered \(step.version): steps are numbered 1, 2, ..."))
    }
    return try transaction { (connection) throws(Failure) -> Int in
      // One lock for every component's migrations (the key is a constant of this code).
      try connection.execute("SELECT pg_advisory_xact_lock(4342018226577171)")
      try connection.execute(
        """
        CREATE TABLE IF NOT EXISTS dc_schema_version (
          component TEXT PRIMARY KEY, version INTEGER NOT NULL CHECK (version >= 0))
        """)
      let found =
        try connection.execute(
          "SELECT version FROM dc_schema_version WHERE component = $1", [.text(component)]
        ).rows.first?.int64(0).map(Int.init) ?? 0
      guard found <= steps.count else {
        throw Failure(
          PostgreSQLError(
            .unsupportedSchemaVersion,
            "\(component) has schema version \(found); this code knows up to \(steps.count)"))
      }
      guard found < steps.count else { return found }
      for step in steps[found...] {
        for statement in step.statements { try connection.execute(statement) }
      }
      try connection.execute(
        """
        INSERT INTO dc_schema_version (component, version) VALUES ($1, $2)
        ON CONFLICT (component) DO UPDATE SET version = excluded.version
        """, [.text(component), .integer(Int64(steps.count))])
      return steps.count
    }
  }

  private func acquire() throws(Failure) -> PostgreSQLConnection<Failure> {
    let deadline = Date().addingTimeInterval(
      Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
    condition.lock()
    while idle.isEmpty && openCount >= capacity {
      guard condition.wait(until: deadline) else {
        condition.unlock()
        throw Failure(PostgreSQLError(.busy, "no database connection became free in time"))
      }
    }
    if let connection = idle.popLast() {
      condition.unlock()
      return connection
    }
    openCount += 1
    condition.unlock()
    do throws(Failure) {
      return try PostgreSQLConnection(url: url)
    } catch {
      condition.lock()
      openCount -= 1
      condition.signal()
      condition.unlock()
      throw error
    }
  }

  private func release(_ connection: PostgreSQLConnection<Failure>) {
    condition.lock()
    idle.append(connection)
    condition.signal()
    condition.unlock()
  }
}
