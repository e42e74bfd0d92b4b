public import DCCrypto
import DCEncoding
public import DCJSON

/// JWE key management algorithms this module implements (RFC 7518 §4.1).
public enum JWEAlgorithm: String, Sendable, Hashable, CaseIterable {
  /// Direct ECDH-ES key agreement: the Concat KDF output is the content key (RFC 7518 §4.6).
  case ecdhES = "ECDH-ES"
}

/// JWE content encryption algorithms this module implements (RFC 7518 §5.1).
public enum JWEEncryption: String, Sendable, Hashable, CaseIterable {
  /// AES-128 in GCM mode with a 96-bit IV and 128-bit tag (RFC 7518 §5.3).
  case a128gcm = "A128GCM"
  /// AES-256 in GCM mode with a 96-bit IV and 128-bit tag (RFC 7518 §5.3).
  case a256gcm = "A256GCM"

  /// The content key size in bits, the Concat KDF `keydatalen` (RFC 7518 §5.3, §4.6.2).
  package var keyBitCount: Int {
    switch self {
    case .a128gcm: 128
    case .a256gcm: 256
    }
  }
}

/// JWE creation (RFC 7516 §5.1) in the compact serialization (RFC 7516 §7.1).
public enum JWE {
  /// Header names this module sets itself and that `additionalHeader` may not override.
  static let reservedHeaderNames: Set<String> = [
    "alg", "enc", "epk", "apu", "apv", "kid", "zip", "crit",
  ]

  /// Encrypts to a recipient's EC public key with ECDH-ES and AES-GCM and returns
  /// `b64(header)..b64(iv).b64(ciphertext).b64(tag)` (RFC 7516 §5.1, RFC 7518 §4.6, §5.3).
  ///
  /// An ephemeral key on the recipient's curve is drawn from `random` (by the backend's key
  /// generation when `random` is `SecureRandom`) and published as `epk`.
  public static func encrypt(
    plaintext: [UInt8], recipient: ECPublicKey, enc: JWEEncryption, kid: String? = nil,
    apu: [UInt8]? = nil, apv: [UInt8]? = nil, additionalHeader: [(String, JSONValue)] = [],
    random: any RandomSource = SecureRandom()
  ) throws(JOSEError) -> String {
    for (name, _) in additionalHeader where reservedHeaderNames.contains(name) {
      throw JOSEError(.invalidHeader, "header parameter \(name) is set by JWE.encrypt")
    }
    let ephemeral = try ephemeralKey(on: recipient.curve, random: random)
    let encodedHeader = try encodedProtectedHeader(
      enc: enc, kid: kid, epk: ephemeral.publicKey, apu: apu, apv: apv,
      additionalHeader: additionalHeader)
    let sharedSecret: [UInt8]
    do {
      sharedSecret = try ephemeral.sharedSecret(with: recipient)
    } catch {
      throw JOSEError(.cryptoFailure, "ECDH failed: \(error.reason)", underlying: error)
    }
    let key = try ConcatKDF.deriveKey(
      sharedSecret: sharedSecret, keyDataLength: enc.keyBitCount, algorithmID: enc.rawValue,
      partyUInfo: apu ?? [], partyVInfo: apv ?? [])
    // RFC 7518 §5.3: a 96-bit IV; RFC 7516 §5.1 step 14: AAD is ASCII(encoded protected header).
    let iv = random.bytes(count: 12)
    let box: AES.GCM.SealedBox
    do {
      box = try AES.GCM.seal(
        plaintext, key: key, nonce: iv, authenticating: Array(encodedHeader.utf8))
    } catch {
      throw JOSEError(.cryptoFailure, "AES-GCM failed: \(error.reason)", underlying: error)
    }
    // RFC 7516 §7.1: with direct key agreement the encrypted key part is empty.
    let encodedCiphertext = Base64URL.encode(box.ciphertext)
    var jwe = encodedHeader
    jwe.reserveCapacity(encodedHeader.utf8.count + encodedCiphertext.utf8.count + 48)
    jwe += ".."
    jwe += Base64URL.encode(iv)
    jwe += "."
    jwe += encodedCiphertext
    jwe += "."
    jwe += Base64URL.encode(box.tag)
    return jwe
  }

  /// The protected header of ``encrypt(plaintext:recipient:enc:kid:apu:apv:additionalHeader:random:)``,
  /// base64url-encoded: `alg`, `enc`, `kid`, `epk`, `apu`, `apv`, then the additional members.
  private static func encodedProtectedHeader(
    enc: JWEEncryption, kid: String?, epk: ECPublicKey, apu: [UInt8]?, apv: [UInt8]?,
    additionalHeader: [(String, JSONValue)]
  ) throws(JOSEError) -> String {
    var header: [(key: String, value: JSONValue)] = [
      ("alg", .string(JWEAlgorithm.ecdhES.rawValue)), ("enc", .string(enc.rawValue)),
    ]
    if let kid { header.append(("kid", .string(kid))) }
    header.append(("epk", JWK(publicKey: epk).json))
    if let apu { header.append(("apu", .string(Base64URL.encode(apu)))) }
    if let apv { header.append(("apv", .string(Base64URL.encode(apv)))) }
    for (name, value) in additionalHeader {
      guard !header.contains(where: { $0.key == name }) else {
        throw JOSEError(.invalidHeader, "header parameter \(name) appears twice")
      }
      header.append((name, value))
    }
    return Base64URL.encode(JSONValue.object(header).serializedBytes())
  }

  /// Draws a private scalar by rejection sampling (FIPS 186-5 §A.4.2) from `random`, so tests
  /// that seed `random` get a reproducible ephemeral key. With the system generator the
  /// backend's key generation draws it instead, which skips importing the scalar.
  static func ephemeralKey(on curve: EllipticCurve, random: any RandomSource) throws(JOSEError)
    -> ECPrivateKey
  {
    if random is SecureRandom {
      do {
        return try ECPrivateKey(curve: curve)
      } catch {
        throw JOSEError(
          .cryptoFailure, "ephemeral key generation: \(error.reason)", underlying: error)
      }
    }
    for _ in 0..<64 {
      var scalar = random.bytes(count: curve.coordinateByteCount)
      // P-521's order has 521 bits; clearing the top 7 bits of 66 bytes keeps sampling uniform.
      if curve == .p521, !scalar.isEmpty { scalar[0] &= 0x01 }
      if let key = try? ECPrivateKey(rawRepresentation: scalar, curve: curve) { return key }
    }
    throw JOSEError(.cryptoFailure, "the random source produced no valid \(curve.jwkName) scalar")
  }
}

/// A parsed JWE in the compact serialization with `alg: ECDH-ES` (RFC 7516 §7.1, RFC 7518 §4.6).
public struct CompactJWE: Sendable, Hashable {
  /// The protected header, a JSON object (RFC 7516 §4).
  public let protectedHeader: JSONValue
  /// The first part as received; its ASCII bytes are the AAD (RFC 7516 §5.2 step 14).
  package let encodedProtectedHeader: String
  /// The key management algorithm (`alg`, RFC 7516 §4.1.1).
  public let algorithm: JWEAlgorithm
  /// The content encryption algorithm (`enc`, RFC 7516 §4.1.2).
  public let encryption: JWEEncryption
  /// The sender's ephemeral public key (`epk`, RFC 7518 §4.6.1.1), validated as a point.
  public let ephemeralPublicKey: JWK
  /// `apu` decoded, or empty (RFC 7518 §4.6.1.2).
  package let agreementPartyUInfo: [UInt8]
  /// `apv` decoded, or empty (RFC 7518 §4.6.1.3).
  package let agreementPartyVInfo: [UInt8]
  /// The 96-bit initialization vector (RFC 7518 §5.3).
  package let initializationVector: [UInt8]
  /// The ciphertext (RFC 7516 §2).
  package let ciphertext: [UInt8]
  /// The 128-bit authentication tag (RFC 7518 §5.3).
  package let authenticationTag: [UInt8]

  /// Parses `header.encryptedKey.iv.ciphertext.tag` (RFC 7516 §5.2 steps 1-4, §7.1).
  ///
  /// - Throws: `malformedJWE` for structure (including a non-empty encrypted key, which ECDH-ES
  ///   forbids), `unsupportedAlgorithm` for other `alg`/`enc`, `invalidKey` for a bad `epk`.
  public init(_ compact: String) throws(JOSEError) {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 5 else {
      throw JOSEError(.malformedJWE, "compact JWE must have 5 parts, found \(parts.count)")
    }
    let header = try JOSEHeader.decodeProtected(parts[0], code: .malformedJWE)
    try JOSEHeader.checkExtensions(protected: header.value, unprotected: nil)
    let (algorithm, encryption) = try Self.algorithms(header.value)
    // RFC 7516 §4.1.3: compression is not implemented, so a `zip` header cannot be honoured.
    guard header.value["zip"] == nil else {
      throw JOSEError(.unsupportedAlgorithm, "JWE zip is not supported")
    }
    guard let epkValue = header.value["epk"] else {
      throw JOSEError(.invalidHeader, "ECDH-ES needs an epk header (RFC 7518 §4.6.1.1)")
    }
    _ = try JOSEHeader.string("kid", in: header.value)
    _ = try JOSEHeader.string("typ", in: header.value)
    let epk = try JWK(json: epkValue)
    guard !epk.isPrivate else { throw JOSEError(.invalidKey, "epk must be a public key") }
    // RFC 7518 §4.6: with direct key agreement the JWE Encrypted Key is the empty octet sequence.
    guard parts[1].isEmpty else {
      throw JOSEError(.malformedJWE, "ECDH-ES requires an empty encrypted key")
    }
    func decode(_ part: Substring, _ name: String) throws(JOSEError) -> [UInt8] {
      try Self.decodePart(part, name)
    }
    func headerBytes(_ name: String) throws(JOSEError) -> [UInt8] {
      guard let text = try JOSEHeader.string(name, in: header.value) else { return [] }
      return try decode(text[...], name)
    }
    let iv = try decode(parts[2], "iv")
    let tag = try decode(parts[4], "tag")
    guard iv.count == 12 else {
      throw JOSEError(.malformedJWE, "AES-GCM IV must be 96 bits, got \(iv.count * 8)")
    }
    guard tag.count == 16 else {
      throw JOSEError(.malformedJWE, "AES-GCM tag must be 128 bits, got \(tag.count * 8)")
    }
    self.algorithm = algorithm
    self.encryption = encryption
    ephemeralPublicKey = epk
    agreementPartyUInfo = try headerBytes("apu")
    agreementPartyVInfo = try headerBytes("apv")
    initializationVector = iv
    ciphertext = try decode(parts[3], "ciphertext")
    authenticationTag = tag
    protectedHeader = header.value
    encodedProtectedHeader = String(parts[0])
  }

  /// The key management and content encryption algorithms, `alg` and `enc`, both supported.
  private static func algorithms(_ header: JSONValue) throws(JOSEError) -> (
    JWEAlgorithm, JWEEncryption
  ) {
    guard let alg = try JOSEHeader.string("alg", in: header) else {
      throw JOSEError(.invalidHeader, "JWE header has no alg")
    }
    guard let algorithm = JWEAlgorithm(rawValue: alg) else {
      throw JOSEError(.unsupportedAlgorithm, "JWE alg \(alg) is not supported")
    }
    guard let enc = try JOSEHeader.string("enc", in: header) else {
      throw JOSEError(.invalidHeader, "JWE header has no enc")
    }
    guard let encryption = JWEEncryption(rawValue: enc) else {
      throw JOSEError(.unsupportedAlgorithm, "JWE enc \(enc) is not supported")
    }
    return (algorithm, encryption)
  }

  /// A base64url part of the JWE (or a header member), decoded; `name` is for the error.
  private static func decodePart(_ part: Substring, _ name: String) throws(JOSEError) -> [UInt8] {
    do {
      return try Base64URL.decode(String(part))
    } catch {
      throw JOSEError(.malformedJWE, "\(name): \(error.reason)", underlying: error)
    }
  }

  /// The recipient key ID, `kid` (RFC 7516 §4.1.6).
  public var keyID: String? { protectedHeader["kid"]?.string }

  /// Derives the content key with the recipient's private key and decrypts (RFC 7516 §5.2,
  /// RFC 7518 §4.6.2, §5.3).
  ///
  /// - Throws: `algorithmKeyMismatch` when `epk` is on another curve than the key,
  ///   `decryptionFailed` when the tag does not verify.
  public func decrypt(with key: ECPrivateKey) throws(JOSEError) -> [UInt8] {
    guard ephemeralPublicKey.crv == key.curve else {
      throw JOSEError(
        .algorithmKeyMismatch,
        "epk is on \(ephemeralPublicKey.crv.jwkName), the key on \(key.curve.jwkName)")
    }
    let sharedSecret: [UInt8]
    do {
      sharedSecret = try key.sharedSecret(with: try ephemeralPublicKey.publicKey())
    } catch let error as JOSEError {
      throw error
    } catch {
      throw JOSEError(.invalidKey, "ECDH with epk failed: \(error)", underlying: error)
    }
    let contentKey = try ConcatKDF.deriveKey(
      sharedSecret: sharedSecret, keyDataLength: encryption.keyBitCount,
      algorithmID: encryption.rawValue, partyUInfo: agreementPartyUInfo,
      partyVInfo: agreementPartyVInfo)
    do {
      let box = try AES.GCM.SealedBox(
        nonce: initializationVector, ciphertext: ciphertext, tag: authenticationTag)
      return try AES.GCM.open(
        box, key: contentKey, authenticating: Array(encodedProtectedHeader.utf8))
    } catch {
      throw JOSEError(.decryptionFailed, "JWE authentication failed", underlying: error)
    }
  }
}
