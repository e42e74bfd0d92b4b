import DCJSON
import Testing

@Suite("Hex")
struct HexTests {
  @Test("RFC 4648 §10 base16 test strings, lowercase out, either case in")
  func rfc4648() throws {
    let cases: [(String, String)] = [
      ("", ""), ("f", "66"), ("fo", "666f"), ("foo", "666f6f"), ("foobar", "666f6f626172"),
    ]
    for (plain, encoded) in cases {
      #expect(Hex.encode(Array(plain.utf8)) == encoded)
      #expect(try Hex.decode(encoded) == Array(plain.utf8))
      #expect(try Hex.decode(encoded.uppercased()) == Array(plain.utf8))
    }
    #expect(Hex.encode([0x00, 0x0F, 0xF0, 0xFF]) == "000ff0ff")
  }

  @Test(
    "Odd lengths and non-hex characters are refused",
    arguments: ["0", "abc", "0g", "0x00", " 00", "é0"])
  func strict(_ text: String) {
    expectJSONError(.invalidHex) { try Hex.decode(text) }
  }

  @Test("Round trip of every byte value")
  func roundTrip() throws {
    let bytes = (0...255).map(UInt8.init)
    #expect(try Hex.decode(Hex.encode(bytes)) == bytes)
  }
}

@Suite("Base64")
struct Base64Tests {
  @Test("RFC 4648 §10 test strings encode with padding and decode back")
  func rfc4648() throws {
    let cases: [(String, String)] = [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]
    for (plain, encoded) in cases {
      #expect(Base64.encode(Array(plain.utf8)) == encoded)
      #expect(try Base64.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test(
    "Missing padding, the URL alphabet and trailing bits are refused",
    arguments: ["Zg", "Zm8", "-_-_", "Zh==", "Zm9=", "Z==="])
  func strict(_ text: String) {
    expectJSONError(.invalidBase64) { try Base64.decode(text) }
  }
}
