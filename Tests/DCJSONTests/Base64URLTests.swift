import DCJSON
import Testing

@Suite("Base64URL")
struct Base64URLTests {
  @Test("RFC 4648 §10 test strings encode without padding and decode back")
  func rfc4648() throws {
    let cases: [(String, String)] = [
      ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
      ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ]
    for (plain, encoded) in cases {
      #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
      #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test("URL alphabet uses - and _")
  func urlAlphabet() throws {
    #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    #expect(try Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
  }

  @Test(
    "Strict decoding rejects padding, standard alphabet, whitespace, bad lengths and trailing bits",
    arguments: [
      "Zg==", "Zm8=", "+_-_", "-/-_", "Zm9v Yg", "Zm9v\nYg", "Z", "Zm9vY", "Zh", "Zm9", "Zm9vYh",
      "Zg.", "é",
    ]
  )
  func strict(_ text: String) {
    expectJSONError(.invalidBase64) { try Base64URL.decode(text) }
  }

  @Test("Round trip of all byte values at every length up to 66")
  func roundTrip() throws {
    for length in 0...66 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + length) }
      #expect(try Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }
  }
}
