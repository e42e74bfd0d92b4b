import DCCrypto
import DCTestSupport
import Testing

struct AEADGroup: Decodable {
  let ivSize: Int
  let keySize: Int
  let tagSize: Int
  let tests: [AEADTest]
}

struct AEADTest: Decodable {
  let tcId: Int
  let key: String
  let iv: String
  let aad: String
  let msg: String
  let ct: String
  let tag: String
  let result: WycheproofResult
}

@Suite("AES-GCM")
struct AESGCMTests {
  @Test("Wycheproof AES-GCM: valid vectors seal and open, invalid ones are refused")
  func wycheproof() throws {
    let vectors = try loadVectors("aes_gcm_test", as: AEADGroup.self)
    var valid = 0
    var invalid = 0
    var shortNonces = 0
    for group in vectors.testGroups where group.tagSize == 128 {
      for test in group.tests {
        let key = bytes(test.key)
        let iv = bytes(test.iv)
        let aad = bytes(test.aad)
        switch test.result {
        case .valid where !iv.isEmpty && iv.count < 12:
          // Valid for SP 800-38D (64- and 80-bit IVs), refused by this library as by CryptoKit:
          // AES.GCM takes nonces of at least 12 bytes (decided in shared code, issue 11).
          let invalidParameterError = #expect(throws: CryptoError.self, "tcId \(test.tcId)") {
            _ = try AES.GCM.seal(bytes(test.msg), key: key, nonce: iv, authenticating: aad)
          }
          #expect(invalidParameterError?.code == .invalidParameter)
          let invalidParameterError2 = #expect(throws: CryptoError.self, "tcId \(test.tcId)") {
            let box = try AES.GCM.SealedBox(
              nonce: iv, ciphertext: bytes(test.ct), tag: bytes(test.tag))
            _ = try AES.GCM.open(box, key: key, authenticating: aad)
          }
          #expect(invalidParameterError2?.code == .invalidParameter)
          shortNonces += 1
        case .valid, .acceptable:
          let box = try AES.GCM.seal(bytes(test.msg), key: key, nonce: iv, authenticating: aad)
          #expect(box.ciphertext == bytes(test.ct), "tcId \(test.tcId)")
          #expect(box.tag == bytes(test.tag), "tcId \(test.tcId)")
          let opened = try AES.GCM.open(box, key: key, authenticating: aad)
          #expect(opened == bytes(test.msg), "tcId \(test.tcId)")
          valid += 1
        case .invalid:
          // Invalid cases are modified tags/ciphertexts (the tag does not authenticate), or
          // nonces AES-GCM cannot take (empty: an invalid parameter).
          let refused = #expect(throws: CryptoError.self, "tcId \(test.tcId)") {
            let box = try AES.GCM.SealedBox(
              nonce: iv, ciphertext: bytes(test.ct), tag: bytes(test.tag))
            _ = try AES.GCM.open(box, key: key, authenticating: aad)
          }
          #expect(
            refused?.code == (iv.isEmpty ? .invalidParameter : .authenticationFailure),
            "tcId \(test.tcId)")
          invalid += 1
        }
      }
    }
    #expect(valid > 100)
    #expect(invalid > 20)
    // Exactly the 13 vectors with 64-bit (7) and 80-bit (6) IVs in aes_gcm_test.json.
    #expect(shortNonces == 13)
  }

  @Test("A wrong key, nonce, AAD or tag is an authentication failure")
  func tampering() throws {
    let key = [UInt8](repeating: 7, count: 16)
    let nonce = [UInt8](repeating: 9, count: 12)
    let box = try AES.GCM.seal(
      Array("attack at dawn".utf8), key: key, nonce: nonce, authenticating: [1, 2])
    func fails(_ body: () throws -> Void) {
      #expect {
        try body()
      } throws: { error in
        (error as? CryptoError)?.code == .authenticationFailure
      }
    }
    fails {
      _ = try AES.GCM.open(box, key: [UInt8](repeating: 8, count: 16), authenticating: [1, 2])
    }
    fails { _ = try AES.GCM.open(box, key: key, authenticating: [1, 3]) }
    fails {
      var tag = box.tag
      tag[0] ^= 1
      _ = try AES.GCM.open(
        AES.GCM.SealedBox(nonce: nonce, ciphertext: box.ciphertext, tag: tag), key: key,
        authenticating: [1, 2])
    }
    fails {
      _ = try AES.GCM.open(
        AES.GCM.SealedBox(
          nonce: [UInt8](repeating: 0, count: 12), ciphertext: box.ciphertext, tag: box.tag),
        key: key,
        authenticating: [1, 2])
    }
  }

  @Test("Bad key and nonce sizes are parameter errors")
  func badParameters() {
    let invalidParameterError = #expect(throws: CryptoError.self) {
      try AES.GCM.seal(
        [1], key: [UInt8](repeating: 0, count: 15), nonce: [UInt8](repeating: 0, count: 12))
    }
    #expect(invalidParameterError?.code == .invalidParameter)
    let invalidParameterError2 = #expect(throws: CryptoError.self) {
      try AES.GCM.seal([1], key: [UInt8](repeating: 0, count: 16), nonce: [])
    }
    #expect(invalidParameterError2?.code == .invalidParameter)
    let invalidParameterError3 = #expect(throws: CryptoError.self) {
      try AES.GCM.SealedBox(nonce: [0], ciphertext: [], tag: [0, 1])
    }
    #expect(invalidParameterError3?.code == .invalidParameter)
  }
}
