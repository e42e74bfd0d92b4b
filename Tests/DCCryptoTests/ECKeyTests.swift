import DCCrypto
import DCTestSupport
import Testing

struct ECDHGroup: Decodable {
  let curve: String
  let encoding: String
  let tests: [ECDHTest]
}

struct ECDHTest: Decodable {
  let tcId: Int
  let `public`: String
  let `private`: String
  let shared: String
  let result: WycheproofResult
  let flags: [String]
}

@Suite("EC keys and ECDH")
struct ECKeyTests {
  static let files: [(String, EllipticCurve)] = [
    ("ecdh_secp256r1_test", .p256),
    ("ecdh_secp256r1_ecpoint_test", .p256),
    ("ecdh_secp384r1_ecpoint_test", .p384),
    ("ecdh_secp521r1_ecpoint_test", .p521),
  ]

  @Test("Wycheproof ECDH: valid agree, invalid public keys are refused", arguments: files)
  func wycheproof(file: String, curve: EllipticCurve) throws {
    let vectors = try loadVectors(file, as: ECDHGroup.self)
    var valid = 0
    var invalid = 0
    for group in vectors.testGroups {
      for test in group.tests {
        let result = Result { () throws -> [UInt8] in
          let priv = try ECPrivateKey(
            rawRepresentation: fixed(bytes(test.private), curve.coordinateByteCount), curve: curve)
          let pub =
            group.encoding == "asn"
            ? try ECPublicKey(derRepresentation: bytes(test.public))
            : try ECPublicKey(x963Representation: bytes(test.public), curve: curve)
          return try priv.sharedSecret(with: pub)
        }
        switch test.result {
        case .valid:
          #expect((try? result.get()) == bytes(test.shared), "tcId \(test.tcId)")
          valid += 1
        case .invalid:
          #expect((try? result.get()) == nil, "tcId \(test.tcId) \(test.flags)")
          invalid += 1
        case .acceptable:
          // Either refused or correct; never a wrong secret.
          if let secret = try? result.get() {
            #expect(secret == bytes(test.shared), "tcId \(test.tcId)")
          }
        }
      }
    }
    #expect(valid > 50)
    #expect(invalid > 5)
  }

  @Test("Key formats round trip", arguments: EllipticCurve.allCases)
  func formats(curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve)
    #expect(key.rawRepresentation.count == curve.coordinateByteCount)
    let pub = key.publicKey
    #expect(pub.x963Representation.count == curve.uncompressedPointByteCount)
    #expect(
      try ECPrivateKey(rawRepresentation: key.rawRepresentation, curve: curve).publicKey == pub)
    #expect(
      try ECPrivateKey(derRepresentation: key.derRepresentation).rawRepresentation
        == key.rawRepresentation)
    #expect(try ECPrivateKey(pemRepresentation: key.pemRepresentation).publicKey == pub)
    #expect(try ECPublicKey(derRepresentation: pub.derRepresentation) == pub)
    #expect(try ECPublicKey(pemRepresentation: pub.pemRepresentation) == pub)
    #expect(try ECPublicKey(rawRepresentation: pub.rawRepresentation, curve: curve) == pub)
    #expect(try ECPublicKey(x: pub.x, y: pub.y, curve: curve) == pub)
    #expect(
      try ECPublicKey(compressedRepresentation: pub.compressedRepresentation, curve: curve) == pub)
    #expect(try ECPublicKey(x963Representation: pub.compressedRepresentation, curve: curve) == pub)
    #expect(!key.description.contains(hexString(key.rawRepresentation)))
  }

  @Test("SEC1 'EC PRIVATE KEY' PEM is read")
  func sec1PEM() throws {
    // openssl ecparam -name prime256v1 -genkey -noout (a test key, not a secret of anything).
    let pem = """
      -----BEGIN EC PRIVATE KEY-----
      MHcCAQEEICYxnlbz1VEbiZAOK+qxP6uKrrC0RhxpR8NI5hSb2l42oAoGCCqGSM49
      AwEHoUQDQgAEj1ZWt7X4gB+eta3gbml+8pcezrZAIIb2crPsa0m59Vn69V/DdMbs
      gyGCkTNNmxe8QiUwfnf+NBNojVfm4h8GAA==
      -----END EC PRIVATE KEY-----
      """
    let key = try ECPrivateKey(pemRepresentation: pem)
    #expect(key.curve == .p256)
    #expect(
      hexString(key.rawRepresentation)
        == "26319e56f3d5511b89900e2beab13fab8aaeb0b4461c6947c348e6149bda5e36")
  }

  @Test("Invalid points are refused: off curve, infinity, wrong length, wrong prefix")
  func invalidPoints() throws {
    let pub = try ECPrivateKey(curve: .p256).publicKey
    var offCurve = pub.x963Representation
    offCurve[offCurve.count - 1] ^= 1
    for bad in [
      offCurve, [0x00], [0x04] + [UInt8](repeating: 0, count: 64),
      Array(pub.x963Representation.dropLast()),
      [0x05] + pub.rawRepresentation,
    ] {
      let invalidPointError = #expect(throws: CryptoError.self) {
        try ECPublicKey(x963Representation: bad, curve: .p256)
      }
      #expect(invalidPointError?.code == .invalidPoint)
    }
    // A P-256 point is not a P-384 point.
    let invalidPointError2 = #expect(throws: CryptoError.self) {
      try ECPublicKey(x963Representation: pub.x963Representation, curve: .p384)
    }
    #expect(invalidPointError2?.code == .invalidPoint)
    let invalidPointError3 = #expect(throws: CryptoError.self) {
      try ECPublicKey(x: pub.x, y: pub.x, curve: .p256)
    }
    #expect(invalidPointError3?.code == .invalidPoint)
    let invalidKeyError = #expect(throws: CryptoError.self) {
      try ECPublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01])
    }
    #expect(invalidKeyError?.code == .invalidKey)
  }

  @Test("Private scalars out of range are refused")
  func invalidScalars() {
    let invalidKeyError = #expect(throws: CryptoError.self) {
      try ECPrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32), curve: .p256)
    }
    #expect(invalidKeyError?.code == .invalidKey)
    // The P-256 group order n itself.
    let n = bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    let invalidKeyError2 = #expect(throws: CryptoError.self) {
      try ECPrivateKey(rawRepresentation: n, curve: .p256)
    }
    #expect(invalidKeyError2?.code == .invalidKey)
    let invalidKeyError3 = #expect(throws: CryptoError.self) {
      try ECPrivateKey(rawRepresentation: [1, 2, 3], curve: .p256)
    }
    #expect(invalidKeyError3?.code == .invalidKey)
    let invalidKeyError4 = #expect(throws: CryptoError.self) {
      try ECPrivateKey(derRepresentation: [0x30, 0x00])
    }
    #expect(invalidKeyError4?.code == .invalidKey)
  }

  @Test("ECDH across curves is a curve mismatch")
  func crossCurveECDH() throws {
    let a = try ECPrivateKey(curve: .p256)
    let b = try ECPrivateKey(curve: .p384)
    #expect {
      try a.sharedSecret(with: b.publicKey)
    } throws: { ($0 as? CryptoError)?.code == .curveMismatch }
    let c = try ECPrivateKey(curve: .p256)
    #expect(try a.sharedSecret(with: c.publicKey) == c.sharedSecret(with: a.publicKey))
  }

  @Test("PEM parsing refuses malformed documents")
  func pem() throws {
    let invalidPEMError = #expect(throws: CryptoError.self) {
      try PEMDocument(pemString: "-----BEGIN X-----\nAAAA\n")
    }
    #expect(invalidPEMError?.code == .invalidPEM)
    let invalidPEMError2 = #expect(throws: CryptoError.self) {
      try PEMDocument(pemString: "-----BEGIN X-----\nAAAA\n-----END Y-----\n")
    }
    #expect(invalidPEMError2?.code == .invalidPEM)
    let invalidPEMError3 = #expect(throws: CryptoError.self) {
      try PEMDocument(pemString: "junk\n-----BEGIN X-----\nAAAA\n-----END X-----\n")
    }
    #expect(invalidPEMError3?.code == .invalidPEM)
    let invalidPEMError4 = #expect(throws: CryptoError.self) {
      try PEMDocument(pemString: "-----BEGIN X-----\n!!!!\n-----END X-----\n")
    }
    #expect(invalidPEMError4?.code == .invalidPEM)
    let doc = PEMDocument(label: "CERTIFICATE", derBytes: Array(0..<100))
    #expect(try PEMDocument(pemString: doc.pemString) == doc)
    #expect(try PEMDocument.parseAll(doc.pemString + doc.pemString).count == 2)
    let pub = try ECPrivateKey(curve: .p256).publicKey
    let invalidPEMError5 = #expect(throws: CryptoError.self) {
      try ECPrivateKey(pemRepresentation: pub.pemRepresentation)
    }
    #expect(invalidPEMError5?.code == .invalidPEM)
  }

  @Test("Random bytes are the requested length and differ")
  func random() {
    #expect(SecureRandom.bytes(count: 0).isEmpty)
    #expect(SecureRandom.bytes(count: 32).count == 32)
    #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
  }
}
