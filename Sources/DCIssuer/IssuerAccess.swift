import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation

/// Where a DPoP proof is checked: at the authorization server (token, PAR), whose errors are
/// 400 in the body (RFC 9449 §5, §8), or at a protected resource (credential, deferred,
/// notification), whose errors are 401 with a `WWW-Authenticate: DPoP` challenge (§7.1, §9).
enum DPoPSite {
  case authorizationServer
  case resourceServer
}

/// What the store holds for an access token (RFC 6749 §5.1) or a refresh token (§6).
struct GrantState {
  /// The configurations the token may obtain.
  var configurationIDs: [String]
  /// The client the token was issued to; nil after anonymous pre-authorized access.
  var clientID: String?
  /// The DPoP key thumbprint the token is bound to (`cnf.jkt`, RFC 9449 §6); nil for a bearer
  /// token.
  var jkt: String?
  /// Whether the token response carried `credential_identifiers`, which the credential request
  /// must then use (OpenID4VCI 1.0 §6.2, §8.2).
  var usesCredentialIdentifiers: Bool

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("configuration_ids", strings: configurationIDs)
    object.set("client_id", clientID)
    object.set("jkt", jkt)
    object.set("credential_identifiers", usesCredentialIdentifiers)
    return object.value
  }

  init(
    configurationIDs: [String], clientID: String?, jkt: String?, usesCredentialIdentifiers: Bool
  ) {
    self.configurationIDs = configurationIDs
    self.clientID = clientID
    self.jkt = jkt
    self.usesCredentialIdentifiers = usesCredentialIdentifiers
  }

  init?(_ json: JSONValue) {
    guard let ids = json["configuration_ids"]?.array?.compactMap(\.string) else { return nil }
    configurationIDs = ids
    clientID = json["client_id"]?.string
    jkt = json["jkt"]?.string
    usesCredentialIdentifiers = json["credential_identifiers"]?.bool ?? false
  }
}

/// An access token presented at a protected endpoint and found valid.
struct PresentedAccessToken {
  let token: String
  let grant: GrantState
}

extension CredentialIssuerService {
  /// The challenge scheme of this issuer's protected endpoints.
  var tokenScheme: String { configuration.requireDPoP ? "DPoP" : "Bearer" }

  /// A fresh server DPoP nonce (RFC 9449 §8, §9), recorded until it goes stale; nil when the
  /// issuer demands none.
  func freshDPoPNonce() -> String? {
    guard case .required(let lifetime) = configuration.dpopNonces else { return nil }
    let nonce = randomToken(bytes: 16)
    try? store.upsert(
      IssuerStateRecord(
        kind: .dpopNonce, key: nonce, value: .object([]),
        expiresAt: now.addingTimeInterval(lifetime)))
    return nonce
  }

  /// The nonce check for ``DPoPVerifier``: nil when no nonce is demanded, else whether the
  /// nonce is one this server issued and still accepts.
  var dpopNonceCheck: (@Sendable (String) -> Bool)? {
    guard case .required = configuration.dpopNonces else { return nil }
    let store = self.store
    let clock = self.clock
    return { nonce in (try? store.find(.dpopNonce, nonce, now: clock())) != nil }
  }

  /// Checks the request's DPoP proof (RFC 9449 §4.3) for `endpoint`.
  ///
  /// - Returns: the verified proof, or nil when the request has none and the issuer does not
  ///   demand DPoP.
  /// - Throws: `invalid_dpop_proof`, or `use_dpop_nonce` with a fresh `DPoP-Nonce` header.
  func verifyDPoP(
    _ request: HTTPRequest, endpoint: IssuerEndpoints.Endpoint, site: DPoPSite,
    accessToken: String? = nil, boundThumbprint: String? = nil
  ) throws(IssuerEndpointFailure) -> VerifiedDPoPProof? {
    let proofs = request.headers.values("DPoP")
    guard !proofs.isEmpty else {
      if configuration.requireDPoP || boundThumbprint != nil {
        throw dpopFailure("invalid_dpop_proof", "a DPoP proof is required", site: site)
      }
      return nil
    }
    // RFC 9449 §4.3 step 1: exactly one DPoP header.
    guard proofs.count == 1 else {
      throw dpopFailure("invalid_dpop_proof", "more than one DPoP header", site: site)
    }
    do {
      // htu is compared with the endpoint URL this issuer publishes, which is what the client
      // was told to call (a proxy in front may rewrite the request URL).
      return try dpopVerifier.verify(
        proof: proofs[0], method: request.method.rawValue,
        uri: endpoints.url(endpoint).absoluteString, nonceCheck: dpopNonceCheck,
        accessToken: accessToken, boundThumbprint: boundThumbprint)
    } catch let error where error.code == .useDPoPNonce {
      var failure = dpopFailure("use_dpop_nonce", error.reason, site: site)
      if let nonce = freshDPoPNonce() { failure.headers["DPoP-Nonce"] = nonce }
      throw failure
    } catch {
      throw dpopFailure("invalid_dpop_proof", error.reason, site: site)
    }
  }

  /// A DPoP error as the site answers it.
  func dpopFailure(_ error: String, _ description: String, site: DPoPSite)
    -> IssuerEndpointFailure
  {
    switch site {
    case .authorizationServer:
      return IssuerEndpointFailure(error, description)
    case .resourceServer:
      return IssuerEndpointFailure(error, description, status: 401, challengeScheme: "DPoP")
    }
  }

  /// Checks the access token of a request to a protected endpoint (RFC 6750 §2.1, RFC 9449
  /// §7): the `Authorization` header's scheme and token, the token's validity, and for a
  /// DPoP-bound token the proof with `ath` by the bound key.
  func authenticate(_ request: HTTPRequest, endpoint: IssuerEndpoints.Endpoint)
    throws(IssuerEndpointFailure) -> PresentedAccessToken
  {
    func invalidToken(_ description: String) -> IssuerEndpointFailure {
      IssuerEndpointFailure(
        "invalid_token", description, status: 401, challengeScheme: tokenScheme)
    }
    guard let authorization = request.headers["Authorization"] else {
      throw invalidToken("no access token")
    }
    let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[1].isEmpty else {
      throw invalidToken("the Authorization header is not '<scheme> <token>'")
    }
    let scheme = parts[0].lowercased()
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    let record: IssuerStateRecord?
    do {
      record = try store.find(.accessToken, token, now: now)
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    guard let record, let grant = GrantState(record.value) else {
      throw invalidToken("the access token is unknown or expired")
    }
    if let jkt = grant.jkt {
      // RFC 9449 §7.1: a DPoP-bound token comes with the DPoP scheme and a proof by its key.
      guard scheme == "dpop" else {
        throw invalidToken("a DPoP-bound access token must use the DPoP scheme")
      }
      _ = try verifyDPoP(
        request, endpoint: endpoint, site: .resourceServer, accessToken: token,
        boundThumbprint: jkt)
    } else {
      guard scheme == "bearer" else { throw invalidToken("the access token is a bearer token") }
    }
    return PresentedAccessToken(token: token, grant: grant)
  }
}
