/// A private key that can do ECDH key agreement, without handing out its scalar: what an ISO
/// 18013-5 device key needs for a deviceMac (§9.1.3.5, EMacKey from ECDH of SDeviceKey and
/// EReaderKey).
///
/// A key store returns one only where its backend allows it: a software key can; an Apple
/// Secure Enclave *signing* key cannot (CryptoKit does ECDH only with a `KeyAgreement` key).
public protocol KeyAgreementKey: Sendable {
  /// The public key of this private key.
  var publicKey: ECPublicKey { get }

  /// ECDH (SP 800-56A §5.7.1.2): the x coordinate of d·Q, the curve's field size in bytes.
  func sharedSecret(with peer: ECPublicKey) throws -> [UInt8]
}

extension ECPrivateKey: KeyAgreementKey {}
