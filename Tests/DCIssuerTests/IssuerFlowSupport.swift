import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// A minimal wallet driving the issuer's handlers directly: a DPoP key, the server's latest
/// DPoP nonce, and the requests of each flow, built with the OpenID4VCI message types.
final class TestWallet: @unchecked Sendable {
  /// The instance the wallet talks to; a multi-instance test switches it between requests.
  var fixture: IssuerFixture
  var dpopKey: ECPrivateKey
  var dpopNonce: String?
  var accessToken: String?
  var refreshToken: String?
  let clientID: String?

  init(_ fixture: IssuerFixture, clientID: String? = nil) throws {
    self.fixture = fixture
    self.clientID = clientID
    dpopKey = try ECPrivateKey(curve: .p256)
  }

  var handler: IssuerHTTPHandler { fixture.handler }
  var issuer: String { IssuerFixture.issuerID }
  var now: Date { fixture.clock.now }

  /// A DPoP proof for `endpoint` with the current nonce.
  func dpop(
    _ endpoint: IssuerEndpoints.Endpoint, method: String = "POST", key: ECPrivateKey? = nil,
    nonce: String?? = .none, accessToken: String? = nil
  ) throws -> String {
    try DPoP.proof(
      signer: key ?? dpopKey, method: method,
      uri: fixture.service.endpoints.url(endpoint).absoluteString, issuedAt: now,
      nonce: nonce ?? dpopNonce, accessToken: accessToken)
  }

  /// Sends a request; remembers a `DPoP-Nonce` the answer carries.
  @discardableResult
  func send(_ request: HTTPRequest) async -> HTTPResponse {
    let response = await handler.handle(request)
    if let nonce = response.headers["DPoP-Nonce"] { dpopNonce = nonce }
    return response
  }

  /// A token request with a DPoP proof (no retry).
  func tokenRequest(_ body: TokenRequest, headers extra: HTTPFields = [:], proof: String? = nil)
    async throws -> HTTPResponse
  {
    var headers: HTTPFields = ["Content-Type": "application/x-www-form-urlencoded"]
    headers["DPoP"] = try proof ?? dpop(.token)
    for field in extra { headers[field.name] = field.value }
    return await send(fixture.request(.post, .token, headers: headers, body: body.body))
  }

  /// A token request, retried once with the server's nonce (RFC 9449 §8); stores the tokens.
  func obtainToken(_ body: TokenRequest, headers: HTTPFields = [:]) async throws -> HTTPResponse {
    var response = try await tokenRequest(body, headers: headers)
    if response.status == 400, oauthError(response) == "use_dpop_nonce" {
      response = try await tokenRequest(body, headers: headers)
    }
    if response.status == 200 {
      let token = try TokenResponse(jsonBytes: response.body)
      accessToken = token.accessToken
      refreshToken = token.refreshToken
    }
    return response
  }

  /// The pre-authorized code flow up to the access token.
  func preAuthorized(_ offer: CreatedOffer, txCode: String? = nil) async throws -> HTTPResponse {
    let code = try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode)
    return try await obtainToken(
      TokenRequest(
        grant: .preAuthorizedCode(code: code, txCode: txCode ?? offer.transactionCode),
        clientID: clientID))
  }

  /// Gets a DPoP nonce from the nonce endpoint's `DPoP-Nonce` header (§7.2).
  func primeDPoPNonce() async {
    await send(fixture.request(.post, .nonce))
  }

  /// A fresh c_nonce.
  func cNonce() async throws -> String {
    let response = await send(fixture.request(.post, .nonce))
    #expect(response.status == 200)
    return try NonceResponse(jsonBytes: response.body).cNonce
  }

  /// Key proofs for `keys`.
  func proofs(_ keys: [ECPrivateKey], nonce: String?, audience: String? = nil) throws -> [String] {
    try keys.map {
      try KeyProof.proof(
        signer: $0, credentialIssuer: audience ?? issuer, nonce: nonce, clientID: clientID,
        issuedAt: now)
    }
  }

  /// A request to a protected endpoint with the access token and a DPoP proof with `ath`.
  func protected(
    _ endpoint: IssuerEndpoints.Endpoint, body: JSONValue, key: ECPrivateKey? = nil,
    scheme: String = "DPoP", token: String? = nil, withProof: Bool = true
  ) async throws -> HTTPResponse {
    let token = token ?? accessToken ?? ""
    var headers: HTTPFields = [
      "Content-Type": "application/json", "Authorization": "\(scheme) \(token)",
    ]
    if withProof { headers["DPoP"] = try dpop(endpoint, key: key, accessToken: token) }
    return await send(
      fixture.request(.post, endpoint, headers: headers, body: body.serializedBytes()))
  }

  /// A credential request, retried once with the server's DPoP nonce.
  func credentialRequest(_ request: CredentialRequest, key: ECPrivateKey? = nil) async throws
    -> HTTPResponse
  {
    var response = try await protected(.credential, body: request.json, key: key)
    if response.status == 401,
      response.headers["WWW-Authenticate"]?.contains("use_dpop_nonce") == true
    {
      response = try await protected(.credential, body: request.json, key: key)
    }
    return response
  }

  /// `count` fresh device keys, their proofs with a fresh c_nonce, and the credential request.
  func requestCredentials(_ configurationID: String, count: Int = 1) async throws -> (
    [ECPrivateKey], HTTPResponse
  ) {
    let keys = try (0..<count).map { _ in try ECPrivateKey(curve: .p256) }
    let nonce = try await cNonce()
    let response = try await credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID(configurationID),
        proofs: .jwt(try proofs(keys, nonce: nonce))))
    return (keys, response)
  }
}
