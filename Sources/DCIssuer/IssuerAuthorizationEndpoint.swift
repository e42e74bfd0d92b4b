public import DCHTTP
import DCJSON
import DCOpenID4VCI
import Foundation

/// An authorization request the server accepted and holds until the user decides (or a PAR
/// `request_uri` is used).
struct PendingAuthorizationState {
  /// The request's parameters, form-encoded.
  var request: String
  /// The configurations it asks for.
  var configurationIDs: [String]
  /// The DPoP key the PAR request was made with (RFC 9449 §10.1), binding the code.
  var jkt: String?

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("request", request)
    object.set("configuration_ids", strings: configurationIDs)
    object.set("jkt", jkt)
    return object.value
  }

  init(request: String, configurationIDs: [String], jkt: String?) {
    self.request = request
    self.configurationIDs = configurationIDs
    self.jkt = jkt
  }

  init?(_ json: JSONValue) {
    guard let request = json["request"]?.string,
      let ids = json["configuration_ids"]?.array?.compactMap(\.string)
    else { return nil }
    self.init(request: request, configurationIDs: ids, jkt: json["jkt"]?.string)
  }

  /// The authorization request again.
  func authorizationRequest() throws(IssuerEndpointFailure) -> AuthorizationRequest {
    do {
      return try AuthorizationRequest(parameters: FormParameters(query: request))
    } catch {
      throw IssuerEndpointFailure("server_error", "a stored request does not parse", status: 500)
    }
  }
}

extension CredentialIssuerService {
  // MARK: PAR

  /// POST `pushed_authorization_request_endpoint` (RFC 9126 §2): the authorization request in
  /// the body, checked as the authorization endpoint would check it, with the client
  /// attestation when required and an optional DPoP proof binding the code (RFC 9449 §10.1).
  /// Answers 201 with a single-use `request_uri`.
  public func handlePushedAuthorization(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return try pushedAuthorization(request)
    } catch {
      return error.response
    }
  }

  func pushedAuthorization(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let authorizationRequest: AuthorizationRequest
    do {
      authorizationRequest = try AuthorizationRequest(
        parameters: FormParameters(body: request.body))
    } catch {
      throw .invalidRequest(error.reason)
    }
    let proof =
      request.headers["DPoP"] == nil
      ? nil : try verifyDPoP(request, endpoint: .pushedAuthorization, site: .authorizationServer)
    _ = try authenticateClient(request, clientID: authorizationRequest.clientID)
    // RFC 9449 §10.1: with both a DPoP proof and dpop_jkt, the thumbprints must agree.
    if let proof, let requested = authorizationRequest.dpopJKT, requested != proof.thumbprint {
      throw IssuerEndpointFailure(
        "invalid_dpop_proof", "dpop_jkt is not the thumbprint of the DPoP proof's key")
    }
    let ids = try checkAuthorizationRequest(authorizationRequest)
    let requestURI = "urn:ietf:params:oauth:request_uri:" + randomToken(bytes: 24)
    let lifetime = configuration.lifetimes.pushedAuthorizationRequest
    let state = PendingAuthorizationState(
      request: authorizationRequest.parameters.encoded, configurationIDs: ids,
      jkt: proof?.thumbprint ?? authorizationRequest.dpopJKT)
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .pushedAuthorizationRequest, key: requestURI, value: state.json,
          expiresAt: now.addingTimeInterval(lifetime)))
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    return Self.json(
      PushedAuthorizationResponse(requestURI: requestURI, expiresIn: Int(lifetime)).json,
      status: PushedAuthorizationResponse.status)
  }

  /// The checks every authorization request passes (RFC 6749 §4.1.1, OpenID4VCI 1.0 §5.1):
  /// a usable `redirect_uri`, known configurations through `authorization_details` or `scope`,
  /// and an `issuer_state` that this issuer handed out and that offered them.
  ///
  /// - Returns: the configuration ids granted.
  func checkAuthorizationRequest(_ request: AuthorizationRequest) throws(IssuerEndpointFailure)
    -> [String]
  {
    // RFC 6749 §3.1.2: an absolute URI without a fragment.
    guard let redirect = URLComponents(string: request.redirectURI), redirect.scheme != nil,
      redirect.fragment == nil,
      !["javascript", "data", "vbscript"].contains(redirect.scheme?.lowercased() ?? "")
    else { throw .invalidRequest("redirect_uri is not an absolute URI without a fragment") }
    var ids: [String] = []
    for detail in request.authorizationDetails ?? [] {
      guard configuration.credential(id: detail.credentialConfigurationID) != nil else {
        throw IssuerEndpointFailure(
          "invalid_authorization_details",
          "no credential configuration '\(detail.credentialConfigurationID)'")
      }
      if !ids.contains(detail.credentialConfigurationID) {
        ids.append(detail.credentialConfigurationID)
      }
    }
    for scope in request.scope ?? [] {
      for credential in configuration.credentials
      where credential.scope == scope && !ids.contains(credential.id) {
        ids.append(credential.id)
      }
    }
    guard !ids.isEmpty else {
      throw .invalidScope("neither scope nor authorization_details names a credential offered")
    }
    if let issuerState = request.issuerState {
      guard let record = try? store.find(.issuerState, issuerState, now: now),
        let offered = record.value["configuration_ids"]?.array?.compactMap(\.string)
      else { throw .invalidRequest("issuer_state is unknown or expired") }
      guard ids.allSatisfy(offered.contains) else {
        throw .invalidRequest("the request asks for credentials the offer did not include")
      }
    }
    return ids
  }

  // MARK: Authorization endpoint

  /// GET `authorization_endpoint` (RFC 6749 §4.1.1; RFC 9126 §4): a pushed request by its
  /// `request_uri`, or a full request when PAR is not required. With auto-approval it
  /// redirects at once with `code`, `state` and `iss` (RFC 9207); otherwise it shows a minimal
  /// consent page whose form POSTs the decision back here.
  ///
  /// Errors before the `redirect_uri` is trusted are answered here (400), never redirected
  /// (RFC 6749 §4.1.2.1).
  public func handleAuthorize(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return request.method == .post ? try consentDecision(request) : try authorize(request)
    } catch {
      return error.response
    }
  }

  func authorize(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let endpointRequest: AuthorizationEndpointRequest
    do {
      endpointRequest = try AuthorizationEndpointRequest(url: request.url)
    } catch {
      throw .invalidRequest(error.reason)
    }
    let pending: PendingAuthorizationState
    switch endpointRequest {
    case .pushed(let clientID, let requestURI):
      // RFC 9126 §4: the request_uri is used once and by the client that pushed it.
      guard let record = try? store.take(.pushedAuthorizationRequest, requestURI, now: now),
        let state = PendingAuthorizationState(record.value)
      else { throw .invalidRequest("request_uri is unknown, expired or used") }
      guard try state.authorizationRequest().clientID == clientID else {
        throw .invalidRequest("request_uri was pushed by another client")
      }
      pending = state
    case .request(let authorizationRequest):
      guard !configuration.requirePushedAuthorizationRequests else {
        throw .invalidRequest("this server requires pushed authorization requests")
      }
      guard !configuration.attestation.requireClientAttestation else {
        throw .invalidRequest("client attestation is required: push the request (PAR)")
      }
      pending = PendingAuthorizationState(
        request: authorizationRequest.parameters.encoded,
        configurationIDs: try checkAuthorizationRequest(authorizationRequest),
        // RFC 9449 §10: dpop_jkt binds the code to the key of the token request.
        jkt: authorizationRequest.dpopJKT)
    }
    if configuration.autoApprove { return try approve(pending, status: 302) }
    let consentID = randomToken()
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .pendingAuthorization, key: consentID, value: pending.json,
          expiresAt: now.addingTimeInterval(600)))
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    return consentPage(pending, consentID: consentID, request: try pending.authorizationRequest())
  }

  /// POST `authorization_endpoint`: the consent page's form, `consent_id` and `decision`
  /// (`approve` or anything else for a refusal, RFC 6749 §4.1.2.1 `access_denied`).
  func consentDecision(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let form: FormParameters
    do {
      form = try FormParameters(body: request.body)
    } catch {
      throw .invalidRequest(error.reason)
    }
    guard let consentID = form["consent_id"],
      let record = try? store.take(.pendingAuthorization, consentID, now: now),
      let pending = PendingAuthorizationState(record.value)
    else { throw .invalidRequest("the consent is unknown, expired or already given") }
    guard form["decision"] == "approve" else {
      let authorizationRequest = try pending.authorizationRequest()
      guard let redirectURI = URL(string: authorizationRequest.redirectURI),
        let url = try? AuthorizationResponse.errorRedirectURL(
          OAuthErrorResponse(error: .accessDenied, errorDescription: "the user declined"),
          redirectURI: redirectURI, state: authorizationRequest.state,
          issuer: configuration.credentialIssuer.string)
      else { throw .invalidRequest("redirect_uri is not a URL") }
      return Self.redirect(url, status: 303)
    }
    return try approve(pending, status: 303)
  }

  /// Issues the authorization code and redirects to the client with `code`, `state` and `iss`
  /// (RFC 6749 §4.1.2, RFC 9207 §2).
  func approve(_ pending: PendingAuthorizationState, status: Int) throws(IssuerEndpointFailure)
    -> HTTPResponse
  {
    let authorizationRequest = try pending.authorizationRequest()
    let code = randomToken()
    let state = AuthorizationCodeState(
      clientID: authorizationRequest.clientID, redirectURI: authorizationRequest.redirectURI,
      codeChallenge: authorizationRequest.codeChallenge, configurationIDs: pending.configurationIDs,
      jkt: pending.jkt, usesAuthorizationDetails: authorizationRequest.authorizationDetails != nil)
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .authorizationCode, key: code, value: state.json,
          expiresAt: now.addingTimeInterval(configuration.lifetimes.authorizationCode)))
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    guard let redirectURI = URL(string: authorizationRequest.redirectURI),
      let url = try? AuthorizationResponse(
        code: code, state: authorizationRequest.state,
        issuer: configuration.credentialIssuer.string
      ).redirectURL(redirectURI: redirectURI)
    else { throw .invalidRequest("redirect_uri is not a URL") }
    return Self.redirect(url, status: status)
  }

  static func redirect(_ url: URL, status: Int) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Location": url.absoluteString, "Cache-Control": "no-store"])
  }

  /// A minimal consent page: who asks for which credentials, and two buttons. Every value
  /// shown is HTML-escaped; the page is not framable and loads nothing.
  func consentPage(
    _ pending: PendingAuthorizationState, consentID: String, request: AuthorizationRequest
  ) -> HTTPResponse {
    let names = pending.configurationIDs.map { id in
      configuration.credential(id: id)?.display.first?.name ?? id
    }
    let issuer = configuration.display.first?.name ?? configuration.credentialIssuer.string
    let items = names.map { "<li>\(Self.escapeHTML($0))</li>" }.joined()
    let html = """
      <!doctype html>
      <html><head><meta charset="utf-8"><title>Authorize</title></head>
      <body>
      <h1>\(Self.escapeHTML(issuer))</h1>
      <p>The wallet <code>\(Self.escapeHTML(request.clientID))</code> asks for:</p>
      <ul>\(items)</ul>
      <form method="post" action="\(Self.escapeHTML(endpoints.url(.authorize).absoluteString))">
      <input type="hidden" name="consent_id" value="\(Self.escapeHTML(consentID))">
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
      </form>
      </body></html>
      """
    return HTTPResponse(
      status: 200,
      headers: [
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
      ], body: Array(html.utf8))
  }

  /// Escapes the five HTML special characters.
  static func escapeHTML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}
