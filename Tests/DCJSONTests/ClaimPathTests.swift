import DCJSON
import Testing

@Suite("Claim path: the concrete claims path pointer")
struct ClaimPathTests {
  static let credential = try! JSONValue(
    parsing: #"{"address":{"street_address":"Main St 1"},"nationalities":["DE","FR"],"7":"seven"}"#)

  @Test("JSON form: member names as strings, indices as integers (OpenID4VP 1.0 §7)")
  func jsonForm() {
    let path = ClaimPath([.key("nationalities"), .index(1)])
    #expect(path.json == .array([.string("nationalities"), .integer(1)]))
    #expect(path.description == #"["nationalities",1]"#)
    #expect(path.dotted == "nationalities.1")
    #expect(ClaimPath([.key("a\"b")]).description == #"["a\"b"]"#)
  }

  @Test(
    "Selects one value; a missing member, an index past the end or a step of the wrong type selects none"
  )
  func selection() {
    #expect(ClaimPath(dotted: "address.street_address").value(in: Self.credential) == "Main St 1")
    #expect(ClaimPath([.key("nationalities"), .index(1)]).value(in: Self.credential) == "FR")
    #expect(ClaimPath([.key("7")]).value(in: Self.credential) == "seven")
    #expect(ClaimPath([]).value(in: Self.credential) == Self.credential)
    #expect(ClaimPath([.key("nationalities"), .index(2)]).value(in: Self.credential) == nil)
    #expect(ClaimPath([.key("address"), .index(0)]).value(in: Self.credential) == nil)
    #expect(ClaimPath([.key("nationalities"), .key("0")]).value(in: Self.credential) == nil)
    #expect(ClaimPath([.key("missing")]).value(in: Self.credential) == nil)
  }

  @Test("Dotted form: digits are indices, the rest member names; prefixes")
  func dotted() {
    #expect(ClaimPath(dotted: "nationalities.0") == [.key("nationalities"), .index(0)])
    #expect(ClaimPath(dotted: "a.b").appending(.index(3)) == ClaimPath(dotted: "a.b.3"))
    #expect(ClaimPath(dotted: "a.b").hasPrefix(ClaimPath(dotted: "a")))
    #expect(!ClaimPath(dotted: "a").hasPrefix(ClaimPath(dotted: "a.b")))
  }
}
