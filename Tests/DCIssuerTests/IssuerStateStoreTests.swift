import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCStore
import DCTestSupport
import Foundation
import Testing

/// Both state stores behave alike: single-use take, expiry, insert-if-absent, order, purge.
@Suite("Issuer state stores")
struct IssuerStateStoreTests {
  enum Kind: String, CaseIterable { case memory, sqlite }

  static func makeStore(_ kind: Kind) throws -> (any IssuerStateStore, URL?) {
    switch kind {
    case .memory: return (InMemoryIssuerStateStore(), nil)
    case .sqlite:
      let directory = TestScratch.url("issuer-store")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      return (
        try SQLiteIssuerStateStore(path: directory.appendingPathComponent("s.db").path), directory
      )
    }
  }

  let now = Date(timeIntervalSince1970: 1_760_000_000)

  @Test("take returns a record once; an expired one never", arguments: Kind.allCases)
  func takeOnce(kind: Kind) throws {
    let (store, directory) = try Self.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    try store.upsert(
      IssuerStateRecord(kind: .authorizationCode, key: "c1", value: ["a": 1], expiresAt: now + 60))
    try store.upsert(
      IssuerStateRecord(kind: .authorizationCode, key: "old", value: ["a": 2], expiresAt: now - 1))
    #expect(try store.find(.authorizationCode, "c1", now: now)?.value == ["a": 1])
    #expect(try store.take(.authorizationCode, "c1", now: now)?.value == ["a": 1])
    #expect(try store.take(.authorizationCode, "c1", now: now) == nil)
    #expect(try store.find(.authorizationCode, "old", now: now) == nil)
    #expect(try store.take(.authorizationCode, "old", now: now) == nil)
    // Kinds are separate key spaces.
    try store.upsert(IssuerStateRecord(kind: .cNonce, key: "k", value: [:]))
    #expect(try store.find(.accessToken, "k", now: now) == nil)
    #expect(try store.find(.cNonce, "k", now: now + 1e9) != nil)
  }

  @Test(
    "insertIfAbsent refuses a live duplicate and replaces an expired one", arguments: Kind.allCases)
  func insertIfAbsent(kind: Kind) throws {
    let (store, directory) = try Self.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    let record = IssuerStateRecord(kind: .dpopNonce, key: "n", value: [:], expiresAt: now + 10)
    #expect(try store.insertIfAbsent(record, now: now))
    #expect(try !store.insertIfAbsent(record, now: now + 5))
    #expect(try store.insertIfAbsent(record, now: now + 11))
    // The DPoP replay store view.
    #expect(store.insertIfAbsent("jkt.jti", expiry: now + 10, now: now))
    #expect(!store.insertIfAbsent("jkt.jti", expiry: now + 10, now: now + 1))
    #expect(store.insertIfAbsent("jkt.jti", expiry: now + 20, now: now + 10))
  }

  @Test(
    "upsert replaces; records lists live records oldest first; purge deletes expired",
    arguments: Kind.allCases)
  func listAndPurge(kind: Kind) throws {
    let (store, directory) = try Self.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    for (index, key) in ["b", "a", "c"].enumerated() {
      try store.upsert(
        IssuerStateRecord(
          kind: .notification, key: key, value: ["i": .integer(Int64(index))],
          expiresAt: key == "c" ? now - 1 : nil))
    }
    try store.upsert(IssuerStateRecord(kind: .notification, key: "b", value: ["i": 9]))
    #expect(try store.records(.notification, now: now).map(\.key) == ["b", "a"])
    #expect(try store.find(.notification, "b", now: now)?.value == ["i": 9])
    try store.purgeExpired(now: now)
    try store.remove(.notification, "a")
    #expect(try store.records(.notification, now: now - 100).map(\.key) == ["b"])
  }

  @Test("The SQLite store keeps state across connections, and one of two takers wins")
  func sqlitePersistence() throws {
    let directory = TestScratch.url("issuer-store")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.db").path
    let first = try SQLiteIssuerStateStore(path: path)
    try first.upsert(
      IssuerStateRecord(
        kind: .preAuthorizedCode, key: "code", value: ["tx": "123456"], expiresAt: now + 60))
    let second = try SQLiteIssuerStateStore(path: path)
    #expect(try second.find(.preAuthorizedCode, "code", now: now)?.value == ["tx": "123456"])
    #expect(try first.take(.preAuthorizedCode, "code", now: now) != nil)
    #expect(try second.take(.preAuthorizedCode, "code", now: now) == nil)
  }

  @Test("The router deletes expired state, at most once per purge interval")
  func routerPurges() async throws {
    let fixture = try IssuerFixture()
    let request = fixture.request(.get, .iacas)
    _ = await fixture.handler.handle(request)
    try fixture.store.upsert(
      IssuerStateRecord(
        kind: .cNonce, key: "old", value: [:], expiresAt: fixture.clock.now + 10))
    fixture.clock.advance(30)
    _ = await fixture.handler.handle(request)
    #expect(try fixture.store.records(.cNonce, now: .distantPast).map(\.key) == ["old"])
    fixture.clock.advance(31)
    _ = await fixture.handler.handle(request)
    #expect(try fixture.store.records(.cNonce, now: .distantPast).isEmpty)
  }

  /// The state holds pre-authorized codes, tokens and nonces: the file (and SQLite's `-wal`
  /// and `-shm` files, which take its mode) is readable by its owner only, even in a shared
  /// directory and whatever the umask allows.
  @Test("The SQLite store's files are created readable by their owner only (0600)")
  func ownerOnlyFiles() throws {
    let directory = TestScratch.url("issuer-store")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.db").path
    let store = try SQLiteIssuerStateStore(path: path)
    try store.upsert(IssuerStateRecord(kind: .cNonce, key: "n", value: [:], expiresAt: nil))
    for suffix in ["", "-wal", "-shm"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: path + suffix)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(suffix)")
    }
  }

  /// A file the store wrote before its schema was versioned (tables made with `CREATE TABLE IF
  /// NOT EXISTS`, `user_version` 0) opens with its records, and is then recorded as version 1.
  @Test("A state file from before the schema was versioned opens unchanged")
  func unversionedFileOpens() throws {
    let directory = TestScratch.url("issuer-store")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.db").path
    do {
      // The previous code's statements, verbatim.
      let old = try SQLiteDatabase<StoreError>(path: path, busyTimeout: .seconds(5))
      for statement in Self.unversionedSchema { try old.connection.run(statement) }
      try old.connection.run(
        "INSERT INTO issuer_state (kind, key, value, expires_at) VALUES (?, ?, ?, NULL)",
        [.text(IssuerStateKind.cNonce.rawValue), .text("kept"), .text(#"{"a":1}"#)])
      try old.connection.run(
        "INSERT INTO status_lists (bits, size, created_at) VALUES (2, 16, 1760000000)")
      try old.connection.run(
        """
        INSERT INTO status_entries (credential_id, list_id, idx, status, configuration_id,
          issued_at) VALUES ('c1', 1, 3, 1, 'pid', 1760000000)
        """)
      #expect(try old.schemaVersion() == 0)
    }
    let store = try SQLiteIssuerStateStore(path: path)
    #expect(try store.find(.cNonce, "kept", now: now)?.value == ["a": 1])
    #expect(try store.issuedCredentialStatus(credentialID: "c1")?.index == 3)
    #expect(try store.statusList(id: 1)?.statuses == [3: 1])
    let reopened = try SQLiteDatabase<StoreError>(path: path, busyTimeout: .seconds(5))
    #expect(try reopened.schemaVersion() == 1)
  }

  static let unversionedSchema = [
    """
    CREATE TABLE IF NOT EXISTS issuer_state (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      expires_at REAL,
      UNIQUE (kind, key)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS status_lists (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      bits INTEGER NOT NULL CHECK (bits IN (1, 2, 4, 8)),
      size INTEGER NOT NULL CHECK (size > 0),
      created_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS status_entries (
      credential_id TEXT PRIMARY KEY,
      list_id INTEGER NOT NULL REFERENCES status_lists (id),
      idx INTEGER NOT NULL CHECK (idx >= 0),
      status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 255),
      configuration_id TEXT NOT NULL,
      issued_at REAL NOT NULL,
      UNIQUE (list_id, idx)
    )
    """,
  ]

  @Test("A file that is not SQLite is a typed error, and is left as it is")
  func notADatabase() throws {
    let directory = TestScratch.url("issuer-store")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.db").path
    let contents = Data(String(repeating: "not a database\n", count: 200).utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: contents))
    let error = #expect(throws: IssuerStoreError.self) {
      try SQLiteIssuerStateStore(path: path)
    }
    #expect(error?.code == .cannotOpen)
    #expect(FileManager.default.contents(atPath: path) == contents)
  }

  @Test("A path that cannot be opened is a typed error")
  func cannotOpen() {
    let cannotOpenError = #expect(throws: IssuerStoreError.self) {
      try SQLiteIssuerStateStore(path: "/nonexistent-dir-\(UUID().uuidString)/s.db")
    }
    #expect(cannotOpenError?.code == .cannotOpen)
  }
}
