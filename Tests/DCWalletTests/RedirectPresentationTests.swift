import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VP
import DCQL
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet

/// The JSON payload of a compact JWS or JWT.
func jwtPayload(_ compact: some StringProtocol) throws -> JSONValue {
  let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
  guard parts.count == 3 else { throw WalletError(.invalidInput, "not a JWT") }
  return try JSONValue(parsing: try Base64URL.decode(String(parts[1])))
}

@Suite("Redirect flows (issue 16): a wallet answers openid4vp:// URIs and posts to response_uri")
struct RedirectPresentationTests {
  /// The verifier serves an `x509_san_dns:verifier.example` request object signed by a key
  /// whose chain reaches no trusted anchor.
  static func serveStrangerSignedRequest(_ setup: RedirectSetup) {
    let key = setup.fixture.strangerKey
    let chain = [setup.fixture.strangerCertificate]
    let now = setup.fixture.now
    setup.verifier.settings.requestObject = { _ in
      try RedirectRequestObject(
        clientID: "x509_san_dns:verifier.example", responseURI: RedirectSetup.responseURI,
        dcqlQuery: ["credentials": [ConsentFixture.pidSDJWTQuery]], issuedAt: now
      ).signed(key: key, chain: chain, walletNonce: nil)
    }
  }

  @Test(
    "x509_san_dns, GET, direct_post, SD-JWT VC: KB-JWT aud is the client_id, state echoed, redirect_uri handed back and not followed"
  )
  func sdJWTDirectPost() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    #expect(request.origin == nil)
    #expect(request.protocolIdentifier == PresentationRequest.redirectProtocolIdentifier)
    #expect(request.requester == .verified(name: "x509_san_dns:verifier.example", origin: nil))
    #expect(request.requesterAuthentication == .trusted)
    #expect(request.requesterCertificates.first == setup.fixture.verifierCertificate)
    #expect(request.requested.clientID == "x509_san_dns:verifier.example")
    let outcome = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    #expect(outcome.redirectURI?.absoluteString == RedirectSetup.done)
    #expect(outcome.posted == .presentation)
    // One GET for the request object, one POST of the answer; the redirect_uri never fetched.
    #expect(
      setup.verifier.received.map { "\($0.method) \($0.url.path)" } == [
        "GET /request", "POST /response",
      ])
    let form = try #require(setup.responses.first)
    #expect(form["state"] == "state-1")
    let token = try JSONValue(parsing: try #require(form["vp_token"]))
    let presentation = try #require(token["pid_sdjwt"]?[0]?.string)
    let kbJWT = try #require(
      presentation.split(separator: "~", omittingEmptySubsequences: false).last)
    let kb = try jwtPayload(kbJWT)
    #expect(kb["aud"] == "x509_san_dns:verifier.example")
    #expect(kb["nonce"] == "n-0S6_WzA2Mj")
    let log = try await setup.wallet.activity(limit: 1)
    #expect(log.first?.outcome == .shared)
    #expect(log.first?.relyingParty == "x509_san_dns:verifier.example")
    #expect(log.first?.origin == nil)
    #expect(log.first?.protocolIdentifier == PresentationRequest.redirectProtocolIdentifier)
  }

  @Test(
    "request_uri_method=post sends wallet_metadata and a fresh wallet_nonce, which the request object must echo"
  )
  func walletNonce() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve(setup.uri(post: true))
    let fetch = try #require(setup.verifier.received.first)
    #expect(fetch.method == .post)
    let form = try FormParameters(body: fetch.body)
    #expect(form["wallet_nonce"]?.isEmpty == false)
    let metadata = try JSONValue(parsing: try #require(form["wallet_metadata"]))
    #expect(metadata["vp_formats_supported"] != nil)
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    // A second fetch sends another nonce.
    _ = try await setup.resolve(setup.uri(post: true))
    let second = try FormParameters(body: try #require(setup.verifier.received.last).body)
    #expect(second["wallet_nonce"] != form["wallet_nonce"])
  }

  @Test("a request object whose wallet_nonce differs from the one sent is refused, nothing posted")
  func walletNonceMismatch() async throws {
    let setup = try await RedirectSetup { $0.extra = [("wallet_nonce", "not-the-one")] }
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve(setup.uri(post: true)) }
    #expect(refused.code == .invalidRequest)
    #expect(refused.reason.contains("wallet_nonce"))
  }

  @Test(
    "direct_post.jwt with an mdoc: the answer is one JWE to the verifier's key holding vp_token and state"
  )
  func mdocDirectPostJWT() async throws {
    let setup = try await RedirectSetup(
      query: ["credentials": [ConsentFixture.pidMdocQuery]], responseMode: "direct_post.jwt")
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    let outcome = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    #expect(outcome.redirectURI != nil)
    let form = try #require(setup.responses.first)
    #expect(form.parameters.map(\.name) == ["response"])
    let jwe = try CompactJWE(try #require(form["response"]))
    let payload = try JSONValue(parsing: try jwe.decrypt(with: setup.encryptionKey))
    #expect(payload["state"] == "state-1")
    #expect(payload["vp_token"]?["pid_mdoc"]?[0]?.string?.isEmpty == false)
  }

  @Test("x509_hash: the client identifier is the leaf's SHA-256")
  func x509Hash() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let hash = Base64URL.encode(SHA256.hash(data: setup.fixture.verifierCertificate.derBytes))
    let key = setup.fixture.verifierKey
    let chain = [setup.fixture.verifierCertificate]
    let now = setup.fixture.now
    setup.verifier.settings.requestObject = { form in
      try RedirectRequestObject(
        clientID: "x509_hash:\(hash)", responseURI: RedirectSetup.responseURI,
        dcqlQuery: ["credentials": [ConsentFixture.pidSDJWTQuery]], issuedAt: now
      ).signed(key: key, chain: chain, walletNonce: nil)
    }
    let request = try await setup.resolve(setup.uri(clientID: "x509_hash:\(hash)"))
    #expect(request.requester.verifiedName == "x509_hash:\(hash)")
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let token = try JSONValue(parsing: try #require(setup.responses.first?["vp_token"]))
    let presentation = try #require(token["pid_sdjwt"]?[0]?.string)
    let kb = try jwtPayload(
      try #require(presentation.split(separator: "~", omittingEmptySubsequences: false).last))
    #expect(kb["aud"] == .string("x509_hash:\(hash)"))
  }

  /// A Verifier Attestation JWT for `verifier.example` binding `cnfKey`, signed by an attester
  /// whose root the wallet trusts when `trusted`.
  static func attestation(
    _ setup: RedirectSetup, cnfKey: ECPublicKey, trusted: Bool
  ) async throws -> String {
    let now = setup.fixture.now
    let rootKey = try ECPrivateKey(curve: .p256)
    let root = try CertificateBuilder.readerRoot(
      commonName: "Attester Root", publicKey: rootKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: rootKey)
    let attesterKey = try ECPrivateKey(curve: .p256)
    let attester = try CertificateBuilder.openID4VPVerifier(
      dnsName: "attester.example", publicKey: attesterKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).issued(by: root, signer: rootKey)
    if trusted { _ = try await setup.wallet.addTrustAnchor(root, role: .verifier) }
    let claims: JSONValue = .object([
      ("iss", "https://attester.example"), ("sub", "verifier.example"),
      ("iat", .integer(Int64(now.timeIntervalSince1970) - 10)),
      ("exp", .integer(Int64(now.timeIntervalSince1970) + 3600)),
      ("cnf", .object([("jwk", JWK(publicKey: cnfKey).json)])),
      ("redirect_uris", [.string(RedirectSetup.responseURI)]),
    ])
    return try JWS.sign(
      payload: claims.serializedBytes(),
      protectedHeader: .object([
        ("typ", "verifier-attestation+jwt"), ("x5c", JWS.x5c([attester.derBytes])),
      ]), signer: attesterKey)
  }

  /// Serves a request object for `verifier_attestation:verifier.example` signed with a key the
  /// attestation binds.
  static func serveAttested(_ setup: RedirectSetup, trusted: Bool) async throws {
    let key = try ECPrivateKey(curve: .p256)
    let attestation = try await Self.attestation(setup, cnfKey: key.publicKey, trusted: trusted)
    let now = setup.fixture.now
    setup.verifier.settings.requestObject = { _ in
      let payload = RedirectRequestObject(
        clientID: "verifier_attestation:verifier.example",
        responseURI: RedirectSetup.responseURI,
        dcqlQuery: ["credentials": [ConsentFixture.pidSDJWTQuery]], issuedAt: now
      ).payload(walletNonce: nil)
      return try JWS.sign(
        payload: payload.serializedBytes(),
        protectedHeader: .object([("typ", "oauth-authz-req+jwt"), ("jwt", .string(attestation))]),
        signer: key)
    }
  }

  @Test(
    "verifier_attestation: a trusted attestation's cnf key signs the request; KB-JWT aud is the client_id"
  )
  func verifierAttestation() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    try await Self.serveAttested(setup, trusted: true)
    let clientID = "verifier_attestation:verifier.example"
    let request = try await setup.resolve(setup.uri(clientID: clientID))
    #expect(request.requester.verifiedName == clientID)
    #expect(request.requesterAuthentication == .trusted)
    #expect(request.requesterCertificates.isEmpty == false)
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let token = try JSONValue(parsing: try #require(setup.responses.first?["vp_token"]))
    let presentation = try #require(token["pid_sdjwt"]?[0]?.string)
    let kb = try jwtPayload(
      try #require(presentation.split(separator: "~", omittingEmptySubsequences: false).last))
    #expect(kb["aud"] == .string(clientID))
  }

  @Test("an attestation from an untrusted issuer is refused, and nothing is posted")
  func untrustedAttestation() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    try await Self.serveAttested(setup, trusted: false)
    let refused = await setup.refusal {
      _ = try await setup.resolve(setup.uri(clientID: "verifier_attestation:verifier.example"))
    }
    #expect(refused.code == .requesterNotAuthenticated)
    // verifier_attestation names no response_uri of its own: no error response either.
    #expect(setup.verifier.received.map(\.url.path) == ["/request"])
  }

  @Test("a signed request object under the redirect_uri prefix is refused")
  func redirectURISigned() async throws {
    let setup = try await RedirectSetup {
      $0.clientID = "redirect_uri:\(RedirectSetup.responseURI)"
    }
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal {
      _ = try await setup.resolve(setup.uri(clientID: "redirect_uri:\(RedirectSetup.responseURI)"))
    }
    #expect(refused.code == .invalidRequest)
    #expect(
      setup.verifier.received.contains {
        $0.url.path == "/response" && $0.body.contains(Array("vp_token".utf8))
      } == false)
  }

  @Test("redirect_uri by value: an unauthenticated requester, answered at its own URI")
  func redirectURIPrefix() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve(RedirectSetup.redirectURIRequest())
    #expect(request.requester == .unverified(origin: nil))
    #expect(request.requesterAuthentication == .absent)
    #expect(request.requesterCertificates.isEmpty)
    #expect(request.relyingParty == "redirect_uri:\(RedirectSetup.responseURI)")
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    // Nothing fetched: the parameters were in the URI.
    #expect(setup.verifier.received.map(\.url.path) == ["/response"])
    #expect(setup.responses.first?["state"] == "s-9")
    let log = try await setup.wallet.activity(limit: 1)
    #expect(log.first?.relyingParty == "redirect_uri:\(RedirectSetup.responseURI)")
  }

  @Test(
    "requireAuthenticatedRequester refuses a redirect_uri request and posts nothing to it"
  )
  func redirectURIRefusedByPolicy() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal {
      _ = try await setup.resolve(
        RedirectSetup.redirectURIRequest(),
        policy: WalletPolicy(requireAuthenticatedRequester: true))
    }
    #expect(refused.code == .requesterNotAuthenticated)
    // The untrusted party learns neither that the wallet exists nor what it decided.
    #expect(setup.verifier.received.isEmpty)
    // Without the policy the same request is answered at its URI.
    _ = try await setup.resolve(RedirectSetup.redirectURIRequest())
    // A trusted x509_san_dns verifier is answered under the policy.
    _ = try await setup.resolve(policy: WalletPolicy(requireAuthenticatedRequester: true))
  }

  @Test("requireAuthenticatedRequester: a request failing its checks gets no error posted either")
  func failedRequestUnderPolicyPostsNothing() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    Self.serveStrangerSignedRequest(setup)
    let refused = await setup.refusal {
      _ = try await setup.resolve(policy: WalletPolicy(requireAuthenticatedRequester: true))
    }
    #expect(refused.code == .requesterNotAuthenticated, "\(refused.reason)")
    #expect(setup.verifier.received.map(\.url.path) == ["/request"])
  }

  @Test("the holder declines: access_denied with state is posted, the redirect_uri handed back")
  func decline() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    let outcome = try await setup.wallet.decline(
      request, reason: "no thanks", httpClient: setup.client)
    #expect(outcome.posted == .error("access_denied"))
    #expect(outcome.redirectURI?.absoluteString == RedirectSetup.done)
    let form = try #require(setup.responses.first)
    #expect(form["error"] == "access_denied")
    #expect(form["error_description"] == "no thanks")
    #expect(form["state"] == "state-1")
    #expect(form["vp_token"] == nil)
    let log = try await setup.wallet.activity(limit: 1)
    #expect(log.first?.outcome == .refused)
  }

  @Test("a verifier that does not accept the answer: respond throws transport and logs no share")
  func answerNotAccepted() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    setup.verifier.settings.responseStatus = 400
    setup.verifier.settings.answer = ["error": "invalid_request"]
    let consent = try request.proposedConsent()
    let error = await #expect(throws: WalletError.self) {
      _ = try await setup.wallet.respond(to: request, consent: consent, httpClient: setup.client)
    }
    #expect(error?.code == .transport)
    let log = try await setup.wallet.activity(limit: 1)
    #expect(log.first?.outcome == .refused)
  }

  @Test(
    "no stored credential satisfies the query: refused, and the verified verifier learns access_denied"
  )
  func noMatch() async throws {
    let setup = try await RedirectSetup(query: [
      "credentials": [
        [
          "id": "other", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:other"]],
        ]
      ]
    ])
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code == .noMatchingCredential)
    #expect(setup.responses.first?["error"] == "access_denied")
    #expect(setup.responses.first?["state"] == "state-1")
  }

  @Test("a suspended credential is not presented: refused with credentialSuspended")
  func statusRefusal() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    try await setup.wallet.store.setLastKnownStatus(
      CredentialStatusRecord(
        outcome: .suspended, checkedAt: setup.fixture.now.addingTimeInterval(-60),
        freshUntil: setup.fixture.now.addingTimeInterval(3600)),
      forCredential: "pid-sdjwt")
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code == .credentialSuspended)
  }

  @Test("an untrusted chain is refused; the error goes to the x509_san_dns host it names")
  func untrustedChain() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    Self.serveStrangerSignedRequest(setup)
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code == .requesterNotAuthenticated)
    let form = try #require(setup.responses.first)
    #expect(form["error"] != nil)
    #expect(form["vp_token"] == nil)
  }

  @Test(
    "a response_uri on another host than the x509_san_dns name is refused, and nothing is posted there"
  )
  func responseURIHostMismatch() async throws {
    let setup = try await RedirectSetup { $0.responseURI = "https://elsewhere.example/response" }
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code != nil)
    #expect(setup.verifier.received.map(\.url.path) == ["/request"])
  }

  @Test("a request object with another aud is refused")
  func wrongAudience() async throws {
    let setup = try await RedirectSetup { $0.audience = "https://someone-else.example" }
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.reason.contains("aud"))
  }

  @Test("the URI's client_id must be the request object's")
  func clientIDMismatch() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal {
      _ = try await setup.resolve(setup.uri(clientID: "x509_san_dns:other.example"))
    }
    #expect(refused.reason.contains("client_id"))
  }

  @Test("a request object served as another media type is not read")
  func wrongMediaType() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    setup.verifier.settings.contentType = "text/plain"
    let error = await #expect(throws: WalletError.self) { _ = try await setup.resolve() }
    #expect(error?.code == .transport)
  }

  @Test("the policy's allowedProtocols can turn redirect requests off")
  func protocolNotAllowed() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal {
      _ = try await setup.resolve(
        policy: WalletPolicy(allowedProtocols: ["openid4vp-v1-signed"]))
    }
    #expect(refused.code == .protocolNotAllowed)
    #expect(setup.verifier.received.isEmpty)
  }
}
