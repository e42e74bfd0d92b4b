package import DCStore

/// The wallet's database: the SQLite layer's connection (WAL, foreign keys, a busy timeout,
/// `BEGIN IMMEDIATE` write transactions, retries when another process holds the lock), over the
/// wallet's schema (`Schema`).
///
/// Several processes (the app, an iOS app extension, an Android `:dcapi` process) open the same
/// file. WAL lets readers run beside one writer; `BEGIN IMMEDIATE` takes the write lock up
/// front, so a transaction never fails halfway through on a lock it could not upgrade.
typealias WalletDatabase = SQLiteDatabase<WalletStoreError>
/// A connection whose calls throw `WalletStoreError`.
typealias WalletConnection = SQLiteConnection<WalletStoreError>
/// A statement whose calls throw `WalletStoreError`.
typealias WalletStatement = SQLiteStatement<WalletStoreError>

extension WalletDatabase {
  /// Opens the file and brings its schema to `targetVersion` (tests ask for older versions);
  /// with `adoption` (the wallet's key), the migration to version 7 tags the credential rows
  /// written before (issue 32), and the connection tags and checks them from then on.
  convenience init(
    path: String, busyTimeout: Duration, targetVersion: Int,
    adoption: LegacyCredentialAdoption? = nil
  ) throws(WalletStoreError) {
    try self.init(path: path, busyTimeout: busyTimeout)
    let connection = connection
    try migrate(Schema.steps(adoption: adoption), to: targetVersion) {
      (version, target) throws(WalletStoreError) -> Int in
      // Issue 32: credential rows written before version 7 are tagged only with the wallet's
      // key; without it (a bare `WalletStore`), a file holding such rows stays at version 6
      // for a wallet to migrate (`LegacyCredentialAdoption`).
      if adoption == nil, version >= 1, version < 7, target >= 7,
        try Self.holdsCredentials(connection)
      {
        return 6
      }
      return target
    }
    connection.credentialAuthentication = adoption?.authentication
  }

  /// Whether the file holds any credential row.
  private static func holdsCredentials(_ connection: WalletConnection) throws(WalletStoreError)
    -> Bool
  {
    let found = try connection.query("SELECT EXISTS (SELECT 1 FROM credentials)") {
      (row) throws(WalletStoreError) in row.int64(0)
    }
    return found.first == 1
  }
}

extension WalletStoreErrorCode: SQLiteFailureCode {
  /// The wallet's code for a failure of the SQLite layer, with its reason and the cause.
  package static func failure(for error: StoreError) -> WalletStoreError {
    let code: WalletStoreErrorCode =
      switch error.code {
      case .cannotOpen: .cannotOpen
      case .busy: .busy
      case .suspended: .suspended
      case .uniqueViolation: .duplicateID
      case .constraintViolation: .constraintViolation
      case .invalidArgument: .invalidArgument
      case .unsupportedSchemaVersion: .unsupportedSchemaVersion
      default: .databaseFailure
      }
    return WalletStoreError(code, error.reason, underlying: error)
  }

  /// Whether the code is `busy`.
  package static func isBusy(_ error: WalletStoreError) -> Bool { error.code == .busy }
}
