import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// PAR, the authorization endpoint (auto-approval and the consent page), the authorization
/// code grant with PKCE, and refresh tokens.
@Suite("Issuer authorization code flow")
struct IssuerAuthorizationTests {
  static let redirectURI = "https://wallet.example/cb"

  /// Pushes an authorization request; returns the request_uri.
  static func push(
    _ wallet: TestWallet, pkce: PKCE, state: String = "st-1", issuerState: String? = nil,
    configuration: String = "mDL", clientID: String = "wallet-1"
  ) async throws -> String {
    let request = AuthorizationRequest(
      clientID: clientID, redirectURI: redirectURI, state: state, codeChallenge: pkce.challenge,
      authorizationDetails: [
        CredentialAuthorizationDetail(credentialConfigurationID: configuration)
      ],
      issuerState: issuerState)
    let response = await wallet.send(
      wallet.fixture.request(
        .post, .pushedAuthorization,
        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: request.pushedBody))
    #expect(response.status == 201)
    return try PushedAuthorizationResponse(jsonBytes: response.body).requestURI
  }

  /// Follows the request_uri at the authorization endpoint; returns the response.
  static func authorize(_ wallet: TestWallet, requestURI: String, clientID: String = "wallet-1")
    async throws -> HTTPResponse
  {
    let url = try AuthorizationEndpointRequest.pushedURL(
      authorizationEndpoint: wallet.fixture.service.endpoints.url(.authorize),
      clientID: clientID, requestURI: requestURI)
    return await wallet.send(HTTPRequest(method: .get, url: url))
  }

  /// The full flow up to the code.
  static func code(_ wallet: TestWallet, pkce: PKCE, issuerState: String? = nil) async throws
    -> String
  {
    let requestURI = try await push(wallet, pkce: pkce, issuerState: issuerState)
    let response = try await authorize(wallet, requestURI: requestURI)
    #expect(response.status == 302)
    let location = try #require(response.headers["Location"].flatMap(URL.init(string:)))
    let parsed = try AuthorizationResponse(
      redirect: location, redirectURI: redirectURI, expectedState: "st-1",
      expectedIssuer: IssuerFixture.issuerID, issuerRequired: true)
    return parsed.code
  }

  @Test("PAR, auto-approval with code, state and iss, token with PKCE, refresh with the same key")
  func fullFlow() async throws {
    let fixture = try IssuerFixture()
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .authorizationCode)
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    let pkce = try PKCE()
    let code = try await Self.code(
      wallet, pkce: pkce, issuerState: offer.offer.authorizationCode?.issuerState)
    let response = try await wallet.obtainToken(
      TokenRequest(
        grant: .authorizationCode(
          code: code, codeVerifier: pkce.verifier, redirectURI: Self.redirectURI),
        clientID: "wallet-1"))
    #expect(response.status == 200)
    let token = try TokenResponse(jsonBytes: response.body)
    #expect(token.refreshToken != nil)
    #expect(token.authorizationDetails?.first?.credentialIdentifiers == ["mDL"])
    // The credential request must then use the credential_identifier.
    let nonce = try await wallet.cNonce()
    let key = try ECPrivateKey(curve: .p256)
    let byConfiguration = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: nonce))))
    #expect(oauthError(byConfiguration) == "invalid_credential_request")
    let byIdentifier = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialIdentifier("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce()))))
    #expect(byIdentifier.status == 200)
    // Refresh with the same DPoP key works and rotates; with another key it fails.
    let refresh = try #require(token.refreshToken)
    let refreshed = try await wallet.obtainToken(
      TokenRequest(grant: .refreshToken(refresh), clientID: "wallet-1"))
    #expect(refreshed.status == 200)
    let rotated = try #require(wallet.refreshToken)
    #expect(rotated != refresh)
    let reused = try await wallet.tokenRequest(
      TokenRequest(grant: .refreshToken(refresh), clientID: "wallet-1"))
    #expect(oauthError(reused) == "invalid_grant")
    wallet.dpopKey = try ECPrivateKey(curve: .p256)
    let otherKey = try await wallet.obtainToken(
      TokenRequest(grant: .refreshToken(rotated), clientID: "wallet-1"))
    #expect(oauthError(otherKey) == "invalid_grant")
  }

  @Test("PKCE mismatch, wrong redirect_uri, another client, and a reused code are invalid_grant")
  func codeChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    await wallet.primeDPoPNonce()
    let pkce = try PKCE()
    func exchange(
      _ code: String, verifier: String, redirect: String = Self.redirectURI,
      client: String = "wallet-1"
    )
      async throws -> HTTPResponse
    {
      try await wallet.tokenRequest(
        TokenRequest(
          grant: .authorizationCode(code: code, codeVerifier: verifier, redirectURI: redirect),
          clientID: client))
    }
    let mismatch = try await exchange(
      try await Self.code(wallet, pkce: pkce), verifier: try PKCE().verifier)
    #expect(oauthError(mismatch) == "invalid_grant")
    let redirect = try await exchange(
      try await Self.code(wallet, pkce: pkce), verifier: pkce.verifier,
      redirect: "https://attacker.example/cb")
    #expect(oauthError(redirect) == "invalid_grant")
    let client = try await exchange(
      try await Self.code(wallet, pkce: pkce), verifier: pkce.verifier, client: "other")
    #expect(oauthError(client) == "invalid_grant")
    let code = try await Self.code(wallet, pkce: pkce)
    #expect(try await exchange(code, verifier: pkce.verifier).status == 200)
    let reused = try await exchange(code, verifier: pkce.verifier)
    #expect(oauthError(reused) == "invalid_grant")
    // An expired code.
    let late = try await Self.code(wallet, pkce: pkce)
    fixture.clock.advance(121)
    await wallet.primeDPoPNonce()
    #expect(oauthError(try await exchange(late, verifier: pkce.verifier)) == "invalid_grant")
  }

  @Test("A request_uri is used once, by its client; an unknown issuer_state is refused")
  func pushedRequestChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    let pkce = try PKCE()
    let requestURI = try await Self.push(wallet, pkce: pkce)
    let otherClient = try await Self.authorize(wallet, requestURI: requestURI, clientID: "evil")
    #expect(otherClient.status == 400)
    #expect(oauthError(otherClient) == "invalid_request")
    let again = try await Self.authorize(wallet, requestURI: requestURI)
    #expect(oauthError(again) == "invalid_request")
    let request = AuthorizationRequest(
      clientID: "wallet-1", redirectURI: Self.redirectURI, state: "s",
      codeChallenge: pkce.challenge,
      authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "mDL")],
      issuerState: "made-up")
    let unknownState = await wallet.send(
      fixture.request(.post, .pushedAuthorization, body: request.pushedBody))
    #expect(oauthError(unknownState) == "invalid_request")
    let unknownConfiguration = AuthorizationRequest(
      clientID: "wallet-1", redirectURI: Self.redirectURI, state: "s",
      codeChallenge: pkce.challenge,
      authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "nope")])
    let refused = await wallet.send(
      fixture.request(.post, .pushedAuthorization, body: unknownConfiguration.pushedBody))
    #expect(oauthError(refused) == "invalid_authorization_details")
    // Requiring PAR refuses a plain authorization request.
    let strict = try IssuerFixture { $0.requirePushedAuthorizationRequests = true }
    let plain = AuthorizationRequest(
      clientID: "wallet-1", redirectURI: Self.redirectURI, state: "s",
      codeChallenge: pkce.challenge,
      scope: ["x"])
    let url = try plain.url(authorizationEndpoint: strict.service.endpoints.url(.authorize))
    let direct = await strict.handler.handle(HTTPRequest(method: .get, url: url))
    #expect(oauthError(direct) == "invalid_request")
  }

  @Test(
    "The consent page shows escaped names; approve redirects with a code, deny with access_denied")
  func consentPage() async throws {
    let fixture = try IssuerFixture {
      $0.autoApprove = false
      $0.credentials[0].display = [CredentialDisplay(name: "<script>x</script>")]
    }
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    let pkce = try PKCE()
    let page = try await Self.authorize(wallet, requestURI: try await Self.push(wallet, pkce: pkce))
    #expect(page.status == 200)
    #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(html.contains("&lt;script&gt;x&lt;/script&gt;"))
    #expect(!html.contains("<script>"))
    func consentID(_ html: String) throws -> String {
      let marker = "name=\"consent_id\" value=\""
      let start = try #require(html.range(of: marker)).upperBound
      return String(html[start...].prefix { $0 != "\"" })
    }
    let approve = await wallet.send(
      fixture.request(
        .post, .authorize, body: Array("consent_id=\(try consentID(html))&decision=approve".utf8)))
    #expect(approve.status == 303)
    let location = try #require(approve.headers["Location"].flatMap(URL.init(string:)))
    _ = try AuthorizationResponse(
      redirect: location, redirectURI: Self.redirectURI, expectedState: "st-1",
      expectedIssuer: IssuerFixture.issuerID, issuerRequired: true)
    // The same consent cannot be given twice.
    let twice = await wallet.send(
      fixture.request(
        .post, .authorize, body: Array("consent_id=\(try consentID(html))&decision=approve".utf8)))
    #expect(oauthError(twice) == "invalid_request")
    let second = try await Self.authorize(
      wallet, requestURI: try await Self.push(wallet, pkce: pkce))
    let deny = await wallet.send(
      fixture.request(
        .post, .authorize,
        body: Array(
          "consent_id=\(try consentID(String(decoding: second.body, as: UTF8.self)))&decision=deny"
            .utf8)))
    #expect(deny.status == 303)
    let denied = try #require(deny.headers["Location"])
    #expect(denied.contains("error=access_denied"))
    #expect(denied.contains("state=st-1"))
  }
}
