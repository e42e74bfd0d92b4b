import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCQL
import DCX509
import Foundation
import Testing

/// Request objects and by-value requests of the redirect-based flows, one test per check
/// (OpenID4VP 1.0 §5, §5.8, §5.9.3, §5.10.1, §8.2).
struct RedirectRequestTests {
  func refusal(_ body: () throws -> Void) -> OpenID4VPError? { openID4VPError(body) }

  // MARK: accepted, per prefix

  @Test func x509SANDNSWithPostAndWalletNonce() throws {
    let f = try RedirectFixture()
    let request = try f.read(
      try f.signed(f.parameters(walletNonce: "wn-1")), walletNonce: "wn-1")
    guard case .certificate(let clientID, let leaf, let chain) = request.verifier else {
      Issue.record("expected a certificate verifier")
      return
    }
    #expect(clientID.rawValue == RedirectFixture.clientID)
    #expect(leaf == f.base.verifierCertificate)
    #expect(chain.anchor == f.base.verifierRoot)
    #expect(request.isSigned)
    #expect(request.verifier.isAuthenticated)
    #expect(request.responseMode == .directPostJWT)
    #expect(request.responseURI.absoluteString == RedirectFixture.responseURI)
    #expect(request.state == "st-42")
    #expect(request.nonce == "n-0S6_WzA2Mj")
    #expect(request.responseEncryption?.key.kid == "enc-1")
    #expect(request.dcqlQuery.credentials.map(\.id) == ["pid", "mdl"])
  }

  @Test func x509HashByGet() throws {
    let f = try RedirectFixture()
    let hash = Base64URL.encode(SHA256.hash(data: f.base.verifierCertificate.derBytes))
    let clientID = "x509_hash:" + hash
    let request = try f.read(
      try f.signed(f.parameters(clientID: clientID, mode: "direct_post")), clientID: clientID)
    #expect(request.clientID.prefix == .x509Hash)
    #expect(request.responseMode == .directPost)
    #expect(request.responseEncryption == nil)
  }

  @Test func verifierAttestation() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let request = try f.read(
      try f.attested(f.parameters(clientID: clientID), attestation: f.attestation()),
      clientID: clientID)
    guard case .attestation(let attestation) = request.verifier else {
      Issue.record("expected an attestation verifier")
      return
    }
    #expect(attestation.subject == "verifier.example")
    #expect(attestation.issuer == "https://attester.example")
    #expect(attestation.trustedChain.leaf == f.attesterCertificate)
    #expect(attestation.redirectURIs == [RedirectFixture.responseURI])
    // Without redirect_uris any response_uri the request names is used.
    _ = try f.read(
      try f.attested(
        f.parameters(clientID: clientID, responseURI: "https://other.example/r"),
        attestation: f.attestation(redirectURIs: nil)), clientID: clientID)
  }

  @Test func redirectURIByValue() throws {
    let f = try RedirectFixture()
    let uri = try AuthorizationRequestURI(
      "openid4vp://?"
        + RedirectFixture.form(
          try byValueFields(
            f, clientID: "redirect_uri:https://rp.example/cb",
            responseURI: "https://rp.example/cb")))
    let request = try RedirectAuthorizationRequest(
      uri: uri, requestObject: nil, verifierTrustAnchors: [f.base.verifierRoot],
      walletNonce: nil, now: f.now)
    #expect(
      request.verifier == .redirectURI(ClientIdentifier("redirect_uri:https://rp.example/cb")))
    #expect(!request.verifier.isAuthenticated)
    #expect(!request.isSigned)
    #expect(request.responseMode == .directPost)
  }

  @Test func requestObjectByValueInTheURI() throws {
    let f = try RedirectFixture()
    let object = try f.signed(f.parameters())
    let uri = try AuthorizationRequestURI(
      "haip-vp://?"
        + RedirectFixture.form([("client_id", RedirectFixture.clientID), ("request", object)]))
    let request = try RedirectAuthorizationRequest(
      uri: uri, requestObject: nil, verifierTrustAnchors: [f.base.verifierRoot],
      walletNonce: nil, now: f.now)
    #expect(request.isSigned)
  }

  @Test("x509_san_dns:localhost answers at localhost; 127.0.0.1 and [::1] only as an opt-in")
  func localhostVerifierOnLoopback() throws {
    let f = try RedirectFixture()
    let key = try ECPrivateKey(curve: .p256)
    let certificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "localhost", publicKey: key.publicKey, notBefore: f.now.addingTimeInterval(-60),
      notAfter: f.now.addingTimeInterval(3600)
    ).issued(by: f.base.verifierRoot, signer: f.base.verifierRootKey)
    func read(_ responseURI: String, policy: RedirectRequestPolicy = .standard) throws
      -> RedirectAuthorizationRequest
    {
      try f.read(
        try f.signed(
          f.parameters(clientID: "x509_san_dns:localhost", responseURI: responseURI), key: key,
          chain: [certificate]), clientID: "x509_san_dns:localhost", policy: policy)
    }
    #expect(
      try read("http://localhost:8080/response").responseURI.absoluteString
        == "http://localhost:8080/response")
    // §5.9.3: the response_uri host is the DNS name exactly; loopback addresses are other hosts.
    let aliases = RedirectRequestPolicy(allowsLoopbackAliases: true)
    #expect(!RedirectRequestPolicy.standard.allowsLoopbackAliases)
    for responseURI in ["http://127.0.0.1:8080/response", "http://[::1]:8080/response"] {
      let error = refusal { _ = try read(responseURI) }
      #expect(error?.code == .invalidRequest)
      #expect(error?.reason.contains("is not the client identifier's DNS name") == true)
      #expect(try read(responseURI, policy: aliases).responseURI.absoluteString == responseURI)
    }
  }

  func byValueFields(_ f: RedirectFixture, clientID: String, responseURI: String) throws
    -> [(String, String)]
  {
    [
      ("client_id", clientID), ("response_type", "vp_token"), ("response_mode", "direct_post"),
      ("response_uri", responseURI), ("nonce", "n-1"), ("state", "s"),
      ("dcql_query", Fixture.query.serialized()),
    ]
  }

  // MARK: refused, one per check

  @Test func wrongTypIsRefused() throws {
    let f = try RedirectFixture()
    let error = refusal { _ = try f.read(try f.signed(f.parameters(), typ: "JWT")) }
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.reason.contains("typ") == true)
  }

  @Test func wrongAudienceIsRefused() throws {
    let f = try RedirectFixture()
    let object = try f.signed(f.parameters(set: [("aud", "https://wallet.example")]))
    let error = refusal { _ = try f.read(object) }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("aud") == true)
    #expect(refusal { _ = try f.read(try f.signed(f.parameters(remove: ["aud"]))) } != nil)
    // The wallet's own issuer identifier is accepted (§5.8 dynamic discovery).
    _ = try f.read(object, walletIssuer: "https://wallet.example")
  }

  @Test func expiredRequestObjectIsRefused() throws {
    let f = try RedirectFixture()
    let past = Int64(f.now.timeIntervalSince1970) - 61
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(set: [("exp", .integer(past))])))
    }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("expired") == true)
    // Within the skew it is still read.
    let recent = Int64(f.now.timeIntervalSince1970) - 30
    _ = try f.read(try f.signed(f.parameters(set: [("exp", .integer(recent))])))
  }

  @Test func missingExpAndIatAreRefused() throws {
    let f = try RedirectFixture()
    let noExp = refusal { _ = try f.read(try f.signed(f.parameters(remove: ["exp"]))) }
    #expect(noExp?.code == .invalidRequest)
    #expect(noExp?.reason.contains("no exp") == true)
    let noIat = refusal { _ = try f.read(try f.signed(f.parameters(remove: ["iat"]))) }
    #expect(noIat?.code == .invalidRequest)
    #expect(noIat?.reason.contains("no iat") == true)
  }

  @Test("A request object issued in the future (beyond the clock skew) is refused")
  func futureIssuedAtIsRefused() throws {
    let f = try RedirectFixture()
    let now = Int64(f.now.timeIntervalSince1970)
    // Issued two minutes ahead (skew 60 s), valid for three more: only the iat check stops it.
    let early = refusal {
      _ = try f.read(
        try f.signed(
          f.parameters(set: [("iat", .integer(now + 120)), ("exp", .integer(now + 300))])))
    }
    #expect(early?.code == .invalidRequest)
    #expect(early?.reason.contains("issued in the future") == true)
    // Within the skew it is read.
    _ = try f.read(
      try f.signed(f.parameters(set: [("iat", .integer(now + 30)), ("exp", .integer(now + 300))])))
  }

  @Test("A request object's age and lifetime are bounded: five and ten minutes by default")
  func requestObjectAgeAndLifetimeAreBounded() throws {
    let f = try RedirectFixture()
    let now = Int64(f.now.timeIntervalSince1970)
    let decade: Int64 = 10 * 365 * 86_400
    func read(iat: Int64, exp: Int64, policy: RedirectRequestPolicy = .standard) throws {
      _ = try f.read(
        try f.signed(f.parameters(set: [("iat", .integer(iat)), ("exp", .integer(exp))])),
        policy: policy)
    }
    // Issued ten years ago, expiring in ten: neither bound holds.
    let ancient = refusal { try read(iat: now - decade, exp: now + decade) }
    #expect(ancient?.code == .invalidRequest)
    #expect(ancient?.reason.contains("issued") == true)
    // Too old (over 300 s plus the 60 s skew), though its lifetime is short.
    let stale = refusal { try read(iat: now - 400, exp: now + 100) }
    #expect(stale?.code == .invalidRequest)
    #expect(stale?.reason.contains("ago") == true)
    // Fresh, but claiming an hour of validity (over 600 s).
    let long = refusal { try read(iat: now - 10, exp: now + 3600) }
    #expect(long?.code == .invalidRequest)
    #expect(long?.reason.contains("valid for 3610 s") == true)
    // At the bounds it is read; a policy may widen them.
    try read(iat: now - 300, exp: now + 300)
    try read(
      iat: now - 3600, exp: now + 3600,
      policy: RedirectRequestPolicy(maximumAge: 3600, maximumLifetime: 7200))
    // Hostile times far outside any range are refused, not trapped on.
    #expect(refusal { try read(iat: Int64.min / 2, exp: now + 10) }?.code == .invalidRequest)
  }

  @Test func mismatchedClientIDIsRefused() throws {
    let f = try RedirectFixture()
    let object = try f.signed(f.parameters(clientID: "x509_san_dns:other.example"))
    let error = refusal { _ = try f.read(object) }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("differs from") == true)
  }

  @Test func redirectURIPrefixWithASignedRequestIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "redirect_uri:" + RedirectFixture.responseURI
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(clientID: clientID)), clientID: clientID)
    }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("cannot send a signed request") == true)
  }

  @Test func redirectURIResponseURIMustBeTheClientID() throws {
    let f = try RedirectFixture()
    let uri = try AuthorizationRequestURI(
      "openid4vp://?"
        + RedirectFixture.form(
          try byValueFields(
            f, clientID: "redirect_uri:https://rp.example/cb",
            responseURI: "https://rp.example/other")))
    let error = refusal {
      _ = try RedirectAuthorizationRequest(
        uri: uri, requestObject: nil, verifierTrustAnchors: [], walletNonce: nil, now: f.now)
    }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("differs from the redirect_uri client identifier") == true)
  }

  @Test func x509PrefixesMustBeSigned() throws {
    let f = try RedirectFixture()
    let uri = try AuthorizationRequestURI(
      "openid4vp://?"
        + RedirectFixture.form(
          try byValueFields(
            f, clientID: RedirectFixture.clientID,
            responseURI: RedirectFixture.responseURI)))
    let error = refusal {
      _ = try RedirectAuthorizationRequest(
        uri: uri, requestObject: nil, verifierTrustAnchors: [f.base.verifierRoot],
        walletNonce: nil, now: f.now)
    }
    #expect(error?.reason.contains("must be signed") == true)
  }

  @Test func untrustedAttestationIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let error = refusal {
      _ = try f.read(
        try f.attested(f.parameters(clientID: clientID), attestation: f.attestation(rogue: true)),
        clientID: clientID)
    }
    #expect(error?.code == .untrustedVerifier)
    #expect(error?.reason.contains("verifier attestation issuer") == true)
  }

  @Test func expiredAttestationIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let expired = refusal {
      _ = try f.read(
        try f.attested(
          f.parameters(clientID: clientID), attestation: f.attestation(expiresIn: -120)),
        clientID: clientID)
    }
    #expect(expired?.code == .untrustedVerifier)
    #expect(expired?.reason.contains("expired") == true)
    let noExp = refusal {
      _ = try f.read(
        try f.attested(
          f.parameters(clientID: clientID), attestation: f.attestation(withoutExp: true)),
        clientID: clientID)
    }
    #expect(noExp?.reason.contains("has no exp") == true)
  }

  @Test func attestationForAnotherVerifierOrTypeIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let sub = refusal {
      _ = try f.read(
        try f.attested(
          f.parameters(clientID: clientID), attestation: f.attestation(subject: "x.example")),
        clientID: clientID)
    }
    #expect(sub?.reason.contains("sub") == true)
    let typ = refusal {
      _ = try f.read(
        try f.attested(f.parameters(clientID: clientID), attestation: f.attestation(typ: "JWT")),
        clientID: clientID)
    }
    #expect(typ?.reason.contains("typ") == true)
    let missing = refusal {
      _ = try f.read(try f.signed(f.parameters(clientID: clientID)), clientID: clientID)
    }
    #expect(missing?.reason.contains("jwt header") == true)
  }

  @Test func attestationCnfKeyMustSignTheRequest() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let other = try ECPrivateKey(curve: .p256)
    let error = refusal {
      _ = try f.read(
        try f.attested(f.parameters(clientID: clientID), attestation: f.attestation(), key: other),
        clientID: clientID)
    }
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.reason.contains("cnf key") == true)
  }

  @Test func responseURIOutsideTheAttestationRedirectURIsIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "verifier_attestation:verifier.example"
    let error = refusal {
      _ = try f.read(
        try f.attested(
          f.parameters(clientID: clientID, responseURI: "https://verifier.example/elsewhere"),
          attestation: f.attestation()), clientID: clientID)
    }
    #expect(error?.reason.contains("redirect_uris") == true)
  }

  @Test func walletNonceMissingOrDifferentIsRefused() throws {
    let f = try RedirectFixture()
    let missing = refusal { _ = try f.read(try f.signed(f.parameters()), walletNonce: "wn-1") }
    #expect(missing?.code == .invalidRequest)
    #expect(missing?.reason.contains("no wallet_nonce") == true)
    let different = refusal {
      _ = try f.read(try f.signed(f.parameters(walletNonce: "wn-2")), walletNonce: "wn-1")
    }
    #expect(different?.reason.contains("not the one the wallet sent") == true)
  }

  @Test("An unsecured request object (redirect_uri) fetched by POST must echo the wallet_nonce")
  func unsecuredRequestObjectMustEchoWalletNonce() throws {
    let f = try RedirectFixture()
    let clientID = "redirect_uri:" + RedirectFixture.responseURI
    // §5.10.1: whatever the request object's security, a POSTed wallet_nonce is echoed.
    func unsecured(_ walletNonce: String?) -> String {
      let header = Base64URL.encode(Array(#"{"alg":"none","typ":"oauth-authz-req+jwt"}"#.utf8))
      let payload = f.parameters(clientID: clientID, mode: "direct_post", walletNonce: walletNonce)
      return header + "." + Base64URL.encode(payload.serializedBytes()) + "."
    }
    let read = try f.read(unsecured("wn-1"), clientID: clientID, walletNonce: "wn-1")
    #expect(!read.isSigned)
    #expect(read.verifier == .redirectURI(ClientIdentifier(clientID)))
    for sent in [nil, "wn-2"] {
      let error = refusal {
        _ = try f.read(unsecured(sent), clientID: clientID, walletNonce: "wn-1")
      }
      #expect(error?.code == .invalidRequest)
      #expect(error?.reason.contains("wallet_nonce is not the one the wallet sent") == true)
    }
  }

  @Test func responseURIHostMustBeTheDNSName() throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(responseURI: "https://evil.example/response")))
    }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("is not the client identifier's DNS name") == true)
    // A non-localhost verifier does not get loopback either.
    #expect(
      refusal {
        _ = try f.read(try f.signed(f.parameters(responseURI: "http://127.0.0.1:9/response")))
      } != nil)
  }

  @Test func x509HashMismatchIsRefused() throws {
    let f = try RedirectFixture()
    let clientID = "x509_hash:" + Base64URL.encode([UInt8](repeating: 7, count: 32))
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(clientID: clientID)), clientID: clientID)
    }
    #expect(error?.code == .untrustedVerifier)
  }

  @Test(arguments: [
    "decentralized_identifier:did:example:123", "openid_federation:https://rp.example",
    "pre-registered-client",
  ])
  func unsupportedPrefixIsRefused(clientID: String) throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(clientID: clientID)), clientID: clientID)
    }
    #expect(error?.code == .unsupportedClientIDPrefix)
    let name = ClientIdentifier(clientID).prefix?.rawValue ?? "pre-registered"
    #expect(error?.reason.contains(name) == true)
  }

  @Test func httpResponseURIOffLoopbackIsRefused() throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(responseURI: "http://verifier.example/response")))
    }
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("response_uri: plain http") == true)
  }

  @Test func redirectURIBesideResponseURIIsRefused() throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(
        try f.signed(f.parameters(set: [("redirect_uri", "https://verifier.example/cb")])))
    }
    #expect(error?.reason.contains("redirect_uri must not be present") == true)
  }

  @Test func responseModeAndResponseURIAreRequired() throws {
    let f = try RedirectFixture()
    let dcAPI = refusal { _ = try f.read(try f.signed(f.parameters(mode: "dc_api"))) }
    #expect(dcAPI?.code == .unsupportedResponseMode)
    let none = refusal { _ = try f.read(try f.signed(f.parameters(remove: ["response_mode"]))) }
    #expect(none?.code == .unsupportedResponseMode)
    let noURI = refusal { _ = try f.read(try f.signed(f.parameters(remove: ["response_uri"]))) }
    #expect(noURI?.reason.contains("needs a response_uri") == true)
    let type = refusal {
      _ = try f.read(try f.signed(f.parameters(set: [("response_type", "code")])))
    }
    #expect(type?.reason.contains("response_type") == true)
    let nonce = refusal { _ = try f.read(try f.signed(f.parameters(remove: ["nonce"]))) }
    #expect(nonce?.reason.contains("nonce") == true)
    let state = refusal { _ = try f.read(try f.signed(f.parameters(set: [("state", 5)]))) }
    #expect(state?.reason.contains("state must be a string") == true)
  }

  @Test func directPostJWTNeedsAnEncryptionKey() throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(try f.signed(f.parameters(set: [("client_metadata", .object([]))])))
    }
    #expect(error?.code == .noEncryptionKey)
  }

  @Test func untrustedSigningChainIsRefused() throws {
    let f = try RedirectFixture()
    let error = refusal {
      _ = try f.read(
        try f.signed(f.parameters(), key: f.base.rogueKey, chain: [f.base.rogueCertificate]))
    }
    #expect(error?.code == .untrustedVerifier)
  }

  @Test func byReferenceNeedsTheFetchedObjectAndCapsIt() throws {
    let f = try RedirectFixture()
    let uri = try f.referenceURI()
    let missing = refusal {
      _ = try RedirectAuthorizationRequest(
        uri: uri, requestObject: nil, verifierTrustAnchors: [f.base.verifierRoot],
        walletNonce: nil, now: f.now)
    }
    #expect(missing?.reason.contains("request object from request_uri") == true)
    let huge = String(
      repeating: "a", count: RedirectAuthorizationRequest.maximumRequestObjectLength + 1)
    let oversized = refusal { _ = try f.read(huge) }
    #expect(oversized?.code == .malformed)
    #expect(oversized?.reason.contains("longer than") == true)
  }
}
