import DCCrypto
import DCTestSupport
import Testing

/// Behaviour that CryptoKit and OpenSSL would decide differently, decided once in shared code
/// (issue 11, item 7): these run on Linux and hold for the Apple backend too.
@Suite("Backend agreement: shared decisions before the backend call")
struct BackendAgreementTests {
  private func code(_ body: () throws -> Void) -> CryptoErrorCode? {
    do {
      try body()
      return nil
    } catch let error as CryptoError {
      return error.code
    } catch {
      return nil
    }
  }

  @Test("AES-GCM nonces shorter than 12 bytes are refused on seal and open")
  func shortNonces() throws {
    let key = [UInt8](repeating: 1, count: 16)
    for count in [1, 8, 10, 11] {
      let nonce = [UInt8](repeating: 2, count: count)
      #expect(
        code { _ = try AES.GCM.seal([1, 2, 3], key: key, nonce: nonce) } == .invalidParameter)
      let box = try AES.GCM.SealedBox(
        nonce: nonce, ciphertext: [1, 2, 3], tag: [UInt8](repeating: 0, count: 16))
      #expect(code { _ = try AES.GCM.open(box, key: key) } == .invalidParameter)
    }
    for count in [12, 16] {
      let box = try AES.GCM.seal([1, 2, 3], key: key, nonce: [UInt8](repeating: 2, count: count))
      #expect(try AES.GCM.open(box, key: key) == [1, 2, 3])
    }
  }

  @Test("HKDF-Expand refuses a pseudorandom key shorter than HashLen (RFC 5869 §2.3)")
  func shortPRK() throws {
    for algorithm in DigestAlgorithm.allCases {
      let short = [UInt8](repeating: 7, count: algorithm.byteCount - 1)
      #expect(
        code {
          _ = try HKDF.expand(algorithm, pseudoRandomKey: short, info: [1], outputByteCount: 16)
        } == .invalidParameter)
      let exact = [UInt8](repeating: 7, count: algorithm.byteCount)
      #expect(
        try HKDF.expand(algorithm, pseudoRandomKey: exact, info: [1], outputByteCount: 16).count
          == 16)
    }
  }

  @Test(
    "SPKI: compressed points are accepted and equal the uncompressed key",
    arguments: EllipticCurve.allCases)
  func compressedSPKI(curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve).publicKey
    let uncompressed = key.derRepresentation
    // Rewrite the encoding around the compressed point (same DER template, shorter BIT STRING).
    let prefix = try spkiPrefix(of: uncompressed, pointCount: key.x963Representation.count)
    let compressedPoint = key.compressedRepresentation
    let compressed = rebuild(prefix, point: compressedPoint)
    #expect(try ECPublicKey(derRepresentation: compressed) == key)
    // Hybrid points (0x06/0x07, X9.62) are not SEC1 encodings this library takes.
    let hybrid = rebuild(prefix, point: [0x06 | (compressedPoint[0] & 1)] + key.rawRepresentation)
    #expect(code { _ = try ECPublicKey(derRepresentation: hybrid) } == .invalidPoint)
  }

  @Test(
    "SPKI written in Swift equals the Wycheproof (OpenSSL-produced) DER",
    arguments: [
      "ecdsa_secp256r1_sha256_test", "ecdsa_secp384r1_sha384_test", "ecdsa_secp521r1_sha512_test",
    ])
  func spkiBytes(file: String) throws {
    let vectors = try loadVectors(file, as: ECDSAGroup.self)
    for group in vectors.testGroups {
      let der = bytes(group.publicKeyDer)
      #expect(try ECPublicKey(derRepresentation: der).derRepresentation == der)
    }
  }

  @Test("SPKI: non-DER, trailing bytes, explicit parameters and other key types are refused")
  func malformedSPKI() throws {
    let der = try ECPrivateKey(curve: .p256).publicKey.derRepresentation
    #expect(code { _ = try ECPublicKey(derRepresentation: der + [0]) } == .invalidKey)
    // The same structure with a non-minimal (BER) outer length.
    let ber = [0x30, 0x81] + der.dropFirst()
    #expect(code { _ = try ECPublicKey(derRepresentation: ber) } == .invalidKey)
    // Unused bits in the BIT STRING.
    var unused = der
    unused[25] = 0x01
    #expect(code { _ = try ECPublicKey(derRepresentation: unused) } == .invalidKey)
    // AlgorithmIdentifier parameters that are not a named curve (here NULL).
    let nullParams = bytes("3051300b06072a8648ce3d02010500") + Array(der[23...])
    #expect(code { _ = try ECPublicKey(derRepresentation: nullParams) } == .invalidKey)
    // secp256k1 (1.3.132.0.10) and Ed25519 are not curves of this library.
    let k1 = bytes("3056301006072a8648ce3d020106052b8104000a") + Array(der[23...])
    #expect(code { _ = try ECPublicKey(derRepresentation: k1) } == .unsupportedAlgorithm)
    let ed25519 = bytes(
      "302a300506032b657003210097cbb1e2c99de8b8bbe6847f9390dcc399811c426a78b4315843929622d2017c")
    #expect(code { _ = try ECPublicKey(derRepresentation: ed25519) } == .unsupportedAlgorithm)
    #expect(code { _ = try ECPublicKey(derRepresentation: []) } == .invalidKey)
  }

  @Test("PKCS#8 written in Swift equals OpenSSL's `pkcs8 -topk8` output")
  func pkcs8Bytes() throws {
    // openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-xxx | openssl pkcs8 -topk8
    //   -nocrypt -outform DER (test keys, not secrets of anything).
    let vectors = [
      "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420aee382e885f4b56911e9bd9a87ba8a5452ec85aa9b552b3add2d21dea6177ce8a144034200042add9fbddedcf108fd70c9aa14e0b424dab08751c8831a6a8f45c8c05b502d196859fedd7cfa3deddda6e5a62fd7aba4b144790663f37047d007a15c5152a523",
      "3081b6020100301006072a8648ce3d020106052b8104002204819e30819b02010104309f70fcad9a90d5d5b6f312e64adaab3812d719bac3ea88e4f966ae99a636eff130e8cb72ed2348a6def3dd1b0e963338a1640362000488e93b3e782a9b3ab66165cf3edefb8e8319390045c99e49d2d2b7129436eaaf37b31e00df3d0bae558f7cada2774fcd209ba5e0203ae3ef0664a38ac61c5bf15901a1adbffc4c5b33b5b1aca509bd322c9f11f7a72c6e00d0d3a486d38eb525",
      "3081ee020100301006072a8648ce3d020106052b810400230481d63081d302010104420114f707a362566249e274bd60a1a99c52ac03a10013661d784e4799b5a5ec0a58b7f728e3e5ca7c0b43c734ab5e518c6e30005b0b2f1fc900acf7455be66d86f954a18189038186000400ec6d9066855b5cf67551b165bb421c11cfee4213a263543ee04f1967956581a52938a9ea72c60642fc67b82665a63951767d254522ee7346767f259e7f383c3d6100ac9a1bb9d26a2432948e3fbc0de2458ca355dc89cef8274266f220127174442ce7eda6228a000838d0a027125792bdb7aef80097728e3847d794e1abce81a61c22",
    ]
    for hex in vectors {
      let der = bytes(hex)
      #expect(try ECPrivateKey(derRepresentation: der).derRepresentation == der)
    }
  }

  @Test("PKCS#8 keys of another type are unsupported, alike on both backends")
  func otherPKCS8() {
    // openssl genpkey -algorithm ED25519 | openssl pkey -outform DER
    let ed25519 = bytes(
      "302e020100300506032b657004220420a41c88dc4d431888f897f0c50b685b2eb12fd855bb097d58611fe87b4b057e71"
    )
    #expect(code { _ = try ECPrivateKey(derRepresentation: ed25519) } == .unsupportedAlgorithm)
    // rsaEncryption with a body no backend parses: refused for its algorithm, not its bytes.
    let rsa = bytes("3014020100300d06092a864886f70d0101010500040100")
    #expect(code { _ = try ECPrivateKey(derRepresentation: rsa) } == .unsupportedAlgorithm)
  }

  @Test("DER ECDSA-Sig-Value written in Swift is minimal (leading zeros, high bits, zero)")
  func signatureDER() throws {
    let n = 32
    // r = 0x80.. (needs a 0x00 pad), s = 0x00..01 (leading zeros dropped).
    var raw = [UInt8](repeating: 0, count: 2 * n)
    raw[0] = 0x80
    raw[2 * n - 1] = 0x01
    let der = try ECDSASignature(rawRepresentation: raw, curve: .p256).derRepresentation
    #expect(
      der == [0x30, 0x26, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31) + [
        0x02, 0x01, 0x01,
      ])
    #expect(try ECDSASignature(derRepresentation: der, curve: .p256).rawRepresentation == raw)
    // P-521 signatures need the long length form.
    let big = [UInt8](repeating: 0xFF, count: 132)
    let der521 = try ECDSASignature(rawRepresentation: big, curve: .p521).derRepresentation
    #expect(der521.prefix(3) == [0x30, 0x81, 0x8A])  // 2 × (2 + 1 + 66) = 138
    #expect(try ECDSASignature(derRepresentation: der521, curve: .p521).rawRepresentation == big)
  }

  /// The bytes before the point in an SPKI whose BIT STRING ends the encoding.
  private func spkiPrefix(of der: [UInt8], pointCount: Int) throws -> [UInt8] {
    try #require(der.count > pointCount + 1)
    return Array(der.prefix(der.count - pointCount - 1))
  }

  /// Re-wraps a point into the same AlgorithmIdentifier (short or long lengths as needed).
  private func rebuild(_ prefix: [UInt8], point: [UInt8]) -> [UInt8] {
    // prefix = 30 L1 [30 .. algorithm ..] 03 L2 — find the algorithm identifier after the header.
    let headerLength = prefix[1] & 0x80 != 0 ? 2 + Int(prefix[1] & 0x7F) : 2
    let algorithmLength = 2 + Int(prefix[headerLength + 1])
    let algorithm = Array(prefix[headerLength..<(headerLength + algorithmLength)])
    func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
      content.count < 0x80
        ? [tag, UInt8(content.count)] + content : [tag, 0x81, UInt8(content.count)] + content
    }
    return tlv(0x30, algorithm + tlv(0x03, [0x00] + point))
  }
}
