public import DCHTTP
import DCJOSE
public import DCJSON
import DCOpenID4VP
import Foundation

/// Routes HTTP requests to a ``PresentationVerifier``: the one `HTTPHandler` (DCHTTP) a server
/// mounts for a redirect-flow verifier (OpenID4VP 1.0 §5.10, §8.2) and its frontend API.
///
/// - `POST /transactions` (frontend): a JSON body `{"dcql_query": {...}, "flow":
///   "same_device"|"cross_device", "client_id_prefix": "x509_san_dns"|"x509_hash"|
///   "redirect_uri"|"verifier_attestation", "response_mode": "direct_post"|"direct_post.jwt",
///   "request_uri_method": "get"|"post", "transaction_data": [...]}` (all but `dcql_query`
///   optional) → 201 `{"transaction_id", "authorization_request_uri"}`.
/// - `GET /transactions/ID[?response_code=CODE]` (frontend) → 200 `{"status": "pending"}`,
///   `{"status": "verified", "result": ...}`, `{"status": "failed", "error", "error_description"}`
///   or `{"status": "wallet_error", "error", "error_description"?}`.
/// - `GET|POST /request/RID` (wallet): the request object, `application/oauth-authz-req+jwt`.
/// - `POST /response/RID` (wallet): `direct_post(.jwt)`, answered 200 `{"redirect_uri"}` / `{}`.
///
/// Every refusal is a ``PresentationEndpointFailure`` response.
public struct PresentationVerifierHTTPHandler: HTTPHandler {
  /// The verifier the requests go to.
  public let verifier: PresentationVerifier
  /// Renders a verified response for the frontend's `result` member.
  package let render: @Sendable (VerifiedAuthorizationResponse) -> JSONValue

  /// The most bytes a `POST /transactions` body may have.
  package static let maximumCreateBodyBytes = 256 * 1024

  /// A router for `verifier`; `render` defaults to ``defaultRender(_:)``.
  public init(
    verifier: PresentationVerifier,
    render: @escaping @Sendable (VerifiedAuthorizationResponse) -> JSONValue = defaultRender
  ) {
    self.verifier = verifier
    self.render = render
  }

  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let segments = (components?.percentEncodedPath ?? "").split(separator: "/").map(String.init)
    do throws(PresentationEndpointFailure) {
      switch (segments.first, segments.count) {
      case ("transactions", 1):
        try Self.allow(request, [.post])
        return try await create(request)
      case ("transactions", 2):
        try Self.allow(request, [.get])
        let code = components?.queryItems?.first { $0.name == "response_code" }?.value
        return Self.json(
          200, resultJSON(try await verifier.result(transactionID: segments[1], responseCode: code))
        )
      case ("request", 2):
        try Self.allow(request, [.get, .post])
        return try await requestObject(request, requestID: segments[1])
      case ("response", 2):
        try Self.allow(request, [.post])
        return try await verifier.receiveResponse(requestID: segments[1], body: request.body)
          .response
      default:
        throw PresentationEndpointFailure(.notFound, "no endpoint at this path")
      }
    } catch {
      return error.response
    }
  }

  static func allow(_ request: HTTPRequest, _ methods: [HTTPMethod])
    throws(PresentationEndpointFailure)
  {
    guard methods.contains(request.method) else {
      throw PresentationEndpointFailure(
        .methodNotAllowed, "\(request.method) is not allowed here")
    }
  }

  static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
      body: body.serializedBytes())
  }

  func create(_ request: HTTPRequest) async throws(PresentationEndpointFailure) -> HTTPResponse {
    guard request.body.count <= Self.maximumCreateBodyBytes else {
      throw PresentationEndpointFailure(
        .bodyTooLarge, "the body is larger than \(Self.maximumCreateBodyBytes) bytes")
    }
    let body: JSONValue
    do {
      body = try JSONValue(parsing: request.body)
    } catch {
      throw PresentationEndpointFailure(.malformedBody, "the body is not JSON")
    }
    guard let query = body["dcql_query"] else {
      throw PresentationEndpointFailure(.malformedBody, "dcql_query is missing")
    }
    let options = try Self.transactionOptions(body)
    let created = try await verifier.createTransaction(dcqlQuery: query, options: options)
    return Self.json(
      201,
      .object([
        ("transaction_id", .string(created.transactionID)),
        ("authorization_request_uri", .string(created.authorizationRequestURI)),
      ]))
  }

  /// The transaction options a `POST /transactions` body sets: `flow`, `client_id_prefix`,
  /// `response_mode`, `request_uri_method` and `transaction_data`.
  private static func transactionOptions(_ body: JSONValue)
    throws(PresentationEndpointFailure) -> PresentationTransactionOptions
  {
    var options = PresentationTransactionOptions()
    func text(_ name: String) throws(PresentationEndpointFailure) -> String? {
      guard let value = body[name] else { return nil }
      guard let string = value.string else {
        throw PresentationEndpointFailure(.malformedBody, "\(name) must be a string")
      }
      return string
    }
    if let flow = try text("flow") {
      guard let value = PresentationFlow(rawValue: flow) else {
        throw PresentationEndpointFailure(.invalidOptions, "unknown flow \(flow)")
      }
      options.flow = value
    }
    if let prefix = try text("client_id_prefix") {
      options.clientIDPrefix = ClientIdentifier.Prefix(rawValue: prefix)
    }
    if let mode = try text("response_mode") {
      guard let value = DirectPostMode(rawValue: mode) else {
        throw PresentationEndpointFailure(.invalidOptions, "unknown response_mode \(mode)")
      }
      options.responseMode = value
    }
    if let method = try text("request_uri_method") {
      guard let value = VerifierRequestURIMethod(rawValue: method) else {
        throw PresentationEndpointFailure(.invalidOptions, "unknown request_uri_method \(method)")
      }
      options.requestURIMethod = value
    }
    if let entries = body["transaction_data"] {
      guard let list = entries.array else {
        throw PresentationEndpointFailure(.malformedBody, "transaction_data must be an array")
      }
      options.transactionData = list
    }
    return options
  }

  func requestObject(_ request: HTTPRequest, requestID: String)
    async throws(PresentationEndpointFailure) -> HTTPResponse
  {
    var metadata: JSONValue? = nil
    var nonce: String? = nil
    if request.method == .post {
      guard request.body.count <= PresentationVerifier.maximumRequestFetchBodyBytes else {
        throw PresentationEndpointFailure(
          .bodyTooLarge,
          "the body is larger than \(PresentationVerifier.maximumRequestFetchBodyBytes) bytes")
      }
      let form = try RequestURIForm(body: request.body)
      if let text = form["wallet_metadata"] {
        do {
          metadata = try JSONValue(parsing: Array(text.utf8))
        } catch {
          throw PresentationEndpointFailure(.malformedBody, "wallet_metadata is not JSON")
        }
        guard case .object = metadata else {
          throw PresentationEndpointFailure(.malformedBody, "wallet_metadata must be an object")
        }
      }
      nonce = form["wallet_nonce"]
    }
    let jwt = try await verifier.requestObject(
      requestID: requestID, method: request.method, walletMetadata: metadata, walletNonce: nonce)
    return HTTPResponse(
      status: 200,
      headers: ["Content-Type": "application/oauth-authz-req+jwt", "Cache-Control": "no-store"],
      body: Array(jwt.utf8))
  }

  func resultJSON(_ result: PresentationResult) -> JSONValue {
    switch result {
    case .pending: return .object([("status", "pending")])
    case .verified(let verified):
      return .object([("status", "verified"), ("result", render(verified))])
    case .failed(let code, let reason):
      return .object([
        ("status", "failed"), ("error", .string(code.description)),
        ("error_description", .string(reason)),
      ])
    case .walletError(let error):
      var members: [(key: String, value: JSONValue)] = [
        ("status", "wallet_error"), ("error", .string(error.error.rawValue)),
      ]
      if let description = error.errorDescription {
        members.append(("error_description", .string(description)))
      }
      return .object(members)
    }
  }

  /// The `vp_token` and, per Credential Query, each credential's format, type and claims.
  public static func defaultRender(_ verified: VerifiedAuthorizationResponse) -> JSONValue {
    .object([
      ("vp_token", verified.vpToken),
      (
        "credentials",
        .object(
          verified.credentials.sorted { $0.key < $1.key }.map { id, credentials in
            (
              id,
              .array(
                credentials.map { credential in
                  .object([
                    ("format", .string(credential.format)),
                    ("type", .string(credential.vct ?? credential.docType ?? "")),
                    (
                      "claims",
                      .array(
                        credential.claims.map {
                          .object([("path", $0.path.json), ("value", $0.value)])
                        })
                    ),
                  ])
                })
            )
          })
      ),
    ])
  }
}

extension PresentationVerifierHTTPHandler: HTTPEndpointPolicyProviding {
  /// Each endpoint's media type and origins. The frontend's `POST /transactions` takes JSON from
  /// the server's own origin only (a page elsewhere must not create transactions); the wallet's
  /// `request_uri` and `response_uri` take forms (OpenID4VP 1.0 §5.10.1, §8.2) from any origin,
  /// since a wallet may be a web page and these requests carry their own proof, not the
  /// browser's ambient credentials.
  package func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
    let segments = path.split(separator: "/")
    switch (segments.first, segments.count) {
    case ("transactions", 1): return .json
    case ("transactions", 2): return HTTPEndpointPolicy()
    case ("request", 2), ("response", 2):
      var policy = HTTPEndpointPolicy.form
      policy.crossOrigins = .any
      return policy
    default: return nil
    }
  }
}
