import DCErrors

// The Apple backend: CryptoKit and Security. Written against Apple's documented API; on Linux it
// is only type-checked (target CryptoPrimitivesOnCryptoKit of the Apple shadow SDK build, issue
// 17), never run, so it holds translation only: every decision (sizes, curve checks, error codes)
// is made in the shared, Linux-tested files that call it. DCWALLET_OPENSSL_BACKEND (set by the
// shadow build for CryptoPrimitives) keeps Backend_openssl.swift selected while a CryptoKit
// module is visible. Key and signature
// encodings (SubjectPublicKeyInfo, PKCS#8, DER ECDSA-Sig-Value) are written and SPKI is read in
// shared Swift (KeyEncoding.swift, ECDSASignature.swift), so neither backend does that here.
#if canImport(CryptoKit) && !DCWALLET_OPENSSL_BACKEND
  #if canImport(CommonCrypto)
    import CommonCrypto
  #endif
  import CryptoKit
  import Foundation
  import Security

  enum Backend {
    static func digest(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
      switch algorithm {
      case .sha256: Array(CryptoKit.SHA256.hash(data: data))
      case .sha384: Array(CryptoKit.SHA384.hash(data: data))
      case .sha512: Array(CryptoKit.SHA512.hash(data: data))
      }
    }

    final class DigestState: @unchecked Sendable {
      private enum State {
        case sha256(CryptoKit.SHA256)
        case sha384(CryptoKit.SHA384)
        case sha512(CryptoKit.SHA512)
      }
      private var state: State

      init(_ algorithm: DigestAlgorithm) {
        switch algorithm {
        case .sha256: state = .sha256(CryptoKit.SHA256())
        case .sha384: state = .sha384(CryptoKit.SHA384())
        case .sha512: state = .sha512(CryptoKit.SHA512())
        }
      }

      init(copying other: DigestState) { state = other.state }

      func update(_ data: [UInt8]) {
        switch state {
        case .sha256(var h):
          h.update(data: data)
          state = .sha256(h)
        case .sha384(var h):
          h.update(data: data)
          state = .sha384(h)
        case .sha512(var h):
          h.update(data: data)
          state = .sha512(h)
        }
      }

      func finalize() -> [UInt8] {
        switch state {
        case .sha256(let h): Array(h.finalize())
        case .sha384(let h): Array(h.finalize())
        case .sha512(let h): Array(h.finalize())
        }
      }

      // CryptoKit's hash functions are values: finalizing a copy leaves the state as it is.
      func peek() -> [UInt8] { finalize() }
    }

    static func hmac(_ algorithm: DigestAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
      let key = SymmetricKey(data: key)
      switch algorithm {
      case .sha256:
        return Array(CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: data, using: key))
      case .sha384:
        return Array(CryptoKit.HMAC<CryptoKit.SHA384>.authenticationCode(for: data, using: key))
      case .sha512:
        return Array(CryptoKit.HMAC<CryptoKit.SHA512>.authenticationCode(for: data, using: key))
      }
    }

    static func hkdfExtract(_ algorithm: DigestAlgorithm, salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
      // RFC 5869 §2.2: HMAC-Hash(salt, IKM), salt defaulting to HashLen zeros.
      hmac(
        algorithm, key: salt.isEmpty ? [UInt8](repeating: 0, count: algorithm.byteCount) : salt,
        data: ikm)
    }

    static func hkdfExpand(
      _ algorithm: DigestAlgorithm, prk: [UInt8], info: [UInt8], count: Int
    ) throws(CryptoError) -> [UInt8] {
      // HKDF.expand checked PRK >= HashLen and the output length (RFC 5869 §2.3).
      let key: SymmetricKey
      switch algorithm {
      case .sha256:
        key = CryptoKit.HKDF<CryptoKit.SHA256>.expand(
          pseudoRandomKey: prk, info: info, outputByteCount: count)
      case .sha384:
        key = CryptoKit.HKDF<CryptoKit.SHA384>.expand(
          pseudoRandomKey: prk, info: info, outputByteCount: count)
      case .sha512:
        key = CryptoKit.HKDF<CryptoKit.SHA512>.expand(
          pseudoRandomKey: prk, info: info, outputByteCount: count)
      }
      return key.withUnsafeBytes { Array($0) }
    }

    static func aes256ECB(key: [UInt8], blocks: [UInt8]) -> [UInt8] {
      #if canImport(CommonCrypto)
        var out = [UInt8](repeating: 0, count: blocks.count)
        var moved = 0
        let status = CCCrypt(
          CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionECBMode),
          key, key.count, nil, blocks, blocks.count, &out, out.count, &moved)
        precondition(status == kCCSuccess && moved == blocks.count, "AES-256-ECB failed")
        return out
      #else
        // Every Apple SDK has CommonCrypto; the Apple shadow SDK (Tests/AppleShadow) does not,
        // and nothing reaches this there (DCZK cannot read a circuit without zstd).
        preconditionFailure("AES-256-ECB needs CommonCrypto")
      #endif
    }

    static func aesGCMSeal(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> ([UInt8], [UInt8]) {
      do {
        let box = try CryptoKit.AES.GCM.seal(
          plaintext, using: SymmetricKey(data: key),
          nonce: try CryptoKit.AES.GCM.Nonce(data: nonce),
          authenticating: aad)
        return (Array(box.ciphertext), Array(box.tag))
      } catch {
        // Key and nonce sizes were checked by AES.GCM (nonce >= 12 bytes, as Nonce(data:)
        // requires), so a failure here is the backend's, coded as on OpenSSL.
        throw CryptoError(.backendFailure, "AES-GCM seal failed: \(error)", underlying: error)
      }
    }

    static func aesGCMSealCombined(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
      let (ciphertext, tag) = try aesGCMSeal(key: key, nonce: nonce, aad: aad, plaintext: plaintext)
      return ciphertext + tag
    }

    static func aesGCMOpen(
      key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
      do {
        let box = try CryptoKit.AES.GCM.SealedBox(
          nonce: try CryptoKit.AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
        return Array(
          try CryptoKit.AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad))
      } catch {
        throw CryptoError(
          .authenticationFailure, "AES-GCM tag does not verify", underlying: error)
      }
    }

    static func randomBytes(count: Int) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: count)
      guard count > 0 else { return out }
      let status = SecRandomCopyBytes(kSecRandomDefault, count, &out)
      precondition(status == errSecSuccess, "SecRandomCopyBytes failed")  // never input-driven
      return out
    }

    static func ecdsaDERToRaw(_ der: [UInt8], scalarByteCount n: Int) throws(CryptoError) -> [UInt8]
    {
      do {
        switch n {
        case 32:
          return Array(try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation)
        case 48:
          return Array(try P384.Signing.ECDSASignature(derRepresentation: der).rawRepresentation)
        case 66:
          return Array(try P521.Signing.ECDSASignature(derRepresentation: der).rawRepresentation)
        default: break
        }
      } catch {}
      throw CryptoError(
        .invalidSignatureEncoding, "not a strict DER ECDSA signature for a \(n)-byte scalar")
    }
  }

  /// A CryptoKit public key of one of the three curves.
  final class BackendPublicKey: @unchecked Sendable {
    enum Key {
      case p256(P256.Signing.PublicKey)
      case p384(P384.Signing.PublicKey)
      case p521(P521.Signing.PublicKey)
    }
    let key: Key
    let curve: EllipticCurve
    let uncompressed: [UInt8]

    init(key: Key) {
      self.key = key
      switch key {
      case .p256(let k):
        curve = .p256
        uncompressed = Array(k.x963Representation)
      case .p384(let k):
        curve = .p384
        uncompressed = Array(k.x963Representation)
      case .p521(let k):
        curve = .p521
        uncompressed = Array(k.x963Representation)
      }
    }

    convenience init(point: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      let compressed = point.first == 0x02 || point.first == 0x03
      do {
        switch curve {
        case .p256:
          self.init(
            key: .p256(
              compressed
                ? try P256.Signing.PublicKey(compressedRepresentation: point)
                : try P256.Signing.PublicKey(x963Representation: point)))
        case .p384:
          self.init(
            key: .p384(
              compressed
                ? try P384.Signing.PublicKey(compressedRepresentation: point)
                : try P384.Signing.PublicKey(x963Representation: point)))
        case .p521:
          self.init(
            key: .p521(
              compressed
                ? try P521.Signing.PublicKey(compressedRepresentation: point)
                : try P521.Signing.PublicKey(x963Representation: point)))
        }
      } catch {
        throw CryptoError(
          .invalidPoint, "point is not on \(curve.rawValue) or is the point at infinity",
          underlying: error)
      }
    }

    func verify(raw: [UInt8], message: [UInt8], digest: DigestAlgorithm) -> Bool {
      switch key {
      case .p256(let k):
        guard let s = try? P256.Signing.ECDSASignature(rawRepresentation: raw) else { return false }
        return Self.verify(message, digest) { k.isValidSignature(s, for: $0) }
      case .p384(let k):
        guard let s = try? P384.Signing.ECDSASignature(rawRepresentation: raw) else { return false }
        return Self.verify(message, digest) { k.isValidSignature(s, for: $0) }
      case .p521(let k):
        guard let s = try? P521.Signing.ECDSASignature(rawRepresentation: raw) else { return false }
        return Self.verify(message, digest) { k.isValidSignature(s, for: $0) }
      }
    }

    /// Hashes message with the requested digest and hands the typed digest to the verifier.
    private static func verify(
      _ message: [UInt8], _ digest: DigestAlgorithm, _ check: (any Digest) -> Bool
    ) -> Bool {
      switch digest {
      case .sha256: check(CryptoKit.SHA256.hash(data: message))
      case .sha384: check(CryptoKit.SHA384.hash(data: message))
      case .sha512: check(CryptoKit.SHA512.hash(data: message))
      }
    }
  }

  /// A CryptoKit private key of one of the three curves.
  final class BackendPrivateKey: @unchecked Sendable {
    enum Key {
      case p256(P256.Signing.PrivateKey)
      case p384(P384.Signing.PrivateKey)
      case p521(P521.Signing.PrivateKey)
    }
    let key: Key
    let curve: EllipticCurve
    let publicKey: BackendPublicKey

    init(key: Key) {
      self.key = key
      switch key {
      case .p256(let k):
        curve = .p256
        publicKey = BackendPublicKey(key: .p256(k.publicKey))
      case .p384(let k):
        curve = .p384
        publicKey = BackendPublicKey(key: .p384(k.publicKey))
      case .p521(let k):
        curve = .p521
        publicKey = BackendPublicKey(key: .p521(k.publicKey))
      }
    }

    convenience init(generating curve: EllipticCurve) throws(CryptoError) {
      switch curve {
      case .p256: self.init(key: .p256(P256.Signing.PrivateKey()))
      case .p384: self.init(key: .p384(P384.Signing.PrivateKey()))
      case .p521: self.init(key: .p521(P521.Signing.PrivateKey()))
      }
    }

    convenience init(scalar: [UInt8], curve: EllipticCurve) throws(CryptoError) {
      do {
        switch curve {
        case .p256: self.init(key: .p256(try P256.Signing.PrivateKey(rawRepresentation: scalar)))
        case .p384: self.init(key: .p384(try P384.Signing.PrivateKey(rawRepresentation: scalar)))
        case .p521: self.init(key: .p521(try P521.Signing.PrivateKey(rawRepresentation: scalar)))
        }
      } catch {
        throw CryptoError(
          .invalidKey, "private scalar is zero or not below the \(curve.rawValue) group order",
          underlying: error)
      }
    }

    convenience init(der: [UInt8]) throws(CryptoError) {
      if let k = try? P256.Signing.PrivateKey(derRepresentation: der) {
        self.init(key: .p256(k))
      } else if let k = try? P384.Signing.PrivateKey(derRepresentation: der) {
        self.init(key: .p384(k))
      } else if let k = try? P521.Signing.PrivateKey(derRepresentation: der) {
        self.init(key: .p521(k))
      } else {
        throw CryptoError(
          .invalidKey, "not a valid DER PKCS#8 or SEC1 EC private key on P-256, P-384 or P-521")
      }
    }

    var scalar: [UInt8] {
      switch key {
      case .p256(let k): Array(k.rawRepresentation)
      case .p384(let k): Array(k.rawRepresentation)
      case .p521(let k): Array(k.rawRepresentation)
      }
    }

    func sign(message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
      do {
        switch (key, digest) {
        case (.p256(let k), .sha256):
          return Array(try k.signature(for: CryptoKit.SHA256.hash(data: message)).rawRepresentation)
        case (.p256(let k), .sha384):
          return Array(try k.signature(for: CryptoKit.SHA384.hash(data: message)).rawRepresentation)
        case (.p256(let k), .sha512):
          return Array(try k.signature(for: CryptoKit.SHA512.hash(data: message)).rawRepresentation)
        case (.p384(let k), .sha256):
          return Array(try k.signature(for: CryptoKit.SHA256.hash(data: message)).rawRepresentation)
        case (.p384(let k), .sha384):
          return Array(try k.signature(for: CryptoKit.SHA384.hash(data: message)).rawRepresentation)
        case (.p384(let k), .sha512):
          return Array(try k.signature(for: CryptoKit.SHA512.hash(data: message)).rawRepresentation)
        case (.p521(let k), .sha256):
          return Array(try k.signature(for: CryptoKit.SHA256.hash(data: message)).rawRepresentation)
        case (.p521(let k), .sha384):
          return Array(try k.signature(for: CryptoKit.SHA384.hash(data: message)).rawRepresentation)
        case (.p521(let k), .sha512):
          return Array(try k.signature(for: CryptoKit.SHA512.hash(data: message)).rawRepresentation)
        }
      } catch {
        throw CryptoError(.backendFailure, "ECDSA signing failed: \(error)", underlying: error)
      }
    }

    func sharedSecret(with peer: BackendPublicKey) throws(CryptoError) -> [UInt8] {
      do {
        let secret: SharedSecret
        switch (key, peer.key) {
        case (.p256(let k), .p256(let p)):
          secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: k.rawRepresentation)
            .sharedSecretFromKeyAgreement(
              with: P256.KeyAgreement.PublicKey(rawRepresentation: p.rawRepresentation))
        case (.p384(let k), .p384(let p)):
          secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: k.rawRepresentation)
            .sharedSecretFromKeyAgreement(
              with: P384.KeyAgreement.PublicKey(rawRepresentation: p.rawRepresentation))
        case (.p521(let k), .p521(let p)):
          secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: k.rawRepresentation)
            .sharedSecretFromKeyAgreement(
              with: P521.KeyAgreement.PublicKey(rawRepresentation: p.rawRepresentation))
        default:
          throw CryptoError(.curveMismatch, "ECDH between keys on different curves")
        }
        return secret.withUnsafeBytes { Array($0) }
      } catch let error as CryptoError {
        throw error
      } catch {
        throw CryptoError(.invalidPoint, "ECDH failed: \(error)", underlying: error)
      }
    }
  }
#endif
