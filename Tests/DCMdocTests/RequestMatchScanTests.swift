import DCCBOR
import DCCrypto
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCMdoc

/// `ItemsRequest.match` finds small namespaces' elements by scanning (perf1314) and large ones
/// through a dictionary; both must give what the rule says: each requested element in request
/// order, valued from the first item with its identifier in the last entry of its namespace.
@Suite("ItemsRequest matching by scan")
struct RequestMatchScanTests {
  static let nameSpace = "org.iso.18013.5.1"

  /// An issued mdoc's issuerAuth with arbitrary items (duplicates included), as a stored mdoc
  /// could hold them; matching does not verify.
  static func mdoc(_ spaces: [(String, [IssuerSignedItem])]) throws -> IssuerSigned {
    let pki = try TestPKI()
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    let issued = try issuer.issue(
      docType: "org.iso.18013.5.1.mDL", nameSpaces: [(nameSpace, [("x", true)])],
      deviceKey: try ECPrivateKey(curve: .p256).publicKey,
      validity: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock, validUntil: pki.clock.addingTimeInterval(60)))
    return IssuerSigned(unchecked: spaces, issuerAuth: issued.issuerAuth, mso: issued.mso)
  }

  static func item(_ id: String, _ value: CBOR, digestID: UInt64 = 0) -> IssuerSignedItem {
    IssuerSignedItem(
      digestID: digestID, random: [UInt8](repeating: 1, count: 16), elementIdentifier: id,
      elementValue: value)
  }

  /// The rule, written plainly.
  static func expected(_ request: ItemsRequest, _ mdoc: IssuerSigned) -> [ItemsRequestMatch.Element]
  {
    request.nameSpaces.flatMap { ns, requested in
      let items = mdoc.nameSpaces.last { $0.nameSpace == ns }?.items ?? []
      return requested.map { element in
        ItemsRequestMatch.Element(
          nameSpace: ns, identifier: element.identifier, intentToRetain: element.intentToRetain,
          value: items.first { $0.elementIdentifier == element.identifier }?.elementValue)
      }
    }
  }

  @Test("duplicates, missing elements, equal lengths and a namespace listed twice")
  func smallNamespaces() throws {
    let mdoc = try Self.mdoc([
      (Self.nameSpace, [Self.item("old", "ignored")]),
      ("org.example", [Self.item("a", 1)]),
      (
        Self.nameSpace,
        [
          Self.item("given_name", "Erika"), Self.item("birth_date", "1971-09-01"),
          Self.item("given_name", "second"), Self.item("family_name", "Mustermann"),
          Self.item("portrait", .byteString([1, 2, 3])),
        ]
      ),
    ])
    let request = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          Self.nameSpace,
          [
            .init("family_name", intentToRetain: true), .init("given_name", intentToRetain: false),
            .init("birth_date", intentToRetain: false), .init("old", intentToRetain: false),
            .init("given_nam", intentToRetain: false), .init("given_name", intentToRetain: true),
            .init("", intentToRetain: false),
          ]
        ),
        ("org.example", [.init("a", intentToRetain: false)]),
        ("org.absent", [.init("a", intentToRetain: false)]),
      ])
    let match = try #require(request.match(mdoc))
    #expect(match.elements == Self.expected(request, mdoc))
    #expect(match.elements[1].value == "Erika")
    #expect(match.elements[3].value == nil)
  }

  @Test("both sides of the scan limit give the rule's answer", arguments: [31, 32, 33, 40, 200])
  func aroundTheLimit(itemCount: Int) throws {
    // 32 × 32 = 1024 is scanned; beyond, the dictionary answers.
    var items = (0..<itemCount).map { Self.item("element_\($0 % (itemCount - 3))", CBOR($0)) }
    items.append(Self.item("z", "last"))
    let mdoc = try Self.mdoc([(Self.nameSpace, items)])
    let requested = (0..<32).map {
      ItemsRequest.Element("element_\($0 * 3)", intentToRetain: false)
    }
    let request = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL", nameSpaces: [(Self.nameSpace, requested)])
    let match = try #require(request.match(mdoc))
    #expect(match.elements == Self.expected(request, mdoc))
    #expect(match.elements.first?.value == CBOR(0))
  }

  @Test("firstPosition finds the first, nil for none")
  func firstPosition() {
    let items = ["ab", "abc", "ab", "b"].map { Self.item($0, true) }
    #expect(ItemsRequest.firstPosition(of: "ab", in: items) == 0)
    #expect(ItemsRequest.firstPosition(of: "b", in: items) == 3)
    #expect(ItemsRequest.firstPosition(of: "abcd", in: items) == nil)
    #expect(ItemsRequest.firstPosition(of: "ab", in: []) == nil)
  }
}
