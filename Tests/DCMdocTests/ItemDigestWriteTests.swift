import DCCBOR
import DCCrypto
import Testing

@testable import DCMdoc

/// `IssuerSignedItem.digest` hashes `IssuerSignedItemBytes` written straight from the item's kept
/// encoding (perf1314); the bytes hashed must be exactly `taggedItem.encoded()`, the tag 24 item
/// through the `CBOR` tree and the encoder, for every length of byte string head.
@Suite("IssuerSignedItem digest written directly")
struct ItemDigestWriteTests {
  /// Byte string lengths around every head width boundary (RFC 8949 §3: 0..23 in the initial
  /// byte, then 1, 2 and 4 argument bytes).
  static let lengths = [0, 1, 23, 24, 25, 255, 256, 257, 65_535, 65_536, 70_000]

  @Test("the bytes hashed equal the encoded tag 24 item", arguments: lengths)
  func taggedBytesEqualTreeEncoding(length: Int) {
    let content = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let viaTree = CBOR.tagged(24, .byteString(content)).encoded()
    #expect(IssuerSignedItem.taggedItemBytes(content) == viaTree)
  }

  @Test("an item's digest is the hash of taggedItem.encoded()", arguments: lengths)
  func digestEqualsHashOfTreeEncoding(length: Int) {
    let item = IssuerSignedItem(
      digestID: UInt64(length), random: [UInt8](repeating: 0xA5, count: 16),
      elementIdentifier: "portrait", elementValue: .byteString([UInt8](repeating: 9, count: length))
    )
    for algorithm in DigestAlgorithm.allCases {
      #expect(item.digest(algorithm) == algorithm.hash(item.taggedItem.encoded()))
    }
  }

  @Test("a decoded item's digest still matches its MSO")
  func decodedItemDigestMatches() throws {
    let item = IssuerSignedItem(
      digestID: 3, random: [UInt8](repeating: 1, count: 16), elementIdentifier: "given_name",
      elementValue: .textString("Erika"))
    let decoded = try IssuerSignedItem(taggedItem: try CBOR.decode(item.taggedItem.encoded()))
    #expect(decoded.digest(.sha256) == SHA256.hash(data: item.taggedItem.encoded()))
    #expect(decoded.digest(.sha256) != SHA256.hash(data: item.encoded.bytes))
  }
}
