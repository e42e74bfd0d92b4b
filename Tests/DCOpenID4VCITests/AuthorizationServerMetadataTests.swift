import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import Foundation
import Testing

/// Authorization server metadata (RFC 8414, OpenID Connect Discovery 1.0, OpenID4VCI 1.0 §12.3).
@Suite("Authorization server metadata")
struct AuthorizationServerMetadataTests {
  @Test("RFC 8414 §3.1 inserts, OpenID Connect Discovery §4.1 appends")
  func urls() throws {
    // RFC 8414 §3.1's example: issuer https://example.com/issuer1.
    let withPath = try IssuerIdentifier("https://example.com/issuer1")
    #expect(
      withPath.authorizationServerMetadataURL.absoluteString
        == "https://example.com/.well-known/oauth-authorization-server/issuer1")
    #expect(
      withPath.openIDConfigurationURL.absoluteString
        == "https://example.com/issuer1/.well-known/openid-configuration")
    #expect(
      withPath.authorizationServerMetadataURLs == [
        withPath.authorizationServerMetadataURL, withPath.openIDConfigurationURL,
      ])
    let bare = try IssuerIdentifier("https://server.example.com/")
    #expect(
      bare.authorizationServerMetadataURL.absoluteString
        == "https://server.example.com/.well-known/oauth-authorization-server")
    #expect(
      bare.openIDConfigurationURL.absoluteString
        == "https://server.example.com/.well-known/openid-configuration")
    let port = try IssuerIdentifier("https://server.example.com:8443")
    #expect(
      port.openIDConfigurationURL.absoluteString
        == "https://server.example.com:8443/.well-known/openid-configuration")
  }

  static let valid: JSONValue = [
    "issuer": "https://server.example.com",
    "authorization_endpoint": "https://server.example.com/authorize",
    "token_endpoint": "https://server.example.com/token",
    "pushed_authorization_request_endpoint": "https://server.example.com/par",
    "require_pushed_authorization_requests": true,
    "dpop_signing_alg_values_supported": ["ES256"],
    "code_challenge_methods_supported": ["S256"],
    "grant_types_supported": [
      "authorization_code", "urn:ietf:params:oauth:grant-type:pre-authorized_code",
    ],
    "authorization_response_iss_parameter_supported": true,
    "pre-authorized_grant_anonymous_access_supported": true,
    "response_types_supported": ["code"],
  ]

  @Test("What the flows need is read; the issuer check")
  func parses() throws {
    let metadata = try AuthorizationServerMetadata(json: Self.valid)
    #expect(metadata.issuer.string == "https://server.example.com")
    #expect(metadata.authorizationEndpoint?.path == "/authorize")
    #expect(metadata.tokenEndpoint.path == "/token")
    #expect(metadata.pushedAuthorizationRequestEndpoint?.path == "/par")
    #expect(metadata.requirePushedAuthorizationRequests)
    #expect(metadata.supportsDPoP && metadata.dpopSigningAlgorithms == ["ES256"])
    #expect(metadata.codeChallengeMethods == ["S256"])
    #expect(metadata.grantTypes?.count == 2)
    #expect(metadata.authorizationResponseIssParameterSupported)
    #expect(metadata.preAuthorizedGrantAnonymousAccessSupported)
    #expect(try metadata.validated(for: IssuerIdentifier("https://server.example.com")) == metadata)
    expectVCIError(.issuerMismatch) {
      try metadata.validated(for: IssuerIdentifier("https://server.example.com/"))
    }
    expectVCIError(.issuerMismatch) {
      try metadata.validated(for: IssuerIdentifier("https://other.example.com"))
    }
    // Defaults: a pre-authorized-only server without the optional members (OpenID4VCI §12.2.4 note).
    let minimal = try AuthorizationServerMetadata(
      json: ["issuer": "https://s.example", "token_endpoint": "https://s.example/token"])
    #expect(!minimal.requirePushedAuthorizationRequests && !minimal.supportsDPoP)
    #expect(
      !minimal.authorizationResponseIssParameterSupported
        && !minimal.preAuthorizedGrantAnonymousAccessSupported)
    #expect(minimal.authorizationEndpoint == nil && minimal.grantTypes == nil)
  }

  static let invalid: [(String, String, JSONValue?)] = [
    ("issuer missing", "issuer", nil),
    ("issuer http", "issuer", "http://server.example.com"),
    ("issuer with a query", "issuer", "https://server.example.com?a=1"),
    ("authorization_endpoint http", "authorization_endpoint", "http://server.example.com/a"),
    ("token_endpoint missing", "token_endpoint", nil),
    ("token_endpoint http", "token_endpoint", "http://server.example.com/t"),
    ("PAR endpoint http", "pushed_authorization_request_endpoint", "http://server.example.com/par"),
    ("PAR required without a PAR endpoint", "pushed_authorization_request_endpoint", nil),
    (
      "require_pushed_authorization_requests not a boolean",
      "require_pushed_authorization_requests", "true"
    ),
    ("dpop algorithms empty", "dpop_signing_alg_values_supported", []),
    ("dpop algorithms not strings", "dpop_signing_alg_values_supported", [1]),
    ("code challenge methods not an array", "code_challenge_methods_supported", "S256"),
    ("grant types empty", "grant_types_supported", []),
    ("iss parameter flag not a boolean", "authorization_response_iss_parameter_supported", 1),
    (
      "anonymous access flag not a boolean", "pre-authorized_grant_anonymous_access_supported",
      "yes"
    ),
  ]

  @Test("Each check refuses its case", arguments: 0..<invalid.count)
  func refused(_ index: Int) {
    let (name, key, value) = Self.invalid[index]
    let error = expectVCIError(.invalidMetadata) {
      try AuthorizationServerMetadata(json: setting(Self.valid, [key], value))
    }
    #expect(error != nil, "\(name)")
  }

  @Test("Not an object, not JSON, too large; loopback http only for development")
  func other() throws {
    expectVCIError(.invalidMetadata) { try AuthorizationServerMetadata(json: []) }
    expectVCIError(.invalidJSON) { try AuthorizationServerMetadata(jsonBytes: Array("nope".utf8)) }
    expectVCIError(.invalidJSON) {
      try AuthorizationServerMetadata(
        jsonBytes: [UInt8](repeating: 0x20, count: CredentialIssuerMetadata.maximumLength + 1))
    }
    let loopback: JSONValue = [
      "issuer": "http://127.0.0.1:9000", "token_endpoint": "http://127.0.0.1:9000/token",
    ]
    #expect(
      try AuthorizationServerMetadata(json: loopback, policy: .development).tokenEndpoint.port
        == 9000)
    expectVCIError(.invalidMetadata) { try AuthorizationServerMetadata(json: loopback) }
  }

  @Test("Metadata → JSON → metadata is the identity")
  func roundTrip() throws {
    let metadata = try AuthorizationServerMetadata(json: Self.valid)
    #expect(try AuthorizationServerMetadata(json: metadata.json) == metadata)
    let built = AuthorizationServerMetadata(
      issuer: try IssuerIdentifier("https://as.example.com/t"),
      tokenEndpoint: URL(string: "https://as.example.com/t/token")!)
    #expect(try AuthorizationServerMetadata(jsonBytes: built.json.serializedBytes()) == built)
  }
}
