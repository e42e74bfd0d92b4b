public import DCCrypto
internal import Foundation

/// Device keys kept in the wallet's database, each private key encrypted at rest.
///
/// Each private scalar is sealed with AES-256-GCM under a 32-byte key-encryption key (KEK), with
/// a fresh random 12-byte nonce and the key's identifier as associated data (so a wrapped key
/// copied onto another row does not open). The KEK lives in its own file, mode 0600, in the
/// wallet home; a KEK file that group or others can access is refused.
///
/// What this protects: a copy of the database alone (a backup, a synced folder, a file shared by
/// mistake) does not reveal private keys, and a wrapped key cannot be moved to another key id
/// or altered without detection. What it does not protect: anyone who can read the KEK file —
/// the same user, root, malware running as the user, a backup that includes the whole wallet
/// home — can unwrap every key, and a key is in this process's memory while it signs. It is
/// not hardware-backed; on Apple platforms use `KeychainKeyStore`.
public struct SoftwareKeyStore: DeviceKeyStore {
  /// The value of `device_keys.protection` for keys wrapped here.
  static let protection = "aes-256-gcm-kek"

  private let store: WalletStore
  private let keyEncryptionKey: [UInt8]

  /// Uses store for wrapped keys and the KEK at keyEncryptionKeyPath, creating that file with
  /// a fresh random key (mode 0600) when it does not exist.
  ///
  /// - Throws: `WalletStoreError` with `.insecureKeyFile` (the file is group- or
  ///   world-accessible, or another user's), `.invalidKeyFile` (not 32 bytes, not a regular
  ///   file) or `.fileSystemFailure`.
  public init(store: WalletStore, keyEncryptionKeyPath: String) throws(WalletStoreError) {
    self.store = store
    self.keyEncryptionKey = try KeyEncryptionKey.loadOrCreate(at: keyEncryptionKeyPath)
  }

  /// Creates a random key on curve, wraps it and stores it.
  public func createKey(curve: EllipticCurve) async throws(WalletStoreError)
    -> (id: String, publicKey: ECPublicKey)
  {
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(curve: curve)
    } catch {
      throw WalletStoreError(.keyOperationFailed, "cannot create a \(curve.rawValue) key: \(error)")
    }
    let id = try await wrapAndStore(key)
    return (id, key.publicKey)
  }

  /// Wraps and stores an existing private key.
  public func importKey(_ key: ECPrivateKey) async throws(WalletStoreError) -> String {
    try await wrapAndStore(key)
  }

  /// Wraps the keys and stores them in one transaction: one durable commit for a batch (with
  /// `synchronous=FULL`, each commit waits for the disk).
  public func importKeys(_ keys: [ECPrivateKey]) async throws -> [String] {
    var wrapped: [WrappedDeviceKey] = []
    for key in keys { wrapped.append(try wrap(key)) }
    let rows = wrapped
    try await store.transaction { transaction in
      for key in rows { try transaction.insert(key) }
    }
    return wrapped.map(\.id)
  }

  /// Whether this key store keeps its keys in `store`, so that a key wrapped here can be
  /// written in one of that store's transactions.
  package func keepsKeys(in store: WalletStore) -> Bool { store === self.store }

  /// Unwraps the key and returns a signer for it.
  ///
  /// - Throws: `.notFound`, `.keyUnwrapFailed` (a wrong KEK, or a tampered row) or
  ///   `.corruptRecord`.
  public func signer(for id: String) async throws(WalletStoreError) -> any Signer {
    UnwrappedKey(key: try await privateKey(for: id))
  }

  /// Unwraps the key for key agreement (ECDH, for an ISO 18013-5 deviceMac): a software key
  /// can always agree.
  ///
  /// - Throws: as `signer(for:)`.
  public func keyAgreement(for id: String) async throws(WalletStoreError) -> (any KeyAgreementKey)?
  {
    UnwrappedKey(key: try await privateKey(for: id))
  }

  /// The stored public key; no unwrapping needed.
  public func publicKey(for id: String) async throws(WalletStoreError) -> ECPublicKey {
    let row = try await row(for: id)
    return try Self.publicKey(of: row)
  }

  /// Deletes a key. Fails with `.constraintViolation` while a stored credential names it, and
  /// with `.notFound` for an unknown id.
  public func deleteKey(id: String) async throws(WalletStoreError) {
    guard try await store.removeDeviceKey(id: id) else {
      throw WalletStoreError(.notFound, "no device key \(id)")
    }
  }

  /// Wraps a key under the KEK without storing it, for storing it together with the
  /// credential that uses it in one ``WalletStore/transaction(_:)``:
  ///
  /// ```swift
  /// let key = try keys.wrap(privateKey)
  /// try await store.transaction { tx in
  ///   try tx.insert(key)
  ///   try tx.insert(StoredCredential(..., deviceKeyID: key.id))
  /// }
  /// ```
  package func wrap(_ key: ECPrivateKey) throws(WalletStoreError) -> WrappedDeviceKey {
    let id = RandomIdentifier.timeOrderedUUID()
    let box: AES.GCM.SealedBox
    do {
      box = try AES.GCM.seal(
        key.rawRepresentation, key: keyEncryptionKey, nonce: SecureRandom.bytes(count: 12),
        authenticating: Array(id.utf8))
    } catch {
      throw WalletStoreError(.keyOperationFailed, "cannot wrap key \(id): \(error)")
    }
    return WrappedDeviceKey(
      publicKey: key.publicKey,
      row: DeviceKeyRow(
        id: id, curve: key.curve.rawValue, publicKey: key.publicKey.x963Representation,
        protection: Self.protection, wrappedPrivateKey: box.nonce + box.ciphertext + box.tag,
        createdAt: Date()))
  }

  /// Wraps the key and writes it with the credential in one transaction of the store this key
  /// store keeps its keys in.
  func importKeyInOneTransaction(
    _ key: ECPrivateKey, storing credential: @Sendable (String) -> StoredCredential
  ) async throws -> StoredCredential {
    let wrapped = try wrap(key)
    let stored = credential(wrapped.id)
    try await store.transaction { transaction in
      try transaction.insert(wrapped)
      try transaction.insert(stored)
    }
    return stored
  }

  private func wrapAndStore(_ key: ECPrivateKey) async throws(WalletStoreError) -> String {
    let wrapped = try wrap(key)
    try await store.insertDeviceKey(wrapped.row)
    return wrapped.id
  }

  private func row(for id: String) async throws(WalletStoreError) -> DeviceKeyRow {
    guard let row = try await store.deviceKey(id: id) else {
      throw WalletStoreError(.notFound, "no device key \(id)")
    }
    return row
  }

  private func privateKey(for id: String) async throws(WalletStoreError) -> ECPrivateKey {
    let row = try await row(for: id)
    guard row.protection == Self.protection, let wrapped = row.wrappedPrivateKey,
      wrapped.count > 12 + AES.GCM.tagByteCount
    else {
      throw WalletStoreError(.corruptRecord, "device key \(id) is not a wrapped software key")
    }
    let publicKey = try Self.publicKey(of: row)
    let scalar: [UInt8]
    do {
      let box = try AES.GCM.SealedBox(
        nonce: Array(wrapped.prefix(12)), ciphertext: Array(wrapped.dropFirst(12).dropLast(16)),
        tag: Array(wrapped.suffix(16)))
      scalar = try AES.GCM.open(box, key: keyEncryptionKey, authenticating: Array(id.utf8))
    } catch {
      throw WalletStoreError(
        .keyUnwrapFailed,
        "device key \(id) does not open with this key-encryption key (wrong KEK, or tampered)")
    }
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(rawRepresentation: scalar, curve: publicKey.curve)
    } catch {
      throw WalletStoreError(.corruptRecord, "device key \(id) unwraps to an invalid scalar")
    }
    guard key.publicKey == publicKey else {
      throw WalletStoreError(.corruptRecord, "device key \(id) does not match its public key")
    }
    return key
  }

  private static func publicKey(of row: DeviceKeyRow) throws(WalletStoreError) -> ECPublicKey {
    guard let curve = EllipticCurve(jwkName: row.curve) else {
      throw WalletStoreError(.corruptRecord, "device key \(row.id) has unknown curve \(row.curve)")
    }
    do {
      return try ECPublicKey(x963Representation: row.publicKey, curve: curve)
    } catch {
      throw WalletStoreError(.corruptRecord, "device key \(row.id) has an invalid public key")
    }
  }
}

/// A signer (and key agreement) over an unwrapped key that does not hand the key itself to
/// callers.
private struct UnwrappedKey: Signer, KeyAgreementKey {
  let key: ECPrivateKey

  var publicKey: ECPublicKey { key.publicKey }

  func signature(for message: [UInt8]) throws -> ECDSASignature {
    try key.signature(for: message, digest: key.curve.defaultDigest)
  }

  func sharedSecret(with peer: ECPublicKey) throws -> [UInt8] {
    try key.sharedSecret(with: peer)
  }
}

/// A device key wrapped by ``SoftwareKeyStore/wrap(_:)``, not yet stored: insert it with
/// `WalletStore.Transaction.insert(_:)` next to the credential that names it.
package struct WrappedDeviceKey: Sendable, Hashable {
  /// The identifier the key will have in the store.
  package var id: String { row.id }
  /// The key's public half.
  package let publicKey: ECPublicKey
  let row: DeviceKeyRow
}
