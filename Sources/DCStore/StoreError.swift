package import DCErrors

/// An error of the SQLite layer: what SQLite or the file system refused, as a code a store can
/// match and map to its own error (``SQLiteFailure``), with SQLite's message in the reason.
package typealias StoreError = DCError<StoreErrorCode>

/// What kind of failure of the SQLite layer this is; an extensible set of codes.
package struct StoreErrorCode: DCErrorCode {
  private let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name (`busy`).
  package var description: String { name }

  /// The database file could not be created or opened (`SQLITE_CANTOPEN`, or the file system
  /// refused it).
  package static let cannotOpen = Self("cannotOpen")
  /// The file is not an SQLite database (`SQLITE_NOTADB`): another kind of file, or one whose
  /// header was overwritten.
  package static let notADatabase = Self("notADatabase")
  /// The database file is malformed (`SQLITE_CORRUPT`), e.g. truncated.
  package static let corruptDatabase = Self("corruptDatabase")
  /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
  package static let busy = Self("busy")
  /// The statement was interrupted (`sqlite3_interrupt`), or refused because the connection
  /// is suspended or closed: nothing it wrote was committed.
  package static let suspended = Self("suspended")
  /// A row with the same primary key or unique value already exists; nothing was written.
  package static let uniqueViolation = Self("uniqueViolation")
  /// A write would break another rule of the schema (a foreign key, a CHECK, NOT NULL).
  package static let constraintViolation = Self("constraintViolation")
  /// A caller-supplied value is unusable (a negative timeout, a wrong number of values).
  package static let invalidArgument = Self("invalidArgument")
  /// The database was written by a newer schema version than the caller's migrations know.
  package static let unsupportedSchemaVersion = Self("unsupportedSchemaVersion")
  /// SQLite reported an error that has no more specific code.
  package static let databaseFailure = Self("databaseFailure")
}

/// The error a store built on this layer throws: its code type says how a ``StoreError`` becomes
/// one of its own, so that the layer's calls throw the store's error (`throws(Failure)`) and the
/// store's row mapping can throw it too. Every ``DCError`` whose code type is a
/// ``SQLiteFailureCode`` is one.
package protocol SQLiteFailure: Error {
  /// The store's error for a failure of the SQLite layer.
  init(_ error: StoreError)
  /// Whether this is a `.busy` failure, which ``SQLiteDatabase/retrying(_:)`` retries.
  var isBusy: Bool { get }
}

/// The codes of a store's error, with the mapping from the SQLite layer's errors.
package protocol SQLiteFailureCode: DCErrorCode {
  /// The store's error for a failure of the SQLite layer (keeping it as the cause if useful).
  static func failure(for error: StoreError) -> DCError<Self>
  /// Whether `error` is a `.busy` failure of the SQLite layer.
  static func isBusy(_ error: DCError<Self>) -> Bool
}

extension DCError: SQLiteFailure where Code: SQLiteFailureCode {
  /// The store's error for a failure of the SQLite layer.
  package init(_ error: StoreError) { self = Code.failure(for: error) }
  /// Whether this is a `.busy` failure.
  package var isBusy: Bool { Code.isBusy(self) }
}

extension StoreErrorCode: SQLiteFailureCode {
  /// The error itself: a store may use `StoreError` as its own.
  package static func failure(for error: StoreError) -> StoreError { error }
  /// Whether the code is ``StoreErrorCode/busy``.
  package static func isBusy(_ error: StoreError) -> Bool { error.code == .busy }
}
