import DCCrypto
import DCWallet
import DCWalletFixtureTestSupport
import Foundation
import Testing

/// `DeviceKeyStore.importKeys`: the device keys of an issued batch stored at once (one
/// transaction in the software key store, where each commit waits for the disk).
@Suite("Device keys imported as a batch")
struct DeviceKeyBatchImportTests {
  @Test("Every key is stored under its own id, in order, and signs as itself")
  func batch() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let wallet = try Wallet(home: WalletHome(directory: dir.path))
    let keys = try (0..<4).map { _ in try ECPrivateKey(curve: .p256) }
    let ids = try await wallet.keys.importKeys(keys)
    #expect(ids.count == keys.count)
    #expect(Set(ids).count == keys.count)
    for (key, id) in zip(keys, ids) {
      #expect(try await wallet.keys.publicKey(for: id) == key.publicKey)
      let message: [UInt8] = Array("batch".utf8)
      let signature = try await wallet.keys.signer(for: id).signature(for: message)
      #expect(key.publicKey.isValidSignature(signature, for: message))
    }
    #expect(try await wallet.keys.importKeys([]).isEmpty)
  }

  /// A key store without its own batch import: the default imports one by one and removes what
  /// it imported when a key fails.
  final class FailingThirdImport: DeviceKeyStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: ECPrivateKey] = [:]
    private var imports = 0
    var count: Int { lock.withLock { stored.count } }

    func createKey(curve: EllipticCurve) async throws -> (id: String, publicKey: ECPublicKey) {
      let key = try ECPrivateKey(curve: curve)
      return (try await importKey(key), key.publicKey)
    }
    func importKey(_ key: ECPrivateKey) async throws -> String {
      try lock.withLock {
        imports += 1
        guard imports != 3 else { throw WalletStoreError(.keyOperationFailed, "third import") }
        let id = UUID().uuidString
        stored[id] = key
        return id
      }
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
      _ = lock.withLock { stored.removeValue(forKey: id) }
    }
  }

  @Test("The default import leaves nothing behind when one key fails")
  func defaultRollsBack() async throws {
    let store = FailingThirdImport()
    let keys = try (0..<4).map { _ in try ECPrivateKey(curve: .p256) }
    let keyOperationFailedError = await #expect(throws: WalletStoreError.self) {
      try await store.importKeys(keys)
    }
    #expect(keyOperationFailedError?.code == .keyOperationFailed)
    #expect(store.count == 0)
  }
}
