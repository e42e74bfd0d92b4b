import DCCrypto
import DCTestSupport
import Testing

struct MACGroup: Decodable {
  let keySize: Int
  let tagSize: Int
  let tests: [MACTest]
}

struct MACTest: Decodable {
  let tcId: Int
  let key: String
  let msg: String
  let tag: String
  let result: WycheproofResult
}

struct HKDFGroup: Decodable {
  let tests: [HKDFTest]
}

struct HKDFTest: Decodable {
  let tcId: Int
  let ikm: String
  let salt: String
  let info: String
  let size: Int
  let okm: String
  let result: WycheproofResult
}

@Suite("Digests, HMAC and HKDF")
struct DigestHMACHKDFTests {
  @Test("FIPS 180-4 digests of \"abc\"")
  func digestsOfABC() {
    let abc = Array("abc".utf8)
    #expect(
      hexString(SHA256.hash(data: abc))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hexString(SHA384.hash(data: abc))
        == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
    )
    #expect(
      hexString(SHA512.hash(data: abc))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    )
  }

  @Test("Incremental hashing equals one-shot hashing")
  func incremental() {
    let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    for algorithm in DigestAlgorithm.allCases {
      var h = HashFunction(algorithm)
      h.update(data[..<333])
      h.update(data[333...])
      #expect(h.finalize() == algorithm.hash(data))
    }
  }

  @Test(
    "Wycheproof HMAC",
    arguments: [
      ("hmac_sha256_test", DigestAlgorithm.sha256),
      ("hmac_sha384_test", .sha384),
      ("hmac_sha512_test", .sha512),
    ])
  func wycheproofHMAC(file: String, algorithm: DigestAlgorithm) throws {
    let vectors = try loadVectors(file, as: MACGroup.self)
    var checked = 0
    for group in vectors.testGroups {
      for test in group.tests {
        let full = HMAC.authenticationCode(algorithm, for: bytes(test.msg), key: bytes(test.key))
        // Truncated-tag groups compare the leading tagSize bits (RFC 2104 §5).
        let computed = Array(full.prefix(group.tagSize / 8))
        let matches = computed == bytes(test.tag)
        #expect(matches == (test.result == .valid), "tcId \(test.tcId)")
        if group.tagSize / 8 == algorithm.byteCount {
          #expect(
            HMAC.isValidAuthenticationCode(
              bytes(test.tag), algorithm, for: bytes(test.msg), key: bytes(test.key))
              == (test.result == .valid), "tcId \(test.tcId)")
        }
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  @Test(
    "Wycheproof HKDF",
    arguments: [
      ("hkdf_sha256_test", DigestAlgorithm.sha256),
      ("hkdf_sha384_test", .sha384),
      ("hkdf_sha512_test", .sha512),
    ])
  func wycheproofHKDF(file: String, algorithm: DigestAlgorithm) throws {
    let vectors = try loadVectors(file, as: HKDFGroup.self)
    var valid = 0
    var invalid = 0
    for group in vectors.testGroups {
      for test in group.tests {
        let result = Result { () throws(CryptoError) -> [UInt8] in
          try HKDF.deriveKey(
            algorithm, inputKeyMaterial: bytes(test.ikm), salt: bytes(test.salt),
            info: bytes(test.info),
            outputByteCount: test.size)
        }
        switch test.result {
        case .valid, .acceptable:
          #expect(try result.get() == bytes(test.okm), "tcId \(test.tcId)")
          valid += 1
        case .invalid:
          // The only invalid HKDF cases ask for more than 255 × HashLen bytes.
          let invalidParameterError = #expect(throws: CryptoError.self, "tcId \(test.tcId)") {
            try result.get()
          }
          #expect(invalidParameterError?.code == .invalidParameter)
          invalid += 1
        }
      }
    }
    #expect(valid > 50)
    #expect(invalid > 0)
  }

  @Test("HKDF-Expand refuses over-long output")
  func expandTooLong() {
    let invalidParameterError = #expect(throws: CryptoError.self) {
      try HKDF.expand(
        .sha256, pseudoRandomKey: [UInt8](repeating: 1, count: 32), info: [],
        outputByteCount: 255 * 32 + 1)
    }
    #expect(invalidParameterError?.code == .invalidParameter)
  }

  @Test("Constant-time comparison")
  func constantTime() {
    #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
  }
}
