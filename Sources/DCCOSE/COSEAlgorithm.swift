public import DCCrypto

/// The COSE algorithms this library supports (RFC 9053 §2.1, §3.1; IANA COSE Algorithms).
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable {
  /// ECDSA with SHA-256 over P-256.
  case es256 = -7
  /// ECDSA with SHA-384 over P-384.
  case es384 = -35
  /// ECDSA with SHA-512 over P-521.
  case es512 = -36
  /// HMAC with SHA-256, full 256-bit tag (RFC 9053 §3.1 "HMAC 256/256").
  case hmac256 = 5

  /// The curve an ECDSA algorithm is used with here. ISO 18013-5 §9.1.3.6 and JOSE pair them
  /// one to one, and enforcing it closes any algorithm-substitution path.
  public var curve: EllipticCurve? {
    switch self {
    case .es256: .p256
    case .es384: .p384
    case .es512: .p521
    case .hmac256: nil
    }
  }

  /// The digest the algorithm hashes with.
  package var digest: DigestAlgorithm {
    switch self {
    case .es256, .hmac256: .sha256
    case .es384: .sha384
    case .es512: .sha512
    }
  }

  /// The ECDSA algorithm for a curve.
  package init(signingWith curve: EllipticCurve) {
    switch curve {
    case .p256: self = .es256
    case .p384: self = .es384
    case .p521: self = .es512
    }
  }
}
