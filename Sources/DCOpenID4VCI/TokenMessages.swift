package import DCJSON
import Foundation

/// A token request (RFC 6749 §4.1.3, §6; OpenID4VCI 1.0 §6.1), form-encoded in the body of a
/// POST to the token endpoint.
package struct TokenRequest: Sendable, Hashable {
  /// The grant and its parameters.
  package enum Grant: Sendable, Hashable {
    /// `authorization_code` with `code`, the PKCE `code_verifier` (RFC 7636 §4.5) and the
    /// `redirect_uri` of the authorization request (RFC 6749 §4.1.3).
    case authorizationCode(code: String, codeVerifier: String, redirectURI: String)
    /// `urn:ietf:params:oauth:grant-type:pre-authorized_code` with the code from the offer and
    /// the transaction code when the offer had a `tx_code` object (OpenID4VCI 1.0 §6.1).
    case preAuthorizedCode(code: String, txCode: String?)
    /// `refresh_token` (RFC 6749 §6).
    case refreshToken(String)
  }

  /// The `grant_type` of the pre-authorized code flow (OpenID4VCI 1.0 §4.1.1, §6.1).
  package static let preAuthorizedCodeGrantType =
    "urn:ietf:params:oauth:grant-type:pre-authorized_code"

  package var grant: Grant
  /// `client_id` (RFC 6749 §4.1.3); nil for anonymous pre-authorized access (§6.1).
  package var clientID: String?
  /// `authorization_details` (OpenID4VCI 1.0 §6.1.1).
  package var authorizationDetails: [CredentialAuthorizationDetail]?
  /// `scope` (RFC 6749 §6 for a refresh; OpenID4VCI 1.0 §6.1).
  package var scope: [String]?
  /// `resource` (RFC 8707).
  package var resource: String?

  /// A token request.
  ///
  /// - Parameters:
  ///   - grant: the grant and its parameters.
  ///   - clientID: `client_id`; nil for anonymous pre-authorized access (OpenID4VCI 1.0 §6.1).
  ///   - authorizationDetails: `authorization_details` of type `openid_credential` (§6.1.1).
  ///   - scope: `scope`, for a refresh or a scope-based request.
  ///   - resource: `resource` (RFC 8707), the credential issuer the token is for.
  package init(
    grant: Grant, clientID: String? = nil,
    authorizationDetails: [CredentialAuthorizationDetail]? = nil, scope: [String]? = nil,
    resource: String? = nil
  ) {
    self.grant = grant
    self.clientID = clientID
    self.authorizationDetails = authorizationDetails
    self.scope = scope
    self.resource = resource
  }

  /// The request parameters.
  package var parameters: FormParameters {
    var pairs: [(String, String?)]
    switch grant {
    case .authorizationCode(let code, let verifier, let redirectURI):
      pairs = [
        ("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier),
        ("redirect_uri", redirectURI),
      ]
    case .preAuthorizedCode(let code, let txCode):
      pairs = [
        ("grant_type", Self.preAuthorizedCodeGrantType), ("pre-authorized_code", code),
        ("tx_code", txCode),
      ]
    case .refreshToken(let token):
      pairs = [("grant_type", "refresh_token"), ("refresh_token", token)]
    }
    pairs += [
      ("client_id", clientID),
      ("authorization_details", authorizationDetails.map(CredentialAuthorizationDetail.parameter)),
      ("scope", scope.map { $0.joined(separator: " ") }),
      ("resource", resource),
    ]
    return FormParameters(pairs)
  }

  /// The form body.
  package var body: [UInt8] { parameters.bodyBytes }

  /// Reads a token request body (the token endpoint's side). Unknown parameters are ignored
  /// (OpenID4VCI 1.0 §6.1); `tx_code` with any grant but the pre-authorized one fails (§6.1:
  /// "MUST only be used if the grant_type is ...pre-authorized_code").
  package init(body: some Collection<UInt8>) throws(OpenID4VCIError) {
    let parameters: FormParameters
    do {
      parameters = try FormParameters(body: body)
    } catch {
      throw OpenID4VCIError(.invalidTokenRequest, error.reason, underlying: error)
    }
    try self.init(parameters: parameters)
  }

  /// Reads a token request from decoded form parameters, with the rules of ``init(body:)``.
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidTokenRequest` for an unknown `grant_type`, a missing
  ///   parameter of the grant, or `tx_code` with a grant other than the pre-authorized code.
  package init(parameters: FormParameters) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidTokenRequest
    let grantType = try parameters.required("grant_type", code)
    if grantType != Self.preAuthorizedCodeGrantType, parameters["tx_code"] != nil {
      throw OpenID4VCIError(code, "tx_code is only for the pre-authorized code grant")
    }
    switch grantType {
    case "authorization_code":
      let verifier = try parameters.required("code_verifier", code)
      try PKCE.checkVerifier(verifier)
      grant = .authorizationCode(
        code: try parameters.required("code", code), codeVerifier: verifier,
        redirectURI: try parameters.required("redirect_uri", code))
    case Self.preAuthorizedCodeGrantType:
      grant = .preAuthorizedCode(
        code: try parameters.required("pre-authorized_code", code),
        txCode: parameters.optional("tx_code"))
    case "refresh_token":
      grant = .refreshToken(try parameters.required("refresh_token", code))
    default:
      throw OpenID4VCIError(code, "grant_type \(grantType) is not supported")
    }
    clientID = parameters.optional("client_id")
    authorizationDetails = try parameters.optional("authorization_details").flatMap {
      (text) throws(OpenID4VCIError) in
      try CredentialAuthorizationDetail.parse(parameter: text, code)
    }
    scope = try parameters.optional("scope").map { (text) throws(OpenID4VCIError) in
      try scopeTokens(text, code)
    }
    resource = parameters.optional("resource")
  }
}

/// The `token_type` of an access token (RFC 6749 §7.1; RFC 9449 §5).
package enum AccessTokenType: String, Sendable, Hashable {
  /// `DPoP`: the token is bound to the DPoP key and presented as `Authorization: DPoP ...`.
  case dpop = "DPoP"
  /// `Bearer` (RFC 6750).
  case bearer = "Bearer"

  /// The type from its wire value, case-insensitively (RFC 6749 §5.1: "The value is case
  /// insensitive").
  package init?(wireValue: String) {
    switch wireValue.lowercased() {
    case "dpop": self = .dpop
    case "bearer": self = .bearer
    default: return nil
    }
  }

  /// The `Authorization` header value presenting `token` (RFC 6750 §2.1, RFC 9449 §7.1).
  package func authorization(_ token: String) -> String { "\(rawValue) \(token)" }
}

/// A successful token response (RFC 6749 §5.1; OpenID4VCI 1.0 §6.2).
package struct TokenResponse: Sendable, Hashable {
  /// `access_token`.
  package var accessToken: String
  /// `token_type`.
  package var tokenType: AccessTokenType
  /// `expires_in`, seconds.
  package var expiresIn: Int?
  /// `refresh_token`, kept for re-issuance (RFC 6749 §6).
  package var refreshToken: String?
  /// `scope`.
  package var scope: [String]?
  /// The `openid_credential` entries of `authorization_details`, each with its
  /// `credential_identifiers` (OpenID4VCI 1.0 §6.2).
  package var authorizationDetails: [CredentialAuthorizationDetail]?

  /// A successful token response.
  ///
  /// - Parameters:
  ///   - accessToken: `access_token`.
  ///   - tokenType: `token_type`: `Bearer`, or `DPoP` for a DPoP-bound token (RFC 9449 §5).
  ///   - expiresIn: `expires_in`, the token's lifetime in seconds.
  ///   - refreshToken: `refresh_token`, for re-issuance (RFC 6749 §6).
  ///   - scope: `scope`, when it differs from the request's.
  ///   - authorizationDetails: the `openid_credential` entries with their
  ///     `credential_identifiers` (OpenID4VCI 1.0 §6.2).
  package init(
    accessToken: String, tokenType: AccessTokenType, expiresIn: Int? = nil,
    refreshToken: String? = nil, scope: [String]? = nil,
    authorizationDetails: [CredentialAuthorizationDetail]? = nil
  ) {
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
    self.refreshToken = refreshToken
    self.scope = scope
    self.authorizationDetails = authorizationDetails
  }

  /// The response body, with only the members that are set.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("access_token", accessToken)
    object.set("token_type", tokenType.rawValue)
    object.set("expires_in", expiresIn)
    object.set("refresh_token", refreshToken)
    object.set("scope", scope.map { $0.joined(separator: " ") })
    object.set("authorization_details", authorizationDetails.map { .array($0.map(\.json)) })
    return object.value
  }

  /// Reads a token response. `access_token` and a known `token_type` are required
  /// (RFC 6749 §5.1); `expires_in` is a positive integer; each `openid_credential` entry of
  /// `authorization_details` needs `credential_identifiers` (OpenID4VCI 1.0 §6.2).
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidTokenResponse
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the token response", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    let fields = try Fields(json, "token response", code)
    accessToken = try fields.nonEmptyString("access_token")
    let type = try fields.string("token_type")
    guard let tokenType = AccessTokenType(wireValue: type) else {
      throw fields.fail("token_type \(type) is neither DPoP nor Bearer")
    }
    self.tokenType = tokenType
    expiresIn = try fields.optionalInteger("expires_in")
    if let expiresIn, expiresIn <= 0 { throw fields.fail("expires_in is not positive") }
    refreshToken = try fields.optionalString("refresh_token")
    scope = try fields.optionalString("scope").map { (text) throws(OpenID4VCIError) in
      try scopeTokens(text, code)
    }
    authorizationDetails = try json["authorization_details"].flatMap {
      (value) throws(OpenID4VCIError) in
      try CredentialAuthorizationDetail.parse(
        value, "token response.authorization_details", code, requireIdentifiers: true)
    }
  }
}

/// The nonce response (OpenID4VCI 1.0 §7.2): `c_nonce`.
package struct NonceResponse: Sendable, Hashable {
  /// `c_nonce`.
  package var cNonce: String

  /// A nonce response carrying `cNonce`, a fresh unpredictable value for key proofs.
  package init(cNonce: String) { self.cNonce = cNonce }

  /// The response body: `{"c_nonce": ...}`.
  package var json: JSONValue { .object([("c_nonce", .string(cNonce))]) }

  /// Reads a nonce response body, at most 64 KiB of JSON.
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidNonceResponse` for a body that is not a JSON object
  ///   with a non-empty string `c_nonce`.
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidNonceResponse
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the nonce response", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    cNonce = try Fields(json, "nonce response", code).nonEmptyString("c_nonce")
  }
}

/// A `scope` value's tokens (RFC 6749 §3.3: `scope-token *( SP scope-token )`, each token one or
/// more NQCHAR `%x21 / %x23-5B / %x5D-7E`): an empty value, a leading, trailing or doubled space,
/// or any other character is refused, so that what is read serialises back to the same value.
func scopeTokens(_ text: String, _ code: OpenID4VCIErrorCode) throws(OpenID4VCIError) -> [String] {
  let tokens = text.split(separator: " ", omittingEmptySubsequences: false)
  for token in tokens {
    let valid =
      !token.isEmpty
      && token.utf8.allSatisfy { byte in
        byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
      }
    guard valid else {
      throw OpenID4VCIError(code, "scope is not space-separated scope tokens (RFC 6749 §3.3)")
    }
  }
  return tokens.map(String.init)
}
