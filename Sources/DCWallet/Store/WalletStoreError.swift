/// An error from the wallet's storage: an extensible code clients can match, and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the swift-certificates convention, as in `CryptoError`).
public struct WalletStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    /// The code's name (`duplicateID`).
    public var description: String { name }

    /// The database file could not be opened or created.
    public static let cannotOpen = Code("cannotOpen")
    /// Another process held the database past the busy timeout.
    public static let busy = Code("busy")
    /// A record with the same identifier already exists; nothing was written.
    package static let duplicateID = Code("duplicateID")
    /// A write would break a rule of the schema (a missing or still-referenced row, a bad value).
    package static let constraintViolation = Code("constraintViolation")
    /// No record has the given identifier.
    public static let notFound = Code("notFound")
    /// A caller-supplied value is unusable (an empty identifier, a negative limit).
    package static let invalidArgument = Code("invalidArgument")
    /// A stored row cannot be read back (an unknown format, malformed JSON, a bad key).
    public static let corruptRecord = Code("corruptRecord")
    /// A row that decides security (a trust anchor, a setting) has no authentication tag or a
    /// wrong one: it was written without the key-encryption key (tampered, or before schema 4).
    public static let unauthenticatedRecord = Code("unauthenticatedRecord")
    /// The database was written by a newer schema version than this code knows.
    package static let unsupportedSchemaVersion = Code("unsupportedSchemaVersion")
    /// SQLite reported an error that has no more specific code.
    public static let databaseFailure = Code("databaseFailure")
    /// A file or directory of the wallet home could not be created, read or written.
    package static let fileSystemFailure = Code("fileSystemFailure")
    /// The key-encryption key file is readable by other users, or not owned by this user.
    package static let insecureKeyFile = Code("insecureKeyFile")
    /// The key-encryption key file has the wrong size or is not a regular file.
    package static let invalidKeyFile = Code("invalidKeyFile")
    /// A wrapped private key did not decrypt: a wrong key-encryption key, or tampered bytes.
    package static let keyUnwrapFailed = Code("keyUnwrapFailed")
    /// A key could not be created, imported or used.
    package static let keyOperationFailed = Code("keyOperationFailed")
    /// A transaction handle was used after its transaction ended.
    package static let transactionClosed = Code("transactionClosed")
    /// The store is suspended (`WalletStore.suspend()`): the call was interrupted or refused,
    /// nothing it wrote was committed. Call `WalletStore.resume()` first.
    public static let suspended = Code("suspended")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String

  /// Creates an error with a code and a reason.
  public init(_ code: Code, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  /// `WalletStoreError.<code>: <reason>`.
  public var description: String { "WalletStoreError.\(code): \(reason)" }
}
