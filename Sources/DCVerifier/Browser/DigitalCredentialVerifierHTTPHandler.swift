import DCEncoding
public import DCHTTP
public import DCJSON
import DCOpenID4VP
import Foundation

/// Routes HTTP requests to a ``DigitalCredentialVerifier``, and serves the page and the browser
/// module that drive it; every other path goes to the redirect-flow handler of the cross-device
/// fallback.
///
/// - `GET /`: the verifier page (or the page the server was given).
/// - `GET /dc-verifier.js`: the browser module (an ES module, `text/javascript`).
/// - `POST /dc-api/transactions` with `{"dcql_query": {...}}` → 201 `{"transaction_id",
///   "request": <the navigator.credentials.get argument>, "cross_device"?: {"transaction_id",
///   "uri", "qr"?}}`; `qr` is an `image/svg+xml` data URL of `uri`.
/// - `POST /dc-api/transactions/ID/response` with the `DigitalCredential` `{"protocol",
///   "data"}` → 200 `{"status": "verified", "result"}`, or 4xx `{"status": "refused" |
///   "wallet_error", "error", "error_description"}`.
/// - `GET /dc-api/transactions/ID` → 200 `{"status": "pending"}` until a wallet on another
///   device answered the cross-device link, then as the response above.
public struct DigitalCredentialVerifierHTTPHandler: HTTPHandler {
  /// The verifier the requests go to.
  package let verifier: DigitalCredentialVerifier
  /// The redirect-flow handler the other paths go to (`/transactions`, `/request`, `/response`).
  package let redirect: PresentationVerifierHTTPHandler?
  /// The HTML served at `/`.
  package let page: String
  /// Renders a verified response for the page.
  package let render: @Sendable (DigitalCredentialVerification) -> JSONValue
  /// Draws a text's QR code as SVG; nil when it cannot.
  package let qrCode: @Sendable (String) -> String?

  /// The most bytes a transaction or a response body may have.
  package static let maximumBodyBytes = 1 << 20

  /// A router for `verifier`, the cross-device paths going to `redirect`. `page` replaces the
  /// built-in verifier page at `/`; `render` words the report (default: each check by its
  /// case name); `qrCode` draws the cross-device link as SVG.
  public init(
    verifier: DigitalCredentialVerifier, redirect: PresentationVerifierHTTPHandler? = nil,
    page: String? = nil,
    render: (@Sendable (DigitalCredentialVerification) -> JSONValue)? = nil,
    qrCode: @escaping @Sendable (String) -> String? = { _ in nil }
  ) {
    self.verifier = verifier
    self.redirect = redirect
    self.page = page ?? VerifierPage.html
    self.render = render ?? { DigitalCredentialReport.json($0) { "\($0)" } }
    self.qrCode = qrCode
  }

  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let path = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath
    let segments = (path ?? "").split(separator: "/").map(String.init)
    let method = request.method
    if segments.isEmpty, method == .get {
      return Self.asset(page, type: "text/html; charset=utf-8")
    }
    if segments == ["dc-verifier.js"], method == .get {
      return Self.asset(VerifierBrowserModule.source, type: "text/javascript; charset=utf-8")
    }
    guard segments.first == "dc-api" else {
      guard let redirect, !segments.isEmpty else { return Self.notFound }
      return await redirect.handle(request)
    }
    switch (method, segments.count, segments.dropFirst().first, segments.last) {
    case (.post, 2, "transactions", _):
      return await create(request)
    case (.get, 3, "transactions", _):
      return await crossDeviceResult(transactionID: segments[2])
    case (.post, 4, "transactions", "response"):
      return await respond(request, transactionID: segments[2])
    default:
      return Self.notFound
    }
  }

  static let notFound = json(
    404, .object([("error", "not_found"), ("error_description", "no endpoint here")]))

  static func asset(_ text: String, type: String) -> HTTPResponse {
    HTTPResponse(
      status: 200,
      headers: [
        "Content-Type": type, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
      ], body: Array(text.utf8))
  }

  static func json(_ status: Int, _ body: JSONValue) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
      body: body.serializedBytes())
  }

  /// A refusal: 404 for an unknown transaction, 409 for a second response, 503 when the store
  /// is down, 400 otherwise.
  static func refusal(_ error: VerifierError) -> HTTPResponse {
    let status =
      switch error.code {
      case .unknownTransaction: 404
      case .alreadyAnswered: 409
      case .storeUnavailable: 503
      default: 400
      }
    return json(
      status,
      .object([
        ("status", error.code == .walletError ? "wallet_error" : "refused"),
        ("error", .string(error.code.description)), ("error_description", .string(error.reason)),
      ]))
  }

  /// The JSON body of a POST, at most ``maximumBodyBytes``.
  static func body(_ request: HTTPRequest) throws(VerifierError) -> JSONValue {
    guard request.body.count <= maximumBodyBytes else {
      throw VerifierError(.invalidRequest, "the body is larger than \(maximumBodyBytes) bytes")
    }
    do {
      return try JSONValue(parsing: request.body)
    } catch {
      throw VerifierError(.invalidRequest, "the body is not JSON", underlying: error)
    }
  }

  func create(_ request: HTTPRequest) async -> HTTPResponse {
    do throws(VerifierError) {
      guard let query = try Self.body(request)["dcql_query"] else {
        throw VerifierError(.invalidRequest, "dcql_query is missing")
      }
      let transaction = try await verifier.makeTransaction(dcqlQuery: query)
      var members: [(key: String, value: JSONValue)] = [
        ("transaction_id", .string(transaction.id)),
        ("request", transaction.credentialRequestOptions),
      ]
      if let fallback = transaction.crossDevice {
        var crossDevice: [(key: String, value: JSONValue)] = [
          ("transaction_id", .string(fallback.transactionID)),
          ("uri", .string(fallback.authorizationRequestURI)),
        ]
        if let svg = qrCode(fallback.authorizationRequestURI) {
          crossDevice.append(
            ("qr", .string("data:image/svg+xml;base64," + Base64.encode(Array(svg.utf8)))))
        }
        members.append(("cross_device", .object(crossDevice)))
      }
      return Self.json(201, .object(members))
    } catch {
      return Self.refusal(error)
    }
  }

  func crossDeviceResult(transactionID: String) async -> HTTPResponse {
    do throws(VerifierError) {
      guard let verified = try await verifier.crossDeviceResult(transactionID: transactionID)
      else { return Self.json(200, .object([("status", "pending")])) }
      return Self.json(200, .object([("status", "verified"), ("result", render(verified))]))
    } catch {
      return Self.refusal(error)
    }
  }

  func respond(_ request: HTTPRequest, transactionID: String) async -> HTTPResponse {
    do throws(VerifierError) {
      let verified = try await verifier.verify(
        transactionID: transactionID, credential: try Self.body(request))
      return Self.json(200, .object([("status", "verified"), ("result", render(verified))]))
    } catch {
      return Self.refusal(error)
    }
  }
}

extension DigitalCredentialVerifierHTTPHandler: HTTPEndpointPolicyProviding {
  /// Each endpoint's media type and origins: the DC API endpoints take JSON from the page's own
  /// origin only (a page elsewhere must neither start transactions nor post answers); the page
  /// and the module are plain GETs; the redirect flow's paths keep their own policy.
  package func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
    let segments = path.split(separator: "/")
    if segments.first == "dc-api" { return method == .get ? HTTPEndpointPolicy() : .json }
    if segments.isEmpty || segments == ["dc-verifier.js"] { return HTTPEndpointPolicy() }
    return redirect?.endpointPolicy(method: method, path: path)
  }
}
