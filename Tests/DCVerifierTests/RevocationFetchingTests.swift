import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCQL
import DCTrust
import DCVerifier
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Serves one CRL at `/crl` on loopback and counts the requests for it.
final class CRLHandler: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var body: [UInt8]?
  private var count = 0

  func serve(_ crl: CertificateRevocationList?) { lock.withLock { body = crl?.derBytes } }
  var requests: Int { lock.withLock { count } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let served: [UInt8]? = lock.withLock {
      count += 1
      return request.url.path == "/crl" ? body : nil
    }
    guard let served else { return HTTPResponse(status: 404) }
    return HTTPResponse(
      status: 200, headers: ["Content-Type": "application/pkix-crl"], body: served)
  }
}

/// A clock the test moves.
final class MovingClock: @unchecked Sendable {
  private let lock = NSLock()
  private var time: Date
  init(_ time: Date) { self.time = time }
  var now: Date { lock.withLock { time } }
  func advance(_ seconds: TimeInterval) { lock.withLock { time += seconds } }
}

/// Issue 29: the DC API verifier with a revocation setting that fetches the CRL distribution
/// point its presented document signer names, from a CRL server on loopback.
final class RevocationFetchFixture: @unchecked Sendable {
  static let origin = "https://verifier.example"
  let pki: TestPKI
  let clock: MovingClock
  let handler = CRLHandler()
  let server: DevelopmentHTTPServer
  let crlURL: String
  let deviceKey: ECPrivateKey

  init() throws {
    pki = try TestPKI()
    clock = MovingClock(pki.clock)
    server = DevelopmentHTTPServer(handler: handler)
    crlURL = "http://127.0.0.1:\(try server.start())/crl"
    deviceKey = try ECPrivateKey(curve: .p256)
  }

  deinit { server.stop() }

  /// A document signer under the test IACA naming `distributionPoint`.
  func documentSigner(distributionPoint: String) throws -> Certificate {
    try CertificateBuilder.documentSigner(
      commonName: "Fetched DS", country: "UT", publicKey: pki.dsKey.publicKey,
      notBefore: pki.clock - 86_400, notAfter: pki.clock + 86_400 * 30,
      crlDistributionPoint: distributionPoint
    ).issued(by: pki.iaca, signer: pki.iacaKey)
  }

  /// The IACA's CRL, listing `revoked`, current for an hour from the fixture's start.
  func crl(revoking revoked: [Certificate] = [], signer: ECPrivateKey? = nil) throws
    -> CertificateRevocationList
  {
    try CertificateRevocationList.build(
      issuer: pki.iaca, signer: signer ?? pki.iacaKey, thisUpdate: pki.clock - 60,
      nextUpdate: pki.clock + 3600,
      revoked: revoked.map {
        RevokedCertificate(serialNumber: $0.serialNumber, revocationDate: pki.clock - 60)
      })
  }

  /// An mDL whose issuerAuth carries `signer` (the test document signer's key).
  func mdl(signedUnder signer: Certificate) throws -> IssuerSigned {
    let plain = try pki.issue(deviceKey: deviceKey.publicKey)
    let issuerAuth = try COSESign1.sign(
      payload: try #require(plain.issuerAuth.payload),
      unprotected: [COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue([signer.derBytes])],
      signer: pki.dsKey)
    return try IssuerSigned(nameSpaces: plain.nameSpaces, issuerAuth: issuerAuth)
  }

  /// The fetching setting, its clock the fixture's.
  func settings(_ policy: RevocationPolicy, urlPolicy: HTTPURLPolicy = .development)
    -> RevocationSettings
  {
    let clock = clock
    return RevocationSettings(
      policy: policy,
      fetcher: CRLFetcher(
        httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
        urlPolicy: urlPolicy, clock: { clock.now }))
  }

  func verifier(_ revocation: RevocationSettings?) throws -> DigitalCredentialVerifier {
    let clock = clock
    return DigitalCredentialVerifier(
      configuration: DigitalCredentialVerifierConfiguration(
        origin: try WebOrigin(Self.origin), protocols: [.openID4VPUnsigned],
        mdocIssuerAnchors: [pki.iaca], revocation: revocation),
      now: { clock.now })
  }

  /// A transaction on `verifier` answered with `mdl` (OpenID4VP over the DC API, dc_api.jwt).
  func present(_ mdl: IssuerSigned, to verifier: DigitalCredentialVerifier) async throws
    -> DigitalCredentialVerification
  {
    let made = try await verifier.makeTransaction(dcqlQuery: StatusFixture.mdocQuery)
    let requests = made.credentialRequestOptions["digital"]?["requests"]?.array ?? []
    let sent = try #require(requests.first)
    let origin = try WebOrigin(Self.origin)
    let request = try AuthorizationRequest(
      protocol: .unsigned, data: try #require(sent["data"]), origin: origin,
      verifierTrustAnchors: [], now: clock.now)
    let credential = MdocCredential(id: "mdl", issuerSigned: mdl)
    var presentations: [String: [CredentialPresentation]] = [:]
    for (id, candidates) in request.dcqlQuery.evaluate([credential]).defaultSelection() {
      for candidate in candidates {
        presentations[id, default: []].append(
          credential.presentation(disclosing: candidate.disclosed, deviceKey: deviceKey))
      }
    }
    let response = try request.respond(origin: origin, presentations: presentations, now: clock.now)
    return try await verifier.verify(
      transactionID: made.id,
      credential: .object([("protocol", "openid4vp-v1-unsigned"), ("data", response.data)]))
  }

  /// The revocation check of a verified answer, nil when none is reported.
  static func revocation(_ verification: DigitalCredentialVerification) -> [String]? {
    guard case .openID4VP(_, let verified) = verification else { return nil }
    for credential in verified.credentials["mdl"] ?? [] {
      for case .issuerRevocation(let unknown) in credential.report.checks { return unknown }
    }
    return nil
  }

  /// The error `body` throws; nil (and an issue recorded) when it does not throw.
  static func refusal(_ body: () async throws -> Void) async -> VerifierError? {
    do {
      try await body()
      Issue.record("no error thrown")
      return nil
    } catch let error as VerifierError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }
}

@Suite("Revocation: the DC API verifier fetches the presented chain's CRL (issue 29)")
struct RevocationFetchingTests {
  @Test(
    "a document signer its IACA's fetched CRL revokes is refused; without the setting it is not")
  func revoked() async throws {
    let fixture = try RevocationFetchFixture()
    let signer = try fixture.documentSigner(distributionPoint: fixture.crlURL)
    fixture.handler.serve(try fixture.crl(revoking: [signer]))
    let mdl = try fixture.mdl(signedUnder: signer)
    let error = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(mdl, to: try fixture.verifier(fixture.settings(.failOpen)))
    }
    #expect(error?.code == .verificationFailed)
    #expect(error?.reason.contains("is revoked") == true)
    #expect(fixture.handler.requests == 1)
    // The check is what refuses it: the same answer verifies without a revocation setting.
    let unchecked = try await fixture.present(mdl, to: try fixture.verifier(nil))
    #expect(RevocationFetchFixture.revocation(unchecked) == nil)
    // A CRL that does not list it: accepted, and the report says nothing is revoked.
    fixture.handler.serve(try fixture.crl())
    let clean = try await fixture.present(
      mdl, to: try fixture.verifier(fixture.settings(.failClosed)))
    #expect(RevocationFetchFixture.revocation(clean) == [])
  }

  @Test(
    "an unreachable distribution point: unknown — fail-open accepts and reports it, fail-closed refuses"
  )
  func unreachable() async throws {
    let fixture = try RevocationFetchFixture()
    // Port 1 on loopback: nothing listens.
    let signer = try fixture.documentSigner(distributionPoint: "http://127.0.0.1:1/crl")
    let mdl = try fixture.mdl(signedUnder: signer)
    let open = try await fixture.present(
      mdl, to: try fixture.verifier(fixture.settings(.failOpen)))
    #expect(RevocationFetchFixture.revocation(open) == [signer.subject.description])
    let error = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(mdl, to: try fixture.verifier(fixture.settings(.failClosed)))
    }
    #expect(error?.code == .verificationFailed)
    #expect(error?.reason.contains("revocation status unknown") == true)
  }

  @Test(
    "a CRL signed by another key is not used: even listing the signer, it neither revokes nor vouches"
  )
  func otherKey() async throws {
    let fixture = try RevocationFetchFixture()
    let signer = try fixture.documentSigner(distributionPoint: fixture.crlURL)
    fixture.handler.serve(
      try fixture.crl(revoking: [signer], signer: try ECPrivateKey(curve: .p256)))
    let mdl = try fixture.mdl(signedUnder: signer)
    let open = try await fixture.present(
      mdl, to: try fixture.verifier(fixture.settings(.failOpen)))
    #expect(RevocationFetchFixture.revocation(open) == [signer.subject.description])
    let error = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(mdl, to: try fixture.verifier(fixture.settings(.failClosed)))
    }
    #expect(error?.reason.contains("revocation status unknown") == true)
  }

  @Test("the fetched CRL is reused until its nextUpdate and fetched again after it")
  func cache() async throws {
    let fixture = try RevocationFetchFixture()
    let signer = try fixture.documentSigner(distributionPoint: fixture.crlURL)
    fixture.handler.serve(try fixture.crl())
    let mdl = try fixture.mdl(signedUnder: signer)
    let verifier = try fixture.verifier(fixture.settings(.failClosed))
    _ = try await fixture.present(mdl, to: verifier)
    _ = try await fixture.present(mdl, to: verifier)
    #expect(fixture.handler.requests == 1)
    // Past nextUpdate (an hour): fetched again. The server now has a CRL revoking the signer,
    // which the refreshed copy applies.
    fixture.handler.serve(try fixture.crl(revoking: [signer]))
    fixture.clock.advance(3700)
    let error = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(mdl, to: verifier)
    }
    #expect(fixture.handler.requests == 2)
    #expect(error?.reason.contains("is revoked") == true)
  }

  @Test("plain http off loopback is not fetched (URL policy): unknown, refused fail-closed")
  func urlPolicy() async throws {
    let fixture = try RevocationFetchFixture()
    let signer = try fixture.documentSigner(distributionPoint: "http://crl.example/crl")
    let mdl = try fixture.mdl(signedUnder: signer)
    let settings = fixture.settings(.failClosed)
    let error = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(mdl, to: try fixture.verifier(settings))
    }
    #expect(error?.reason.contains("revocation status unknown") == true)
    let failure = await settings.fetcher?.failures["http://crl.example/crl"]
    #expect(failure?.contains("https") == true || failure?.contains("http") == true)
    // Under the https-only policy even the loopback server is not asked.
    let loopback = try fixture.documentSigner(distributionPoint: fixture.crlURL)
    fixture.handler.serve(try fixture.crl())
    let strict = fixture.settings(.failClosed, urlPolicy: .standard)
    let refused = await RevocationFetchFixture.refusal {
      _ = try await fixture.present(
        try fixture.mdl(signedUnder: loopback), to: try fixture.verifier(strict))
    }
    #expect(refused?.code == .verificationFailed)
    #expect(fixture.handler.requests == 0)
  }
}
