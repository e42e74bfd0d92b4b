package import DCErrors

/// An error of the PostgreSQL layer: what libpq or the server refused, as a code a store can
/// match and map to its own error (``PostgreSQLFailure``), with the server's message in the
/// reason.
package typealias PostgreSQLError = DCError<PostgreSQLErrorCode>

/// What kind of failure of the PostgreSQL layer this is; an extensible set of codes.
package struct PostgreSQLErrorCode: DCErrorCode {
  private let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name (`uniqueViolation`).
  package var description: String { name }

  /// No connection could be made (a wrong URL, the server down, authentication refused), or
  /// libpq is not available on this platform.
  package static let cannotConnect = Self("cannotConnect")
  /// The connection broke during a call (SQLSTATE class 08, or the server shut down, 57P01):
  /// whether a statement sent then was committed is unknown.
  package static let connectionLost = Self("connectionLost")
  /// A row with the same primary key or unique value already exists (SQLSTATE 23505).
  package static let uniqueViolation = Self("uniqueViolation")
  /// A write would break another rule of the schema (SQLSTATE class 23).
  package static let constraintViolation = Self("constraintViolation")
  /// The transaction lost a race and was rolled back: a serialization failure (40001) or a
  /// deadlock (40P01); running it again is safe.
  package static let serializationFailure = Self("serializationFailure")
  /// No pooled connection became free within the wait.
  package static let busy = Self("busy")
  /// A caller-supplied value is unusable (misnumbered migrations, a pool of no connections).
  package static let invalidArgument = Self("invalidArgument")
  /// The database was written by a newer schema version than the caller's migrations know.
  package static let unsupportedSchemaVersion = Self("unsupportedSchemaVersion")
  /// The server refused a statement for another reason (its SQLSTATE is in the reason).
  package static let queryFailed = Self("queryFailed")
}

/// The error a store built on this layer throws: its code type says how a ``PostgreSQLError``
/// becomes one of its own, so the layer's calls throw the store's error (`throws(Failure)`)
/// and the store's row mapping can throw it too. Every ``DCError`` whose code type is a
/// ``PostgreSQLFailureCode`` is one.
package protocol PostgreSQLFailure: Error {
  /// The store's error for a failure of the PostgreSQL layer.
  init(_ error: PostgreSQLError)
  /// The layer's error this one stands for, if it is one; transactions retry a
  /// `.serializationFailure`.
  var postgreSQLError: PostgreSQLError? { get }
}

/// The codes of a store's error, with the mapping from the PostgreSQL layer's errors.
package protocol PostgreSQLFailureCode: DCErrorCode {
  /// The store's error for a failure of the PostgreSQL layer (keeping it as the cause).
  static func failure(for error: PostgreSQLError) -> DCError<Self>
}

extension DCError: PostgreSQLFailure where Code: PostgreSQLFailureCode {
  /// The store's error for a failure of the PostgreSQL layer.
  package init(_ error: PostgreSQLError) { self = Code.failure(for: error) }
  /// The layer's error: this one, or its cause.
  package var postgreSQLError: PostgreSQLError? {
    (self as? PostgreSQLError) ?? (underlying as? PostgreSQLError)
  }
}

extension PostgreSQLErrorCode: PostgreSQLFailureCode {
  /// The error itself: a caller may use `PostgreSQLError` as its own.
  package static func failure(for error: PostgreSQLError) -> PostgreSQLError { error }
}
