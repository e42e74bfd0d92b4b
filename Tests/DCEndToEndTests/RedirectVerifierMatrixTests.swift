import DCCrypto
import DCHTTP
import DCJSON
import DCOpenID4VP
import DCVerifier
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet

#if os(Linux)
  import DCHTTPServer
#endif

/// The wallet against this package's own redirect-flow verifier (`PresentationVerifier` behind
/// `PresentationVerifierHTTPHandler`): every client id prefix, both response modes, both
/// request_uri methods, SD-JWT VC and mdoc, and declined requests.
struct VerifierMatrixSetup {
  let fixture: ConsentFixture
  let wallet: Wallet
  let verifier: PresentationVerifier
  let handler: PresentationVerifierHTTPHandler

  init(baseURL: String = "https://verifier.example", dnsName: String = "verifier.example")
    async throws
  {
    fixture = try await ConsentFixture()
    wallet = try fixture.wallet()
    let now = fixture.now
    // An attestation issuer under a root the wallet trusts for verifiers.
    let rootKey = try ECPrivateKey(curve: .p256)
    let root = try CertificateBuilder.readerRoot(
      commonName: "Attester Root", publicKey: rootKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: rootKey)
    _ = try await wallet.addTrustAnchor(root, role: .verifier)
    let attesterKey = try ECPrivateKey(curve: .p256)
    let attester = try CertificateBuilder.openID4VPVerifier(
      dnsName: "attester.example", publicKey: attesterKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).issued(by: root, signer: rootKey)
    let attestedKey = try ECPrivateKey(curve: .p256)
    let attestation = try VerifierAttestationSigner.issue(
      issuer: "https://attester.example", subject: dnsName,
      confirmationKey: attestedKey.publicKey, issuerSigner: attesterKey,
      issuerChain: [attester], issuedAt: now.addingTimeInterval(-60),
      // No redirect_uris: this verifier's response_uri has a path per transaction.
      expiresAt: now.addingTimeInterval(3600), redirectURIs: nil)
    var signerKey = fixture.verifierKey
    var signerCertificate = fixture.verifierCertificate
    if dnsName != "verifier.example" {
      // A certificate for another name (localhost) under a root the wallet trusts.
      let otherRootKey = try ECPrivateKey(curve: .p256)
      let otherRoot = try CertificateBuilder.readerRoot(
        commonName: "Loopback Verifier Root", publicKey: otherRootKey.publicKey,
        notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
      ).selfSigned(signer: otherRootKey)
      _ = try await wallet.addTrustAnchor(otherRoot, role: .verifier)
      signerKey = try ECPrivateKey(curve: .p256)
      signerCertificate = try CertificateBuilder.openID4VPVerifier(
        dnsName: dnsName, publicKey: signerKey.publicKey,
        notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
      ).issued(by: otherRoot, signer: otherRootKey)
    }
    verifier = PresentationVerifier(
      configuration: PresentationVerifierConfiguration(
        baseURL: baseURL,
        x509SANDNS: .x509SANDNS(
          dnsName: dnsName, certificateChain: [signerCertificate], signer: signerKey),
        x509Hash: .x509Hash(certificateChain: [signerCertificate], signer: signerKey),
        attestation: VerifierAttestationSigner(
          attestationJWT: attestation, subject: dnsName, signer: attestedKey),
        sdJWTIssuerAnchors: [fixture.pki.iaca], mdocIssuerAnchors: [fixture.pki.iaca]),
      now: { now })
    handler = PresentationVerifierHTTPHandler(verifier: verifier)
  }

  var client: InProcessHTTPClient { InProcessHTTPClient(handler: handler) }
}

@Suite("Redirect flows (issue 16): the wallet against this package's verifier")
struct RedirectVerifierMatrixTests {
  static let prefixes: [ClientIdentifier.Prefix] = [
    .x509SANDNS, .x509Hash, .verifierAttestation, .redirectURI,
  ]

  static let queries: [(id: String, query: JSONValue)] = [
    ("pid_sdjwt", ["credentials": [ConsentFixture.pidSDJWTQuery]]),
    ("pid_mdoc", ["credentials": [ConsentFixture.pidMdocQuery]]),
  ]

  @Test(
    "each prefix, response mode and request_uri method, SD-JWT VC and mdoc: verified by the verifier",
    arguments: prefixes, [DirectPostMode.directPost, .directPostJWT])
  func matrix(prefix: ClientIdentifier.Prefix, mode: DirectPostMode) async throws {
    let setup = try await VerifierMatrixSetup()
    defer { setup.fixture.dir.remove() }
    for method in [VerifierRequestURIMethod.get, .post] {
      for (queryID, query) in Self.queries {
        let created = try await setup.verifier.createTransaction(
          dcqlQuery: query,
          options: PresentationTransactionOptions(
            clientIDPrefix: prefix, responseMode: mode, requestURIMethod: method))
        let request = try await setup.wallet.resolve(
          authorizationRequestURI: created.authorizationRequestURI, httpClient: setup.client)
        #expect(
          request.requesterAuthentication == (prefix == .redirectURI ? .absent : .trusted),
          "\(prefix) \(mode) \(method) \(queryID)")
        let outcome = try await setup.wallet.respond(
          to: request, consent: try request.proposedConsent(), httpClient: setup.client)
        #expect(outcome.redirectURI == nil, "cross-device: no redirect_uri")
        let result = try await setup.verifier.result(transactionID: created.transactionID)
        guard case .verified(let verified) = result else {
          Issue.record("\(prefix) \(mode) \(method) \(queryID): \(result)")
          continue
        }
        #expect(verified.vpToken[queryID] != nil, "\(prefix) \(mode) \(method) \(queryID)")
      }
    }
  }

  @Test(
    "same-device: the verifier's redirect_uri with its response_code is handed back, not followed")
  func sameDevice() async throws {
    let setup = try await VerifierMatrixSetup()
    defer { setup.fixture.dir.remove() }
    let created = try await setup.verifier.createTransaction(
      dcqlQuery: Self.queries[0].query,
      options: PresentationTransactionOptions(flow: .sameDevice))
    let request = try await setup.wallet.resolve(
      authorizationRequestURI: created.authorizationRequestURI, httpClient: setup.client)
    let outcome = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let redirect = try #require(outcome.redirectURI)
    let code = try #require(
      redirect.fragment?.split(separator: "&").first { $0.hasPrefix("response_code=") }?
        .dropFirst("response_code=".count))
    let result = try await setup.verifier.result(
      transactionID: created.transactionID, responseCode: String(code))
    guard case .verified = result else {
      Issue.record("\(result)")
      return
    }
  }

  @Test(
    "declined, both response modes: the verifier records access_denied",
    arguments: [
      DirectPostMode.directPost, .directPostJWT,
    ])
  func declined(mode: DirectPostMode) async throws {
    let setup = try await VerifierMatrixSetup()
    defer { setup.fixture.dir.remove() }
    let created = try await setup.verifier.createTransaction(
      dcqlQuery: Self.queries[0].query, options: PresentationTransactionOptions(responseMode: mode))
    let request = try await setup.wallet.resolve(
      authorizationRequestURI: created.authorizationRequestURI, httpClient: setup.client)
    let outcome = try await setup.wallet.decline(request, httpClient: setup.client)
    #expect(outcome.posted == .error("access_denied"))
    let result = try await setup.verifier.result(transactionID: created.transactionID)
    guard case .walletError(let error) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(error.error == .accessDenied)
  }

  #if os(Linux)
    @Test(
      "over loopback: x509_san_dns:localhost, URLSession to DevelopmentHTTPServer, POST request_uri, direct_post.jwt"
    )
    func loopback() async throws {
      let router = LoopbackRouter()
      let server = DevelopmentHTTPServer(
        handler: router,
        configuration: DevelopmentHTTPServer.Configuration(
          port: 0, connectionTimeout: 10, handlerTimeout: 10))
      let port = try server.start()
      defer { server.stop() }
      let setup = try await VerifierMatrixSetup(
        baseURL: "http://localhost:\(port)", dnsName: "localhost")
      defer { setup.fixture.dir.remove() }
      router.set(setup.handler)
      let http = URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10))
      for (queryID, query) in Self.queries {
        let created = try await setup.verifier.createTransaction(
          dcqlQuery: query,
          options: PresentationTransactionOptions(
            responseMode: .directPostJWT, requestURIMethod: .post))
        let request = try await setup.wallet.resolve(
          authorizationRequestURI: created.authorizationRequestURI, httpClient: http)
        _ = try await setup.wallet.respond(
          to: request, consent: try request.proposedConsent(), httpClient: http)
        let result = try await setup.verifier.result(transactionID: created.transactionID)
        guard case .verified = result else {
          Issue.record("\(queryID): \(result)")
          continue
        }
      }
    }
  #endif
}

/// A handler set after the server started (its port is in the verifier's base URL).
final class LoopbackRouter: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var target: (any HTTPHandler)?
  func set(_ handler: any HTTPHandler) { lock.withLock { target = handler } }
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    guard let target = lock.withLock({ target }) else { return HTTPResponse(status: 503) }
    return await target.handle(request)
  }
}
