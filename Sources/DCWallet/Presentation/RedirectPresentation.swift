public import DCCrypto
public import DCHTTP
import DCJSON
public import DCOpenID4VP
import DCQL
import DCTrust
package import DCX509
import Foundation

extension RedirectAuthorizationRequest {
  /// The certificate path that authenticated the verifier, leaf first: the request signer's
  /// (`x509_san_dns`, `x509_hash`) or the Verifier Attestation issuer's (`verifier_attestation`);
  /// empty for `redirect_uri`.
  package var trustedChainPath: [Certificate] {
    switch verifier {
    case .certificate(_, _, let chain): chain.path
    case .attestation(let attestation): attestation.trustedChain.path
    case .redirectURI: []
    }
  }
}

/// How the wallet reaches verifiers in the redirect flows: which URLs it fetches from and posts
/// to, what it says about itself at a `request_uri` with `request_uri_method=post`, and the
/// randomness of `wallet_nonce` and the response encryption.
public struct RedirectFlowConfiguration: Sendable {
  /// The URLs allowed for `request_uri`, `response_uri` and a returned `redirect_uri`: https,
  /// and plain http to a loopback host by default (so verifiers can be tested locally; the
  /// issue 16 contract).
  package var urlPolicy: HTTPURLPolicy
  /// What the wallet POSTs as `wallet_metadata` with `request_uri_method=post` (§5.10.1).
  package var walletMetadata: WalletMetadata
  /// The randomness of `wallet_nonce` (OpenID4VP 1.0 §5.10.1) and the JWE of `direct_post.jwt`.
  package var random: any RandomSource
  /// How requests are read: clock skew, the age and lifetime of signed request objects (five
  /// and ten minutes at most by default), and whether an `x509_san_dns:localhost` verifier may
  /// take the answer at another loopback host (development only, off by default).
  package var requestPolicy: RedirectRequestPolicy

  /// Creates a configuration.
  public init(
    urlPolicy: HTTPURLPolicy = HTTPURLPolicy(allowsLoopbackHTTP: true),
    walletMetadata: WalletMetadata = .standard, random: any RandomSource = SecureRandom(),
    requestPolicy: RedirectRequestPolicy = .standard
  ) {
    self.urlPolicy = urlPolicy
    self.walletMetadata = walletMetadata
    self.random = random
    self.requestPolicy = requestPolicy
  }
}

extension PresentationRequest {
  /// The protocol identifier a request from an authorization request URI is resolved, logged
  /// and allowed under (``WalletPolicy/allowedProtocols``): no DC API identifier applies.
  package static let redirectProtocolIdentifier = "openid4vp-v1-redirect"

  /// The redirect request, nil for every request that arrived over the DC API or in person.
  package var redirectAuthorization: RedirectAuthorizationRequest? {
    if case .openID4VP(let presentation) = kind { return presentation.request.redirect }
    return nil
  }
}

extension Wallet {
  /// Resolves an authorization request URI (OpenID4VP 1.0 §5): parses it, fetches the request
  /// object at its `request_uri` (GET, or with `request_uri_method=post` a POST of
  /// `wallet_metadata` and a fresh `wallet_nonce`, §5.10), verifies the request with the
  /// wallet's verifier trust anchors and clock (DCOpenID4VP's `RedirectAuthorizationRequest`),
  /// then
  /// evaluates its DCQL query against the stored credentials: the same ``PresentationRequest``
  /// an OpenID4VP DC API request resolves to, with no origin.
  ///
  /// `policy.requireAuthenticatedRequester` refuses a `redirect_uri` request (unauthenticated)
  /// and then posts nothing to it, nor to any request that fails its checks: an untrusted party
  /// does not learn that the wallet exists or what it decided.
  ///
  /// Error responses (OpenID4VP 1.0 §8.5) are posted before throwing, so the verifier learns
  /// the outcome, but only where the client identifier itself designates the `response_uri`:
  /// - a request that verified but cannot be answered (the policy, no stored credential, only
  ///   revoked or suspended ones) gets `access_denied` at its verified `response_uri`;
  /// - a request that fails a check gets the check's error (`invalid_request`, `invalid_client`,
  ///   ...) in the clear only when its unverified `response_uri` is the one its client
  ///   identifier names: the `redirect_uri` prefix's own URI, or a URI on the `x509_san_dns`
  ///   prefix's host. Any other failed request gets nothing: its `response_uri` is not
  ///   established, and the wallet does not post to a URL an unauthenticated request chose.
  ///
  /// - Parameters:
  ///   - authorizationRequestURI: the URI text, as scanned or opened.
  ///   - httpClient: fetches the request object (`URLSessionHTTPClient` in an app).
  ///   - policy: by default the wallet's.
  ///   - configuration: URL policy, wallet metadata and randomness.
  /// - Throws: `refused` with a typed ``Refusal`` (also in the error's `refusals`) when the
  ///   request is invalid or cannot be answered; `transport` when the request object cannot be
  ///   fetched. The refusal is logged.
  public func resolve(
    authorizationRequestURI: String, httpClient: any HTTPClient, policy: WalletPolicy? = nil,
    configuration: RedirectFlowConfiguration = RedirectFlowConfiguration()
  ) async throws(WalletError) -> PresentationRequest {
    try await (policy ?? self.policy).revocation.inEffect { () async throws(WalletError) in
      try await resolveChecked(
        authorizationRequestURI: authorizationRequestURI, httpClient: httpClient, policy: policy,
        configuration: configuration)
    }
  }

  /// ``resolve(authorizationRequestURI:httpClient:policy:configuration:)`` with the
  /// revocation setting in effect.
  private func resolveChecked(
    authorizationRequestURI: String, httpClient: any HTTPClient, policy: WalletPolicy? = nil,
    configuration: RedirectFlowConfiguration = RedirectFlowConfiguration()
  ) async throws(WalletError) -> PresentationRequest {
    let policy = try await withStoredTrust(policy ?? self.policy)
    let protocolIdentifier = PresentationRequest.redirectProtocolIdentifier
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    guard policy.allows(protocolIdentifier: protocolIdentifier) else {
      throw await refuseRedirect(
        Refusal(
          protocolIdentifier: protocolIdentifier, code: .protocolNotAllowed,
          reason: "the policy does not allow this protocol"), clientID: nil)
    }
    let uri: AuthorizationRequestURI
    do {
      uri = try AuthorizationRequestURI(authorizationRequestURI)
    } catch {
      throw await refuseRedirect(Self.redirectRefusal(error), clientID: nil)
    }
    let (requestObject, walletNonce) = try await fetchRequestObject(
      uri, transport: transport, configuration: configuration)
    let anchors = try await trustAnchors(role: .verifier)
    let authorization: RedirectAuthorizationRequest
    do {
      authorization = try RedirectAuthorizationRequest(
        uri: uri, requestObject: requestObject, verifierTrustAnchors: anchors,
        walletNonce: walletNonce, now: clock(), policy: configuration.requestPolicy)
    } catch {
      // A request that failed its checks is not authenticated: under a policy that answers
      // only authenticated verifiers, nothing is posted to it.
      if !policy.requireAuthenticatedRequester {
        await Self.postCheckFailure(
          error, uri: uri, requestObject: requestObject, transport: transport)
      }
      throw await refuseRedirect(Self.redirectRefusal(error), clientID: uri.clientID.rawValue)
    }
    return try await answerVerified(
      authorization, policy: policy, transport: transport, configuration: configuration)
  }

  /// Logs a refused redirect request and the error that refuses it.
  private func refuseRedirect(_ refusal: Refusal, clientID: String?) async -> WalletError {
    await log(
      NewActivity(
        timestamp: clock(), protocolIdentifier: PresentationRequest.redirectProtocolIdentifier,
        origin: nil, relyingParty: clientID, outcome: .refused, detail: refusal.reason))
    return WalletError(.refused, refusal.reason, underlying: refusal, refusals: [refusal])
  }

  /// The refusal of a request that failed a check: a bad signature or an untrusted verifier
  /// refuses the requester, anything else the request.
  private static func redirectRefusal(_ error: OpenID4VPError) -> Refusal {
    Refusal(
      protocolIdentifier: PresentationRequest.redirectProtocolIdentifier,
      code: error.code == .invalidRequestSignature
        ? .invalidRequesterAuthentication
        : error.code == .untrustedVerifier ? .requesterNotAuthenticated : .invalidRequest,
      reason: error.reason, underlying: error)
  }

  /// The request object the URI passes by reference (`request_uri`) and the `wallet_nonce` sent
  /// for it, both nil when the request is passed by value; a failed fetch is logged.
  private func fetchRequestObject(
    _ uri: AuthorizationRequestURI, transport: RedirectTransport,
    configuration: RedirectFlowConfiguration
  ) async throws(WalletError) -> (requestObject: String?, walletNonce: String?) {
    guard
      let fetch = uri.requestObjectFetch(
        walletMetadata: configuration.walletMetadata, random: configuration.random)
    else { return (nil, nil) }
    do {
      return (try await transport.fetchRequestObject(fetch.request), fetch.walletNonce)
    } catch {
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: PresentationRequest.redirectProtocolIdentifier,
          origin: nil, relyingParty: uri.clientID.rawValue, outcome: .refused,
          detail: error.reason))
      throw error
    }
  }

  /// The presentation request of a request that verified, after the policy's requester check
  /// and the DCQL evaluation; a refusal is posted to the verifier (§8.5 `access_denied`) when
  /// it may learn of it.
  private func answerVerified(
    _ authorization: RedirectAuthorizationRequest, policy: WalletPolicy,
    transport: RedirectTransport, configuration: RedirectFlowConfiguration
  ) async throws(WalletError) -> PresentationRequest {
    let protocolIdentifier = PresentationRequest.redirectProtocolIdentifier
    do {
      if policy.requireAuthenticatedRequester && !authorization.verifier.isAuthenticated {
        throw Refusal(
          protocolIdentifier: protocolIdentifier, code: .requesterNotAuthenticated,
          reason:
            "the client identifier \(authorization.clientID.rawValue) is not authenticated (\(authorization.clientID.prefix?.rawValue ?? "no") prefix)"
        )
      }
      let (offered, evaluation) = try await evaluate(
        authorization.dcqlQuery, protocolIdentifier: protocolIdentifier, policy: policy)
      let resolved = try await withRequesterTrust(
        PresentationRequest(
          protocolIdentifier: protocolIdentifier, origin: nil,
          kind: .openID4VP(
            OpenID4VPPresentation(
              request: .redirect(authorization), credentials: offered, evaluation: evaluation)),
          skipped: [], policy: policy, now: clock()), policy: policy)
      if let refusal = resolved.registrationRefusal(policy: policy) { throw refusal }
      return resolved
    } catch {
      let refusal =
        error as? Refusal
        ?? Refusal(
          protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: "\(error)",
          underlying: error)
      // The request verified, so its response_uri is the verifier's own: it learns that the
      // wallet will not answer (§8.5 access_denied: refused, or no credential satisfies it);
      // but an unauthenticated verifier learns nothing under a policy that requires one.
      if authorization.verifier.isAuthenticated || !policy.requireAuthenticatedRequester,
        let post = try? authorization.errorResponse(
          .accessDenied(nil), random: configuration.random)
      {
        _ = try? await transport.post(
          post.request, posted: .error(OpenID4VPErrorResponse.ErrorCode.accessDenied.rawValue))
      }
      throw await refuseRedirect(refusal, clientID: authorization.clientID.rawValue)
    }
  }

  /// Posts the error of a request that failed a check to its unverified `response_uri`, only
  /// when the client identifier itself designates it (``clientIDDesignates(_:_:)``): the
  /// verifier it names learns why; a failed delivery changes nothing for the holder.
  static func postCheckFailure(
    _ error: OpenID4VPError, uri: AuthorizationRequestURI, requestObject: String?,
    transport: RedirectTransport
  ) async {
    guard let report = error.errorResponse,
      let destination = RedirectAuthorizationRequest.errorDestination(
        uri: uri, requestObject: requestObject),
      clientIDDesignates(destination.responseURI, uri.clientID)
    else { return }
    _ = try? await transport.post(
      RedirectAuthorizationRequest.errorPost(
        report, responseURI: destination.responseURI, state: destination.state
      ).request, posted: .error(report.error.rawValue))
  }

  /// Whether an unverified `response_uri` is one the client identifier itself designates, so
  /// that an error response may go there: the `redirect_uri` prefix's own URI (§5.9.3), or an
  /// https (or loopback http) URI on the `x509_san_dns` prefix's host.
  static func clientIDDesignates(_ responseURI: URL, _ clientID: ClientIdentifier) -> Bool {
    switch clientID.prefix {
    case ClientIdentifier.Prefix.redirectURI?:
      return responseURI.absoluteString == clientID.value
    case ClientIdentifier.Prefix.x509SANDNS?:
      return responseURI.host?.lowercased() == clientID.value.lowercased()
    default:
      return false
    }
  }

  /// Answers a request resolved from an authorization request URI: checks the consent,
  /// authenticates the holder, signs the presentations bound to the verifier (SD-JWT KB-JWT
  /// `aud` = `client_id`; mdoc over the OpenID4VP handover, OpenID4VP 1.0 Appendix B.2.6.1,
  /// B.3.6), posts them to the `response_uri` (`direct_post`, or `direct_post.jwt` encrypted to
  /// the verifier's key) and returns the verifier's answer. The `redirect_uri` it hands back is
  /// returned, never followed.
  ///
  /// What was shared is logged (the requester named by its client identifier) and batch
  /// credentials are marked presented once the verifier accepted the answer.
  ///
  /// - Throws: as ``respond(to:consent:)``; `transport` when the answer cannot be delivered or
  ///   the verifier refuses it.
  public func respond(
    to request: PresentationRequest, consent: PresentationConsent, httpClient: any HTTPClient,
    configuration: RedirectFlowConfiguration = RedirectFlowConfiguration()
  ) async throws(WalletError) -> RedirectResponseOutcome {
    guard case .openID4VP(let presentation) = request.kind,
      let authorization = presentation.request.redirect
    else {
      throw WalletError(
        .invalidInput, "only a request from an authorization request URI is posted to a verifier")
    }
    guard case .openID4VP(let openID4VPConsent) = consent else {
      throw WalletError(.refused, "the consent is for another protocol than the request")
    }
    let prepared = try await preparePresentations(
      presentation, consent: openID4VPConsent, request: request)
    let response: RedirectAuthorizationResponse
    do {
      response = try authorization.respond(
        presentations: prepared.presentations, now: clock(), random: configuration.random)
    } catch {
      await logRefusal(request, reason: error.reason)
      throw WalletError(.refused, error.reason, underlying: error)
    }
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    let outcome: RedirectResponseOutcome
    do {
      outcome = try await transport.post(response.post.request, posted: .presentation)
    } catch {
      await logRefusal(request, reason: "the answer was not accepted: \(error.reason)")
      throw error
    }
    await logShared(
      prepared, consent: openID4VPConsent, request: request,
      detail: "\(authorization.responseMode.rawValue) to \(authorization.responseURIText)")
    return outcome
  }

  /// Declines a request resolved from an authorization request URI: posts `access_denied` with
  /// its `state` to the `response_uri` (OpenID4VP 1.0 §8.5; encrypted for `direct_post.jwt`)
  /// and logs the refusal.
  ///
  /// - Parameters:
  ///   - request: a request returned by
  ///     ``resolve(authorizationRequestURI:httpClient:policy:configuration:)``.
  ///   - reason: an `error_description` for the verifier; nil sends none.
  ///   - httpClient: the client that posts the error response.
  ///   - configuration: URL policy, wallet metadata and randomness, as for resolving.
  /// - Returns: the verifier's answer (it accepted the error response).
  /// - Throws: `transport` when the error response cannot be delivered or is not accepted.
  public func decline(
    _ request: PresentationRequest, reason: String? = nil, httpClient: any HTTPClient,
    configuration: RedirectFlowConfiguration = RedirectFlowConfiguration()
  ) async throws(WalletError) -> RedirectResponseOutcome {
    guard let authorization = request.redirectAuthorization else {
      throw WalletError(
        .invalidInput, "only a request from an authorization request URI is posted to a verifier")
    }
    await logRefusal(request, reason: "declined by the holder")
    let post: ResponsePost
    do {
      post = try authorization.errorResponse(.accessDenied(reason), random: configuration.random)
    } catch {
      throw WalletError(.refused, error.reason, underlying: error)
    }
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    return try await transport.post(
      post.request, posted: .error(OpenID4VPErrorResponse.ErrorCode.accessDenied.rawValue))
  }
}
