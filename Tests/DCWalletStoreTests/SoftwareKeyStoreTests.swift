import DCCrypto
import DCStore
import DCWalletStoreTestSupport
import Foundation
import Testing

@testable import DCWalletStore

@Suite("SoftwareKeyStore")
struct SoftwareKeyStoreTests {
  @Test(arguments: EllipticCurve.allCases)
  func createSignVerify(curve: EllipticCurve) async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let home = WalletHome(directory: dir.path)
    let store = try WalletStore(path: home.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: home.keyEncryptionKeyPath)
    let (id, publicKey) = try await keys.createKey(curve: curve)
    #expect(publicKey.curve == curve)
    #expect(try await keys.publicKey(for: id) == publicKey)
    let signer = try await keys.signer(for: id)
    #expect(signer.publicKey == publicKey)
    let message = Array("device authentication".utf8)
    let signature = try signer.signature(for: message)
    #expect(publicKey.isValidSignature(signature, for: message))
    #expect(!publicKey.isValidSignature(signature, for: message + [0]))
  }

  @Test func importedKeyIsWrappedNotStoredRaw() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let home = WalletHome(directory: dir.path)
    let store = try WalletStore(path: home.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: home.keyEncryptionKeyPath)
    let key = try ECPrivateKey(curve: .p256)
    let id = try await keys.importKey(key)
    #expect(try await keys.publicKey(for: id) == key.publicKey)
    let signer = try await keys.signer(for: id)
    #expect(key.publicKey.isValidSignature(try signer.signature(for: [1, 2, 3]), for: [1, 2, 3]))

    let rows = try await store.execute(
      "SELECT protection, wrapped_private_key FROM device_keys WHERE id = ?", [.text(id)])
    #expect(rows.first?.first == .text("aes-256-gcm-kek"))
    guard case .blob(let wrapped) = rows.first?.last else {
      Issue.record("no wrapped key")
      return
    }
    #expect(wrapped.count == 12 + 32 + 16)
    #expect(!contains(wrapped, key.rawRepresentation))
    let database = try [UInt8](Data(contentsOf: URL(fileURLWithPath: home.databasePath)))
    let log = (try? Data(contentsOf: URL(fileURLWithPath: home.databasePath + "-wal"))) ?? Data()
    let file = database + [UInt8](log)
    #expect(contains(file, wrapped))
    #expect(!contains(file, key.rawRepresentation))

    let kek = try FileManager.default.attributesOfItem(atPath: home.keyEncryptionKeyPath)
    #expect((kek[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect((kek[.size] as? NSNumber)?.intValue == 32)
  }

  @Test func wrongKeyEncryptionKeyFailsTyped() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path + "/kek")
    let (id, _) = try await keys.createKey(curve: .p256)
    let other = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path + "/other-kek")
    let error = await #expect(throws: WalletStoreError.self) { _ = try await other.signer(for: id) }
    #expect(error?.code == .keyUnwrapFailed)
    // The public key needs no unwrapping.
    #expect(try await other.publicKey(for: id) == (try await keys.publicKey(for: id)))
  }

  @Test func wrappedKeyMovedToAnotherIDDoesNotOpen() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path + "/kek")
    let (first, _) = try await keys.createKey(curve: .p256)
    let (second, _) = try await keys.createKey(curve: .p256)
    // Copy the first key's row (wrapped bytes and public key) over the second's: the key id is
    // the associated data, so the move is detected.
    _ = try await store.execute(
      """
      UPDATE device_keys SET (public_key, wrapped_private_key) =
        (SELECT public_key, wrapped_private_key FROM device_keys WHERE id = ?) WHERE id = ?
      """, [.text(first), .text(second)])
    let error = await #expect(throws: WalletStoreError.self) {
      _ = try await keys.signer(for: second)
    }
    #expect(error?.code == .keyUnwrapFailed)
  }

  @Test func groupOrWorldReadableKeyFileIsRefused() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let path = dir.path + "/kek"
    _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
    for mode in [0o644, 0o640, 0o604] {
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
      let error = #expect(throws: WalletStoreError.self) {
        _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
      }
      #expect(error?.code == .insecureKeyFile)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
  }

  @Test func malformedKeyFileIsRefused() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let path = dir.path + "/kek"
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data(repeating: 7, count: 31),
        attributes: [.posixPermissions: 0o600]))
    let error = #expect(throws: WalletStoreError.self) {
      _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
    }
    #expect(error?.code == .invalidKeyFile)
    let directoryError = #expect(throws: WalletStoreError.self) {
      _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path)
    }
    #expect(directoryError?.code == .invalidKeyFile)
    #expect(directoryError?.reason == "\(dir.path) is not a regular file")
  }

  @Test func deleteKey() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path + "/kek")
    let (id, _) = try await keys.createKey(curve: .p256)
    try await store.insert(sampleCredential(id: "bound", deviceKeyID: id))
    // A credential still names the key.
    let inUse = await #expect(throws: WalletStoreError.self) { try await keys.deleteKey(id: id) }
    #expect(inUse?.code == .constraintViolation)
    #expect(try await store.removeCredential(id: "bound"))
    try await keys.deleteKey(id: id)
    let gone = await #expect(throws: WalletStoreError.self) { _ = try await keys.signer(for: id) }
    #expect(gone?.code == .notFound)
    let again = await #expect(throws: WalletStoreError.self) { try await keys.deleteKey(id: id) }
    #expect(again?.code == .notFound)
  }

  @Test func keyAndCredentialAreStoredTogetherOrNotAtAll() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let keys = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: dir.path + "/kek")
    try await store.insert(sampleCredential(id: "taken"))

    let failing = try keys.wrap(try ECPrivateKey(curve: .p256))
    let error = await #expect(throws: WalletStoreError.self) {
      try await store.transaction { tx in
        try tx.insert(failing)
        try tx.insert(sampleCredential(id: "taken", deviceKeyID: failing.id))
      }
    }
    #expect(error?.code == .duplicateID)
    let missing = await #expect(throws: WalletStoreError.self) {
      _ = try await keys.publicKey(for: failing.id)
    }
    #expect(missing?.code == .notFound)

    let privateKey = try ECPrivateKey(curve: .p256)
    let key = try keys.wrap(privateKey)
    try await store.transaction { tx in
      try tx.insert(key)
      try tx.insert(sampleCredential(id: "bound", deviceKeyID: key.id))
    }
    #expect(try await store.credential(id: "bound")?.deviceKeyID == key.id)
    #expect(try await keys.publicKey(for: key.id) == privateKey.publicKey)
    let signer = try await keys.signer(for: key.id)
    #expect(privateKey.publicKey.isValidSignature(try signer.signature(for: [7]), for: [7]))
  }

  private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains {
      haystack[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }
}

@Suite("WalletHome")
struct WalletHomeTests {
  @Test func resolvesExplicitThenEnvironmentThenHome() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let explicit = try WalletHome.resolve(
      explicit: dir.path + "/given", environment: ["DCWALLET_HOME": dir.path + "/env"])
    #expect(explicit.directory == dir.path + "/given")
    let fromEnvironment = try WalletHome.resolve(
      explicit: nil, environment: ["DCWALLET_HOME": dir.path + "/env", "HOME": dir.path])
    #expect(fromEnvironment.directory == dir.path + "/env")
    let fromHome = try WalletHome.resolve(explicit: nil, environment: ["HOME": dir.path])
    #expect(fromHome.directory == dir.path + "/.dcwallet")
    #expect(fromHome.databasePath == dir.path + "/.dcwallet/wallet.sqlite")
    #expect(fromHome.keyEncryptionKeyPath == dir.path + "/.dcwallet/kek")
    for home in [explicit, fromEnvironment, fromHome] {
      let attributes = try FileManager.default.attributesOfItem(atPath: home.directory)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
    // Resolving an existing home again is fine.
    _ = try WalletHome.resolve(explicit: dir.path + "/given")
  }
}
