import DCErrors

// The Linux backend: OpenSSL 3 libcrypto through the COpenSSLShim C target (which links the
// COpenSSL system library). Translation only: sizes, encodings and error codes are decided in
// the shared files that call it. Every C call's result is checked; a failure throws.
#if DCWALLET_OPENSSL_BACKEND || !canImport(CryptoKit)
  internal import CDCOpenSSLShim

  extension DigestAlgorithm {
    var openssl: DCDigest {
      switch self {
      case .sha256: DCDigestSHA256
      case .sha384: DCDigestSHA384
      case .sha512: DCDigestSHA512
      }
    }
  }

  extension EllipticCurve {
    var openssl: DCCurve {
      switch self {
      case .p256: DCCurveP256
      case .p384: DCCurveP384
      case .p521: DCCurveP521
      }
    }

    init?(openssl curve: DCCurve) {
      switch curve {
      case DCCurveP256: self = .p256
      case DCCurveP384: self = .p384
      case DCCurveP521: self = .p521
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
      let ok = dc_digest(algorithm.openssl, data, data.count, &out)
      // The public hashing API cannot fail (as CryptoKit's); only allocation failure gets here.
      precondition(ok == 1, "EVP_Digest failed for a built-in digest")
      return out
    }

    final class DigestState: @unchecked Sendable {
      private let ctx: OpaquePointer
      private let algorithm: DigestAlgorithm

      init(_ algorithm: DigestAlgorithm) {
        guard let ctx = dc_digest_new(algorithm.openssl) else {
          preconditionFailure("EVP_DigestInit failed for a built-in digest")  // allocation failure
        }
        self.ctx = ctx
        self.algorithm = algorithm
      }

      init(copying other: DigestState) {
        guard let ctx = dc_digest_dup(other.ctx) else {
          preconditionFailure("EVP_MD_CTX_copy_ex failed")  // allocation failure only
        }
        self.ctx = ctx
        algorithm = other.algorithm
      }

      func update(_ data: [UInt8]) {
        let ok = dc_digest_update(ctx, data, data.count)
        precondition(ok == 1, "EVP_DigestUpdate failed")  // not input-dependent
      }

      func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: algorithm.byteCount)
        let ok = dc_digest_final(ctx, &out)
        precondition(ok == 1, "EVP_DigestFinal failed")  // not input-dependent
        return out
      }

      func peek() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: algorithm.byteCount)
        let ok = dc_digest_peek(ctx, &out)
        precondition(ok == 1, "EVP_MD_CTX_copy_ex failed")  // allocation failure only
        return out
      }

      deinit { dc_digest_free(ctx) }
    }

    static func hmac(_ algorithm: DigestAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: algorithm.byteCount)
      let ok = dc_hmac(algorithm.openssl, key, key.count, data, data.count, &out)
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
      guard dc_hkdf_expand(algorithm.openssl, prk, prk.count, info, info.count, &out, count) == 1
      else {
        throw CryptoError(.backendFailure, opensslError("HKDF-Expand failed"))
      }
      return out
    }

    static func aes256ECB(key: [UInt8], blocks: [UInt8]) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: blocks.count)
      let ok = dc_aes256_ecb_encrypt(key, blocks, blocks.count, &out)
      precondition(ok == 1, "AES-256-ECB failed")  // sizes checked by the caller
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

    /// `ciphertext || tag` written into one array (no zero fill, no joining afterwards).
    static func aesGCMSealCombined(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
      var status: Int32 = 0
      let sealed = [UInt8](unsafeUninitializedCapacity: plaintext.count + 16) { buffer, count in
        count = 0
        guard let base = buffer.baseAddress else { return }
        status = dc_aes_gcm_seal(
          key, key.count, nonce, nonce.count, aad, aad.count, plaintext, plaintext.count, base,
          base + plaintext.count)
        if status == 1 { count = buffer.count }
      }
      guard status == 1 else {
        throw CryptoError(.backendFailure, opensslError("AES-GCM seal failed"))
      }
      return sealed
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
  }

  /// An OpenSSL `EVP_PKEY` holding a public EC key; immutable after construction.
  final class BackendPublicKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let curve: EllipticCurve
    let uncompressed: [UInt8]
    /// Whether pkey came from `dc_ec_from_public` and is this object's alone, so that it goes
    /// back to the shim's pool of public keys (which sets a new point on it before any reuse)
    /// instead of being freed.
    private let poolable: Bool

    init(point: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      var normalized = [UInt8](repeating: 0, count: curve.uncompressedPointByteCount)
      var length = 0
      guard
        let pkey = dc_ec_from_public(
          curve.openssl, point, point.count, &normalized, normalized.count, &length)
      else {
        dc_clear_errors()
        throw CryptoError(
          .invalidPoint, "point is not on \(curve.rawValue) or is the point at infinity")
      }
      guard length == normalized.count else {
        dc_pkey_free(pkey)
        throw CryptoError(.backendFailure, "EC point normalised to \(length) bytes")
      }
      self.pkey = pkey
      self.curve = curve
      // The encoding comes from the validation step; asking the key again costs an inversion.
      self.uncompressed = normalized
      self.poolable = true
    }

    /// Takes one reference to pkey; on a throw that reference is released.
    init(owning pkey: OpaquePointer, curve: EllipticCurve) throws(CryptoError) {
      var out = [UInt8](repeating: 0, count: curve.uncompressedPointByteCount)
      var len = 0
      guard dc_ec_public_bytes(pkey, &out, out.count, &len) == 1, len == out.count else {
        dc_pkey_free(pkey)
        throw CryptoError(.backendFailure, opensslError("EC key has no public point"))
      }
      self.pkey = pkey
      self.curve = curve
      self.uncompressed = out
      self.poolable = false
    }

    func verify(raw: [UInt8], message: [UInt8], digest: DigestAlgorithm) -> Bool {
      let der = ECDSASignature.der(raw: raw, scalarByteCount: curve.coordinateByteCount)
      return dc_ecdsa_verify(pkey, digest.openssl, message, message.count, der, der.count) == 1
    }

    deinit {
      if poolable { dc_ec_public_release(curve.openssl, pkey) } else { dc_pkey_free(pkey) }
    }
  }

  /// An OpenSSL `EVP_PKEY` holding an EC key pair; immutable after construction.
  final class BackendPrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer
    let curve: EllipticCurve
    let publicKey: BackendPublicKey
    /// The private scalar, read once here so that exporting it later cannot fail.
    let scalar: [UInt8]

    /// Takes one reference to pkey; on a throw that reference is released.
    private init(owning pkey: OpaquePointer, curve: EllipticCurve) throws(CryptoError) {
      var scalar = [UInt8](repeating: 0, count: curve.coordinateByteCount)
      guard dc_ec_private_bytes(pkey, &scalar, scalar.count) == 1 else {
        dc_pkey_free(pkey)
        throw CryptoError(.backendFailure, opensslError("EC private key has no scalar"))
      }
      guard dc_pkey_up_ref(pkey) == 1 else {
        dc_pkey_free(pkey)
        throw CryptoError(.backendFailure, opensslError("EVP_PKEY_up_ref failed"))
      }
      // The public half shares the EVP_PKEY (one extra reference, released by its deinit or by
      // its throwing initializer).
      let publicKey: BackendPublicKey
      do {
        publicKey = try BackendPublicKey(owning: pkey, curve: curve)
      } catch {
        dc_pkey_free(pkey)
        throw error
      }
      self.pkey = pkey
      self.curve = curve
      self.publicKey = publicKey
      self.scalar = scalar
    }

    convenience init(generating curve: EllipticCurve) throws(CryptoError) {
      guard let pkey = dc_ec_generate(curve.openssl) else {
        throw CryptoError(.backendFailure, opensslError("EC key generation failed"))
      }
      try self.init(owning: pkey, curve: curve)
    }

    convenience init(scalar: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      guard let pkey = dc_ec_from_private(curve.openssl, scalar, scalar.count) else {
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
      var selector = DCCurveP256
      guard dc_ec_curve_of(pkey, &selector) == 1, let curve = EllipticCurve(openssl: selector)
      else {
        dc_pkey_free(pkey)
        dc_clear_errors()
        throw CryptoError(.unsupportedAlgorithm, "private key is not EC on P-256, P-384 or P-521")
      }
      // Rebuild from the scalar so the public point is derived, not trusted from the file.
      var scalar = [UInt8](repeating: 0, count: curve.coordinateByteCount)
      let ok = dc_ec_private_bytes(pkey, &scalar, scalar.count)
      dc_pkey_free(pkey)
      guard ok == 1 else {
        dc_clear_errors()
        throw CryptoError(.invalidKey, "EC private key has no usable scalar")
      }
      try self.init(scalar: scalar, curve: curve)
    }

    func sign(message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
      var der = [UInt8](repeating: 0, count: 2 * curve.coordinateByteCount + 9)
      var len = der.count
      guard dc_ecdsa_sign(pkey, digest.openssl, message, message.count, &der, &len) == 1
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

    deinit { dc_pkey_free(pkey) }
  }

  extension HKDF {
    /// HKDF-Expand through OpenSSL's HKDF KDF (a new KDF context per call): the reference that
    /// tests compare `expand` (T(i) blocks by HMAC, RFC 5869 §2.3) with. Linux only.
    package static func expandThroughOpenSSLKDF(
      _ algorithm: DigestAlgorithm, pseudoRandomKey: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: outputByteCount)
      guard
        dc_hkdf_expand_kdf(
          algorithm.openssl, pseudoRandomKey, pseudoRandomKey.count, info, info.count, &out,
          outputByteCount) == 1
      else {
        throw CryptoError(.backendFailure, opensslError("HKDF-Expand failed"))
      }
      return out
    }

    /// The backend's HKDF-Expand called directly, without `expand`'s checks in Swift, so that
    /// tests reach the C function's own refusals (L = 0, L > 255 × HashLen). Linux only.
    package static func expandInBackendUnchecked(
      _ algorithm: DigestAlgorithm, pseudoRandomKey: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
      try Backend.hkdfExpand(
        algorithm, prk: pseudoRandomKey, info: info, count: outputByteCount)
    }
  }
#endif
