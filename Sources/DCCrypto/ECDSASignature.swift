/// An ECDSA signature (r, s), held as raw `r || s` of the curve's scalar size.
///
/// COSE (RFC 9053 §2.1) and JWS (RFC 7518 §3.4) use the raw form; X.509 uses DER
/// `ECDSA-Sig-Value` (RFC 5480 §2.2.3). Conversion happens here, at the primitive boundary.
public struct ECDSASignature: Sendable, Hashable {
  /// The curve whose scalar size the signature uses.
  public let curve: EllipticCurve
  /// `r || s`, each left-padded to the curve's scalar size.
  public let rawRepresentation: [UInt8]

  /// Reads raw `r || s`; the length must be exactly twice the scalar size.
  public init(rawRepresentation bytes: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    let bytes = Array(bytes)
    guard bytes.count == 2 * curve.coordinateByteCount else {
      throw CryptoError(
        .invalidSignatureEncoding,
        "\(curve.rawValue) raw signature must be \(2 * curve.coordinateByteCount) bytes, got \(bytes.count)"
      )
    }
    self.curve = curve
    self.rawRepresentation = bytes
  }

  /// Reads a strict DER `ECDSA-Sig-Value`: no BER forms, no trailing bytes.
  public init(derRepresentation bytes: some Collection<UInt8>, curve: EllipticCurve)
    throws(CryptoError)
  {
    self.curve = curve
    self.rawRepresentation = try Backend.ecdsaDERToRaw(
      Array(bytes), scalarByteCount: curve.coordinateByteCount)
  }

  /// DER `ECDSA-Sig-Value`.
  public var derRepresentation: [UInt8] {
    Self.der(raw: rawRepresentation, scalarByteCount: curve.coordinateByteCount)
  }

  /// `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 5480 §2.2.3), written here
  /// for both backends: each INTEGER is minimal two's complement (X.690 §8.3.2), so a leading
  /// 0x00 is added only when the high bit is set.
  static func der(raw: [UInt8], scalarByteCount n: Int) -> [UInt8] {
    func integer(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
      var bytes = Array(magnitude.drop { $0 == 0 })
      if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
      return KeyEncoding.tlv(0x02, bytes)
    }
    return KeyEncoding.tlv(0x30, integer(raw.prefix(n)) + integer(raw.dropFirst(n)))
  }
}
