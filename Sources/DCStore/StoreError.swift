import DCErrors

/// An error of the SQLite layer: what SQLite or the file system refused, as a code a store can
/// match and map to its own error (``SQLiteFailure``), with SQLite's message in the reason.
package struct StoreError: CausedError {
  /// An extensible error code: new codes can be added without breaking clients.
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The database file could not be created or opened (`SQLITE_CANTOPEN`, or the file system
    /// refused it).
    package static let cannotOpen = Code("cannotOpen")
    /// The file is not an SQLite database (`SQLITE_NOTADB`): another kind of file, or one whose
    /// header was overwritten.
    package static let notADatabase = Code("notADatabase")
    /// The database file is malformed (`SQLITE_CORRUPT`), e.g. truncated.
    package static let corruptDatabase = Code("corruptDatabase")
    /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    package static let busy = Code("busy")
    /// The statement was interrupted (`sqlite3_interrupt`), or refused because the connection
    /// is suspended or closed: nothing it wrote was committed.
    package static let suspended = Code("suspended")
    /// A row with the same primary key or unique value already exists; nothing was written.
    package static let uniqueViolation = Code("uniqueViolation")
    /// A write would break another rule of the schema (a foreign key, a CHECK, NOT NULL).
    package static let constraintViolation = Code("constraintViolation")
    /// A caller-supplied value is unusable (a negative timeout, a wrong number of values).
    package static let invalidArgument = Code("invalidArgument")
    /// The database was written by a newer schema version than the caller's migrations know.
    package static let unsupportedSchemaVersion = Code("unsupportedSchemaVersion")
    /// SQLite reported an error that has no more specific code.
    package static let databaseFailure = Code("databaseFailure")

    /// The code's name (`busy`).
    package var description: String { name }
  }

  /// What kind of failure this is.
  package let code: Code
  /// A human-readable explanation, with SQLite's message when it gave one.
  package let reason: String
  /// The error this one wraps, or nil for a root cause.
  package let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  package let file: String
  /// The line where the error was created.
  package let line: UInt

  /// Creates an error with a code and a reason.
  package init(
    _ code: Code, _ reason: String, underlying: (any Error & Sendable)? = nil,
    file: String = #fileID, line: UInt = #line
  ) {
    self.code = code
    self.reason = reason
    self.underlying = underlying
    self.file = file
    self.line = line
  }

  /// `StoreError.<code>: <reason>`.
  package var description: String { causedDescription }

  /// The description, the throw site, and the cause chain, one per line.
  package var debugDescription: String { causedDebugDescription }
}

/// The error a store built on this layer throws: it says how a ``StoreError`` becomes one of its
/// own, so that the layer's calls throw the store's type (`throws(Failure)`) and the store's row
/// mapping can throw it too.
package protocol SQLiteFailure: Error {
  /// The store's error for a failure of the SQLite layer (keeping it as the cause).
  init(_ error: StoreError)
  /// Whether this is a `.busy` failure, which ``SQLiteDatabase/retrying(_:)`` retries.
  var isBusy: Bool { get }
}

extension StoreError: SQLiteFailure {
  /// The error itself: a store may use `StoreError` as its own.
  package init(_ error: StoreError) { self = error }
  /// Whether the code is ``Code/busy``.
  package var isBusy: Bool { code == .busy }
}
