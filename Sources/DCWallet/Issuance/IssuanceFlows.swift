import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
package import DCOpenID4VCI
public import Foundation

/// The first half of the authorization code flow, kept while the user is at the authorization
/// server: open ``authorizationURL`` in ASWebAuthenticationSession or a Custom Tab, then pass
/// the redirect URL it ends on to ``WalletIssuance/completeAuthorization(_:redirect:storage:)``.
///
/// It holds the PKCE verifier, `state` and the DPoP key in memory; it is not meant to be stored.
public struct PendingAuthorization: Sendable {
  /// The URL to open.
  public let authorizationURL: URL
  /// `state`, for an app that routes redirects by it.
  public let state: String
  let offer: CredentialOffer
  let issuer: IssuerContext
  let authorizationServer: AuthorizationServerMetadata
  let pkce: PKCE
  let redirectURI: String
  let clientID: String
  let options: IssuanceClient.Options
  let session: IssuanceExchange
}

/// The answer of one deferred poll.
package enum DeferredPollOutcome: Sendable {
  /// The credentials are ready.
  case issued([IssuedCredentialOutcome])
  /// Not yet: poll again with this value once the issuer's `interval` has passed (§9.2).
  case pending(DeferredIssuance)
  /// The issuer refused or the exchange failed; `pending` is kept when a later poll may work.
  case failed(IssuanceError)
}

extension IssuanceClient {
  // MARK: Pre-authorized code flow (§3.5, §6.1)

  /// Runs the pre-authorized code flow: token request with the offer's code and `txCode`, then
  /// the credential requests.
  ///
  /// - Throws: `grantNotOffered` (no pre-authorized code in the offer), `txCodeRequired` (the
  ///   offer has a `tx_code` object and `txCode` is nil), `txCodeInvalid` (the code does not fit
  ///   the offer's `input_mode` or `length`), `metadata`, `token`. Failures of
  ///   single configurations are returned in ``IssuanceResult/failed``.
  package func issuePreAuthorized(
    offer: CredentialOffer, txCode: String?, issuer: IssuerContext? = nil,
    options: Options = Options()
  ) async throws(IssuanceError) -> IssuanceResult {
    guard let grant = offer.preAuthorizedCode else {
      throw IssuanceError(.grantNotOffered, "the offer has no pre-authorized_code grant")
    }
    try Self.checkTransactionCode(txCode, for: grant)
    let context = try await resolvedIssuer(issuer, offer: offer)
    let server = try await authorizationServer(
      context, hint: grant.authorizationServer)
    var session = try await makeSession(server)
    // §6.1: client authentication is optional for the pre-authorized code; without an
    // attestation and where the server allows anonymous access, no client_id is sent and the
    // proofs carry no iss (§F.1).
    let clientID: String? =
      session.attestation != nil
      ? configuration.walletProvider?.clientID
      : (server.preAuthorizedGrantAnonymousAccessSupported ? nil : configuration.clientID)
    let request = TokenRequest(
      grant: .preAuthorizedCode(
        code: grant.preAuthorizedCode, txCode: grant.txCode == nil ? nil : txCode),
      clientID: clientID)
    let token = try await requestToken(request, server: server, session: &session)
    return await requestCredentials(
      offer: offer, context: context, token: token, clientID: clientID, options: options,
      session: &session)
  }

  /// Checks the transaction code against the offer's `tx_code` object before anything is sent.
  ///
  /// - Throws: `txCodeRequired` (the offer has a `tx_code` object and `txCode` is nil or
  ///   empty), `txCodeInvalid` (it does not fit `input_mode` or `length`).
  package static func checkTransactionCode(
    _ txCode: String?, for grant: PreAuthorizedCodeGrant
  ) throws(IssuanceError) {
    // §4.1.1, §6.1: tx_code "MUST be present if a tx_code object was present in the
    // Credential Offer (including if the object was empty)".
    if grant.txCode != nil, txCode?.isEmpty ?? true {
      throw IssuanceError(.txCodeRequired, "the offer requires a transaction code (tx_code)")
    }
    // §4.1.1: input_mode (numeric by default) and length describe the code; one that does not
    // fit cannot be right, and sending it would spend one of the server's limited attempts.
    if let requirement = grant.txCode, let txCode, !requirement.accepts(txCode) {
      throw IssuanceError(
        .txCodeInvalid,
        "the transaction code (tx_code) does not fit the offer: input_mode "
          + "\(requirement.effectiveInputMode.rawValue)"
          + (requirement.length.map { ", length \($0)" } ?? ""))
    }
  }

  // MARK: Authorization code flow (§3.4, §5, §6)

  /// Starts the authorization code flow: builds the request (PKCE S256, `state`,
  /// `authorization_details`, `issuer_state`), pushes it when the server offers PAR, and returns
  /// the URL to open with the values the second step needs.
  package func beginAuthorization(
    offer: CredentialOffer, issuer: IssuerContext? = nil, options: Options = Options()
  ) async throws(IssuanceError) -> PendingAuthorization {
    guard offer.authorizationCode != nil || offer.preAuthorizedCode == nil else {
      throw IssuanceError(.grantNotOffered, "the offer has no authorization_code grant")
    }
    let context = try await resolvedIssuer(issuer, offer: offer)
    let server = try await authorizationServer(
      context, hint: offer.authorizationCode?.authorizationServer)
    guard let authorizationEndpoint = server.authorizationEndpoint else {
      throw IssuanceError(.metadata, "the authorization server has no authorization_endpoint")
    }
    if !server.codeChallengeMethods.isEmpty, !server.codeChallengeMethods.contains(PKCE.method) {
      throw IssuanceError(.unsupported, "the authorization server does not support PKCE S256")
    }
    var session = try await makeSession(server)
    let clientID =
      session.attestation != nil
      ? (configuration.walletProvider?.clientID ?? configuration.clientID) : configuration.clientID
    let pkce: PKCE
    do {
      pkce = try PKCE()
    } catch {
      throw IssuanceError(.unsupported, error.reason, underlying: error)
    }
    let state = Base64URL.encode(SecureRandom().bytes(count: 32))
    let metadata = context.metadata
    // §5.1.1: locations names the credential issuer when the issuer lists authorization servers.
    let locations = metadata.authorizationServers.isEmpty ? nil : [metadata.credentialIssuer.string]
    let details = selectedConfigurations(offer, options).map {
      CredentialAuthorizationDetail(credentialConfigurationID: $0, locations: locations)
    }
    let request = AuthorizationRequest(
      clientID: clientID, redirectURI: configuration.redirectURI, state: state,
      codeChallenge: pkce.challenge, authorizationDetails: details,
      issuerState: offer.authorizationCode?.issuerState,
      resource: metadata.authorizationServers.isEmpty ? nil : metadata.credentialIssuer.string,
      // RFC 9449 §10: the code is bound to the DPoP key, also when the request is not pushed.
      dpopJKT: session.dpopSigner.map { JWK(publicKey: $0.publicKey).thumbprintBase64URL })
    let url = try await authorizationURL(
      request, server: server, authorizationEndpoint: authorizationEndpoint, clientID: clientID,
      session: &session)
    return PendingAuthorization(
      authorizationURL: url, state: state, offer: offer, issuer: context,
      authorizationServer: server, pkce: pkce, redirectURI: configuration.redirectURI,
      clientID: clientID, options: options, session: session)
  }

  /// The URL the browser opens: the pushed request's `request_uri` when the server offers PAR
  /// (RFC 9126), else the request's parameters in the query.
  private func authorizationURL(
    _ request: AuthorizationRequest, server: AuthorizationServerMetadata,
    authorizationEndpoint: URL, clientID: String, session: inout IssuanceExchange
  ) async throws(IssuanceError) -> URL {
    do {
      if let parEndpoint = server.pushedAuthorizationRequestEndpoint {
        // RFC 9126 §2: the parameters go in a POST; the browser gets only client_id and
        // request_uri. Used whenever offered (OpenID4VCI 1.0 §5.1.4 recommends it; HAIP
        // requires it), and the only way when require_pushed_authorization_requests.
        let response = try await session.send(
          .post, parEndpoint, headers: ["Content-Type": FormParameters.contentType],
          body: request.pushedBody, role: .authorization, attest: true)
        guard response.status == PushedAuthorizationResponse.status || response.status == 200 else {
          throw IssuanceExchange.failure(
            .authorization, "pushed authorization request", response, role: .authorization)
        }
        let pushed = try PushedAuthorizationResponse(jsonBytes: response.body)
        return try AuthorizationEndpointRequest.pushedURL(
          authorizationEndpoint: authorizationEndpoint, clientID: clientID,
          requestURI: pushed.requestURI)
      } else {
        return try request.url(authorizationEndpoint: authorizationEndpoint)
      }
    } catch let error as IssuanceError {
      throw error
    } catch let error as OpenID4VCIError {
      throw IssuanceError(.authorization, error.reason, underlying: error)
    } catch {
      throw IssuanceError(.authorization, "\(error)")
    }
  }

  /// Finishes the authorization code flow with the redirect URL the browser ended on: checks
  /// `state` and (RFC 9207) `iss`, redeems the code with the PKCE verifier, then requests the
  /// credentials.
  package func completeAuthorization(_ pending: PendingAuthorization, redirect: URL)
    async throws(IssuanceError) -> IssuanceResult
  {
    let server = pending.authorizationServer
    let response: AuthorizationResponse
    do {
      response = try AuthorizationResponse(
        redirect: redirect, redirectURI: pending.redirectURI, expectedState: pending.state,
        expectedIssuer: server.issuer.string,
        issuerRequired: server.authorizationResponseIssParameterSupported)
    } catch {
      throw IssuanceError(.authorization, error.reason, underlying: error)
    }
    var session = pending.session
    let request = TokenRequest(
      grant: .authorizationCode(
        code: response.code, codeVerifier: pending.pkce.verifier, redirectURI: pending.redirectURI),
      clientID: pending.clientID)
    let token = try await requestToken(request, server: server, session: &session)
    return await requestCredentials(
      offer: pending.offer, context: pending.issuer, token: token, clientID: pending.clientID,
      options: pending.options, session: &session)
  }

  // MARK: Shared steps

  func resolvedIssuer(_ issuer: IssuerContext?, offer: CredentialOffer) async throws(IssuanceError)
    -> IssuerContext
  {
    if let issuer {
      guard issuer.metadata.credentialIssuer.string == offer.credentialIssuer.string else {
        throw IssuanceError(.metadata, "the metadata is for another issuer than the offer's")
      }
      return issuer
    }
    return try await issuerMetadata(offer.credentialIssuer)
  }

  func authorizationServer(_ context: IssuerContext, hint: IssuerIdentifier?)
    async throws(IssuanceError) -> AuthorizationServerMetadata
  {
    let identifier: IssuerIdentifier
    do {
      identifier = try context.metadata.authorizationServer(hint: hint)
    } catch {
      throw IssuanceError(.metadata, error.reason, underlying: error)
    }
    return try await authorizationServerMetadata(identifier)
  }

  /// A session for one flow: a DPoP key when the server advertises DPoP with ES256 (HAIP 1.0),
  /// and the client attestation when the server takes it and a wallet provider is configured.
  ///
  /// With `dpopSigner` (a re-issuance), that key is used instead of a new one: the refresh token
  /// is bound to it (RFC 9449 §5).
  func makeSession(_ server: AuthorizationServerMetadata, dpopSigner: (any Signer)? = nil)
    async throws(IssuanceError) -> IssuanceExchange
  {
    var dpopKey: ECPrivateKey?
    if dpopSigner == nil, server.supportsDPoP {
      guard server.dpopSigningAlgorithms.contains("ES256") else {
        throw IssuanceError(.unsupported, "the server's DPoP algorithms do not include ES256")
      }
      do {
        dpopKey = try ECPrivateKey(curve: .p256)
      } catch {
        throw IssuanceError(.unsupported, "DPoP key: \(error)")
      }
    }
    var session =
      dpopSigner.map { IssuanceExchange(http: http, clock: configuration.clock, dpopSigner: $0) }
      ?? IssuanceExchange(http: http, clock: configuration.clock, dpopKey: dpopKey)
    if server.supportsClientAttestation, let provider = configuration.walletProvider {
      do {
        let material = try await provider.clientAttestation()
        session.attestation = ClientAttestationState(
          material: material, audience: server.issuer.string, challenge: nil)
      } catch {
        throw IssuanceError(.walletProvider, "client attestation: \(error)")
      }
      if let endpoint = server.challengeEndpoint {
        try await session.fetchAttestationChallenge(endpoint)
      }
    }
    return session
  }

  func requestToken(
    _ request: TokenRequest, server: AuthorizationServerMetadata, session: inout IssuanceExchange
  ) async throws(IssuanceError) -> TokenResponse {
    let response = try await session.send(
      .post, server.tokenEndpoint, headers: ["Content-Type": FormParameters.contentType],
      body: request.body, role: .authorization, attest: true)
    guard response.status == 200 else {
      throw IssuanceExchange.failure(.token, "token request", response, role: .authorization)
    }
    let token: TokenResponse
    do {
      token = try TokenResponse(jsonBytes: response.body)
    } catch {
      throw IssuanceError(.token, error.reason, underlying: error)
    }
    // RFC 9449 §5: a DPoP-bound token must be used with DPoP; a client that sent a DPoP proof
    // and got a Bearer token has a server that ignored DPoP, which HAIP does not allow.
    if session.dpopSigner != nil, token.tokenType != .dpop {
      throw IssuanceError(
        .token, "the server advertises DPoP but issued a \(token.tokenType.rawValue) token")
    }
    return token
  }

  func selectedConfigurations(_ offer: CredentialOffer, _ options: Options) -> [String] {
    guard let wanted = options.configurationIDs else { return offer.credentialConfigurationIDs }
    return wanted
  }

  /// One credential request per selected configuration (per credential identifier when the
  /// token response names datasets, §6.2), each with a batch of proofs.
  func requestCredentials(
    offer: CredentialOffer, context: IssuerContext, token: TokenResponse, clientID: String?,
    options: Options, session: inout IssuanceExchange
  ) async -> IssuanceResult {
    await requestCredentials(
      offered: offer.credentialConfigurationIDs, context: context, token: token,
      clientID: clientID, options: options, session: &session)
  }

  /// As above, for the configurations in `offered` (an offer's, or the one a re-issuance
  /// renews).
  func requestCredentials(
    offered: [String], context: IssuerContext, token: TokenResponse, clientID: String?,
    options: Options, session: inout IssuanceExchange
  ) async -> IssuanceResult {
    let metadata = context.metadata
    var result = IssuanceResult(
      credentialIssuer: metadata.credentialIssuer.string, refreshToken: token.refreshToken)
    for id in options.configurationIDs ?? offered {
      let configuration: CredentialConfiguration
      let targets: [CredentialRequest.Target]
      do {
        (configuration, targets) = try Self.credentialTargets(
          id, offered: offered, metadata: metadata, token: token)
      } catch {
        result.failed.append(IssuanceFailure(configurationID: id, error: error))
        continue
      }
      for target in targets {
        do {
          let outcome = try await requestCredential(
            target: target, configuration: configuration, context: context, token: token,
            clientID: clientID, batchSize: options.batchSize, session: &session)
          switch outcome {
          case .issued(let credentials): result.issued += credentials
          case .deferred(let pending): result.deferred.append(pending)
          }
        } catch {
          result.failed.append(IssuanceFailure(configurationID: id, error: error))
        }
      }
    }
    return result
  }

  /// The configuration `id` names and what to request for it (§8.2): the datasets the token
  /// response listed for it (`credential_identifier`), else the configuration itself.
  private static func credentialTargets(
    _ id: String, offered: [String], metadata: CredentialIssuerMetadata, token: TokenResponse
  ) throws(IssuanceError) -> (CredentialConfiguration, [CredentialRequest.Target]) {
    guard offered.contains(id) else {
      throw IssuanceError(.unsupported, "the offer does not name \(id)")
    }
    guard let configuration = metadata.configuration(id: id) else {
      throw IssuanceError(.unsupported, "the issuer metadata has no configuration \(id)")
    }
    // §8.2: credential_identifier when the token response listed datasets for this
    // configuration, else credential_configuration_id.
    guard let details = token.authorizationDetails else {
      return (configuration, [.credentialConfigurationID(id)])
    }
    let identifiers = details.filter { $0.credentialConfigurationID == id }
      .flatMap { $0.credentialIdentifiers ?? [] }
    if identifiers.isEmpty {
      throw IssuanceError(.credential, "the token grants no credential_identifiers for \(id)")
    }
    return (configuration, identifiers.map { .credentialIdentifier($0) })
  }

  enum CredentialOutcome {
    case issued([IssuedCredentialOutcome])
    case deferred(DeferredIssuance)
  }

  /// A fresh `c_nonce` from the nonce endpoint (§7), or nil when the issuer has none.
  func fetchNonce(_ metadata: CredentialIssuerMetadata, session: inout IssuanceExchange)
    async throws(IssuanceError) -> String?
  {
    guard let endpoint = metadata.nonceEndpoint else { return nil }
    // §7.1: a POST without an access token; the response may carry a DPoP-Nonce for the
    // credential endpoint (§7.2), which the session keeps.
    let response = try await session.transport(HTTPRequest(method: .post, url: endpoint))
    if let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty { session.resourceNonce = nonce }
    guard (200..<300).contains(response.status) else {
      throw IssuanceError(.credential, "nonce endpoint: HTTP \(response.status)")
    }
    do {
      return try NonceResponse(jsonBytes: response.body).cNonce
    } catch {
      throw IssuanceError(.credential, error.reason, underlying: error)
    }
  }

  /// The response encryption to request (§8.2, §10): an ephemeral P-256 key with ECDH-ES and
  /// the strongest `enc` the issuer lists, when the issuer requires encryption (or it is
  /// preferred and supported).
  func responseEncryption(_ metadata: CredentialIssuerMetadata, enc preferred: JWEEncryption? = nil)
    throws(IssuanceError) -> (CredentialResponseEncryption, ECPrivateKey)?
  {
    guard let offered = metadata.credentialResponseEncryption,
      offered.encryptionRequired || configuration.preferEncryptedResponses || preferred != nil
    else { return nil }
    guard offered.algorithms.contains(JWEAlgorithm.ecdhES.rawValue) else {
      if !offered.encryptionRequired { return nil }
      throw IssuanceError(
        .unsupported, "the issuer's response encryption algorithms exclude ECDH-ES")
    }
    let choices: [JWEEncryption] = preferred.map { [$0] } ?? [.a256gcm, .a128gcm]
    guard let enc = choices.first(where: { offered.encryptionMethods.contains($0.rawValue) }) else {
      if !offered.encryptionRequired { return nil }
      throw IssuanceError(
        .unsupported, "the issuer's response encryption methods exclude A256GCM and A128GCM")
    }
    do {
      let key = try ECPrivateKey(curve: .p256)
      return (
        CredentialResponseEncryption(
          jwk: JWK(
            publicKey: key.publicKey, kid: Base64URL.encode(SecureRandom().bytes(count: 8)),
            alg: JWEAlgorithm.ecdhES.rawValue),
          enc: enc),
        key
      )
    } catch {
      throw IssuanceError(.unsupported, "encryption key: \(error)")
    }
  }

  /// Reads a credential or deferred response: decrypted when encryption was requested (an
  /// unencrypted answer is refused then, §10), and its status checked against its content
  /// (§8.3: 200 with credentials, 202 with a transaction_id).
  func readCredentialResponse(
    _ response: HTTPResponse, encryption: (CredentialResponseEncryption, ECPrivateKey)?,
    expectedTransactionID: String?, code: IssuanceErrorCode
  ) throws(IssuanceError) -> CredentialResponse {
    let parsed: CredentialResponse
    do {
      if let (parameters, key) = encryption {
        guard response.mediaType == CredentialResponse.encryptedContentType else {
          throw IssuanceError(
            code,
            "an encrypted response was requested; the issuer sent \(response.mediaType ?? "no media type")"
          )
        }
        parsed = try CredentialResponse(
          encrypted: String(decoding: response.body, as: UTF8.self), encryption: parameters,
          key: key,
          expectedTransactionID: expectedTransactionID)
      } else {
        parsed = try CredentialResponse(
          jsonBytes: response.body, expectedTransactionID: expectedTransactionID)
      }
    } catch let error as IssuanceError {
      throw error
    } catch let error as OpenID4VCIError {
      throw IssuanceError(code, error.reason, underlying: error)
    } catch {
      throw IssuanceError(code, "\(error)")
    }
    guard parsed.status == response.status else {
      throw IssuanceError(
        code, "HTTP \(response.status) does not go with this response (expected \(parsed.status))")
    }
    return parsed
  }

  func requestCredential(
    target: CredentialRequest.Target,
    configuration credentialConfiguration: CredentialConfiguration,
    context: IssuerContext, token: TokenResponse, clientID: String?, batchSize: Int,
    session: inout IssuanceExchange
  ) async throws(IssuanceError) -> CredentialOutcome {
    let metadata = context.metadata
    let proofType = try Self.jwtProofType(credentialConfiguration)
    // §12.2.4 batch_credential_issuance.batch_size caps the proofs of one request.
    let count = proofType == nil ? 1 : max(1, min(batchSize, metadata.batchSize ?? 1))
    var deviceKeys: [ECPrivateKey] = []
    if proofType != nil { deviceKeys = try makeDeviceKeys(count: count) }
    let encryption = try responseEncryption(metadata)
    let accessToken = (token.accessToken, token.tokenType)
    var attempt = 0
    while true {
      attempt += 1
      var request = CredentialRequest(target: target, credentialResponseEncryption: encryption?.0)
      if let proofType {
        request.proofs = try await jwtProofs(
          proofType, deviceKeys: deviceKeys, configurationID: credentialConfiguration.id,
          metadata: metadata, clientID: clientID, session: &session)
      }
      let response = try await session.send(
        .post, metadata.credentialEndpoint,
        headers: [
          "Content-Type": "application/json", "Accept": "application/json, application/jwt",
        ],
        body: request.json.serializedBytes(), role: .resource, accessToken: accessToken)
      if !(200..<300).contains(response.status) {
        // §8.3.1.2: invalid_nonce asks for a fresh c_nonce; one more attempt with new proofs.
        if attempt < IssuanceExchange.maximumAttempts, metadata.nonceEndpoint != nil,
          IssuanceExchange.errorResponse(response, role: .resource)?.error == .invalidNonce
        {
          continue
        }
        throw IssuanceExchange.failure(.credential, "credential request", response, role: .resource)
      }
      let parsed = try readCredentialResponse(
        response, encryption: encryption, expectedTransactionID: nil, code: .credential)
      return try credentialOutcome(
        parsed, configuration: credentialConfiguration, context: context, token: token,
        dpopKey: session.dpopKey, deviceKeys: deviceKeys, encryption: encryption?.0.enc)
    }
  }

  /// The configuration's `jwt` proof type (Appendix F.1), nil when it takes no proofs (§8.2:
  /// proofs are required when the configuration lists proof types); refused when it lists
  /// others only, or algorithms without ES256.
  private static func jwtProofType(
    _ credentialConfiguration: CredentialConfiguration
  ) throws(IssuanceError) -> ProofTypeMetadata? {
    let proofType = credentialConfiguration.proofType("jwt")
    if !credentialConfiguration.proofTypes.isEmpty, proofType == nil {
      throw IssuanceError(.unsupported, "\(credentialConfiguration.id) takes no jwt proofs")
    }
    if let algorithms = proofType?.signingAlgorithms, !algorithms.isEmpty,
      !algorithms.contains("ES256")
    {
      throw IssuanceError(.unsupported, "\(credentialConfiguration.id) takes no ES256 proofs")
    }
    return proofType
  }

  /// `count` new device keys, one per proof.
  private func makeDeviceKeys(count: Int) throws(IssuanceError) -> [ECPrivateKey] {
    var deviceKeys: [ECPrivateKey] = []
    do {
      for _ in 0..<count { deviceKeys.append(try configuration.makeDeviceKey()) }
    } catch {
      throw IssuanceError(.unsupported, "device key: \(error)")
    }
    return deviceKeys
  }

  /// The `jwt` proofs of the device keys over a fresh `c_nonce`, each with the wallet
  /// provider's key attestation when the issuer requires one.
  private func jwtProofs(
    _ proofType: ProofTypeMetadata, deviceKeys: [ECPrivateKey], configurationID: String,
    metadata: CredentialIssuerMetadata, clientID: String?, session: inout IssuanceExchange
  ) async throws(IssuanceError) -> CredentialRequestProofs {
    let nonce = try await fetchNonce(metadata, session: &session)
    var keyAttestation: String?
    if proofType.keyAttestationsRequired != nil {
      // Appendix D: the issuer requires key attestations; the wallet provider signs one
      // over the batch's keys, carried in each proof's key_attestation header (§F.1).
      guard let provider = configuration.walletProvider else {
        throw IssuanceError(
          .walletProvider,
          "\(configurationID) requires key attestations and no wallet provider is configured"
        )
      }
      do {
        keyAttestation = try await provider.keyAttestation(
          for: deviceKeys.map(\.publicKey), nonce: nonce)
      } catch {
        throw IssuanceError(.walletProvider, "key attestation: \(error)")
      }
    }
    do {
      return .jwt(
        try KeyProof.proofs(
          signers: deviceKeys, credentialIssuer: metadata.credentialIssuer.string, nonce: nonce,
          clientID: clientID, issuedAt: configuration.clock(), keyAttestation: keyAttestation))
    } catch {
      throw IssuanceError(.credential, "key proofs: \(error.reason)", underlying: error)
    }
  }

  /// What a credential response gives: the credentials with their keys, or the deferred
  /// issuance to poll (§9).
  private func credentialOutcome(
    _ parsed: CredentialResponse, configuration credentialConfiguration: CredentialConfiguration,
    context: IssuerContext, token: TokenResponse, dpopKey: ECPrivateKey?,
    deviceKeys: [ECPrivateKey], encryption: JWEEncryption?
  ) throws(IssuanceError) -> CredentialOutcome {
    let metadata = context.metadata
    switch parsed {
    case .issued(let credentials, let notificationID):
      return .issued(
        try outcomes(
          credentials, notificationID: notificationID, configuration: credentialConfiguration,
          context: context, accessToken: (token.accessToken, token.tokenType), dpopKey: dpopKey,
          deviceKeys: deviceKeys))
    case .deferred(let transactionID, let interval):
      guard let endpoint = metadata.deferredCredentialEndpoint else {
        throw IssuanceError(
          .credential, "the issuer deferred issuance but has no deferred_credential_endpoint")
      }
      return .deferred(
        DeferredIssuance(
          credentialIssuer: metadata.credentialIssuer.string,
          configuration: credentialConfiguration,
          issuerDisplay: metadata.display, deferredEndpoint: endpoint,
          notificationEndpoint: metadata.notificationEndpoint, transactionID: transactionID,
          interval: interval, receivedAt: configuration.clock(), accessToken: token.accessToken,
          tokenType: token.tokenType, dpopKey: dpopKey, deviceKeys: deviceKeys,
          encryption: encryption))
    }
  }

  /// The per-credential outcomes of a response: at most one credential per proof (§8.3), each
  /// with the key of the proof at its position; `mso_mdoc` and `dc+sd-jwt` credentials must be
  /// strings (Appendix A.2.4, A.3.4).
  func outcomes(
    _ credentials: [DCOpenID4VCI.IssuedCredential], notificationID: String?,
    configuration credentialConfiguration: CredentialConfiguration, context: IssuerContext,
    accessToken: (String, AccessTokenType), dpopKey: ECPrivateKey?, deviceKeys: [ECPrivateKey]
  ) throws(IssuanceError) -> [IssuedCredentialOutcome] {
    guard credentials.count <= max(1, deviceKeys.count) else {
      throw IssuanceError(
        .credential, "\(credentials.count) credentials for \(deviceKeys.count) proofs")
    }
    switch credentialConfiguration.format {
    case .msoMdoc, .sdJWTVC:
      for credential in credentials where credential.text == nil {
        throw IssuanceError(
          .credential, "a \(credentialConfiguration.format.name) credential is not a string")
      }
    case .other: break
    }
    let metadata = context.metadata
    let notification = notificationID.flatMap { id in
      metadata.notificationEndpoint.map {
        NotificationTarget(
          endpoint: $0, notificationID: id, accessToken: accessToken.0, tokenType: accessToken.1,
          dpopKey: dpopKey)
      }
    }
    return credentials.enumerated().map { index, credential in
      IssuedCredentialOutcome(
        configurationID: credentialConfiguration.id, format: credentialConfiguration.format,
        credential: credential, deviceKey: index < deviceKeys.count ? deviceKeys[index] : nil,
        display: credentialConfiguration.display, issuerDisplay: metadata.display,
        notification: notification)
    }
  }

  // MARK: Deferred (§9)

  /// Polls the deferred credential endpoint once (§9.1) with the stored access token and DPoP
  /// key; a new response encryption key is sent each time when encryption is used.
  package func pollDeferred(_ pending: DeferredIssuance) async -> DeferredPollOutcome {
    do {
      var session = IssuanceExchange(
        http: http, clock: configuration.clock, dpopKey: pending.dpopKey)
      let encryption = try pending.encryption.map(Self.deferredResponseEncryption)
      let request = DeferredCredentialRequest(
        transactionID: pending.transactionID, credentialResponseEncryption: encryption?.0)
      let response = try await session.send(
        .post, pending.deferredEndpoint,
        headers: [
          "Content-Type": "application/json", "Accept": "application/json, application/jwt",
        ],
        body: request.json.serializedBytes(), role: .resource,
        accessToken: (pending.accessToken, pending.tokenType))
      guard (200..<300).contains(response.status) else {
        return .failed(
          IssuanceExchange.failure(
            .deferred, "deferred credential request", response, role: .resource))
      }
      let parsed = try readCredentialResponse(
        response, encryption: encryption, expectedTransactionID: pending.transactionID,
        code: .deferred)
      switch parsed {
      case .issued(let credentials, let notificationID):
        return Self.deferredIssued(credentials, notificationID: notificationID, pending: pending)
      case .deferred(_, let interval):
        var next = pending
        next.interval = interval
        next.receivedAt = configuration.clock()
        return .pending(next)
      }
    } catch let error as IssuanceError {
      return .failed(error)
    } catch {
      return .failed(IssuanceError(.deferred, "\(error)"))
    }
  }

  /// A new response encryption key for one deferred poll: ECDH-ES on P-256 with the `enc` of
  /// the original request.
  private static func deferredResponseEncryption(
    _ enc: JWEEncryption
  ) throws -> (CredentialResponseEncryption, ECPrivateKey) {
    let key = try ECPrivateKey(curve: .p256)
    return (
      CredentialResponseEncryption(
        jwk: JWK(publicKey: key.publicKey, alg: JWEAlgorithm.ecdhES.rawValue), enc: enc),
      key
    )
  }

  /// The outcome of a deferred response that issued: at most one credential per proof, each
  /// with the key of the proof at its position.
  private static func deferredIssued(
    _ credentials: [DCOpenID4VCI.IssuedCredential], notificationID: String?,
    pending: DeferredIssuance
  ) -> DeferredPollOutcome {
    guard credentials.count <= max(1, pending.deviceKeys.count) else {
      return .failed(
        IssuanceError(
          .deferred, "\(credentials.count) credentials for \(pending.deviceKeys.count) proofs"))
    }
    let notification = notificationID.flatMap { id in
      pending.notificationEndpoint.map {
        NotificationTarget(
          endpoint: $0, notificationID: id, accessToken: pending.accessToken,
          tokenType: pending.tokenType, dpopKey: pending.dpopKey)
      }
    }
    return .issued(
      credentials.enumerated().map { index, credential in
        IssuedCredentialOutcome(
          configurationID: pending.configurationID, format: pending.format,
          credential: credential,
          deviceKey: index < pending.deviceKeys.count ? pending.deviceKeys[index] : nil,
          display: pending.display, issuerDisplay: pending.issuerDisplay,
          notification: notification)
      })
  }

  // MARK: Notification (§11)

  /// Sends a notification (§11.1); any 2xx is success (§11.2).
  package func notify(
    _ target: NotificationTarget, event: NotificationRequest.Event, description: String? = nil
  ) async throws(IssuanceError) {
    try await notify(target, event: event, description: description, signer: target.dpopKey)
  }

  /// As above, with the DPoP proofs signed by `signer` (a key kept in the wallet's key store).
  func notify(
    _ target: NotificationTarget, event: NotificationRequest.Event, description: String?,
    signer: (any Signer)?
  ) async throws(IssuanceError) {
    var session = IssuanceExchange(http: http, clock: configuration.clock, dpopSigner: signer)
    let request = NotificationRequest(
      notificationID: target.notificationID, event: event, eventDescription: description)
    let response = try await session.send(
      .post, target.endpoint, headers: ["Content-Type": "application/json"],
      body: request.json.serializedBytes(), role: .resource,
      accessToken: (target.accessToken, target.tokenType))
    guard (200..<300).contains(response.status) else {
      throw IssuanceExchange.failure(.notification, "notification", response, role: .resource)
    }
  }
}
