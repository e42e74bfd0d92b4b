import DCEncoding

/// An elliptic-curve public key on P-256, P-384 or P-521, validated on construction.
///
/// Every initializer checks that the point is on the curve and is not the point at infinity
/// (SEC 1 §3.2.2.1), so a key read from the wire is safe to use.
public struct ECPublicKey: Sendable, Hashable, CustomStringConvertible {
  let backing: BackendPublicKey

  init(backing: BackendPublicKey) { self.backing = backing }

  /// The curve this key is on.
  public var curve: EllipticCurve { backing.curve }

  /// Reads a SEC1 point: uncompressed (`04 || X || Y`) or compressed (`02|03 || X`).
  public init(x963Representation bytes: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let bytes = Array(bytes)
    let n = curve.coordinateByteCount
    guard
      (bytes.count == 1 + 2 * n && bytes.first == 0x04)
        || (bytes.count == 1 + n && (bytes.first == 0x02 || bytes.first == 0x03))
    else {
      throw CryptoError(
        .invalidPoint, "not a SEC1 point encoding for \(curve.rawValue) (\(bytes.count) bytes)")
    }
    backing = try BackendPublicKey(point: bytes, curve: curve)
  }

  /// Reads a compressed point (`02|03 || X`, SEC1 §2.3.3).
  public init(compressedRepresentation bytes: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let bytes = Array(bytes)
    guard bytes.count == 1 + curve.coordinateByteCount, bytes.first == 0x02 || bytes.first == 0x03
    else {
      throw CryptoError(.invalidPoint, "not a compressed \(curve.rawValue) point")
    }
    backing = try BackendPublicKey(point: bytes, curve: curve)
  }

  /// Reads the raw `X || Y` form (CryptoKit's `rawRepresentation`).
  public init(rawRepresentation bytes: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let bytes = Array(bytes)
    guard bytes.count == 2 * curve.coordinateByteCount else {
      throw CryptoError(
        .invalidPoint, "raw \(curve.rawValue) key must be \(2 * curve.coordinateByteCount) bytes")
    }
    backing = try BackendPublicKey(point: [0x04] + bytes, curve: curve)
  }

  /// Builds a key from affine coordinates, as JWK (`x`, `y`) and COSE_Key (-2, -3) carry them.
  ///
  /// Coordinates must be exactly the curve's field size (RFC 7518 §6.2.1.2, RFC 9053 §7.1.1).
  package init(x: some Collection<UInt8>, y: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let x = Array(x)
    let y = Array(y)
    let n = curve.coordinateByteCount
    guard x.count == n, y.count == n else {
      throw CryptoError(.invalidPoint, "\(curve.rawValue) coordinates must be \(n) bytes each")
    }
    backing = try BackendPublicKey(point: [0x04] + x + y, curve: curve)
  }

  /// Reads a DER SubjectPublicKeyInfo (RFC 5480); the curve comes from the encoding.
  ///
  /// The point may be uncompressed or compressed (RFC 5480 §2.2); the curve must be named by
  /// OID, and the bytes must be DER with nothing after them. The same rules hold on every
  /// platform: the encoding is read here, not by the crypto backend.
  public init(derRepresentation bytes: some Collection<UInt8>) throws(CryptoError) {
    let (curve, point) = try KeyEncoding.readSubjectPublicKeyInfo(Array(bytes))
    try self.init(x963Representation: point, curve: curve)
  }

  /// Reads a PEM `PUBLIC KEY` document.
  public init(pemRepresentation text: String) throws(CryptoError) {
    let document = try PEMDocument(pemString: text)
    guard document.label == "PUBLIC KEY" else {
      throw CryptoError(.invalidPEM, "expected a PUBLIC KEY PEM document, found \(document.label)")
    }
    try self.init(derRepresentation: document.derBytes)
  }

  /// The SEC1 uncompressed point `04 || X || Y`.
  public var x963Representation: [UInt8] { backing.uncompressed }

  /// `X || Y` without the leading 0x04.
  public var rawRepresentation: [UInt8] { Array(backing.uncompressed.dropFirst()) }

  /// The affine x coordinate, left-padded to the field size.
  package var x: [UInt8] { Array(backing.uncompressed[1...curve.coordinateByteCount]) }

  /// The affine y coordinate, left-padded to the field size.
  package var y: [UInt8] { Array(backing.uncompressed[(1 + curve.coordinateByteCount)...]) }

  /// The SEC1 compressed point `02|03 || X` (SEC1 §2.3.3: the prefix carries y's parity).
  package var compressedRepresentation: [UInt8] {
    let parity: UInt8 = (backing.uncompressed.last ?? 0) & 1
    return [0x02 | parity] + x
  }

  /// DER SubjectPublicKeyInfo (RFC 5480).
  public var derRepresentation: [UInt8] {
    KeyEncoding.subjectPublicKeyInfo(point: backing.uncompressed, curve: curve)
  }

  /// PEM `PUBLIC KEY` document.
  public var pemRepresentation: String {
    PEMDocument(label: "PUBLIC KEY", derBytes: derRepresentation).pemString
  }

  /// Verifies an ECDSA signature over message, hashing with the curve's default digest.
  public func isValidSignature(_ signature: ECDSASignature, for message: some Collection<UInt8>)
    -> Bool
  {
    isValidSignature(signature, for: message, digest: curve.defaultDigest)
  }

  /// Verifies an ECDSA signature over message hashed with digest (FIPS 186-5 §6.4.2).
  ///
  /// Returns false, never throws, for a signature from another curve or with r or s out of range.
  public func isValidSignature(
    _ signature: ECDSASignature, for message: some Collection<UInt8>, digest: DigestAlgorithm
  ) -> Bool {
    guard signature.curve == curve else { return false }
    return backing.verify(raw: signature.rawRepresentation, message: Array(message), digest: digest)
  }

  public static func == (lhs: ECPublicKey, rhs: ECPublicKey) -> Bool {
    lhs.curve == rhs.curve && lhs.backing.uncompressed == rhs.backing.uncompressed
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(curve)
    hasher.combine(backing.uncompressed)
  }

  public var description: String {
    "ECPublicKey(\(curve.rawValue), \(Hex.encode(x963Representation)))"
  }
}
