/// The NIST prime curves this library supports (FIPS 186-5, SEC 2).
public enum EllipticCurve: String, Sendable, Hashable, CaseIterable {
  case p256 = "P-256"
  case p384 = "P-384"
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
  public init?(jwkName: String) { self.init(rawValue: jwkName) }

  /// Length of the SEC1 uncompressed point `04 || X || Y`.
  public var uncompressedPointByteCount: Int { 1 + 2 * coordinateByteCount }
}
