import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCQL
import DCSDJWT
import DCStatusList
import DCVerifier
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// An SD-JWT VC issuer and an mdoc issuer under different roots, their status list tokens on a
/// loopback server, and a verifier that asks for both credentials over OpenID4VP (dc_api).
final class StatusFixture: @unchecked Sendable {
  static let origin = "https://verifier.example"
  static let vct = "urn:eudi:pid:1"
  /// Entry statuses in every list: 0 valid, 1 invalid, 2 suspended, 3 application-specific.
  static let statuses: [Status] = [.valid, .invalid, .suspended, .applicationSpecific(3)]

  let pki: TestPKI
  var now: Date { pki.clock }
  let sdRootKey: ECPrivateKey
  let sdRoot: Certificate
  let sdIssuerKey: ECPrivateKey
  let sdIssuer: Certificate
  let holderKey: ECPrivateKey
  let deviceKey: ECPrivateKey
  let server: DevelopmentHTTPServer
  let base: String

  /// `tokens`: path -> token bytes. Default: `/sd` (JWT by the SD-JWT issuer) and `/mdoc` (CWT by
  /// the document signer), each over `statuses`.
  init(tokens: ((StatusFixture) throws -> [String: [UInt8]])? = nil) throws {
    pki = try TestPKI()
    let from = pki.clock.addingTimeInterval(-86_400)
    let until = pki.clock.addingTimeInterval(86_400 * 365)
    sdRootKey = try ECPrivateKey(curve: .p256)
    sdRoot = try CertificateBuilder.iaca(
      commonName: "Test PID Root", country: "UT", publicKey: sdRootKey.publicKey,
      notBefore: from, notAfter: until
    ).selfSigned(signer: sdRootKey)
    sdIssuerKey = try ECPrivateKey(curve: .p256)
    sdIssuer = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: sdIssuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("pid.example")]),
      ]
    ).issued(by: sdRoot, signer: sdRootKey)
    holderKey = try ECPrivateKey(curve: .p256)
    deviceKey = try ECPrivateKey(curve: .p256)
    // The paths are known before the port: the tokens' sub is filled in below.
    let handler = LateHandler()
    server = DevelopmentHTTPServer(handler: handler)
    let port = try server.start()
    base = "http://127.0.0.1:\(port)"
    handler.set(
      try tokens?(self) ?? [
        "/sd": try token(.jwt, path: "/sd"), "/mdoc": try token(.cwt, path: "/mdoc"),
      ])
  }

  deinit { server.stop() }

  func uri(_ path: String) -> String { base + path }

  /// A token over `statuses` for `uri(path)`, signed by the SD-JWT issuer (JWT) or the document
  /// signer (CWT) unless `signer`/`chain` say otherwise.
  func token(
    _ format: StatusListToken.Format, path: String, subject: String? = nil,
    expiresAt: Date? = nil, signer: (any Signer)? = nil, chain: [Certificate]? = nil,
    statuses: [Status] = StatusFixture.statuses
  ) throws -> [UInt8] {
    var list = StatusList(bits: .two, count: statuses.count)
    for (index, status) in statuses.enumerated() { try list.setStatus(status, at: index) }
    let defaultSigner: any Signer = format == .jwt ? sdIssuerKey : pki.dsKey
    let defaultChain = format == .jwt ? [sdIssuer] : [pki.documentSigner]
    return try StatusListToken(
      format: format, subject: subject ?? uri(path), issuedAt: now.addingTimeInterval(-60),
      expiresAt: expiresAt ?? now.addingTimeInterval(3600), timeToLive: 300, statusList: list,
      certificateChain: (chain ?? defaultChain).map(\.derBytes), signer: signer ?? defaultSigner
    ).encoded
  }

  /// An SD-JWT VC whose `status` is `status` (none when nil).
  func sdJWT(status: JSONValue?) throws -> SDJWT {
    var claims: [(key: String, value: JSONValue)] = [
      ("given_name", "Erika"), ("family_name", "Mustermann"),
    ]
    if let status { claims.append(("status", status)) }
    return try SDJWTIssuer.issue(
      claims: .object(claims), selectivelyDisclosable: ["given_name", "family_name"],
      holderKey: holderKey.publicKey, vct: Self.vct, issuer: "https://pid.example",
      issuedAt: now.addingTimeInterval(-3600), expiresAt: now.addingTimeInterval(86_400),
      signer: sdIssuerKey, x5c: [sdIssuer], random: SecureRandom())
  }

  /// An mDL whose MSO `status` is `status` (none when nil), signed by the document signer.
  func mdoc(status: CBOR?) throws -> IssuerSigned {
    let plain = try pki.issue(deviceKey: deviceKey.publicKey)
    guard let status else { return plain }
    let mso = plain.mso
    let rebuilt = MobileSecurityObject(
      digestAlgorithm: try mso.digest,
      valueDigests: mso.valueDigests.sorted { $0.key < $1.key }.map { ns, digests in
        (ns, digests.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
      },
      deviceKey: mso.deviceKey, keyAuthorizations: mso.keyAuthorizations, docType: mso.docType,
      validityInfo: mso.validityInfo, status: status)
    let issuerAuth = try COSESign1.sign(
      payload: rebuilt.encoded.tag24.encoded(),
      unprotected: [
        COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue([pki.documentSigner.derBytes])
      ],
      signer: pki.dsKey)
    return try IssuerSigned(nameSpaces: plain.nameSpaces, issuerAuth: issuerAuth)
  }

  static let sdQuery: JSONValue = [
    "credentials": [
      [
        "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(vct)]],
        "claims": [["path": ["given_name"]]],
      ]
    ]
  ]
  static let mdocQuery: JSONValue = [
    "credentials": [
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [["path": ["org.iso.18013.5.1", "family_name"]]],
      ]
    ]
  ]

  /// The wallet's answer over OpenID4VP dc_api with `credential`, and the verifier's state.
  func exchange(_ credential: any DCQLCredential, query: JSONValue) throws -> (
    data: JSONValue, state: VerifierState
  ) {
    let sent = try VerifierRequest(
      dcqlQuery: query, origin: Self.origin, responseMode: .dcAPI, signing: .unsigned)
    let request = try AuthorizationRequest(
      protocol: sent.protocolID, data: sent.data, origin: try WebOrigin(Self.origin),
      verifierTrustAnchors: [], now: now)
    let evaluation = request.dcqlQuery.evaluate([credential])
    var presentations: [String: [CredentialPresentation]] = [:]
    for (id, candidates) in evaluation.defaultSelection() {
      for candidate in candidates {
        switch credential {
        case let sd as SDJWTCredential:
          presentations[id, default: []].append(
            sd.presentation(disclosing: candidate.disclosed, holderKey: holderKey))
        case let mdoc as MdocCredential:
          presentations[id, default: []].append(
            mdoc.presentation(disclosing: candidate.disclosed, deviceKey: deviceKey))
        default:
          Issue.record("unexpected credential")
        }
      }
    }
    let response = try request.respond(
      origin: try WebOrigin(Self.origin), presentations: presentations, now: now)
    return (response.data, sent.state)
  }

  /// Verifies an SD-JWT VC with `status` over OpenID4VP, its anchors the SD-JWT root and the
  /// mdoc anchors the IACA.
  func verifySDJWT(
    status: JSONValue?, checking: StatusChecking? = nil
  ) async throws -> VerifiedCredential {
    let credential = try SDJWTCredential(id: "pid", sdJWT: try sdJWT(status: status))
    let (data, state) = try exchange(credential, query: Self.sdQuery)
    let verified = try await state.verifyResponse(
      data, sdJWTIssuerAnchors: [sdRoot], mdocIssuerAnchors: [pki.iaca], now: now,
      status: checking
        ?? .fetching(
          httpClient: URLSessionHTTPClient(
            configuration: .init(policy: .development)), urlPolicy: .development))
    return try #require(verified.credentials["pid"]?.first)
  }

  /// Verifies an mDL with MSO `status` over OpenID4VP.
  func verifyMdoc(status: CBOR?, checking: StatusChecking? = nil) async throws
    -> VerifiedCredential
  {
    let credential = MdocCredential(id: "mdl", issuerSigned: try mdoc(status: status))
    let (data, state) = try exchange(credential, query: Self.mdocQuery)
    let verified = try await state.verifyResponse(
      data, sdJWTIssuerAnchors: [sdRoot], mdocIssuerAnchors: [pki.iaca], now: now,
      status: checking
        ?? .fetching(
          httpClient: URLSessionHTTPClient(
            configuration: .init(policy: .development)), urlPolicy: .development))
    return try #require(verified.credentials["mdl"]?.first)
  }

  func sdStatus(_ index: Int, path: String = "/sd") -> JSONValue {
    StatusReference(index: index, uri: uri(path)).sdJWTStatusClaim
  }

  func msoStatus(_ index: Int, path: String = "/mdoc") -> CBOR {
    StatusReference(index: index, uri: uri(path)).msoStatus
  }
}

/// A handler whose tokens are set once the server's port is known.
final class LateHandler: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var tokens: [String: [UInt8]] = [:]

  func set(_ tokens: [String: [UInt8]]) {
    lock.lock()
    defer { lock.unlock() }
    self.tokens = tokens
  }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let body: [UInt8]? = lock.withLock { tokens[request.url.path] }
    guard let body else { return HTTPResponse(status: 404) }
    return HTTPResponse(status: 200, body: body)
  }
}

/// The status check's outcome in a credential's report.
func statusOutcome(_ credential: VerifiedCredential) -> ReportedCredentialStatus? {
  for case .credentialStatus(_, let outcome) in credential.report.checks { return outcome }
  return nil
}

/// The CredentialStatusError under the error `body` throws, recording an issue when none.
func statusError(
  _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> CredentialStatusError? {
  do {
    try await body()
    Issue.record("expected a status failure", sourceLocation: sourceLocation)
  } catch let error as OpenID4VPError {
    if let status = error.underlying as? CredentialStatusError { return status }
    Issue.record("expected a status failure, got \(error)", sourceLocation: sourceLocation)
  } catch let error as VerifierError {
    if let status = error.underlying as? CredentialStatusError { return status }
    Issue.record("expected a status failure, got \(error)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected a status failure, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

@Suite("Credential status through the verifiers (Token Status List)", .serialized)
struct StatusVerificationTests {
  @Test("SD-JWT VC over OpenID4VP: valid passes and is reported with its list and index")
  func sdJWTValid() async throws {
    let fixture = try StatusFixture()
    let credential = try await fixture.verifySDJWT(status: fixture.sdStatus(0))
    #expect(statusOutcome(credential) == .valid(uri: fixture.uri("/sd"), index: 0))
    // The status check comes after the credential's own checks.
    #expect(credential.report.checks.first == .sdJWTIssuerSignature)
    #expect(
      credential.report.checks.last
        == .credentialStatus(
          credential: "pid (\(StatusFixture.vct))",
          outcome: .valid(uri: fixture.uri("/sd"), index: 0)))
  }

  @Test(
    "Revoked, suspended and application-specific fail, naming the status",
    arguments: [(1, "invalid"), (2, "suspended"), (3, "applicationSpecific")])
  func sdJWTFailures(index: Int, code: String) async throws {
    let fixture = try StatusFixture()
    let error = await statusError {
      _ = try await fixture.verifySDJWT(status: fixture.sdStatus(index))
    }
    #expect(error?.code.description == code)
    switch index {
    case 1: #expect(error?.reason.contains("invalid (revoked)") == true)
    case 2: #expect(error?.reason.contains("suspended") == true)
    default: #expect(error?.statusValue == 3)
    }
  }

  @Test("mdoc over OpenID4VP: the MSO status is checked against a CWT list")
  func mdocOpenID4VP() async throws {
    let fixture = try StatusFixture()
    let valid = try await fixture.verifyMdoc(status: fixture.msoStatus(0))
    #expect(statusOutcome(valid) == .valid(uri: fixture.uri("/mdoc"), index: 0))
    let error = await statusError {
      _ = try await fixture.verifyMdoc(status: fixture.msoStatus(1))
    }
    #expect(error?.code == .invalid)
    let suspended = await statusError {
      _ = try await fixture.verifyMdoc(status: fixture.msoStatus(2))
    }
    #expect(suspended?.code == .suspended)
  }

  @Test("No reference: 'not referenced', not a failure; .skip: 'skipped' even when revoked")
  func notReferencedAndSkipped() async throws {
    let fixture = try StatusFixture()
    let none = try await fixture.verifySDJWT(status: nil)
    #expect(statusOutcome(none) == .notReferenced)
    let mdoc = try await fixture.verifyMdoc(status: nil)
    #expect(statusOutcome(mdoc) == .notReferenced)
    let skipped = try await fixture.verifySDJWT(status: fixture.sdStatus(1), checking: .skip)
    #expect(statusOutcome(skipped) == .skipped)
  }

  @Test("A list signed by another issuer is unknown (untrusted), never revoked")
  func otherIssuer() async throws {
    // The SD-JWT's list is signed by the mdoc document signer: trusted for mdocs, but not under
    // the SD-JWT issuer's anchors, which are the ones the status check must use.
    let fixture = try StatusFixture { fixture in
      [
        "/sd": try fixture.token(
          .jwt, path: "/sd", signer: fixture.pki.dsKey, chain: [fixture.pki.documentSigner])
      ]
    }
    let credential = try await fixture.verifySDJWT(status: fixture.sdStatus(1))
    guard case .unknown(let uri, let reason, _) = statusOutcome(credential) else {
      Issue.record("expected unknown, got \(String(describing: statusOutcome(credential)))")
      return
    }
    #expect(uri == fixture.uri("/sd") && reason == .untrusted)
    let strict = await statusError {
      _ = try await fixture.verifySDJWT(
        status: fixture.sdStatus(1),
        checking: .fetching(
          httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
          policy: .strict, urlPolicy: .development))
    }
    #expect(strict?.code == .unknown && strict?.unknownReason == .untrusted)
  }

  /// Issue 32, item 9: a list under another of the same trusted anchors (here the IACA, given
  /// as an SD-JWT anchor too) does not speak for a credential whose chain reached the PID root.
  @Test("A list under another trusted anchor than the credential's is unknown (issuer_mismatch)")
  func listUnderAnotherTrustedAnchor() async throws {
    let fixture = try StatusFixture { fixture in
      [
        "/sd": try fixture.token(
          .jwt, path: "/sd", signer: fixture.pki.dsKey, chain: [fixture.pki.documentSigner])
      ]
    }
    let sdJWT = try fixture.sdJWT(status: fixture.sdStatus(1))
    let (data, state) = try fixture.exchange(
      try SDJWTCredential(id: "pid", sdJWT: sdJWT), query: StatusFixture.sdQuery)
    let verified = try await state.verifyResponse(
      data, sdJWTIssuerAnchors: [fixture.sdRoot, fixture.pki.iaca],
      mdocIssuerAnchors: [fixture.pki.iaca], now: fixture.now,
      status: .fetching(
        httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
        urlPolicy: .development))
    let credential = try #require(verified.credentials["pid"]?.first)
    guard case .unknown(_, let reason, _) = statusOutcome(credential) else {
      Issue.record("expected unknown, got \(String(describing: statusOutcome(credential)))")
      return
    }
    #expect(reason == .issuerMismatch)
  }

  @Test("The mdoc's list is checked with the mdoc anchors, the SD-JWT's with the SD-JWT anchors")
  func anchorsPerFormat() async throws {
    // An mdoc list signed by the SD-JWT issuer: trusted for SD-JWTs only.
    let fixture = try StatusFixture { fixture in
      [
        "/mdoc": try fixture.token(
          .cwt, path: "/mdoc", signer: fixture.sdIssuerKey, chain: [fixture.sdIssuer])
      ]
    }
    let credential = try await fixture.verifyMdoc(status: fixture.msoStatus(1))
    guard case .unknown(_, .untrusted, _) = statusOutcome(credential) else {
      Issue.record(
        "expected unknown (untrusted), got \(String(describing: statusOutcome(credential)))")
      return
    }
  }

  @Test(
    "sub mismatch, expired, index out of range and malformed references are unknown, not revoked")
  func unknownReasons() async throws {
    let fixture = try StatusFixture { fixture in
      [
        "/sd": try fixture.token(.jwt, path: "/sd"),
        "/other-sub": try fixture.token(.jwt, path: "/other-sub", subject: fixture.uri("/sd")),
        "/expired": try fixture.token(
          .jwt, path: "/expired", expiresAt: fixture.now.addingTimeInterval(-1)),
      ]
    }
    let cases: [(JSONValue, StatusUnknownReason)] = [
      (fixture.sdStatus(1, path: "/other-sub"), .subjectMismatch),
      (fixture.sdStatus(1, path: "/expired"), .expired),
      (fixture.sdStatus(4000), .indexOutOfRange),
      (fixture.sdStatus(1, path: "/missing"), .unreachable),
      (["status_list": ["idx": "one", "uri": .string(fixture.uri("/sd"))]], .malformed),
      (["identifier_list": ["id": "x", "uri": "https://x.example"]], .unsupported),
    ]
    for (status, expected) in cases {
      let credential = try await fixture.verifySDJWT(status: status)
      guard case .unknown(_, let reason, _) = statusOutcome(credential) else {
        Issue.record("\(expected): got \(String(describing: statusOutcome(credential)))")
        continue
      }
      #expect(reason == expected)
    }
  }

  @Test("Unreachable: unknown and passes by default, fails under the strict policy")
  func unreachable() async throws {
    let fixture = try StatusFixture()
    // A loopback port nothing listens on once the server stops.
    let port = try #require(fixture.server.port)
    fixture.server.stop()
    let status = StatusReference(index: 1, uri: "http://127.0.0.1:\(port)/sd").sdJWTStatusClaim
    let credential = try await fixture.verifySDJWT(status: status)
    guard case .unknown(_, .unreachable, _) = statusOutcome(credential) else {
      Issue.record("expected unreachable, got \(String(describing: statusOutcome(credential)))")
      return
    }
    let strict = await statusError {
      _ = try await fixture.verifySDJWT(
        status: status,
        checking: .fetching(
          httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
          policy: .strict, urlPolicy: .development))
    }
    #expect(strict?.code == .unknown && strict?.unknownReason == .unreachable)
  }

  @Test("Offline tokens are used instead of fetching, matched by sub")
  func offline() async throws {
    let fixture = try StatusFixture { _ in [:] }
    let token = try StatusListToken(bytes: try fixture.token(.jwt, path: "/sd"))
    let credential = try await fixture.verifySDJWT(
      status: fixture.sdStatus(0),
      checking: .fetching(
        httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
        offlineTokens: [token], urlPolicy: .development))
    #expect(statusOutcome(credential) == .valid(uri: fixture.uri("/sd"), index: 0))
  }

  @Test("Annex C: each document's status is in the shared report; revoked fails")
  func annexC() async throws {
    let fixture = try StatusFixture()
    for (index, expectFailure) in [(0, false), (1, true)] {
      let issued = try fixture.mdoc(status: fixture.msoStatus(index))
      let state = try AnnexCVerifier.makeRequest(
        itemsRequests: [
          ItemsRequest(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
        ], origin: try WebOrigin(StatusFixture.origin))
      let document = try Document.present(
        issued, disclosing: ["org.iso.18013.5.1": ["family_name"]],
        sessionTranscript: state.sessionTranscript, deviceKey: fixture.deviceKey)
      let response = try EncryptedResponse.seal(
        DeviceResponse(documents: [document]),
        to: state.request.encryptionInfo.recipientPublicKey,
        sessionTranscript: state.sessionTranscript
      ).data
      let checking = StatusChecking.fetching(
        httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
        urlPolicy: .development)
      if expectFailure {
        let error = await statusError {
          _ = try await AnnexCVerifier.verify(
            responseData: response, state: state, issuerTrustAnchors: [fixture.pki.iaca],
            now: fixture.now, status: checking)
        }
        #expect(error?.code == .invalid && error?.credential == "org.iso.18013.5.1.mDL")
      } else {
        let result = try await AnnexCVerifier.verify(
          responseData: response, state: state, issuerTrustAnchors: [fixture.pki.iaca],
          now: fixture.now, status: checking)
        #expect(
          result.report.checks.last
            == .credentialStatus(
              credential: "org.iso.18013.5.1.mDL",
              outcome: .valid(uri: fixture.uri("/mdoc"), index: 0)))
      }
    }
  }

  @Test("In person: ProximityReader reports each document's status; suspended fails")
  func inPerson() async throws {
    let fixture = try StatusFixture()
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "in-person-test", origin: "reader"))
    let request = try ProximityReader.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("family_name", intentToRetain: false)])])
      ], sessionTranscript: transcript)
    let checking = StatusChecking.fetching(
      httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
      urlPolicy: .development)
    func response(_ index: Int) throws -> [UInt8] {
      let document = try Document.present(
        try fixture.mdoc(status: fixture.msoStatus(index)),
        disclosing: ["org.iso.18013.5.1": ["family_name"]], sessionTranscript: transcript,
        deviceKey: fixture.deviceKey)
      return DeviceResponse(documents: [document]).bytes
    }
    let valid = try await ProximityReader.verify(
      response: try response(0), request: request, sessionTranscript: transcript,
      eReaderKey: nil, issuerTrustAnchors: [fixture.pki.iaca], now: fixture.now,
      status: checking)
    #expect(
      valid.report.checks.last
        == .credentialStatus(
          credential: "org.iso.18013.5.1.mDL",
          outcome: .valid(uri: fixture.uri("/mdoc"), index: 0)))
    let suspended = await statusError {
      _ = try await ProximityReader.verify(
        response: try response(2), request: request, sessionTranscript: transcript,
        eReaderKey: nil, issuerTrustAnchors: [fixture.pki.iaca], now: fixture.now,
        status: checking)
    }
    #expect(suspended?.code == .suspended)
  }
}
