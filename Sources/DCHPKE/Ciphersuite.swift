package import DCCrypto

/// Hybrid Public Key Encryption (RFC 9180), composed from the primitives of `CryptoPrimitives`.
public enum HPKE {
  /// The HPKE mode (RFC 9180 §5, Table 1).
  public enum Mode: UInt8, Sendable, Hashable {
    /// `mode_base`: to a recipient's public key, the sender unauthenticated.
    case base = 0x00
    /// `mode_psk`: the sender also proves knowledge of a pre-shared key.
    case psk = 0x01
    /// `mode_auth`: the sender is authenticated by its own KEM private key.
    case auth = 0x02
    /// `mode_auth_psk`: both a sender key and a pre-shared key.
    case authPSK = 0x03

    /// The mode that the given inputs select (RFC 9180 §5: auth modes take a sender key, PSK
    /// modes a PSK).
    init(authenticated: Bool, pskGiven: Bool) {
      switch (authenticated, pskGiven) {
      case (false, false): self = .base
      case (false, true): self = .psk
      case (true, false): self = .auth
      case (true, true): self = .authPSK
      }
    }
  }

  /// A Diffie-Hellman KEM over a NIST curve (RFC 9180 §7.1, Table 2).
  public enum KEM: UInt16, Sendable, Hashable, CaseIterable {
    /// `DHKEM(P-256, HKDF-SHA256)`, KEM ID 0x0010.
    case p256HKDFSHA256 = 0x0010
    /// `DHKEM(P-384, HKDF-SHA384)`, KEM ID 0x0011.
    case p384HKDFSHA384 = 0x0011
    /// `DHKEM(P-521, HKDF-SHA512)`, KEM ID 0x0012.
    case p521HKDFSHA512 = 0x0012

    /// The curve of the KEM's keys.
    package var curve: EllipticCurve {
      switch self {
      case .p256HKDFSHA256: .p256
      case .p384HKDFSHA384: .p384
      case .p521HKDFSHA512: .p521
      }
    }

    /// The hash of the KEM's own HKDF (which may differ from the suite's KDF).
    var digest: DigestAlgorithm {
      switch self {
      case .p256HKDFSHA256: .sha256
      case .p384HKDFSHA384: .sha384
      case .p521HKDFSHA512: .sha512
      }
    }

    /// Nsecret: the length of the KEM shared secret.
    var sharedSecretByteCount: Int { digest.byteCount }

    /// Nenc: the length of an encapsulated key (an uncompressed point, RFC 9180 §7.1.1).
    package var encapsulatedKeyByteCount: Int { curve.uncompressedPointByteCount }
  }

  /// An HKDF-based KDF (RFC 9180 §7.2, Table 3).
  public enum KDF: UInt16, Sendable, Hashable, CaseIterable {
    /// HKDF-SHA256, KDF ID 0x0001.
    case hkdfSHA256 = 0x0001
    /// HKDF-SHA384, KDF ID 0x0002.
    case hkdfSHA384 = 0x0002
    /// HKDF-SHA512, KDF ID 0x0003.
    case hkdfSHA512 = 0x0003

    var digest: DigestAlgorithm {
      switch self {
      case .hkdfSHA256: .sha256
      case .hkdfSHA384: .sha384
      case .hkdfSHA512: .sha512
      }
    }
  }

  /// An AEAD (RFC 9180 §7.3, Table 5).
  public enum AEAD: UInt16, Sendable, Hashable, CaseIterable {
    /// AES-128-GCM, AEAD ID 0x0001: 16-byte key, 12-byte nonce, 16-byte tag.
    case aes128GCM = 0x0001
    /// AES-256-GCM, AEAD ID 0x0002: 32-byte key, 12-byte nonce, 16-byte tag.
    case aes256GCM = 0x0002
    /// No encryption: the context can only export secrets.
    case exportOnly = 0xFFFF

    /// Nk: the AEAD key length.
    var keyByteCount: Int {
      switch self {
      case .aes128GCM: 16
      case .aes256GCM: 32
      case .exportOnly: 0
      }
    }

    /// Nn: the AEAD nonce length.
    var nonceByteCount: Int { self == .exportOnly ? 0 : 12 }
  }

  /// A KEM, a KDF and an AEAD (RFC 9180 §5.1 `suite_id`).
  public struct Ciphersuite: Sendable, Hashable {
    /// The key encapsulation mechanism, which fixes the curve of the keys.
    public let kem: KEM
    /// The KDF of the key schedule (RFC 9180 §5.1).
    public let kdf: KDF
    /// The AEAD that seals the messages.
    public let aead: AEAD

    /// Combines the three algorithms.
    public init(kem: KEM, kdf: KDF, aead: AEAD) {
      self.kem = kem
      self.kdf = kdf
      self.aead = aead
    }

    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM: the suite of ISO/IEC TS 18013-7
    /// Annex C and of OpenID4VP encrypted responses.
    public static let p256SHA256AES128GCM = Ciphersuite(
      kem: .p256HKDFSHA256, kdf: .hkdfSHA256, aead: .aes128GCM)
    /// DHKEM(P-384, HKDF-SHA384), HKDF-SHA384, AES-256-GCM.
    package static let p384SHA384AES256GCM = Ciphersuite(
      kem: .p384HKDFSHA384, kdf: .hkdfSHA384, aead: .aes256GCM)
    /// DHKEM(P-521, HKDF-SHA512), HKDF-SHA512, AES-256-GCM.
    package static let p521SHA512AES256GCM = Ciphersuite(
      kem: .p521HKDFSHA512, kdf: .hkdfSHA512, aead: .aes256GCM)

    /// `suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)` (§5.1).
    var suiteID: [UInt8] {
      Array("HPKE".utf8) + i2osp(kem.rawValue) + i2osp(kdf.rawValue) + i2osp(aead.rawValue)
    }
  }
}

/// I2OSP(n, 2) (RFC 8017 §4.1), big-endian.
@inline(__always)
func i2osp(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }

/// The labelled HKDF of RFC 9180 §4, bound to one suite_id and one hash.
struct LabeledKDF {
  let digest: DigestAlgorithm
  /// `"HPKE-v1" || suite_id`, the prefix of every label.
  let prefix: [UInt8]

  init(digest: DigestAlgorithm, suiteID: [UInt8]) {
    self.digest = digest
    self.prefix = Array("HPKE-v1".utf8) + suiteID
  }

  /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
  func extract(salt: [UInt8], label: String, ikm: [UInt8]) -> [UInt8] {
    HKDF.extract(digest, salt: salt, inputKeyMaterial: prefix + Array(label.utf8) + ikm)
  }

  /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id ||
  /// label || info, L).
  func expand(prk: [UInt8], label: String, info: [UInt8], length: Int) throws(HPKEError) -> [UInt8]
  {
    guard length >= 0, length <= Int(UInt16.max) else {
      throw HPKEError(.invalidParameter, "LabeledExpand length \(length) does not fit I2OSP(L, 2)")
    }
    do {
      return try HKDF.expand(
        digest, pseudoRandomKey: prk,
        info: i2osp(UInt16(length)) + prefix + Array(label.utf8) + info,
        outputByteCount: length)
    } catch {
      throw HPKEError(.invalidParameter, "LabeledExpand: \(error.reason)", underlying: error)
    }
  }
}
