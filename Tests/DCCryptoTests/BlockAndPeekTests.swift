import DCTestSupport
import Testing

@testable import DCCrypto

/// What DCZK's Fiat–Shamir transcript needs from DCCrypto: the AES-256 block function and the
/// digest of a hash still being fed.
@Suite struct BlockAndPeekTests {
  @Test func aes256BlockMatchesFIPS197() {
    // FIPS 197 Appendix C.3 (AES-256), two identical blocks: no chaining between them.
    let key = (0..<32).map { UInt8($0) }
    let block = hexBytes("00112233445566778899aabbccddeeff")
    let out = AES.encryptBlocks256(key: key, blocks: block + block)
    #expect(hexString(out) == String(repeating: "8ea2b7ca516745bfeafc49904b496089", count: 2))
  }

  @Test func currentDigestLeavesTheHashRunning() {
    var hash = HashFunction(.sha256)
    hash.update(Array("ab".utf8))
    #expect(hash.currentDigest() == SHA256.hash(data: Array("ab".utf8)))
    hash.update(Array("c".utf8))
    #expect(hash.currentDigest() == SHA256.hash(data: Array("abc".utf8)))
    #expect(hash.finalize() == SHA256.hash(data: Array("abc".utf8)))
  }
}
