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
    Backend.ecdsaRawToDER(rawRepresentation, scalarByteCount: curve.coordinateByteCount)
  }
}
