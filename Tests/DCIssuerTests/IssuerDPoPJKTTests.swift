import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// `dpop_jkt` (RFC 9449 §10): the authorization request names the DPoP key the code is to be
/// redeemed with; the issuer keeps it with the code and refuses a token request by another key.
@Suite("Issuer dpop_jkt binding")
struct IssuerDPoPJKTTests {
  static let redirectURI = IssuerAuthorizationTests.redirectURI

  static func request(_ pkce: PKCE, jkt: String?) -> AuthorizationRequest {
    AuthorizationRequest(
      clientID: "wallet-1", redirectURI: redirectURI, state: "st-1",
      codeChallenge: pkce.challenge,
      authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "mDL")],
      dpopJKT: jkt)
  }

  static func code(from response: HTTPResponse) throws -> String {
    #expect(response.status == 302)
    let location = try #require(response.headers["Location"].flatMap(URL.init(string:)))
    return try AuthorizationResponse(
      redirect: location, redirectURI: redirectURI, expectedState: "st-1",
      expectedIssuer: IssuerFixture.issuerID, issuerRequired: true
    ).code
  }

  static func tokenBody(_ code: String, _ pkce: PKCE) -> TokenRequest {
    TokenRequest(
      grant: .authorizationCode(code: code, codeVerifier: pkce.verifier, redirectURI: redirectURI),
      clientID: "wallet-1")
  }

  static func thumbprint(_ key: ECPrivateKey) -> String {
    JWK(publicKey: key.publicKey).thumbprintBase64URL
  }

  @Test("dpop_jkt in the authorization URL binds the code: another DPoP key is refused")
  func plainRequest() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    await wallet.primeDPoPNonce()
    func boundCode(_ pkce: PKCE) async throws -> String {
      let url = try Self.request(pkce, jkt: Self.thumbprint(wallet.dpopKey))
        .url(authorizationEndpoint: fixture.service.endpoints.url(.authorize))
      return try Self.code(from: await wallet.send(HTTPRequest(method: .get, url: url)))
    }
    let pkce = try PKCE()
    let other = try ECPrivateKey(curve: .p256)
    let refused = try await wallet.tokenRequest(
      Self.tokenBody(try await boundCode(pkce), pkce), proof: try wallet.dpop(.token, key: other))
    #expect(refused.status == 400)
    #expect(oauthError(refused) == "invalid_dpop_proof")
    let second = try PKCE()
    let accepted = try await wallet.tokenRequest(
      Self.tokenBody(try await boundCode(second), second))
    #expect(accepted.status == 200)
  }

  @Test("dpop_jkt at PAR without a DPoP header binds the code; with one, the two must agree")
  func pushedRequest() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    await wallet.primeDPoPNonce()
    func push(_ pkce: PKCE, jkt: String, proof: String? = nil) async -> HTTPResponse {
      var headers: HTTPFields = ["Content-Type": "application/x-www-form-urlencoded"]
      if let proof { headers["DPoP"] = proof }
      return await wallet.send(
        fixture.request(
          .post, .pushedAuthorization, headers: headers,
          body: Self.request(pkce, jkt: jkt).pushedBody))
    }
    // Without a DPoP proof at PAR, dpop_jkt alone binds the code.
    let pkce = try PKCE()
    let pushed = await push(pkce, jkt: Self.thumbprint(wallet.dpopKey))
    #expect(pushed.status == 201)
    let requestURI = try PushedAuthorizationResponse(jsonBytes: pushed.body).requestURI
    let code = try Self.code(
      from: try await IssuerAuthorizationTests.authorize(wallet, requestURI: requestURI))
    let other = try ECPrivateKey(curve: .p256)
    let refused = try await wallet.tokenRequest(
      Self.tokenBody(code, pkce), proof: try wallet.dpop(.token, key: other))
    #expect(oauthError(refused) == "invalid_dpop_proof")

    // A DPoP proof by one key and dpop_jkt naming another: refused at PAR (§10.1).
    let mismatch = await push(
      try PKCE(), jkt: Self.thumbprint(other), proof: try wallet.dpop(.pushedAuthorization))
    #expect(mismatch.status == 400)
    #expect(oauthError(mismatch) == "invalid_dpop_proof")
    let agreeing = await push(
      try PKCE(), jkt: Self.thumbprint(wallet.dpopKey),
      proof: try wallet.dpop(.pushedAuthorization))
    #expect(agreeing.status == 201)
  }

  @Test("dpop_jkt survives a round trip through the request parameters")
  func roundTrip() throws {
    let pkce = try PKCE()
    let request = Self.request(pkce, jkt: "abc")
    #expect(try AuthorizationRequest(parameters: request.parameters) == request)
    #expect(request.parameters["dpop_jkt"] == "abc")
  }
}
