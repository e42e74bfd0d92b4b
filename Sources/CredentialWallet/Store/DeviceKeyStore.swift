public import CryptoPrimitives

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

  /// A signer for the key with this identifier.
  func signer(for id: String) async throws -> any Signer

  /// The public key of the key with this identifier.
  func publicKey(for id: String) async throws -> ECPublicKey

  /// Deletes a key. Fails while a stored credential still names it.
  func deleteKey(id: String) async throws
}
