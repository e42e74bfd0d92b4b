import DCCBOR
import Testing

@testable import DCMdoc

/// `IssuerSigned.disclosing` keeps a namespace disclosed whole without copying its items
/// (perf1314); in every shape it must give what filtering each namespace gives.
@Suite("disclosing keeps whole namespaces as they are")
struct DisclosingFastPathTests {
  /// The rule, written plainly.
  static func expected(_ mdoc: IssuerSigned, _ elements: [String: Set<String>])
    -> [(String, [IssuerSignedItem])]
  {
    mdoc.nameSpaces.compactMap { ns in
      guard let wanted = elements[ns.nameSpace] else { return nil }
      let items = ns.items.filter { wanted.contains($0.elementIdentifier) }
      return items.isEmpty ? nil : (ns.nameSpace, items)
    }
  }

  @Test("whole, none, first, middle and last left out, duplicates, absent namespaces")
  func everyShape() throws {
    let ns = RequestMatchScanTests.nameSpace
    let items = ["a", "b", "c", "b", "d"].enumerated().map {
      RequestMatchScanTests.item($0.element, CBOR($0.offset), digestID: UInt64($0.offset))
    }
    let mdoc = try RequestMatchScanTests.mdoc([
      (ns, items), ("org.example", [RequestMatchScanTests.item("x", true)]),
    ])
    let choices: [[String: Set<String>]] = [
      [ns: ["a", "b", "c", "d"]], [ns: []], [ns: ["b", "c", "d"]], [ns: ["a", "b", "d"]],
      [ns: ["a", "b", "c"]], [ns: ["b"]], [ns: ["zz"]], [:], ["org.other": ["a"]],
      [ns: ["a", "b", "c", "d"], "org.example": ["x"]], ["org.example": ["x", "y"]],
    ]
    for elements in choices {
      let disclosed = mdoc.disclosing(elements)
      let expected = Self.expected(mdoc, elements)
      #expect(disclosed.nameSpaces.map(\.nameSpace) == expected.map(\.0))
      #expect(disclosed.nameSpaces.map(\.items) == expected.map(\.1))
    }
  }
}
