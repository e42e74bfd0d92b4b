import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCWallet
import DCWalletFixtureTestSupport
import Foundation
import Testing

/// The wallet's issuance client against an in-process fake issuer that answers per OpenID4VCI
/// 1.0 (checking with the OpenID4VCI module's server-side types).
@Suite("Issuance client (OpenID4VCI 1.0) against a fake issuer")
struct IssuanceClientTests {
  static let redirectURI = "https://wallet.example.org/cb"

  static func client(
    _ issuer: FakeIssuer, provider: (any WalletProvider)? = nil, maximumResponseBytes: Int = 8 << 20
  ) -> IssuanceClient {
    IssuanceClient(
      http: InProcessHTTPClient(handler: issuer, maximumResponseBytes: maximumResponseBytes),
      configuration: IssuanceClient.Configuration(
        clientID: "wallet-client", redirectURI: redirectURI, walletProvider: provider))
  }

  static func offer(_ issuer: FakeIssuer) throws -> CredentialOffer {
    try CredentialOffer(json: issuer.offerJSON)
  }

  /// Expects `body` to throw an `IssuanceError` with `code`; returns it.
  @discardableResult
  static func expectIssuanceError<T>(
    _ code: IssuanceErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
  ) async -> IssuanceError? {
    do {
      _ = try await body()
      Issue.record(
        "expected IssuanceError.\(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as IssuanceError {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      return error
    } catch {
      Issue.record("expected IssuanceError.\(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  // MARK: Offers and metadata

  @Test("An offer by reference is fetched; by value it is read in place")
  func offers() async throws {
    let issuer = FakeIssuer()
    let client = Self.client(issuer)
    let byReference = try await client.resolveOffer(
      "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Foffer")
    #expect(byReference.credentialIssuer.string == "https://issuer.example")
    #expect(issuer.requests(to: "/offer").count == 1)
    let byValue = try await client.resolveOffer(byReference.uri())
    #expect(byValue == byReference)
    await Self.expectIssuanceError(.offer) { try await client.resolveOffer("https://not-an-offer") }
    await Self.expectIssuanceError(.offer) {
      try await client.resolveOffer(
        "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Fmissing")
    }
  }

  @Test("Metadata naming another credential_issuer than the one fetched is refused")
  func credentialIssuerMismatch() async throws {
    var settings = FakeIssuer.Settings()
    settings.metadataIssuer = "https://evil.example"
    let issuer = FakeIssuer(settings)
    let error = await Self.expectIssuanceError(.metadata) {
      try await Self.client(issuer).issuePreAuthorized(offer: Self.offer(issuer), txCode: "493536")
    }
    #expect((error?.underlying as? OpenID4VCIError)?.code == .issuerMismatch)
  }

  // MARK: Pre-authorized code flow

  @Test(
    "Pre-authorized code with tx_code, DPoP nonces at both servers, one credential per configuration"
  )
  func preAuthorized() async throws {
    let issuer = FakeIssuer()
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536")
    #expect(result.failed.isEmpty, "\(result.failed.map(\.error))")
    #expect(result.issued.count == 2)
    let pid = try #require(result.issued.first { $0.configurationID == "pid-sd-jwt" })
    let key = try #require(pid.deviceKey)
    #expect(
      pid.credential.text == "sd-jwt-for-\(JWK(publicKey: key.publicKey).thumbprintBase64URL)~")
    #expect(pid.display.first?.name == "Fake PID")
    #expect(pid.display.first?.backgroundColor == "#123456")
    #expect(pid.issuerDisplay.first?.name == "Fake Issuer")
    #expect(pid.format == .sdJWTVC(vct: "urn:eudi:pid:1"))
    let mdl = try #require(result.issued.first { $0.configurationID == "mdl" })
    #expect(
      try mdl.credential.mdocIssuerSigned()
        == Array(
          "mdoc-for-\(JWK(publicKey: try #require(mdl.deviceKey).publicKey).thumbprintBase64URL)"
            .utf8))
    #expect(result.refreshToken != nil)
    // use_dpop_nonce once at the token endpoint (RFC 9449 §8), then accepted.
    let tokens = issuer.requests(to: "/token")
    #expect(tokens.count == 2)
    // The token request is anonymous (no client_id) and the proofs carry no iss (§F.1).
    let form = try FormParameters(body: tokens[1].body)
    #expect(form["client_id"] == nil)
    #expect(form["tx_code"] == "493536")
    let credentialRequest = try CredentialRequest(
      jsonBytes: issuer.requests(to: "/credential")[0].body)
    guard case .jwt(let proofs) = credentialRequest.proofs else {
      Issue.record("no jwt proofs")
      return
    }
    #expect(try decodeClaims(proofs[0])["iss"] == nil)
    #expect(try decodeClaims(proofs[0])["aud"] == "https://issuer.example")
    // The nonce endpoint's DPoP-Nonce let the credential request pass the first time.
    #expect(issuer.requests(to: "/credential").count == 2)
  }

  @Test(
    "A missing tx_code is refused before any request, naming tx_code; a wrong one fails at the token endpoint"
  )
  func txCode() async throws {
    let issuer = FakeIssuer()
    let error = await Self.expectIssuanceError(.txCodeRequired) {
      try await Self.client(issuer).issuePreAuthorized(offer: Self.offer(issuer), txCode: nil)
    }
    #expect(error?.reason.contains("tx_code") == true)
    #expect(issuer.log.isEmpty)
    let wrong = await Self.expectIssuanceError(.token) {
      try await Self.client(issuer).issuePreAuthorized(offer: Self.offer(issuer), txCode: "000000")
    }
    #expect((wrong?.underlying as? OAuthErrorResponse)?.error == .invalidGrant)
  }

  @Test("A batch of N: N proofs by N distinct keys in one request, capped by batch_size")
  func batch() async throws {
    var settings = FakeIssuer.Settings()
    settings.batchSize = 3
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["mdl"], batchSize: 10))
    #expect(result.issued.count == 3)
    let keys = Set(
      result.issued.compactMap {
        $0.deviceKey.map { JWK(publicKey: $0.publicKey).thumbprintBase64URL }
      })
    #expect(keys.count == 3)
    #expect(Set(result.issued.compactMap(\.notification?.notificationID)).count == 1)
    let requests = issuer.requests(to: "/credential").filter { $0.headers["DPoP"] != nil }
    let last = try CredentialRequest(jsonBytes: try #require(requests.last).body)
    guard case .jwt(let proofs) = last.proofs else {
      Issue.record("no proofs")
      return
    }
    #expect(proofs.count == 3)
  }

  @Test("More credentials than proofs is refused per configuration")
  func tooManyCredentials() async throws {
    // The fake issues one per key; with issueFewer it issues one: fine. Check the cap the
    // other way with a custom configuration: one proof, and the fake's batch answer of one.
    var settings = FakeIssuer.Settings()
    settings.issueFewer = true
    settings.batchSize = 4
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"], batchSize: 4))
    // Fewer credentials than proofs is allowed (§8.3: "unless the Issuer decides to issue fewer").
    #expect(result.issued.count == 1)
  }

  @Test("use_dpop_nonce is retried once, not for ever")
  func dpopNonceBounded() async throws {
    var settings = FakeIssuer.Settings()
    settings.useDPoPNonceForever = true
    let issuer = FakeIssuer(settings)
    let error = await Self.expectIssuanceError(.token) {
      try await Self.client(issuer).issuePreAuthorized(offer: Self.offer(issuer), txCode: "493536")
    }
    #expect((error?.underlying as? OAuthErrorResponse)?.error == .useDPoPNonce)
    #expect(issuer.requests(to: "/token").count == 2)
  }

  @Test("The credential endpoint's use_dpop_nonce (401 WWW-Authenticate) is retried once")
  func resourceDPoPNonce() async throws {
    var settings = FakeIssuer.Settings()
    settings.asNonce = false
    let issuer = FakeIssuer(settings)
    // A nonce endpoint that sends no DPoP-Nonce: the first credential request must be refused.
    issuer.settings.rsNonce = true
    let client = Self.client(issuer)
    let offer = try Self.offer(issuer)
    let result = try await client.issuePreAuthorized(
      offer: offer, txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(result.issued.count == 1)
    #expect(issuer.requests(to: "/token").count == 1)
    let credentialRequests = issuer.requests(to: "/credential")
    // First with the nonce from the nonce endpoint: accepted at once.
    #expect(credentialRequests.count == 1)
    // Now a session without the nonce endpoint's DPoP-Nonce: the resource server asks for one.
    let second = FakeIssuer(settings)
    second.settings.rsNonce = true
    let noNonceHeader = NonceStripper(inner: second)
    let stripped = IssuanceClient(
      http: InProcessHTTPClient(handler: noNonceHeader),
      configuration: IssuanceClient.Configuration(
        clientID: "wallet-client", redirectURI: Self.redirectURI))
    let again = try await stripped.issuePreAuthorized(
      offer: Self.offer(second), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(again.issued.count == 1)
    #expect(second.requests(to: "/credential").count == 2)
  }

  @Test("An oversize credential response fails that configuration, by the client's limit")
  func oversize() async throws {
    var settings = FakeIssuer.Settings()
    settings.oversizeCredentialResponse = true
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer, maximumResponseBytes: 1 << 20).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(result.issued.isEmpty)
    #expect(result.failed.first?.error.code == .transport)
    // Without a transport limit, the parser's own cap refuses it.
    let unlimited = try await Self.client(issuer, maximumResponseBytes: .max).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(unlimited.failed.first?.error.code == .credential)
  }

  @Test("Encrypted credential responses when the issuer requires them")
  func encryption() async throws {
    var settings = FakeIssuer.Settings()
    settings.encryptionRequired = true
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(result.issued.count == 1, "\(result.failed.map(\.error))")
    let response = try #require(issuer.requests(to: "/credential").last)
    let request = try CredentialRequest(jsonBytes: response.body)
    #expect(request.credentialResponseEncryption?.enc == .a128gcm)
  }

  @Test(
    "Unusable credential responses fail their configuration",
    arguments: ["plainDespiteEncryption", "wrongStatus", "extraCredentials", "objectCredential"])
  func unusableResponses(_ setting: String) async throws {
    var settings = FakeIssuer.Settings()
    switch setting {
    case "plainDespiteEncryption":
      settings.encryptionRequired = true
      settings.plainDespiteEncryption = true
    case "wrongStatus": settings.wrongStatus = true
    case "extraCredentials": settings.extraCredentials = true
    default: settings.objectCredential = true
    }
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"]))
    #expect(result.issued.isEmpty)
    #expect(result.failed.first?.error.code == .credential, "\(result.failed.map(\.error))")
    if setting == "plainDespiteEncryption" {
      // §10: refused as unencrypted, before any attempt to decrypt it.
      #expect(
        result.failed.first?.error.reason.contains("encrypted response was requested") == true)
    }
  }

  @Test("Configurations the offer does not name, or the metadata lacks, fail alone")
  func unknownConfigurations() async throws {
    let issuer = FakeIssuer()
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["mdl", "not-offered"]))
    #expect(result.issued.map(\.configurationID) == ["mdl"])
    #expect(result.failed.map(\.configurationID) == ["not-offered"])
    #expect(result.failed.first?.error.code == .unsupported)
    // A configuration the issuer publishes but this offer does not name is not requested.
    let narrowOffer = try CredentialOffer(
      json: issuer.offerJSON.setting("credential_configuration_ids", to: ["pid-sd-jwt"]))
    let narrow = try await Self.client(issuer).issuePreAuthorized(
      offer: narrowOffer, txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["mdl"]))
    #expect(narrow.issued.isEmpty)
    #expect(narrow.failed.first?.error.code == .unsupported)
    // Metadata fetched for another issuer is not used for this offer.
    var other = FakeIssuer.Settings()
    other.issuer = "https://other.example"
    let otherIssuer = FakeIssuer(other)
    let context = try await Self.client(otherIssuer).issuerMetadata(
      IssuerIdentifier("https://other.example"))
    let error = await Self.expectIssuanceError(.metadata) {
      try await Self.client(issuer).issuePreAuthorized(
        offer: Self.offer(issuer), txCode: "493536", issuer: context)
    }
    #expect(error?.reason.contains("another issuer") == true)
  }

  @Test("Credential identifiers from the token response are requested by credential_identifier")
  func credentialIdentifiers() async throws {
    var settings = FakeIssuer.Settings()
    settings.credentialIdentifiers = true
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536")
    #expect(result.issued.count == 2, "\(result.failed.map(\.error))")
    let bodies = try issuer.requests(to: "/credential").map {
      try CredentialRequest(jsonBytes: $0.body)
    }
    #expect(bodies.contains { $0.target == .credentialIdentifier("pid-dataset-1") })
  }

  @Test("A server that advertises DPoP and issues a Bearer token is refused")
  func bearerDespiteDPoP() async throws {
    var settings = FakeIssuer.Settings()
    settings.tokenType = .bearer
    let issuer = FakeIssuer(settings)
    await Self.expectIssuanceError(.token) {
      try await Self.client(issuer).issuePreAuthorized(offer: Self.offer(issuer), txCode: "493536")
    }
  }

  // MARK: Authorization code flow

  @Test("Authorization code with PAR, PKCE, state and iss; the redirect completes the flow")
  func authorizationCode() async throws {
    let issuer = FakeIssuer()
    let client = Self.client(issuer)
    let pending = try await client.beginAuthorization(offer: Self.offer(issuer))
    // PAR: the browser URL carries only client_id and request_uri (RFC 9126 §4).
    let query = try FormParameters(
      query: try #require(
        URLComponents(url: pending.authorizationURL, resolvingAgainstBaseURL: false)?
          .percentEncodedQuery))
    #expect(Set(query.map(\.name)) == ["client_id", "request_uri"])
    let pushed = try AuthorizationRequest(
      parameters: FormParameters(body: try #require(issuer.requests(to: "/par").last).body))
    #expect(pushed.issuerState == "issuer-state-1")
    #expect(pushed.authorizationDetails?.map(\.credentialConfigurationID) == ["pid-sd-jwt", "mdl"])
    let redirect = try #require(issuer.authorize(pending.authorizationURL))
    let result = try await client.completeAuthorization(pending, redirect: redirect)
    #expect(result.issued.count == 2, "\(result.failed.map(\.error))")
    // The proofs name the client (§F.1: iss is the client_id).
    let body = try #require(issuer.requests(to: "/credential").last).body
    guard case .jwt(let proofs) = try CredentialRequest(jsonBytes: body).proofs else {
      Issue.record("no proofs")
      return
    }
    #expect(try decodeClaims(proofs[0])["iss"] == "wallet-client")
  }

  @Test("Without PAR the authorization URL carries the full request")
  func noPAR() async throws {
    var settings = FakeIssuer.Settings()
    settings.par = false
    let issuer = FakeIssuer(settings)
    let client = Self.client(issuer)
    let pending = try await client.beginAuthorization(offer: Self.offer(issuer))
    guard
      case .request(let request) = try AuthorizationEndpointRequest(url: pending.authorizationURL)
    else {
      Issue.record("not a full request")
      return
    }
    #expect(request.state == pending.state)
    #expect(request.redirectURI == Self.redirectURI)
    let redirect = try #require(issuer.authorize(pending.authorizationURL))
    #expect(try await client.completeAuthorization(pending, redirect: redirect).issued.count == 2)
  }

  @Test("A redirect with another state, another iss, or no iss where advertised is refused")
  func redirectChecks() async throws {
    for (state, iss, expected) in [
      ("other-state", nil, OpenID4VCIErrorCode.stateMismatch),
      (nil, "https://evil.example", .authorizationResponseIssuer),
    ] as [(String?, String?, OpenID4VCIErrorCode)] {
      var settings = FakeIssuer.Settings()
      settings.redirectState = state
      settings.redirectIss = iss
      let issuer = FakeIssuer(settings)
      let client = Self.client(issuer)
      let pending = try await client.beginAuthorization(offer: Self.offer(issuer))
      let redirect = try #require(issuer.authorize(pending.authorizationURL))
      let error = await Self.expectIssuanceError(.authorization) {
        try await client.completeAuthorization(pending, redirect: redirect)
      }
      #expect((error?.underlying as? OpenID4VCIError)?.code == expected)
      #expect(issuer.requests(to: "/token").isEmpty)
    }
    // iss advertised but absent.
    let issuer = FakeIssuer()
    let client = Self.client(issuer)
    let pending = try await client.beginAuthorization(offer: Self.offer(issuer))
    let redirect = try #require(issuer.authorize(pending.authorizationURL))
    var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
    components.queryItems = components.queryItems?.filter { $0.name != "iss" }
    let error = await Self.expectIssuanceError(.authorization) {
      try await client.completeAuthorization(pending, redirect: try #require(components.url))
    }
    #expect((error?.underlying as? OpenID4VCIError)?.code == .authorizationResponseIssuer)
  }

  @Test("A server without PKCE S256, or without ES256 for DPoP, is refused before any request")
  func unsupportedServer() async throws {
    var plain = FakeIssuer.Settings()
    plain.codeChallengeMethods = ["plain"]
    let plainIssuer = FakeIssuer(plain)
    await Self.expectIssuanceError(.unsupported) {
      try await Self.client(plainIssuer).beginAuthorization(offer: Self.offer(plainIssuer))
    }
    #expect(plainIssuer.requests(to: "/par").isEmpty)
    var rsa = FakeIssuer.Settings()
    rsa.dpopAlgorithms = ["RS256"]
    let rsaIssuer = FakeIssuer(rsa)
    await Self.expectIssuanceError(.unsupported) {
      try await Self.client(rsaIssuer).issuePreAuthorized(
        offer: Self.offer(rsaIssuer), txCode: "493536")
    }
    #expect(rsaIssuer.requests(to: "/token").isEmpty)
  }

  @Test("A wrong code verifier would fail at the server: PKCE binds the code to this flow")
  func pkceBinding() async throws {
    let issuer = FakeIssuer()
    let client = Self.client(issuer)
    let first = try await client.beginAuthorization(offer: Self.offer(issuer))
    let second = try await client.beginAuthorization(offer: Self.offer(issuer))
    // The code of the first flow redeemed by the second (its verifier and state differ).
    let redirect = try #require(issuer.authorize(first.authorizationURL))
    var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
    components.queryItems = components.queryItems?.map {
      $0.name == "state" ? URLQueryItem(name: "state", value: second.state) : $0
    }
    let error = await Self.expectIssuanceError(.token) {
      try await client.completeAuthorization(second, redirect: try #require(components.url))
    }
    #expect((error?.underlying as? OAuthErrorResponse)?.error == .invalidGrant)
  }

  // MARK: Attestations

  @Test(
    "Client attestation headers at PAR and token, with the challenge; key attestations in proofs")
  func attestations() async throws {
    let provider = try DevelopmentWalletProvider(clientID: "wallet-client")
    var settings = FakeIssuer.Settings()
    settings.attestation = true
    settings.keyAttestationRequired = true
    let issuer = FakeIssuer(settings, walletAttester: provider.attesterPublicKey)
    let client = Self.client(issuer, provider: provider)
    let pending = try await client.beginAuthorization(offer: Self.offer(issuer))
    let redirect = try #require(issuer.authorize(pending.authorizationURL))
    let result = try await client.completeAuthorization(pending, redirect: redirect)
    #expect(result.issued.count == 2, "\(result.failed.map(\.error))")
    for request in issuer.requests(to: "/par") + issuer.requests(to: "/token") {
      #expect(request.headers[ClientAttestation.headerName] != nil)
      #expect(request.headers[ClientAttestation.popHeaderName] != nil)
    }
    let body = try #require(issuer.requests(to: "/credential").last).body
    guard case .jwt(let proofs) = try CredentialRequest(jsonBytes: body).proofs else {
      Issue.record("no proofs")
      return
    }
    #expect(try decodeHeader(proofs[0])["key_attestation"] != nil)
    // Pre-authorized with attestation: the client is named, not anonymous.
    let preAuthorized = try await client.issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536")
    #expect(preAuthorized.issued.count == 2, "\(preAuthorized.failed.map(\.error))")
    #expect(
      try FormParameters(body: try #require(issuer.requests(to: "/token").last).body)["client_id"]
        == "wallet-client")
  }

  @Test(
    "Key attestations required and no wallet provider: the configuration fails with that reason")
  func keyAttestationWithoutProvider() async throws {
    var settings = FakeIssuer.Settings()
    settings.keyAttestationRequired = true
    let issuer = FakeIssuer(settings)
    let result = try await Self.client(issuer).issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536")
    #expect(result.issued.isEmpty)
    #expect(result.failed.count == 2)
    #expect(result.failed.allSatisfy { $0.error.code == .walletProvider })
  }

  // MARK: Deferred and notification

  @Test("Deferred: the first answer is a transaction; polling later (from stored JSON) issues")
  func deferred() async throws {
    var settings = FakeIssuer.Settings()
    settings.deferred = true
    settings.deferredPolls = 2
    settings.encryptionRequired = true
    let issuer = FakeIssuer(settings)
    let client = Self.client(issuer)
    let result = try await client.issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["pid-sd-jwt"], batchSize: 2))
    #expect(result.issued.isEmpty)
    let pending = try #require(result.deferred.first)
    #expect(pending.interval == 5)
    #expect(pending.deviceKeys.count == 2)
    let stored = try DeferredIssuance(
      json: JSONValue(parsing: pending.json.serializedBytes()))
    #expect(stored == pending)
    guard case .pending(let again) = await client.pollDeferred(stored) else {
      Issue.record("expected still pending")
      return
    }
    #expect(again.interval == 7)
    guard case .issued(let credentials) = await client.pollDeferred(again) else {
      Issue.record("expected issued")
      return
    }
    #expect(credentials.count == 2)
    #expect(
      credentials[0].credential.text
        == "sd-jwt-for-\(JWK(publicKey: pending.deviceKeys[0].publicKey).thumbprintBase64URL)~")
    guard case .failed(let error) = await client.pollDeferred(again) else {
      Issue.record("a used transaction_id should fail")
      return
    }
    #expect((error.underlying as? OAuthErrorResponse)?.error == .invalidTransactionID)
  }

  @Test("Notifications go to the endpoint with the access token and DPoP, also from stored JSON")
  func notification() async throws {
    let issuer = FakeIssuer()
    let client = Self.client(issuer)
    let result = try await client.issuePreAuthorized(
      offer: Self.offer(issuer), txCode: "493536",
      options: IssuanceClient.Options(configurationIDs: ["mdl"]))
    let target = try #require(result.issued.first?.notification)
    try await client.notify(target, event: .credentialAccepted)
    let stored = try NotificationTarget(json: JSONValue(parsing: target.json.serializedBytes()))
    try await client.notify(stored, event: .credentialDeleted, description: "removed by the user")
    #expect(issuer.notifications.map(\.event) == [.credentialAccepted, .credentialDeleted])
    #expect(issuer.notifications.allSatisfy { $0.notificationID == target.notificationID })
    var forged = target
    forged.accessToken = "stolen"
    await Self.expectIssuanceError(.notification) {
      try await client.notify(forged, event: .credentialFailure)
    }
  }
}

/// Passes requests through, dropping the nonce endpoint's `DPoP-Nonce`, so that the resource
/// server's own `use_dpop_nonce` challenge is exercised.
struct NonceStripper: HTTPHandler {
  let inner: FakeIssuer
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    var response = await inner.handle(request)
    if request.url.path == "/nonce" { response.headers["DPoP-Nonce"] = nil }
    return response
  }
}
