package import DCCrypto
import DCEncoding
package import DCHTTP
import DCJOSE
package import DCJSON
package import DCOpenID4VCI
package import DCX509
package import Foundation

/// A verifier for the redirect flow tests, as an in-process `HTTPHandler`: it serves one request
/// object at `/request` (GET, or POST reading `wallet_nonce`) and accepts answers at `/response`,
/// recording every exchange. Switches make it misbehave for the negative tests.
package final class RedirectTestVerifier: HTTPHandler, @unchecked Sendable {
  /// How a request object is made for a fetch: the POSTed form (nil for GET) in, the body out.
  package typealias RequestObject = @Sendable (_ form: FormParameters?) throws -> String

  package struct Settings {
    package var requestObject: RequestObject
    package var contentType = "application/oauth-authz-req+jwt"
    package var requestStatus = 200
    package var responseStatus = 200
    package var answer: JSONValue = .object([])
    /// Bytes served instead of the request object, when set.
    package var rawRequestObject: [UInt8]? = nil
    /// Bytes answered at `/response` instead of `answer`, when set.
    package var rawAnswer: [UInt8]? = nil

    package init(requestObject: @escaping RequestObject, answer: JSONValue = .object([])) {
      self.requestObject = requestObject
      self.answer = answer
    }
  }

  private let lock = NSLock()
  private var _settings: Settings
  private var _received: [HTTPRequest] = []

  package init(_ settings: Settings) { _settings = settings }

  package var settings: Settings {
    get { lock.withLock { _settings } }
    set { lock.withLock { _settings = newValue } }
  }

  /// Every request received, in order.
  package var received: [HTTPRequest] { lock.withLock { _received } }

  /// The forms posted to `/response`.
  package var responses: [FormParameters] {
    received.filter { $0.url.path == "/response" }.compactMap { try? FormParameters(body: $0.body) }
  }

  package func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let settings = lock.withLock {
      _received.append(request)
      return _settings
    }
    switch request.url.path {
    case "/request":
      let form = request.method == .post ? try? FormParameters(body: request.body) : nil
      guard let object = try? settings.requestObject(form) else {
        return HTTPResponse(status: 500)
      }
      return HTTPResponse(
        status: settings.requestStatus, headers: ["Content-Type": settings.contentType],
        body: settings.rawRequestObject ?? Array(object.utf8))
    case "/response":
      return HTTPResponse(
        status: settings.responseStatus, headers: ["Content-Type": "application/json"],
        body: settings.rawAnswer ?? settings.answer.serializedBytes())
    default:
      return HTTPResponse(status: 404)
    }
  }
}

/// Request objects signed the way OpenID4VP 1.0 §5 asks (typ `oauth-authz-req+jwt`, `aud`
/// `https://self-issued.me/v2`, `iat`/`exp`), with knobs for the negative tests.
package struct RedirectRequestObject {
  package var clientID: String
  package var responseURI: String
  package var dcqlQuery: JSONValue
  package var responseMode: String
  package var nonce: String
  package var state: String?
  package var audience: String?
  package var issuedAt: Date
  package var lifetime: TimeInterval
  package var clientMetadata: JSONValue?
  package var extra: [(String, JSONValue)]

  package init(
    clientID: String, responseURI: String, dcqlQuery: JSONValue,
    responseMode: String = "direct_post", nonce: String = "n-0S6_WzA2Mj",
    state: String? = "state-1", audience: String? = "https://self-issued.me/v2", issuedAt: Date,
    lifetime: TimeInterval = 300, clientMetadata: JSONValue? = nil,
    extra: [(String, JSONValue)] = []
  ) {
    self.clientID = clientID
    self.responseURI = responseURI
    self.dcqlQuery = dcqlQuery
    self.responseMode = responseMode
    self.nonce = nonce
    self.state = state
    self.audience = audience
    self.issuedAt = issuedAt
    self.lifetime = lifetime
    self.clientMetadata = clientMetadata
    self.extra = extra
  }

  /// The claims, with `wallet_nonce` when given.
  package func payload(walletNonce: String?) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("client_id", .string(clientID)), ("response_type", "vp_token"),
      ("response_mode", .string(responseMode)), ("response_uri", .string(responseURI)),
      ("nonce", .string(nonce)), ("dcql_query", dcqlQuery),
      ("iat", .integer(Int64(issuedAt.timeIntervalSince1970))),
      ("exp", .integer(Int64(issuedAt.timeIntervalSince1970 + lifetime))),
    ]
    if let state { members.append(("state", .string(state))) }
    if let audience { members.append(("aud", .string(audience))) }
    if let clientMetadata { members.append(("client_metadata", clientMetadata)) }
    if let walletNonce { members.append(("wallet_nonce", .string(walletNonce))) }
    members += extra.map { (key: $0.0, value: $0.1) }
    return .object(members)
  }

  /// Signed with `key`, the chain in `x5c`.
  package func signed(
    key: ECPrivateKey, chain: [Certificate], walletNonce: String?,
    header: [(String, JSONValue)] = []
  )
    throws -> String
  {
    var members: [(key: String, value: JSONValue)] = [
      ("typ", "oauth-authz-req+jwt"), ("x5c", JWS.x5c(chain.map(\.derBytes))),
    ]
    members += header.map { (key: $0.0, value: $0.1) }
    return try JWS.sign(
      payload: payload(walletNonce: walletNonce).serializedBytes(),
      protectedHeader: .object(members), signer: key)
  }

  /// Unsigned (`alg` `none`), as the `redirect_uri` prefix sends it by reference.
  package func unsigned(walletNonce: String?) -> String {
    let header = Base64URL.encode(Array(#"{"alg":"none","typ":"oauth-authz-req+jwt"}"#.utf8))
    return header + "." + Base64URL.encode(payload(walletNonce: walletNonce).serializedBytes())
      + "."
  }
}
