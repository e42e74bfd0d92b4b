package import DCJSON
package import Foundation

/// What the issuance flows need of OAuth 2.0 authorization server metadata (RFC 8414 §2), read
/// from the first of ``IssuerIdentifier/authorizationServerMetadataURLs`` that answers (RFC 8414
/// §3's `oauth-authorization-server`, then OpenID Connect's `openid-configuration`). Unknown
/// members are ignored.
package struct AuthorizationServerMetadata: Sendable, Hashable {
  /// `issuer`.
  package var issuer: IssuerIdentifier
  /// `authorization_endpoint`; absent on a server that only offers pre-authorized codes.
  package var authorizationEndpoint: URL?
  /// `token_endpoint`.
  package var tokenEndpoint: URL
  /// `pushed_authorization_request_endpoint` (RFC 9126 §5).
  package var pushedAuthorizationRequestEndpoint: URL?
  /// `require_pushed_authorization_requests` (RFC 9126 §5); false when absent.
  package var requirePushedAuthorizationRequests: Bool
  /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1); empty when DPoP is not advertised.
  package var dpopSigningAlgorithms: [String]
  /// `code_challenge_methods_supported` (RFC 8414 §2); empty when absent.
  package var codeChallengeMethods: [String]
  /// `grant_types_supported` (RFC 8414 §2); nil when absent (which means the RFC's default).
  package var grantTypes: [String]?
  /// `authorization_response_iss_parameter_supported` (RFC 9207 §3); false when absent.
  package var authorizationResponseIssParameterSupported: Bool
  /// `pre-authorized_grant_anonymous_access_supported` (OpenID4VCI 1.0 §12.3); false when
  /// absent.
  package var preAuthorizedGrantAnonymousAccessSupported: Bool
  /// `token_endpoint_auth_methods_supported` (RFC 8414 §2); nil when absent. With
  /// `attest_jwt_client_auth` the server takes OAuth attestation-based client authentication
  /// (draft-ietf-oauth-attestation-based-client-auth §9).
  package var tokenEndpointAuthMethods: [String]?
  /// `challenge_endpoint` (attestation-based client auth §6.1): where a fresh
  /// `attestation_challenge` is fetched for the Client Attestation PoP.
  package var challengeEndpoint: URL?

  /// Creates metadata (the issuer side publishes it with ``json``).
  package init(
    issuer: IssuerIdentifier, authorizationEndpoint: URL? = nil, tokenEndpoint: URL,
    pushedAuthorizationRequestEndpoint: URL? = nil,
    requirePushedAuthorizationRequests: Bool = false, dpopSigningAlgorithms: [String] = [],
    codeChallengeMethods: [String] = [], grantTypes: [String]? = nil,
    authorizationResponseIssParameterSupported: Bool = false,
    preAuthorizedGrantAnonymousAccessSupported: Bool = false,
    tokenEndpointAuthMethods: [String]? = nil, challengeEndpoint: URL? = nil
  ) {
    self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
    self.challengeEndpoint = challengeEndpoint
    self.issuer = issuer
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
    self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
    self.dpopSigningAlgorithms = dpopSigningAlgorithms
    self.codeChallengeMethods = codeChallengeMethods
    self.grantTypes = grantTypes
    self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    self.preAuthorizedGrantAnonymousAccessSupported = preAuthorizedGrantAnonymousAccessSupported
  }

  /// Reads metadata from JSON bytes.
  package init(jsonBytes: some Collection<UInt8>, policy: URLPolicy = .standard)
    throws(OpenID4VCIError)
  {
    try self.init(
      json: parseJSON(
        jsonBytes, "authorization server metadata",
        maximumLength: CredentialIssuerMetadata.maximumLength),
      policy: policy)
  }

  /// Reads a metadata object (RFC 8414 §2).
  package init(json: JSONValue, policy: URLPolicy = .standard) throws(OpenID4VCIError) {
    let fields = try Fields(json, "authorization server metadata", .invalidMetadata)
    issuer = try fields.identifier("issuer", policy)
    authorizationEndpoint = try fields.optionalURL("authorization_endpoint", policy)
    tokenEndpoint = try fields.url("token_endpoint", policy)
    pushedAuthorizationRequestEndpoint = try fields.optionalURL(
      "pushed_authorization_request_endpoint", policy)
    requirePushedAuthorizationRequests =
      try fields.optionalBool("require_pushed_authorization_requests") ?? false
    // RFC 9126 §5: requiring PAR without a PAR endpoint leaves no way to authorize.
    if requirePushedAuthorizationRequests, pushedAuthorizationRequestEndpoint == nil {
      throw fields.fail(
        "require_pushed_authorization_requests is true but there is no "
          + "pushed_authorization_request_endpoint")
    }
    dpopSigningAlgorithms = try fields.optionalStrings("dpop_signing_alg_values_supported") ?? []
    codeChallengeMethods = try fields.optionalStrings("code_challenge_methods_supported") ?? []
    grantTypes = try fields.optionalStrings("grant_types_supported")
    authorizationResponseIssParameterSupported =
      try fields.optionalBool("authorization_response_iss_parameter_supported") ?? false
    preAuthorizedGrantAnonymousAccessSupported =
      try fields.optionalBool("pre-authorized_grant_anonymous_access_supported") ?? false
    tokenEndpointAuthMethods = try fields.optionalStrings("token_endpoint_auth_methods_supported")
    challengeEndpoint = try fields.optionalURL("challenge_endpoint", policy)
  }

  /// The metadata when its `issuer` is exactly `expected`, the identifier the URL was built
  /// from (RFC 8414 §3.3: otherwise "the data contained in the response MUST NOT be used";
  /// OpenID Connect Discovery 1.0 §4.3).
  package func validated(for expected: IssuerIdentifier) throws(OpenID4VCIError) -> Self {
    guard issuer.string == expected.string else {
      throw OpenID4VCIError(
        .issuerMismatch,
        "authorization server metadata names issuer '\(issuer)' but was fetched for '\(expected)'")
    }
    return self
  }

  /// Whether the server advertises DPoP (RFC 9449 §5.1).
  package var supportsDPoP: Bool { !dpopSigningAlgorithms.isEmpty }

  /// Whether the server takes attestation-based client authentication with a Client
  /// Attestation PoP JWT (`attest_jwt_client_auth`, attestation-based client auth §9).
  package var supportsClientAttestation: Bool {
    tokenEndpointAuthMethods?.contains(ClientAttestation.authenticationMethod) ?? false
  }

  /// The metadata object (RFC 8414 §2), as the issuer side publishes it.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("issuer", issuer.string)
    object.set("authorization_endpoint", authorizationEndpoint?.absoluteString)
    object.set("token_endpoint", tokenEndpoint.absoluteString)
    object.set(
      "pushed_authorization_request_endpoint", pushedAuthorizationRequestEndpoint?.absoluteString)
    object.set("require_pushed_authorization_requests", requirePushedAuthorizationRequests)
    object.set(
      "dpop_signing_alg_values_supported",
      strings: dpopSigningAlgorithms.isEmpty ? nil : dpopSigningAlgorithms)
    object.set(
      "code_challenge_methods_supported",
      strings: codeChallengeMethods.isEmpty ? nil : codeChallengeMethods)
    object.set("grant_types_supported", strings: grantTypes)
    object.set(
      "authorization_response_iss_parameter_supported", authorizationResponseIssParameterSupported)
    object.set(
      "pre-authorized_grant_anonymous_access_supported", preAuthorizedGrantAnonymousAccessSupported)
    object.set("token_endpoint_auth_methods_supported", strings: tokenEndpointAuthMethods)
    object.set("challenge_endpoint", challengeEndpoint?.absoluteString)
    return object.value
  }
}
