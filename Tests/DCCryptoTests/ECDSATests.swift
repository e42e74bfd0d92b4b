import DCCrypto
import DCTestSupport
import Testing

struct ECDSAGroup: Decodable {
  struct Key: Decodable {
    let curve: String
    let uncompressed: String
    let wx: String
    let wy: String
  }
  let publicKey: Key
  let publicKeyDer: String
  let tests: [ECDSATest]
}

struct ECDSATest: Decodable {
  let tcId: Int
  let msg: String
  let sig: String
  let result: WycheproofResult
}

/// Left-pads or strips a Wycheproof big-endian integer to exactly n bytes.
func fixed(_ value: [UInt8], _ n: Int) -> [UInt8] {
  let trimmed = Array(value.drop { $0 == 0 })
  return [UInt8](repeating: 0, count: max(0, n - trimmed.count)) + trimmed
}

@Suite("ECDSA")
struct ECDSATests {
  static let files: [(String, EllipticCurve, Bool)] = [
    ("ecdsa_secp256r1_sha256_test", .p256, false),
    ("ecdsa_secp256r1_sha256_p1363_test", .p256, true),
    ("ecdsa_secp384r1_sha384_test", .p384, false),
    ("ecdsa_secp384r1_sha384_p1363_test", .p384, true),
    ("ecdsa_secp521r1_sha512_test", .p521, false),
    ("ecdsa_secp521r1_sha512_p1363_test", .p521, true),
  ]

  @Test("Wycheproof ECDSA verification: valid accepted, invalid rejected", arguments: files)
  func wycheproof(file: String, curve: EllipticCurve, p1363: Bool) throws {
    let vectors = try loadVectors(file, as: ECDSAGroup.self)
    var valid = 0
    var invalid = 0
    for group in vectors.testGroups {
      let key = try ECPublicKey(
        x963Representation: bytes(group.publicKey.uncompressed), curve: curve)
      // The three key forms of the same group must agree.
      #expect(try ECPublicKey(derRepresentation: bytes(group.publicKeyDer)) == key)
      let n = curve.coordinateByteCount
      #expect(
        try ECPublicKey(
          x: fixed(bytes(group.publicKey.wx), n), y: fixed(bytes(group.publicKey.wy), n),
          curve: curve) == key)
      for test in group.tests {
        let signature: ECDSASignature? =
          p1363
          ? try? ECDSASignature(rawRepresentation: bytes(test.sig), curve: curve)
          : try? ECDSASignature(derRepresentation: bytes(test.sig), curve: curve)
        let verified = signature.map { key.isValidSignature($0, for: bytes(test.msg)) } ?? false
        switch test.result {
        case .valid:
          #expect(verified, "tcId \(test.tcId)")
          valid += 1
        case .invalid:
          #expect(!verified, "tcId \(test.tcId)")
          invalid += 1
        case .acceptable:
          break
        }
      }
    }
    #expect(valid > 50)
    #expect(invalid > 50)
  }

  @Test(
    "Sign and verify round trip on every curve, with DER and raw forms",
    arguments: EllipticCurve.allCases)
  func roundTrip(curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve)
    let message = Array("mdoc".utf8)
    let signature = try key.signature(for: message)
    #expect(signature.rawRepresentation.count == 2 * curve.coordinateByteCount)
    #expect(key.publicKey.isValidSignature(signature, for: message))
    #expect(!key.publicKey.isValidSignature(signature, for: Array("mdoC".utf8)))
    let fromDER = try ECDSASignature(derRepresentation: signature.derRepresentation, curve: curve)
    #expect(fromDER == signature)
    // Another key's signature does not verify.
    let other = try ECPrivateKey(curve: curve)
    #expect(!other.publicKey.isValidSignature(signature, for: message))
    // An explicit digest is honoured: SHA-512 over P-256 verifies only as SHA-512.
    let sha512 = try key.signature(for: message, digest: .sha512)
    #expect(key.publicKey.isValidSignature(sha512, for: message, digest: .sha512))
    #expect(curve == .p521 || !key.publicKey.isValidSignature(sha512, for: message))
  }

  @Test("A signature from another curve never verifies")
  func crossCurve() throws {
    let p256 = try ECPrivateKey(curve: .p256)
    let p384 = try ECPrivateKey(curve: .p384)
    let signature = try p384.signature(for: [1, 2, 3])
    #expect(!p256.publicKey.isValidSignature(signature, for: [1, 2, 3]))
  }

  @Test("Malformed signature encodings are typed errors")
  func malformedSignatures() {
    let invalidSignatureEncodingError = #expect(throws: CryptoError.self) {
      try ECDSASignature(rawRepresentation: [UInt8](repeating: 1, count: 63), curve: .p256)
    }
    #expect(invalidSignatureEncodingError?.code == .invalidSignatureEncoding)
    let invalidSignatureEncodingError2 = #expect(throws: CryptoError.self) {
      try ECDSASignature(derRepresentation: [0x30, 0x00], curve: .p256)
    }
    #expect(invalidSignatureEncodingError2?.code == .invalidSignatureEncoding)
    let invalidSignatureEncodingError3 = #expect(throws: CryptoError.self) {
      try ECDSASignature(derRepresentation: [], curve: .p256)
    }
    #expect(invalidSignatureEncodingError3?.code == .invalidSignatureEncoding)
    // Trailing byte after a valid DER signature.
    let invalidSignatureEncodingError4 = #expect(throws: CryptoError.self) {
      try ECDSASignature(
        derRepresentation: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00], curve: .p256)
    }
    #expect(invalidSignatureEncodingError4?.code == .invalidSignatureEncoding)
  }
}
