/// HKDF (RFC 5869) over a SHA-2 digest, computed by the crypto backend.
public enum HKDF {
  /// HKDF-Extract (RFC 5869 §2.2): a pseudorandom key from input keying material.
  ///
  /// An empty salt means a string of `HashLen` zeros, as the RFC specifies.
  public static func extract(
    _ algorithm: DigestAlgorithm, salt: some Collection<UInt8>,
    inputKeyMaterial: some Collection<UInt8>
  ) -> [UInt8] {
    Backend.hkdfExtract(algorithm, salt: Array(salt), ikm: Array(inputKeyMaterial))
  }

  /// HKDF-Expand (RFC 5869 §2.3): `outputByteCount` bytes from a pseudorandom key.
  ///
  /// - Throws: `CryptoError.invalidParameter` when `outputByteCount` exceeds 255 × HashLen or the
  ///   key is shorter than HashLen.
  public static func expand(
    _ algorithm: DigestAlgorithm, pseudoRandomKey: some Collection<UInt8>,
    info: some Collection<UInt8>,
    outputByteCount: Int
  ) throws(CryptoError) -> [UInt8] {
    guard outputByteCount >= 0, outputByteCount <= 255 * algorithm.byteCount else {
      throw CryptoError(
        .invalidParameter,
        "HKDF-Expand output of \(outputByteCount) bytes exceeds 255 × \(algorithm.byteCount)")
    }
    // RFC 5869 §2.3: PRK is "a pseudorandom key of at least HashLen octets". CryptoKit enforces
    // it and OpenSSL does not, so it is enforced here for both.
    let prk = Array(pseudoRandomKey)
    guard prk.count >= algorithm.byteCount else {
      throw CryptoError(
        .invalidParameter,
        "HKDF-Expand pseudorandom key of \(prk.count) bytes is shorter than HashLen (\(algorithm.byteCount))"
      )
    }
    guard outputByteCount > 0 else { return [] }
    return try Backend.hkdfExpand(
      algorithm, prk: prk, info: Array(info), count: outputByteCount)
  }

  /// Extract then expand in one call (RFC 5869 §2).
  public static func deriveKey(
    _ algorithm: DigestAlgorithm, inputKeyMaterial: some Collection<UInt8>,
    salt: some Collection<UInt8>, info: some Collection<UInt8>, outputByteCount: Int
  ) throws(CryptoError) -> [UInt8] {
    let prk = extract(algorithm, salt: salt, inputKeyMaterial: inputKeyMaterial)
    return try expand(algorithm, pseudoRandomKey: prk, info: info, outputByteCount: outputByteCount)
  }
}
