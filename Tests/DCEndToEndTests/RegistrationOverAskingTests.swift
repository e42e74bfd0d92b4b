import DCAPI
import DCCrypto
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCTrust
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

/// A relying party registered (ETSI TS 119 475) for the PID's given name and age, with access
/// certificates that carry its semantic identifier, a registration-certificate provider, and a
/// wallet that trusts both.
struct RegistrationSetup {
  static let relyingParty = "LEIXG-529900T8BM49AURSDO55"
  static let pid = "eu.europa.ec.eudi.pid.1"
  let fixture: ConsentFixture
  let providerKey: ECPrivateKey
  let provider: Certificate
  let providerRoot: Certificate
  let accessKey: ECPrivateKey
  /// The OpenID4VP access certificate (x509_san_dns:verifier.example).
  let verifierAccess: Certificate
  /// The same relying party's reader access certificate (ISO 18013-5 reader authentication).
  let readerAccess: Certificate

  init() async throws {
    fixture = try await ConsentFixture()
    let from = fixture.now.addingTimeInterval(-86_400)
    let until = fixture.now.addingTimeInterval(86_400 * 365)
    let providerRootKey = try ECPrivateKey(curve: .p256)
    providerRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Registrar CA", publicKey: providerRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: providerRootKey)
    providerKey = try ECPrivateKey(curve: .p256)
    provider = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test WRPRC Signer"),
      publicKey: providerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [.keyUsage(.digitalSignature)]
    ).issued(by: providerRoot, signer: providerRootKey)
    let accessRootKey = try ECPrivateKey(curve: .p256)
    let accessRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Access CA", publicKey: accessRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: accessRootKey)
    accessKey = try ECPrivateKey(curve: .p256)
    let subject = RegistrationCertificateBuilder.accessCertificateSubject(
      organizationIdentifier: Self.relyingParty, commonName: "verifier.example")
    verifierAccess = try CertificateBuilder(
      subject: subject, publicKey: accessKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("verifier.example")]),
      ]
    ).issued(by: accessRoot, signer: accessRootKey)
    readerAccess = try CertificateBuilder(
      subject: subject, publicKey: accessKey.publicKey, notBefore: from, notAfter: until,
      extensions: [.keyUsage(.digitalSignature), .extendedKeyUsage([.mdlReaderAuthentication])]
    ).issued(by: accessRoot, signer: accessRootKey)
    let wallet = try fixture.wallet()
    _ = try await wallet.addTrustAnchor(accessRoot, role: .verifier)
    _ = try await wallet.addTrustAnchor(accessRoot, role: .reader)
  }

  /// Registered: the PID's given name and age, as an mdoc and as an SD-JWT VC.
  func registration(
    subject: String = Self.relyingParty, cwt: Bool = false, status: (Int, String)? = nil
  ) throws -> [UInt8] {
    var builder = RegistrationCertificateBuilder(
      subject: subject, name: "Example Shop", issuedAt: fixture.now.addingTimeInterval(-3_600),
      expiresAt: fixture.now.addingTimeInterval(86_400 * 90))
    builder.purpose = [("en", "Age verification")]
    builder.privacyPolicy = "https://shop.example/privacy"
    builder.status = status.map { (index: $0.0, uri: $0.1) }
    builder.credentials = [
      RegisteredCredential(
        format: "mso_mdoc", docType: Self.pid,
        claims: [
          RegistrationClaimPath([.key(Self.pid), .key("given_name")]),
          RegistrationClaimPath([.key(Self.pid), .key("age_over_18")]),
        ]),
      RegisteredCredential(
        format: "dc+sd-jwt", vctValues: [ConsentFixture.pidType],
        claims: [
          RegistrationClaimPath([.key("given_name")]), RegistrationClaimPath([.key("age_over_18")]),
        ]),
    ]
    return cwt
      ? try builder.signedCWT(signer: providerKey, chain: [provider])
      : try builder.signedJWT(signer: providerKey, chain: [provider])
  }

  func policy(refuse: Bool = false) -> WalletPolicy {
    WalletPolicy(
      registrationCertificateProviders: TrustSources(anchors: [
        TrustAnchor(
          id: "registrar", certificate: providerRoot, purposes: [.registrationCertificateProvider])
      ]), refusesOverAsking: refuse)
  }

  var signer: RequestSigner {
    .x509SANDNS(dnsName: "verifier.example", certificateChain: [verifierAccess], signer: accessKey)
  }

  /// An OpenID4VP request over the DC API, signed by the access certificate, carrying the
  /// registration in `verifier_info`.
  func openID4VP(_ query: JSONValue, registration: [UInt8]?) throws -> RequestEnvelope {
    let sent = try VerifierRequest(
      dcqlQuery: ["credentials": [query]], origin: ConsentFixture.origin, responseMode: .dcAPI,
      signing: .signed(signer),
      verifierInfo: registration.map { VerifierRequest.verifierInfo(registrationCertificate: $0) })
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: sent.protocolID.rawValue, data: sent.data)
    ])
  }

  /// An Annex C request for PID elements, reader-authenticated, carrying the registration as
  /// `euWrprc`.
  func annexC(_ elements: [String], registration: [UInt8]?) throws -> RequestEnvelope {
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [Self.pidItems(elements)], origin: try WebOrigin(ConsentFixture.origin),
      reader: .init(signer: accessKey, chain: [readerAccess], registrationCertificate: registration)
    )
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: state.request.data)
    ])
  }

  static func pidItems(_ elements: [String]) -> ItemsRequest {
    ItemsRequest(
      docType: pid, nameSpaces: [(pid, elements.map { .init($0, intentToRetain: false) })])
  }

  static func sdJWTQuery(_ claims: [String]) -> JSONValue {
    [
      "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(ConsentFixture.pidType)]],
      "claims": .array(claims.map { ["path": [.string($0)]] }),
    ]
  }

  static func mdocQuery(_ claims: [String]) -> JSONValue {
    [
      "id": "pid", "format": "mso_mdoc", "meta": ["doctype_value": .string(pid)],
      "claims": .array(claims.map { ["path": [.string(pid), .string($0)]] }),
    ]
  }
}

/// Issue 29: requests within, equal to and beyond the registration, for mdoc and SD-JWT VC, over
/// OpenID4VP (DC API and redirect), Annex C and in person; another relying party's
/// certificate; a tampered one; the policy that refuses over-asking.
@Suite struct RegistrationOverAskingTests {
  static let within = ["given_name"]
  static let equal = ["given_name", "age_over_18"]
  static let beyond = ["given_name", "family_name"]

  enum Carriage: CaseIterable { case openID4VPSDJWT, openID4VPMdoc, annexC }

  /// The refusal's reason, nil when `body` succeeds.
  static func refusal(_ body: () async throws -> Void) async -> String? {
    do {
      try await body()
      return nil
    } catch let error as WalletError {
      return error.reason
    } catch {
      return "\(error)"
    }
  }

  func envelope(
    _ setup: RegistrationSetup, _ carriage: Carriage, _ claims: [String], registration: [UInt8]?
  )
    throws -> RequestEnvelope
  {
    switch carriage {
    case .openID4VPSDJWT:
      try setup.openID4VP(RegistrationSetup.sdJWTQuery(claims), registration: registration)
    case .openID4VPMdoc:
      try setup.openID4VP(RegistrationSetup.mdocQuery(claims), registration: registration)
    case .annexC: try setup.annexC(claims, registration: registration)
    }
  }

  @Test(arguments: Carriage.allCases)
  func withinEqualAndBeyondTheRegistration(carriage: Carriage) async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let registration = try setup.registration(cwt: carriage == .annexC)
    for (claims, overAsked) in [(Self.within, 0), (Self.equal, 0), (Self.beyond, 1)] {
      let request = try await wallet.resolve(
        try envelope(setup, carriage, claims, registration: registration),
        origin: ConsentFixture.origin, policy: setup.policy())
      guard case .verified(let certificate, let binding, let comparison) = request.registration
      else {
        Issue.record("\(carriage) \(claims): \(request.registration)")
        continue
      }
      #expect(certificate.name == "Example Shop")
      #expect(binding == .bound(subject: RegistrationSetup.relyingParty))
      #expect(comparison.findings.count == claims.count)
      #expect(comparison.overAsked.count == overAsked, "\(carriage) \(claims)")
      if overAsked == 1 {
        #expect(
          comparison.findings.last.map { if case .overAsked = $0 { true } else { false } } == true)
      }
      // Refusing over-asking answers what is within the registration and refuses the rest.
      let refused = await Self.refusal {
        _ = try await wallet.resolve(
          try envelope(setup, carriage, claims, registration: registration),
          origin: ConsentFixture.origin, policy: setup.policy(refuse: true))
      }
      #expect((refused == nil) == (overAsked == 0), "\(carriage) \(claims): \(refused ?? "")")
      #expect(refused.map { $0.contains("beyond the registration") } ?? true)
    }
  }

  @Test(arguments: Carriage.allCases)
  func anotherRelyingPartysCertificateIsNotBound(carriage: Carriage) async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let other = try setup.registration(subject: "LEIXG-SOMEONEELSE00000000")
    let request = try await wallet.resolve(
      try envelope(setup, carriage, Self.within, registration: other),
      origin: ConsentFixture.origin, policy: setup.policy())
    guard case .verified(_, let binding, _) = request.registration else {
      Issue.record("\(request.registration)")
      return
    }
    #expect(
      binding
        == .mismatch(
          registered: "LEIXG-SOMEONEELSE00000000", presented: RegistrationSetup.relyingParty))
    let refused = await walletRefusal {
      _ = try await wallet.resolve(
        try envelope(setup, carriage, Self.within, registration: other),
        origin: ConsentFixture.origin, policy: setup.policy(refuse: true))
    }
    #expect(refused.contains("does not belong to the requester"))
  }

  @Test(arguments: Carriage.allCases)
  func tamperedOrUntrustedCertificateIsInvalid(carriage: Carriage) async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    var tampered = try setup.registration(cwt: true)
    tampered[tampered.count - 1] ^= 1
    let request = try await wallet.resolve(
      try envelope(setup, carriage, Self.within, registration: tampered),
      origin: ConsentFixture.origin, policy: setup.policy())
    guard case .invalid(let error) = request.registration else {
      Issue.record("\(request.registration)")
      return
    }
    #expect(error.code == .invalidSignature)
    // A wallet that trusts no provider sees a valid certificate as untrusted.
    let untrusted = try await wallet.resolve(
      try envelope(setup, carriage, Self.within, registration: try setup.registration()),
      origin: ConsentFixture.origin)
    guard case .invalid(let reason) = untrusted.registration else {
      Issue.record("\(untrusted.registration)")
      return
    }
    #expect(reason.code == .untrustedSigner)
    let refused = await walletRefusal {
      _ = try await wallet.resolve(
        try envelope(setup, carriage, Self.within, registration: tampered),
        origin: ConsentFixture.origin, policy: setup.policy(refuse: true))
    }
    #expect(refused.contains("invalid"))
  }

  @Test(arguments: Carriage.allCases)
  func requestWithoutACertificateIsNotRefusedForIt(carriage: Carriage) async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let request = try await wallet.resolve(
      try envelope(setup, carriage, Self.beyond, registration: nil),
      origin: ConsentFixture.origin, policy: setup.policy(refuse: true))
    #expect(request.registration == .absent)
  }

  @Test func redirectCarriesVerifierInfo() async throws {
    let provider = try await RegistrationSetup()
    defer { provider.fixture.dir.remove() }
    let registration = try provider.registration()
    for (claims, overAsked) in [(Self.equal, 0), (Self.beyond, 1)] {
      let redirect = try await RedirectSetup(
        query: ["credentials": [RegistrationSetup.sdJWTQuery(claims)]]
      ) { object in
        object.extra = [
          ("verifier_info", VerifierRequest.verifierInfo(registrationCertificate: registration))
        ]
      }
      defer { redirect.fixture.dir.remove() }
      let request = try await redirect.resolve(policy: provider.policy())
      #expect(request.registration.overAsked.count == overAsked)
      // The redirect verifier's access certificate names no relying party: not bound.
      guard case .verified(_, let binding, _) = request.registration else {
        Issue.record("\(request.registration)")
        continue
      }
      #expect(binding == .mismatch(registered: RegistrationSetup.relyingParty, presented: nil))
    }
  }

  @Test func inPersonCarriesEuWrprc() async throws {
    let setup = try await RegistrationSetup()
    defer { setup.fixture.dir.remove() }
    let wallet = try setup.fixture.wallet()
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "AA", origin: "https://reader.example"))
    for (claims, overAsked) in [(Self.within, 0), (Self.equal, 0), (Self.beyond, 1)] {
      let request = try ProximityReader.makeRequest(
        itemsRequests: [RegistrationSetup.pidItems(claims)], sessionTranscript: transcript,
        reader: .init(
          signer: setup.accessKey, chain: [setup.readerAccess],
          registrationCertificate: try setup.registration(cwt: true)))
      let resolved = try await wallet.resolveInPerson(
        deviceRequest: request.bytes, sessionTranscript: transcript, policy: setup.policy())
      #expect(resolved.registration.overAsked.count == overAsked)
      #expect(resolved.registration.certificate?.binding(to: setup.readerAccess).isBound == true)
      if overAsked > 0 {
        let refused = await walletRefusal {
          _ = try await wallet.resolveInPerson(
            deviceRequest: request.bytes, sessionTranscript: transcript,
            policy: setup.policy(refuse: true))
        }
        #expect(refused.contains("beyond the registration"))
      }
    }
  }
}
