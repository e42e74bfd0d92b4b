import DCErrors
internal import Foundation

// With PostgreSQLDatabase.swift, the only code of the package that speaks libpq. Everything
// above it sees `PostgreSQLConnection`, `PostgreSQLRow` and its own error type, never a
// `PGresult` or a raw pointer.
#if canImport(CDCPostgreSQL)
  internal import CDCPostgreSQL
#endif

/// A value bound to a `$n` parameter. SQL text never carries values: every value reaches the
/// server as a parameter of `PQexecParams` (PostgreSQL docs, libpq "Command Execution
/// Functions"), so nothing a client sends is ever parsed as SQL.
package enum PostgreSQLValue: Sendable, Hashable {
  case null
  case text(String)
  case integer(Int64)
  case double(Double)
  case boolean(Bool)
}

/// One row of a result, every column in PostgreSQL's text format (nil for NULL).
package struct PostgreSQLRow: Sendable, Hashable {
  /// The columns in select order.
  package let columns: [String?]

  /// Column i as text; nil for NULL or a column that is not there.
  package func text(_ column: Int) -> String? {
    columns.indices.contains(column) ? columns[column] : nil
  }

  /// Whether column i is NULL.
  package func isNull(_ column: Int) -> Bool { text(column) == nil }

  /// Column i as an integer; nil for NULL or text that is not one.
  package func int64(_ column: Int) -> Int64? { text(column).flatMap { Int64($0) } }

  /// Column i as a double (`double precision` text, e.g. `1733420000.25`); nil for NULL.
  package func double(_ column: Int) -> Double? { text(column).flatMap { Double($0) } }

  /// Column i as a boolean (`t` / `f`); nil for NULL.
  package func bool(_ column: Int) -> Bool? {
    switch text(column) {
    case "t": true
    case "f": false
    default: nil
    }
  }
}

/// What a statement returned: its rows and, for INSERT / UPDATE / DELETE, how many rows it
/// touched.
package struct PostgreSQLResult: Sendable {
  /// The rows, in the order the server sent them.
  package let rows: [PostgreSQLRow]
  /// Rows inserted, updated or deleted (`PQcmdTuples`); 0 for other statements.
  package let affectedRows: Int
}

/// One connection to a PostgreSQL server. Not thread-safe by itself: ``PostgreSQLDatabase``
/// lends each connection to one caller at a time. Every call throws the owner's error type,
/// `Failure`.
package final class PostgreSQLConnection<Failure: PostgreSQLFailure> {
  #if canImport(CDCPostgreSQL)
    private var handle: OpaquePointer?
  #endif

  /// Connects to `url` (`postgresql://user@host:port/db?...`, libpq "Connection URIs").
  ///
  /// - Throws: `.cannotConnect` with libpq's message.
  package init(url: String) throws(Failure) {
    #if canImport(CDCPostgreSQL)
      let connection = PQconnectdb(url)
      guard let connection, PQstatus(connection) == CONNECTION_OK else {
        let message = connection.map { Self.message(PQerrorMessage($0)) } ?? "out of memory"
        PQfinish(connection)
        throw Failure(PostgreSQLError(.cannotConnect, "cannot connect: \(message)"))
      }
      // Server notices (`... already exists, skipping`) are not errors and go to no terminal.
      PQsetNoticeProcessor(connection, { _, _ in }, nil)
      handle = connection
    #else
      throw Failure(PostgreSQLError(.cannotConnect, "libpq is not available on this platform"))
    #endif
  }

  deinit {
    #if canImport(CDCPostgreSQL)
      PQfinish(handle)
    #endif
  }

  /// Whether the connection is usable; a broken one is reset by ``reset()``.
  package var isHealthy: Bool {
    #if canImport(CDCPostgreSQL)
      handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    #else
      false
    #endif
  }

  /// Connects again with the same parameters (`PQreset`), after the server or the network
  /// dropped the connection.
  package func reset() {
    #if canImport(CDCPostgreSQL)
      if let handle { PQreset(handle) }
    #endif
  }

  /// Runs one statement with `values` bound to `$1`, `$2`, ... (text format; the server infers
  /// each parameter's type from its use, so SQL casts where a use is ambiguous) and returns its
  /// rows.
  @discardableResult
  package func execute(_ sql: String, _ values: [PostgreSQLValue] = []) throws(Failure)
    -> PostgreSQLResult
  {
    #if canImport(CDCPostgreSQL)
      guard let handle else {
        throw Failure(PostgreSQLError(.connectionLost, "the connection is closed"))
      }
      let texts: [String?] = values.map(Self.text)
      let result = Self.withCStrings(texts) { pointers in
        PQexecParams(
          handle, sql, Int32(values.count), nil, pointers, nil, nil, 0)
      }
      defer { PQclear(result) }
      try check(result, sql)
      return Self.read(result)
    #else
      throw Failure(PostgreSQLError(.cannotConnect, "libpq is not available on this platform"))
    #endif
  }

  /// A parameter in PostgreSQL's text input format; nil for NULL.
  private static func text(_ value: PostgreSQLValue) -> String? {
    switch value {
    case .null: nil
    case .text(let text): text
    case .integer(let number): String(number)
    // Swift's shortest round-tripping form, which `float8in` reads back to the same bits.
    case .double(let number):
      number.isFinite ? "\(number)" : (number > 0 ? "Infinity" : "-Infinity")
    case .boolean(let flag): flag ? "t" : "f"
    }
  }

  #if canImport(CDCPostgreSQL)
    /// Calls body with NUL-terminated copies of the strings (NULL pointers for nil), valid for
    /// the call only.
    private static func withCStrings<T>(
      _ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> T
    ) -> T {
      let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } }
      defer { for copy in copies { free(copy) } }
      return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// Throws the layer's error for a failed result, by its SQLSTATE (PostgreSQL docs,
    /// Appendix A "PostgreSQL Error Codes").
    private func check(_ result: OpaquePointer?, _ sql: String) throws(Failure) {
      let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
      guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
      let state =
        result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }
        .map { String(cString: $0) } ?? ""
      let message =
        result.map { Self.message(PQresultErrorMessage($0)) }
        ?? handle.map { Self.message(PQerrorMessage($0)) } ?? "no result"
      let reason = "\(sql.prefix(60)): \(message) (SQLSTATE \(state.isEmpty ? "none" : state))"
      let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
      let code: PostgreSQLErrorCode =
        switch state {
        case "23505": .uniqueViolation
        case "40001", "40P01": .serializationFailure
        case _ where state.hasPrefix("23"): .constraintViolation
        case _ where state.hasPrefix("08") || state == "57P01" || lost: .connectionLost
        default: .queryFailed
        }
      throw Failure(PostgreSQLError(code, reason))
    }

    /// The rows of a successful result, in text format.
    private static func read(_ result: OpaquePointer?) -> PostgreSQLResult {
      guard let result else { return PostgreSQLResult(rows: [], affectedRows: 0) }
      let rowCount = PQntuples(result)
      let columnCount = PQnfields(result)
      var rows: [PostgreSQLRow] = []
      rows.reserveCapacity(Int(rowCount))
      for row in 0..<rowCount {
        rows.append(
          PostgreSQLRow(
            columns: (0..<columnCount).map { column in
              PQgetisnull(result, row, column) == 1
                ? nil : String(cString: PQgetvalue(result, row, column))
            }))
      }
      let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
      return PostgreSQLResult(rows: rows, affectedRows: affected)
    }

    private static func message(_ pointer: UnsafePointer<CChar>?) -> String {
      pointer.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }
  #endif
}
