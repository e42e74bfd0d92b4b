public import CryptoPrimitives
public import DCQL
public import Foundation
public import HTTP
import JSON
public import OpenID4VP
public import X509Certificates

/// An OpenID4VP request that reached the wallet through an authorization request URI
/// (`openid4vp://`, `haip-vp://`, `eudi-openid4vp://`) rather than the DC API: checked, with its
/// verifier identified by the client identifier, and answered by a POST to ``responseURI``
/// (OpenID4VP 1.0 §5, §5.9.3, §8.2).
///
/// There is no web origin here: the requester is the client identifier, authenticated for
/// `x509_san_dns`, `x509_hash` and `verifier_attestation` (a chain to a configured verifier
/// anchor), unauthenticated for `redirect_uri` (whose response goes to the client identifier's
/// own URI).
public struct RedirectAuthorization: Sendable {
  /// The client identifier, prefix included (OpenID4VP 1.0 §5.9).
  public let clientID: ClientIdentifier
  /// Whether the client identifier is authenticated through a chain to a configured verifier
  /// anchor (`x509_san_dns`, `x509_hash`, `verifier_attestation`); false for `redirect_uri`.
  public let isAuthenticated: Bool
  /// The validated certificate path that authenticated the verifier, leaf first; empty when it
  /// is not authenticated.
  public let trustedChain: [Certificate]
  /// Where the answer is posted (OpenID4VP 1.0 §8.2).
  public let responseURI: URL
  /// `state`, echoed in the answer when present (OpenID4VP 1.0 §5.3, §8.2).
  public let state: String?
  /// `dcql_query`, parsed (OpenID4VP 1.0 §6).
  public let dcqlQuery: DCQLQuery
  /// `transaction_data`, each entry checked (OpenID4VP 1.0 §5.1).
  public let transactionData: [TransactionData]
  /// The checked request, from the OpenID4VP module.
  let request: RedirectRequestValue
}

/// How the wallet reaches verifiers in the redirect flows: which URLs it fetches from and posts
/// to, what it says about itself at a `request_uri` with `request_uri_method=post`, and the
/// randomness of `wallet_nonce` and the response encryption.
public struct RedirectFlowConfiguration: Sendable {
  /// The URLs allowed for `request_uri`, `response_uri` and a returned `redirect_uri`: https,
  /// and plain http to a loopback host by default (so verifiers can be tested locally; the
  /// issue 16 contract).
  public var urlPolicy: HTTPURLPolicy
  /// The randomness of `wallet_nonce` (OpenID4VP 1.0 §5.10.1) and the JWE of `direct_post.jwt`.
  public var random: any RandomSource

  /// Creates a configuration.
  public init(
    urlPolicy: HTTPURLPolicy = HTTPURLPolicy(allowsLoopbackHTTP: true),
    random: any RandomSource = SecureRandom()
  ) {
    self.urlPolicy = urlPolicy
    self.random = random
  }
}

extension PresentationRequest {
  /// The protocol identifier a request from an authorization request URI is resolved, logged
  /// and allowed under (``WalletPolicy/allowedProtocols``): no DC API identifier applies.
  public static let redirectProtocolIdentifier = "openid4vp-v1-redirect"

  /// The redirect request, nil for every request that arrived over the DC API or in person.
  public var redirectAuthorization: RedirectAuthorization? {
    if case .openID4VP(let presentation) = kind { return presentation.request.redirect }
    return nil
  }
}

extension Wallet {
  /// Resolves an authorization request URI (OpenID4VP 1.0 §5): parses it, fetches the request
  /// object at its `request_uri` (GET, or with `request_uri_method=post` a POST of
  /// `wallet_metadata` and a fresh `wallet_nonce`, §5.10), verifies the request object with the
  /// wallet's verifier trust anchors and clock, then evaluates its DCQL query against the stored
  /// credentials: the same ``PresentationRequest`` (``PresentationRequest/Kind/openID4VP(_:)``)
  /// a DC API request resolves to, with no origin.
  ///
  /// `policy.requireAuthenticatedRequester` refuses a `redirect_uri` request (unauthenticated).
  /// When the request verified but cannot be answered (the policy, no stored credential, only
  /// revoked or suspended ones), the wallet posts `access_denied` to the verified
  /// `response_uri` before throwing, so the verifier learns the outcome; a request that does not
  /// verify is never answered (its `response_uri` is not established).
  ///
  /// - Parameters:
  ///   - authorizationRequestURI: the URI text, as scanned or opened.
  ///   - httpClient: fetches the request object (`URLSessionHTTPClient` in an app).
  ///   - policy: by default the wallet's.
  ///   - configuration: URL policy and randomness.
  /// - Throws: `refused` with a typed ``Refusal`` (also in ``WalletError/refusals``) when the
  ///   request is invalid or cannot be answered; `transport` when the request object cannot be
  ///   fetched. The refusal is logged.
  public func resolve(
    authorizationRequestURI: String, httpClient: any HTTPClient, policy: WalletPolicy? = nil,
    configuration: RedirectFlowConfiguration = RedirectFlowConfiguration()
  ) async throws(WalletError) -> PresentationRequest {
    let policy = policy ?? self.policy
    let protocolIdentifier = PresentationRequest.redirectProtocolIdentifier
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    func refuse(_ refusal: Refusal, clientID: String?) async -> WalletError {
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: protocolIdentifier, origin: nil,
          relyingParty: clientID, outcome: .refused, detail: refusal.reason))
      return WalletError(.refused, refusal.reason, underlying: refusal, refusals: [refusal])
    }
    guard policy.allows(protocolIdentifier: protocolIdentifier) else {
      throw await refuse(
        Refusal(
          protocolIdentifier: protocolIdentifier, code: .protocolNotAllowed,
          reason: "the policy does not allow this protocol"), clientID: nil)
    }
    let authorization: RedirectAuthorization
    do {
      authorization = try await fetchAndVerify(
        authorizationRequestURI, transport: transport, configuration: configuration)
    } catch let error as WalletError where error.code == .transport {
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: protocolIdentifier, origin: nil,
          outcome: .refused, detail: error.reason))
      throw error
    } catch let error as Refusal {
      throw await refuse(error, clientID: nil)
    } catch {
      throw await refuse(
        Refusal(
          protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: "\(error)",
          underlying: error), clientID: nil)
    }
    do {
      if policy.requireAuthenticatedRequester && !authorization.isAuthenticated {
        throw Refusal(
          protocolIdentifier: protocolIdentifier, code: .requesterNotAuthenticated,
          reason:
            "the client identifier \(authorization.clientID.rawValue) is not authenticated (prefix \(authorization.clientID.prefix?.rawValue ?? "none"))"
        )
      }
      let (offered, evaluation) = try await evaluate(
        authorization.dcqlQuery, protocolIdentifier: protocolIdentifier, policy: policy)
      return PresentationRequest(
        protocolIdentifier: protocolIdentifier, origin: nil,
        kind: .openID4VP(
          OpenID4VPPresentation(
            request: .redirect(authorization), credentials: offered, evaluation: evaluation)),
        skipped: [], policy: policy)
    } catch {
      let refusal =
        error as? Refusal
        ?? Refusal(
          protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: "\(error)",
          underlying: error)
      // The request verified, so its response_uri is the verifier's own: it learns that the
      // wallet will not answer (§8.5 access_denied: refused, or no credential satisfies it).
      // A failure to deliver this is not the holder's concern; the refusal is what is thrown.
      _ = try? await transport.post(
        Self.errorForm(
          authorization, .init(error: .accessDenied, errorDescription: nil)),
        to: authorization.responseURI, posted: .error("access_denied"))
      throw await refuse(refusal, clientID: authorization.clientID.rawValue)
    }
  }

  /// Answers a request resolved from an authorization request URI: checks the consent,
  /// authenticates the holder, signs the presentations bound to the verifier (SD-JWT KB-JWT
  /// `aud` = `client_id`; mdoc over the OpenID4VP handover, OpenID4VP 1.0 Appendix B.2.6.1,
  /// B.3.6), posts them to the `response_uri` (`direct_post`, or `direct_post.jwt` encrypted to
  /// the verifier's key), and returns the verifier's answer. The `redirect_uri` it hands back is
  /// returned, never followed.
  ///
  /// What was shared is logged (the requester named by its client identifier), and batch
  /// credentials are marked presented, once the verifier accepted the answer.
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
    let form: [(String, String)]
    do {
      form = try Self.responseForm(
        authorization, presentations: prepared.presentations, now: clock(),
        random: configuration.random)
    } catch {
      await logRefusal(request, reason: error.reason)
      throw error
    }
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    let outcome: RedirectResponseOutcome
    do {
      outcome = try await transport.post(
        form, to: authorization.responseURI, posted: .presentation)
    } catch {
      await logRefusal(request, reason: "the answer was not delivered: \(error.reason)")
      throw error
    }
    await logShared(
      prepared, consent: openID4VPConsent, request: request,
      detail:
        "\(authorization.request.responseModeName) to \(authorization.responseURI.absoluteString)")
    return outcome
  }

  /// Declines a request resolved from an authorization request URI: posts `access_denied` with
  /// its `state` to the `response_uri` (OpenID4VP 1.0 §8.5) and logs the refusal.
  ///
  /// - Parameter reason: an `error_description` for the verifier; nil sends none.
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
    let transport = RedirectTransport(client: httpClient, urlPolicy: configuration.urlPolicy)
    return try await transport.post(
      Self.errorForm(authorization, .accessDenied(reason)), to: authorization.responseURI,
      posted: .error(OpenID4VPErrorResponse.ErrorCode.accessDenied.rawValue))
  }
}
