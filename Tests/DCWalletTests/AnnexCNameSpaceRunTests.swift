import DCAPI
import DCCBOR
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import DCX509
import Foundation
import Testing

/// The proposed consent, its validation and the not-returned list read the matched elements in
/// runs of one namespace (ISO 18013-5 §8.3.2.1.2): a namespace the request names twice, an element
/// it names twice, and interleaved namespaces give the same answers as one lookup per element.
@Suite("Annex C consent over repeated and interleaved namespaces")
struct AnnexCNameSpaceRunTests {
  let deviceKey: ECPrivateKey
  let presentation: AnnexCPresentation

  init() throws {
    let now = Date()
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(86_400)
    let iacaKey = try ECPrivateKey(curve: .p256)
    let iaca = try CertificateBuilder.iaca(
      commonName: "Runs IACA", country: "UT", publicKey: iacaKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: iacaKey)
    let dsKey = try ECPrivateKey(curve: .p256)
    let ds = try CertificateBuilder.documentSigner(
      commonName: "Runs DS", country: "UT", publicKey: dsKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: iaca, signer: iacaKey)
    deviceKey = try ECPrivateKey(curve: .p256)
    let mdoc = try MdocIssuer(signer: dsKey, certificateChain: [ds]).issue(
      docType: "org.example.doc",
      nameSpaces: [
        ("org.example.a", [("a1", "A1"), ("a2", "A2")]),
        ("org.example.b", [("b1", "B1")]),
      ],
      deviceKey: deviceKey.publicKey,
      validity: ValidityInfo(signed: now, validFrom: from, validUntil: until))
    // A, B, A again: a1 twice in the first run, a3 and b2 not held.
    let items = ItemsRequest(
      docType: "org.example.doc",
      nameSpaces: [
        (
          "org.example.a",
          [
            .init("a1", intentToRetain: false), .init("a3", intentToRetain: false),
            .init("a1", intentToRetain: true),
          ]
        ),
        (
          "org.example.b", [.init("b1", intentToRetain: false), .init("b2", intentToRetain: false)]
        ),
        ("org.example.a", [.init("a2", intentToRetain: false)]),
      ])
    let recipient = try ECPrivateKey(curve: .p256)
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: SecureRandom.bytes(count: 16), recipientPublicKey: recipient.publicKey))
    presentation = try AnnexCPresentation.resolve(
      request: request, origin: try WebOrigin("https://verifier.example"),
      credentials: [StoredMdoc(id: "doc", issuerSigned: mdoc)], readerTrustAnchors: [], now: now)
  }

  @Test func theProposedConsentGathersEachNamespaceOverItsRuns() throws {
    let consent = try presentation.proposedConsent()
    #expect(consent.documents.count == 1)
    #expect(
      consent.documents[0].elements == ["org.example.a": ["a1", "a2"], "org.example.b": ["b1"]])
  }

  @Test func validationFindsElementsOfEveryRun() throws {
    let held = MdocConsent(documents: [
      .init(
        docRequestIndex: 0, credentialID: "doc",
        elements: ["org.example.a": ["a2", "a1"], "org.example.b": ["b1"]])
    ])
    try presentation.validate(held)
    func reason(_ elements: [String: Set<String>]) -> String? {
      do {
        try presentation.validate(
          MdocConsent(documents: [
            .init(docRequestIndex: 0, credentialID: "doc", elements: elements)
          ]))
        return nil
      } catch {
        return error.reason
      }
    }
    #expect(reason(["org.example.a": ["a3"]]) == "credential doc does not hold org.example.a/a3")
    #expect(reason(["org.example.b": ["b2"]]) == "credential doc does not hold org.example.b/b2")
    #expect(reason(["org.example.b": ["a1"]]) == "org.example.b/a1 was not requested")
    // a1 is requested twice: it counts once, so zz is still found not requested.
    #expect(reason(["org.example.a": ["a1", "zz"]]) == "org.example.a/zz was not requested")
    #expect(reason(["org.example.c": ["a1"]]) == "org.example.c/a1 was not requested")
    try presentation.validate(
      MdocConsent(documents: [
        .init(docRequestIndex: 0, credentialID: "doc", elements: ["org.example.a": ["a1"]])
      ]))
  }

  @Test func notReturnedListsEveryUnsharedRequestedElementInRequestOrder() throws {
    let consent = MdocConsent(documents: [
      .init(docRequestIndex: 0, credentialID: "doc", elements: ["org.example.a": ["a2"]])
    ])
    let response = try presentation.deviceResponse(consent: consent) { _ in deviceKey }
    #expect(response.documents.count == 1)
    #expect(
      response.documents[0].errors == [
        "org.example.a": ["a1": 0, "a3": 0], "org.example.b": ["b1": 0, "b2": 0],
      ])
    // Sharing as many elements as namespace a's requests name does not mean sharing them all
    // when one is named twice: a3 is still not returned.
    let most = MdocConsent(documents: [
      .init(
        docRequestIndex: 0, credentialID: "doc",
        elements: ["org.example.a": ["a1", "a2"], "org.example.b": ["b1"]])
    ])
    let partial = try presentation.deviceResponse(consent: most) { _ in deviceKey }
    #expect(
      partial.documents[0].errors == ["org.example.a": ["a3": 0], "org.example.b": ["b2": 0]])
  }
}
