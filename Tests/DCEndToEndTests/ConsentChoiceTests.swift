import DCAPI
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCQL
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCWalletCLI

@Suite("OpenID4VP consent: the holder's choice, the minimum by default, validated before signing")
struct ConsentChoiceTests {
  static let pidOptions: JSONValue = [
    "credentials": [ConsentFixture.pidSDJWTQuery, ConsentFixture.pidMdocQuery],
    "credential_sets": [["options": [["pid_sdjwt"], ["pid_mdoc"]]]],
  ]

  @Test("The chosen credential picks the credential set option it satisfies, in query order")
  func chosenCredentialPicksOption() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (sent, envelope) = try fixture.request(Self.pidOptions)
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    // Default: the verifier's first option.
    #expect(try openID4VP(request.proposedConsent()).credentialIDs == ["pid_sdjwt": ["pid-sdjwt"]])
    // The holder picks the mdoc PID: the second option answers.
    let chosen = try request.consent(credentials: ["pid-mdoc"], disclose: [])
    #expect(try openID4VP(chosen).credentialIDs == ["pid_mdoc": ["pid-mdoc"]])
    // The typed choice says the same with an option index.
    let presentation = try openID4VP(request)
    let typed = try presentation.consent(for: OpenID4VPChoice(options: [0: 1]))
    #expect(typed == (try openID4VP(chosen)))
    let response = try await wallet.respond(to: request, consent: chosen)
    let verified = try sent.state.verifyResponse(
      response.data, sdJWTIssuerAnchors: [fixture.pki.iaca], mdocIssuerAnchors: [fixture.pki.iaca],
      now: fixture.now)
    #expect(Set(verified.credentials.keys) == ["pid_mdoc"])
    // The screen shows the set, both options and the answered one.
    let screen = request.screen(for: chosen)
    #expect(screen.credentialSets.count == 1)
    #expect(screen.credentialSets[0].options == [["pid_sdjwt"], ["pid_mdoc"]])
    #expect(screen.credentialSets[0].satisfiableOptions == [0, 1])
    #expect(screen.credentialSets[0].answeredOption == 1)
    #expect(screen.documents.map(\.id) == ["pid_sdjwt", "pid_mdoc"])
    #expect(screen.documents[0].presentations.isEmpty)
    #expect(screen.documents[1].presentations.map(\.credentialID) == ["pid-mdoc"])
    #expect(screen.documents[1].candidateIDs == ["pid-mdoc"])
    let text = request.consentScreen(for: chosen)
    #expect(text.contains("option 1 [pid_sdjwt] or option 2 [pid_mdoc] <- answered"))
    #expect(text.contains("eu.europa.ec.eudi.pid.1/given_name: Erika"))
  }

  @Test("A credential query without meta matches nothing: default and --credential agree")
  func queryWithoutMetaMatchesNothing() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    // OpenID4VP 1.0 §6.1: meta is REQUIRED. q_all (no meta) would match the mdoc PID if it were
    // read as "no constraint"; it matches nothing, so the set's second option answers.
    let qAll = ConsentFixture.pidMdocQuery.removing("meta").setting("id", to: "q_all")
    let qOne = ConsentFixture.pidMdocQuery.setting("id", to: "q_one")
    let (_, envelope) = try fixture.request([
      "credentials": [qAll, qOne], "credential_sets": [["options": [["q_all"], ["q_one"]]]],
    ])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let presentation = try openID4VP(request)
    #expect(presentation.candidates(of: "q_all").isEmpty)
    #expect(presentation.candidates(of: "q_one").map(\.credentialID) == ["pid-mdoc"])
    #expect(try openID4VP(request.proposedConsent()).credentialIDs == ["q_one": ["pid-mdoc"]])
    #expect(
      try openID4VP(request.consent(credentials: ["pid-mdoc"], disclose: [])).credentialIDs == [
        "q_one": ["pid-mdoc"]
      ])
    // The typed choice cannot pick q_all's option either.
    do {
      _ = try presentation.consent(for: OpenID4VPChoice(options: [0: 0]))
      Issue.record("the option of a query without meta was answered")
    } catch {
      #expect(error.code == .refused, "\(error)")
    }
  }

  @Test("A required set the chosen credentials cannot satisfy is a refusal naming the set")
  func unsatisfiableRequiredSet() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.pidOptions)
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let reason = await walletRefusal { _ = try request.consent(credentials: ["mdl"], disclose: []) }
    #expect(reason.contains("credential_sets[0]"))
    #expect(reason.contains("[pid_sdjwt] or [pid_mdoc]"))
    // A picked option whose query has no chosen credential is refused too.
    let presentation = try openID4VP(request)
    let picked = await walletRefusal {
      _ = try presentation.consent(
        for: OpenID4VPChoice(options: [0: 1], credentials: ["pid_mdoc": []]))
    }
    #expect(picked.contains("credential_sets[0] option 1"))
    // Without credential_sets every query is required: the one left out is named.
    let (_, both) = try fixture.request([
      "credentials": [ConsentFixture.pidSDJWTQuery, ConsentFixture.mdlQuery()]
    ])
    let plain = try await wallet.resolve(both, origin: ConsentFixture.origin)
    let missing = await walletRefusal {
      _ = try plain.consent(credentials: ["pid-sdjwt"], disclose: [])
    }
    #expect(missing.contains("credential query mdl"))
  }

  @Test("Optional sets are answered only when the holder chooses them; one credential per query")
  func minimumByDefault() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request([
      "credentials": [
        ConsentFixture.pidSDJWTQuery, ConsentFixture.pidMdocQuery,
        ConsentFixture.mdlQuery(multiple: true),
      ],
      "credential_sets": [
        ["options": [["pid_sdjwt"], ["pid_mdoc"]]],
        ["options": [["mdl"]], "required": false],
      ],
    ])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let presentation = try openID4VP(request)
    // Both mDLs match the `multiple` query, the optional set is satisfiable...
    #expect(presentation.candidates(of: "mdl").map(\.credentialID) == ["mdl", "mdl-2"])
    // ...yet the proposal is the minimum: the required set's first option, nothing optional.
    #expect(try openID4VP(request.proposedConsent()).credentialIDs == ["pid_sdjwt": ["pid-sdjwt"]])
    #expect(
      try openID4VP(request.consent(credentials: [], disclose: [])).credentialIDs == [
        "pid_sdjwt": ["pid-sdjwt"]
      ])
    // Naming a credential the optional set needs answers it, with only that credential.
    #expect(
      try openID4VP(request.consent(credentials: ["pid-mdoc", "mdl"], disclose: [])).credentialIDs
        == ["pid_mdoc": ["pid-mdoc"], "mdl": ["mdl"]])
    #expect(
      try openID4VP(request.consent(credentials: ["pid-mdoc"], disclose: [])).credentialIDs == [
        "pid_mdoc": ["pid-mdoc"]
      ])
    // Naming both mDLs presents both, as `multiple` allows.
    #expect(
      try openID4VP(request.consent(credentials: ["pid-sdjwt", "mdl", "mdl-2"], disclose: []))
        .credentialIDs == ["pid_sdjwt": ["pid-sdjwt"], "mdl": ["mdl", "mdl-2"]])
    // The typed choice: an optional set by its option, the credentials of a query.
    let typed = try presentation.consent(
      for: OpenID4VPChoice(options: [1: 0], credentials: ["mdl": ["mdl-2"]]))
    #expect(typed.credentialIDs == ["pid_sdjwt": ["pid-sdjwt"], "mdl": ["mdl-2"]])
    let screen = request.screen(for: .openID4VP(typed))
    #expect(screen.credentialSets.map(\.required) == [true, false])
    #expect(screen.credentialSets.map(\.answeredOption) == [0, 0])
    // When every set is optional, the minimum is the first option that can be answered.
    let (_, allOptional) = try fixture.request([
      "credentials": [
        ConsentFixture.pidSDJWTQuery, ConsentFixture.mdlQuery(),
        [
          "id": "photo", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.23220.photoid.1"],
        ],
      ],
      "credential_sets": [
        ["options": [["photo"]], "required": false],
        ["options": [["mdl"], ["pid_sdjwt"]], "required": false],
      ],
    ])
    let optional = try await wallet.resolve(allOptional, origin: ConsentFixture.origin)
    #expect(try openID4VP(optional.proposedConsent()).credentialIDs == ["mdl": ["mdl"]])
  }

  @Test("--disclose ignores claims that were not requested; an empty intersection is the refusal")
  func discloseIgnoresUnrequested() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.pidOptions)
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let consent = try openID4VP(
      request.consent(credentials: [], disclose: ["age_over_18", "birthdate", "not/a/claim"]))
    #expect(
      consent.selections["pid_sdjwt"]?.first?.disclosed.map(\.description) == [#"["age_over_18"]"#])
    let reason = await walletRefusal {
      _ = try request.consent(credentials: [], disclose: ["birthdate"])
    }
    #expect(reason.contains("nothing to share"))
    // Annex C the same way: an unrequested element is ignored.
    let mdoc = try await annexCRequest(fixture, wallet: wallet)
    guard
      case .mdoc(let chosen) = try mdoc.consent(
        credentials: [], disclose: ["org.iso.18013.5.1/age_over_18", "org.iso.18013.5.1/portrait"])
    else { throw WalletError(.refused, "not an mdoc consent") }
    #expect(chosen.documents.first?.elements == ["org.iso.18013.5.1": ["age_over_18"]])
    let none = await walletRefusal {
      _ = try mdoc.consent(credentials: [], disclose: ["org.iso.18013.5.1/portrait", "garbage"])
    }
    #expect(none.contains("nothing to share"))
  }

  func annexCRequest(_ fixture: ConsentFixture, wallet: Wallet) async throws -> PresentationRequest
  {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [.init("age_over_18", intentToRetain: false), .init("family_name", intentToRetain: true)]
        )
      ])
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    return try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
      ]),
      origin: ConsentFixture.origin)
  }

  @Test("A credential query without claims presents only what is always presented (§6.4.1)")
  func queryWithoutClaims() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (sent, envelope) = try fixture.request([
      "credentials": [
        [
          "id": "pid", "format": "dc+sd-jwt",
          "meta": ["vct_values": [.string(ConsentFixture.pidType)]],
        ],
        ["id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"]],
      ]
    ])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let consent = try request.proposedConsent()
    #expect(
      try openID4VP(consent).selections.values.allSatisfy { $0.allSatisfy(\.disclosed.isEmpty) })
    #expect(request.consentScreen(for: consent).contains("only what is always presented"))
    // No claim was requested, so naming claims leaves nothing to share.
    let named = await walletRefusal {
      _ = try request.consent(credentials: [], disclose: ["given_name"])
    }
    #expect(named.contains("nothing to share"))
    let response = try await wallet.respond(to: request, consent: consent)
    let token = try #require(response.data["vp_token"])
    // SD-JWT VC: the issuer-signed JWT and a Key Binding JWT, no disclosure.
    let sdJWT = try #require(token["pid"]?[0]?.string)
    let parts = sdJWT.split(separator: "~", omittingEmptySubsequences: false)
    #expect(parts.count == 2 && !parts[1].isEmpty)
    // mdoc: IssuerSigned without nameSpaces (IssuerNameSpaces would need an element).
    let mdoc = try #require(token["mdl"]?[0]?.string)
    let deviceResponse = try DeviceResponse(bytes: try Base64URL.decode(mdoc))
    #expect(deviceResponse.documents.first?.issuerSigned.nameSpaces.isEmpty == true)
    let verified = try sent.state.verifyResponse(
      response.data, sdJWTIssuerAnchors: [fixture.pki.iaca], mdocIssuerAnchors: [fixture.pki.iaca],
      now: fixture.now)
    #expect(Set(verified.credentials.keys) == ["pid", "mdl"])
  }

  @Test(
    "A consent that reaches beyond the request is refused before the holder is asked or a key used")
  func consentIsValidated() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    let (_, envelope) = try fixture.request([
      "credentials": [
        ConsentFixture.pidSDJWTQuery, ConsentFixture.pidMdocQuery, ConsentFixture.mdlQuery(),
        [
          "id": "extra", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        ],
      ],
      "credential_sets": [
        ["options": [["pid_sdjwt"], ["pid_mdoc"]]], ["options": [["mdl"]], "required": false],
      ],
    ])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    func path(_ keys: String...) -> ClaimPath {
      ClaimPath(keys.map { .key($0) })
    }
    typealias Item = OpenID4VPConsent.Item
    let cases: [([String: [Item]], String)] = [
      // A claim the query did not request from that credential.
      (
        ["pid_sdjwt": [Item(credentialID: "pid-sdjwt", disclosed: [path("family_name")])]],
        "was not requested"
      ),
      // A credential that is not a candidate of its query.
      (["pid_sdjwt": [Item(credentialID: "mdl", disclosed: [])]], "cannot answer"),
      // A query that does not exist.
      (["nope": [Item(credentialID: "mdl", disclosed: [])]], "not a credential query"),
      // Two credentials where `multiple` is false.
      (
        [
          "mdl": [
            Item(credentialID: "mdl", disclosed: []), Item(credentialID: "mdl-2", disclosed: []),
          ],
          "pid_sdjwt": [Item(credentialID: "pid-sdjwt", disclosed: [])],
        ], "takes one credential"
      ),
      // The required set left unanswered.
      (["mdl": [Item(credentialID: "mdl", disclosed: [])]], "required credential_sets[0]"),
      // A query that no credential set option names.
      (
        [
          "pid_sdjwt": [Item(credentialID: "pid-sdjwt", disclosed: [])],
          "extra": [Item(credentialID: "mdl", disclosed: [])],
        ], "outside every option"
      ),
      // Nothing at all.
      ([:], "shares no credential"),
    ]
    for (selections, expected) in cases {
      let reason = await walletRefusal {
        _ = try await wallet.respond(
          to: request, consent: .openID4VP(OpenID4VPConsent(selections: selections)))
      }
      #expect(reason.contains(expected), "\(selections): \(reason)")
    }
    #expect(authenticator.count == 0)
    // A subset of the requested claims is the holder's right.
    let fewer = OpenID4VPConsent(selections: [
      "pid_sdjwt": [Item(credentialID: "pid-sdjwt", disclosed: [path("age_over_18")])]
    ])
    _ = try await wallet.respond(to: request, consent: .openID4VP(fewer))
    #expect(authenticator.count == 1)
  }
}

extension ConsentChoiceTests {
  @Test("A choice that the request cannot take is refused with what is wrong")
  func impossibleChoices() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.pidOptions)
    let presentation = try openID4VP(
      try await wallet.resolve(envelope, origin: ConsentFixture.origin))
    let cases: [(OpenID4VPChoice, String)] = [
      (
        OpenID4VPChoice(credentials: ["pid_sdjwt": ["mdl"]]),
        "cannot answer the credential query pid_sdjwt"
      ),
      (OpenID4VPChoice(options: [0: 5]), "has no option 5"),
      (
        OpenID4VPChoice(credentials: ["pid_sdjwt": ["pid-sdjwt", "pid-sdjwt"]]),
        "takes one credential"
      ),
      (
        OpenID4VPChoice(claims: ["pid-sdjwt": []]),
        "nothing to share for the credential query pid_sdjwt"
      ),
    ]
    for (choice, expected) in cases {
      let reason = await walletRefusal { _ = try presentation.consent(for: choice) }
      #expect(reason.contains(expected), "\(choice): \(reason)")
    }
  }

  @Test("Consent validation: every query without credential_sets, no empty or repeated credentials")
  func consentStructureIsValidated() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    typealias Item = OpenID4VPConsent.Item
    let (_, plain) = try fixture.request([
      "credentials": [ConsentFixture.pidSDJWTQuery, ConsentFixture.mdlQuery(multiple: true)]
    ])
    let request = try await wallet.resolve(plain, origin: ConsentFixture.origin)
    let pid = [Item(credentialID: "pid-sdjwt", disclosed: [])]
    let cases: [([String: [Item]], String)] = [
      (["pid_sdjwt": pid], "leaves the credential query mdl unanswered"),
      (["pid_sdjwt": pid, "mdl": []], "without a credential"),
      (
        [
          "pid_sdjwt": pid,
          "mdl": [
            Item(credentialID: "mdl", disclosed: []), Item(credentialID: "mdl", disclosed: []),
          ],
        ], "named twice"
      ),
    ]
    for (selections, expected) in cases {
      let reason = await walletRefusal {
        _ = try await wallet.respond(
          to: request, consent: .openID4VP(OpenID4VPConsent(selections: selections)))
      }
      #expect(reason.contains(expected), "\(selections): \(reason)")
    }
    #expect(authenticator.count == 0)
    // Both mDLs for the `multiple` query is a valid consent.
    let both: [String: [Item]] = [
      "pid_sdjwt": pid,
      "mdl": [
        Item(credentialID: "mdl", disclosed: []), Item(credentialID: "mdl-2", disclosed: []),
      ],
    ]
    _ = try await wallet.respond(
      to: request, consent: .openID4VP(OpenID4VPConsent(selections: both)))
  }
}

extension ConsentChoiceTests {
  @Test("The Annex C screen shows use cases as credential sets, with the answered option")
  func annexCUseCasesOnScreen() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    func items(_ docType: String, _ nameSpace: String) -> ItemsRequest {
      ItemsRequest(
        docType: docType,
        nameSpaces: [(nameSpace, [.init("given_name", intentToRetain: false)])])
    }
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(
        docRequests: [
          DocRequest(itemsRequest: items("org.example.absent", "org.example")),
          DocRequest(itemsRequest: items("eu.europa.ec.eudi.pid.1", "eu.europa.ec.eudi.pid.1")),
        ],
        useCases: [UseCase(mandatory: true, documentSets: [[0], [1]])]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 9, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    let resolved = try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
      ]), origin: ConsentFixture.origin)
    let screen = resolved.screen(for: try resolved.proposedConsent())
    #expect(screen.credentialSets.count == 1)
    #expect(screen.credentialSets[0].options == [["0"], ["1"]])
    #expect(screen.credentialSets[0].satisfiableOptions == [1])
    #expect(screen.credentialSets[0].answeredOption == 1)
    #expect(screen.documents.map(\.presentations.count) == [0, 1])
    #expect(screen.documents[1].presentations[0].claims.first?.shared == true)
  }

  @Test("Annex C optional use cases: only when chosen, unless no use case is mandatory")
  func annexCOptionalUseCases() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let mdl = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
    let pid = ItemsRequest(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("given_name", intentToRetain: false)])])
    func resolve(_ useCases: [UseCase]) async throws -> PresentationRequest {
      let request = AnnexCRequest(
        deviceRequest: DeviceRequest(
          docRequests: [DocRequest(itemsRequest: mdl), DocRequest(itemsRequest: pid)],
          useCases: useCases),
        encryptionInfo: EncryptionInfo(
          nonce: [UInt8](repeating: 8, count: 16),
          recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
      return try await wallet.resolve(
        RequestEnvelope(requests: [
          ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
        ]), origin: ConsentFixture.origin)
    }
    func answered(_ consent: PresentationConsent) -> [String] {
      guard case .mdoc(let mdoc) = consent else { return [] }
      return mdoc.documents.map(\.credentialID)
    }
    let mixed = try await resolve([
      UseCase(mandatory: true, documentSets: [[0]]), UseCase(mandatory: false, documentSets: [[1]]),
    ])
    #expect(answered(try mixed.proposedConsent()) == ["mdl"])
    #expect(answered(try mixed.consent(credentials: [], disclose: [])) == ["mdl"])
    #expect(
      answered(try mixed.consent(credentials: ["mdl", "pid-mdoc"], disclose: [])) == [
        "mdl", "pid-mdoc",
      ])
    let refused = await walletRefusal {
      _ = try mixed.consent(credentials: ["pid-mdoc"], disclose: [])
    }
    #expect(refused.contains("mandatory use case"))
    // Every use case optional: the reader's first preference that can be answered.
    let optional = try await resolve([UseCase(mandatory: false, documentSets: [[1], [0]])])
    #expect(answered(try optional.proposedConsent()) == ["pid-mdoc"])
  }
}
