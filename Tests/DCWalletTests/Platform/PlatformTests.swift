import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCWallet
import DCWalletFixtureTestSupport
import Foundation
import Testing

@Suite("The request model the request UI sees")
struct PlatformRequestTests {
  static func request(_ protocols: [String]) -> [UInt8] {
    Array(
      JSONValue.object([
        (
          "requests",
          .array(
            protocols.map {
              .object([("protocol", .string($0)), ("data", .object([("p", .string($0))]))])
            })
        )
      ]).serialized().utf8)
  }

  @Test(
    "multipaz entry ids map to the request with that protocol; unknown protocols are dropped first")
  func multipazSelection() throws {
    let json = Self.request(["com.example.unknown", "openid4vp-v1-unsigned", "org-iso-mdoc"])
    let request = try AndroidCredentialRequest(
      requestJSON: json, origin: "https://rp.example", callingPackage: "com.android.chrome",
      selectedEntry: "0 org-iso-mdoc mdl 1")
    #expect(
      request.requests.map(\.protocolIdentifier) == ["openid4vp-v1-unsigned", "org-iso-mdoc"])
    #expect(request.selection.credentialIDs == ["mdl 1"])
    #expect(request.selection.requestIndex == 1)
    #expect(request.origin?.serialized == "https://rp.example")
  }

  @Test(
    "Several requests with the same protocol are candidates, resolved by what the credentials satisfy"
  )
  func candidates() throws {
    let json = Self.request(["org-iso-mdoc", "x-unknown", "org-iso-mdoc"])
    let request = try AndroidCredentialRequest(
      requestJSON: json, origin: nil, callingPackage: "com.example.app",
      selectedEntry: "2 org-iso-mdoc pid")
    #expect(request.origin == nil)
    #expect(request.selection.requestIndex == nil)
    #expect(request.selection.candidateRequestIndexes == [0, 1])
    var asked: [Int] = []
    let resolved = request.resolveRequestIndex { candidate in
      asked.append(request.requests.firstIndex(of: candidate) ?? -1)
      return asked.count == 2
    }
    #expect(resolved == 1)
  }

  @Test("CMWallet entries index the original list")
  func cmwalletSelection() throws {
    let json = Self.request(["x-unknown", "openid4vp-v1-signed", "org-iso-mdoc"])
    let request = try AndroidCredentialRequest(
      requestJSON: json, origin: "https://rp.example", callingPackage: nil,
      selectedEntry: #"{"provider_idx": 2, "id": "cred-7"}"#)
    #expect(request.selection.requestIndex == 1)
    #expect(request.selection.credentialIDs == ["cred-7"])
    let unsupportedProtocolError = #expect(throws: DigitalCredentialsError.self) {
      try AndroidCredentialRequest(
        requestJSON: json, origin: nil, callingPackage: nil,
        selectedEntry: #"{"provider_idx": 0, "id": "x"}"#)
    }
    #expect(unsupportedProtocolError?.code == .unsupportedProtocol)
  }

  @Test(
    "Malformed picks are refused, a pick of a protocol the request lacks as unsupported",
    arguments: [
      ("", DigitalCredentialsErrorCode.invalidRequest), ("mdl", .invalidRequest),
      ("x org-iso-mdoc mdl", .invalidRequest), ("0 openid4vp mdl", .unsupportedProtocol),
      (#"{"id": "x"}"#, .invalidRequest), ("{not json", .invalidRequest),
    ])
  func malformedPicks(entry: String, code: DigitalCredentialsErrorCode) {
    let refused = #expect(throws: DigitalCredentialsError.self) {
      try AndroidCredentialRequest(
        requestJSON: Self.request(["org-iso-mdoc"]), origin: nil, callingPackage: nil,
        selectedEntry: entry)
    }
    #expect(refused?.code == code, "\(entry)")
  }

  static func iosRequest() throws -> MobileDocumentRequest {
    let mdl = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [.init("family_name", intentToRetain: false), .init("portrait", intentToRetain: true)]
        )
      ])
    let photo = ItemsRequest(
      docType: "org.iso.23220.photoid.1",
      nameSpaces: [("org.iso.23220.1", [.init("family_name", intentToRetain: false)])])
    let pid = ItemsRequest(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("age_over_18", intentToRetain: false)])])
    let request = DeviceRequest(
      docRequests: [
        DocRequest(itemsRequest: mdl), DocRequest(itemsRequest: photo),
        DocRequest(itemsRequest: pid),
      ],
      useCases: [
        UseCase(mandatory: true, documentSets: [[0], [1]]),
        UseCase(mandatory: false, documentSets: [[2]]),
      ])
    return try MobileDocumentRequest(deviceRequest: request)
  }

  @Test(
    "iOS rules: every mandatory presentment request answered, one set each, every document of the set"
  )
  func iosRules() throws {
    let request = try Self.iosRequest()
    #expect(request.presentmentRequests.count == 2)
    let documents = [
      OfferableDocument(
        id: "mdl", documentType: "org.iso.18013.5.1.mDL",
        elements: ["org.iso.18013.5.1": ["family_name"]]),
      OfferableDocument(id: "pid", documentType: "eu.europa.ec.eudi.pid.1", elements: [:]),
    ]
    #expect(request.isAnswerable(with: documents))
    #expect(!request.isAnswerable(with: [documents[1]]))
    let sets = request.answerableSets(documents)
    #expect(sets[0].map(\.setIndex) == [0])
    #expect(sets[1].first?.candidates == [["pid"]])
    try request.validate(
      [PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["mdl"])],
      documents: documents)
    for bad in [
      [PresentmentChoice(presentmentIndex: 1, setIndex: 0, documentIDs: ["pid"])],
      [PresentmentChoice(presentmentIndex: 0, setIndex: 1, documentIDs: ["mdl"])],
      [PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: [])],
      [
        PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["mdl"]),
        PresentmentChoice(presentmentIndex: 0, setIndex: 0, documentIDs: ["mdl"]),
      ],
      [PresentmentChoice(presentmentIndex: 5, setIndex: 0, documentIDs: ["mdl"])],
    ] {
      let consentViolationError = #expect(throws: PresentationError.self) {
        try request.validate(bad, documents: documents)
      }
      #expect(consentViolationError?.code == .consentViolation)
    }
  }

  @Test("A document request restricted to issuers only matches those issuers")
  func issuerRestriction() {
    let request = MobileDocumentRequest.DocumentRequest(
      documentType: "org.iso.18013.5.1.mDL", namespaces: [:], issuerKeyIdentifiers: [[1, 2]])
    #expect(
      OfferableDocument(
        id: "a", documentType: "org.iso.18013.5.1.mDL", elements: [:],
        issuerKeyIdentifiers: [[1, 2]]
      ).answers(request))
    #expect(
      !OfferableDocument(
        id: "b", documentType: "org.iso.18013.5.1.mDL", elements: [:], issuerKeyIdentifiers: [[3]]
      ).answers(request))
  }
}

@Suite("Consistency check before signing")
struct ConsistencyCheckTests {
  static func raw(_ items: [ItemsRequest]) throws -> Data {
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 1, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: items.map { DocRequest(itemsRequest: $0) }),
      encryptionInfo: info)
    return Data(request.data.serialized().utf8)
  }

  static let shownItems = ItemsRequest(
    docType: "org.iso.18013.5.1.mDL",
    nameSpaces: [
      (
        "org.iso.18013.5.1",
        [.init("family_name", intentToRetain: false), .init("portrait", intentToRetain: true)]
      )
    ])

  @Test(
    "Equal requests pass; an extra element, an extra docType, retention, an undecodable request refuse"
  )
  func mdoc() throws {
    let shown = try MobileDocumentRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: Self.shownItems)]))
    try ConsistencyCheck.check(
      rawMobileDocumentRequest: try Self.raw([Self.shownItems]), shown: shown)
    let subset = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
    try ConsistencyCheck.check(rawMobileDocumentRequest: try Self.raw([subset]), shown: shown)
    let extraElement = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [.init("family_name", intentToRetain: false), .init("birth_date", intentToRetain: false)]
        )
      ])
    let extraDocType = ItemsRequest(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("family_name", intentToRetain: false)])])
    let retained = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: true)])])
    let otherNamespace = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1.aamva", [.init("family_name", intentToRetain: false)])])
    for raw in [
      try Self.raw([extraElement]), try Self.raw([Self.shownItems, extraDocType]),
      try Self.raw([retained]), try Self.raw([otherNamespace]),
      Data("not json".utf8), Data(#"{"deviceRequest": "AAAA", "encryptionInfo": "AAAA"}"#.utf8),
    ] {
      #expect {
        try ConsistencyCheck.check(rawMobileDocumentRequest: raw, shown: shown)
      } throws: { ($0 as? PresentationError)?.code == .consentViolation }
    }
  }

  static let shownQuery: JSONValue = .object([
    (
      "credentials",
      .array([
        .object([
          ("id", "pid"), ("format", "dc+sd-jwt"),
          ("meta", .object([("vct_values", .array(["urn:eudi:pid:1"]))])),
          (
            "claims",
            .array([
              .object([("path", .array(["given_name"]))]),
              .object([("path", .array(["age_over_18"]))]),
            ])
          ),
        ])
      ])
    )
  ])

  static func unsigned(_ query: JSONValue) -> Data {
    Data(
      JSONValue.object([("response_type", "vp_token"), ("nonce", "n"), ("dcql_query", query)])
        .serialized().utf8)
  }

  @Test("OpenID4VP: the raw DCQL must not ask for more than the parsed query showed")
  func openID4VP() throws {
    try ConsistencyCheck.check(
      rawOpenID4VPRequest: Self.unsigned(Self.shownQuery),
      protocolIdentifier: "openid4vp-v1-unsigned", shownQuery: Self.shownQuery)
    // A signed request carries the same parameters in its JWS payload.
    let key = try ECPrivateKey(curve: .p256)
    let payload = Array(Self.unsigned(Self.shownQuery))
    let jws = try JWS.sign(
      payload: payload, protectedHeader: .object([("typ", "oauth-authz-req+jwt")]), signer: key)
    try ConsistencyCheck.check(
      rawOpenID4VPRequest: Data(JSONValue.object([("request", .string(jws))]).serialized().utf8),
      protocolIdentifier: "openid4vp-v1-signed",
      shownQuery: Self.shownQuery)
    let extraClaim: JSONValue = .object([
      (
        "credentials",
        .array([
          .object([
            ("id", "pid"), ("format", "dc+sd-jwt"),
            ("meta", .object([("vct_values", .array(["urn:eudi:pid:1"]))])),
            (
              "claims",
              .array([
                .object([("path", .array(["given_name"]))]),
                .object([("path", .array(["birth_date"]))]),
              ])
            ),
          ])
        ])
      )
    ])
    let allClaims: JSONValue = .object([
      (
        "credentials",
        .array([
          .object([
            ("id", "pid"), ("format", "dc+sd-jwt"),
            ("meta", .object([("vct_values", .array(["urn:eudi:pid:1"]))])),
          ])
        ])
      )
    ])
    let otherQuery: JSONValue = .object([
      (
        "credentials",
        .array([
          .object([
            ("id", "mdl"), ("format", "mso_mdoc"),
            ("meta", .object([("doctype_value", "org.iso.18013.5.1.mDL")])),
          ])
        ])
      )
    ])
    for raw in [
      Self.unsigned(extraClaim), Self.unsigned(allClaims), Self.unsigned(otherQuery),
      Data("{}".utf8), Data("[".utf8),
    ] {
      #expect {
        try ConsistencyCheck.check(
          rawOpenID4VPRequest: raw, protocolIdentifier: "openid4vp-v1-unsigned",
          shownQuery: Self.shownQuery)
      } throws: { ($0 as? PresentationError)?.code == .consentViolation }
    }
    let consentViolationError = #expect(throws: PresentationError.self) {
      try ConsistencyCheck.check(
        rawOpenID4VPRequest: Self.unsigned(Self.shownQuery), protocolIdentifier: "org-iso-mdoc",
        shownQuery: Self.shownQuery)
    }
    #expect(consentViolationError?.code == .consentViolation)
  }
}

@Suite("Platform request variants")
struct PlatformRequestVariantTests {
  @Test("iOS OpenID4VP raw requests expose the DCQL query and the client identifiers")
  func iosOpenID4VP() throws {
    let origin = try WebOrigin("https://rp.example")
    let query: JSONValue = .object([
      ("credentials", .array([.object([("id", "pid"), ("format", "dc+sd-jwt")])]))
    ])
    let params: JSONValue = .object([
      ("client_id", "x509_san_dns:rp.example"), ("nonce", "n"), ("dcql_query", query),
    ])
    let key = try ECPrivateKey(curve: .p256)
    let jws = try JWS.sign(
      payload: params.serializedBytes(), protectedHeader: .object([("typ", "oauth-authz-req+jwt")]),
      signer: key)
    let signed = try PlatformRequest.iosOpenID4VP(
      origin: origin, protocolIdentifier: "openid4vp-v1-signed",
      requestData: Data(JSONValue.object([("request", .string(jws))]).serialized().utf8))
    guard case .iosOpenID4VP(_, _, let dcql, let clients) = signed else {
      Issue.record("wrong variant")
      return
    }
    #expect(dcql == query)
    #expect(clients == ["x509_san_dns:rp.example"])
    #expect(signed.origin == origin)
    let unsigned = try PlatformRequest.iosOpenID4VP(
      origin: origin, protocolIdentifier: "openid4vp-v1-unsigned",
      requestData: Data(params.serialized().utf8))
    if case .iosOpenID4VP(_, _, _, let none) = unsigned { #expect(none.isEmpty) }
    let consentViolationError = #expect(throws: PresentationError.self) {
      try PlatformRequest.iosOpenID4VP(
        origin: origin, protocolIdentifier: "openid4vp-v1-unsigned", requestData: Data("{}".utf8))
    }
    #expect(consentViolationError?.code == .consentViolation)
  }
}
