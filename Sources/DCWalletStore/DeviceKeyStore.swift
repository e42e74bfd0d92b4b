public import DCCrypto

/// Where device keys live: the keys that prove a credential is presented by the device it was
/// issued to (the mdoc `DeviceKey`, the SD-JWT `cnf` key).
///
/// Private keys never leave an implementation; callers get a `Signer`. `SoftwareKeyStore` wraps
/// keys at rest on Linux; `KeychainKeyStore` uses the Secure Enclave or the keychain on Apple
/// platforms.
public protocol DeviceKeyStore: Sendable {
  /// Creates a key and returns its identifier and public key.
  func createKey(curve: EllipticCurve) async throws -> (id: String, publicKey: ECPublicKey)

  /// Stores an existing private key (a development credential's key) and returns its identifier.
  func importKey(_ key: ECPrivateKey) async throws -> String

  /// Stores several existing private keys (the device keys of an issued batch) and returns their
  /// identifiers, in order; either all are kept or none.
  ///
  /// The default imports them one by one and deletes those already imported when one fails; a
  /// key store that keeps its keys in a database writes them in one transaction (one durable
  /// commit for the batch instead of one per key).
  func importKeys(_ keys: [ECPrivateKey]) async throws -> [String]

  /// A signer for the key with this identifier.
  func signer(for id: String) async throws -> any Signer

  /// Key agreement (ECDH) with the key with this identifier, for an ISO 18013-5 deviceMac
  /// (§9.1.3.5); nil when the backend cannot agree with this key (an Apple Secure Enclave
  /// signing key). The default: nil, key agreement unsupported.
  func keyAgreement(for id: String) async throws -> (any KeyAgreementKey)?

  /// The public key of the key with this identifier.
  func publicKey(for id: String) async throws -> ECPublicKey

  /// Deletes a key. Fails while a stored credential still names it.
  func deleteKey(id: String) async throws
}

extension DeviceKeyStore {
  /// Key agreement is unsupported unless a key store says otherwise.
  public func keyAgreement(for id: String) async throws -> (any KeyAgreementKey)? { nil }

  /// Imports the keys one by one; when one fails, deletes those already imported and throws.
  public func importKeys(_ keys: [ECPrivateKey]) async throws -> [String] {
    var ids: [String] = []
    do {
      for key in keys { ids.append(try await importKey(key)) }
    } catch {
      for id in ids { try? await deleteKey(id: id) }
      throw error
    }
    return ids
  }

  /// Stores an existing private key and the credential that names it as one step: either both
  /// are kept or neither. `credential` builds the record from the key's identifier.
  ///
  /// A `SoftwareKeyStore` that keeps its keys in `store` writes both in one transaction; any
  /// other key store stores the key, then the credential, and deletes the key again when the
  /// credential cannot be written (the error of the write is thrown).
  package func importKey(
    _ key: ECPrivateKey, storing credential: @Sendable (String) -> StoredCredential,
    in store: WalletStore
  ) async throws -> StoredCredential {
    if let software = self as? SoftwareKeyStore, software.keepsKeys(in: store) {
      return try await software.importKeyInOneTransaction(key, storing: credential)
    }
    let keyID = try await importKey(key)
    let stored = credential(keyID)
    do {
      try await store.insert(stored)
    } catch {
      try? await deleteKey(id: keyID)
      throw error
    }
    return stored
  }

  /// Removes a stored credential and the device key it names as one step, so that a process
  /// killed in between leaves no key that no credential names; false when `store` holds no
  /// credential with this id.
  ///
  /// A `SoftwareKeyStore` that keeps its keys in `store` removes both in one transaction; any
  /// other key store removes the credential, then deletes its key (a failure to delete it,
  /// because another credential still names it, is not an error).
  package func removeCredential(id: String, from store: WalletStore) async throws -> Bool {
    if let software = self as? SoftwareKeyStore, software.keepsKeys(in: store) {
      return try await store.removeCredentialAndDeviceKey(id: id)
    }
    return try await removeCredentialThenKey(id: id, from: store, keys: self)
  }
}

/// The two-step removal: a process killed between the steps leaves the key behind.
func removeCredentialThenKey(id: String, from store: WalletStore, keys: any DeviceKeyStore)
  async throws -> Bool
{
  // Only the device key column is read, so a row too damaged to list can still be removed.
  guard let keyID = try await store.deviceKeyIDOfCredential(id: id) else { return false }
  _ = try await store.removeCredential(id: id)
  if let keyID { try? await keys.deleteKey(id: keyID) }
  return true
}
