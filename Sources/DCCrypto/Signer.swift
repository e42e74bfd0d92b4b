/// Anything that can produce ECDSA signatures with a key it may not reveal.
///
/// A software `ECPrivateKey`, a Secure Enclave key or any other hardware key signs through this
/// one interface, so protocol code never needs to know where the key lives.
public protocol Signer: Sendable {
  /// The public key that verifies this signer's signatures.
  var publicKey: ECPublicKey { get }

  /// Signs message with the curve's default digest (ES256 for P-256, ES384, ES512).
  func signature(for message: [UInt8]) throws -> ECDSASignature
}

extension Signer {
  /// The curve of the signing key.
  public var curve: EllipticCurve { publicKey.curve }
}

extension ECPrivateKey: Signer {
  public func signature(for message: [UInt8]) throws -> ECDSASignature {
    try signature(for: message, digest: curve.defaultDigest)
  }
}
