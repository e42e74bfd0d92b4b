import DCCrypto
import DCTestSupport
import Testing

/// HKDF-Expand is computed from HMAC blocks (RFC 5869 §2.3) on the Linux backend instead of
/// through a new OpenSSL HKDF context per call: the RFC's own vectors, and agreement with
/// OpenSSL's HKDF KDF for every digest, block count and edge of the output length.
@Suite("HKDF-Expand from HMAC (RFC 5869 §2.3)")
struct HKDFExpandFromHMACTests {
  struct RFCCase: Sendable, CustomTestStringConvertible {
    let name: String
    let ikm: [UInt8]
    let salt: [UInt8]
    let info: [UInt8]
    let length: Int
    let prk: String
    let okm: String
    var testDescription: String { name }
  }

  /// RFC 5869 Appendix A, test cases 1-3 (the SHA-256 cases): basic, long inputs (three
  /// blocks), and zero-length salt and info.
  static let rfcCases: [RFCCase] = [
    RFCCase(
      name: "A.1", ikm: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c),
      info: Array(0xf0...0xf9), length: 42,
      prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
      okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
    RFCCase(
      name: "A.2", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
      length: 82,
      prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
      okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
        + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
        + "cc30c58179ec3e87c14c01d5c1f3434f1d87"),
    RFCCase(
      name: "A.3", ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42,
      prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
      okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
  ]

  @Test("RFC 5869 Appendix A vectors (SHA-256)", arguments: rfcCases)
  func rfcVectors(_ vector: RFCCase) throws {
    let prk = HKDF.extract(.sha256, salt: vector.salt, inputKeyMaterial: vector.ikm)
    #expect(hexString(prk) == vector.prk)
    let okm = try HKDF.expand(
      .sha256, pseudoRandomKey: prk, info: vector.info, outputByteCount: vector.length)
    #expect(hexString(okm) == vector.okm)
    // Every prefix length is the prefix of the whole output (§2.3: the first L octets).
    for length in [1, 31, 32, 33, 64, 65] where length <= vector.length {
      let prefix = try HKDF.expand(
        .sha256, pseudoRandomKey: prk, info: vector.info, outputByteCount: length)
      #expect(prefix == Array(okm.prefix(length)), "L = \(length)")
    }
  }

  #if !canImport(CryptoKit)
    @Test(
      "Equal to OpenSSL's HKDF KDF for every block count and length edge",
      arguments: DigestAlgorithm.allCases)
    func agreesWithOpenSSLKDF(algorithm: DigestAlgorithm) throws {
      let hashLength = algorithm.byteCount
      let lengths = [
        1, hashLength - 1, hashLength, hashLength + 1, 2 * hashLength, 3 * hashLength + 5,
        254 * hashLength + 1, 255 * hashLength,
      ]
      var seed: UInt8 = 1
      func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in
          seed = seed &* 73 &+ 41
          return seed
        }
      }
      for keyLength in [hashLength, hashLength + 7, 200] {
        for infoLength in [0, 1, 17, 300] {
          let prk = bytes(keyLength)
          let info = bytes(infoLength)
          for length in lengths {
            let ours = try HKDF.expand(
              algorithm, pseudoRandomKey: prk, info: info, outputByteCount: length)
            let reference = try HKDF.expandThroughOpenSSLKDF(
              algorithm, pseudoRandomKey: prk, info: info, outputByteCount: length)
            #expect(
              ours == reference, "key \(keyLength), info \(infoLength), L \(length)")
          }
        }
      }
    }

    @Test("Output lengths past 255 × HashLen are refused", arguments: DigestAlgorithm.allCases)
    func tooLong(algorithm: DigestAlgorithm) throws {
      let prk = [UInt8](repeating: 9, count: algorithm.byteCount)
      #expect(
        try HKDF.expand(
          algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 255 * algorithm.byteCount
        ).count == 255 * algorithm.byteCount)
      let invalidParameterError = #expect(throws: CryptoError.self) {
        try HKDF.expand(
          algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 255 * algorithm.byteCount + 1)
      }
      #expect(invalidParameterError?.code == .invalidParameter)
      // The C function refuses them too (its block counter is one octet), and an empty output.
      let backendFailureError = #expect(throws: CryptoError.self) {
        try HKDF.expandInBackendUnchecked(
          algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 255 * algorithm.byteCount + 1)
      }
      #expect(backendFailureError?.code == .backendFailure)
      let backendFailureError2 = #expect(throws: CryptoError.self) {
        try HKDF.expandInBackendUnchecked(
          algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 0)
      }
      #expect(backendFailureError2?.code == .backendFailure)
      #expect(
        try HKDF.expandInBackendUnchecked(
          algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 255 * algorithm.byteCount)
          == HKDF.expand(
            algorithm, pseudoRandomKey: prk, info: [], outputByteCount: 255 * algorithm.byteCount))
    }
  #endif
}
