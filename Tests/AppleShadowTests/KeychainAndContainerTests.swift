import AppleShadowFoundation
import CryptoKit
import DCCrypto
import DCIdentityDocumentServicesBridge
import DCTestSupport
import DCWallet
import Foundation
import Security
import Testing

/// `KeychainKeyStore` and `SharedContainer` over the shadow keychain and App Group containers
/// (the software-key path: the shadow Secure Enclave is unavailable, and shadow CryptoKit is
/// declarations only).
@Suite("Apple shadow: keychain key store and shared container")
struct KeychainAndContainerTests {
  func temporaryDirectory() throws -> URL {
    let url = TestScratch.url("appleshadow")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("Without a Secure Enclave a key is a keychain item that signs; delete removes it")
  func softwareKeys() async throws {
    let keychain = ShadowKeychain()
    let store = try WalletStore(path: try temporaryDirectory().appendingPathComponent("w.db").path)
    try await ShadowKeychain.$current.withValue(keychain) {
      let keys = KeychainKeyStore(store: store, accessGroup: "ABCDE12345.com.example.wallet.shared")
      let (id, publicKey) = try await keys.createKey(curve: .p256)
      #expect(keychain.count == 1)
      let signature = try await keys.signer(for: id).signature(for: [1, 2, 3])
      #expect(publicKey.isValidSignature(signature, for: [1, 2, 3]))
      #expect(try await keys.keyAgreement(for: id) != nil)
      try await keys.deleteKey(id: id)
      #expect(keychain.count == 0)
    }
  }

  @Test("The settings key is created once in the keychain and read back after")
  func settingsKey() async throws {
    let keychain = ShadowKeychain()
    let store = try WalletStore(path: try temporaryDirectory().appendingPathComponent("w.db").path)
    try ShadowKeychain.$current.withValue(keychain) {
      let keys = KeychainKeyStore(store: store)
      let first = try keys.settingsAuthenticationKey()
      #expect(first.count == SettingsAuthentication.keyByteCount)
      #expect(try keys.settingsAuthenticationKey() == first)
      #expect(keychain.count == 1)
    }
  }

  @Test("The wallet home is in the App Group container; without the group it is refused")
  func container() throws {
    let shared = SharedContainer(
      appGroup: "group.com.example.wallet", keychainAccessGroup: "ABCDE12345.shared")
    #expect {
      try shared.walletHome()
    } throws: {
      ($0 as? WalletError)?.code == .storage
    }
    let root = try temporaryDirectory()
    let home = try ShadowAppGroups.$containers.withValue(["group.com.example.wallet": root]) {
      try shared.walletHome()
    }
    #expect(home.directory == root.appendingPathComponent("Wallet").path)
  }

  @Test("Opening the shared wallet keeps device keys and the settings key in the keychain")
  func open() async throws {
    let keychain = ShadowKeychain()
    let root = try temporaryDirectory()
    let shared = SharedContainer(
      appGroup: "group.com.example.wallet", keychainAccessGroup: "ABCDE12345.shared")
    let opened = try ShadowKeychain.$current.withValue(keychain) {
      try ShadowAppGroups.$containers.withValue(["group.com.example.wallet": root]) {
        try shared.open(authenticator: ImplicitAuthenticator())
      }
    }
    #expect(keychain.count == 1)  // the settings authentication key
    await opened.suspend()
    try await opened.resume()
    #expect(try await opened.wallet.credentials().isEmpty)
  }
}
