import DCCrypto
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

/// Issue 13's store side: the ids of issued rows are version 7 UUIDs (time first, so a batch
/// writes at the right edge of each index), the batch's JSON columns are encoded once, and the
/// trust anchors' certificates are parsed once per DER while their tags are checked each time.
@Suite("store write locality")
struct StoreWriteLocalityTests {
  struct FixedRandom: RandomSource {
    let value: UInt8
    func bytes(count: Int) -> [UInt8] { [UInt8](repeating: value, count: count) }
  }

  /// 1_700_000_000.123 s is 0x018bcfe5687b milliseconds.
  static let instant = Date(timeIntervalSince1970: 1_700_000_000.123)

  @Test("a time-ordered id is RFC 9562 version 7: the milliseconds, then version, variant, random")
  func versionSeven() {
    #expect(
      RandomIdentifier.timeOrderedUUID(at: Self.instant, using: FixedRandom(value: 0xFF))
        == "018bcfe5-687b-7fff-bfff-ffffffffffff")
    #expect(
      RandomIdentifier.timeOrderedUUID(at: Self.instant, using: FixedRandom(value: 0))
        == "018bcfe5-687b-7000-8000-000000000000")
    let id = RandomIdentifier.timeOrderedUUID()
    #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
    let bytes = Array(id.utf8)
    #expect(bytes[14] == UInt8(ascii: "7"))
    #expect("89ab".utf8.contains(bytes[19]))
    // Before 1970 (a clock gone wrong) the time bits are zero rather than a trap.
    #expect(
      RandomIdentifier.timeOrderedUUID(
        at: Date(timeIntervalSince1970: -5), using: FixedRandom(value: 0)
      ).hasPrefix("00000000-0000-7"))
  }

  @Test("ids made a millisecond apart sort in time order whatever their random bits")
  func ordering() {
    let later = Self.instant.addingTimeInterval(0.001)
    let first = RandomIdentifier.timeOrderedUUID(at: Self.instant, using: FixedRandom(value: 0xFF))
    let second = RandomIdentifier.timeOrderedUUID(at: later, using: FixedRandom(value: 0))
    #expect(first < second)
    let ids = (0..<1000).map { _ in RandomIdentifier.timeOrderedUUID() }
    #expect(Set(ids).count == ids.count)
    #expect(Set(ids.map { $0.prefix(8) }).count <= 2)  // made within a few milliseconds
  }

  @Test("credentials written together keep their own authority key identifiers and display")
  func batchColumns() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try WalletStore(path: directory.databasePath)
    let first = sampleCredential(id: "a")
    var second = sampleCredential(id: "b")
    second = StoredCredential(
      id: "b", format: second.format, type: second.type, issued: second.issued,
      display: CredentialDisplay(title: "Other"), validFrom: second.validFrom,
      validUntil: second.validUntil, issuerAuthorityKeyIdentifiers: [[0x09]],
      createdAt: second.createdAt)
    let third = sampleCredential(id: "c")
    try await store.insertIssued([first, second, third], session: nil)
    #expect(try await store.credential(id: "a") == first)
    #expect(try await store.credential(id: "b") == second)
    #expect(try await store.credential(id: "c") == third)
  }
}
