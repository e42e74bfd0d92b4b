import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCVerifier
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Verifier request -> wallet response -> verifier verification, over the whole Annex C flow.
@Suite("org-iso-mdoc end to end")
struct AnnexCEndToEndTests {
  struct Wallet {
    let pki: TestPKI
    let mdlKey: ECPrivateKey
    let pidKey: ECPrivateKey
    let credentials: [StoredMdoc]

    init() throws {
      pki = try TestPKI()
      mdlKey = try ECPrivateKey(curve: .p256)
      pidKey = try ECPrivateKey(curve: .p256)
      credentials = [
        StoredMdoc(id: "mdl", issuerSigned: try pki.issue(deviceKey: mdlKey.publicKey)),
        StoredMdoc(id: "pid", issuerSigned: try pki.issuePID(deviceKey: pidKey.publicKey)),
      ]
    }

    func key(_ id: String) throws -> any Signer {
      switch id {
      case "mdl": return mdlKey
      case "pid": return pidKey
      default: throw PresentationError(.consentViolation, "unknown credential")
      }
    }
  }

  static let mdlRequest = ItemsRequest(
    docType: "org.iso.18013.5.1.mDL",
    nameSpaces: [
      (
        "org.iso.18013.5.1",
        [
          .init("family_name", intentToRetain: false), .init("age_over_18", intentToRetain: false),
          .init("portrait", intentToRetain: true),
        ]
      )
    ])
  static let pidRequest = ItemsRequest(
    docType: "eu.europa.ec.eudi.pid.1",
    nameSpaces: [
      (
        "eu.europa.ec.eudi.pid.1",
        [.init("given_name", intentToRetain: false), .init("nationality", intentToRetain: false)]
      )
    ])

  static let origin: WebOrigin = {
    do { return try WebOrigin("https://verifier.example") } catch {
      preconditionFailure("static origin")
    }
  }()

  /// The JSON round trip the data takes through a browser and the OS.
  static func transport(_ value: JSONValue) throws -> JSONValue {
    try JSONValue(parsing: value.serialized())
  }

  @Test("One document, with reader authentication, full disclosure", arguments: [true, false])
  func oneDocument(readerAuth: Bool) throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin,
      reader: readerAuth ? .init(signer: wallet.pki.readerKey, chain: [wallet.pki.reader]) : nil)
    let presentation = try AnnexCPresentation.resolve(
      data: try Self.transport(state.request.data),
      origin: try WebOrigin("https://verifier.example/"),
      credentials: wallet.credentials, readerTrustAnchors: [wallet.pki.readerRoot], now: TestPKI.now
    )
    #expect(presentation.documentRequests.count == 1)
    #expect(presentation.documentRequests[0].candidates.map(\.credentialID) == ["mdl"])
    #expect(presentation.isReaderTrusted == readerAuth)
    if readerAuth {
      #expect(presentation.documentRequests[0].reader?.name == "Test Reader")
      try presentation.requireTrustedReader()
    } else {
      let untrustedReaderError = #expect(throws: PresentationError.self) {
        try presentation.requireTrustedReader()
      }
      #expect(untrustedReaderError?.code == .untrustedReader)
    }
    let consent = try presentation.proposedConsent()
    let response = try presentation.respond(consent: consent, deviceKey: wallet.key)
    let result = try AnnexCVerifier.verify(
      responseData: try Self.transport(response.data), state: state,
      issuerTrustAnchors: [wallet.pki.iaca], now: TestPKI.now)
    #expect(result.documents.count == 1)
    #expect(
      Set(result.documents[0].elements.map(\.identifier)) == [
        "family_name", "age_over_18", "portrait",
      ])
    // Everything requested came back: nothing absent, and the strict policy is met.
    #expect(result.documents[0].absentElements.isEmpty)
    #expect(try result.requiringEveryRequestedElement().documents.count == 1)
    // Decryption, structure, then issuer, device signature and disclosure for the one document.
    #expect(result.report.checks.count == 5)
    #expect(
      result.report.checks.contains(.documentDeviceSignature(docType: result.documents[0].docType)))
  }

  @Test("Two documents (mDL + PID) with selective disclosure")
  func twoDocuments() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest, Self.pidRequest], origin: Self.origin,
      reader: .init(signer: wallet.pki.readerKey, chain: [wallet.pki.reader]))
    let presentation = try AnnexCPresentation.resolve(
      data: try Self.transport(state.request.data), origin: Self.origin,
      credentials: wallet.credentials,
      readerTrustAnchors: [wallet.pki.readerRoot], now: TestPKI.now)
    let consent = MdocConsent(documents: [
      .init(
        docRequestIndex: 1, credentialID: "pid",
        elements: ["eu.europa.ec.eudi.pid.1": ["given_name"]]),
      .init(
        docRequestIndex: 0, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["age_over_18"]]),
    ])
    let response = try presentation.respond(consent: consent, deviceKey: wallet.key)
    let result = try AnnexCVerifier.verify(
      responseData: response.data, state: state, issuerTrustAnchors: [wallet.pki.iaca],
      now: TestPKI.now)
    #expect(
      result.documents.map(\.docType) == ["org.iso.18013.5.1.mDL", "eu.europa.ec.eudi.pid.1"])
    #expect(result.documents[0].elements.map(\.identifier) == ["age_over_18"])
    #expect(result.documents[0].elements[0].value == true)
    #expect(result.documents[1].elements.map(\.identifier) == ["given_name"])
    // Issue 32, item 15: what each doc request asked for and the document does not hold, in
    // request order; a verifier that needs everything refuses the response.
    #expect(
      result.documents[0].absentElements.map(\.identifier) == ["family_name", "portrait"])
    #expect(result.documents[1].absentElements.map(\.identifier) == ["nationality"])
    let incomplete = #expect(throws: VerifierError.self) {
      try result.requiringEveryRequestedElement()
    }
    #expect(incomplete?.code == .verificationFailed)
    #expect(
      incomplete?.reason
        == "requested but not returned: org.iso.18013.5.1.mDL org.iso.18013.5.1/family_name, "
        + "org.iso.18013.5.1/portrait; eu.europa.ec.eudi.pid.1 eu.europa.ec.eudi.pid.1/nationality")
  }

  @Test("The response does not open for another origin")
  func wrongOrigin() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin)
    // A phishing site relays the request; the wallet's platform reports the phishing origin.
    let presentation = try AnnexCPresentation.resolve(
      data: state.request.data, origin: try WebOrigin("https://evil.example"),
      credentials: wallet.credentials,
      readerTrustAnchors: [], now: TestPKI.now)
    let response = try presentation.respond(
      consent: try presentation.proposedConsent(), deviceKey: wallet.key)
    #expect {
      try AnnexCVerifier.verify(
        responseData: response.data, state: state, issuerTrustAnchors: [wallet.pki.iaca],
        now: TestPKI.now)
    } throws: { ($0 as? VerifierError)?.code == .decryptionFailed }
  }

  @Test("Reader authentication made for another origin is recorded as invalid, never trusted")
  func readerAuthForAnotherOrigin() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin,
      reader: .init(signer: wallet.pki.readerKey, chain: [wallet.pki.reader]))
    let presentation = try AnnexCPresentation.resolve(
      data: state.request.data, origin: try WebOrigin("https://evil.example"),
      credentials: wallet.credentials,
      readerTrustAnchors: [wallet.pki.readerRoot], now: TestPKI.now)
    #expect(presentation.readerAuthenticationFailure?.code == .invalidReaderSignature)
    #expect(presentation.documentRequests.allSatisfy { $0.reader == nil })
    #expect(!presentation.isReaderTrusted)
    #expect {
      try presentation.requireTrustedReader()
    } throws: { ($0 as? PresentationError)?.code == .invalidReaderAuthentication }
  }

  @Test("Consent beyond the request or the credential is refused before anything is signed")
  func consentViolations() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin)
    let presentation = try AnnexCPresentation.resolve(
      data: state.request.data, origin: Self.origin, credentials: wallet.credentials,
      readerTrustAnchors: [], now: TestPKI.now)
    let bad: [MdocConsent] = [
      MdocConsent(documents: []),
      MdocConsent(documents: [
        .init(
          docRequestIndex: 0, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["given_name"]])
      ]),
      MdocConsent(documents: [
        .init(
          docRequestIndex: 0, credentialID: "pid", elements: ["org.iso.18013.5.1": ["family_name"]])
      ]),
      MdocConsent(documents: [
        .init(
          docRequestIndex: 1, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["family_name"]])
      ]),
      MdocConsent(documents: [.init(docRequestIndex: 0, credentialID: "mdl", elements: [:])]),
      MdocConsent(documents: [
        .init(
          docRequestIndex: 0, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["family_name"]]),
        .init(
          docRequestIndex: 0, credentialID: "mdl", elements: ["org.iso.18013.5.1": ["age_over_18"]]),
      ]),
    ]
    for consent in bad {
      var signed = false
      #expect {
        try presentation.respond(consent: consent) { id in
          signed = true
          return try wallet.key(id)
        }
      } throws: { ($0 as? PresentationError)?.code == .consentViolation }
      #expect(!signed, "a key was requested for a refused consent")
    }
  }

  @Test("The verifier refuses an untrusted IACA, an expired mdoc and elements it did not request")
  func verifierRefusals() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin)
    let presentation = try AnnexCPresentation.resolve(
      data: state.request.data, origin: Self.origin, credentials: wallet.credentials,
      readerTrustAnchors: [], now: TestPKI.now)
    let response = try presentation.respond(
      consent: try presentation.proposedConsent(), deviceKey: wallet.key)
    let otherIACA = try TestPKI().iaca
    #expect {
      try AnnexCVerifier.verify(
        responseData: response.data, state: state, issuerTrustAnchors: [otherIACA], now: TestPKI.now
      )
    } throws: { ($0 as? VerifierError)?.code == .verificationFailed }
    #expect {
      try AnnexCVerifier.verify(
        responseData: response.data, state: state, issuerTrustAnchors: [wallet.pki.iaca],
        now: TestPKI.now.addingTimeInterval(86_400 * 200))
    } throws: { ($0 as? VerifierError)?.code == .verificationFailed }
    // A wallet that answers with more than was asked: the verifier refuses the extra element.
    let narrow = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      ],
      origin: Self.origin)
    let transcript = narrow.request.sessionTranscript(origin: Self.origin)
    let oversharing = try Document.present(
      wallet.credentials[0].issuerSigned,
      disclosing: ["org.iso.18013.5.1": ["age_over_18", "family_name"]],
      sessionTranscript: transcript,
      deviceKey: wallet.mdlKey)
    let sealed = try EncryptedResponse.seal(
      DeviceResponse(documents: [oversharing]),
      to: narrow.request.encryptionInfo.recipientPublicKey, sessionTranscript: transcript)
    #expect {
      try AnnexCVerifier.verify(
        responseData: sealed.data, state: narrow, issuerTrustAnchors: [wallet.pki.iaca],
        now: TestPKI.now)
    } throws: { ($0 as? VerifierError)?.code == .verificationFailed }
  }

  @Test("A request for a docType the wallet lacks has no candidates and no proposed consent")
  func unknownDocType() throws {
    let wallet = try Wallet()
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.example.unknown", nameSpaces: [("n", [.init("e", intentToRetain: false)])])
      ],
      origin: Self.origin)
    let presentation = try AnnexCPresentation.resolve(
      data: state.request.data, origin: Self.origin, credentials: wallet.credentials,
      readerTrustAnchors: [], now: TestPKI.now)
    #expect(presentation.documentRequests[0].candidates.isEmpty)
    #expect(presentation.answerableDocRequests == nil)
    #expect { try presentation.proposedConsent() } throws: {
      ($0 as? PresentationError)?.code == .noMatchingCredential
    }
  }

  @Test(
    "Use cases: alternatives over doc requests pick the first satisfiable set; a mandatory one must be answered"
  )
  func useCases() throws {
    let wallet = try Wallet()
    let photoID = ItemsRequest(
      docType: "org.iso.23220.photoid.1",
      nameSpaces: [("org.iso.23220.1", [.init("family_name", intentToRetain: false)])])
    // Use case 0 (mandatory): a photo ID or an mDL; use case 1 (optional): a PID.
    let request = DeviceRequest(
      docRequests: [
        DocRequest(itemsRequest: photoID), DocRequest(itemsRequest: Self.mdlRequest),
        DocRequest(itemsRequest: Self.pidRequest),
      ],
      useCases: [
        UseCase(mandatory: true, documentSets: [[0], [1]]),
        UseCase(mandatory: false, documentSets: [[2]]),
      ])
    let key = try ECPrivateKey(curve: .p256)
    let annexC = AnnexCRequest(
      deviceRequest: request,
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 5, count: 16), recipientPublicKey: key.publicKey))
    let presentation = try AnnexCPresentation.resolve(
      data: annexC.data, origin: Self.origin, credentials: wallet.credentials,
      readerTrustAnchors: [], now: TestPKI.now)
    #expect(presentation.useCases.count == 2)
    #expect(presentation.answerableDocRequests == [1, 2])
    // The minimum answers the mandatory use case only; the optional one when its credential is
    // chosen.
    let consent = try presentation.proposedConsent()
    #expect(consent.documents.map(\.credentialID) == ["mdl"])
    #expect(presentation.docRequestsToAnswer(credentials: ["mdl", "pid"]) == [1, 2])
    #expect(presentation.docRequestsToAnswer(credentials: ["mdl"]) == [1])
    #expect(presentation.docRequestsToAnswer(credentials: ["pid"]) == nil)
    // Leaving the mandatory use case unanswered is refused.
    let onlyPID = MdocConsent(documents: [
      MdocConsent.Document(
        docRequestIndex: 2, credentialID: "pid",
        elements: ["eu.europa.ec.eudi.pid.1": ["given_name"]])
    ])
    #expect {
      try presentation.respond(consent: onlyPID, deviceKey: wallet.key)
    } throws: { ($0 as? PresentationError)?.code == .consentViolation }
    // A wallet without an mDL or a photo ID cannot answer the mandatory use case at all.
    let pidOnly = try AnnexCPresentation.resolve(
      data: annexC.data, origin: Self.origin, credentials: [wallet.credentials[1]],
      readerTrustAnchors: [], now: TestPKI.now)
    #expect(pidOnly.answerableDocRequests == nil)
    _ = try presentation.respond(consent: consent, deviceKey: wallet.key)
  }

  @Test("Verifier state survives a JSON round trip")
  func stateRoundTrip() throws {
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.mdlRequest], origin: Self.origin)
    #expect(try AnnexCVerifier.State(json: try Self.transport(state.json)) == state)
  }
}
