import DCCrypto
import DCIssuer
import DCJSON
import DCTestSupport
import Foundation
import Testing

/// Where a contract test's stores live: two handles on one SQLite file, or two instances'
/// connection pools on one PostgreSQL database (issue 31).
enum IssuerBackend: String, CaseIterable, Sendable {
  case sqlite, postgresql

  /// Two stores on one fresh database: what two instances share.
  func pair() throws -> (any IssuerStateStore, any IssuerStateStore) {
    switch self {
    case .sqlite:
      let directory = TestScratch.url("issuer-contract")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let path = directory.appendingPathComponent("state.sqlite").path
      return (try SQLiteIssuerStateStore(path: path), try SQLiteIssuerStateStore(path: path))
    case .postgresql:
      let url = try PostgreSQLTestServer.freshDatabase()
      return (try PostgreSQLIssuerStateStore(url: url), try PostgreSQLIssuerStateStore(url: url))
    }
  }
}

/// The contract every shared issuer store keeps, run against SQLite and a real PostgreSQL
/// server: single use across handles, atomic read-modify-write, unique status indices, expiry.
enum IssuerStoreContract: String, CaseIterable, Sendable {
  case singleUse, insertIfAbsent, atomicUpdate, racingTakes, statusIndices, expiry, migrations

  static let now = Date(timeIntervalSince1970: 1_760_000_000)

  func run(_ backend: IssuerBackend) async throws {
    let (a, b) = try backend.pair()
    switch self {
    case .singleUse: try Self.singleUse(a, b)
    case .insertIfAbsent: try Self.insertIfAbsent(a, b)
    case .atomicUpdate: try await Self.atomicUpdate(a, b)
    case .racingTakes: try await Self.racingTakes(a, b)
    case .statusIndices: try await Self.statusIndices(a, b)
    case .expiry: try Self.expiry(a, b)
    case .migrations: try Self.migrations(backend, a)
    }
  }

  static func singleUse(_ a: any IssuerStateStore, _ b: any IssuerStateStore) throws {
    try a.upsert(
      IssuerStateRecord(kind: .authorizationCode, key: "c", value: ["n": 1], expiresAt: now + 60))
    #expect(try b.find(.authorizationCode, "c", now: now)?.value == ["n": 1])
    #expect(try b.take(.authorizationCode, "c", now: now)?.value == ["n": 1])
    #expect(try a.take(.authorizationCode, "c", now: now) == nil)
    // Kinds are separate key spaces.
    try a.upsert(IssuerStateRecord(kind: .cNonce, key: "k", value: [:]))
    #expect(try b.find(.accessToken, "k", now: now) == nil)
    #expect(try b.take(.cNonce, "k", now: now) != nil)
  }

  static func insertIfAbsent(_ a: any IssuerStateStore, _ b: any IssuerStateStore) throws {
    let record = IssuerStateRecord(kind: .dpopProofID, key: "j", value: [:], expiresAt: now + 10)
    #expect(try a.insertIfAbsent(record, now: now))
    #expect(try !b.insertIfAbsent(record, now: now + 5))
    #expect(try b.insertIfAbsent(record, now: now + 11))
    // The DPoP replay view: a jti seen on one instance is refused on the other.
    #expect(a.insertIfAbsent("jkt.jti", expiry: now + 60, now: now))
    #expect(!b.insertIfAbsent("jkt.jti", expiry: now + 60, now: now))
  }

  /// 40 increments from two handles at once: none lost (a find then an upsert would lose some).
  static func atomicUpdate(_ a: any IssuerStateStore, _ b: any IssuerStateStore) async throws {
    try a.upsert(IssuerStateRecord(kind: .preAuthorizedCode, key: "p", value: ["attempts": 0]))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        let store = index.isMultiple(of: 2) ? a : b
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          try store.update(.preAuthorizedCode, "p", now: now) { record in
            let count = record?.value["attempts"]?.int ?? 0
            record?.value = ["attempts": .integer(Int64(count + 1))]
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try a.find(.preAuthorizedCode, "p", now: now)?.value == ["attempts": 40])
    // nil deletes; a missing record stays missing unless change sets one.
    let deleted: Bool = try b.update(.preAuthorizedCode, "p", now: now) { record in
      record = nil
      return true
    }
    #expect(deleted)
    #expect(try a.find(.preAuthorizedCode, "p", now: now) == nil)
    try a.update(.preAuthorizedCode, "absent", now: now) { record in #expect(record == nil) }
    #expect(try a.find(.preAuthorizedCode, "absent", now: now) == nil)
  }

  /// 30 takers on two handles race for one code: exactly one gets it.
  static func racingTakes(_ a: any IssuerStateStore, _ b: any IssuerStateStore) async throws {
    try a.upsert(IssuerStateRecord(kind: .cNonce, key: "once", value: [:], expiresAt: now + 60))
    let winners = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<30 {
        let store = index.isMultiple(of: 2) ? a : b
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          try store.take(.cNonce, "once", now: now) == nil ? 0 : 1
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(winners == 1)
  }

  /// 24 credentials assigned from two handles at once into lists of 16: unique (list, index)
  /// pairs, a second list opened, a duplicate id refused, status changes seen by both.
  static func statusIndices(_ a: any IssuerStateStore, _ b: any IssuerStateStore) async throws {
    let settings = StatusListSettings(bits: 2, size: 16)
    let records = try await withThrowingTaskGroup(of: IssuedCredentialStatus.self) { group in
      for index in 0..<24 {
        let store = index.isMultiple(of: 2) ? a : b
        group.addTask(executorPreference: BlockingTaskExecutor.shared) {
          try store.assignStatusIndex(
            credentialID: "c\(index)", configurationID: "mDL", settings: settings, now: now,
            random: SecureRandom())
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(records.map { "\($0.listID)/\($0.index)" }).count == 24)
    #expect(Set(records.map(\.listID)).count == 2)
    #expect(throws: IssuerStoreError(.duplicateCredential, "")) {
      try b.assignStatusIndex(
        credentialID: "c0", configurationID: "mDL", settings: settings, now: now,
        random: SecureRandom())
    }
    _ = try a.changeStatus(credentialID: "c1", .suspend)
    #expect(try b.issuedCredentialStatus(credentialID: "c1")?.status == 2)
    _ = try b.changeStatus(credentialID: "c1", .revoke)
    #expect(throws: IssuerStoreError(.transitionNotAllowed, "")) {
      try a.changeStatus(credentialID: "c1", .reinstate)
    }
    let c1 = try #require(try a.issuedCredentialStatus(credentialID: "c1"))
    #expect(try b.statusList(id: c1.listID)?.statuses[c1.index] == 1)
    #expect(try a.issuedCredentialStatuses().count == 24)
  }

  static func expiry(_ a: any IssuerStateStore, _ b: any IssuerStateStore) throws {
    try a.upsert(IssuerStateRecord(kind: .offer, key: "old", value: [:], expiresAt: now - 1))
    try a.upsert(IssuerStateRecord(kind: .offer, key: "new", value: [:], expiresAt: now + 60))
    try a.upsert(IssuerStateRecord(kind: .offer, key: "ever", value: [:]))
    #expect(try b.records(.offer, now: now).map(\.key) == ["new", "ever"])
    #expect(try b.take(.offer, "old", now: now) == nil)
    try a.upsert(IssuerStateRecord(kind: .offer, key: "old2", value: [:], expiresAt: now - 1))
    try b.purgeExpired(now: now)
    #expect(try a.records(.offer, now: now - 100).map(\.key) == ["new", "ever"])
  }

  /// Opening a migrated database again changes nothing; so does opening it from many
  /// instances at once.
  static func migrations(_ backend: IssuerBackend, _ a: any IssuerStateStore) throws {
    try a.upsert(IssuerStateRecord(kind: .offer, key: "kept", value: ["v": 1]))
    guard backend == .postgresql else { return }
    let url = try PostgreSQLTestServer.freshDatabase()
    let group = DispatchGroup()
    let failures = LockedCounter()
    for _ in 0..<6 {
      DispatchQueue.global().async(group: group) {
        if (try? PostgreSQLIssuerStateStore(url: url, connections: 1)) == nil { failures.add() }
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(failures.value == 0)
  }
}

final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

@Suite("Issuer store contract (SQLite and PostgreSQL)")
struct IssuerStoreContractTests {
  @Test("on SQLite", arguments: IssuerStoreContract.allCases)
  func sqlite(_ contract: IssuerStoreContract) async throws {
    try await contract.run(.sqlite)
  }

  @Test(
    "on PostgreSQL", .enabled(if: PostgreSQLTestServer.shouldRun),
    .timeLimit(.minutes(1)), arguments: IssuerStoreContract.allCases)
  func postgreSQL(_ contract: IssuerStoreContract) async throws {
    try await contract.run(.postgresql)
  }
}
