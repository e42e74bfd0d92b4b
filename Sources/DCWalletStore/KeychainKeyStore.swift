// Apple platforms only: translation to the Secure Enclave and the keychain, no logic of its own.
// The records it writes to `device_keys` (public key, protection) are the same as on Linux.
#if canImport(Security) && canImport(CryptoKit)
  public import DCCrypto
  internal import CryptoKit
  internal import Foundation
  internal import Security

  /// Device keys in the Secure Enclave (P-256, where the device has one), otherwise in the
  /// keychain, shared through an access group between the app and its extensions.
  ///
  /// The keychain item holds the Secure Enclave key's `dataRepresentation` (an opaque blob only
  /// this device's Secure Enclave can use) or a software key's scalar; the store's
  /// `device_keys` table holds the public key, so credentials can name the key.
  public struct KeychainKeyStore: DeviceKeyStore {
    private enum Kind: UInt8 {
      case secureEnclave = 0
      case software = 1
    }

    private let store: WalletStore
    private let service: String
    private let accessGroup: String?

    /// Keeps keys under service, shared with the given keychain access group if any.
    public init(
      store: WalletStore, service: String = "dcwallet.device-keys", accessGroup: String? = nil
    ) {
      self.store = store
      self.service = service
      self.accessGroup = accessGroup
    }

    /// Creates a key: in the Secure Enclave for P-256 when available, otherwise in software.
    public func createKey(curve: EllipticCurve) async throws -> (
      id: String, publicKey: ECPublicKey
    ) {
      let id = UUID().uuidString.lowercased()
      guard curve == .p256, SecureEnclave.isAvailable else {
        let key = try ECPrivateKey(curve: curve)
        try await save(id: id, kind: .software, secret: key.rawRepresentation, key.publicKey)
        return (id, key.publicKey)
      }
      var error: Unmanaged<CFError>?
      guard
        let access = SecAccessControlCreateWithFlags(
          kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage,
          &error)
      else {
        throw WalletStoreError(
          .keyOperationFailed,
          "cannot create access control: \(String(describing: error?.takeRetainedValue()))")
      }
      let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
      let publicKey = try ECPublicKey(
        x963Representation: key.publicKey.x963Representation, curve: .p256)
      try await save(
        id: id, kind: .secureEnclave, secret: Array(key.dataRepresentation), publicKey)
      return (id, publicKey)
    }

    /// Stores an existing key as a software key in the keychain.
    public func importKey(_ key: ECPrivateKey) async throws -> String {
      let id = UUID().uuidString.lowercased()
      try await save(id: id, kind: .software, secret: key.rawRepresentation, key.publicKey)
      return id
    }

    /// A signer for the key; Secure Enclave keys sign inside the Secure Enclave.
    public func signer(for id: String) async throws -> any Signer {
      let publicKey = try await publicKey(for: id)
      let item = try copyItem(id: id)
      guard let first = item.first, let kind = Kind(rawValue: first) else {
        throw WalletStoreError(.corruptRecord, "keychain item for device key \(id) is malformed")
      }
      let secret = Data(item.dropFirst())
      switch kind {
      case .secureEnclave:
        let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: secret)
        return SecureEnclaveSigner(key: key, publicKey: publicKey)
      case .software:
        return try ECPrivateKey(rawRepresentation: secret, curve: publicKey.curve)
      }
    }

    /// Key agreement for a software key; nil (unsupported) for a Secure Enclave key: it is a
    /// `SecureEnclave.P256.Signing` key, and CryptoKit does ECDH only with a
    /// `SecureEnclave.P256.KeyAgreement` key, so it cannot derive an ISO 18013-5 EMacKey
    /// (§9.1.3.5). The wallet's policy then refuses a deviceMac or falls back to a signature.
    public func keyAgreement(for id: String) async throws -> (any KeyAgreementKey)? {
      let publicKey = try await publicKey(for: id)
      let item = try copyItem(id: id)
      guard let first = item.first, let kind = Kind(rawValue: first) else {
        throw WalletStoreError(.corruptRecord, "keychain item for device key \(id) is malformed")
      }
      switch kind {
      case .secureEnclave:
        return nil
      case .software:
        return try ECPrivateKey(rawRepresentation: Data(item.dropFirst()), curve: publicKey.curve)
      }
    }

    /// The public key recorded in the store.
    public func publicKey(for id: String) async throws -> ECPublicKey {
      guard let row = try await store.deviceKey(id: id),
        let curve = EllipticCurve(jwkName: row.curve)
      else { throw WalletStoreError(.notFound, "no device key \(id)") }
      return try ECPublicKey(x963Representation: row.publicKey, curve: curve)
    }

    /// Deletes the key's record (refused while a credential names it), then its keychain item.
    public func deleteKey(id: String) async throws {
      guard try await store.removeDeviceKey(id: id) else {
        throw WalletStoreError(.notFound, "no device key \(id)")
      }
      let status = SecItemDelete(baseQuery(id: id) as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw WalletStoreError(.keyOperationFailed, "SecItemDelete failed: \(status)")
      }
    }

    /// The key that authenticates trust anchors, settings and credential rows when device keys
    /// live here. There is no key-encryption key file on this path, so the key
    /// is 32 random bytes in a keychain item of its own (account `settings-authentication` under
    /// this service and access group, this device only), created on first use; the app and its
    /// extensions share it through the access group. Pass it to `Wallet.init(settingsKey:)`.
    ///
    /// Someone who can write the shared container's database but cannot read this keychain item
    /// cannot add a trust anchor or relax the holder authentication policy.
    public func settingsAuthenticationKey() throws -> [UInt8] {
      let account = "settings-authentication"
      do {
        return try copyItem(id: account)
      } catch let error as WalletStoreError where error.code == .notFound {
        // First use: create it below.
      }
      let key = SecureRandom.bytes(count: SettingsAuthentication.keyByteCount)
      var query = baseQuery(id: account)
      query[kSecValueData as String] = Data(key)
      query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
      let status = SecItemAdd(query as CFDictionary, nil)
      // Another process created it first: use that one.
      if status == errSecDuplicateItem { return try copyItem(id: account) }
      guard status == errSecSuccess else {
        throw WalletStoreError(
          .keyOperationFailed, "SecItemAdd for the settings authentication key failed: \(status)")
      }
      return key
    }

    private func save(id: String, kind: Kind, secret: [UInt8], _ publicKey: ECPublicKey)
      async throws
    {
      var query = baseQuery(id: id)
      query[kSecValueData as String] = Data([kind.rawValue] + secret)
      query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
      let status = SecItemAdd(query as CFDictionary, nil)
      guard status == errSecSuccess else {
        throw WalletStoreError(.keyOperationFailed, "SecItemAdd failed: \(status)")
      }
      do {
        try await store.insertDeviceKey(
          DeviceKeyRow(
            id: id, curve: publicKey.curve.rawValue, publicKey: publicKey.x963Representation,
            protection: kind == .secureEnclave ? "secure-enclave" : "keychain",
            wrappedPrivateKey: nil, createdAt: Date()))
      } catch {
        SecItemDelete(baseQuery(id: id) as CFDictionary)
        throw error
      }
    }

    private func copyItem(id: String) throws -> [UInt8] {
      var query = baseQuery(id: id)
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      guard status == errSecSuccess, let data = result as? Data else {
        throw WalletStoreError(
          status == errSecItemNotFound ? .notFound : .keyOperationFailed,
          "SecItemCopyMatching for device key \(id) failed: \(status)")
      }
      return Array(data)
    }

    private func baseQuery(id: String) -> [String: Any] {
      var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: id,
        kSecUseDataProtectionKeychain as String: true,
      ]
      if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
      return query
    }
  }

  /// A Secure Enclave key behind the `Signer` interface.
  private struct SecureEnclaveSigner: Signer, @unchecked Sendable {
    // CryptoKit's key is an immutable handle to a Secure Enclave blob.
    let key: SecureEnclave.P256.Signing.PrivateKey
    let publicKey: ECPublicKey

    func signature(for message: [UInt8]) throws -> ECDSASignature {
      let signature = try key.signature(for: Data(message))
      return try ECDSASignature(rawRepresentation: signature.rawRepresentation, curve: .p256)
    }
  }
#endif
