// The Linux backend: OpenSSL 3 libcrypto through the COpenSSL system library.
#if !canImport(CryptoKit)
  internal import COpenSSL

  extension DigestAlgorithm {
    var opensslSelector: Int32 {
      switch self {
      case .sha256: 0
      case .sha384: 1
      case .sha512: 2
      }
    }
  }

  extension EllipticCurve {
    var opensslSelector: Int32 {
      switch self {
      case .p256: 0
      case .p384: 1
      case .p521: 2
      }
    }

    init?(opensslSelector: Int32) {
      switch opensslSelector {
      case 0: self = .p256
      case 1: self = .p384
      case 2: self = .p521
      default: return nil
      }
    }
  }

  /// The most recent OpenSSL error, for reasons in `CryptoError`.
  private func opensslError(_ context: String) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    dc_last_error(&buffer, buffer.count)
    let detail = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return detail.isEmpty ? context : "\(context) (\(detail))"
  }

  enum Backend {
    static func digest(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: algorithm.byteCount)
      let ok = dc_digest(algorithm.opensslSelector, data, data.count, &out)
      precondition(ok == 1, "EVP_Digest failed for a built-in digest")  // not input-dependent
      return out
    }

    final class DigestState: @unchecked Sendable {
      private let ctx: OpaquePointer
      private let algorithm: DigestAlgorithm

      init(_ algorithm: DigestAlgorithm) {
        guard let ctx = dc_digest_new(algorithm.opensslSelector) else {
          preconditionFailure("EVP_DigestInit failed for a built-in digest")  // allocation failure
        }
        self.ctx = ctx
        self.algorithm = algorithm
      }

      func update(_ data: [UInt8]) { _ = dc_digest_update(ctx, data, data.count) }

      func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: algorithm.byteCount)
        _ = dc_digest_final(ctx, &out)
        return out
      }

      deinit { EVP_MD_CTX_free(ctx) }
    }

    static func hmac(_ algorithm: DigestAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: algorithm.byteCount)
      let ok = dc_hmac(algorithm.opensslSelector, key, key.count, data, data.count, &out)
      precondition(ok == 1, "HMAC failed for a built-in digest")
      return out
    }

    static func hkdfExtract(_ algorithm: DigestAlgorithm, salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
      // RFC 5869 §2.2: HKDF-Extract(salt, IKM) = HMAC-Hash(salt, IKM), salt defaulting to zeros.
      // OpenSSL's HKDF refuses an empty IKM, which RFC 5869 allows, so use its HMAC directly.
      hmac(
        algorithm, key: salt.isEmpty ? [UInt8](repeating: 0, count: algorithm.byteCount) : salt,
        data: ikm)
    }

    static func hkdfExpand(
      _ algorithm: DigestAlgorithm, prk: [UInt8], info: [UInt8], count: Int
    ) throws(CryptoError) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: count)
      guard
        dc_hkdf(algorithm.opensslSelector, 2, prk, prk.count, nil, 0, info, info.count, &out, count)
          == 1
      else {
        throw CryptoError(.invalidParameter, opensslError("HKDF-Expand failed"))
      }
      return out
    }

    static func aesGCMSeal(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> ([UInt8], [UInt8]) {
      var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
      var tag = [UInt8](repeating: 0, count: 16)
      guard
        dc_aes_gcm_seal(
          key, key.count, nonce, nonce.count, aad, aad.count, plaintext, plaintext.count,
          &ciphertext, &tag) == 1
      else {
        throw CryptoError(.backendFailure, opensslError("AES-GCM seal failed"))
      }
      return (ciphertext, tag)
    }

    static func aesGCMOpen(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
      var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
      guard
        dc_aes_gcm_open(
          key, key.count, nonce, nonce.count, aad, aad.count, ciphertext, ciphertext.count, tag,
          &plaintext) == 1
      else {
        dc_clear_errors()
        throw CryptoError(.authenticationFailure, "AES-GCM tag does not verify")
      }
      return plaintext
    }

    static func randomBytes(count: Int) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: count)
      let ok = dc_random(&out, count)
      precondition(ok == 1, "RAND_bytes failed: the system has no entropy")  // never input-driven
      return out
    }

    static func ecdsaDERToRaw(_ der: [UInt8], scalarByteCount n: Int) throws(CryptoError) -> [UInt8]
    {
      var raw = [UInt8](repeating: 0, count: 2 * n)
      guard !der.isEmpty, dc_ecdsa_der_to_raw(der, der.count, &raw, n) == 1 else {
        throw CryptoError(
          .invalidSignatureEncoding, "not a strict DER ECDSA signature for a \(n)-byte scalar")
      }
      return raw
    }

    static func ecdsaRawToDER(_ raw: [UInt8], scalarByteCount n: Int) -> [UInt8] {
      var der = [UInt8](repeating: 0, count: 2 * n + 9)
      let len = dc_ecdsa_raw_to_der(raw, n, &der)
      precondition(len > 0, "ECDSA_SIG encoding failed")  // only on allocation failure
      return Array(der.prefix(Int(len)))
    }
  }

  /// An OpenSSL `EVP_PKEY` holding a public EC key; immutable after construction.
  final class BackendPublicKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let curve: EllipticCurve
    let uncompressed: [UInt8]

    init(point: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      var normalized = [UInt8](repeating: 0, count: 133)
      var length = 0
      guard
        let pkey = dc_ec_from_public(
          curve.opensslSelector, point, point.count, &normalized, &length)
      else {
        dc_clear_errors()
        throw CryptoError(
          .invalidPoint, "point is not on \(curve.rawValue) or is the point at infinity")
      }
      self.pkey = pkey
      self.curve = curve
      // The encoding comes from the validation step; asking the key again costs an inversion.
      self.uncompressed = Array(normalized.prefix(length))
    }

    convenience init(spki: [UInt8]) throws(CryptoError) {
      guard let pkey = dc_pkey_from_spki(spki, spki.count) else {
        dc_clear_errors()
        throw CryptoError(.invalidKey, "not a valid DER SubjectPublicKeyInfo")
      }
      guard let curve = EllipticCurve(opensslSelector: dc_ec_curve_of(pkey)) else {
        EVP_PKEY_free(pkey)
        throw CryptoError(.unsupportedAlgorithm, "public key is not EC on P-256, P-384 or P-521")
      }
      // Re-validate the point through the same path as raw points (on curve, not infinity).
      let bytes = BackendPublicKey.publicBytes(pkey, curve)
      EVP_PKEY_free(pkey)
      try self.init(point: bytes, curve: curve)
    }

    init(owning pkey: OpaquePointer, curve: EllipticCurve) {
      self.pkey = pkey
      self.curve = curve
      self.uncompressed = BackendPublicKey.publicBytes(pkey, curve)
    }

    static func publicBytes(_ pkey: OpaquePointer, _ curve: EllipticCurve) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: curve.uncompressedPointByteCount)
      var len = 0
      guard dc_ec_public_bytes(pkey, &out, out.count, &len) == 1, len == out.count else {
        dc_clear_errors()
        return []
      }
      return out
    }

    var spki: [UInt8] {
      let len = dc_pkey_to_der(pkey, 0, nil)
      guard len > 0 else { return [] }
      var out = [UInt8](repeating: 0, count: Int(len))
      _ = dc_pkey_to_der(pkey, 0, &out)
      return out
    }

    func verify(raw: [UInt8], message: [UInt8], digest: DigestAlgorithm) -> Bool {
      let der = Backend.ecdsaRawToDER(raw, scalarByteCount: curve.coordinateByteCount)
      return dc_ecdsa_verify(pkey, digest.opensslSelector, message, message.count, der, der.count)
        == 1
    }

    deinit { EVP_PKEY_free(pkey) }
  }

  /// An OpenSSL `EVP_PKEY` holding an EC key pair; immutable after construction.
  final class BackendPrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let curve: EllipticCurve
    let publicKey: BackendPublicKey

    private init(owning pkey: OpaquePointer, curve: EllipticCurve) throws(CryptoError) {
      self.pkey = pkey
      self.curve = curve
      guard EVP_PKEY_up_ref(pkey) == 1 else {
        EVP_PKEY_free(pkey)
        throw CryptoError(.backendFailure, "EVP_PKEY_up_ref failed")
      }
      // The public half shares the EVP_PKEY (one extra reference, released by its deinit).
      self.publicKey = BackendPublicKey(owning: pkey, curve: curve)
    }

    convenience init(generating curve: EllipticCurve) throws(CryptoError) {
      guard let pkey = dc_ec_generate(curve.opensslSelector) else {
        throw CryptoError(.backendFailure, opensslError("EC key generation failed"))
      }
      try self.init(owning: pkey, curve: curve)
    }

    convenience init(scalar: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      guard let pkey = dc_ec_from_private(curve.opensslSelector, scalar, scalar.count) else {
        dc_clear_errors()
        throw CryptoError(
          .invalidKey, "private scalar is zero or not below the \(curve.rawValue) group order")
      }
      try self.init(owning: pkey, curve: curve)
    }

    convenience init(der: [UInt8]) throws(CryptoError) {
      guard let pkey = dc_pkey_from_private_der(der, der.count) else {
        dc_clear_errors()
        throw CryptoError(.invalidKey, "not a valid DER PKCS#8 or SEC1 EC private key")
      }
      guard let curve = EllipticCurve(opensslSelector: dc_ec_curve_of(pkey)) else {
        EVP_PKEY_free(pkey)
        throw CryptoError(.unsupportedAlgorithm, "private key is not EC on P-256, P-384 or P-521")
      }
      // Rebuild from the scalar so the public point is derived, not trusted from the file.
      var scalar = [UInt8](repeating: 0, count: curve.coordinateByteCount)
      let ok = dc_ec_private_bytes(pkey, &scalar, scalar.count)
      EVP_PKEY_free(pkey)
      guard ok == 1 else { throw CryptoError(.invalidKey, "EC private key has no usable scalar") }
      try self.init(scalar: scalar, curve: curve)
    }

    var scalar: [UInt8] {
      var out = [UInt8](repeating: 0, count: curve.coordinateByteCount)
      _ = dc_ec_private_bytes(pkey, &out, out.count)
      return out
    }

    var pkcs8: [UInt8] {
      let len = dc_pkey_to_der(pkey, 1, nil)
      guard len > 0 else { return [] }
      var out = [UInt8](repeating: 0, count: Int(len))
      _ = dc_pkey_to_der(pkey, 1, &out)
      return out
    }

    func sign(message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
      var der = [UInt8](repeating: 0, count: 2 * curve.coordinateByteCount + 9)
      var len = der.count
      guard dc_ecdsa_sign(pkey, digest.opensslSelector, message, message.count, &der, &len) == 1
      else {
        throw CryptoError(.backendFailure, opensslError("ECDSA signing failed"))
      }
      return try Backend.ecdsaDERToRaw(
        Array(der.prefix(len)), scalarByteCount: curve.coordinateByteCount)
    }

    func sharedSecret(with peer: BackendPublicKey) throws(CryptoError) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: curve.coordinateByteCount)
      var len = out.count
      guard dc_ecdh(pkey, peer.pkey, &out, &len) == 1, len == out.count else {
        throw CryptoError(.invalidPoint, opensslError("ECDH failed"))
      }
      return out
    }

    deinit { EVP_PKEY_free(pkey) }
  }
#endif
