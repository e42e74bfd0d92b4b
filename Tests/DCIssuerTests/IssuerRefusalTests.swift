import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// The remaining refusals of the issuer's handlers, one case each.
@Suite("Issuer refusals")
struct IssuerRefusalTests {
  static let redirectURI = IssuerAuthorizationTests.redirectURI

  @Test("Pre-authorized authorization_details may only narrow the offer")
  func preAuthorizedDetails() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture)
    await wallet.primeDPoPNonce()
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let code = try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode)
    let wider = try await wallet.tokenRequest(
      TokenRequest(
        grant: .preAuthorizedCode(code: code, txCode: nil),
        authorizationDetails: [
          CredentialAuthorizationDetail(credentialConfigurationID: "pid-sd-jwt")
        ]))
    #expect(oauthError(wider) == "invalid_authorization_details")
    let narrow = try await wallet.tokenRequest(
      TokenRequest(
        grant: .preAuthorizedCode(code: code, txCode: nil),
        authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "mDL")]))
    #expect(narrow.status == 200)
    #expect(
      try TokenResponse(jsonBytes: narrow.body).authorizationDetails?.first?
        .credentialIdentifiers == ["mDL"])
  }

  @Test("A code pushed with a DPoP proof is redeemed with that key only (RFC 9449 §10)")
  func codeBoundAtPAR() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    await wallet.primeDPoPNonce()
    let pkce = try PKCE()
    func boundCode() async throws -> String {
      let request = AuthorizationRequest(
        clientID: "wallet-1", redirectURI: Self.redirectURI, state: "st-1",
        codeChallenge: pkce.challenge,
        authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "mDL")])
      let pushed = await wallet.send(
        fixture.request(
          .post, .pushedAuthorization, headers: ["DPoP": try wallet.dpop(.pushedAuthorization)],
          body: request.pushedBody))
      #expect(pushed.status == 201)
      let requestURI = try PushedAuthorizationResponse(jsonBytes: pushed.body).requestURI
      let response = try await IssuerAuthorizationTests.authorize(wallet, requestURI: requestURI)
      let location = try #require(response.headers["Location"].flatMap(URL.init(string:)))
      return try AuthorizationResponse(
        redirect: location, redirectURI: Self.redirectURI, expectedState: "st-1",
        expectedIssuer: IssuerFixture.issuerID, issuerRequired: true
      ).code
    }
    let body = { (code: String) in
      TokenRequest(
        grant: .authorizationCode(
          code: code, codeVerifier: pkce.verifier, redirectURI: Self.redirectURI),
        clientID: "wallet-1")
    }
    let stolen = try await boundCode()
    let otherKey = try await wallet.tokenRequest(
      body(stolen), proof: try wallet.dpop(.token, key: try ECPrivateKey(curve: .p256)))
    #expect(oauthError(otherKey) == "invalid_dpop_proof")
    #expect(try await wallet.tokenRequest(body(try await boundCode())).status == 200)
  }

  @Test("A refresh token is refused to another client")
  func refreshOtherClient() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    let pkce = try PKCE()
    let code = try await IssuerAuthorizationTests.code(wallet, pkce: pkce)
    _ = try await wallet.obtainToken(
      TokenRequest(
        grant: .authorizationCode(
          code: code, codeVerifier: pkce.verifier, redirectURI: Self.redirectURI),
        clientID: "wallet-1"))
    let refresh = try #require(wallet.refreshToken)
    let other = try await wallet.tokenRequest(
      TokenRequest(grant: .refreshToken(refresh), clientID: "wallet-2"))
    #expect(oauthError(other) == "invalid_grant")
  }

  @Test("A client attestation without its PoP is invalid_client")
  func attestationWithoutPoP() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture)
    await wallet.primeDPoPNonce()
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let response = try await wallet.tokenRequest(
      TokenRequest(
        grant: .preAuthorizedCode(
          code: try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode), txCode: nil)),
      headers: [ClientAttestation.headerName: "a.b.c"])
    #expect(response.status == 401)
    #expect(oauthError(response) == "invalid_client")
  }

  @Test("Authorization requests: bad redirect_uri, no known scope, issuer_state of another offer")
  func authorizationRequests() async throws {
    let fixture = try IssuerFixture {
      $0.credentials[0].scope = "mdl"
    }
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    let pkce = try PKCE()
    func push(_ request: AuthorizationRequest) async -> HTTPResponse {
      await wallet.send(fixture.request(.post, .pushedAuthorization, body: request.pushedBody))
    }
    func request(
      redirect: String = Self.redirectURI, scope: [String]? = nil, configuration: String? = "mDL",
      issuerState: String? = nil
    ) -> AuthorizationRequest {
      AuthorizationRequest(
        clientID: "wallet-1", redirectURI: redirect, state: "s", codeChallenge: pkce.challenge,
        scope: scope,
        authorizationDetails: configuration.map {
          [CredentialAuthorizationDetail(credentialConfigurationID: $0)]
        }, issuerState: issuerState)
    }
    for redirect in ["javascript:alert(1)", "https://wallet.example/cb#frag", "relative/path"] {
      let refused = await push(request(redirect: redirect))
      #expect(oauthError(refused) == "invalid_request", "\(redirect)")
    }
    let unknownScope = await push(request(scope: ["nothing"], configuration: nil))
    #expect(oauthError(unknownScope) == "invalid_scope")
    let byScope = await push(request(scope: ["mdl"], configuration: nil))
    #expect(byScope.status == 201)
    let offer = try fixture.service.createOffer(
      configurationIDs: ["pid-sd-jwt"], grant: .authorizationCode)
    let otherOffer = await push(
      request(issuerState: offer.offer.authorizationCode?.issuerState))
    #expect(oauthError(otherOffer) == "invalid_request")
  }

  @Test("Protected endpoints: a malformed Authorization header; DPoP scheme with a bearer token")
  func authorizationHeaders() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    var headers: HTTPFields = ["Authorization": "DPoP"]
    headers["DPoP"] = try wallet.dpop(.credential, accessToken: wallet.accessToken)
    let malformed = await wallet.send(
      fixture.request(.post, .credential, headers: headers, body: Array("{}".utf8)))
    #expect(malformed.status == 401)
    #expect(oauthError(malformed) == "invalid_token")

    let bearerIssuer = try IssuerFixture {
      $0.requireDPoP = false
      $0.dpopNonces = .none
    }
    let bearerWallet = try TestWallet(bearerIssuer)
    let offer = try bearerIssuer.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let token = await bearerWallet.send(
      bearerIssuer.request(
        .post, .token,
        body: TokenRequest(
          grant: .preAuthorizedCode(
            code: try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode), txCode: nil)
        ).body))
    bearerWallet.accessToken = try TokenResponse(jsonBytes: token.body).accessToken
    let wrongScheme = try await bearerWallet.protected(.credential, body: [:], scheme: "DPoP")
    #expect(oauthError(wrongScheme) == "invalid_token")
    #expect(wrongScheme.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
  }

  @Test("Credential requests: compressed encryption and attestation proofs are refused")
  func unsupportedRequestParts() async throws {
    let fixture = try IssuerFixture {
      $0.responseEncryption = ResponseEncryptionPolicy(required: false)
    }
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    let key = try ECPrivateKey(curve: .p256)
    let encryptionKey = try ECPrivateKey(curve: .p256)
    let zipped = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce())),
        credentialResponseEncryption: CredentialResponseEncryption(
          jwk: JWK(publicKey: encryptionKey.publicKey, alg: "ECDH-ES"), enc: .a128gcm, zip: "DEF")
      ))
    #expect(oauthError(zipped) == "invalid_encryption_parameters")
    let attestationProof = try await wallet.credentialRequest(
      CredentialRequest(target: .credentialConfigurationID("mDL"), proofs: .attestation("a.b.c")))
    #expect(oauthError(attestationProof) == "invalid_proof")
  }
}
