import DCCrypto
import DCJOSE
import DCMdoc
import DCStore
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 13 (dcbench aim): a credential response's device keys, still in memory, are stored
/// with the credentials that bind them in one transaction; per credential the outcome stays
/// exact (a refused credential is reported and neither it nor its key is stored).
@Suite("Issued batch: keys and credentials stored in one transaction")
struct IssuanceBatchStorageTests {
  static let mdl = "org.iso.18013.5.1.mDL"
  static let expected = IssuanceExpectation(
    credentialIssuer: "https://issuer.example", configurationID: "mDL", format: .msoMdoc,
    type: mdl)

  let dir: TemporaryDirectory
  let pki: TestPKI
  let wallet: Wallet

  init() throws {
    dir = try TemporaryDirectory()
    pki = try TestPKI()
    let now = pki.clock
    wallet = try Wallet(home: WalletHome(directory: dir.path), clock: { now })
  }

  /// `count` proof keys and an mdoc bound to each, as a credential response returns them.
  func batch(_ count: Int) throws -> (keys: [ECPrivateKey], payloads: [IssuedCredential.Payload]) {
    let keys = try (0..<count).map { _ in try ECPrivateKey(curve: .p256) }
    let payloads = try keys.map { key in
      IssuedCredential.Payload.msoMdoc(issuerSigned: try pki.issue(deviceKey: key.publicKey).bytes)
    }
    return (keys, payloads)
  }

  func deviceKeyRows() async throws -> Int {
    let rows = try await wallet.store.execute("SELECT count(*) FROM device_keys")
    guard case .integer(let count) = rows.first?.first else { return -1 }
    return Int(count)
  }

  @Test("A refused credential in the middle: the others stored with their keys, it reported")
  func failingCredentialInTheMiddle() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    var (keys, payloads) = try batch(5)
    // The third credential is signed by an issuer the wallet does not trust.
    let stranger = try TestPKI()
    payloads[2] = .msoMdoc(issuerSigned: try stranger.issue(deviceKey: keys[2].publicKey).bytes)
    // §8.3: the order of credentials is not the order of the proofs.
    let result = try await wallet.storeIssuedCredentials(
      payloads, deviceKeys: keys.reversed(), expected: Self.expected, notificationID: "n-1")
    #expect(result.outcomes.count == 5)
    #expect(result.stored.count == 4)
    #expect(result.rejected.map(\.code) == [.untrustedIssuer])
    guard case .failure(let rejection) = result.outcomes[2] else {
      Issue.record("the third outcome is not the refusal")
      return
    }
    #expect(rejection.deviceKeyID.isEmpty)  // its key never reached the key store
    #expect(Set(try await wallet.credentials().map(\.id)) == Set(result.storedIDs))
    // Exactly the four bound keys were stored, each bound by its credential.
    #expect(try await deviceKeyRows() == 4)
    for (index, outcome) in result.outcomes.enumerated() where index != 2 {
      let stored = try outcome.get()
      let keyID = try #require(stored.deviceKeyID)
      #expect(try await wallet.keys.publicKey(for: keyID) == keys[index].publicKey)
    }
    #expect(Set(result.stored.compactMap(\.issuance?.batchID)).count == 1)
  }

  @Test("A write that fails stores nothing of the batch: no credential and no device key")
  func failedWriteLeavesNoKeys() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let first = try batch(1)
    let earlier = try await wallet.storeIssuedCredentials(
      first.payloads, deviceKeys: first.keys, expected: Self.expected, ids: ["taken"])
    #expect(earlier.storedIDs == ["taken"])
    #expect(try await deviceKeyRows() == 1)
    // The third credential's id is taken: its insert fails after the keys were written.
    let (keys, payloads) = try batch(4)
    let invalidInputError = await #expect(throws: WalletError.self) {
      _ = try await wallet.storeIssuedCredentials(
        payloads, deviceKeys: keys, expected: Self.expected, ids: ["a", "b", "taken", "d"])
    }
    #expect(invalidInputError?.code == .invalidInput)
    #expect(try await wallet.credentials().map(\.id) == ["taken"])
    #expect(try await deviceKeyRows() == 1)
  }

  @Test("Two credentials binding the same proof key: the second is refused as a reused key")
  func sameKeyTwice() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try ECPrivateKey(curve: .p256)
    let payloads = try (0..<2).map { _ in
      IssuedCredential.Payload.msoMdoc(issuerSigned: try pki.issue(deviceKey: key.publicKey).bytes)
    }
    let result = try await wallet.storeIssuedCredentials(
      payloads, deviceKeys: [key, key], expected: Self.expected)
    #expect(result.stored.count == 1)
    #expect(result.rejected.map(\.code) == [.deviceKeyReused])
    #expect(try await deviceKeyRows() == 1)
  }

  @Test("The credential is stored exactly as issued, and parses back")
  func storedBytesAsIssued() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let (keys, payloads) = try batch(2)
    let result = try await wallet.storeIssuedCredentials(
      payloads, deviceKeys: keys, expected: Self.expected)
    for (stored, payload) in zip(result.stored, payloads) {
      guard case .msoMdoc(let bytes) = payload else { continue }
      #expect(stored.issued == bytes)
      #expect(try IssuerSigned(bytes: stored.issued).docType == Self.mdl)
    }
  }

  /// A key store that keeps its private keys elsewhere and records each key's row in the
  /// wallet's store, as `KeychainKeyStore` does: the keys are imported first, and deleted again
  /// when the credentials cannot be written.
  final class MemoryKeyStore: DeviceKeyStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: ECPrivateKey] = [:]
    var store: WalletStore?
    var count: Int { lock.withLock { stored.count } }

    func createKey(curve: EllipticCurve) async throws -> (id: String, publicKey: ECPublicKey) {
      let key = try ECPrivateKey(curve: curve)
      return (try await importKey(key), key.publicKey)
    }
    func importKey(_ key: ECPrivateKey) async throws -> String {
      let id = UUID().uuidString
      try await store?.insertDeviceKey(
        DeviceKeyRow(
          id: id, curve: key.curve.rawValue, publicKey: key.publicKey.x963Representation,
          protection: "keychain", wrappedPrivateKey: nil, createdAt: Date()))
      lock.withLock { stored[id] = key }
      return id
    }
    func signer(for id: String) async throws -> any Signer {
      guard let key = lock.withLock({ stored[id] }) else {
        throw WalletStoreError(.notFound, "no key \(id)")
      }
      return key
    }
    func publicKey(for id: String) async throws -> ECPublicKey {
      try await signer(for: id).publicKey
    }
    func deleteKey(id: String) async throws {
      guard try await store?.removeDeviceKey(id: id) ?? true else { return }
      _ = lock.withLock { stored.removeValue(forKey: id) }
    }
  }

  @Test("Another key store: keys of verified credentials imported, removed when the write fails")
  func otherKeyStore() async throws {
    defer { dir.remove() }
    let keyStore = MemoryKeyStore()
    let now = pki.clock
    let home = WalletHome(directory: dir.path + "/other")
    let wallet = try Wallet(home: home, keys: keyStore, clock: { now })
    keyStore.store = wallet.store
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    var (keys, payloads) = try batch(3)
    payloads[1] = .msoMdoc(issuerSigned: try TestPKI().issue(deviceKey: keys[1].publicKey).bytes)
    let result = try await wallet.storeIssuedCredentials(
      payloads, deviceKeys: keys, expected: Self.expected, ids: ["x", "y", "z"])
    #expect(result.storedIDs == ["x", "z"])
    #expect(keyStore.count == 2)
    // A failing write: the keys just imported for it are deleted again.
    let (more, morePayloads) = try batch(2)
    let invalidInputError = await #expect(throws: WalletError.self) {
      _ = try await wallet.storeIssuedCredentials(
        morePayloads, deviceKeys: more, expected: Self.expected, ids: ["w", "x"])
    }
    #expect(invalidInputError?.code == .invalidInput)
    #expect(keyStore.count == 2)
  }
}
