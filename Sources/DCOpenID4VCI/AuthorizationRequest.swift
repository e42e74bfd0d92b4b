package import DCJSON
package import Foundation

/// One `authorization_details` entry of type `openid_credential` (OpenID4VCI 1.0 §5.1.1,
/// RFC 9396 §2), as sent in an authorization or token request and returned, with
/// `credential_identifiers`, in the token response (§6.2).
package struct CredentialAuthorizationDetail: Sendable, Hashable {
  /// The `type` value this struct stands for.
  package static let type = "openid_credential"

  /// `credential_configuration_id`: a key of `credential_configurations_supported`.
  package var credentialConfigurationID: String
  /// `claims`: claims description objects (OpenID4VCI 1.0 Appendix B.1), kept as JSON.
  package var claims: JSONValue?
  /// `locations` (RFC 9396 §2.2): the Credential Issuer Identifier when the issuer metadata
  /// names `authorization_servers` (§5.1.1).
  package var locations: [String]?
  /// `credential_identifiers` (token response only, §6.2): the datasets the access token may
  /// fetch; each goes in a credential request's `credential_identifier`.
  package var credentialIdentifiers: [String]?

  /// An `openid_credential` entry of `authorization_details` (OpenID4VCI 1.0 §5.1.1).
  ///
  /// - Parameters:
  ///   - credentialConfigurationID: a key of the issuer's `credential_configurations_supported`.
  ///   - claims: `claims`, the claims the wallet asks for; nil for all.
  ///   - locations: `locations` (RFC 9396 §2.2): the credential issuer, when the authorization
  ///     server serves more than one.
  ///   - credentialIdentifiers: `credential_identifiers`, set only in a token response.
  package init(
    credentialConfigurationID: String, claims: JSONValue? = nil, locations: [String]? = nil,
    credentialIdentifiers: [String]? = nil
  ) {
    self.credentialConfigurationID = credentialConfigurationID
    self.claims = claims
    self.locations = locations
    self.credentialIdentifiers = credentialIdentifiers
  }

  /// The JSON object.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("type", Self.type)
    object.set("credential_configuration_id", credentialConfigurationID)
    object.set("claims", claims)
    object.set("locations", strings: locations)
    object.set("credential_identifiers", strings: credentialIdentifiers)
    return object.value
  }

  /// Reads one `openid_credential` entry; `requireIdentifiers` for a token response, where
  /// `credential_identifiers` is REQUIRED (§6.2).
  init(_ fields: Fields, requireIdentifiers: Bool) throws(OpenID4VCIError) {
    credentialConfigurationID = try fields.nonEmptyString("credential_configuration_id")
    if let claims = fields.object["claims"] {
      guard let array = claims.array, !array.isEmpty else {
        throw fields.fail("claims is not a non-empty array")
      }
      self.claims = claims
    }
    locations = try fields.optionalStrings("locations")
    credentialIdentifiers = try fields.optionalStrings("credential_identifiers", unique: true)
    if requireIdentifiers, credentialIdentifiers == nil {
      throw fields.fail("credential_identifiers is missing")
    }
  }

  /// The `authorization_details` parameter value: a JSON array (RFC 9396 §2).
  package static func parameter(_ details: [CredentialAuthorizationDetail]) -> String {
    JSONValue.array(details.map(\.json)).serialized()
  }

  /// Reads an `authorization_details` array, keeping the `openid_credential` entries (other
  /// types may be combined with them, §5.1.1, and are not ours to read). Every entry needs a
  /// string `type` (RFC 9396 §2); the array must be non-empty. Nil when no entry is of type
  /// `openid_credential`: then nothing of OpenID4VCI was asked or granted by
  /// `authorization_details` (the credential request names `credential_configuration_id`,
  /// §8.2), and an empty array, which RFC 9396 §2 does not allow, is never built back.
  static func parse(
    _ value: JSONValue, _ context: String, _ code: OpenID4VCIErrorCode, requireIdentifiers: Bool
  ) throws(OpenID4VCIError) -> [CredentialAuthorizationDetail]? {
    guard let array = value.array, !array.isEmpty else {
      throw OpenID4VCIError(code, "\(context) is not a non-empty array")
    }
    var details: [CredentialAuthorizationDetail] = []
    for (index, element) in array.enumerated() {
      let fields = try Fields(element, "\(context)[\(index)]", code)
      guard let type = try fields.optionalString("type") else {
        throw fields.fail("type is missing")
      }
      guard type == Self.type else { continue }
      details.append(
        try CredentialAuthorizationDetail(fields, requireIdentifiers: requireIdentifiers))
    }
    return details.isEmpty ? nil : details
  }

  /// Reads the `authorization_details` form parameter (JSON text).
  static func parse(parameter text: String, _ code: OpenID4VCIErrorCode)
    throws(OpenID4VCIError) -> [CredentialAuthorizationDetail]?
  {
    let json: JSONValue
    do {
      json = try parseJSON(Array(text.utf8), "authorization_details", maximumLength: 16 * 1024)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    return try parse(json, "authorization_details", code, requireIdentifiers: false)
  }
}

/// An authorization request of the authorization code flow (RFC 6749 §4.1.1; OpenID4VCI 1.0
/// §5.1), with PKCE S256 (RFC 7636 §4.3) and `state`; sent as the query of the authorization
/// endpoint URL or, pushed, as the body of a PAR request (RFC 9126 §2.1).
package struct AuthorizationRequest: Sendable, Hashable {
  /// `client_id` (RFC 6749 §2.2).
  package var clientID: String
  /// `redirect_uri` (RFC 6749 §3.1.2).
  package var redirectURI: String
  /// `state` (RFC 6749 §4.1.1; required here, §10.12).
  package var state: String
  /// `code_challenge` (RFC 7636 §4.2); `code_challenge_method` is always `S256`.
  package var codeChallenge: String
  /// `scope` values (OpenID4VCI 1.0 §5.1.2), space-separated on the wire.
  package var scope: [String]?
  /// `authorization_details` of type `openid_credential` (OpenID4VCI 1.0 §5.1.1).
  package var authorizationDetails: [CredentialAuthorizationDetail]?
  /// `issuer_state` from the credential offer (OpenID4VCI 1.0 §5.1.3).
  package var issuerState: String?
  /// `resource` (RFC 8707): the Credential Issuer Identifier when the issuer names
  /// `authorization_servers` (OpenID4VCI 1.0 §5.1.2).
  package var resource: String?
  /// `dpop_jkt` (RFC 9449 §10): the JWK SHA-256 thumbprint (RFC 7638) of the DPoP key the
  /// client will redeem the authorization code with; the server binds the code to it.
  package var dpopJKT: String?

  /// The only `response_type` of the flow (RFC 6749 §4.1.1).
  package static let responseType = "code"

  /// An authorization request of the authorization code flow (RFC 6749 §4.1.1, OpenID4VCI 1.0
  /// §5.1), sent as is or pushed first (RFC 9126).
  ///
  /// - Parameters:
  ///   - clientID: `client_id`.
  ///   - redirectURI: `redirect_uri`, where the authorization response returns.
  ///   - state: `state`, an unguessable value the response must echo.
  ///   - codeChallenge: `code_challenge`, the S256 PKCE challenge (RFC 7636 §4.2).
  ///   - scope: `scope` values naming credential configurations (§5.1.2).
  ///   - authorizationDetails: `authorization_details` of type `openid_credential` (§5.1.1).
  ///   - issuerState: `issuer_state` from the credential offer's authorization code grant.
  ///   - resource: `resource` (RFC 8707), the credential issuer, when the authorization server
  ///     serves several.
  ///   - dpopJKT: `dpop_jkt` (RFC 9449 §10), the thumbprint of the DPoP key the code binds to.
  package init(
    clientID: String, redirectURI: String, state: String, codeChallenge: String,
    scope: [String]? = nil, authorizationDetails: [CredentialAuthorizationDetail]? = nil,
    issuerState: String? = nil, resource: String? = nil, dpopJKT: String? = nil
  ) {
    self.clientID = clientID
    self.redirectURI = redirectURI
    self.state = state
    self.codeChallenge = codeChallenge
    self.scope = scope
    self.authorizationDetails = authorizationDetails
    self.issuerState = issuerState
    self.resource = resource
    self.dpopJKT = dpopJKT
  }

  /// The request parameters.
  package var parameters: FormParameters {
    FormParameters([
      ("response_type", Self.responseType),
      ("client_id", clientID),
      ("redirect_uri", redirectURI),
      ("state", state),
      ("code_challenge", codeChallenge),
      ("code_challenge_method", PKCE.method),
      ("scope", scope.map { $0.joined(separator: " ") }),
      ("authorization_details", authorizationDetails.map(CredentialAuthorizationDetail.parameter)),
      ("issuer_state", issuerState),
      ("resource", resource),
      ("dpop_jkt", dpopJKT),
    ])
  }

  /// The authorization endpoint URL carrying the request in its query (RFC 6749 §4.1.1).
  package func url(authorizationEndpoint: URL) throws(OpenID4VCIError) -> URL {
    try parameters.appended(to: authorizationEndpoint)
  }

  /// The PAR request body (RFC 9126 §2.1): the same parameters, form-encoded.
  package var pushedBody: [UInt8] { parameters.bodyBytes }

  /// Reads a request from its parameters (the authorization endpoint's query, or a PAR body):
  /// `response_type=code`, `client_id`, `redirect_uri`, `state`, `code_challenge` with method
  /// `S256`, and `scope` or `authorization_details` are required (HAIP 1.0 requires PKCE S256;
  /// this profile requires `state`). A `request_uri` is refused here (RFC 9126 §2.1: a pushed
  /// request cannot itself reference one).
  package init(parameters: FormParameters) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidAuthorizationRequest
    guard parameters["request_uri"] == nil else {
      throw OpenID4VCIError(code, "request_uri is not allowed in a full request")
    }
    let responseType = try parameters.required("response_type", code)
    guard responseType == Self.responseType else {
      throw OpenID4VCIError(code, "response_type is \(responseType), not code")
    }
    clientID = try parameters.required("client_id", code)
    redirectURI = try parameters.required("redirect_uri", code)
    state = try parameters.required("state", code)
    codeChallenge = try parameters.required("code_challenge", code)
    let method = try parameters.required("code_challenge_method", code)
    guard method == PKCE.method else {
      throw OpenID4VCIError(
        .unsupportedCodeChallengeMethod, "code_challenge_method \(method) is not S256")
    }
    // RFC 7636 §4.2: an S256 challenge is 43 base64url characters.
    guard codeChallenge.utf8.count == 43, codeChallenge.utf8.allSatisfy(PKCE.isUnreserved) else {
      throw OpenID4VCIError(code, "code_challenge is not a base64url SHA-256")
    }
    scope = try parameters.optional("scope").map { (text) throws(OpenID4VCIError) in
      try scopeTokens(text, code)
    }
    authorizationDetails = try parameters.optional("authorization_details").flatMap {
      (text) throws(OpenID4VCIError) in
      try CredentialAuthorizationDetail.parse(parameter: text, code)
    }
    guard scope?.isEmpty == false || authorizationDetails?.isEmpty == false else {
      throw OpenID4VCIError(code, "neither scope nor an openid_credential authorization_details")
    }
    issuerState = parameters.optional("issuer_state")
    resource = parameters.optional("resource")
    dpopJKT = parameters.optional("dpop_jkt")
  }
}

/// What the authorization endpoint receives: a full request, or a reference to a pushed one
/// (RFC 9126 §4: `client_id` and `request_uri` only).
package enum AuthorizationEndpointRequest: Sendable, Hashable {
  /// The whole request, in the query (RFC 6749 §4.1.1).
  case request(AuthorizationRequest)
  /// A request pushed before (RFC 9126 §4): `client_id` and the `request_uri` the PAR endpoint
  /// returned.
  case pushed(clientID: String, requestURI: String)

  /// The authorization endpoint URL for a pushed request (RFC 9126 §4).
  package static func pushedURL(
    authorizationEndpoint: URL, clientID: String, requestURI: String
  ) throws(OpenID4VCIError) -> URL {
    try FormParameters([("client_id", clientID), ("request_uri", requestURI)])
      .appended(to: authorizationEndpoint)
  }

  /// Reads the query of a request to the authorization endpoint.
  package init(url: URL) throws(OpenID4VCIError) {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
    try self.init(parameters: FormParameters(query: query))
  }

  /// Reads the parameters of a request to the authorization endpoint.
  package init(parameters: FormParameters) throws(OpenID4VCIError) {
    if let requestURI = parameters.optional("request_uri") {
      let clientID = try parameters.required("client_id", .invalidAuthorizationRequest)
      self = .pushed(clientID: clientID, requestURI: requestURI)
    } else {
      self = .request(try AuthorizationRequest(parameters: parameters))
    }
  }
}

/// The pushed authorization response (RFC 9126 §2.2): HTTP 201 with `request_uri` and
/// `expires_in`.
package struct PushedAuthorizationResponse: Sendable, Hashable {
  /// `request_uri`: the reference to use at the authorization endpoint.
  package var requestURI: String
  /// `expires_in`: seconds, positive.
  package var expiresIn: Int

  /// The status of a successful response (RFC 9126 §2.2).
  package static let status = 201

  /// A successful response of the PAR endpoint.
  ///
  /// - Parameters:
  ///   - requestURI: `request_uri`, the reference the authorization endpoint accepts.
  ///   - expiresIn: `expires_in`, how long the reference is valid, in seconds.
  package init(requestURI: String, expiresIn: Int) {
    self.requestURI = requestURI
    self.expiresIn = expiresIn
  }

  /// The response body: `{"request_uri": ..., "expires_in": ...}`.
  package var json: JSONValue {
    .object([("request_uri", .string(requestURI)), ("expires_in", .integer(Int64(expiresIn)))])
  }

  /// Reads a PAR response body (at most 64 KiB of JSON).
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidPushedAuthorizationResponse` for a body that is not a
  ///   JSON object with a non-empty string `request_uri` and a positive integer `expires_in`.
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidPushedAuthorizationResponse
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the PAR response", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    let fields = try Fields(json, "PAR response", code)
    requestURI = try fields.nonEmptyString("request_uri")
    guard let expiresIn = try fields.optionalInteger("expires_in") else {
      throw fields.fail("expires_in is missing")
    }
    guard expiresIn > 0 else { throw fields.fail("expires_in is not positive") }
    self.expiresIn = expiresIn
  }
}

/// The most bytes of a JSON OAuth message other than a credential response.
let messageMaximumLength = 64 * 1024
