import Testing

@testable import DCCBOR

/// Text strings (RFC 8949 §3.1, major type 3): ASCII is copied as is, anything else is validated
/// as UTF-8 over the whole string, wherever the first non-ASCII byte falls (perf4).
struct TextStringTests {
  @Test(arguments: ["", "a", "portrait", "org.iso.18013.5.1", "ü", "水", "aü", "üa", "a𐅑b", "é水𐅑"])
  func validTextDecodes(_ text: String) throws {
    let encoded = CBOR.textString(text).encoded()
    #expect(try CBOR.decode(encoded) == .textString(text))
  }

  /// An ASCII prefix does not vouch for the rest: a bad byte after it, a truncated sequence at
  /// the end, an overlong form or a surrogate are refused.
  @Test(
    arguments: [
      [0x64, 0x61, 0x62, 0x63, 0xff], [0x63, 0x61, 0x62, 0xc3], [0x64, 0x61, 0x62, 0xc0, 0xaf],
      [0x65, 0x61, 0x62, 0xed, 0xa0, 0x80], [0x63, 0xc3, 0xbc, 0x80],
    ] as [[UInt8]])
  func invalidTextIsRefused(_ bytes: [UInt8]) {
    let invalidUTF8Error = #expect(throws: CBORError.self) { try CBOR.decode(bytes) }
    #expect(invalidUTF8Error?.code == .invalidUTF8)
    do {
      _ = try CBOR.decode(bytes)
    } catch {
      #expect(error.code == .invalidUTF8)
    }
  }
}
