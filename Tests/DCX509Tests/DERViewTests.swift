import DCX509
import Testing

/// DER nodes are views into the parsed buffer: members are found in place, in order, and the
/// rules that read them still hold (X.690 §8.1, RFC 5280 §4.1.2.4).
@Suite("DER nodes as views")
struct DERViewTests {
  @Test("members are found in order, nested, with their exact bytes")
  func membersInOrder() throws {
    let inner = DER.sequence([DER.utf8String("x")])
    let bytes = DER.sequence([DER.integer(5), inner, DER.boolean(true)])
    let root = try DER.parse(bytes)
    #expect(root.children.map(\.identifier) == [0x02, 0x30, 0x01])
    #expect(Array(root.children[1].encodedBytes) == inner)
    #expect(try root.children[1].children[0].stringValue() == "x")
    #expect(try root.children[0].integerValue() == 5)
    #expect(root.children[0].children.isEmpty)
    #expect(try DER.parse(DER.sequence([])).children.isEmpty)
  }

  @Test("a Name with an empty RelativeDistinguishedName is refused")
  func emptyRDN() {
    let name = DER.sequence([DER.set([])])
    #expect {
      try DistinguishedName(derEncoded: name)
    } throws: { error in
      (error as? CertificateError)?.reason.contains("empty RelativeDistinguishedName") == true
    }
  }
}
