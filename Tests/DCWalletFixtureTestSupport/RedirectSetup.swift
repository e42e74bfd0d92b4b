package import DCCrypto
import DCJOSE
package import DCJSON
package import DCOpenID4VCI
package import DCWallet
import Foundation
import Testing

/// A wallet and an in-process verifier for the redirect flow (issue 16): request objects served
/// at `https://verifier.example/request`, answers taken at `https://verifier.example/response`.
package struct RedirectSetup {
  package static let requestURI = "https://verifier.example/request"
  package static let responseURI = "https://verifier.example/response"
  package static let done = "https://verifier.example/done?code=7"

  package let fixture: ConsentFixture
  package let verifier: RedirectTestVerifier
  package let wallet: Wallet
  package let encryptionKey: ECPrivateKey

  package var client: InProcessHTTPClient { InProcessHTTPClient(handler: verifier) }

  /// A verifier signing with the fixture's trusted `x509_san_dns:verifier.example` chain.
  package init(
    query: JSONValue = ["credentials": [ConsentFixture.pidSDJWTQuery]],
    responseMode: String = "direct_post",
    adjust: @escaping @Sendable (inout RedirectRequestObject) -> Void = { _ in }
  ) async throws {
    fixture = try await ConsentFixture()
    wallet = try fixture.wallet()
    let encryptionKey = try ECPrivateKey(curve: .p256)
    self.encryptionKey = encryptionKey
    let key = fixture.verifierKey
    let chain = [fixture.verifierCertificate]
    let now = fixture.now
    verifier = RedirectTestVerifier(
      .init(
        requestObject: { form in
          var object = RedirectRequestObject(
            clientID: "x509_san_dns:verifier.example", responseURI: Self.responseURI,
            dcqlQuery: query, responseMode: responseMode, issuedAt: now)
          if responseMode == "direct_post.jwt" {
            object.clientMetadata = [
              "jwks": ["keys": [JWK(publicKey: encryptionKey.publicKey, kid: "enc-1").json]],
              "encrypted_response_enc_values_supported": ["A128GCM"],
            ]
          }
          adjust(&object)
          return try object.signed(key: key, chain: chain, walletNonce: form?["wallet_nonce"])
        }, answer: ["redirect_uri": .string(Self.done)]))
  }

  package func uri(clientID: String = "x509_san_dns:verifier.example", post: Bool = false) -> String
  {
    var components = URLComponents()
    components.scheme = "openid4vp"
    components.host = ""
    components.queryItems = [
      URLQueryItem(name: "client_id", value: clientID),
      URLQueryItem(name: "request_uri", value: Self.requestURI),
    ]
    if post {
      components.queryItems?.append(URLQueryItem(name: "request_uri_method", value: "post"))
    }
    return components.string ?? ""
  }

  package func resolve(_ uri: String? = nil, policy: WalletPolicy? = nil) async throws
    -> PresentationRequest
  {
    try await wallet.resolve(
      authorizationRequestURI: uri ?? self.uri(), httpClient: client, policy: policy)
  }

  /// The forms the verifier received at its response_uri.
  package var responses: [FormParameters] { verifier.responses }

  /// The refusal `body` throws.
  package func refusal(_ body: () async throws -> Void) async -> (
    code: Refusal.Code?, reason: String
  ) {
    do {
      try await body()
      Issue.record("expected a refusal")
    } catch let error as WalletError {
      return (error.refusals.first?.code, error.reason)
    } catch {
      Issue.record("expected a WalletError, got \(error)")
    }
    return (nil, "")
  }

  /// A by-value redirect_uri request for the PID.
  package static func redirectURIRequest(state: String = "s-9") -> String {
    let query = ["credentials": [ConsentFixture.pidSDJWTQuery]] as JSONValue
    // Form encoding: `+` in `dc+sd-jwt` must travel as %2B (a bare `+` is a space).
    return "openid4vp://?"
      + FormParameters([
        ("client_id", "redirect_uri:\(RedirectSetup.responseURI)"),
        ("response_type", "vp_token"), ("response_mode", "direct_post"),
        ("response_uri", RedirectSetup.responseURI), ("nonce", "nonce-by-value"),
        ("state", state), ("dcql_query", query.serialized()),
      ]).encoded
  }
}
