import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
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

  @Test("A path that cannot be opened is a typed error")
  func cannotOpen() {
    let cannotOpenError = #expect(throws: IssuerStoreError.self) {
      try SQLiteIssuerStateStore(path: "/nonexistent-dir-\(UUID().uuidString)/s.db")
    }
    #expect(cannotOpenError?.code == .cannotOpen)
  }
}
