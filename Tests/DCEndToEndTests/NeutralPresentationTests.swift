import DCAPI
import DCCrypto
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

/// A consent UI written against the protocol-neutral fields of `PresentationRequest` alone: it
/// never looks at `kind`. Both protocols must render and answer through it.
private enum NeutralConsentUI {
  /// The screen, one line per fact.
  static func render(_ request: PresentationRequest) -> [String] {
    var lines: [String] = []
    switch request.requester {
    case .verified(let name, let origin):
      lines.append("requester \(name) at \(origin?.serialized ?? "in person")")
    case .unverified(let origin):
      lines.append("requester \(origin?.serialized ?? "in person") unverified")
    }
    switch request.requesterAuthentication {
    case .trusted: lines.append("authentication trusted")
    case .untrusted: lines.append("authentication untrusted")
    case .invalid: lines.append("authentication invalid")
    case .absent: lines.append("authentication absent")
    }
    for document in request.documents {
      lines.append("document \(document.id) \(document.format) \(document.types)")
      for claim in document.requestedClaims {
        let path = claim.path.map { component -> String in
          switch component {
          case .key(let key): key
          case .index(let index): String(index)
          case .allElements: "*"
          }
        }
        lines.append(
          "  asks \(path.joined(separator: "/")) retain=\(claim.intentToRetain.map(String.init) ?? "-")"
        )
      }
      for candidate in document.candidates {
        lines.append("  candidate \(candidate.credentialID): \(candidate.claims.count) claim(s)")
      }
    }
    for (index, set) in request.credentialSets.enumerated() {
      lines.append("set \(index) options \(set.options) satisfiable \(set.satisfiableOptions)")
    }
    return lines
  }

  /// What the holder picks: the first candidate of each document, and its first claim only.
  static func selection(_ request: PresentationRequest) -> ConsentSelection {
    var ids: [String] = []
    var claims = Set<ClaimReference>()
    for document in request.documents {
      guard let candidate = document.candidates.first else { continue }
      ids.append(candidate.credentialID)
      if let claim = candidate.claims.first { claims.insert(claim) }
    }
    return ConsentSelection(credentialIDs: ids, claims: claims)
  }
}

@Suite("Presentation model: neutral values for every protocol, invalid requesters recorded")
struct NeutralPresentationTests {
  static let ageQuery: JSONValue = [
    "credentials": [
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [
          ["path": ["org.iso.18013.5.1", "age_over_18"]],
          ["path": ["org.iso.18013.5.1", "family_name"]],
        ],
      ]
    ]
  ]
  static let origin = "https://shop.example"

  /// An Annex C request for the mDL's age_over_18 and family_name, signed by the test PKI's
  /// trusted reader over the transcript of `signedFor` (another origin: the signature fails).
  static func annexC(_ pki: TestPKI, origin: String, signedFor: String? = nil) throws
    -> RequestEnvelope
  {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [.init("age_over_18", intentToRetain: false), .init("family_name", intentToRetain: true)]
        )
      ])
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 7, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    var docRequest = DocRequest(itemsRequest: items)
    if let signedFor {
      let transcript = SessionTranscript(
        handover: Handover.dcapi(encryptionInfoBase64: info.base64URL, origin: signedFor))
      docRequest = DocRequest(
        itemsRequest: items,
        readerAuth: try ReaderAuthentication.sign(
          payload: ReaderAuthentication.bytes(
            sessionTranscript: transcript, itemsRequestBytes: docRequest.itemsRequestBytes),
          signer: pki.readerKey, chain: [pki.reader]))
    }
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [docRequest]), encryptionInfo: info)
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
    ])
  }

  /// A signed OpenID4VP request whose compact JWS signature was altered in transit.
  static func tamperedSigned(_ fixture: ConsentFixture) throws -> RequestEnvelope {
    let (_, envelope) = try fixture.request(ageQuery, signing: .signed(fixture.signer))
    let sent = try #require(envelope.requests.first)
    let jws = try #require(sent.data["request"]?.string)
    var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    try #require(parts.count == 3)
    var signature = Array(parts[2])
    signature[10] = signature[10] == "A" ? "B" : "A"
    parts[2] = String(signature)
    return RequestEnvelope(requests: [
      ProtocolRequest(
        protocolIdentifier: sent.protocolIdentifier,
        data: sent.data.setting("request", to: .string(parts.joined(separator: "."))))
    ])
  }

  /// A multisigned OpenID4VP request whose only signature was altered in transit.
  static func tamperedMultisigned(_ fixture: ConsentFixture) throws -> RequestEnvelope {
    let (_, envelope) = try fixture.request(ageQuery, signing: .multisigned([fixture.signer]))
    let sent = try #require(envelope.requests.first)
    var object = try #require(sent.data["request"])
    if case .string(let text) = object { object = try JSONValue(parsing: text) }
    let entry = try #require(object["signatures"]?.array?.first)
    var signature = Array(try #require(entry["signature"]?.string))
    signature[10] = signature[10] == "A" ? "B" : "A"
    let tampered = object.setting(
      "signatures", to: .array([entry.setting("signature", to: .string(String(signature)))]))
    return RequestEnvelope(requests: [
      ProtocolRequest(
        protocolIdentifier: sent.protocolIdentifier,
        data: sent.data.setting("request", to: tampered))
    ])
  }

  @Test("A multisigned request whose every signature fails is recorded as invalid too")
  func invalidMultisignedSignature() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let tampered = try Self.tamperedMultisigned(fixture)
    await #expect {
      _ = try await wallet.resolve(tampered, origin: ConsentFixture.origin)
    } throws: {
      ($0 as? WalletError)?.refusals.map(\.code) == [.invalidRequesterAuthentication]
    }
    let request = try await wallet.resolve(
      tampered, origin: ConsentFixture.origin,
      policy: WalletPolicy(acceptsInvalidRequesterAuthentication: true))
    guard case .invalid = request.requesterAuthentication else {
      Issue.record("the failed signature was not recorded: \(request.requesterAuthentication)")
      return
    }
    #expect(request.requester == .unverified(origin: try WebOrigin(ConsentFixture.origin)))
    #expect(request.documents.map(\.id) == ["mdl"])
  }

  @Test("A consent UI written against the neutral fields alone renders and answers both protocols")
  func neutralConsentForBothProtocols() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    let (_, openID4VPEnvelope) = try fixture.request(Self.ageQuery)
    let requests = [
      try await wallet.resolve(
        try Self.annexC(fixture.pki, origin: Self.origin), origin: Self.origin),
      try await wallet.resolve(openID4VPEnvelope, origin: ConsentFixture.origin),
    ]
    let screens = requests.map(NeutralConsentUI.render)
    #expect(
      screens[0] == [
        "requester https://shop.example unverified", "authentication absent",
        "document 0 mso_mdoc [\"org.iso.18013.5.1.mDL\"]",
        "  asks org.iso.18013.5.1/age_over_18 retain=false",
        "  asks org.iso.18013.5.1/family_name retain=true",
        "  candidate mdl: 2 claim(s)", "  candidate mdl-2: 2 claim(s)",
      ])
    #expect(
      screens[1] == [
        "requester https://verifier.example unverified", "authentication absent",
        "document mdl mso_mdoc [\"org.iso.18013.5.1.mDL\"]",
        "  asks org.iso.18013.5.1/age_over_18 retain=-",
        "  asks org.iso.18013.5.1/family_name retain=-",
        "  candidate mdl: 2 claim(s)", "  candidate mdl-2: 2 claim(s)",
      ])
    for request in requests {
      // The neutral values are the ones the screen and the claim limit are made of.
      #expect(request.requested.documents == request.documents)
      #expect(request.disclosableClaims.count == 2)
      let consent = try request.consent(NeutralConsentUI.selection(request))
      let shown = request.screen(for: consent).documents.flatMap(\.presentations)
      #expect(shown.map(\.credentialID) == ["mdl"])
      #expect(shown.first?.claims.filter(\.shared).count == 1)
      let response = try await wallet.respond(to: request, consent: consent)
      #expect(response.protocolIdentifier == request.protocolIdentifier)
    }
    // The holder-authentication prompt gets values; the CLI words them.
    #expect(
      authenticator.contexts.map { $0.credentials.map(\.credentialID) } == [["mdl"], ["mdl"]])
    #expect(authenticator.contexts.map(\.protocolIdentifier) == requests.map(\.protocolIdentifier))
    #expect(
      authenticator.contexts.map(HolderPromptText.describe) == [
        "Share 1 document(s) with https://shop.example (unverified)",
        "Share 1 credential(s) with https://verifier.example (unverified)",
      ])
  }

  @Test("A reader signature that does not verify is recorded as invalid and refused by default")
  func invalidReaderSignature() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    // The trusted reader, but its signature covers another origin's transcript.
    let tampered = try Self.annexC(
      fixture.pki, origin: Self.origin, signedFor: "https://other.example")
    do {
      _ = try await wallet.resolve(tampered, origin: Self.origin)
      Issue.record("a request with an invalid reader signature was answered by default")
    } catch {
      #expect(error.refusals.map(\.code) == [.invalidRequesterAuthentication])
    }
    let allowing = WalletPolicy(acceptsInvalidRequesterAuthentication: true)
    let request = try await wallet.resolve(tampered, origin: Self.origin, policy: allowing)
    guard case .invalid = request.requesterAuthentication else {
      Issue.record(
        "the invalid reader signature was not recorded: \(request.requesterAuthentication)")
      return
    }
    // The reader chains to a trusted anchor, yet its name is never used.
    #expect(request.requester == .unverified(origin: try WebOrigin(Self.origin)))
    guard case .invalid? = request.documents.first?.authentication else {
      Issue.record("the doc request does not show the invalid signature")
      return
    }
    let text = request.consentScreen(for: try request.proposedConsent())
    #expect(text.contains("reader signature INVALID"))
    #expect(!text.contains("Test Reader"))
    // Requiring an authenticated requester refuses it whatever the knob says.
    var strict = allowing
    strict.requireAuthenticatedRequester = true
    await #expect {
      _ = try await wallet.resolve(tampered, origin: Self.origin, policy: strict)
    } throws: {
      ($0 as? WalletError)?.refusals.map(\.code) == [.invalidRequesterAuthentication]
    }
    // Signed over this origin's transcript, the same reader is trusted and named.
    let good = try await wallet.resolve(
      try Self.annexC(fixture.pki, origin: Self.origin, signedFor: Self.origin),
      origin: Self.origin)
    #expect(good.requesterAuthentication == .trusted)
    #expect(good.requester.verifiedName == "Test Reader")
    #expect(good.requesterCertificates == [fixture.pki.reader])
    #expect(request.requesterCertificates.isEmpty)
    // A self-signed reader verifies but is not trusted: its certificate is not the requester's.
    let evil = try WebOrigin("https://evil.example")
    let untrusted = try await wallet.resolve(
      try RequesterTrustTests().selfSignedReaderRequest(origin: evil), origin: evil.serialized)
    #expect(untrusted.documents.first?.candidateIDs.isEmpty == false)
    #expect(untrusted.requesterCertificates.isEmpty)
  }

  @Test(
    "A signed OpenID4VP request whose signature fails is recorded as invalid, refused by default")
  func invalidOpenID4VPSignature() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    let tampered = try Self.tamperedSigned(fixture)
    do {
      _ = try await wallet.resolve(tampered, origin: ConsentFixture.origin)
      Issue.record("a signed request whose signature fails was answered by default")
    } catch {
      #expect(error.refusals.map(\.code) == [.invalidRequesterAuthentication])
      #expect(error.refusals.first?.reason.contains("request signature") == true)
    }
    let allowing = WalletPolicy(acceptsInvalidRequesterAuthentication: true)
    let request = try await wallet.resolve(
      tampered, origin: ConsentFixture.origin, policy: allowing)
    guard case .invalid = request.requesterAuthentication else {
      Issue.record("the failed signature was not recorded: \(request.requesterAuthentication)")
      return
    }
    #expect(request.requester == .unverified(origin: try WebOrigin(ConsentFixture.origin)))
    // Read like an unsigned request: the unverified payload's expected_origins mean nothing.
    let presentation = try openID4VP(request)
    #expect(presentation.request.verifier == .origin(try WebOrigin(ConsentFixture.origin)))
    #expect(presentation.request.expectedOrigins == nil)
    #expect(presentation.request.signatureFailure?.code == .invalidRequestSignature)
    let text = request.consentScreen(for: try request.proposedConsent())
    #expect(text.contains("its signature does NOT verify"))
    _ = try await wallet.respond(to: request, consent: try request.proposedConsent())
    guard case .invalid? = authenticator.contexts.last?.requesterAuthentication else {
      Issue.record("the prompt context does not carry the invalid authentication")
      return
    }
    var strict = allowing
    strict.requireAuthenticatedRequester = true
    await #expect {
      _ = try await wallet.resolve(tampered, origin: ConsentFixture.origin, policy: strict)
    } throws: {
      ($0 as? WalletError)?.refusals.map(\.code) == [.invalidRequesterAuthentication]
    }
    // Untampered, the same request authenticates its verifier.
    let (_, signed) = try fixture.request(Self.ageQuery, signing: .signed(fixture.signer))
    let good = try await wallet.resolve(signed, origin: ConsentFixture.origin)
    #expect(good.requesterAuthentication == .trusted)
    #expect(good.requesterCertificates == [fixture.verifierCertificate, fixture.verifierRoot])
    #expect(request.requesterCertificates.isEmpty)
  }

  /// The README's library snippet, line by line after its imports and wallet.
  static let readmeSnippet = [
    "let request = try await wallet.resolve(RequestEnvelope(json: requestBytes), origin: origin)",
    "let consent = try request.consent(ConsentSelection(claims: [.mdoc(nameSpace: \"org.iso.18013.5.1\", element: \"age_over_18\")]))",
    "let response = try await wallet.respond(to: request, consent: consent)",
  ]

  @Test("The README's library snippet is these calls, and they answer a request")
  func readmeSnippet() async throws {
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
          "README.md"),
      encoding: .utf8)
    for line in Self.readmeSnippet { #expect(readme.contains(line), "README lacks: \(line)") }
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.ageQuery)
    let sent = try #require(envelope.requests.first)
    let requestBytes = JSONValue.object([
      ("protocol", .string(sent.protocolIdentifier)), ("data", sent.data),
    ]).serializedBytes()
    let origin = ConsentFixture.origin
    // The snippet as written:
    let request = try await wallet.resolve(RequestEnvelope(json: requestBytes), origin: origin)
    let consent = try request.consent(
      ConsentSelection(claims: [.mdoc(nameSpace: "org.iso.18013.5.1", element: "age_over_18")]))
    let response = try await wallet.respond(to: request, consent: consent)
    #expect(response.protocolIdentifier == request.protocolIdentifier)
  }
}
