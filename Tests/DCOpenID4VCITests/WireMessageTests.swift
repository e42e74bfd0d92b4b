import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

/// The OAuth / OpenID4VCI 1.0 wire messages: the spec's examples as vectors, both directions,
/// and a mutation for every check.
@Suite("OpenID4VCI wire messages")
struct WireMessageTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  // MARK: Form encoding (RFC 6749 Appendix B)

  @Test("A form round-trips: reserved characters, spaces, non-ASCII, order kept")
  func formRoundTrip() throws {
    let form = FormParameters([
      ("redirect_uri", "https://wallet.example.org/cb?x=1&y=2"), ("scope", "a b"),
      ("name", "Ünïcødé +%"), ("absent", nil),
    ])
    #expect(
      form.encoded
        == "redirect_uri=https%3A%2F%2Fwallet.example.org%2Fcb%3Fx%3D1%26y%3D2&scope=a%20b"
        + "&name=%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20%2B%25")
    let decoded = try FormParameters(body: form.bodyBytes)
    #expect(decoded == form)
    #expect(try FormParameters(query: "scope=a+b")["scope"] == "a b")
    #expect(try FormParameters(query: "").parameters.isEmpty)
    #expect(try FormParameters(query: "a=")["a"] == "")
  }

  @Test(
    "Malformed forms fail",
    arguments: [
      "a=%ZZ", "a=%C3", "a=%FF", "a=1&a=2", "a", "=1", "a=1&&b=2", "a%=1",
    ])
  func formMutations(_ text: String) {
    expectError(.invalidForm) { try FormParameters(query: text) }
  }

  @Test("Oversize forms, too many parameters and non-UTF-8 bodies fail")
  func formLimits() {
    expectError(.invalidForm) {
      // A well-formed form, only too large.
      try FormParameters(
        body: Array("a=".utf8) + [UInt8](repeating: 0x62, count: FormParameters.maximumLength))
    }
    expectError(.invalidForm) {
      try FormParameters(
        query: (0...FormParameters.maximumCount).map { "p\($0)=1" }.joined(separator: "&"))
    }
    expectError(.invalidForm) { try FormParameters(body: [0x61, 0x3D, 0xFF]) }
  }

  @Test("Appending to an endpoint keeps its query and refuses a repeated parameter")
  func formAppend() throws {
    let url = try FormParameters([("b", "2")]).appended(
      to: URL(string: "https://as.example/authorize?a=1")!)
    #expect(url.absoluteString == "https://as.example/authorize?a=1&b=2")
    expectError(.invalidForm) {
      try FormParameters([("a", "2")]).appended(
        to: URL(string: "https://as.example/authorize?a=1")!)
    }
  }

  // MARK: Authorization request (§5.1, RFC 6749 §4.1.1, RFC 9126)

  static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

  @Test("§5.1.1 example: the authorization_details request parses; built back it parses the same")
  func authorizationRequestExample() throws {
    // OpenID4VCI 1.0 §5.1.1 (line breaks removed; state added, which this profile requires).
    let query =
      "response_type=code&client_id=s6BhdRkqt3&code_challenge=\(Self.challenge)"
      + "&code_challenge_method=S256&authorization_details=%5B%7B%22type%22%3A%20%22openid_credential"
      + "%22%2C%20%22credential_configuration_id%22%3A%20%22UniversityDegreeCredential%22%7D%5D"
      + "&redirect_uri=https%3A%2F%2Fwallet.example.org%2Fcb&state=af0ifjsldkj"
    let request = try AuthorizationRequest(parameters: FormParameters(query: query))
    #expect(request.clientID == "s6BhdRkqt3")
    #expect(request.redirectURI == "https://wallet.example.org/cb")
    #expect(request.codeChallenge == Self.challenge)
    let details = try loadVector("authorization_details")
    #expect(request.authorizationDetails?.map(\.json) == details.array)
    let url = try request.url(
      authorizationEndpoint: URL(string: "https://server.example.com/authorize")!)
    guard case .request(let again) = try AuthorizationEndpointRequest(url: url) else {
      Issue.record("not a full request")
      return
    }
    #expect(again == request)
    #expect(
      try AuthorizationRequest(parameters: FormParameters(body: request.pushedBody)) == request)
  }

  @Test("§5.1.2 scope example with resource, and §5.1.1's details with locations and two entries")
  func authorizationRequestScopeAndDetails() throws {
    let query =
      "response_type=code&scope=UniversityDegreeCredential"
      + "&resource=https%3A%2F%2Fcredential-issuer.example.com&client_id=s6BhdRkqt3"
      + "&code_challenge=\(Self.challenge)&code_challenge_method=S256"
      + "&redirect_uri=https%3A%2F%2Fwallet.example.org%2Fcb&state=xyz"
    let request = try AuthorizationRequest(parameters: FormParameters(query: query))
    #expect(request.scope == ["UniversityDegreeCredential"])
    #expect(request.resource == "https://credential-issuer.example.com")
    for name in ["authorization_details_with_as", "authorization_details_multiple_credentials"] {
      let json = try loadVector(name)
      var parameters = try FormParameters(query: query)
      parameters.set("scope", nil)
      parameters.set("authorization_details", json.serialized())
      let parsed = try AuthorizationRequest(parameters: parameters)
      let details = try #require(parsed.authorizationDetails)
      #expect(
        details.map(\.credentialConfigurationID)
          == json.array?.map { $0["credential_configuration_id"]?.string })
      #expect(
        details.map(\.locations) == json.array?.map { $0["locations"]?.array?.compactMap(\.string) }
      )
    }
  }

  @Test(
    "Authorization request mutations fail",
    arguments: [
      ("response_type", "token"), ("response_type", nil), ("client_id", nil),
      ("redirect_uri", nil), ("state", nil), ("code_challenge", nil),
      ("code_challenge", "short"), ("code_challenge_method", nil), ("scope", nil),
      ("request_uri", "urn:x"), ("authorization_details", "{}"),
      ("authorization_details", "[{\"credential_configuration_id\":\"x\"}]"),
      ("authorization_details", "[{\"type\":\"openid_credential\"}]"),
    ] as [(String, String?)])
  func authorizationRequestMutations(_ name: String, _ value: String?) throws {
    var parameters = try FormParameters(
      query: "response_type=code&client_id=c&redirect_uri=https%3A%2F%2Fw%2Fcb&state=s"
        + "&code_challenge=\(Self.challenge)&code_challenge_method=S256&scope=x")
    if name == "authorization_details" { parameters.set("scope", nil) }
    parameters.set(name, value)
    expectError(.invalidAuthorizationRequest) { try AuthorizationRequest(parameters: parameters) }
  }

  @Test("code_challenge_method plain is refused with its own code")
  func plainChallenge() throws {
    let parameters = try FormParameters(
      query: "response_type=code&client_id=c&redirect_uri=https%3A%2F%2Fw%2Fcb&state=s"
        + "&code_challenge=\(Self.challenge)&code_challenge_method=plain&scope=x")
    expectError(.unsupportedCodeChallengeMethod) {
      try AuthorizationRequest(parameters: parameters)
    }
  }

  @Test("RFC 9126 §4: a pushed reference parses; §2.2's response example parses and fails mutated")
  func pushedAuthorization() throws {
    let url = try AuthorizationEndpointRequest.pushedURL(
      authorizationEndpoint: URL(string: "https://server.example.com/authorize")!,
      clientID: "s6BhdRkqt3",
      requestURI: "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c")
    #expect(
      url.absoluteString
        == "https://server.example.com/authorize?client_id=s6BhdRkqt3"
        + "&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A6esc_11ACC5bwc014ltc14eY22c")
    #expect(
      try AuthorizationEndpointRequest(url: url)
        == .pushed(
          clientID: "s6BhdRkqt3",
          requestURI: "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c"))
    expectError(.invalidAuthorizationRequest) {
      try AuthorizationEndpointRequest(parameters: ["request_uri": "urn:x"])
    }
    // OpenID4VCI 1.0 §5.1.4 / RFC 9126 §2.2.
    let example =
      #"{"request_uri": "urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c", "expires_in": 60}"#
    let response = try PushedAuthorizationResponse(jsonBytes: Self.bytes(example))
    #expect(response.expiresIn == 60)
    #expect(try PushedAuthorizationResponse(jsonBytes: response.json.serializedBytes()) == response)
    for mutated in [
      #"{"expires_in": 60}"#, #"{"request_uri": "u"}"#, #"{"request_uri": "u", "expires_in": 0}"#,
      #"{"request_uri": "", "expires_in": 5}"#, #"{"request_uri": "u", "expires_in": "60"}"#, "[]",
    ] {
      expectError(.invalidPushedAuthorizationResponse) {
        try PushedAuthorizationResponse(jsonBytes: Self.bytes(mutated))
      }
    }
  }

  // MARK: Authorization response (RFC 6749 §4.1.2, RFC 9207)

  static let redirectURI = "https://wallet.example.org/cb"
  static let asIssuer = "https://server.example.com"

  func parseRedirect(_ url: String, state: String = "s1", issuerRequired: Bool = true)
    throws(OpenID4VCIError) -> AuthorizationResponse
  {
    try AuthorizationResponse(
      redirect: URL(string: url)!, redirectURI: Self.redirectURI, expectedState: state,
      expectedIssuer: Self.asIssuer, issuerRequired: issuerRequired)
  }

  @Test("A redirect with code, state and iss parses; built by the server side it round-trips")
  func authorizationResponse() throws {
    let built = try AuthorizationResponse(
      code: "SplxlOBeZQQYbYS6WxSbIA", state: "s1", issuer: Self.asIssuer
    )
    .redirectURL(redirectURI: URL(string: Self.redirectURI)!)
    #expect(
      built.absoluteString
        == "https://wallet.example.org/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=s1&iss=https%3A%2F%2Fserver.example.com"
    )
    let parsed = try parseRedirect(built.absoluteString)
    #expect(parsed.code == "SplxlOBeZQQYbYS6WxSbIA")
    // Without iss, accepted only when the server does not advertise it (RFC 9207 §2.4).
    #expect(
      try parseRedirect("https://wallet.example.org/cb?code=c&state=s1", issuerRequired: false).code
        == "c")
  }

  @Test("Redirect checks: state, iss, the redirect_uri, the code")
  func authorizationResponseMutations() {
    let iss = "iss=https%3A%2F%2Fserver.example.com"
    expectError(.stateMismatch) {
      try parseRedirect("https://wallet.example.org/cb?code=c&state=s2&\(iss)")
    }
    expectError(.stateMismatch) { try parseRedirect("https://wallet.example.org/cb?code=c&\(iss)") }
    expectError(.authorizationResponseIssuer) {
      try parseRedirect(
        "https://wallet.example.org/cb?code=c&state=s1&iss=https%3A%2F%2Fevil.example")
    }
    expectError(.authorizationResponseIssuer) {
      try parseRedirect(
        "https://wallet.example.org/cb?code=c&state=s1&iss=https%3A%2F%2Fevil.example",
        issuerRequired: false)
    }
    expectError(.authorizationResponseIssuer) {
      try parseRedirect("https://wallet.example.org/cb?code=c&state=s1")
    }
    expectError(.invalidAuthorizationResponse) {
      try parseRedirect("https://wallet.example.org/other?code=c&state=s1&\(iss)")
    }
    expectError(.invalidAuthorizationResponse) {
      try parseRedirect("https://evil.example/cb?code=c&state=s1&\(iss)")
    }
    expectError(.invalidAuthorizationResponse) {
      try parseRedirect("https://wallet.example.org/cb?state=s1&\(iss)")
    }
    expectError(.invalidAuthorizationResponse) {
      try parseRedirect("https://wallet.example.org/cb?code=c&code=d&state=s1&\(iss)")
    }
  }

  @Test("§5.3 error example: the error comes back typed after the state and iss checks")
  func authorizationErrorResponse() throws {
    let url = try AuthorizationResponse.errorRedirectURL(
      OAuthErrorResponse(
        error: .invalidRequest, errorDescription: "Unsupported response_type value"),
      redirectURI: URL(string: Self.redirectURI)!, state: "s1", issuer: Self.asIssuer)
    do {
      _ = try parseRedirect(url.absoluteString)
      Issue.record("no error thrown")
    } catch {
      #expect(error.code == .errorResponse)
      let underlying = try #require(error.underlying as? OAuthErrorResponse)
      #expect(underlying.error == .invalidRequest)
      #expect(underlying.errorDescription == "Unsupported response_type value")
    }
    // An error for another state is a state mismatch, not an error to believe.
    expectError(.stateMismatch) { try parseRedirect(url.absoluteString, state: "s2") }
  }

  // MARK: Token request and response (§6)

  @Test("§6.1 examples: authorization code and pre-authorized code requests parse and round-trip")
  func tokenRequestExamples() throws {
    let authCode =
      "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA"
      + "&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
      + "&redirect_uri=https%3A%2F%2Fwallet.example.org%2Fcb"
      + "&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer"
      + "&client_assertion=eyJhbGciOiJSU"
    let first = try TokenRequest(body: Self.bytes(authCode))
    #expect(
      first.grant
        == .authorizationCode(
          code: "SplxlOBeZQQYbYS6WxSbIA",
          codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
          redirectURI: "https://wallet.example.org/cb"))
    #expect(try TokenRequest(body: first.body) == first)
    let preAuth =
      "grant_type=urn:ietf:params:oauth:grant-type:pre-authorized_code"
      + "&pre-authorized_code=SplxlOBeZQQYbYS6WxSbIA&tx_code=493536"
      + "&authorization_details=%5B%7B%22type%22%3A%20%22openid_credential%22%2C%20%22"
      + "credential_configuration_id%22%3A%20%22UniversityDegreeCredential%22%7D%5D"
    let second = try TokenRequest(body: Self.bytes(preAuth))
    #expect(second.grant == .preAuthorizedCode(code: "SplxlOBeZQQYbYS6WxSbIA", txCode: "493536"))
    #expect(
      second.authorizationDetails?.first?.credentialConfigurationID == "UniversityDegreeCredential")
    #expect(second.clientID == nil)
    #expect(try TokenRequest(body: second.body) == second)
    let refresh = TokenRequest(grant: .refreshToken("rt"), clientID: "c")
    #expect(try TokenRequest(body: refresh.body) == refresh)
  }

  @Test(
    "Token request mutations fail, each with its code",
    arguments: [
      ("grant_type=password", OpenID4VCIErrorCode.invalidTokenRequest),
      ("code=x", .invalidTokenRequest),
      ("grant_type=authorization_code&code=c&redirect_uri=r", .invalidTokenRequest),
      (
        "grant_type=authorization_code&code=c&code_verifier=short&redirect_uri=r",
        .invalidCodeVerifier
      ),
      (
        "grant_type=authorization_code&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&redirect_uri=r",
        .invalidTokenRequest
      ),
      (
        "grant_type=authorization_code&code=c&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        .invalidTokenRequest
      ),
      (
        "grant_type=authorization_code&code=c&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&redirect_uri=r&tx_code=1",
        .invalidTokenRequest
      ),
      (
        "grant_type=urn:ietf:params:oauth:grant-type:pre-authorized_code&tx_code=1",
        .invalidTokenRequest
      ),
      ("grant_type=refresh_token", .invalidTokenRequest),
      ("grant_type=refresh_token&refresh_token=r&tx_code=1", .invalidTokenRequest),
      ("grant_type=refresh_token&refresh_token=r&grant_type=refresh_token", .invalidTokenRequest),
      (
        "grant_type=refresh_token&refresh_token=r&authorization_details=%5B%5D",
        .invalidTokenRequest
      ),
    ])
  func tokenRequestMutations(_ body: String, code: OpenID4VCIErrorCode) {
    let error = #expect(throws: OpenID4VCIError.self, "\(body)") {
      _ = try TokenRequest(body: Self.bytes(body))
    }
    #expect(error?.code == code, "\(body): \(String(describing: error))")
  }

  @Test("§6.2 example: the token response parses; built back it parses the same")
  func tokenResponseExample() throws {
    let example = """
      {"access_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6Ikp..sHQ", "token_type": "Bearer",
       "expires_in": 86400, "authorization_details": [{"type": "openid_credential",
       "credential_configuration_id": "UniversityDegreeCredential",
       "credential_identifiers": ["CivilEngineeringDegree-2023", "ElectricalEngineeringDegree-2023"]}]}
      """
    let response = try TokenResponse(jsonBytes: Self.bytes(example))
    #expect(response.tokenType == .bearer)
    #expect(response.expiresIn == 86400)
    #expect(
      response.authorizationDetails?.first?.credentialIdentifiers
        == ["CivilEngineeringDegree-2023", "ElectricalEngineeringDegree-2023"])
    #expect(try TokenResponse(jsonBytes: response.json.serializedBytes()) == response)
    let dpop = try TokenResponse(
      jsonBytes: Self.bytes(
        #"{"access_token":"a","token_type":"dpop","refresh_token":"r","extra":1}"#))
    #expect(dpop.tokenType == .dpop)
    #expect(dpop.refreshToken == "r")
    #expect(dpop.tokenType.authorization("a") == "DPoP a")
  }

  @Test(
    "Token response mutations fail",
    arguments: [
      #"{"token_type":"Bearer"}"#, #"{"access_token":"","token_type":"Bearer"}"#,
      #"{"access_token":"a"}"#, #"{"access_token":"a","token_type":"MAC"}"#,
      #"{"access_token":"a","token_type":"DPoP","expires_in":0}"#,
      #"{"access_token":"a","token_type":"DPoP","expires_in":"60"}"#,
      #"{"access_token":"a","token_type":"DPoP","authorization_details":[]}"#,
      #"{"access_token":"a","token_type":"DPoP","authorization_details":[{"type":"openid_credential","credential_configuration_id":"x"}]}"#,
      #"{"access_token":"a","token_type":"DPoP","authorization_details":[{"type":"openid_credential","credential_configuration_id":"x","credential_identifiers":["a","a"]}]}"#,
      #"{"access_token":"a","token_type":"DPoP","authorization_details":[{"credential_configuration_id":"x"}]}"#,
      "[1]", "not json",
    ])
  func tokenResponseMutations(_ body: String) {
    expectError(.invalidTokenResponse) { try TokenResponse(jsonBytes: Self.bytes(body)) }
  }

  @Test("Oversize token and credential responses fail before parsing")
  func oversize() {
    let big = [UInt8](repeating: 0x20, count: 64 * 1024 + 1)
    expectError(.invalidTokenResponse) { try TokenResponse(jsonBytes: big) }
    expectError(.invalidNonceResponse) { try NonceResponse(jsonBytes: big) }
    expectError(.invalidErrorResponse) { try OAuthErrorResponse(jsonBytes: big) }
    expectError(.invalidCredentialResponse) {
      try CredentialResponse(
        jsonBytes: [UInt8](repeating: 0x20, count: CredentialResponse.maximumLength + 1))
    }
  }

  // MARK: Errors (RFC 6749 §5.2, RFC 6750 §3, RFC 9449 §7.1, §8, §9)

  @Test("Error bodies parse; use_dpop_nonce is recognised with its DPoP-Nonce; bad characters fail")
  func errorResponses() throws {
    // RFC 9449 §8 example body.
    let body =
      #"{"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof"}"#
    let error = try OAuthErrorResponse(
      jsonBytes: Self.bytes(body), dpopNonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", status: 400)
    #expect(error.isUseDPoPNonce)
    #expect(try OAuthErrorResponse(jsonBytes: error.json.serializedBytes()).error == .useDPoPNonce)
    #expect(try !OAuthErrorResponse(jsonBytes: Self.bytes(body)).isUseDPoPNonce)
    // OpenID4VCI 1.0 §8.3.1.2 example.
    #expect(
      try OAuthErrorResponse(
        jsonBytes: Self.bytes(#"{"error": "unknown_credential_configuration"}"#)
      ).error == .unknownCredentialConfiguration)
    for bad in [
      #"{}"#, #"{"error": ""}"#, #"{"error": "a\"b"}"#,
      #"{"error": "x", "error_description": "é"}"#,
      #"{"error": "x", "error_description": "back\\slash"}"#, #"{"error": 1}"#,
    ] {
      expectError(.invalidErrorResponse) { try OAuthErrorResponse(jsonBytes: Self.bytes(bad)) }
    }
  }

  @Test("WWW-Authenticate challenges (RFC 9449 §9 example, RFC 6750 §3) parse; malformed ones fail")
  func wwwAuthenticate() throws {
    let challenge =
      #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
    let error = try #require(try OAuthErrorResponse(wwwAuthenticate: challenge, dpopNonce: "n"))
    #expect(error.isUseDPoPNonce)
    #expect(error.errorDescription == "Resource server requires nonce in DPoP proof")
    let bearer = try #require(
      try OAuthErrorResponse(
        wwwAuthenticate:
          #"Bearer realm="example", error=invalid_token, error_description="The access token expired""#
      ))
    #expect(bearer.error == .invalidToken)
    #expect(try OAuthErrorResponse(wwwAuthenticate: #"DPoP algs="ES256""#) == nil)
    let built = OAuthErrorResponse(error: .invalidToken, errorDescription: "expired")
      .wwwAuthenticate(scheme: "DPoP")
    #expect(try OAuthErrorResponse(wwwAuthenticate: built)?.error == .invalidToken)
    expectError(.invalidErrorResponse) {
      try OAuthErrorResponse(wwwAuthenticate: #"DPoP error="open"#)
    }
    expectError(.invalidErrorResponse) {
      try OAuthErrorResponse(wwwAuthenticate: #"DPoP error=a, error=b"#)
    }
    expectError(.invalidErrorResponse) {
      try OAuthErrorResponse(
        wwwAuthenticate: "DPoP error=\"" + String(repeating: "a", count: 5000) + "\"")
    }
  }

  // MARK: Nonce (§7)

  @Test("§7.2 example: the nonce response parses; mutations fail")
  func nonceResponse() throws {
    let response = try NonceResponse(
      jsonBytes: Self.bytes(#"{"c_nonce": "wKI4LT17ac15ES9bw8ac4"}"#))
    #expect(response.cNonce == "wKI4LT17ac15ES9bw8ac4")
    #expect(try NonceResponse(jsonBytes: response.json.serializedBytes()) == response)
    for bad in [#"{}"#, #"{"c_nonce": ""}"#, #"{"c_nonce": 5}"#] {
      expectError(.invalidNonceResponse) { try NonceResponse(jsonBytes: Self.bytes(bad)) }
    }
  }

  // MARK: Credential request (§8.2)

  @Test("§8.2 examples: configuration id with one proof, identifier with two; round-trips")
  func credentialRequestExamples() throws {
    let mdl =
      #"{"credential_configuration_id": "org.iso.18013.5.1.mDL", "proofs": {"jwt": ["eyJraWQiOiJkaWQ6ZXhhbXBsZTplYmZlYjFmNzEyZWJjNmYxYzI3NmUxMmVjMjEva2V5cy8xIiwiYWxnIjoiRVMyNTYiLCJ0eXAiOiJKV1QifQ"]}}"#
    let first = try CredentialRequest(jsonBytes: Self.bytes(mdl))
    #expect(first.target == .credentialConfigurationID("org.iso.18013.5.1.mDL"))
    let sdjwt =
      #"{"credential_identifier": "CivilEngineeringDegree-2023", "proofs": {"jwt": ["a.b.c", "d.e.f"]}}"#
    let second = try CredentialRequest(jsonBytes: Self.bytes(sdjwt))
    #expect(second.proofs == .jwt(["a.b.c", "d.e.f"]))
    for request in [first, second] {
      #expect(try CredentialRequest(jsonBytes: request.json.serializedBytes()) == request)
    }
    let key = try ECPrivateKey(curve: .p256)
    let encrypted = CredentialRequest(
      target: .credentialIdentifier("x"), proofs: .attestation("k.a.t"),
      credentialResponseEncryption: CredentialResponseEncryption(
        jwk: JWK(publicKey: key.publicKey, kid: "k1", alg: "ECDH-ES"), enc: .a128gcm))
    #expect(try CredentialRequest(jsonBytes: encrypted.json.serializedBytes()) == encrypted)
  }

  @Test("The pre-1.0 request example (format + doctype) is refused")
  func oldCredentialRequest() throws {
    let json = try loadVector("credential_request_iso_mdl")
    expectError(.invalidCredentialRequest) { try CredentialRequest(json: json) }
  }

  @Test(
    "Credential request mutations fail",
    arguments: [
      #"{}"#, #"{"credential_identifier": "a", "credential_configuration_id": "b"}"#,
      #"{"credential_identifier": ""}"#, #"{"credential_identifier": 1}"#,
      #"{"credential_identifier": "a", "proofs": {}}"#,
      #"{"credential_identifier": "a", "proofs": {"jwt": []}}"#,
      #"{"credential_identifier": "a", "proofs": {"jwt": "x"}}"#,
      #"{"credential_identifier": "a", "proofs": {"jwt": [1]}}"#,
      #"{"credential_identifier": "a", "proofs": {"jwt": ["x"], "attestation": ["y"]}}"#,
      #"{"credential_identifier": "a", "proofs": {"di_vp": ["x"]}}"#,
      #"{"credential_identifier": "a", "proofs": {"attestation": ["x", "y"]}}"#,
      #"{"credential_identifier": "a", "credential_response_encryption": {"enc": "A128GCM"}}"#,
      #"{"credential_identifier": "a", "credential_response_encryption": {"jwk": {"kty":"EC","crv":"P-256","x":"TCAER19Zvu3OHF4j4W4vfSVoHIP1ILilDls7vCeGemc","y":"ZxjiWWbZMQGHVWKVQ4hbSIirsVfuecCE6t4jT9F2HZQ"}, "enc": "A128GCM"}}"#,
      #"{"credential_identifier": "a", "credential_response_encryption": {"jwk": {"kty":"EC","crv":"P-256","alg":"ECDH-ES","x":"TCAER19Zvu3OHF4j4W4vfSVoHIP1ILilDls7vCeGemc","y":"ZxjiWWbZMQGHVWKVQ4hbSIirsVfuecCE6t4jT9F2HZQ"}, "enc": "A192CBC"}}"#,
      #"{"credential_identifier": "a", "credential_response_encryption": {"jwk": {"kty":"EC","crv":"P-256","alg":"ECDH-ES","x":"AAAA","y":"AAAA"}, "enc": "A128GCM"}}"#,
    ])
  func credentialRequestMutations(_ body: String) {
    expectError(.invalidCredentialRequest) { try CredentialRequest(jsonBytes: Self.bytes(body)) }
  }

  @Test("A private jwk for response encryption, and more credentials than the cap, are refused")
  func privateKeyAndCredentialCap() throws {
    let key = try ECPrivateKey(curve: .p256)
    let request: JSONValue = [
      "credential_identifier": "a",
      "credential_response_encryption": [
        "jwk": JWK(privateKey: key, alg: "ECDH-ES").json, "enc": "A128GCM",
      ],
    ]
    expectError(.invalidCredentialRequest) { try CredentialRequest(json: request) }
    let credentials = (0...CredentialRequestProofs.maximumCount).map { _ in
      JSONValue.object([("credential", "x")])
    }
    expectError(.invalidCredentialResponse) {
      try CredentialResponse(json: ["credentials": .array(credentials)])
    }
  }

  @Test("More proofs than the cap fail")
  func tooManyProofs() {
    let proofs = (0...CredentialRequestProofs.maximumCount).map { _ in JSONValue.string("a.b.c") }
    let json: JSONValue = ["credential_identifier": "a", "proofs": ["jwt": .array(proofs)]]
    expectError(.invalidCredentialRequest) { try CredentialRequest(json: json) }
  }

  // MARK: Credential response (§8.3, §9.2, §10)

  @Test("§8.3 and §9.2 examples: immediate, batch with notification_id, deferred")
  func credentialResponseExamples() throws {
    let one = try CredentialResponse(
      jsonBytes: Self.bytes(
        #"{"credentials": [{"credential": "LUpixVCWJk0eOt4CXQe1NXK....WZwmhmn9OQp6YxX0a2L"}]}"#))
    #expect(
      one
        == .issued(
          [IssuedCredential("LUpixVCWJk0eOt4CXQe1NXK....WZwmhmn9OQp6YxX0a2L")], notificationID: nil)
    )
    let batch = try CredentialResponse(
      jsonBytes: Self.bytes(
        #"{"credentials": [{"credential": "LUpixVCWJk0eOt4CXQe1NXK....WZwmhmn9OQp6YxX0a2L"}, {"credential": "YXNkZnNhZGZkamZqZGFza23....29tZTIzMjMyMzIzMjMy"}], "notification_id": "3fwe98js"}"#
      ))
    guard case .issued(let credentials, let notificationID) = batch else {
      Issue.record("not issued")
      return
    }
    #expect(credentials.count == 2)
    #expect(notificationID == "3fwe98js")
    #expect(batch.status == 200)
    let deferred = try CredentialResponse(
      jsonBytes: Self.bytes(#"{"transaction_id": "8xLOxBtZp8", "interval" : 3600}"#))
    #expect(deferred == .deferred(transactionID: "8xLOxBtZp8", interval: 3600))
    #expect(deferred.status == 202)
    #expect(
      try CredentialResponse(
        jsonBytes: deferred.json.serializedBytes(), expectedTransactionID: "8xLOxBtZp8") == deferred
    )
    expectError(.invalidCredentialResponse) {
      try CredentialResponse(
        jsonBytes: deferred.json.serializedBytes(), expectedTransactionID: "other")
    }
    for response in [one, batch] {
      #expect(try CredentialResponse(jsonBytes: response.json.serializedBytes()) == response)
    }
    // Appendix A.2.4: an mdoc credential is base64url IssuerSigned.
    let mdoc = IssuedCredential(.string(Base64URL.encode([0xA2, 0x6A])))
    #expect(try mdoc.mdocIssuerSigned() == [0xA2, 0x6A])
    expectError(.invalidCredentialResponse) {
      try IssuedCredential("not base64url!").mdocIssuerSigned()
    }
    expectError(.invalidCredentialResponse) { try IssuedCredential(["a": 1]).mdocIssuerSigned() }
  }

  @Test(
    "Credential response mutations fail",
    arguments: [
      #"{}"#, #"{"credentials": []}"#, #"{"credentials": [{}]}"#,
      #"{"credentials": [{"credential": ""}]}"#,
      #"{"credentials": [{"credential": 5}]}"#, #"{"credentials": ["x"]}"#,
      #"{"credentials": [{"credential": "x"}], "transaction_id": "t"}"#,
      #"{"credentials": [{"credential": "x"}], "interval": 5}"#,
      #"{"credentials": [{"credential": "x"}], "notification_id": ""}"#,
      #"{"transaction_id": "t"}"#, #"{"transaction_id": "t", "interval": 0}"#,
      #"{"transaction_id": "", "interval": 5}"#,
      #"{"transaction_id": "t", "interval": 5, "notification_id": "n"}"#,
    ])
  func credentialResponseMutations(_ body: String) {
    expectError(.invalidCredentialResponse) { try CredentialResponse(jsonBytes: Self.bytes(body)) }
  }

  @Test(
    "§10: an encrypted response decrypts with the wallet key; other keys, enc or tampering fail")
  func encryptedResponse() throws {
    let key = try ECPrivateKey(curve: .p256)
    let encryption = CredentialResponseEncryption(
      jwk: JWK(publicKey: key.publicKey, kid: "enc-1", alg: "ECDH-ES"), enc: .a256gcm)
    let response = CredentialResponse.issued([IssuedCredential("cred")], notificationID: "n")
    let jwe = try response.encrypted(to: encryption)
    let header = try JSONValue(parsing: Base64URL.decode(String(jwe.split(separator: ".")[0])))
    #expect(header["alg"] == "ECDH-ES")
    #expect(header["enc"] == "A256GCM")
    #expect(header["kid"] == "enc-1")
    #expect(try CredentialResponse(encrypted: jwe, encryption: encryption, key: key) == response)
    expectError(.responseEncryption) {
      try CredentialResponse(
        encrypted: jwe, encryption: encryption, key: ECPrivateKey(curve: .p256))
    }
    var otherEnc = encryption
    otherEnc.enc = .a128gcm
    expectError(.responseEncryption) {
      try CredentialResponse(encrypted: jwe, encryption: otherEnc, key: key)
    }
    var otherKid = encryption
    otherKid.jwk.kid = "enc-2"
    expectError(.responseEncryption) {
      try CredentialResponse(encrypted: jwe, encryption: otherKid, key: key)
    }
    var parts = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[3] = Base64URL.encode(Array(repeating: 0, count: 20))
    expectError(.responseEncryption) {
      try CredentialResponse(
        encrypted: parts.joined(separator: "."), encryption: encryption, key: key)
    }
    expectError(.responseEncryption) {
      try CredentialResponse(encrypted: #"{"credentials":[]}"#, encryption: encryption, key: key)
    }
    var zipped = encryption
    zipped.zip = "DEF"
    expectError(.responseEncryption) { try response.encrypted(to: zipped) }
  }

  // MARK: Deferred (§9) and notification (§11)

  @Test("§9.1 and §11.1 examples parse and round-trip; mutations fail")
  func deferredAndNotification() throws {
    let deferred = try DeferredCredentialRequest(
      jsonBytes: Self.bytes(#"{"transaction_id": "8xLOxBtZp8"}"#))
    #expect(deferred.transactionID == "8xLOxBtZp8")
    #expect(try DeferredCredentialRequest(jsonBytes: deferred.json.serializedBytes()) == deferred)
    for bad in [#"{}"#, #"{"transaction_id": ""}"#, #"{"transaction_id": 1}"#] {
      expectError(.invalidCredentialRequest) {
        try DeferredCredentialRequest(jsonBytes: Self.bytes(bad))
      }
    }
    let accepted = try NotificationRequest(
      jsonBytes: Self.bytes(#"{"notification_id": "3fwe98js", "event": "credential_accepted"}"#))
    #expect(accepted.event == .credentialAccepted)
    let failure = try NotificationRequest(
      jsonBytes: Self.bytes(
        #"{"notification_id": "3fwe98js", "event": "credential_failure", "event_description": "Could not store the Credential. Out of storage."}"#
      ))
    #expect(failure.eventDescription == "Could not store the Credential. Out of storage.")
    for request in [
      accepted, failure, NotificationRequest(notificationID: "n", event: .credentialDeleted),
    ] {
      #expect(try NotificationRequest(jsonBytes: request.json.serializedBytes()) == request)
    }
    for bad in [
      #"{"event": "credential_accepted"}"#, #"{"notification_id": "n"}"#,
      #"{"notification_id": "n", "event": "credential_lost"}"#,
      #"{"notification_id": "n", "event": "credential_deleted", "event_description": "\"q\""}"#,
      #"{"notification_id": "", "event": "credential_deleted"}"#,
    ] {
      expectError(.invalidNotificationRequest) {
        try NotificationRequest(jsonBytes: Self.bytes(bad))
      }
    }
  }
}
