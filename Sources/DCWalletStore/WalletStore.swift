import DCStore
internal import Dispatch
internal import Foundation

/// The wallet's store on SQLite: credentials, device keys, trust anchors, the activity log and
/// settings, in one file that several processes open at once.
///
/// On a phone the app and its request UI (an iOS app extension, an Android `:dcapi` process)
/// share the store, so every write is a short `BEGIN IMMEDIATE` transaction in WAL mode, waiting
/// up to a busy timeout for another process's lock; a committed write survives a process killed
/// at any point. Each call is one transaction: it commits whole or leaves nothing written.
/// Before the process is suspended, call ``suspend()``: it interrupts the running transaction
/// and closes the file, so the process holds no lock while suspended (see ``suspend()``);
/// ``resume()`` opens it again.
///
/// An app reads and changes the wallet's data through `Wallet`, which verifies what it stores
/// (the store stores; it does not verify). It opens a `WalletStore` of its own only for a device
/// key store's connection (`KeychainKeyStore(store:)`, `SoftwareKeyStore(store:)`), on
/// `WalletHome.databasePath`.
///
/// SQLite calls block, so the actor runs on a serial dispatch queue of its own rather than on
/// Swift's cooperative pool.
public actor WalletStore {
  /// The schema version this code creates and migrates to.
  package static let currentSchemaVersion: Int = Schema.currentVersion

  /// The database file, as an absolute path.
  public nonisolated let path: String

  let database: WalletDatabase
  private nonisolated let executor: StoreExecutor
  private nonisolated let suspension: SQLiteSuspension

  /// The serial queue the store's blocking SQLite calls run on.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Opens the store at path (made absolute: a relative path is under the current directory),
  /// creating the file (and its directory) if needed, and migrates the schema to
  /// the current version in one transaction; a file whose credential rows predate their
  /// authentication tags (version 6 and earlier) stays at version 6 until a `Wallet` opens it
  /// with its key and tags them. A store opened this way writes credential rows without tags and
  /// checks none: a wallet reads such rows as unauthenticated.
  ///
  /// - Parameters:
  ///   - path: the database file, e.g. `WalletHome.databasePath`.
  ///   - busyTimeout: how long a call waits for another process's lock before failing with
  ///     `WalletStoreErrorCode.busy`.
  /// - Throws: `WalletStoreError` with `.cannotOpen`, `.busy`, `.unsupportedSchemaVersion` (a
  ///   newer version of the wallet wrote the file) or `.databaseFailure`.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws(WalletStoreError) {
    try self.init(
      path: path, busyTimeout: busyTimeout, schemaVersion: Schema.currentVersion, settings: nil)
  }

  /// Opens the store and migrates only up to schemaVersion (tests build old files with it);
  /// with `settings` (the wallet's key), credential rows are tagged as they are written and
  /// checked as they are read, and rows written before tags existed are adopted once (issue 32,
  /// `LegacyCredentialAdoption`, which asks `issuerChainCheck` whether a legacy row's issuer chain
  /// still validates to an issuer anchor: the wallet decodes credentials, the store does not).
  package init(
    path: String, busyTimeout: Duration = .seconds(5), schemaVersion: Int,
    settings: SettingsAuthentication? = nil,
    issuerChainCheck: @escaping IssuerChainCheck = { _, _, _ in false }
  ) throws(WalletStoreError) {
    // The path made absolute and normal (a relative one is under the current directory; `~` is
    // a name), so the directory made and the file opened are the same.
    let absolute = LocalPath.absoluteLiteral(path) ?? path
    if absolute.hasPrefix("/") {
      try WalletHome.makeDirectory(LocalPath.parent(of: absolute), mode: 0o777, parents: true)
    }
    self.path = absolute
    self.executor = StoreExecutor(label: "WalletStore \(absolute)")
    let adoption = try settings.map { (settings) throws(WalletStoreError) in
      LegacyCredentialAdoption(
        settings: settings, authentication: try CredentialAuthentication(settings: settings),
        issuerChainCheck: issuerChainCheck, now: Date())
    }
    let database = try WalletDatabase(
      path: absolute, busyTimeout: busyTimeout, targetVersion: schemaVersion, adoption: adoption)
    self.database = database
    self.suspension = database.connection.suspension
  }

  // MARK: Suspension

  /// Releases every lock the store holds, before the process is suspended.
  ///
  /// iOS terminates a suspended app or extension that holds a lock on a file in a shared
  /// container (exception code 0xdead10cc), and the store lives in the App Group container. So
  /// the store, as GRDB's `Database.suspend` does: marks itself suspended and interrupts the
  /// statement running on its queue (`sqlite3_interrupt`); the transaction that statement
  /// belongs to fails with ``WalletStoreErrorCode/suspended`` and is rolled back, so nothing
  /// half-written is committed; a wait for another process's lock ends at once. Then the
  /// connection is closed, which releases its locks on the database and its `-shm` file (the last
  /// connection to close also checkpoints the WAL). Until ``resume()``, every call fails with
  /// `.suspended` without touching the file.
  ///
  /// Call it when the app moves to the background (`scenePhase == .background`), inside a
  /// background task so it finishes before the process is suspended. A transaction that
  /// committed before the interruption stays committed.
  public nonisolated func suspend() async {
    suspension.interrupt()
    await closeForSuspension()
  }

  private func closeForSuspension() {
    database.suspend()
  }

  /// Opens the store again after ``suspend()``; calls made after it work as before. Does
  /// nothing when the store is not suspended.
  ///
  /// - Throws: `.cannotOpen` or `.busy` when the file cannot be opened and configured again;
  ///   the store then stays suspended and `resume()` can be tried again.
  public func resume() throws(WalletStoreError) {
    try database.resume()
  }

  /// Whether the store is suspended: from ``suspend()`` until ``resume()``.
  package nonisolated var isSuspended: Bool { suspension.isSuspended }

  /// The schema version recorded in the file.
  package func schemaVersion() throws(WalletStoreError) -> Int {
    try database.schemaVersion()
  }

  // MARK: Credentials

  /// Stores a credential. A duplicate id fails with `.duplicateID`, a `deviceKeyID` not in
  /// `device_keys` with `.constraintViolation`; either way nothing is written.
  package func insert(_ credential: StoredCredential) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.insertCredential(credential)
    }
  }

  /// Stores several credentials in one transaction: all of them, or none.
  package func insert(contentsOf credentials: [StoredCredential]) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      for credential in credentials { try database.connection.insertCredential(credential) }
    }
  }

  /// The credential with this id, or nil.
  package func credential(id: String) throws(WalletStoreError) -> StoredCredential? {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.credential(id: id)
    }
  }

  /// All readable credentials, or those of one format, ordered by `createdAt` then `id`. A row
  /// that cannot be read is skipped; ``credentialListing(format:)`` reports it.
  package func credentials(format: CredentialFormat? = nil) throws(WalletStoreError)
    -> [StoredCredential]
  {
    try credentialListing(format: format).credentials
  }

  /// The readable credentials, or those of one format, and a problem for each row that cannot
  /// be read (an unknown format, malformed JSON): one bad row hides no other.
  package func credentialListing(format: CredentialFormat? = nil) throws(WalletStoreError)
    -> CredentialListing
  {
    try database.retrying { () throws(WalletStoreError) in
      CredentialListing(try database.connection.credentials(format: format))
    }
  }

  /// The readable credentials of one format whose type (docType or vct) is one of `types`, in
  /// creation order; only these rows are read, so matching a request does not load the whole
  /// wallet. A row that cannot be read is skipped (see ``credentialListing(format:types:)``), so
  /// it does not block requests for its type.
  package func credentials(format: CredentialFormat, types: [String]) throws(WalletStoreError)
    -> [StoredCredential]
  {
    try credentialListing(format: format, types: types).credentials
  }

  /// As ``credentials(format:types:)``, with a problem for each row that cannot be read.
  package func credentialListing(format: CredentialFormat, types: [String])
    throws(WalletStoreError) -> CredentialListing
  {
    try database.retrying { () throws(WalletStoreError) in
      CredentialListing(try database.connection.credentials(format: format, types: types))
    }
  }

  /// Records a credential's last known status (nil forgets it); false when no credential has
  /// this id. Only the status columns are written.
  @discardableResult
  package func setLastKnownStatus(_ record: CredentialStatusRecord?, forCredential id: String)
    throws(WalletStoreError) -> Bool
  {
    try database.write { () throws(WalletStoreError) -> Bool in
      try database.connection.setCredentialStatus(record, id: id)
    }
  }

  /// The device key a credential row names: nil when there is no such row, `.some(nil)` when
  /// the row names none. Reads that one column, so it works on a row too damaged to decode.
  func deviceKeyIDOfCredential(id: String) throws(WalletStoreError) -> String?? {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.query(
        "SELECT device_key_id FROM credentials WHERE id = ?", [.text(id)]
      ) { $0.text(0) }.first
    }
  }

  /// Removes a credential; false when no credential has this id.
  package func removeCredential(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) in
      try database.connection.removeCredential(id: id)
    }
  }

  /// Removes a credential and the device key row it names in one transaction; false when no
  /// credential has this id. A key another credential still names is kept. Reads only the
  /// device key column, so a row too damaged to decode can still be removed.
  func removeCredentialAndDeviceKey(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) -> Bool in
      let connection = database.connection
      let rows = try connection.query(
        "SELECT device_key_id FROM credentials WHERE id = ?", [.text(id)]
      ) { $0.text(0) }
      guard let keyID = rows.first else { return false }
      _ = try connection.removeCredential(id: id)
      if let keyID {
        let users = try connection.query(
          "SELECT count(*) FROM credentials WHERE device_key_id = ?", [.text(keyID)]
        ) { $0.int64(0) }.first
        if users == 0 { _ = try connection.removeDeviceKey(id: keyID) }
      }
      return true
    }
  }

  // MARK: Trust anchors

  /// Adds a trust anchor; a duplicate id fails with `.duplicateID`.
  package func addTrustAnchor(_ anchor: TrustAnchorRecord) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.insertTrustAnchor(anchor)
    }
  }

  /// All trust anchors, or those of one role, ordered by `addedAt` then `id`.
  package func trustAnchors(role: TrustRole? = nil) throws(WalletStoreError) -> [TrustAnchorRecord]
  {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.trustAnchors(role: role)
    }
  }

  /// Removes a trust anchor; false when no anchor has this id.
  package func removeTrustAnchor(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) in
      try database.connection.removeTrustAnchor(id: id)
    }
  }

  // MARK: Trusted lists

  /// Adds a trusted list row; a duplicate id fails with `.duplicateID`.
  package func addTrustedList(_ list: TrustedListRecord) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.writeTrustedList(list, replacing: false)
    }
  }

  /// Replaces the row of the list's id (a refreshed list), or adds it.
  package func replaceTrustedList(_ list: TrustedListRecord) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.writeTrustedList(list, replacing: true)
    }
  }

  /// Every trusted list row, oldest first, and a problem for each that cannot be read.
  package func trustedLists() throws(WalletStoreError) -> [Result<TrustedListRecord, StoreProblem>]
  {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.trustedLists()
    }
  }

  /// Removes a trusted list; false when no list has this id.
  package func removeTrustedList(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) in
      try database.connection.removeTrustedList(id: id)
    }
  }

  // MARK: Activity

  /// Appends an entry to the activity log and returns its id.
  @discardableResult
  package func append(_ activity: NewActivity) throws(WalletStoreError) -> Int64 {
    try database.write { () throws(WalletStoreError) in
      try database.connection.appendActivity(activity)
    }
  }

  /// The most recent activity entries, newest first (by timestamp, then id).
  /// Entries that cannot be read are skipped; ``activityListing(limit:)`` reports them.
  package func activities(limit: Int = 100) throws(WalletStoreError) -> [ActivityRecord] {
    try activityListing(limit: limit).records
  }

  /// The most recent entries that can be read, newest first, and a problem for each of the
  /// `limit` newest rows that cannot.
  package func activityListing(limit: Int = 100) throws(WalletStoreError) -> ActivityListing {
    try database.retrying { () throws(WalletStoreError) in
      var records: [ActivityRecord] = []
      var problems: [StoreProblem] = []
      for row in try database.connection.activities(limit: limit) {
        switch row {
        case .success(let record): records.append(record)
        case .failure(let problem): problems.append(problem)
        }
      }
      return ActivityListing(records: records, problems: problems)
    }
  }

  // MARK: Settings

  /// The value of a setting, or nil.
  package func setting(_ key: String) throws(WalletStoreError) -> String? {
    try database.retrying { () throws(WalletStoreError) in try database.connection.setting(key) }
  }

  /// Sets a setting; nil removes it.
  package func setSetting(_ key: String, _ value: String?) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.setSetting(key, value)
    }
  }

  /// A setting with its authentication tag, or nil.
  package func settingRecord(_ key: String) throws(WalletStoreError) -> SettingRecord? {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.settingRecord(key)
    }
  }

  /// Sets a setting with the tag that authenticates it (see `SettingsAuthentication`).
  package func setSetting(_ record: SettingRecord) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.setSetting(
        record.key, record.value, tag: record.authenticationTag)
    }
  }

  // MARK: Transactions

  /// Runs body in one write transaction: everything it writes commits together, or, when it
  /// throws (any error, yours or the store's), nothing is written and the error is rethrown.
  ///
  /// Keep body short and free of I/O: other processes wait for it.
  ///
  /// ```swift
  /// try await store.transaction { tx in
  ///   try tx.insert(credential)
  ///   try tx.append(NewActivity(protocolIdentifier: "import", outcome: .shared))
  /// }
  /// ```
  package func transaction<T: Sendable>(
    _ body: @Sendable (WalletStore.Transaction) throws -> T
  ) throws -> T {
    try database.begin()
    let transaction = Transaction(connection: database.connection)
    defer { transaction.close() }
    let value: T
    do {
      value = try body(transaction)
    } catch {
      database.rollback()
      throw error
    }
    try database.commit()
    return value
  }

  /// The writes and reads available inside ``WalletStore/transaction(_:)``; valid only until
  /// the transaction ends.
  package final class Transaction {
    private var connection: WalletConnection?

    init(connection: WalletConnection) { self.connection = connection }

    func close() { connection = nil }

    private func open() throws(WalletStoreError) -> WalletConnection {
      guard let connection else {
        throw WalletStoreError(.transactionClosed, "the transaction has already ended")
      }
      return connection
    }

    /// Stores a credential (see ``WalletStore/insert(_:)``).
    package func insert(_ credential: StoredCredential) throws(WalletStoreError) {
      try open().insertCredential(credential)
    }

    /// The credential with this id, as this transaction sees it.
    package func credential(id: String) throws(WalletStoreError) -> StoredCredential? {
      try open().credential(id: id)
    }

    /// Removes a credential; false when no credential has this id.
    package func removeCredential(id: String) throws(WalletStoreError) -> Bool {
      try open().removeCredential(id: id)
    }

    /// Adds a trust anchor.
    package func addTrustAnchor(_ anchor: TrustAnchorRecord) throws(WalletStoreError) {
      try open().insertTrustAnchor(anchor)
    }

    /// Appends an activity entry and returns its id.
    @discardableResult
    package func append(_ activity: NewActivity) throws(WalletStoreError) -> Int64 {
      try open().appendActivity(activity)
    }

    /// Sets a setting; nil removes it.
    package func setSetting(_ key: String, _ value: String?) throws(WalletStoreError) {
      try open().setSetting(key, value)
    }

    /// Stores a device key wrapped by `SoftwareKeyStore.wrap(_:)`, so that a credential
    /// inserted in the same transaction can name it.
    package func insert(_ key: WrappedDeviceKey) throws(WalletStoreError) {
      try open().insertDeviceKey(key.row)
    }
  }

  // MARK: Device keys (for DeviceKeyStore implementations)

  func insertDeviceKey(_ key: DeviceKeyRow) throws(WalletStoreError) {
    try database.write { () throws(WalletStoreError) in
      try database.connection.insertDeviceKey(key)
    }
  }

  func deviceKey(id: String) throws(WalletStoreError) -> DeviceKeyRow? {
    try database.retrying { () throws(WalletStoreError) in
      try database.connection.deviceKey(id: id)
    }
  }

  func removeDeviceKey(id: String) throws(WalletStoreError) -> Bool {
    try database.write { () throws(WalletStoreError) in
      try database.connection.removeDeviceKey(id: id)
    }
  }

  /// Runs one statement with bound values; for tests that build or inspect files directly.
  func execute(_ sql: String, _ values: [SQLValue] = []) throws(WalletStoreError) -> [[SQLValue]] {
    try database.retrying { () throws(WalletStoreError) in
      let statement = try database.connection.prepare(sql)
      try statement.bind(values)
      var rows = [[SQLValue]]()
      while try statement.step() { rows.append(statement.values()) }
      return rows
    }
  }
}

/// Runs the store's jobs one at a time on a dispatch queue, off Swift's cooperative pool, whose
/// few threads SQLite's waits for another process's lock would otherwise hold.
final class StoreExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(label: String) { queue = DispatchQueue(label: label) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// A transaction handle is confined to the body it was given to, on the store's queue: it must
/// not cross to another task.
@available(*, unavailable)
extension WalletStore.Transaction: Sendable {}
