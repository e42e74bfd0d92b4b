import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCWalletTestSupport
import Foundation
import Testing

/// `DeviceResponse.bytes`, `IssuerSigned.bytes`, `DeviceAuthentication.bytes` and
/// `ReaderAuthentication.bytes` write their encodings directly from the kept bytes (perf4); each
/// must equal what encoding the structure's `CBOR` tree gives, in every shape.
@Suite("mdoc encodings written directly")
struct DirectWriteTests {
  static let treeEncoder = CBOREncoder(mapOrder: .preserved)

  static func issued(_ pki: TestPKI, deviceKey: ECPublicKey) throws -> IssuerSigned {
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    return try issuer.issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            ("family_name", "Mustermann"), ("age_over_18", true),
            ("portrait", .byteString([UInt8](repeating: 7, count: 300))),
          ]
        ),
        ("org.iso.18013.5.1.aamva", [("DHS_compliance", "F")]),
      ],
      deviceKey: deviceKey,
      validity: ValidityInfo(
        signed: pki.clock, validFrom: pki.clock.addingTimeInterval(-3600),
        validUntil: pki.clock.addingTimeInterval(86_400)))
  }

  @Test("A presented DeviceResponse, with errors and documentErrors, equals its tree's encoding")
  func deviceResponse() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try Self.issued(pki, deviceKey: device.publicKey)
    let transcript = SessionTranscript(handover: ["dcapi", .byteString([1, 2, 3])])
    let document = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["family_name", "portrait"]],
      notReturned: ["org.iso.18013.5.1": ["age_over_18"], "org.iso.18013.5.1.aamva": ["x", "a"]],
      sessionTranscript: transcript, deviceKey: device)
    for response in [
      DeviceResponse(documents: [document]),
      DeviceResponse(
        documents: [document, document],
        documentErrors: [["org.example.b": 0, "org.example.a": 10], ["z": 0]]),
      DeviceResponse(documents: [], documentErrors: [["x": 0]], status: 20),
      DeviceResponse(documents: [], status: DeviceResponse.statusGeneralError),
    ] {
      #expect(response.bytes == Self.treeEncoder.encode(response.cbor))
      #expect(try DeviceResponse(bytes: response.bytes) == response)
    }
    #expect(mdoc.bytes == Self.treeEncoder.encode(mdoc.cbor))
  }

  @Test("An IssuerSigned received with issuerAuth first is written back in that order")
  func issuerAuthFirst() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try Self.issued(pki, deviceKey: device.publicKey)
    let map = try #require(mdoc.cbor.map)
    let auth = try #require(map["issuerAuth"])
    let spaces = try #require(map["nameSpaces"])
    let reordered = Self.treeEncoder.encode(.map(["issuerAuth": auth, "nameSpaces": spaces]))
    let read = try IssuerSigned(bytes: reordered)
    #expect(read.bytes == reordered)
    #expect(read.bytes == Self.treeEncoder.encode(read.cbor))
  }

  @Test("A namespace listed twice is one map key, as in the tree")
  func repeatedNamespace() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try Self.issued(pki, deviceKey: device.publicKey)
    let items = try #require(mdoc.nameSpaces.first?.items)
    let twice = try IssuerSigned(
      nameSpaces: [("org.iso.18013.5.1", [items[0]]), ("org.iso.18013.5.1", [items[1]])],
      issuerAuth: mdoc.issuerAuth)
    #expect(twice.bytes == Self.treeEncoder.encode(twice.cbor))
    #expect(try IssuerSigned(bytes: twice.bytes).nameSpaces.count == 1)
  }

  @Test("DeviceAuthentication and ReaderAuthentication bytes equal their trees' encodings")
  func authenticationBytes() throws {
    let transcript = SessionTranscript(handover: [
      "dcapi", .byteString([UInt8](repeating: 9, count: 32)),
    ])
    let spaces = EncodedCBOR(encoding: .map([:]), with: Self.treeEncoder)
    let device = DeviceAuthentication.bytes(
      sessionTranscript: transcript, docType: "org.iso.18013.5.1.mDL", deviceNameSpaces: spaces)
    let deviceTree: CBOR = [
      "DeviceAuthentication", transcript.cbor, "org.iso.18013.5.1.mDL", spaces.tag24,
    ]
    #expect(device == EncodedCBOR(encoding: deviceTree, with: Self.treeEncoder).tag24.encoded())
    let items = DocRequest(
      itemsRequest: ItemsRequest(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])]))
    let reader = ReaderAuthentication.bytes(
      sessionTranscript: transcript, itemsRequestBytes: items.itemsRequestBytes)
    let readerTree: CBOR = [
      "ReaderAuthentication", transcript.cbor, items.itemsRequestBytes.tag24,
    ]
    #expect(reader == EncodedCBOR(encoding: readerTree, with: Self.treeEncoder).tag24.encoded())
  }
}
