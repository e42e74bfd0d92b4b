import DCTestSupport
import DCX509
import Foundation
import Testing

@Suite("DER reader and writer (X.690)")
struct DERTests {
  @Test(
    "object identifiers round-trip through dotted form and DER",
    arguments: ["1.0.18013.5.1.2", "2.5.29.19", "1.2.840.10045.4.3.2", "2.999.3", "0.0"])
  func objectIdentifiers(dotted: String) throws {
    let oid = try ASN1ObjectIdentifier(dotted: dotted)
    #expect(oid.dotted == dotted)
    let encoded = DER.objectIdentifier(oid)
    #expect(try DER.parse(encoded).objectIdentifier() == oid)
  }

  @Test("known OID encodings")
  func oidBytes() throws {
    #expect(hexString(DER.objectIdentifier(.mdlDocumentSigner)) == "060728818c5d050102")
    #expect(hexString(DER.objectIdentifier(.basicConstraints)) == "0603551d13")
    #expect(
      hexString(DER.objectIdentifier(try ASN1ObjectIdentifier(dotted: "2.999.3"))) == "0603883703")
  }

  @Test(
    "invalid dotted OIDs are refused", arguments: ["", "1", "3.1", "1.40", "1..2", "a.b", "1.2."])
  func invalidDotted(text: String) {
    let invalidObjectIdentifierError = #expect(throws: CertificateError.self) {
      try ASN1ObjectIdentifier(dotted: text)
    }
    #expect(invalidObjectIdentifierError?.code == .invalidObjectIdentifier)
  }

  @Test("non-minimal OID arcs are refused")
  func nonMinimalOID() {
    let invalidDERError = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("0603558000")).objectIdentifier()
    }
    #expect(invalidDERError?.code == .invalidDER)
    let invalidDERError2 = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("06025581")).objectIdentifier()
    }
    #expect(invalidDERError2?.code == .invalidDER)
  }

  @Test("INTEGER encodings are minimal two's complement")
  func integers() throws {
    let cases: [(Int, String)] = [
      (0, "020100"), (127, "02017f"), (128, "02020080"), (256, "02020100"), (-1, "0201ff"),
      (-128, "020180"), (-129, "0202ff7f"),
    ]
    for (value, expected) in cases {
      #expect(hexString(DER.integer(value)) == expected, "\(value)")
    }
    #expect(hexString(DER.integer(unsignedBytes: [0x00, 0x80])) == "02020080")
    #expect(hexString(DER.integer(unsignedBytes: [])) == "020100")
    #expect(try DER.parse(DER.integer(300)).integerValue() == 300)
    let invalidDERError = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("02020001")).integerBytes()
    }
    #expect(invalidDERError?.code == .invalidDER)
    let invalidDERError2 = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("0202ff80")).integerBytes()
    }
    #expect(invalidDERError2?.code == .invalidDER)
    let invalidDERError3 = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("0200")).integerBytes()
    }
    #expect(invalidDERError3?.code == .invalidDER)
  }

  @Test("BOOLEAN must be 0x00 or 0xFF")
  func booleans() throws {
    #expect(try DER.parse(DER.boolean(true)).booleanValue())
    #expect(try !DER.parse(DER.boolean(false)).booleanValue())
    let invalidDERError = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("010101")).booleanValue()
    }
    #expect(invalidDERError?.code == .invalidDER)
  }

  @Test("times: UTCTime through 2049, GeneralizedTime from 2050, strict forms only")
  func times() throws {
    let late2049 = Fixtures.date("2049-12-31T23:59:59Z")
    #expect(String(decoding: DER.time(late2049).dropFirst(2), as: UTF8.self) == "491231235959Z")
    let y2050 = Fixtures.date("2050-01-01T00:00:00Z")
    #expect(String(decoding: DER.time(y2050).dropFirst(2), as: UTF8.self) == "20500101000000Z")
    let leap = Fixtures.date("2024-02-29T12:34:56Z")
    for date in [late2049, y2050, leap, Fixtures.date("1950-01-01T00:00:00Z")] {
      #expect(try DER.parse(DER.time(date)).timeValue() == date)
      #expect(try DER.parse(DER.generalizedTime(date)).timeValue() == date)
    }
    #expect(
      try DER.parse(DER.encode(0x17, Array("500101000000Z".utf8))).timeValue()
        == Fixtures.date("1950-01-01T00:00:00Z"))
    for bad in [
      "230230000000Z", "2301010000Z", "230101000000", "230101000000+0100", "231301000000Z",
    ] {
      let invalidDERError = #expect(throws: CertificateError.self, "\(bad)") {
        try DER.parse(DER.encode(0x17, Array(bad.utf8))).timeValue()
      }
      #expect(invalidDERError?.code == .invalidDER)
    }
    let invalidDERError2 = #expect(throws: CertificateError.self) {
      try DER.parse(DER.encode(0x18, Array("20230101000000.5Z".utf8))).timeValue()
    }
    #expect(invalidDERError2?.code == .invalidDER)
  }

  @Test("lengths: long form when needed, minimal, definite")
  func lengths() throws {
    let long = DER.octetString([UInt8](repeating: 7, count: 200))
    #expect(Array(long.prefix(3)) == [0x04, 0x81, 0xC8])
    #expect(try DER.parse(long).octetStringBytes().count == 200)
    let longer = DER.octetString([UInt8](repeating: 7, count: 300))
    #expect(Array(longer.prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
    // Non-minimal: 0x81 for a length below 128, a leading zero length octet.
    expectDERError(hexBytes("048105") + [1, 2, 3, 4, 5], "non-minimal")
    expectDERError(hexBytes("04820005") + [1, 2, 3, 4, 5], "non-minimal")
    expectDERError(hexBytes("30800000"), "indefinite")
    expectDERError(hexBytes("0485ffffffffff"), "length of 5 octets")
    expectDERError(hexBytes("0405010203"), "claims 5 bytes")
  }

  @Test("nesting is bounded, never a stack overflow")
  func depth() throws {
    func nested(_ levels: Int) -> [UInt8] {
      var value = DER.null
      for _ in 0..<levels { value = DER.sequence([value]) }
      return value
    }
    _ = try DER.parse(nested(DER.maximumDepth - 1))
    expectDERError(nested(DER.maximumDepth), "nesting deeper")
    // 100 000 levels in definite form would be huge; indefinite-looking headers stop at depth 33.
    var deep: [UInt8] = []
    for _ in 0..<100_000 { deep += [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] }
    let invalidDERError = #expect(throws: CertificateError.self) { try DER.parse(deep) }
    #expect(invalidDERError?.code == .invalidDER)
  }

  @Test("DER forbids constructed strings, primitive SEQUENCE and dirty unused bits")
  func strictForms() throws {
    expectDERError(hexBytes("2403040100"), "constructed string")
    expectDERError(hexBytes("1000"), "primitive SEQUENCE")
    let invalidDERError = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("030201ff")).bitStringBytes()
    }
    #expect(invalidDERError?.code == .invalidDER)
    let invalidDERError2 = #expect(throws: CertificateError.self) {
      try DER.parse(hexBytes("030108")).bitStringBytes()
    }
    #expect(invalidDERError2?.code == .invalidDER)
    expectDERError(hexBytes("1f2200"), "high tag")
    expectDERError(hexBytes("050000"), "trailing")
  }

  @Test("SET OF members are sorted; implicit and explicit tags")
  func serializer() throws {
    #expect(
      DER.set([DER.integer(2), DER.integer(1)]) == DER.encode(0x31, DER.integer(1) + DER.integer(2))
    )
    #expect(DER.explicit(3, DER.null) == [0xA3, 0x02, 0x05, 0x00])
    #expect(DER.implicit(0, DER.octetString([1])) == [0x80, 0x01, 0x01])
    #expect(DER.implicit(1, DER.sequence([])) == [0xA1, 0x00])
    let text = try DER.parse(DER.utf8String("Grüße")).stringValue()
    #expect(text == "Grüße")
    #expect(try DER.parse(DER.encode(0x1E, [0x00, 0x41, 0x00, 0xE9])).stringValue() == "Aé")
  }
}

func expectDERError(
  _ bytes: [UInt8], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try DER.parse(bytes)
    Issue.record("expected a DER error containing '\(fragment)'", sourceLocation: sourceLocation)
  } catch {
    #expect(error.code == .invalidDER, sourceLocation: sourceLocation)
    #expect(error.reason.contains(fragment), "\(error.reason)", sourceLocation: sourceLocation)
  }
}
