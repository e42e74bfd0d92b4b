import DCCrypto
import DCIssuer
import DCOpenID4VCI
import DCTestSupport
import Foundation
import Testing

/// A random source that always answers the same bytes: every random probe hits one index.
struct ConstantRandom: RandomSource {
  let byte: UInt8
  func bytes(count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }
}

/// The issuer's status lists in both stores (issue 15): index assignment, transitions, new
/// lists when one is full, atomicity.
@Suite("Issuer status list stores")
struct IssuerStatusListStoreTests {
  typealias Kind = IssuerStateStoreTests.Kind
  let now = Date(timeIntervalSince1970: 1_760_000_000)
  let small = StatusListSettings(bits: 2, size: 16)

  @Test(
    "Every credential gets its own index; a full list opens a new one", arguments: Kind.allCases)
  func uniqueIndices(kind: Kind) throws {
    let (store, directory) = try IssuerStateStoreTests.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    // A constant random source makes every probe collide after the first: the chooser must
    // still find a free index each time, never a used one.
    var seen = Set<[Int]>()
    for number in 0..<40 {
      let random: any RandomSource = number % 2 == 0 ? ConstantRandom(byte: 0) : SecureRandom()
      let record = try store.assignStatusIndex(
        credentialID: "c\(number)", configurationID: "pid", settings: small, now: now,
        random: random)
      #expect(record.status == IssuerStatusValue.valid)
      #expect((0..<16).contains(record.index))
      #expect(seen.insert([record.listID, record.index]).inserted, "index given twice")
    }
    // 40 credentials in lists of 16: three lists, the first two full.
    #expect(Set(seen.map { $0[0] }).count == 3)
    #expect(try store.statusList(id: 1)?.size == 16)
    #expect(try store.issuedCredentialStatuses().map(\.credentialID) == (0..<40).map { "c\($0)" })
    #expect(try store.issuedCredentialStatus(credentialID: "c7")?.configurationID == "pid")
    #expect(try store.issuedCredentialStatus(credentialID: "nope") == nil)
  }

  @Test("Lists of other settings are separate", arguments: Kind.allCases)
  func separateSettings(kind: Kind) throws {
    let (store, directory) = try IssuerStateStoreTests.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    let one = try store.assignStatusIndex(
      credentialID: "a", configurationID: "x", settings: StatusListSettings(bits: 1, size: 8),
      now: now, random: SecureRandom())
    let two = try store.assignStatusIndex(
      credentialID: "b", configurationID: "x", settings: small, now: now, random: SecureRandom())
    #expect(one.listID != two.listID)
    #expect(try store.statusList(id: one.listID)?.bits == 1)
    #expect(try store.statusList(id: two.listID)?.bits == 2)
    #expect(try store.statusList(id: 99) == nil)
  }

  @Test(
    "revoke, suspend, reinstate: INVALID is final; SUSPENDED needs 2 bits", arguments: Kind.allCases
  )
  func transitions(kind: Kind) throws {
    let (store, directory) = try IssuerStateStoreTests.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    let record = try store.assignStatusIndex(
      credentialID: "c", configurationID: "x", settings: small, now: now, random: SecureRandom())
    #expect(
      try store.changeStatus(credentialID: "c", .suspend).status == IssuerStatusValue.suspended)
    #expect(try store.statusList(id: record.listID)?.statuses == [record.index: 2])
    #expect(try store.changeStatus(credentialID: "c", .reinstate).status == IssuerStatusValue.valid)
    #expect(try store.statusList(id: record.listID)?.statuses == [:])
    // Reinstating a valid credential changes nothing.
    #expect(try store.changeStatus(credentialID: "c", .reinstate).status == IssuerStatusValue.valid)
    #expect(try store.changeStatus(credentialID: "c", .revoke).status == IssuerStatusValue.invalid)
    #expect(try store.statusList(id: record.listID)?.values[record.index] == 1)
    for change in [CredentialStatusChange.reinstate, .suspend] {
      let error = #expect(throws: IssuerStoreError.self) {
        try store.changeStatus(credentialID: "c", change)
      }
      #expect(error?.code == .transitionNotAllowed)
    }
    #expect(
      try store.issuedCredentialStatus(credentialID: "c")?.status == IssuerStatusValue.invalid)
    let unknown = #expect(throws: IssuerStoreError.self) {
      try store.changeStatus(credentialID: "other", .revoke)
    }
    #expect(unknown?.code == .unknownCredential)
    // A one-bit list cannot hold SUSPENDED.
    _ = try store.assignStatusIndex(
      credentialID: "b1", configurationID: "x", settings: StatusListSettings(bits: 1, size: 8),
      now: now, random: SecureRandom())
    let oneBit = #expect(throws: IssuerStoreError.self) {
      try store.changeStatus(credentialID: "b1", .suspend)
    }
    #expect(oneBit?.code == .transitionNotAllowed)
    #expect(try store.changeStatus(credentialID: "b1", .revoke).status == IssuerStatusValue.invalid)
  }

  @Test("A duplicate credential id is refused and leaves no list behind", arguments: Kind.allCases)
  func duplicateIsAtomic(kind: Kind) throws {
    let (store, directory) = try IssuerStateStoreTests.makeStore(kind)
    defer { directory.map { try? FileManager.default.removeItem(at: $0) } }
    let settings = StatusListSettings(bits: 1, size: 8)
    for number in 0..<8 {
      _ = try store.assignStatusIndex(
        credentialID: "c\(number)", configurationID: "x", settings: settings, now: now,
        random: SecureRandom())
    }
    // The list is full: assigning "c0" again would open list 2, but the id is taken.
    let error = #expect(throws: IssuerStoreError.self) {
      try store.assignStatusIndex(
        credentialID: "c0", configurationID: "x", settings: settings, now: now,
        random: SecureRandom())
    }
    #expect(error?.code == .duplicateCredential)
    #expect(try store.statusList(id: 2) == nil)
    #expect(try store.issuedCredentialStatuses().count == 8)
  }

  @Test(
    "Settings no list may have are refused",
    arguments: [
      StatusListSettings(bits: 4), StatusListSettings(size: 12), StatusListSettings(size: 0),
      StatusListSettings(timeToLive: 0),
    ])
  func invalidSettings(settings: StatusListSettings) throws {
    let error = #expect(throws: IssuerStoreError.self) {
      try InMemoryIssuerStateStore().assignStatusIndex(
        credentialID: "c", configurationID: "x", settings: settings, now: now,
        random: SecureRandom())
    }
    #expect(error?.code == .invalidSettings)
  }

  @Test("Two SQLite connections assigning at once never share an index")
  func concurrentConnections() async throws {
    let directory = TestScratch.url("issuer-status")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s.db").path
    let stores = [try SQLiteIssuerStateStore(path: path), try SQLiteIssuerStateStore(path: path)]
    let settings = StatusListSettings(bits: 1, size: 32)
    let now = self.now
    let records = try await withThrowingTaskGroup(of: IssuedCredentialStatus.self) { group in
      for number in 0..<96 {
        group.addTask {
          try stores[number % 2].assignStatusIndex(
            credentialID: "c\(number)", configurationID: "x", settings: settings, now: now,
            random: ConstantRandom(byte: UInt8(number % 3)))
        }
      }
      var all: [IssuedCredentialStatus] = []
      for try await record in group { all.append(record) }
      return all
    }
    let places = Set(records.map { "\($0.listID)/\($0.index)" })
    #expect(places.count == 96)
    #expect(Set(records.map(\.listID)).count == 3)
    // The same view from a third connection.
    let third = try SQLiteIssuerStateStore(path: path)
    #expect(try third.issuedCredentialStatuses().count == 96)
  }

  @Test("The index is uniform over the free entries")
  func uniformChoice() throws {
    #expect(StatusIndexChooser.uniform(below: 10, random: ConstantRandom(byte: 0)) == 0)
    #expect(StatusIndexChooser.uniform(below: 1, random: SecureRandom()) == 0)
    var hits = [Int](repeating: 0, count: 4)
    for _ in 0..<400 { hits[StatusIndexChooser.uniform(below: 4, random: SecureRandom())] += 1 }
    #expect(hits.allSatisfy { $0 > 40 })
  }
}
