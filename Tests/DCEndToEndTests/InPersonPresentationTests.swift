import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCEncoding
import DCJSON
import DCMdoc
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// A key store that cannot do key agreement (as an Apple Secure Enclave signing key cannot),
/// over the wallet's software keys.
struct NoAgreementKeyStore: DeviceKeyStore {
  let inner: SoftwareKeyStore

  func createKey(curve: EllipticCurve) async throws -> (id: String, publicKey: ECPublicKey) {
    try await inner.createKey(curve: curve)
  }
  func importKey(_ key: ECPrivateKey) async throws -> String { try await inner.importKey(key) }
  func signer(for id: String) async throws -> any Signer { try await inner.signer(for: id) }
  func publicKey(for id: String) async throws -> ECPublicKey { try await inner.publicKey(for: id) }
  func deleteKey(id: String) async throws { try await inner.deleteKey(id: id) }
}

/// A wallet holding one mDL, trusting the test IACA and reader root, and one proximity session.
struct InPersonFixture {
  static let mdlType = "org.iso.18013.5.1.mDL"
  static let mdl = ItemsRequest(
    docType: mdlType,
    nameSpaces: [
      (
        "org.iso.18013.5.1",
        [
          .init("family_name", intentToRetain: false), .init("age_over_18", intentToRetain: false),
          .init("portrait", intentToRetain: true),
        ]
      )
    ])

  let dir: TemporaryDirectory
  let pki: TestPKI
  let mdlKey: ECPrivateKey
  let issuerSigned: IssuerSigned
  /// This session's ephemeral reader key and transcript.
  let eReaderKey: ECPrivateKey
  let transcript: SessionTranscript

  init() async throws {
    dir = try TemporaryDirectory()
    pki = try TestPKI()
    mdlKey = try ECPrivateKey(curve: .p256)
    issuerSigned = try pki.issue(deviceKey: mdlKey.publicKey)
    eReaderKey = try ECPrivateKey(curve: .p256)
    transcript = Self.transcript(eReaderKey: eReaderKey.publicKey)
    let wallet = try self.wallet()
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    _ = try await wallet.addTrustAnchor(pki.readerRoot, role: .reader)
    _ = try await wallet.importMdoc(issuerSigned.bytes, deviceKey: mdlKey, id: "mdl")
  }

  /// `[DeviceEngagementBytes, EReaderKeyBytes, null]` (ISO 18013-5 §9.1.5.1, QR handover).
  static func transcript(eReaderKey: ECPublicKey?) -> SessionTranscript {
    let engagement: CBOR = [0: "1.0"]
    return SessionTranscript(
      deviceEngagementBytes: .tagged(24, .byteString(engagement.encoded())),
      eReaderKeyBytes: eReaderKey.map {
        .tagged(24, .byteString(COSEKey(publicKey: $0).cbor.encoded()))
      } ?? .null,
      handover: .null)
  }

  func wallet(
    policy: WalletPolicy = WalletPolicy(), withoutKeyAgreement: Bool = false,
    authenticator: any UserAuthenticator = ImplicitAuthenticator()
  ) throws -> Wallet {
    let home = WalletHome(directory: dir.path)
    let time = pki.clock
    guard withoutKeyAgreement else {
      return try Wallet(
        home: home, authenticator: authenticator, policy: policy, clock: { time })
    }
    let plain = try Wallet(home: home, clock: { time })
    let keys = NoAgreementKeyStore(
      inner: try SoftwareKeyStore(
        store: plain.store, keyEncryptionKeyPath: home.keyEncryptionKeyPath))
    return try Wallet(home: home, keys: keys, policy: policy, clock: { time })
  }

  var reader: ProximityReader.ReaderCredentials {
    .init(signer: pki.readerKey, chain: [pki.reader])
  }

  /// A reader whose self-signed certificate chains to no anchor, with a valid signature.
  func strangerReader() throws -> ProximityReader.ReaderCredentials {
    let key = try ECPrivateKey(curve: .p256)
    let certificate = try CertificateBuilder.reader(
      commonName: "Your Bank", publicKey: key.publicKey,
      notBefore: pki.clock.addingTimeInterval(-3600), notAfter: pki.clock.addingTimeInterval(86_400)
    ).selfSigned(signer: key)
    return .init(signer: key, chain: [certificate])
  }

  func verify(
    _ bytes: [UInt8], request: DeviceRequest, transcript: SessionTranscript? = nil,
    eReaderKey: ECPrivateKey?? = nil, at now: Date? = nil
  ) throws -> ProximityReader.Result {
    try ProximityReader.verify(
      response: bytes, request: request, sessionTranscript: transcript ?? self.transcript,
      eReaderKey: eReaderKey ?? self.eReaderKey, issuerTrustAnchors: [pki.iaca],
      now: now ?? pki.clock)
  }
}

/// The refusal of an in-person resolve: the typed refusal and the status sent to the reader.
func inPersonRefusal(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> (refusal: Refusal?, status: Int) {
  do {
    try await body()
    Issue.record("expected a refusal", sourceLocation: sourceLocation)
  } catch let error as WalletError {
    return (error.refusals.first, ProximityPresentation.status(for: error))
  } catch {
    Issue.record("expected a WalletError, got \(error)", sourceLocation: sourceLocation)
  }
  return (nil, -1)
}

@Suite("In person (ISO 18013-5): holder and reader roles in process")
struct InPersonPresentationTests {
  static let mdlType = InPersonFixture.mdlType

  @Test("deviceSignature, trusted reader: resolved like the DC API flows, answered and verified")
  func signatureWithTrustedReader() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try f.wallet(authenticator: authenticator)
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript, reader: f.reader)
    #expect(request.version == "1.0")
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    #expect(resolved.isInPerson)
    // No web origin in person: neither the request nor its requester carries one.
    #expect(resolved.origin == nil && resolved.requester.origin == nil)
    #expect(resolved.requested.origin == nil)
    #expect(resolved.protocolIdentifier == ProximityPresentation.protocolIdentifier)
    #expect(resolved.requesterAuthentication == .trusted)
    #expect(resolved.requester.verifiedName == "Test Reader")
    #expect(resolved.requesterCertificates == [f.pki.reader])
    let document = try #require(resolved.documents.first)
    #expect(document.requestedClaims.map(\.intentToRetain) == [false, false, true])
    #expect(document.candidateIDs == ["mdl"])
    #expect(document.authentication == .trusted(name: "Test Reader"))
    // The same typed selection as the DC API flows: only age_over_18.
    let consent = try resolved.consent(
      ConsentSelection(claims: [.mdoc(nameSpace: "org.iso.18013.5.1", element: "age_over_18")]))
    // The consent screen, as for the DC API flows.
    let screen = resolved.screen(for: consent)
    #expect(screen.documents.first?.presentations.first?.claims.filter(\.shared).count == 1)
    let bytes = try await wallet.respondInPerson(to: resolved, consent: consent)
    // The holder was asked once, knowing who asks.
    #expect(authenticator.contexts.map(\.requester.verifiedName) == ["Test Reader"])
    #expect(
      authenticator.contexts.first?.protocolIdentifier == ProximityPresentation.protocolIdentifier)
    let result = try f.verify(bytes, request: request)
    #expect(
      result.report.checks == [
        .deviceResponseStructure(version: "1.0", documentCount: 1),
        .documentIssuer(
          docType: Self.mdlType, documentSigner: f.pki.documentSigner.subject, trust: .chainToIACA),
        .documentDeviceSignature(docType: Self.mdlType),
        .onlyRequestedElements(docType: Self.mdlType, elementCount: 1),
      ])
    #expect(result.documents.first?.elements.map(\.identifier) == ["age_over_18"])
    #expect(
      result.documents.first?.notReturned
        == ["org.iso.18013.5.1": ["family_name": 0, "portrait": 0]])
    #expect(result.documentErrors.isEmpty)
    // Requested but not shared: reported as not returned (code 0).
    let response = try DeviceResponse(bytes: bytes)
    #expect(
      response.documents.first?.errors["org.iso.18013.5.1"]?.keys.sorted() == [
        "family_name", "portrait",
      ])
    let log = try #require(try await wallet.activity().first)
    #expect(log.protocolIdentifier == ProximityPresentation.protocolIdentifier)
    #expect(log.outcome == .shared && log.origin == nil && log.relyingParty == "Test Reader")
    #expect(log.sharedItems == ["org.iso.18013.5.1/age_over_18"])
    #expect(log.detail.contains("deviceSignature"))
  }

  @Test(
    "deviceMac by policy: version 1.1 with use cases and readerAuthAll; the reader verifies with its ephemeral key"
  )
  func macWithUseCasesAndReaderAuthAll() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet(policy: WalletPolicy(inPersonDeviceAuthentication: .mac))
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl],
      useCases: [UseCase(mandatory: true, documentSets: [[0]])], sessionTranscript: f.transcript,
      reader: f.reader, readerAuthentication: .all)
    #expect(request.version == "1.1" && request.readerAuthAll.count == 1)
    #expect(request.docRequests.allSatisfy { $0.readerAuth == nil })
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    #expect(resolved.requesterAuthentication == .trusted)
    #expect(resolved.credentialSets.count == 1 && resolved.credentialSets[0].required)
    let bytes = try await wallet.respondInPerson(
      to: resolved, consent: try resolved.proposedConsent())
    let result = try f.verify(bytes, request: request)
    #expect(result.report.checks.contains(.documentDeviceMac(docType: Self.mdlType)))
    #expect(!result.report.checks.contains(.documentDeviceSignature(docType: Self.mdlType)))
    #expect(result.documents.first?.elements.count == 3)
    #expect(try await wallet.activity().first?.detail.contains("deviceMac") == true)
    // Wallet.respond routes an in-person request too: the response base64url-encoded.
    let routed = try await wallet.respond(to: resolved, consent: try resolved.proposedConsent())
    #expect(routed.protocolIdentifier == ProximityPresentation.protocolIdentifier)
    let routedBytes = try Base64URL.decode(try #require(routed.data.string))
    #expect(
      try f.verify(routedBytes, request: request).report.checks.contains(
        .documentDeviceMac(docType: Self.mdlType)))
    // Another reader key derives another EMacKey; without one, a MAC cannot be checked.
    let verificationFailedError = #expect(throws: VerifierError.self) {
      _ = try f.verify(bytes, request: request, eReaderKey: try ECPrivateKey(curve: .p256))
    }
    #expect(verificationFailedError?.code == .verificationFailed)
    let verificationFailedError2 = #expect(throws: VerifierError.self) {
      _ = try f.verify(bytes, request: request, eReaderKey: .some(nil))
    }
    #expect(verificationFailedError2?.code == .verificationFailed)
    // Bound to this session: another transcript with the same reader key does not verify.
    let other = SessionTranscript(
      deviceEngagementBytes: .tagged(24, .byteString(([0: "1.1"] as CBOR).encoded())),
      eReaderKeyBytes: try #require(f.transcript.encoded.value.array?[1]), handover: .null)
    let verificationFailedError3 = #expect(throws: VerifierError.self) {
      _ = try f.verify(bytes, request: request, transcript: other)
    }
    #expect(verificationFailedError3?.code == .verificationFailed)
  }

  @Test("A requested document the wallet does not hold is reported to the reader in documentErrors")
  func documentNotReturned() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet()
    let pid = ItemsRequest(
      docType: "eu.europa.ec.eudi.pid.1",
      nameSpaces: [("eu.europa.ec.eudi.pid.1", [.init("given_name", intentToRetain: false)])])
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl, pid], sessionTranscript: f.transcript, reader: f.reader)
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    #expect(resolved.documents.map(\.candidateIDs) == [["mdl"], []])
    let bytes = try await wallet.respondInPerson(
      to: resolved, consent: try resolved.proposedConsent())
    let result = try f.verify(bytes, request: request)
    #expect(result.documents.map(\.docType) == [Self.mdlType])
    #expect(result.documentErrors == [["eu.europa.ec.eudi.pid.1": 0]])
  }

  @Test("Unsigned request: requester absent, answered by default, refused when trust is required")
  func unsignedRequest() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript)
    let resolved = try await f.wallet(policy: WalletPolicy(inPersonDeviceAuthentication: .mac))
      .resolveInPerson(deviceRequest: request.bytes, sessionTranscript: f.transcript)
    #expect(resolved.requesterAuthentication == .absent)
    #expect(resolved.requester.verifiedName == nil)
    let bytes = try await f.wallet(policy: WalletPolicy(inPersonDeviceAuthentication: .mac))
      .respondInPerson(to: resolved, consent: try resolved.proposedConsent())
    #expect(
      try f.verify(bytes, request: request).report.checks.contains(
        .documentDeviceMac(docType: Self.mdlType)))
    let strict = try f.wallet(policy: WalletPolicy(requireAuthenticatedRequester: true))
    let (refusal, status) = await inPersonRefusal {
      _ = try await strict.resolveInPerson(
        deviceRequest: request.bytes, sessionTranscript: f.transcript)
    }
    #expect(refusal?.code == .requesterNotAuthenticated)
    #expect(status == DeviceResponse.statusGeneralError)
  }

  @Test("An untrusted but validly signed reader is answered unless the policy requires trust")
  func untrustedReader() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript,
      reader: try f.strangerReader())
    let wallet = try f.wallet()
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    guard case .untrusted = resolved.requesterAuthentication else {
      Issue.record("expected untrusted, got \(resolved.requesterAuthentication)")
      return
    }
    #expect(resolved.requester.verifiedName == nil)
    let bytes = try await wallet.respondInPerson(
      to: resolved, consent: try resolved.proposedConsent())
    _ = try f.verify(bytes, request: request)
    let strict = try f.wallet(policy: WalletPolicy(requireAuthenticatedRequester: true))
    let (refusal, status) = await inPersonRefusal {
      _ = try await strict.resolveInPerson(
        deviceRequest: request.bytes, sessionTranscript: f.transcript)
    }
    #expect(refusal?.code == .requesterNotAuthenticated)
    #expect(status == 10)
  }

  @Test("A readerAuth over another session is recorded as invalid and refused by default")
  func invalidReaderAuth() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    // Signed over another session's transcript: the signature does not verify for this one.
    let elsewhere = InPersonFixture.transcript(eReaderKey: try ECPrivateKey(curve: .p256).publicKey)
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: elsewhere, reader: f.reader)
    let (refusal, status) = await inPersonRefusal {
      _ = try await f.wallet().resolveInPerson(
        deviceRequest: request.bytes, sessionTranscript: f.transcript)
    }
    #expect(refusal?.code == .invalidRequesterAuthentication)
    #expect(status == DeviceResponse.statusGeneralError)
    #expect(try await f.wallet().activity().first?.outcome == .refused)
    // Accepted as unverified only when the policy says so; the consent screen shows why.
    let lenient = try f.wallet(policy: WalletPolicy(acceptsInvalidRequesterAuthentication: true))
    let resolved = try await lenient.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    guard case .invalid = resolved.requesterAuthentication else {
      Issue.record("expected invalid, got \(resolved.requesterAuthentication)")
      return
    }
    #expect(resolved.requester.verifiedName == nil && resolved.requesterCertificates.isEmpty)
  }

  @Test("Refusals answer with status 11 (not CBOR), 12 (not a DeviceRequest) or 10")
  func refusalStatuses() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet()
    let cases: [([UInt8], Refusal.Code, Int)] = [
      ([0xFF], .undecodableRequest, 11),
      ([0xA1, 0x61], .undecodableRequest, 11),
      ([0xA0], .invalidRequest, 12),
      ((["version": "2.0", "docRequests": []] as CBOR).encoded(), .invalidRequest, 12),
      (
        try ProximityReader.makeRequest(
          itemsRequests: [
            ItemsRequest(
              docType: "eu.europa.ec.eudi.pid.1",
              nameSpaces: [
                ("eu.europa.ec.eudi.pid.1", [.init("given_name", intentToRetain: false)])
              ])
          ], sessionTranscript: f.transcript
        ).bytes, .noMatchingCredential, 10
      ),
    ]
    for (bytes, code, expected) in cases {
      let (refusal, status) = await inPersonRefusal {
        _ = try await wallet.resolveInPerson(deviceRequest: bytes, sessionTranscript: f.transcript)
      }
      #expect(refusal?.code == code, "\(bytes.prefix(4))")
      #expect(status == expected)
      let response = try DeviceResponse(
        bytes: ProximityPresentation.refusalResponse(status: status))
      #expect(response.status == expected && response.documents.isEmpty)
      // The reader reports the status and verifies nothing.
      let request = try ProximityReader.makeRequest(
        itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript)
      let verificationFailedError = #expect(throws: VerifierError.self) {
        _ = try f.verify(ProximityPresentation.refusalResponse(status: status), request: request)
      }
      #expect(verificationFailedError?.code == .verificationFailed)
    }
    // The policy's allowed protocols apply to in-person requests too.
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript)
    let (refusal, status) = await inPersonRefusal {
      _ = try await f.wallet(policy: WalletPolicy(allowedProtocols: ["org-iso-mdoc"]))
        .resolveInPerson(deviceRequest: request.bytes, sessionTranscript: f.transcript)
    }
    #expect(refusal?.code == .protocolNotAllowed && status == 10)
  }

  @Test(
    "deviceMac with a key that cannot agree: refused under .mac, signed under .macElseSignature")
  func keyWithoutAgreement() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript)
    let strict = try f.wallet(
      policy: WalletPolicy(inPersonDeviceAuthentication: .mac), withoutKeyAgreement: true)
    let resolved = try await strict.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    let unsupportedDeviceAuthenticationError = await #expect(throws: WalletError.self) {
      do {
        _ = try await strict.respondInPerson(to: resolved, consent: try resolved.proposedConsent())
      } catch let error as WalletError {
        #expect(error.code == .unsupportedDeviceAuthentication)
        throw error
      }
    }
    #expect(unsupportedDeviceAuthenticationError?.code == .unsupportedDeviceAuthentication)
    let fallback = try f.wallet(
      policy: WalletPolicy(inPersonDeviceAuthentication: .macElseSignature),
      withoutKeyAgreement: true)
    let again = try await fallback.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    let bytes = try await fallback.respondInPerson(to: again, consent: try again.proposedConsent())
    #expect(
      try f.verify(bytes, request: request).report.checks.contains(
        .documentDeviceSignature(docType: Self.mdlType)))
    // A software key can agree: .macElseSignature then MACs.
    let able = try f.wallet(policy: WalletPolicy(inPersonDeviceAuthentication: .macElseSignature))
    let third = try await able.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    let macBytes = try await able.respondInPerson(to: third, consent: try third.proposedConsent())
    #expect(
      try f.verify(macBytes, request: request).report.checks.contains(
        .documentDeviceMac(docType: Self.mdlType)))
    // A transcript without an EReaderKey leaves nothing to agree with.
    let noReaderKey = InPersonFixture.transcript(eReaderKey: nil)
    let bare = try await able.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: noReaderKey)
    let signed = try await able.respondInPerson(to: bare, consent: try bare.proposedConsent())
    #expect(
      try f.verify(signed, request: request, transcript: noReaderKey).report.checks.contains(
        .documentDeviceSignature(docType: Self.mdlType)))
    let macOnly = try f.wallet(policy: WalletPolicy(inPersonDeviceAuthentication: .mac))
    let bareMac = try await macOnly.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: noReaderKey)
    let unsupportedDeviceAuthenticationError2 = await #expect(throws: WalletError.self) {
      _ = try await macOnly.respondInPerson(to: bareMac, consent: try bareMac.proposedConsent())
    }
    #expect(unsupportedDeviceAuthenticationError2?.code == .unsupportedDeviceAuthentication)
  }

  @Test(
    "The reader refuses a wrong transcript, a tampered element, an unrequested element, an expired credential"
  )
  func readerChecks() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet()
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript, reader: f.reader)
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    let bytes = try await wallet.respondInPerson(
      to: resolved, consent: try resolved.proposedConsent())
    _ = try f.verify(bytes, request: request)

    func failure(_ body: () throws -> Void) -> String {
      do {
        try body()
        Issue.record("expected a verification failure")
      } catch let error as VerifierError {
        return error.reason
      } catch {
        Issue.record("unexpected \(error)")
      }
      return ""
    }
    // Another session's transcript.
    let elsewhere = InPersonFixture.transcript(eReaderKey: f.eReaderKey.publicKey)
    let other = SessionTranscript(
      deviceEngagementBytes: .tagged(24, .byteString(([0: "1.0", 1: 1] as CBOR).encoded())),
      eReaderKeyBytes: try #require(elsewhere.encoded.value.array?[1]), handover: .null)
    #expect(
      failure { _ = try f.verify(bytes, request: request, transcript: other) }.contains(
        "deviceSignature"))
    // A tampered element value: its digest no longer matches the MSO.
    let name = Array("Mustermann".utf8)
    var tampered = bytes
    let at = try #require(
      (0...(tampered.count - name.count)).first { Array(tampered[$0..<($0 + name.count)]) == name })
    tampered.replaceSubrange(at..<(at + name.count), with: Array("Musterfrau".utf8))
    #expect(failure { _ = try f.verify(tampered, request: request) }.contains("digest"))
    // An element that was not requested (a holder that ignores the request).
    let extra = try Document.present(
      f.issuerSigned,
      disclosing: ["org.iso.18013.5.1": ["age_over_18", "given_name"]],
      sessionTranscript: f.transcript, authenticator: .signature(f.mdlKey))
    #expect(
      failure {
        _ = try f.verify(DeviceResponse(documents: [extra]).bytes, request: request)
      }.contains("given_name was returned but not requested"))
    // A document of a docType that was not requested.
    let pid = try f.pki.issuePID(deviceKey: f.mdlKey.publicKey)
    let pidDocument = try Document.present(
      pid, disclosing: [:], sessionTranscript: f.transcript, authenticator: .signature(f.mdlKey))
    #expect(
      failure {
        _ = try f.verify(DeviceResponse(documents: [pidDocument]).bytes, request: request)
      }.contains("was not requested"))
    // Expired at the reader's time.
    #expect(
      failure {
        _ = try f.verify(bytes, request: request, at: f.pki.clock.addingTimeInterval(86_400 * 365))
      }.contains("expired"))
  }
}
