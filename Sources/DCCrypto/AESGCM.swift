import DCErrors

/// AES (FIPS 197) namespace, shaped like CryptoKit's `AES`.
public enum AES {
  /// The AES-256 block function (FIPS 197 §5.1) applied to each 16-byte block independently:
  /// for a keystream whose counter layout a protocol fixes itself (Longfellow's Fiat–Shamir
  /// PRF encrypts little-endian block numbers). `blocks` must be a non-empty multiple of 16
  /// bytes and `key` 32 bytes.
  package static func encryptBlocks256(key: [UInt8], blocks: [UInt8]) -> [UInt8] {
    precondition(key.count == 32 && !blocks.isEmpty && blocks.count % 16 == 0)
    return Backend.aes256ECB(key: key, blocks: blocks)
  }

  /// AES in Galois/Counter Mode (NIST SP 800-38D) with a 128-bit tag.
  public enum GCM {
    /// The tag length this library produces and requires, in bytes.
    public static let tagByteCount = 16

    /// The shortest nonce accepted, in bytes (CryptoKit's `AES.GCM.Nonce` minimum).
    static let minimumNonceByteCount = 12

    /// The output of a seal: nonce, ciphertext and tag.
    public struct SealedBox: Sendable, Hashable {
      /// The nonce (IV) the message was sealed with.
      public let nonce: [UInt8]
      /// The ciphertext, as long as the plaintext.
      public let ciphertext: [UInt8]
      /// The 16-byte authentication tag.
      public let tag: [UInt8]

      /// Assembles a box from its parts; the tag must be 16 bytes.
      public init(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) throws(CryptoError) {
        guard tag.count == GCM.tagByteCount else {
          throw CryptoError(.invalidParameter, "AES-GCM tag must be 16 bytes, got \(tag.count)")
        }
        self.nonce = nonce
        self.ciphertext = ciphertext
        self.tag = tag
      }

      /// `ciphertext || tag`, the layout HPKE and JWE-style users expect.
      package var ciphertextAndTag: [UInt8] { ciphertext + tag }
    }

    /// Encrypts and authenticates plaintext (SP 800-38D §7.1).
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt; any length, including empty.
    ///   - key: 16, 24 or 32 bytes.
    ///   - nonce: at least 12 bytes; 12 is the standard size (SP 800-38D §5.2.1.1).
    ///   - authenticatedData: associated data, authenticated but not encrypted.
    /// - Returns: the nonce, the ciphertext (as long as the plaintext) and the 16-byte tag.
    /// - Throws: `CryptoError.invalidParameter` for a key of another size or a nonce shorter
    ///   than 12 bytes.
    public static func seal(
      _ plaintext: some Collection<UInt8>, key: some Collection<UInt8>,
      nonce: some Collection<UInt8>,
      authenticating authenticatedData: some Collection<UInt8> = [UInt8]()
    ) throws(CryptoError) -> SealedBox {
      let key = Array(key)
      let nonce = Array(nonce)
      try validate(key: key, nonce: nonce)
      let (ciphertext, tag) = try Backend.aesGCMSeal(
        key: key, nonce: nonce, aad: Array(authenticatedData), plaintext: Array(plaintext))
      return try SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// ``seal(_:key:nonce:authenticating:)`` returning `ciphertext || tag` as one array, the
    /// layout HPKE sends (RFC 9180 §5.2), without joining the two parts afterwards.
    package static func sealCombined(
      _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating authenticatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
      try validate(key: key, nonce: nonce)
      return try Backend.aesGCMSealCombined(
        key: key, nonce: nonce, aad: authenticatedData, plaintext: plaintext)
    }

    /// Checks the tag and decrypts (SP 800-38D §7.2). Nothing is returned unless the tag verifies.
    ///
    /// - Throws: `CryptoError.authenticationFailure` for a wrong key, nonce, data or tag;
    ///   `CryptoError.invalidParameter` for a key of another size or a nonce under 12 bytes.
    public static func open(
      _ box: SealedBox, key: some Collection<UInt8>,
      authenticating authenticatedData: some Collection<UInt8> = [UInt8]()
    ) throws(CryptoError) -> [UInt8] {
      let key = Array(key)
      try validate(key: key, nonce: box.nonce)
      return try Backend.aesGCMOpen(
        key: key, nonce: box.nonce, aad: Array(authenticatedData), ciphertext: box.ciphertext,
        tag: box.tag)
    }

    private static func validate(key: [UInt8], nonce: [UInt8]) throws(CryptoError) {
      guard [16, 24, 32].contains(key.count) else {
        throw CryptoError(
          .invalidParameter, "AES-GCM key must be 16, 24 or 32 bytes, got \(key.count)")
      }
      // SP 800-38D §5.2.1.1 allows any IV of at least one bit, but CryptoKit's `AES.GCM.Nonce`
      // refuses fewer than 12 bytes; deciding it here makes both backends refuse them alike.
      // No protocol this library speaks uses another size (HPKE Nn = 12, JWE A*GCM 96-bit IVs).
      guard nonce.count >= minimumNonceByteCount else {
        throw CryptoError(
          .invalidParameter,
          "AES-GCM nonce must be at least \(minimumNonceByteCount) bytes, got \(nonce.count)")
      }
    }
  }
}
