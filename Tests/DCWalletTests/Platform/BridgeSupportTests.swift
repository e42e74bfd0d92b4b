import DCAPI
import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCRegistration
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// The decisions the iOS bridge (`IdentityDocumentServicesBridge`) delegates: every branch of the
/// provider extension adapters and the registration sync runs here on Linux.
@Suite("iOS provider extension exchange")
struct IOSProviderExchangeTests {
  static let mdlItems = ItemsRequest(
    docType: "org.iso.18013.5.1.mDL",
    nameSpaces: [
      (
        "org.iso.18013.5.1",
        [.init("family_name", intentToRetain: false), .init("portrait", intentToRetain: true)]
      )
    ])

  @Test("The origin comes only from the OS, normalised; none is refused")
  func origin() throws {
    #expect(
      try IOSProviderExchange.origin(requestingWebsiteOrigin: "HTTPS://Verifier.Example/")
        .serialized == "https://verifier.example")
    for text in [nil, "https://verifier.example/path", "verifier.example"] {
      #expect { try IOSProviderExchange.origin(requestingWebsiteOrigin: text) } throws: {
        ($0 as? DigitalCredentialsError)?.code == .invalidOrigin
      }
    }
  }

  @Test(
    "Raw mdoc request -> consistency check -> envelope -> sealed response -> the CBOR EncryptedResponse iOS wants"
  )
  func mobileDocumentRoundTrip() throws {
    let pki = try TestPKI()
    let deviceKey = try ECPrivateKey(curve: .p256)
    let stored = StoredMdoc(id: "mdl", issuerSigned: try pki.issue(deviceKey: deviceKey.publicKey))
    let readerKey = try ECPrivateKey(curve: .p256)
    let raw = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: Self.mdlItems)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16), recipientPublicKey: readerKey.publicKey))
    let shown = try MobileDocumentRequest(deviceRequest: raw.deviceRequest)
    let origin = try IOSProviderExchange.origin(requestingWebsiteOrigin: "https://verifier.example")

    let envelope = try IOSProviderExchange.mobileDocumentEnvelope(
      rawRequestProtocol: "org-iso-mdoc", rawRequestData: Array(raw.data.serialized().utf8),
      shown: shown)
    #expect(envelope.requests.count == 1)
    #expect(envelope.requests[0].knownProtocol == .orgIsoMdoc)
    #expect(envelope.requests[0].data == raw.data)

    let presentation = try AnnexCPresentation.resolve(
      data: envelope.requests[0].data, origin: origin, credentials: [stored],
      readerTrustAnchors: [], now: TestPKI.now)
    let sealed = try presentation.respond(consent: try presentation.proposedConsent()) { _ in
      deviceKey
    }
    let bytes = try IOSProviderExchange.mobileDocumentResponseData(
      ProtocolResponse(protocolIdentifier: "org-iso-mdoc", data: sealed.data))
    #expect(bytes == sealed.bytes)
    let opened = try EncryptedResponse(bytes: bytes).open(
      privateKey: readerKey, sessionTranscript: raw.sessionTranscript(origin: origin))
    let response = try DeviceResponse(bytes: opened)
    #expect(response.documents.first?.docType == "org.iso.18013.5.1.mDL")
  }

  @Test("A raw request of another type, asking for more than shown, or unreadable is refused")
  func mobileDocumentRefusals() throws {
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 1, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let subset = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
    let shown = try MobileDocumentRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: subset)]))
    let wider = Array(
      AnnexCRequest(
        deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: Self.mdlItems)]),
        encryptionInfo: info
      ).data.serialized().utf8)
    for type in ["openid4vp-v1-unsigned", "iso18013MobileDocument", ""] {
      #expect {
        try IOSProviderExchange.mobileDocumentEnvelope(
          rawRequestProtocol: type, rawRequestData: wider, shown: shown)
      } throws: {
        ($0 as? DigitalCredentialsError)?.code == .unsupportedProtocol
      }
    }
    for data in [wider, Array("not json".utf8), Array("{}".utf8)] {
      #expect {
        try IOSProviderExchange.mobileDocumentEnvelope(
          rawRequestProtocol: "org-iso-mdoc", rawRequestData: data, shown: shown)
      } throws: {
        ($0 as? PresentationError)?.code == .consentViolation
      }
    }
  }

  @Test("Only an org-iso-mdoc response with an EncryptedResponse becomes response data")
  func mobileDocumentResponseRefusals() {
    let sealed = EncryptedResponse(enc: [1, 2], cipherText: [3, 4])
    #expect {
      try IOSProviderExchange.mobileDocumentResponseData(
        ProtocolResponse(protocolIdentifier: "openid4vp-v1-unsigned", data: sealed.data))
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .unsupportedProtocol
    }
    for data: JSONValue in [
      .object([]), .object([("response", .string("!"))]),
      .object([("response", .string(Base64URL.encode([0xA0])))]),
    ] {
      let invalidRequestError = #expect(throws: DigitalCredentialsError.self) {
        try IOSProviderExchange.mobileDocumentResponseData(
          ProtocolResponse(protocolIdentifier: "org-iso-mdoc", data: data))
      }
      #expect(invalidRequestError?.code == .invalidRequest)
    }
  }

  @Test(
    "The OpenID4VP protocol is read from the request data's shape (OpenID4VP 1.0 A.3)",
    arguments: [
      (
        #"{"response_type": "vp_token", "nonce": "n"}"#, DigitalCredentialProtocol.openID4VPUnsigned
      ),
      (#"{"request": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}"#, .openID4VPSigned),
      (#"{"request": {"payload": "e30", "signatures": []}}"#, .openID4VPMultisigned),
    ])
  func openID4VPProtocols(data: String, expected: DigitalCredentialProtocol) throws {
    #expect(try IOSProviderExchange.openID4VPProtocol(requestData: Array(data.utf8)) == expected)
  }

  @Test(
    "OpenID4VP request data that is not an object, or whose request is neither form, is refused",
    arguments: ["", "[1]", "\"request\"", #"{"request": 7}"#, #"{"request": null}"#])
  func malformedOpenID4VPData(data: String) {
    #expect {
      try IOSProviderExchange.openID4VPProtocol(requestData: Array(data.utf8))
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidRequest
    }
  }

  @Test("OpenID4VP request data becomes an envelope; the response data is the response JSON")
  func openID4VP() throws {
    let data = Array(#"{"response_type": "vp_token", "dcql_query": {"credentials": []}}"#.utf8)
    let envelope = try IOSProviderExchange.openID4VPEnvelope(
      requestData: data, protocol: .openID4VPUnsigned)
    #expect(envelope.requests.map(\.protocolIdentifier) == ["openid4vp-v1-unsigned"])
    #expect(envelope.requests[0].data == (try JSONValue(parsing: data)))
    #expect {
      try IOSProviderExchange.openID4VPEnvelope(requestData: data, protocol: .orgIsoMdoc)
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .unsupportedProtocol
    }
    for bad in ["not json", "[1]", #""text""#] {
      #expect {
        try IOSProviderExchange.openID4VPEnvelope(
          requestData: Array(bad.utf8), protocol: .openID4VPSigned)
      } throws: {
        ($0 as? DigitalCredentialsError)?.code == .invalidRequest
      }
    }

    let responseData: JSONValue = .object([("response", .string("eyJ..."))])
    let bytes = try IOSProviderExchange.openID4VPResponseData(
      ProtocolResponse(protocolIdentifier: "openid4vp-v1-signed", data: responseData),
      protocol: .openID4VPSigned)
    #expect(try JSONValue(parsing: bytes) == responseData)
    for (identifier, expected) in [
      ("openid4vp-v1-unsigned", DigitalCredentialProtocol.openID4VPSigned),
      ("org-iso-mdoc", .orgIsoMdoc),
    ] {
      #expect {
        try IOSProviderExchange.openID4VPResponseData(
          ProtocolResponse(protocolIdentifier: identifier, data: responseData), protocol: expected)
      } throws: {
        ($0 as? DigitalCredentialsError)?.code == .unsupportedProtocol
      }
    }
  }
}

@Suite("iOS consent selection and reader trust")
struct MobileDocumentSelectionTests {
  static let request = MobileDocumentRequest(
    presentmentRequests: [
      .init(
        documentRequestSets: [
          .init(requests: [
            .init(
              documentType: "org.iso.18013.5.1.mDL",
              namespaces: [
                "org.iso.18013.5.1": [
                  "family_name": .init(isRetaining: false), "portrait": .init(isRetaining: true),
                ]
              ])
          ])
        ], isMandatory: true)
    ])
  static let documents = [
    OfferableDocument(
      id: "mdl-1", documentType: "org.iso.18013.5.1.mDL",
      elements: ["org.iso.18013.5.1": ["family_name", "portrait"]])
  ]
  static func element(_ name: String) -> MobileDocumentRequest.ShownElement {
    let key = request.shownElements.keys.first { $0.element == name }
    return key!
  }

  @Test("A valid selection names the documents and the elements as the wallet's consent takes them")
  func valid() throws {
    let selection = try MobileDocumentSelection(
      request: Self.request,
      choices: [PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["mdl-1"])],
      documents: Self.documents, disclosing: [Self.element("family_name")])
    #expect(selection.credentialIDs == ["mdl-1"])
    #expect(
      selection.disclosedElements == [.mdoc(nameSpace: "org.iso.18013.5.1", element: "family_name")]
    )
  }

  @Test("Broken choices, unshown elements and empty selections are refused")
  func refused() {
    let choice = PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["mdl-1"])
    let unshown = MobileDocumentRequest(
      presentmentRequests: [
        .init(
          documentRequestSets: [
            .init(requests: [
              .init(
                documentType: "org.iso.18013.5.1.mDL",
                namespaces: ["org.iso.18013.5.1": ["birth_date": .init(isRetaining: false)]])
            ])
          ], isMandatory: true)
      ]
    ).shownElements.keys.first!
    let cases: [([PresentmentChoice], Set<MobileDocumentRequest.ShownElement>)] = [
      ([], [Self.element("portrait")]),  // the mandatory request is not answered
      (
        [PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["other"])],
        [Self.element("portrait")]
      ),
      ([choice], [unshown]),
      ([choice], []),
    ]
    for (choices, elements) in cases {
      #expect {
        try MobileDocumentSelection(
          request: Self.request, choices: choices, documents: Self.documents, disclosing: elements)
      } throws: {
        ($0 as? PresentationError)?.code == .consentViolation
      }
    }
  }

  @Test("A stored mdoc offers its docType, every element it holds and its issuer key identifiers")
  func offerable() throws {
    let pki = try TestPKI()
    let issued = try pki.issue(deviceKey: try ECPrivateKey(curve: .p256).publicKey)
    let document = OfferableDocument(
      storedMdoc: StoredMdoc(id: "mdl-1", issuerSigned: issued), issuerKeyIdentifiers: [[1, 2]])
    #expect(document.id == "mdl-1")
    #expect(document.documentType == "org.iso.18013.5.1.mDL")
    #expect(
      document.elements == [
        "org.iso.18013.5.1": ["family_name", "given_name", "birth_date", "age_over_18", "portrait"]
      ])
    #expect(document.issuerKeyIdentifiers == [[1, 2]])
    let listed = OfferableDocument.mobileDocuments([
      ("broken", [0xA0], []), ("mdl-1", issued.bytes, [[1, 2]]),
    ])
    #expect(listed == [document])
  }

  @Test("Reader chains: trusted to an anchor, untrusted without one, malformed, or none at all")
  func readerTrust() throws {
    let pki = try TestPKI()
    let signed = MobileDocumentRequest(
      presentmentRequests: Self.request.presentmentRequests,
      requestAuthentications: [[pki.reader.derBytes, pki.readerRoot.derBytes], [[0x30, 0x00]]])
    let anchored = signed.readerTrust(trustAnchors: [pki.readerRoot], at: TestPKI.now)
    #expect(anchored.map(\.isTrusted) == [true, false])
    #expect(
      signed.readerTrust(trustAnchors: [], at: TestPKI.now).map(\.isTrusted) == [false, false])
    #expect(Self.request.readerTrust(trustAnchors: [pki.readerRoot], at: TestPKI.now).isEmpty)
  }
}

@Suite("Registration sync, document by document")
struct RegistrationSyncTests {
  /// A registration store that records calls and fails the identifiers it is told to.
  actor FakeStore {
    var registered: Set<String>
    let failing: Set<String>
    let readFails: Bool
    var calls: [String] = []

    init(registered: Set<String>, failing: Set<String> = [], readFails: Bool = false) {
      self.registered = registered
      self.failing = failing
      self.readFails = readFails
    }

    struct Refused: Error, CustomStringConvertible {
      let id: String
      var description: String { "refused \(id)" }
    }

    func read() throws -> [String] {
      calls.append("read")
      if readFails { throw Refused(id: "read") }
      return registered.sorted()
    }

    func add(_ id: String) throws {
      calls.append("add \(id)")
      if failing.contains(id) { throw Refused(id: id) }
      registered.insert(id)
    }

    func remove(_ id: String) throws {
      calls.append("remove \(id)")
      if failing.contains(id) { throw Refused(id: id) }
      registered.remove(id)
    }
  }

  /// A planner like the iOS one: add every wanted id, remove every registered one not wanted.
  static func plan(_ wanted: [String])
    -> @Sendable (Set<String>) throws -> RegistrationChanges<
      String
    >
  {
    { registered in
      RegistrationChanges(
        additions: wanted.map { ($0, $0) }, removals: registered.subtracting(wanted).sorted(),
        notes: ["skipped x: docTypeNotEntitled"])
    }
  }

  static func run(
    _ store: FakeStore, access: RegistrationSync.Access, wanted: [String] = ["a", "b", "c"],
    plan: (@Sendable (Set<String>) throws -> RegistrationChanges<String>)? = nil
  ) async -> RegistrationSyncReport {
    await RegistrationSync.run(
      access: access, readRegistered: { try await store.read() },
      plan: plan ?? Self.plan(wanted), add: { try await store.add($0) },
      remove: { try await store.remove($0) })
  }

  static let authorized = RegistrationSync.Access(canReadRegistrations: true, writeRefusal: nil)

  @Test("Stale registrations are removed and every wanted one added; one failure stops nothing")
  func independent() async {
    let store = FakeStore(registered: ["old-1", "old-2", "a"], failing: ["old-1", "b"])
    let report = await Self.run(store, access: Self.authorized)
    #expect(report.removed == ["old-2"])
    #expect(report.added == ["a", "c"])
    #expect(
      report.failures.map(\.description) == ["remove old-1: refused old-1", "add b: refused b"])
    #expect(report.notes == ["skipped x: docTypeNotEntitled"])
    #expect(!report.isComplete)
    #expect(
      await store.calls == ["read", "remove old-1", "remove old-2", "add a", "add b", "add c"])
  }

  @Test("Before the first authorisation nothing is read: the registered set is empty, not an error")
  func notDetermined() async {
    let store = FakeStore(registered: ["ghost"], readFails: true)
    let report = await Self.run(
      store, access: RegistrationSync.Access(canReadRegistrations: false, writeRefusal: nil))
    #expect(report.isComplete)
    #expect(report.added == ["a", "b", "c"])
    #expect(await store.calls == ["add a", "add b", "add c"])
  }

  @Test("A failed read still adds (additions replace) but removes nothing")
  func readFails() async {
    let store = FakeStore(registered: [], readFails: true)
    let report = await Self.run(
      store, access: Self.authorized,
      plan: { _ in RegistrationChanges(additions: [("a", "a")], removals: ["maybe-stale"]) })
    #expect(report.failures.map(\.step) == [.read])
    #expect(report.failures.first?.documentIdentifier == nil)
    #expect(report.added == ["a"])
    #expect(report.removed.isEmpty)
    #expect(await store.calls == ["read", "add a"])
  }

  @Test("When the status refuses writes the store is not called and each document is reported")
  func refused() async {
    let store = FakeStore(registered: ["old"])
    let report = await Self.run(
      store,
      access: RegistrationSync.Access(canReadRegistrations: true, writeRefusal: "notAuthorized"))
    #expect(report.failures.map(\.documentIdentifier) == ["a", "b", "c"])
    #expect(report.failures.allSatisfy { $0.step == .add && $0.reason.contains("notAuthorized") })
    #expect(await store.calls.isEmpty)
  }

  @Test("A plan that cannot be made changes nothing")
  func planFails() async {
    struct Bad: Error {}
    let store = FakeStore(registered: ["old"])
    let report = await Self.run(store, access: Self.authorized, plan: { _ in throw Bad() })
    #expect(report.failures.map(\.step) == [.plan])
    #expect(report.added.isEmpty && report.removed.isEmpty)
    #expect(await store.calls == ["read"])
  }
}
