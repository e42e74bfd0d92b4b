import DCErrors

// The DER key encodings, written and read here once for both backends, so CryptoKit and OpenSSL
// produce the same bytes and accept the same inputs (decided in Linux-tested code).

/// The DER structures that carry EC keys: SubjectPublicKeyInfo (RFC 5480 §2) and PKCS#8
/// PrivateKeyInfo (RFC 5208 §5) around an ECPrivateKey (RFC 5915 §3).
enum KeyEncoding {
  /// `id-ecPublicKey` (RFC 5480 §2.1.1): 1.2.840.10045.2.1.
  static let ecPublicKeyOID: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]

  /// The named-curve OID of each curve (RFC 5480 §2.1.1.1), as a full DER TLV.
  static func curveOID(_ curve: EllipticCurve) -> [UInt8] {
    switch curve {
    case .p256: [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]  // 1.2.840.10045.3.1.7
    case .p384: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]  // 1.3.132.0.34
    case .p521: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]  // 1.3.132.0.35
    }
  }

  /// `AlgorithmIdentifier { id-ecPublicKey, namedCurve }`; ECParameters MUST name the curve
  /// (RFC 5480 §2.1.1: implicitCurve and specifiedCurve MUST NOT be used).
  static func algorithmIdentifier(_ curve: EllipticCurve) -> [UInt8] {
    tlv(0x30, ecPublicKeyOID + curveOID(curve))
  }

  /// `SubjectPublicKeyInfo { algorithm, subjectPublicKey BIT STRING }` (RFC 5480 §2); the
  /// BIT STRING holds the SEC1 point with no unused bits (§2.2).
  static func subjectPublicKeyInfo(point: [UInt8], curve: EllipticCurve) -> [UInt8] {
    tlv(0x30, algorithmIdentifier(curve) + tlv(0x03, [0x00] + point))
  }

  /// PKCS#8 `PrivateKeyInfo { version 0, algorithm, privateKey OCTET STRING }` (RFC 5208 §5)
  /// holding `ECPrivateKey { version 1, privateKey, publicKey [1] }` (RFC 5915 §3); the curve is
  /// named once, in the outer algorithm, so `parameters [0]` is omitted (RFC 5915 §3).
  static func privateKeyInfo(scalar: [UInt8], point: [UInt8], curve: EllipticCurve) -> [UInt8] {
    let ecPrivateKey = tlv(
      0x30, [0x02, 0x01, 0x01] + tlv(0x04, scalar) + tlv(0xA1, tlv(0x03, [0x00] + point)))
    return tlv(0x30, [0x02, 0x01, 0x00] + algorithmIdentifier(curve) + tlv(0x04, ecPrivateKey))
  }

  /// Reads a SubjectPublicKeyInfo for an EC key on one of the three curves: the curve and the
  /// SEC1 point it carries (uncompressed or compressed: RFC 5480 §2.2 allows both, as
  /// X509Certificates does for certificates). Only DER is accepted: the input must equal its
  /// own re-encoding, so BER lengths, trailing bytes and explicit curve parameters are refused.
  static func readSubjectPublicKeyInfo(_ der: [UInt8]) throws(CryptoError) -> (
    curve: EllipticCurve, point: [UInt8]
  ) {
    var reader = DERReader(der)
    guard let spki = reader.read(tag: 0x30), reader.isAtEnd else {
      throw CryptoError(.invalidKey, "not a DER SubjectPublicKeyInfo")
    }
    var fields = DERReader(spki)
    guard let algorithm = fields.read(tag: 0x30), let bits = fields.read(tag: 0x03),
      fields.isAtEnd
    else {
      throw CryptoError(.invalidKey, "not a DER SubjectPublicKeyInfo")
    }
    var algorithmFields = DERReader(algorithm)
    guard let oid = algorithmFields.readTLV(tag: 0x06) else {
      throw CryptoError(.invalidKey, "SubjectPublicKeyInfo algorithm has no OID")
    }
    guard oid == ecPublicKeyOID else {
      throw CryptoError(.unsupportedAlgorithm, "public key is not an EC key (id-ecPublicKey)")
    }
    guard let parameters = algorithmFields.readTLV(tag: 0x06), algorithmFields.isAtEnd else {
      throw CryptoError(
        .invalidKey, "EC public key parameters must name the curve (RFC 5480 §2.1.1)")
    }
    guard let curve = EllipticCurve.allCases.first(where: { curveOID($0) == parameters }) else {
      throw CryptoError(.unsupportedAlgorithm, "public key is not on P-256, P-384 or P-521")
    }
    guard bits.first == 0x00 else {
      throw CryptoError(.invalidKey, "EC public key BIT STRING has unused bits")
    }
    let point = Array(bits.dropFirst())
    guard subjectPublicKeyInfo(point: point, curve: curve) == der else {
      throw CryptoError(.invalidKey, "SubjectPublicKeyInfo is not DER")
    }
    return (curve, point)
  }

  /// Reads the algorithm of a PKCS#8 PrivateKeyInfo, if der has that shape (RFC 5208 §5), so a
  /// key of another type or curve is refused the same way by both backends. nil for anything
  /// else (a SEC1 ECPrivateKey, or malformed bytes the backend then refuses).
  static func privateKeyInfoAlgorithm(_ der: [UInt8]) -> (oid: [UInt8], parameters: [UInt8]?)? {
    var reader = DERReader(der)
    guard let info = reader.read(tag: 0x30) else { return nil }
    var fields = DERReader(info)
    guard fields.read(tag: 0x02) == [0x00], let algorithm = fields.read(tag: 0x30) else {
      return nil
    }
    var algorithmFields = DERReader(algorithm)
    guard let oid = algorithmFields.readTLV(tag: 0x06) else { return nil }
    return (oid, algorithmFields.readTLV(tag: 0x06))
  }

  /// One DER TLV with a definite, minimal length (X.690 §10.1).
  static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [tag]
    let count = content.count
    if count < 0x80 {
      out.append(UInt8(count))
    } else if count <= 0xFF {
      out += [0x81, UInt8(count)]
    } else {
      out += [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }
    return out + content
  }
}

/// A cursor over DER TLVs with definite lengths of at most two bytes (enough for EC keys).
struct DERReader {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { index == bytes.count }

  /// The content of the next TLV if it has this tag; nil (and no progress) otherwise.
  mutating func read(tag: UInt8) -> [UInt8]? {
    guard let (start, contentStart, end) = next(), bytes[start] == tag else { return nil }
    index = end
    return Array(bytes[contentStart..<end])
  }

  /// The whole next TLV (tag, length and content) if it has this tag.
  mutating func readTLV(tag: UInt8) -> [UInt8]? {
    guard let (start, _, end) = next(), bytes[start] == tag else { return nil }
    index = end
    return Array(bytes[start..<end])
  }

  private func next() -> (start: Int, contentStart: Int, end: Int)? {
    guard index + 2 <= bytes.count else { return nil }
    var cursor = index + 1
    var length = Int(bytes[cursor])
    cursor += 1
    if length >= 0x80 {
      let lengthBytes = length & 0x7F
      guard (1...2).contains(lengthBytes), cursor + lengthBytes <= bytes.count else { return nil }
      length = 0
      for _ in 0..<lengthBytes {
        length = length << 8 | Int(bytes[cursor])
        cursor += 1
      }
    }
    guard length <= bytes.count - cursor else { return nil }
    return (index, cursor, cursor + length)
  }
}
