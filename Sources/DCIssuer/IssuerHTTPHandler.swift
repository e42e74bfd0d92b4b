public import DCHTTP
import DCOpenID4VCI
public import Foundation

/// Routes HTTP requests to a ``CredentialIssuerService``'s handlers by path and method: the
/// one `HTTPHandler` (DCHTTP) a server mounts for the whole issuer and authorization server.
///
/// An unknown path is 404, a known path with another method 405 with `Allow`; every error is
/// an OAuth error object (RFC 6749 §5.2) and never carries a stack or an internal message.
public struct IssuerHTTPHandler: HTTPHandler {
  /// The issuer the requests go to.
  package let service: CredentialIssuerService
  /// How often expired state is deleted from the store, in seconds of the service's clock.
  package let purgeInterval: TimeInterval
  private let schedule = PurgeSchedule()

  /// A router for `service`; every `purgeInterval` seconds a request first deletes the
  /// expired codes, tokens, nonces and DPoP `jti`s from the service's store.
  public init(service: CredentialIssuerService, purgeInterval: TimeInterval = 60) {
    self.service = service
    self.purgeInterval = purgeInterval
  }

  /// The methods each endpoint answers.
  static func methods(_ endpoint: IssuerEndpoints.Endpoint) -> [HTTPMethod] {
    switch endpoint {
    case .credentialIssuerMetadata, .authorizationServerMetadata, .openIDConfiguration, .offer,
      .iacas, .statusList:
      [.get]
    case .authorize: [.get, .post]
    case .pushedAuthorization, .token, .nonce, .credential, .deferredCredential, .notification:
      [.post]
    }
  }

  public func handle(_ request: HTTPRequest) async -> HTTPResponse {
    if schedule.isDue(at: service.now, interval: purgeInterval) {
      try? service.purgeExpiredState()
    }
    let path =
      URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
      .percentEncodedPath ?? ""
    guard let (endpoint, offerID) = service.endpoints.match(path: path.isEmpty ? "/" : path)
    else {
      return IssuerEndpointFailure("not_found", "no endpoint at this path", status: 404).response
    }
    let allowed = Self.methods(endpoint)
    guard allowed.contains(request.method) else {
      var failure = IssuerEndpointFailure(
        "invalid_request", "\(request.method) is not allowed here", status: 405)
      failure.headers["Allow"] = allowed.map(\.rawValue).joined(separator: ", ")
      return failure.response
    }
    switch endpoint {
    case .credentialIssuerMetadata: return service.handleIssuerMetadata(request)
    case .authorizationServerMetadata, .openIDConfiguration:
      return service.handleAuthorizationServerMetadata(request)
    case .iacas: return service.handleIACAs(request)
    case .offer: return service.handleOffer(request, id: offerID ?? "")
    case .statusList: return service.handleStatusList(request, id: offerID ?? "")
    case .pushedAuthorization: return service.handlePushedAuthorization(request)
    case .authorize: return service.handleAuthorize(request)
    case .token: return service.handleToken(request)
    case .nonce: return service.handleNonce(request)
    case .credential: return service.handleCredential(request)
    case .deferredCredential: return service.handleDeferredCredential(request)
    case .notification: return service.handleNotification(request)
    }
  }
}

/// When the router last purged expired state.
private final class PurgeSchedule: @unchecked Sendable {
  private let lock = NSLock()
  private var last: Date?

  /// Whether a purge is due at `now`; records `now` as the last purge when it is.
  func isDue(at now: Date, interval: TimeInterval) -> Bool {
    lock.withLock {
      if let last, now.timeIntervalSince(last) < interval { return false }
      last = now
      return true
    }
  }
}

extension IssuerHTTPHandler: HTTPEndpointPolicyProviding {
  /// Each endpoint's media types and origins. The wallet-facing endpoints answer pages on any
  /// origin (a web wallet): they are authorized by codes, access tokens and DPoP proofs, never by
  /// the browser's ambient credentials. The authorization endpoint's consent form posts from the
  /// issuer's own page only.
  package func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
    guard let (endpoint, _) = service.endpoints.match(path: path.isEmpty ? "/" : path) else {
      return nil
    }
    var policy: HTTPEndpointPolicy
    switch endpoint {
    case .authorize: return .form
    case .pushedAuthorization, .token: policy = .form
    // OpenID4VCI 1.0 §8.2, §10: JSON, or an encrypted request as `application/jwt`.
    case .credential, .deferredCredential:
      policy = HTTPEndpointPolicy(acceptedMediaTypes: ["application/json", "application/jwt"])
    case .notification: policy = .json
    case .nonce, .credentialIssuerMetadata, .authorizationServerMetadata, .openIDConfiguration,
      .offer, .iacas, .statusList:
      policy = HTTPEndpointPolicy()
    }
    policy.crossOrigins = .any
    return policy
  }
}
