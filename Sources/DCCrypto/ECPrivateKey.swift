/// An elliptic-curve private key on P-256, P-384 or P-521, for ECDSA and ECDH.
///
/// The same key signs (FIPS 186-5 ECDSA) and agrees (SP 800-56A ECDH); protocols that need
/// separate keys keep separate values.
public struct ECPrivateKey: Sendable, CustomStringConvertible {
  let backing: BackendPrivateKey

  /// Generates a new random key.
  public init(curve: EllipticCurve) throws(CryptoError) {
    backing = try BackendPrivateKey(generating: curve)
  }

  /// Imports a private scalar, big-endian and exactly the curve's scalar size.
  ///
  /// - Throws: `CryptoError.invalidKey` unless 0 < d < n.
  public init(rawRepresentation scalar: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let scalar = Array(scalar)
    guard scalar.count == curve.coordinateByteCount else {
      throw CryptoError(
        .invalidKey,
        "\(curve.rawValue) private key must be \(curve.coordinateByteCount) bytes, got \(scalar.count)"
      )
    }
    backing = try BackendPrivateKey(scalar: scalar, curve: curve)
  }

  /// Reads DER: PKCS#8 `PrivateKeyInfo` (RFC 5208) or SEC1 `ECPrivateKey` (RFC 5915).
  ///
  /// - Throws: `CryptoError.unsupportedAlgorithm` for a PKCS#8 key that is not EC on one of
  ///   the three curves, `CryptoError.invalidKey` for malformed bytes or an out-of-range scalar.
  public init(derRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
    let bytes = Array(bytes)
    // Decided here rather than by each backend, so both refuse other key types alike.
    if let (oid, parameters) = KeyEncoding.privateKeyInfoAlgorithm(bytes) {
      guard oid == KeyEncoding.ecPublicKeyOID else {
        throw CryptoError(.unsupportedAlgorithm, "private key is not an EC key (id-ecPublicKey)")
      }
      if let parameters,
        !EllipticCurve.allCases.contains(where: { KeyEncoding.curveOID($0) == parameters })
      {
        throw CryptoError(.unsupportedAlgorithm, "private key is not on P-256, P-384 or P-521")
      }
    }
    backing = try BackendPrivateKey(der: bytes)
  }

  /// Reads PEM: `PRIVATE KEY` (PKCS#8) or `EC PRIVATE KEY` (SEC1).
  public init(pemRepresentation text: String) throws(CryptoError) {
    let document = try PEMDocument(pemString: text)
    guard document.label == "PRIVATE KEY" || document.label == "EC PRIVATE KEY" else {
      throw CryptoError(
        .invalidPEM,
        "expected a PRIVATE KEY or EC PRIVATE KEY PEM document, found \(document.label)")
    }
    try self.init(derRepresentation: document.derBytes)
  }

  /// The curve this key is on.
  public var curve: EllipticCurve { backing.curve }

  /// The matching public key.
  public var publicKey: ECPublicKey { ECPublicKey(backing: backing.publicKey) }

  /// The private scalar, big-endian, left-padded to the curve's scalar size.
  public var rawRepresentation: [UInt8] { backing.scalar }

  /// DER PKCS#8 `PrivateKeyInfo`.
  public var derRepresentation: [UInt8] {
    KeyEncoding.privateKeyInfo(
      scalar: backing.scalar, point: backing.publicKey.uncompressed, curve: curve)
  }

  /// PEM `PRIVATE KEY` (PKCS#8) document.
  public var pemRepresentation: String {
    PEMDocument(label: "PRIVATE KEY", derBytes: derRepresentation).pemString
  }

  /// Signs message with ECDSA, hashing with the curve's default digest (ES256/384/512).
  public func signature(for message: some Collection<UInt8>) throws(CryptoError) -> ECDSASignature {
    try signature(for: message, digest: curve.defaultDigest)
  }

  /// Signs message with ECDSA over the given digest.
  public func signature(
    for message: some Collection<UInt8>, digest: DigestAlgorithm
  ) throws(CryptoError) -> ECDSASignature {
    let raw = try backing.sign(message: Array(message), digest: digest)
    return try ECDSASignature(rawRepresentation: raw, curve: curve)
  }

  /// ECDH (SP 800-56A §5.7.1.2): the x coordinate of d·Q, the curve's field size in bytes.
  ///
  /// - Throws: `CryptoError.curveMismatch` when the peer key is on another curve.
  public func sharedSecret(with peer: ECPublicKey) throws(CryptoError) -> [UInt8] {
    guard peer.curve == curve else {
      throw CryptoError(.curveMismatch, "ECDH between \(curve.rawValue) and \(peer.curve.rawValue)")
    }
    return try backing.sharedSecret(with: peer.backing)
  }

  /// Never prints key material.
  public var description: String { "ECPrivateKey(\(curve.rawValue))" }
}
