import DCCrypto
package import Foundation

/// A successful authorization response (RFC 6749 §4.1.2): the `code`, with `state` and, under
/// RFC 9207, `iss`, as the query of the redirect to the client's `redirect_uri`.
package struct AuthorizationResponse: Sendable, Hashable {
  /// `code`.
  package var code: String
  /// `state`, echoed from the request.
  package var state: String
  /// `iss` (RFC 9207 §2): the authorization server's issuer identifier.
  package var issuer: String?

  /// An authorization response.
  ///
  /// - Parameters:
  ///   - code: `code`, the authorization code to redeem at the token endpoint.
  ///   - state: `state`, as the request sent it.
  ///   - issuer: `iss`, the authorization server's issuer identifier (RFC 9207 §2); nil when the
  ///     server does not send it.
  package init(code: String, state: String, issuer: String? = nil) {
    self.code = code
    self.state = state
    self.issuer = issuer
  }

  /// The redirect URL the server sends the user agent to (RFC 6749 §4.1.2, RFC 9207 §2).
  package func redirectURL(redirectURI: URL) throws(OpenID4VCIError) -> URL {
    try FormParameters([("code", code), ("state", state), ("iss", issuer)])
      .appended(to: redirectURI)
  }

  /// The redirect URL of an authorization error (RFC 6749 §4.1.2.1), with `state` and `iss`.
  package static func errorRedirectURL(
    _ error: OAuthErrorResponse, redirectURI: URL, state: String?, issuer: String?
  ) throws(OpenID4VCIError) -> URL {
    var parameters = error.parameters
    parameters.set("state", state)
    parameters.set("iss", issuer)
    return try parameters.appended(to: redirectURI)
  }

  /// The client's check of the redirect it got back (RFC 6749 §4.1.2, §10.12; RFC 9207 §2.4).
  ///
  /// - Parameters:
  ///   - url: the final redirect URL, as the app's browser session returned it.
  ///   - redirectURI: the `redirect_uri` sent in the request; `url` must have its scheme,
  ///     host, port and path.
  ///   - expectedState: the `state` sent in the request.
  ///   - expectedIssuer: the authorization server's issuer identifier.
  ///   - issuerRequired: the server's `authorization_response_iss_parameter_supported`: then
  ///     `iss` must be present (RFC 9207 §2.4); when `iss` is present it must match either way.
  /// - Throws: `invalidAuthorizationResponse`, `stateMismatch`, `authorizationResponseIssuer`,
  ///   or `errorResponse` (with the ``OAuthErrorResponse`` underlying) when the server sent an
  ///   error whose `state` and `iss` pass the same checks.
  package init(
    redirect url: URL, redirectURI: String, expectedState: String, expectedIssuer: String,
    issuerRequired: Bool
  ) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidAuthorizationResponse
    guard let received = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let expected = URLComponents(string: redirectURI)
    else { throw OpenID4VCIError(code, "the redirect is not a URL") }
    guard received.scheme?.lowercased() == expected.scheme?.lowercased(),
      received.host?.lowercased() == expected.host?.lowercased(),
      received.port == expected.port, received.path == expected.path
    else { throw OpenID4VCIError(code, "the redirect is not to the redirect_uri") }
    let parameters: FormParameters
    do {
      parameters = try FormParameters(query: received.percentEncodedQuery ?? "")
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    // RFC 6749 §10.12: the state binds the response to this user agent's request; checked
    // before anything else of the response is believed, errors included.
    guard let state = parameters.optional("state") else {
      throw OpenID4VCIError(.stateMismatch, "the response has no state")
    }
    guard constantTimeEquals(Array(state.utf8), Array(expectedState.utf8)) else {
      throw OpenID4VCIError(.stateMismatch, "the response's state is not the request's")
    }
    // RFC 9207 §2.4: iss must be present when the server advertises it, and when present
    // must equal the issuer identifier by simple string comparison (RFC 3986 §6.2.1).
    let issuer = parameters.optional("iss")
    if let issuer {
      guard issuer == expectedIssuer else {
        throw OpenID4VCIError(
          .authorizationResponseIssuer, "iss '\(issuer)' is not '\(expectedIssuer)'")
      }
    } else if issuerRequired {
      throw OpenID4VCIError(
        .authorizationResponseIssuer, "the server advertises iss but the response has none")
    }
    if let error = try OAuthErrorResponse(parameters: parameters) {
      throw OpenID4VCIError(.errorResponse, "authorization failed: \(error)", underlying: error)
    }
    self.code = try parameters.required("code", code)
    self.state = state
    self.issuer = issuer
  }
}
