public import DCCrypto

/// The subject public key, read from SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
public enum CertificatePublicKey: Sendable, Hashable, CustomStringConvertible {
  /// An EC key on P-256, P-384 or P-521 (RFC 5480 §2.1.1, namedCurve only).
  case ec(ECPublicKey)
  /// An RSA key (RFC 3279 §2.3.1), read only far enough to report its size as unsupported.
  case rsa(modulusBitCount: Int)
  /// Any other algorithm or curve; the string names it.
  case unsupported(algorithm: String)

  /// The EC key, when this is one.
  public var ecPublicKey: ECPublicKey? {
    if case .ec(let key) = self { return key }
    return nil
  }

  /// A short name such as `EC P-256` or `RSA 2048`.
  public var description: String {
    switch self {
    case .ec(let key): "EC \(key.curve.rawValue)"
    case .rsa(let bits): "RSA \(bits)"
    case .unsupported(let algorithm): algorithm
    }
  }

  /// Reads a SubjectPublicKeyInfo node; returns the key and the subjectPublicKey bits.
  static func read(_ node: DER.Node) throws(CertificateError) -> (CertificatePublicKey, [UInt8]) {
    var members = try node.expect(DER.Identifier.sequence, "SubjectPublicKeyInfo")
      .members("SubjectPublicKeyInfo")
    let algorithmNode = try members.next(DER.Identifier.sequence, "algorithm")
    let keyBits = try members.next(DER.Identifier.bitString, "subjectPublicKey")
      .octetAlignedBitString()
    try members.finish()
    var algorithm = algorithmNode.members("AlgorithmIdentifier")
    let oid = try algorithm.next(DER.Identifier.objectIdentifier, "algorithm").objectIdentifier()
    let parameters = algorithm.isAtEnd ? nil : try algorithm.nextAny("parameters")
    try algorithm.finish()

    switch oid {
    case .ecPublicKey:
      return try ecKey(parameters: parameters, keyBits: keyBits)
    case .rsaEncryption:
      return (try rsaKey(keyBits), keyBits)
    default:
      return (.unsupported(algorithm: oid.description), keyBits)
    }
  }

  /// An id-ecPublicKey key: a named curve (RFC 5480 §2.1.1) and a SEC1 point (§2.2); an
  /// unsupported curve is not an error.
  private static func ecKey(parameters: DER.Node?, keyBits: [UInt8]) throws(CertificateError)
    -> (CertificatePublicKey, [UInt8])
  {
    // RFC 5480 §2.1.1: parameters MUST be a namedCurve in PKIX.
    guard let parameters, parameters.identifier == DER.Identifier.objectIdentifier else {
      throw CertificateError(.invalidPublicKey, "id-ecPublicKey without a namedCurve")
    }
    let curveOID = try parameters.objectIdentifier()
    let curve: EllipticCurve
    switch curveOID {
    case .secp256r1: curve = .p256
    case .secp384r1: curve = .p384
    case .secp521r1: curve = .p521
    default: return (.unsupported(algorithm: "EC curve \(curveOID.dotted)"), keyBits)
    }
    // RFC 5480 §2.2: the point must be uncompressed or compressed SEC1.
    do {
      return (.ec(try ECPublicKey(x963Representation: keyBits, curve: curve)), keyBits)
    } catch {
      throw CertificateError(
        .invalidPublicKey, "\(curve.rawValue) point: \(error.reason)", underlying: error)
    }
  }

  /// An rsaEncryption key, read only for its modulus size.
  private static func rsaKey(_ keyBits: [UInt8]) throws(CertificateError) -> CertificatePublicKey {
    // RFC 3279 §2.3.1: RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }.
    let rsaKey: DER.Node
    do {
      rsaKey = try DER.parse(keyBits)
    } catch {
      throw CertificateError(
        .invalidPublicKey, "RSAPublicKey: \(error.reason)", underlying: error)
    }
    var fields = rsaKey.members("RSAPublicKey")
    let modulus = try fields.next(DER.Identifier.integer, "modulus").integerBytes()
    _ = try fields.next(DER.Identifier.integer, "publicExponent").integerBytes()
    try fields.finish()
    let significant = Array(modulus.drop(while: { $0 == 0 }))
    let bits = significant.first.map { significant.count * 8 - $0.leadingZeroBitCount } ?? 0
    return .rsa(modulusBitCount: bits)
  }
}
