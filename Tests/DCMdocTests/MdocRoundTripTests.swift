import DCCBOR
import DCCOSE
import DCCrypto
import DCMdoc
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@Suite("mdoc issue, present and verify")
struct MdocRoundTripTests {
  @Test("Issued mdocs verify, re-encode exactly, and hide their element count behind decoys")
  func issue() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try pki.issue(deviceKey: device.publicKey)
    let decoded = try IssuerSigned(bytes: mdoc.bytes)
    #expect(decoded.bytes == mdoc.bytes)
    let verification = try decoded.verify(
      expectedDocType: "org.iso.18013.5.1.mDL", trustAnchors: [pki.iaca], at: TestPKI.now)
    #expect(verification.deviceKey == device.publicKey)
    #expect(decoded.mso.valueDigests["org.iso.18013.5.1"]?.count == 8)
    #expect(decoded.nameSpaces[0].items.allSatisfy { $0.random.count >= 16 })
    #expect(Set(decoded.nameSpaces[0].items.map(\.digestID)).count == 5)
  }

  @Test("Selective disclosure: the presented document holds only the chosen elements and verifies")
  func present() throws {
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try pki.issue(deviceKey: device.publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    let document = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["family_name", "age_over_18"]],
      notReturned: ["org.iso.18013.5.1": ["resident_city"]], sessionTranscript: transcript,
      deviceKey: device)
    let response = DeviceResponse(documents: [document])
    let decoded = try DeviceResponse(bytes: response.bytes)
    #expect(decoded.bytes == response.bytes)
    let doc = try #require(decoded.documents.first)
    #expect(
      Set(doc.issuerSigned.nameSpaces[0].items.map(\.elementIdentifier)) == [
        "family_name", "age_over_18",
      ])
    #expect(doc.errors["org.iso.18013.5.1"]?["resident_city"] == 0)
    let verification = try doc.issuerSigned.verify(
      expectedDocType: doc.docType, trustAnchors: [pki.iaca], at: TestPKI.now)
    try doc.verifyDeviceAuthentication(
      sessionTranscript: transcript, deviceKey: verification.deviceKey)
    // The same response replayed into another session (another origin) fails device authentication.
    let other = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://evil.example"))
    #expect {
      try doc.verifyDeviceAuthentication(
        sessionTranscript: other, deviceKey: verification.deviceKey)
    } throws: { ($0 as? MdocError)?.code == .invalidDeviceSignature }
    // A signature by another key fails.
    let thief = try ECPrivateKey(curve: .p256)
    let stolen = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["family_name"]], sessionTranscript: transcript,
      deviceKey: thief)
    #expect {
      try stolen.verifyDeviceAuthentication(
        sessionTranscript: transcript, deviceKey: verification.deviceKey)
    } throws: { ($0 as? MdocError)?.code == .invalidDeviceSignature }
  }

  @Test("Reader authentication per DocRequest and readerAuthAll, trusted and untrusted")
  func readerAuthentication() throws {
    let pki = try TestPKI()
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "e", origin: "https://verifier.example"))
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [.init("family_name", intentToRetain: false), .init("portrait", intentToRetain: true)]
        )
      ])
    let unsigned = DocRequest(itemsRequest: items)
    let readerAuth = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.bytes(
        sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
      signer: pki.readerKey, chain: [pki.reader])
    let request = try DeviceRequest(
      bytes: DeviceRequest(docRequests: [DocRequest(itemsRequest: items, readerAuth: readerAuth)])
        .bytes)
    let auth = try request.authenticateReader(
      sessionTranscript: transcript, trustAnchors: [pki.readerRoot], at: TestPKI.now)
    #expect(auth.perDocRequest[0]?.trust.isTrusted == true)
    #expect(auth.perDocRequest[0]?.name == "Test Reader")
    #expect(auth.perDocRequest[0]?.authorityKeyIdentifier == pki.readerRoot.subjectKeyIdentifier)
    // readerAuthAll over two doc requests with use cases (version 1.1).
    let pid = DocRequest(
      itemsRequest: ItemsRequest(
        docType: "eu.europa.ec.eudi.pid.1",
        nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("family_name", intentToRetain: false)])]))
    let useCases = [UseCase(mandatory: true, documentSets: [[0], [1]])]
    let unsignedAll = DeviceRequest(docRequests: [unsigned, pid], useCases: useCases)
    let allSignature = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.allBytes(
        sessionTranscript: transcript,
        itemsRequests: unsignedAll.docRequests.map(\.itemsRequestBytes),
        deviceRequestInfo: unsignedAll.deviceRequestInfo),
      signer: pki.readerKey, chain: [pki.reader])
    let signedAll = try DeviceRequest(
      bytes: DeviceRequest(
        docRequests: unsignedAll.docRequests, deviceRequestInfo: unsignedAll.deviceRequestInfo,
        readerAuthAll: [allSignature]
      ).bytes)
    #expect(signedAll.version == "1.1")
    #expect(try signedAll.useCases == useCases)
    let allAuth = try signedAll.authenticateReader(
      sessionTranscript: transcript, trustAnchors: [], at: TestPKI.now)
    #expect(allAuth.readerAuthAll?.trust.isTrusted == false)
    #expect(
      allAuth.perDocRequest.count == 2
        && allAuth.perDocRequest.allSatisfy { $0?.name == "Test Reader" })
    // readerAuthAll does not cover a changed transcript.
    let other = SessionTranscript(handover: .null)
    let error = #expect(throws: MdocError.self) {
      try signedAll.authenticateReader(sessionTranscript: other, trustAnchors: [], at: TestPKI.now)
    }
    #expect(error?.code == .invalidReaderSignature)
  }

  @Test("A DocRequest signed for a session authenticates its reader in that session only")
  func signedDocRequest() throws {
    let pki = try TestPKI()
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "e", origin: "https://verifier.example"))
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
    let signed = try DocRequest(
      itemsRequest: items, sessionTranscript: transcript, readerKey: pki.readerKey,
      readerChain: [pki.reader])
    let request = try DeviceRequest(bytes: DeviceRequest(docRequests: [signed]).bytes)
    #expect(request.docRequests[0].itemsRequest == items)
    let auth = try request.authenticateReader(
      sessionTranscript: transcript, trustAnchors: [pki.readerRoot], at: TestPKI.now)
    #expect(auth.perDocRequest[0]?.trust.isTrusted == true)
    #expect(auth.perDocRequest[0]?.name == "Test Reader")
    let error = #expect(throws: MdocError.self) {
      try request.authenticateReader(
        sessionTranscript: SessionTranscript(handover: .null), trustAnchors: [pki.readerRoot],
        at: TestPKI.now)
    }
    #expect(error?.code == .invalidReaderSignature)
  }

  @Test("Matching a request against an mdoc")
  func matching() throws {
    let pki = try TestPKI()
    let mdoc = try pki.issue(deviceKey: try ECPrivateKey(curve: .p256).publicKey)
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            .init("family_name", intentToRetain: true),
            .init("resident_city", intentToRetain: false),
          ]
        )
      ])
    let match = try #require(items.match(mdoc))
    #expect(match.available.map(\.identifier) == ["family_name"])
    #expect(match.available.first?.value == "Mustermann")
    #expect(match.available.first?.intentToRetain == true)
    #expect(match.missing.map(\.identifier) == ["resident_city"])
    #expect(ItemsRequest(docType: "other", nameSpaces: items.nameSpaces).match(mdoc) == nil)
  }

  @Test("Malformed structures are typed errors, never crashes")
  func malformed() throws {
    for bad: [UInt8] in [[], [0xa0], [0xff], [0x82, 0x01], Array("not cbor".utf8)] {
      let errors = [
        #expect(throws: MdocError.self) { try DeviceRequest(bytes: bad) },
        #expect(throws: MdocError.self) { try DeviceResponse(bytes: bad) },
        #expect(throws: MdocError.self) { try IssuerSigned(bytes: bad) },
      ]
      for error in errors {
        #expect(error?.code == .malformed, "\(bad): \(String(describing: error))")
      }
    }
    // Wrong member types.
    let cases: [CBOR] = [
      ["version": "1.0", "docRequests": []],
      ["version": "2.0", "docRequests": [["itemsRequest": .tagged(24, .byteString([0xa0]))]]],
      ["version": "1.0", "docRequests": [["itemsRequest": .byteString([0xa0])]]],
      [
        "version": "1.0",
        "docRequests": [
          [
            "itemsRequest": .tagged(
              24, .byteString(CBOR.map(["docType": "x", "nameSpaces": [:]]).encoded()))
          ]
        ],
      ],
      [
        "version": "1.0",
        "docRequests": [
          [
            "itemsRequest": .tagged(
              24, .byteString(CBOR.map(["docType": 5, "nameSpaces": ["a": ["b": true]]]).encoded()))
          ]
        ],
      ],
      [
        "version": "1.0",
        "docRequests": [
          [
            "itemsRequest": .tagged(
              24, .byteString(CBOR.map(["docType": "x", "nameSpaces": ["a": ["b": 1]]]).encoded()))
          ]
        ],
      ],
    ]
    for item in cases {
      let malformedError = #expect(throws: MdocError.self, "\(item)") {
        try DeviceRequest(cbor: item)
      }
      #expect(malformedError?.code == .malformed)
    }
    // Every prefix of a real request is refused.
    let pki = try TestPKI()
    let full = try pki.issue(deviceKey: try ECPrivateKey(curve: .p256).publicKey).bytes
    for length in stride(from: 0, to: full.count, by: 97) {
      let malformedError2 = #expect(throws: MdocError.self) {
        try IssuerSigned(bytes: Array(full.prefix(length)))
      }
      #expect(malformedError2?.code == .malformed)
    }
  }
}
