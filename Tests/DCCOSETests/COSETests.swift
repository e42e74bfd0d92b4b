import DCCBOR
import DCCOSE
import DCCrypto
import DCTestSupport
import Foundation
import Testing

func base64URL(_ text: String) -> [UInt8] {
  var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
  while s.count % 4 != 0 { s += "=" }
  return Array(Data(base64Encoded: s) ?? Data())
}

func loadCOSEVectors() -> [String: Any] {
  (try? VectorFile.object("cose-sign1-cose-wg", in: .module)) ?? [:]
}

let sign1Names: [String] = ((loadCOSEVectors()["sign1"] as? [String: Any]) ?? [:]).keys.sorted()

@Suite("COSE_Sign1, COSE_Mac0 and COSE_Key")
struct COSETests {
  @Test("The cose-wg Sign1 examples verify (and the fail case does not)", arguments: sign1Names)
  func coseWG(name: String) throws {
    let vector = try #require(
      (loadCOSEVectors()["sign1"] as? [String: Any])?[name] as? [String: Any])
    let input = try #require(vector["input"] as? [String: Any])
    let sign0 = try #require(input["sign0"] as? [String: Any])
    let jwk = try #require(sign0["key"] as? [String: String])
    let key = try ECPublicKey(
      x: base64URL(jwk["x"] ?? ""), y: base64URL(jwk["y"] ?? ""), curve: .p256)
    let output = try #require(vector["output"] as? [String: Any])
    let bytes = hexBytes(try #require(output["cbor"] as? String))
    let message = try COSESign1(bytes: bytes)
    let external = hexBytes(sign0["external"] as? String ?? "")
    let intermediates = try #require(vector["intermediates"] as? [String: Any])
    if vector["fail"] as? Bool != true {
      // The Sig_structure is built from the received protected bytes (h'A0' in sign-pass-01).
      #expect(
        COSESign1.toBeSigned(
          protectedBytes: message.headers.bodyProtected, externalAAD: external,
          payload: message.payload ?? [])
          == hexBytes(try #require(intermediates["ToBeSign_hex"] as? String)))
      try message.verify(publicKey: key, externalAAD: external)
      // Re-encoding keeps the received protected bytes: tagged form is byte-identical.
      let tagged = bytes.first == 0xD2
      #expect(CBOREncoder(mapOrder: .preserved).encode(message.cbor(tagged: tagged)) == bytes)
    } else {
      let invalidSignatureError = #expect(throws: COSEError.self) {
        try message.verify(publicKey: key, externalAAD: external)
      }
      #expect(invalidSignatureError?.code == .invalidSignature)
    }
    // Wrong external AAD never verifies.
    let invalidSignatureError2 = #expect(throws: COSEError.self) {
      try message.verify(publicKey: key, externalAAD: external + [0])
    }
    #expect(invalidSignatureError2?.code == .invalidSignature)
  }

  @Test("COSE_Key EC2 encodings match the golden bytes")
  func coseKeyVectors() throws {
    #expect(sign1Names.count == 4)
    let keys = try #require(loadCOSEVectors()["cose_key"] as? [String: Any])
    let vectors = try #require(keys["vectors"] as? [[String: String]])
    #expect(vectors.count >= 2)
    for v in vectors {
      let crv = ["P-256": 1, "P-384": 2, "P-521": 3][v["crv"] ?? ""] ?? 0
      let key = COSEKey(curveIdentifier: crv, x: hexBytes(v["x"] ?? ""), y: hexBytes(v["y"] ?? ""))
      #expect(hexString(key.cbor.encoded()) == v["hex"], "\(v["name"] ?? "")")
      #expect(try COSEKey(cbor: CBOR.decode(hexBytes(v["hex"] ?? ""))) == key)
      // Synthetic coordinates are not on the curve: extracting a usable key must fail.
      let invalidKeyError = #expect(throws: COSEError.self) { try key.publicKey() }
      #expect(invalidKeyError?.code == .invalidKey)
    }
  }

  @Test("Sign and verify, attached and detached, on every curve", arguments: EllipticCurve.allCases)
  func roundTrip(curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve)
    let payload = Array("DeviceAuthentication".utf8)
    let attached = try COSESign1.sign(payload: payload, signer: key)
    let decoded = try COSESign1(bytes: attached.cbor().encoded())
    try decoded.verify(publicKey: key.publicKey)
    #expect(decoded.headers.algorithm == COSEAlgorithm(signingWith: curve))
    let detached = try COSESign1.sign(payload: payload, detached: true, signer: key)
    #expect(detached.payload == nil)
    try detached.verify(publicKey: key.publicKey, detachedPayload: payload)
    #expect { try detached.verify(publicKey: key.publicKey) } throws: {
      ($0 as? COSEError)?.code == .payloadMismatch
    }
    #expect {
      try detached.verify(publicKey: key.publicKey, detachedPayload: payload + [1])
    } throws: {
      ($0 as? COSEError)?.code == .invalidSignature
    }
    #expect { try attached.verify(publicKey: key.publicKey, detachedPayload: payload) } throws: {
      ($0 as? COSEError)?.code == .payloadMismatch
    }
  }

  @Test("x5chain carries one certificate as a bstr and several as an array")
  func x5chain() throws {
    let key = try ECPrivateKey(curve: .p256)
    let one = try COSESign1.sign(
      payload: [1], unprotected: [COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue([[1, 2, 3]])],
      signer: key)
    #expect(try one.headers.x5chain == [[1, 2, 3]])
    let two = try COSESign1.sign(
      payload: [1], unprotected: [COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue([[1], [2]])],
      signer: key)
    #expect(try COSESign1(bytes: two.cbor().encoded()).headers.x5chain == [[1], [2]])
    let bad = COSESign1(
      headers: COSEHeaders(protected: [1: -7], unprotected: [33: 5]), payload: [], signature: [])
    let malformedError = #expect(throws: COSEError.self) { try bad.headers.x5chain }
    #expect(malformedError?.code == .malformed)
  }

  @Test(
    "Refusals: wrong key, tampered payload, alg/curve mismatch, missing alg, unknown crit, malformed"
  )
  func refusals() throws {
    let key = try ECPrivateKey(curve: .p256)
    let message = try COSESign1.sign(payload: [1, 2, 3], signer: key)
    func code(_ body: () throws -> Void) -> COSEErrorCode? {
      do {
        try body()
        return nil
      } catch let error as COSEError {
        return error.code
      } catch {
        return nil
      }
    }
    #expect(
      code { try message.verify(publicKey: try ECPrivateKey(curve: .p256).publicKey) }
        == .invalidSignature)
    let tampered = COSESign1(
      headers: message.headers, payload: [1, 2, 4], signature: message.signature)
    #expect(code { try tampered.verify(publicKey: key.publicKey) } == .invalidSignature)
    #expect(
      code { try message.verify(publicKey: try ECPrivateKey(curve: .p384).publicKey) }
        == .algorithmKeyMismatch)
    let noAlg = COSESign1(
      headers: COSEHeaders(protected: [:]), payload: [1], signature: message.signature)
    #expect(code { try noAlg.verify(publicKey: key.publicKey) } == .unsupportedAlgorithm)
    let hmacAlg = COSESign1(
      headers: COSEHeaders(protected: [1: 5]), payload: [1], signature: message.signature)
    #expect(code { try hmacAlg.verify(publicKey: key.publicKey) } == .unsupportedAlgorithm)
    let shortSig = COSESign1(
      headers: message.headers, payload: [1, 2, 3], signature: Array(message.signature.dropLast()))
    #expect(code { try shortSig.verify(publicKey: key.publicKey) } == .invalidSignature)
    #expect(
      code { _ = try COSESign1.sign(payload: [1], protected: [1: -35], signer: key) }
        == .algorithmKeyMismatch)
    // An unknown critical header makes the message unreadable (RFC 9052 §3.1).
    let crit = CBOR.array([
      .byteString(CBOR.map([1: -7, 2: [99], 99: 1]).encoded()), .map([:]), .byteString([1]),
      .byteString([]),
    ])
    #expect(code { _ = try COSESign1(cbor: crit) } == .unknownCriticalHeader)
    // Malformed shapes.
    for bad: CBOR in [
      [1, 2, 3], .tagged(17, [.byteString([]), .map([:]), .null, .byteString([])]),
      [.textString("x"), .map([:]), .null, .byteString([])],
      [.byteString([0xff]), .map([:]), .null, .byteString([])],
      [.byteString([]), .map([:]), 5, .byteString([])],
      [.byteString(CBOR.map([1: -7]).encoded()), .map([1: -7]), .null, .byteString([])],
    ] {
      #expect(code { _ = try COSESign1(cbor: bad) } == .malformed, "\(bad)")
    }
    #expect(code { _ = try COSESign1(bytes: [0x84, 0x40]) } == .malformed)
  }

  @Test("COSE_Mac0 with HMAC 256/256: round trip and refusals")
  func mac0() throws {
    let key = [UInt8](repeating: 0x5a, count: 32)
    let mac = COSEMac0.mac(payload: [9, 9], detached: true, key: key)
    let decoded = try COSEMac0(cbor: CBOR.decode(mac.cbor(tagged: true).encoded()))
    try decoded.verify(key: key, detachedPayload: [9, 9])
    let invalidSignatureError = #expect(throws: COSEError.self) {
      try decoded.verify(key: key, detachedPayload: [9, 8])
    }
    #expect(invalidSignatureError?.code == .invalidSignature)
    let invalidSignatureError2 = #expect(throws: COSEError.self) {
      try decoded.verify(key: key + [1], detachedPayload: [9, 9])
    }
    #expect(invalidSignatureError2?.code == .invalidSignature)
    let invalidSignatureError3 = #expect(throws: COSEError.self) {
      try decoded.verify(key: key, detachedPayload: [9, 9], externalAAD: [1])
    }
    #expect(invalidSignatureError3?.code == .invalidSignature)
    let wrongAlg = COSEMac0(headers: COSEHeaders(protected: [1: -7]), payload: nil, mac: mac.mac)
    let unsupportedAlgorithmError = #expect(throws: COSEError.self) {
      try wrongAlg.verify(key: key, detachedPayload: [9, 9])
    }
    #expect(unsupportedAlgorithmError?.code == .unsupportedAlgorithm)
  }

  @Test("COSE_Key round trips and validates", arguments: EllipticCurve.allCases)
  func coseKey(curve: EllipticCurve) throws {
    let key = try ECPrivateKey(curve: curve)
    let pub = COSEKey(publicKey: key.publicKey)
    #expect(try COSEKey(cbor: CBOR.decode(pub.cbor.encoded())).publicKey() == key.publicKey)
    let priv = COSEKey(privateKey: key)
    #expect(try priv.privateKey().rawRepresentation == key.rawRepresentation)
    let invalidKeyError = #expect(throws: COSEError.self) { try pub.privateKey() }
    #expect(invalidKeyError?.code == .invalidKey)
    let mismatched = COSEKey(
      curveIdentifier: pub.curveIdentifier, x: pub.x, y: pub.y,
      d: try ECPrivateKey(curve: curve).rawRepresentation)
    let invalidKeyError2 = #expect(throws: COSEError.self) { try mismatched.privateKey() }
    #expect(invalidKeyError2?.code == .invalidKey)
    let invalidKeyError3 = #expect(throws: COSEError.self) {
      try COSEKey(cbor: [1: 1, -1: 1, -2: .byteString(pub.x), -3: .byteString(pub.y)])
    }
    #expect(invalidKeyError3?.code == .invalidKey)
    let invalidKeyError4 = #expect(throws: COSEError.self) {
      try COSEKey(cbor: [1: 2, -1: 1, -2: .byteString(pub.x), -3: true])
    }
    #expect(invalidKeyError4?.code == .invalidKey)
    let invalidKeyError5 = #expect(throws: COSEError.self) {
      try COSEKey(curveIdentifier: 4, x: pub.x, y: pub.y).publicKey()
    }
    #expect(invalidKeyError5?.code == .invalidKey)
  }
}
