import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import Foundation

// MARK: - OpenID4VCI issuer handlers (issue 13)

/// One issuer for every input: a fixed clock, an in-memory store, one mdoc configuration.
private let fuzzIssuer: CredentialIssuerService? = {
  guard let key = try? ECPrivateKey(curve: .p256),
    let identifier = try? IssuerIdentifier("http://127.0.0.1:8080", policy: .development)
  else { return nil }
  let configuration = IssuerConfiguration(
    credentialIssuer: identifier,
    credentials: [
      IssuableCredential(
        id: "mDL",
        content: .mdoc(
          doctype: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [("family_name", "Mustermann")])]))
    ],
    batchSize: 3, signer: key, certificateChain: [],
    deferred: DeferredIssuanceSettings(configurationIDs: ["mDL"]))
  return CredentialIssuerService(
    configuration: configuration, store: InMemoryIssuerStateStore(),
    clock: { Date(timeIntervalSince1970: 1_780_000_000) })
}()

/// The issuer's handlers on hostile requests (token and PAR forms, credential, deferred and
/// notification JSON, DPoP proofs and key proofs inside them, the authorization endpoint's
/// query and consent form). The first byte picks the endpoint; the rest is the body, a `DPoP`
/// header and an `Authorization` header, separated by NUL bytes. Every answer must be a status
/// in 200...599, and every refusal but the HTML page's an OAuth error object with an `error`
/// string.
@Sendable func fuzzVCIIssuer(_ bytes: [UInt8]) {
  guard let service = fuzzIssuer, let selector = bytes.first else { return }
  let parts = bytes.dropFirst().split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
  let body = Array(parts.first ?? [])
  var headers: HTTPFields = [:]
  if parts.count > 1, let proof = String(validating: Array(parts[1]), as: UTF8.self) {
    headers["DPoP"] = proof
  }
  if parts.count > 2, let authorization = String(validating: Array(parts[2]), as: UTF8.self) {
    headers["Authorization"] = authorization
  }
  let endpoints: [IssuerEndpoints.Endpoint] = [
    .token, .pushedAuthorization, .credential, .deferredCredential, .notification, .authorize,
    .authorize, .nonce,
  ]
  let index = Int(selector) % endpoints.count
  let endpoint = endpoints[index]
  var url = service.endpoints.url(endpoint)
  if index == 6, let query = String(validating: body, as: UTF8.self),
    let withQuery = URL(string: url.absoluteString + "?" + query)
  {
    url = withQuery
  }
  let request = HTTPRequest(
    method: index == 6 ? .get : .post, url: url, headers: headers, body: body)
  let response: HTTPResponse
  switch endpoint {
  case .token: response = service.handleToken(request)
  case .pushedAuthorization: response = service.handlePushedAuthorization(request)
  case .credential: response = service.handleCredential(request)
  case .deferredCredential: response = service.handleDeferredCredential(request)
  case .notification: response = service.handleNotification(request)
  case .authorize: response = service.handleAuthorize(request)
  default: response = service.handleNonce(request)
  }
  guard (200...599).contains(response.status) else {
    violated("status \(response.status)")
  }
  if response.status >= 400 {
    guard (try? JSONValue(parsing: response.body))?["error"]?.string != nil else {
      violated("a refusal without an OAuth error object")
    }
  }
}
