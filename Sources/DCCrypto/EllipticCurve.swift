/// The NIST prime curves this library supports (FIPS 186-5, SEC 2).
public enum EllipticCurve: String, Sendable, Hashable, CaseIterable {
  /// P-256 (secp256r1), 32-byte coordinates; the curve of ES256 and of ISO 18013-5 device keys.
  case p256 = "P-256"
  /// P-384 (secp384r1), 48-byte coordinates; paired with SHA-384 (ES384).
  case p384 = "P-384"
  /// P-521 (secp521r1), 66-byte coordinates; paired with SHA-512 (ES512).
  case p521 = "P-521"

  /// Bytes of one field element or scalar: 32, 48 or 66.
  public var coordinateByteCount: Int {
    switch self {
    case .p256: 32
    case .p384: 48
    case .p521: 66
    }
  }

  /// The digest ECDSA pairs with this curve in JOSE and COSE (ES256, ES384, ES512).
  public var defaultDigest: DigestAlgorithm {
    switch self {
    case .p256: .sha256
    case .p384: .sha384
    case .p521: .sha512
    }
  }

  /// The curve's name as JWK `crv` and COSE text use it ("P-256").
  package var jwkName: String { rawValue }

  /// Finds a curve from its JWK `crv` name.
  package init?(jwkName: String) { self.init(rawValue: jwkName) }

  /// Length of the SEC1 uncompressed point `04 || X || Y`.
  package var uncompressedPointByteCount: Int { 1 + 2 * coordinateByteCount }
}
