import DCCrypto
public import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation

extension CredentialIssuerService {
  /// POST `token_endpoint` (RFC 6749 §3.2, §4.1.3, §6; OpenID4VCI 1.0 §6): the
  /// pre-authorized code (with its transaction code), the authorization code (with PKCE and
  /// the `redirect_uri`) or a refresh token, exchanged for a DPoP-bound access token.
  ///
  /// The DPoP proof is checked first (RFC 9449 §5); without the current server nonce the answer
  /// is 400 `use_dpop_nonce` with a `DPoP-Nonce` header (§8). Pre-authorized access without a
  /// client is allowed unless client attestation is required (§6.1, §12.3).
  public func handleToken(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return try token(request)
    } catch {
      return error.response
    }
  }

  func token(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let tokenRequest = try Self.tokenRequest(request.body)
    // DPoP first: a use_dpop_nonce answer then leaves the client attestation PoP unused, so
    // the client may send the same one with its retry.
    let proof = try verifyDPoP(request, endpoint: .token, site: .authorizationServer)
    let jkt = proof?.thumbprint
    let client =
      try authenticateClient(request, clientID: tokenRequest.clientID) ?? tokenRequest.clientID
    var (grant, issuesRefreshToken) = try redeemGrant(tokenRequest, clientID: client, jkt: jkt)
    grant.jkt = jkt
    let accessToken = randomToken()
    let refreshToken = issuesRefreshToken ? randomToken() : nil
    try keepTokens(grant, accessToken: accessToken, refreshToken: refreshToken)
    let response = TokenResponse(
      accessToken: accessToken, tokenType: jkt == nil ? .bearer : .dpop,
      expiresIn: Int(configuration.lifetimes.accessToken), refreshToken: refreshToken,
      authorizationDetails: grant.usesCredentialIdentifiers
        ? grant.configurationIDs.map {
          // One dataset per configuration: its identifier is the configuration id (§6.2).
          CredentialAuthorizationDetail(credentialConfigurationID: $0, credentialIdentifiers: [$0])
        } : nil)
    return Self.json(response.json)
  }

  /// The token request of a form body; an unknown grant type has its own error code (RFC 6749
  /// §5.2).
  private static func tokenRequest(_ body: [UInt8]) throws(IssuerEndpointFailure) -> TokenRequest {
    let parameters: FormParameters
    do {
      parameters = try FormParameters(body: body)
    } catch {
      throw .invalidRequest(error.reason)
    }
    let grantType = parameters["grant_type"]
    let known = [
      "authorization_code", TokenRequest.preAuthorizedCodeGrantType, "refresh_token",
    ]
    if let grantType, !known.contains(grantType) {
      throw .unsupportedGrantType("grant_type \(grantType) is not supported")
    }
    do {
      return try TokenRequest(parameters: parameters)
    } catch {
      throw .invalidRequest(error.reason)
    }
  }

  /// Redeems the request's grant: the state it grants, and whether a refresh token goes with
  /// it (not for a pre-authorized code).
  private func redeemGrant(
    _ tokenRequest: TokenRequest, clientID client: String?, jkt: String?
  ) throws(IssuerEndpointFailure) -> (GrantState, issuesRefreshToken: Bool) {
    switch tokenRequest.grant {
    case .preAuthorizedCode(let code, let txCode):
      return (
        try redeemPreAuthorizedCode(
          code, txCode: txCode, clientID: client, jkt: jkt,
          details: tokenRequest.authorizationDetails), false
      )
    case .authorizationCode(let code, let verifier, let redirectURI):
      return (
        try redeemAuthorizationCode(
          code, verifier: verifier, redirectURI: redirectURI, clientID: client, jkt: jkt), true
      )
    case .refreshToken(let refreshToken):
      return (try redeemRefreshToken(refreshToken, clientID: client, jkt: jkt), true)
    }
  }

  /// Stores the access token, and the refresh token when there is one, with the grant they
  /// carry, each for its lifetime.
  private func keepTokens(
    _ grant: GrantState, accessToken: String, refreshToken: String?
  ) throws(IssuerEndpointFailure) {
    let now = self.now
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .accessToken, key: accessToken, value: grant.json,
          expiresAt: now.addingTimeInterval(configuration.lifetimes.accessToken)))
      if let refreshToken {
        try store.upsert(
          IssuerStateRecord(
            kind: .refreshToken, key: refreshToken, value: grant.json,
            expiresAt: now.addingTimeInterval(configuration.lifetimes.refreshToken)))
      }
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
  }

  /// The pre-authorized code grant (OpenID4VCI 1.0 §6.1): the code is live, the transaction
  /// code matches (at most `maximumAttempts` wrong ones, §13.6), and the code is used once.
  ///
  /// One atomic step of the store (``IssuerStateStore/update(_:_:now:_:)``) reads the code,
  /// counts a wrong `tx_code` or consumes the code: of wallets racing for one code on any
  /// number of instances exactly one gets a token, and no wrong guess goes uncounted.
  func redeemPreAuthorizedCode(
    _ code: String, txCode: String?, clientID: String?, jkt: String?,
    details: [CredentialAuthorizationDetail]?
  ) throws(IssuerEndpointFailure) -> GrantState {
    let maximumAttempts = configuration.transactionCode.maximumAttempts
    let requested = details?.map(\.credentialConfigurationID)
    let outcome: PreAuthorizedRedemption
    do {
      outcome = try store.update(.preAuthorizedCode, code, now: now) { record in
        Self.redeem(&record, txCode: txCode, requested: requested, maximumAttempts: maximumAttempts)
      }
    } catch {
      throw .invalidGrant("the pre-authorized code is unknown, expired or used")
    }
    switch outcome {
    case .unknown:
      throw .invalidGrant("the pre-authorized code is unknown, expired or used")
    case .wrongTransactionCode(let missing):
      throw .invalidGrant(
        missing ? "the offer requires a tx_code (transaction code)" : "the tx_code is wrong")
    case .unexpectedTransactionCode:
      throw .invalidRequest("the offer has no tx_code; none may be sent")
    case .detailsNotOffered:
      throw IssuerEndpointFailure(
        "invalid_authorization_details", "authorization_details names a configuration not offered")
    case .redeemed(let ids):
      return GrantState(
        configurationIDs: ids, clientID: clientID, jkt: jkt,
        usesCredentialIdentifiers: details != nil)
    }
  }

  /// The decision on a pre-authorized code, made inside the store's atomic step: `record` is
  /// deleted when redeemed or out of attempts, rewritten with one more wrong attempt, or left.
  static func redeem(
    _ record: inout IssuerStateRecord?, txCode: String?, requested: [String]?,
    maximumAttempts: Int
  ) -> PreAuthorizedRedemption {
    guard let current = record, var state = PreAuthorizedCodeState(current.value) else {
      return .unknown
    }
    if let expected = state.transactionCode {
      guard let txCode, constantTimeEquals(Array(txCode.utf8), Array(expected.utf8)) else {
        state.attempts += 1
        record?.value = state.json
        if state.attempts >= maximumAttempts { record = nil }
        return .wrongTransactionCode(missing: txCode == nil)
      }
    } else if txCode != nil {
      return .unexpectedTransactionCode
    }
    var ids = state.configurationIDs
    if let requested {
      guard !requested.isEmpty, requested.allSatisfy(ids.contains) else {
        return .detailsNotOffered
      }
      ids = requested
    }
    record = nil
    return .redeemed(configurationIDs: ids)
  }

  /// The authorization code grant (RFC 6749 §4.1.3, RFC 7636 §4.6): the code is taken at once
  /// (used once even when the request then fails, §4.1.2), and must have been issued to this
  /// client for this `redirect_uri`, with a challenge the verifier hashes to.
  func redeemAuthorizationCode(
    _ code: String, verifier: String, redirectURI: String, clientID: String?, jkt: String?
  ) throws(IssuerEndpointFailure) -> GrantState {
    guard let record = try? store.take(.authorizationCode, code, now: now),
      let state = AuthorizationCodeState(record.value)
    else { throw .invalidGrant("the authorization code is unknown, expired or used") }
    guard redirectURI == state.redirectURI else {
      throw .invalidGrant("redirect_uri is not the one of the authorization request")
    }
    guard clientID == state.clientID else {
      throw .invalidGrant("the authorization code was issued to another client")
    }
    do {
      try PKCE.verify(verifier: verifier, challenge: state.codeChallenge)
    } catch {
      throw .invalidGrant("PKCE verification failed: \(error.reason)")
    }
    // RFC 9449 §10: a code bound to a DPoP key at PAR is redeemed with that key only.
    if let bound = state.jkt, bound != jkt {
      throw IssuerEndpointFailure(
        "invalid_dpop_proof", "the code is bound to another DPoP key")
    }
    return GrantState(
      configurationIDs: state.configurationIDs, clientID: state.clientID, jkt: jkt,
      usesCredentialIdentifiers: state.usesAuthorizationDetails)
  }

  /// The refresh token grant (RFC 6749 §6): the token is live, issued to this client and (RFC
  /// 9449 §5) bound to this DPoP key; it is rotated.
  func redeemRefreshToken(_ token: String, clientID: String?, jkt: String?)
    throws(IssuerEndpointFailure) -> GrantState
  {
    let now = self.now
    guard let record = try? store.find(.refreshToken, token, now: now),
      let state = GrantState(record.value)
    else { throw .invalidGrant("the refresh token is unknown or expired") }
    if let bound = state.jkt, bound != jkt {
      throw .invalidGrant("the refresh token is bound to another DPoP key")
    }
    if let owner = state.clientID, owner != clientID {
      throw .invalidGrant("the refresh token was issued to another client")
    }
    guard (try? store.take(.refreshToken, token, now: now)) != nil else {
      throw .invalidGrant("the refresh token is unknown or expired")
    }
    return state
  }

  /// OAuth attestation-based client authentication: the attested `client_id` when the request
  /// carries `OAuth-Client-Attestation` and its PoP, nil when it carries neither and none is
  /// required.
  func authenticateClient(_ request: HTTPRequest, clientID: String?)
    throws(IssuerEndpointFailure) -> String?
  {
    let attestation = request.headers[ClientAttestation.headerName]
    let pop = request.headers[ClientAttestation.popHeaderName]
    guard let attestation, let pop else {
      if attestation != nil || pop != nil {
        throw .invalidClient("the client attestation comes with its PoP")
      }
      if configuration.attestation.requireClientAttestation {
        throw .invalidClient("client attestation is required")
      }
      return nil
    }
    let verifier = ClientAttestationVerifier(
      trust: .keys(configuration.attestation.trustedWalletProviderKeys), clock: clock,
      replayStore: KindReplayStore(store: store, kind: .clientAttestationProofID))
    do {
      return try verifier.verify(
        attestation: attestation, pop: pop, audience: configuration.credentialIssuer.string,
        clientID: clientID
      ).clientID
    } catch {
      throw .invalidClient("the client attestation does not verify: \(error.reason)")
    }
  }
}

/// What became of a pre-authorized code presented at the token endpoint.
enum PreAuthorizedRedemption {
  case unknown
  case wrongTransactionCode(missing: Bool)
  case unexpectedTransactionCode
  case detailsNotOffered
  case redeemed(configurationIDs: [String])
}

/// A replay store over one kind of the issuer's state.
struct KindReplayStore: DPoPReplayStore {
  let store: any IssuerStateStore
  let kind: IssuerStateKind

  func insertIfAbsent(_ key: String, expiry: Date, now: Date) -> Bool {
    (try? store.insertIfAbsent(
      IssuerStateRecord(kind: kind, key: key, value: .object([]), expiresAt: expiry), now: now))
      ?? false
  }
}

/// What the store holds for an authorization code (RFC 6749 §4.1.2).
struct AuthorizationCodeState {
  var clientID: String
  var redirectURI: String
  var codeChallenge: String
  var configurationIDs: [String]
  var jkt: String?
  var usesAuthorizationDetails: Bool

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("client_id", clientID)
    object.set("redirect_uri", redirectURI)
    object.set("code_challenge", codeChallenge)
    object.set("configuration_ids", strings: configurationIDs)
    object.set("jkt", jkt)
    object.set("authorization_details", usesAuthorizationDetails)
    return object.value
  }

  init(
    clientID: String, redirectURI: String, codeChallenge: String, configurationIDs: [String],
    jkt: String?, usesAuthorizationDetails: Bool
  ) {
    self.clientID = clientID
    self.redirectURI = redirectURI
    self.codeChallenge = codeChallenge
    self.configurationIDs = configurationIDs
    self.jkt = jkt
    self.usesAuthorizationDetails = usesAuthorizationDetails
  }

  init?(_ json: JSONValue) {
    guard let clientID = json["client_id"]?.string,
      let redirectURI = json["redirect_uri"]?.string,
      let challenge = json["code_challenge"]?.string,
      let ids = json["configuration_ids"]?.array?.compactMap(\.string)
    else { return nil }
    self.init(
      clientID: clientID, redirectURI: redirectURI, codeChallenge: challenge,
      configurationIDs: ids, jkt: json["jkt"]?.string,
      usesAuthorizationDetails: json["authorization_details"]?.bool ?? false)
  }
}
