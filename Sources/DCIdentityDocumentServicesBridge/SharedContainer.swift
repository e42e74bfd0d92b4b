// Apple only: the App Group container and keychain access group the app and its provider
// extension share. Device keys are KeychainKeyStore's (CredentialWallet/Store), which creates
// Secure Enclave keys with `.privateKeyUsage` under the access group given here.
#if canImport(Security) && canImport(CryptoKit)
  public import DCWallet
  internal import Foundation
  #if DCWALLET_APPLE_SHADOW
    // Linux only: `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` is an
    // Apple-only Foundation member; the shadow SDK declares it here (Tests/AppleShadow).
    internal import AppleShadowFoundation
  #endif

  /// Where the app and its provider extension (a separate process) find the same wallet: the
  /// store in the App Group container, device keys in the shared keychain access group.
  ///
  /// A Secure Enclave key's access group is fixed when it is created, so the app must use the
  /// shared group from its first key on; a key made elsewhere can never sign in the extension.
  public struct SharedContainer: Sendable, Hashable {
    /// The App Group, `group.…`, in both targets' `com.apple.security.application-groups`.
    public let appGroup: String
    /// The keychain access group, `$(AppIdentifierPrefix)…`, in both targets'
    /// `keychain-access-groups`.
    public let keychainAccessGroup: String
    /// The wallet home's directory inside the container.
    public let directoryName: String

    /// Names the shared locations.
    public init(appGroup: String, keychainAccessGroup: String, directoryName: String = "Wallet") {
      self.appGroup = appGroup
      self.keychainAccessGroup = keychainAccessGroup
      self.directoryName = directoryName
    }

    /// The wallet home in the App Group container.
    ///
    /// - Throws: `storage` when the process has no such App Group (the entitlement is missing).
    package func walletHome() throws(WalletError) -> WalletHome {
      guard
        let container = FileManager.default.containerURL(
          forSecurityApplicationGroupIdentifier: appGroup)
      else {
        throw WalletError(
          .storage, "no App Group container \(appGroup): check the application-groups entitlement")
      }
      return WalletHome(
        directory: container.appendingPathComponent(directoryName, isDirectory: true).path)
    }

    /// Opens the shared wallet with Secure Enclave device keys in the shared access group.
    ///
    /// Keep the result for the life of the process and call its `suspend()` before the process
    /// is suspended: the store is a file in the shared container, and iOS terminates a
    /// suspended process that holds a lock on such a file (0xdead10cc).
    public func open(authenticator: any UserAuthenticator) throws(WalletError) -> SharedWallet {
      let home = try walletHome()
      let keyStore: WalletStore
      let keys: KeychainKeyStore
      let settingsKey: [UInt8]
      do {
        try home.create()
        keyStore = try WalletStore(path: home.databasePath)
        keys = KeychainKeyStore(store: keyStore, accessGroup: keychainAccessGroup)
        // Trust anchors and settings are authenticated with a key in the shared keychain group,
        // not one derived from a file in the container (see SettingsAuthentication).
        settingsKey = try keys.settingsAuthenticationKey()
      } catch {
        throw WalletError(.storage, "cannot open the shared wallet store: \(error)")
      }
      let wallet = try Wallet(
        home: home, keys: keys, settingsKey: settingsKey, authenticator: authenticator)
      return SharedWallet(wallet: wallet, keyStore: keyStore)
    }
  }

  /// The wallet in the App Group container, with the two store connections it holds (the
  /// wallet's and its device keys'), so that both are suspended and resumed together.
  public final class SharedWallet: Sendable {
    /// The wallet.
    public let wallet: Wallet
    private let keyStore: WalletStore

    init(wallet: Wallet, keyStore: WalletStore) {
      self.wallet = wallet
      self.keyStore = keyStore
    }

    /// Interrupts any transaction and closes both store connections, so the process holds no
    /// file lock in the shared container while suspended (`WalletStore.suspend()`, tested on
    /// Linux). Call it when the scene moves to the background, inside a background task.
    public func suspend() async {
      await wallet.store.suspend()
      await keyStore.suspend()
    }

    /// Opens both connections again (`WalletStore.resume()`); call it when the scene becomes
    /// active.
    public func resume() async throws(WalletStoreError) {
      try await wallet.store.resume()
      try await keyStore.resume()
    }
  }
#endif
