import DCAPI
import DCCBOR
import DCJSON
import DCRegistration
import Testing

@Suite("Credential description inputs")
struct CredentialDescriptionTests {
  @Test(
    "Base64 key identifiers decode from the standard and URL-safe alphabets",
    arguments: [
      ("+/8=", [0xFB, 0xFF] as [UInt8]), ("+/8", [0xFB, 0xFF]), ("-_8", [0xFB, 0xFF]),
      ("AQID", [1, 2, 3]),
      ("AQ==", [1]), ("AQ", [1]),
    ])
  func base64(text: String, bytes: [UInt8]) throws {
    #expect(try KeyIdentifier(base64: text).bytes == bytes)
  }

  @Test(
    "Invalid base64 is an error",
    arguments: ["A", "AQ=", "AQ===", "+_8=", "AQ=x", "A Q==", "AR==", "Ej4mAJk…", "=", "AQ==\n"])
  func invalidBase64(text: String) {
    #expect(registrationErrorCode { _ = try KeyIdentifier(base64: text) } == .invalidBase64)
  }

  @Test("Key identifiers print as standard padded base64")
  func base64Output() throws {
    #expect(KeyIdentifier([0xFB, 0xFF]).base64 == "+/8=")
    #expect(
      KeyIdentifier(Array(repeating: 0x11, count: 20)).base64 == "ERERERERERERERERERERERERERE=")
    let round = KeyIdentifier([0, 1, 2, 250, 251, 252, 253, 254, 255])
    #expect(try KeyIdentifier(base64: round.base64) == round)
  }

  @Test("JSON values map to comparable values; arrays, objects and fractions register as null")
  func jsonValues() {
    #expect(RegisteredClaimValue(JSONValue.string("x")) == .string("x"))
    #expect(RegisteredClaimValue(JSONValue.integer(-3)) == .integer(-3))
    #expect(RegisteredClaimValue(JSONValue.number(4.0)) == .integer(4))
    #expect(RegisteredClaimValue(JSONValue.bool(false)) == .bool(false))
    #expect(RegisteredClaimValue(JSONValue.number(1.5)) == .null)
    #expect(RegisteredClaimValue(JSONValue.array(["a"])) == .null)
    #expect(RegisteredClaimValue(JSONValue.object([("a", 1)])) == .null)
    #expect(RegisteredClaimValue(JSONValue.null) == .null)
  }

  @Test("CBOR element values map to comparable values; images, arrays and maps register as null")
  func cborValues() throws {
    let date = try FullDate(year: 1971, month: 9, day: 1)
    #expect(RegisteredClaimValue(CBOR.textString("x")) == .string("x"))
    #expect(RegisteredClaimValue(CBOR(-5)) == .integer(-5))
    #expect(RegisteredClaimValue(CBOR.boolean(true)) == .bool(true))
    #expect(RegisteredClaimValue(CBOR.fullDate(date)) == .date(date))
    #expect(RegisteredClaimValue(CBOR.tagged(100, CBOR(date.daysSinceEpoch))) == .date(date))
    #expect(
      RegisteredClaimValue(CBOR.tagged(0, .textString("2024-01-02T03:04:05Z")))
        == .string("2024-01-02T03:04:05Z"))
    #expect(RegisteredClaimValue(CBOR.byteString([0xFF, 0xD8])) == .null)
    #expect(RegisteredClaimValue(CBOR.array([.textString("A")])) == .null)
    #expect(RegisteredClaimValue(CBOR.map(["a": .null])) == .null)
    #expect(RegisteredClaimValue(CBOR.unsigned(UInt64.max)) == .null)
    #expect(RegisteredClaimValue(CBOR.double(1.5)) == .null)
  }

  @Test("Values render as matchers compare them")
  func text() throws {
    #expect(RegisteredClaimValue.integer(-42).text == "-42")
    #expect(RegisteredClaimValue.bool(true).text == "true")
    #expect(
      RegisteredClaimValue.date(try FullDate(year: 2001, month: 2, day: 3)).text == "2001-02-03")
    #expect(RegisteredClaimValue.null.text == nil)
  }

  @Test("A JSON claims object flattens to paths; arrays stay leaves")
  func flattening() {
    let claims = RegisteredClaim.flattening(
      [
        "given_name": "Erika", "address": ["locality": "Berlin", "postal_code": "10115"],
        "nationalities": ["DE"],
      ],
      displayNames: [["address", "locality"]: "City"])
    #expect(
      claims == [
        ["given_name"]: RegisteredClaim("Erika"),
        ["address", "locality"]: RegisteredClaim("Berlin", displayName: "City"),
        ["address", "postal_code"]: RegisteredClaim("10115"),
        ["nationalities"]: RegisteredClaim(.null),
      ])
    #expect(RegisteredClaim.flattening("not an object").isEmpty)
  }
}
