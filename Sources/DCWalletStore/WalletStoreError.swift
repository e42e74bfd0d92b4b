@_exported public import DCErrors

/// An error from the wallet's storage: an extensible code clients can match, a reason, and the
/// SQLite layer's error as its cause when there is one.
public typealias WalletStoreError = DCError<WalletStoreErrorCode>

/// What kind of failure of the wallet's storage this is. Codes are values rather than enum cases
/// so that new failure kinds break no client (the swift-certificates convention).
public struct WalletStoreErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name (`duplicateID`).
  public var description: String { name }

  /// The database file could not be opened or created.
  public static let cannotOpen = Self("cannotOpen")
  /// Another process held the database past the busy timeout.
  public static let busy = Self("busy")
  /// A record with the same identifier already exists; nothing was written.
  package static let duplicateID = Self("duplicateID")
  /// A write would break a rule of the schema (a missing or still-referenced row, a bad value).
  package static let constraintViolation = Self("constraintViolation")
  /// No record has the given identifier.
  public static let notFound = Self("notFound")
  /// A caller-supplied value is unusable (an empty identifier, a negative limit).
  package static let invalidArgument = Self("invalidArgument")
  /// A stored row cannot be read back (an unknown format, malformed JSON, a bad key).
  public static let corruptRecord = Self("corruptRecord")
  /// A row that decides security (a trust anchor, a setting) has no authentication tag or a
  /// wrong one: it was written without the key-encryption key (tampered, or before schema 4).
  public static let unauthenticatedRecord = Self("unauthenticatedRecord")
  /// The database was written by a newer schema version than this code knows.
  package static let unsupportedSchemaVersion = Self("unsupportedSchemaVersion")
  /// SQLite reported an error that has no more specific code.
  public static let databaseFailure = Self("databaseFailure")
  /// A file or directory of the wallet home could not be created, read or written.
  package static let fileSystemFailure = Self("fileSystemFailure")
  /// The key-encryption key file is readable by other users, or not owned by this user.
  package static let insecureKeyFile = Self("insecureKeyFile")
  /// The key-encryption key file has the wrong size or is not a regular file.
  package static let invalidKeyFile = Self("invalidKeyFile")
  /// A wrapped private key did not decrypt: a wrong key-encryption key, or tampered bytes.
  package static let keyUnwrapFailed = Self("keyUnwrapFailed")
  /// A key could not be created, imported or used.
  package static let keyOperationFailed = Self("keyOperationFailed")
  /// A transaction handle was used after its transaction ended.
  package static let transactionClosed = Self("transactionClosed")
  /// The store is suspended (`WalletStore.suspend()`): the call was interrupted or refused,
  /// nothing it wrote was committed. Call `WalletStore.resume()` first.
  public static let suspended = Self("suspended")
}
