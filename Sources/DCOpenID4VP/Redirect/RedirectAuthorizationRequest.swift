import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
package import DCJSON
package import DCQL
package import DCX509
package import Foundation

/// `response_mode` of the redirect-based flows (OpenID4VP 1.0 §8.2, §8.3.1).
package enum RedirectResponseMode: String, Sendable, Hashable, CaseIterable {
  /// `direct_post`: `vp_token` and `state` posted as a form to `response_uri` (§8.2).
  case directPost = "direct_post"
  /// `direct_post.jwt`: the response encrypted to the verifier, posted as `response` (§8.3.1).
  case directPostJWT = "direct_post.jwt"
}

/// Who is asking in a redirect-based request, as far as the wallet could establish (OpenID4VP
/// 1.0 §5.9.3).
package enum RedirectVerifierIdentity: Sendable, Hashable {
  /// `x509_san_dns` or `x509_hash`: the request object is signed with the `x5c` leaf, which
  /// chains to a trusted verifier anchor and matches the client identifier.
  case certificate(
    clientID: ClientIdentifier, leafCertificate: Certificate, trustedChain: TrustedChain)
  /// `verifier_attestation`: a trusted issuer's attestation binds the client identifier to the
  /// key that signed the request object.
  case attestation(VerifierAttestation)
  /// `redirect_uri`: an unsigned request; the verifier is not authenticated, the response goes
  /// only to the client identifier's URI.
  case redirectURI(ClientIdentifier)

  /// The client identifier, prefix included.
  package var clientID: ClientIdentifier {
    switch self {
    case .certificate(let clientID, _, _): clientID
    case .attestation(let attestation): attestation.clientID
    case .redirectURI(let clientID): clientID
    }
  }

  /// Whether a trusted party vouched for the verifier.
  package var isAuthenticated: Bool {
    if case .redirectURI = self { return false }
    return true
  }
}

/// A checked Verifier Attestation JWT (OpenID4VP 1.0 §5.9.3 `verifier_attestation`, §12).
package struct VerifierAttestation: Sendable, Hashable {
  /// The client identifier it was checked against.
  package let clientID: ClientIdentifier
  /// `iss`, the attestation issuer.
  package let issuer: String?
  /// `sub`, the client identifier without its prefix.
  package let subject: String
  /// `exp`.
  package let expiresAt: Date
  /// `redirect_uris`, when present: the only response URIs the verifier may use.
  package let redirectURIs: [String]?
  /// The validated path from the attestation's signing certificate to a trust anchor.
  package let trustedChain: TrustedChain
  /// The claims as received.
  package let claims: JSONValue
}

/// An OpenID4VP Authorization Request received outside the DC API, from an
/// ``AuthorizationRequestURI`` and, for `request_uri`, the fetched request object: checked, and
/// its verifier authenticated per client identifier prefix (OpenID4VP 1.0 §5, §5.8, §5.9.3,
/// §5.10, §8.2, §8.3.1).
package struct RedirectAuthorizationRequest: Sendable {
  /// `aud` of a request object under static discovery (OpenID4VP 1.0 §5.8).
  package static let staticDiscoveryAudience = "https://self-issued.me/v2"
  /// The `typ` of a Verifier Attestation JWT (OpenID4VP 1.0 §12).
  package static let verifierAttestationType = "verifier-attestation+jwt"
  /// The longest request object read (docs/LIMITS.md).
  package static let maximumRequestObjectLength = RequestObjectFetch.maximumResponseLength

  /// The URI the request came in.
  package let uri: AuthorizationRequestURI
  /// Who is asking.
  package let verifier: RedirectVerifierIdentity
  /// Whether the parameters came in a signed request object.
  package let isSigned: Bool
  /// The request parameters: the request object's claims, or the URI's parameters.
  package let parameters: JSONValue
  /// `response_mode`.
  package let responseMode: RedirectResponseMode
  /// `response_uri`, checked: `https` or loopback `http`.
  package let responseURI: URL
  /// `response_uri` exactly as sent (it goes into the mdoc handover, B.2.6.1).
  package let responseURIText: String
  /// `state`, echoed in the response (OpenID4VP 1.0 §5.1, §8.2).
  package let state: String?
  /// `nonce` (OpenID4VP 1.0 §5.2).
  package let nonce: String
  /// `dcql_query`, parsed (OpenID4VP 1.0 §6).
  package let dcqlQuery: DCQLQuery
  /// `dcql_query` as received.
  package let dcqlQueryJSON: JSONValue
  /// `client_metadata` (OpenID4VP 1.0 §5.1).
  package let clientMetadata: ClientMetadata
  /// The key and `enc` for `direct_post.jwt`; nil for `direct_post` (OpenID4VP 1.0 §8.3).
  package let responseEncryption: ResponseEncryption?
  /// `transaction_data`, each entry checked and of a supported type (OpenID4VP 1.0 §5.1).
  package let transactionData: [TransactionData]
  /// `verifier_info`, kept as data for the UI (OpenID4VP 1.0 §5.1).
  package let verifierInfo: JSONValue?

  /// The client identifier, prefix included.
  package var clientID: ClientIdentifier { verifier.clientID }

  /// Reads and checks a request.
  ///
  /// A request object (fetched, or `request` by value) must be a compact JWS with `typ`
  /// `oauth-authz-req+jwt`, the URI's `client_id`, `aud` `https://self-issued.me/v2` or
  /// `walletIssuer`, `iat` not in the future and `exp` not past (both required, the policy's
  /// clock skew allowed), `iat` at most `policy.maximumAge` ago and `exp - iat` at most
  /// `policy.maximumLifetime`, and, when `walletNonce` is given, that `wallet_nonce`. Its
  /// signature is checked per prefix: `x509_san_dns` / `x509_hash` as over the DC API (with HAIP
  /// 1.0's chain rules, and the `response_uri` host equal to the DNS name; loopback aliases of
  /// `localhost` only under `policy.allowsLoopbackAliases`), `verifier_attestation` through the
  /// attestation in the `jwt` header. `redirect_uri` requests are unsigned, in the URI, and
  /// answered only at the client identifier's URI. Other prefixes are refused.
  ///
  /// - Parameters:
  ///   - uri: the request URI.
  ///   - requestObject: the body fetched from `request_uri`; nil for the other forms.
  ///   - verifierTrustAnchors: the certificates trusted to vouch for verifiers (request
  ///     signing certificates and Verifier Attestation issuers).
  ///   - walletNonce: the `wallet_nonce` sent with a `request_uri` POST, nil otherwise.
  ///   - walletIssuer: the wallet's issuer identifier when it publishes metadata (dynamic
  ///     discovery, §5.8), accepted as `aud` too.
  ///   - now: the time for `iat`, `exp` and certificate validity.
  ///   - policy: clock skew, request object age and lifetime, loopback aliases.
  ///   - supportedTransactionDataTypes: transaction data types this wallet can bind.
  /// - Throws: `OpenID4VPError`; its ``OpenID4VPError/errorResponse`` says what to report.
  package init(
    uri: AuthorizationRequestURI, requestObject: String?, verifierTrustAnchors: [Certificate],
    walletNonce: String?, walletIssuer: String? = nil, now: Date,
    policy: RedirectRequestPolicy = .standard, supportedTransactionDataTypes: Set<String> = []
  ) throws(OpenID4VPError) {
    self.uri = uri
    let (parameters, verifier, isSigned) = try Self.readParameters(
      uri: uri, requestObject: requestObject, trustAnchors: verifierTrustAnchors,
      walletNonce: walletNonce, walletIssuer: walletIssuer, now: now, policy: policy)
    self.verifier = verifier
    self.parameters = parameters
    self.isSigned = isSigned

    // §5.1, §8.2: the parameters of the redirect-based response modes.
    responseMode = try Self.readResponseMode(parameters)
    guard let nonce = parameters["nonce"]?.string, !nonce.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "nonce is required")
    }
    self.nonce = nonce
    if let state = parameters["state"] {
      guard let text = state.string else {
        throw OpenID4VPError(.invalidRequest, "state must be a string")
      }
      self.state = text
    } else {
      state = nil
    }
    (responseURI, responseURIText) = try Self.readResponseURI(
      parameters, mode: responseMode, verifier: verifier, policy: policy)

    let query = try AuthorizationRequest.readDCQL(parameters)
    dcqlQuery = query.parsed
    dcqlQueryJSON = query.json
    // The DC API reader with dc_api: the metadata and formats checks, no encryption yet.
    clientMetadata = try AuthorizationRequest.readClientMetadata(parameters, responseMode: .dcAPI)
      .clientMetadata
    responseEncryption =
      responseMode == .directPostJWT ? try clientMetadata.responseEncryption() : nil
    transactionData = try AuthorizationRequest.readTransactionData(
      parameters["transaction_data"], credentialQueryIDs: Set(query.parsed.credentials.map(\.id)),
      supportedTypes: supportedTransactionDataTypes)
    verifierInfo = parameters["verifier_info"]
  }

  /// The request's parameters, who sent them and whether they were signed, from whichever form
  /// the request URI takes: a request object by reference or by value, or plain parameters.
  private static func readParameters(
    uri: AuthorizationRequestURI, requestObject: String?, trustAnchors: [Certificate],
    walletNonce: String?, walletIssuer: String?, now: Date, policy: RedirectRequestPolicy
  ) throws(OpenID4VPError) -> (JSONValue, RedirectVerifierIdentity, Bool) {
    switch uri.form {
    case .byReference:
      guard let requestObject else {
        throw OpenID4VPError(
          .invalidRequest, "the request object from request_uri is needed to read this request")
      }
      return try readRequestObject(
        requestObject, clientID: uri.clientID, trustAnchors: trustAnchors,
        walletNonce: walletNonce, walletIssuer: walletIssuer, now: now, policy: policy)
    case .requestObject(let object):
      return try readRequestObject(
        object, clientID: uri.clientID, trustAnchors: trustAnchors,
        walletNonce: walletNonce, walletIssuer: walletIssuer, now: now, policy: policy)
    case .parameters(let values):
      switch uri.clientID.prefix {
      case ClientIdentifier.Prefix.redirectURI?:
        return (values, .redirectURI(uri.clientID), false)
      case .x509SANDNS?, .x509Hash?, .verifierAttestation?:
        throw OpenID4VPError(
          .invalidRequest,
          "\(uri.clientID.prefix?.rawValue ?? "") requests must be signed request objects")
      default:
        throw unsupportedPrefix(uri.clientID)
      }
    }
  }

  /// A request object's parameters and verifier: unsecured for a `redirect_uri` client
  /// identifier that sent one, verified as a signed request object otherwise.
  private static func readRequestObject(
    _ text: String, clientID: ClientIdentifier, trustAnchors: [Certificate],
    walletNonce: String?, walletIssuer: String?, now: Date, policy: RedirectRequestPolicy
  ) throws(OpenID4VPError) -> (JSONValue, RedirectVerifierIdentity, Bool) {
    if clientID.prefix == .redirectURI,
      let unsecured = try unsecuredRequestObject(text, clientID: clientID, walletNonce: walletNonce)
    {
      return (unsecured, .redirectURI(clientID), false)
    }
    let (parameters, verifier) = try verifyRequestObject(
      text, clientID: clientID, trustAnchors: trustAnchors, walletNonce: walletNonce,
      walletIssuer: walletIssuer, now: now, policy: policy)
    return (parameters, verifier, true)
  }

  /// `response_type` (`vp_token` only) and `response_mode` (`direct_post` or
  /// `direct_post.jwt`), both required.
  private static func readResponseMode(_ parameters: JSONValue) throws(OpenID4VPError)
    -> RedirectResponseMode
  {
    guard let responseType = parameters["response_type"]?.string else {
      throw OpenID4VPError(.invalidRequest, "response_type is required")
    }
    guard responseType == "vp_token" else {
      throw OpenID4VPError(.invalidRequest, "response_type must be vp_token, got \(responseType)")
    }
    guard let mode = parameters["response_mode"]?.string else {
      throw OpenID4VPError(
        .unsupportedResponseMode, "response_mode is required (direct_post or direct_post.jwt)")
    }
    guard let responseMode = RedirectResponseMode(rawValue: mode) else {
      throw OpenID4VPError(
        .unsupportedResponseMode, "response_mode \(mode) is not direct_post or direct_post.jwt")
    }
    return responseMode
  }

  /// The Response URI, parsed and as sent, checked against where the verifier may be answered.
  private static func readResponseURI(
    _ parameters: JSONValue, mode: RedirectResponseMode, verifier: RedirectVerifierIdentity,
    policy: RedirectRequestPolicy
  ) throws(OpenID4VPError) -> (URL, String) {
    // §8.2: response_uri is required, and redirect_uri must not be present with it. §5.9.3
    // redirect_uri prefix: the client identifier is the Response URI, so a request without one
    // is answered there (the OpenID conformance suite's alternate happy flow omits it).
    let derivedResponseURI: String? =
      if case .redirectURI(let clientID) = verifier { clientID.value } else { nil }
    guard let responseURIText = parameters["response_uri"]?.string ?? derivedResponseURI else {
      throw OpenID4VPError(.invalidRequest, "\(mode.rawValue) needs a response_uri")
    }
    guard parameters["redirect_uri"] == nil else {
      throw OpenID4VPError(
        .invalidRequest, "redirect_uri must not be present together with response_uri (§8.2)")
    }
    let responseURI = try AuthorizationRequestURI.checkedURL(responseURIText, name: "response_uri")
    try checkResponseURI(
      responseURI, text: responseURIText, verifier: verifier,
      allowsLoopbackAliases: policy.allowsLoopbackAliases)
    return (responseURI, responseURIText)
  }

  static func unsupportedPrefix(_ clientID: ClientIdentifier) -> OpenID4VPError {
    OpenID4VPError(
      .unsupportedClientIDPrefix,
      "client_id prefix \(clientID.prefix?.rawValue ?? "(none, pre-registered)") is not supported")
  }

  /// §5.9.3: where each prefix lets the response go.
  static func checkResponseURI(
    _ url: URL, text: String, verifier: RedirectVerifierIdentity, allowsLoopbackAliases: Bool
  ) throws(OpenID4VPError) {
    switch verifier {
    case .certificate(let clientID, _, _):
      guard clientID.prefix == .x509SANDNS else { return }
      // §5.9.3 x509_san_dns: the response_uri's host is the DNS name of the client identifier,
      // exactly; a localhost verifier answering at another loopback address only under the
      // explicit development allowance.
      let host = url.host(percentEncoded: false)?.lowercased() ?? ""
      let name = clientID.value.lowercased()
      let loopback =
        allowsLoopbackAliases && name == "localhost" && HTTPURLPolicy.isLoopbackHost(host)
      guard host == name || loopback else {
        throw OpenID4VPError(
          .invalidRequest,
          "response_uri host \(host) is not the client identifier's DNS name \(clientID.value)")
      }
    case .attestation(let attestation):
      // §12: redirect_uris, when present, bound where the verifier may receive responses.
      guard let allowed = attestation.redirectURIs else { return }
      guard allowed.contains(text) else {
        throw OpenID4VPError(
          .invalidRequest, "response_uri \(text) is not in the attestation's redirect_uris")
      }
    case .redirectURI(let clientID):
      // §5.9.3 redirect_uri: the response goes to the client identifier's URI.
      guard text == clientID.value else {
        throw OpenID4VPError(
          .invalidRequest,
          "response_uri \(text) differs from the redirect_uri client identifier \(clientID.value)")
      }
    }
  }

  /// Reads an unsecured request object (`alg` `none`, RFC 7519 §6), the only kind a
  /// `redirect_uri` client identifier sends by reference (OpenID4VP 1.0 §5.9.3: its requests
  /// cannot be signed): `typ` `oauth-authz-req+jwt` when present, the URI's `client_id`, and the
  /// `wallet_nonce` the wallet sent. Nil when `text` is not unsecured (a signed object, refused
  /// by ``verifyRequestObject``).
  static func unsecuredRequestObject(
    _ text: String, clientID: ClientIdentifier, walletNonce: String?
  ) throws(OpenID4VPError) -> JSONValue? {
    guard text.utf8.count <= maximumRequestObjectLength else {
      throw OpenID4VPError(
        .malformed, "the request object is longer than \(maximumRequestObjectLength) bytes")
    }
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[2].isEmpty,
      let headerBytes = try? Base64URL.decode(String(parts[0])),
      let header = try? JSONValue(parsing: headerBytes), header["alg"]?.string == "none"
    else { return nil }
    if let typ = header["typ"] {
      guard typ.string == AuthorizationRequest.requestObjectType else {
        throw OpenID4VPError(
          .invalidRequest,
          "typ must be \(AuthorizationRequest.requestObjectType), got \(typ.serialized())")
      }
    }
    let payloadBytes: [UInt8]
    do {
      payloadBytes = try Base64URL.decode(String(parts[1]))
    } catch {
      throw OpenID4VPError(
        .malformed, "the request object payload: \(error.reason)", underlying: error)
    }
    let payload = try AuthorizationRequest.payloadObject(payloadBytes)
    guard payload["client_id"]?.string == clientID.rawValue else {
      throw OpenID4VPError(
        .invalidRequest,
        "client_id \(payload["client_id"]?.serialized() ?? "(none)") in the request object "
          + "differs from \(clientID.rawValue) in the request URI")
    }
    if let walletNonce, payload["wallet_nonce"]?.string != walletNonce {
      throw OpenID4VPError(
        .invalidRequest, "the request object's wallet_nonce is not the one the wallet sent")
    }
    return payload
  }

  /// Verifies a request object: shape, `typ`, `client_id`, signature per prefix, `aud`, times,
  /// `wallet_nonce` (RFC 9101 §6, OpenID4VP 1.0 §5, §5.8, §5.9.3, §5.10.1).
  static func verifyRequestObject(
    _ text: String, clientID: ClientIdentifier, trustAnchors: [Certificate],
    walletNonce: String?, walletIssuer: String?, now: Date, policy: RedirectRequestPolicy
  ) throws(OpenID4VPError) -> (JSONValue, RedirectVerifierIdentity) {
    guard text.utf8.count <= maximumRequestObjectLength else {
      throw OpenID4VPError(
        .malformed, "the request object is longer than \(maximumRequestObjectLength) bytes")
    }
    let jws: CompactJWS
    do {
      jws = try CompactJWS(text.trimmingCharacters(in: .whitespacesAndNewlines))
    } catch {
      throw AuthorizationRequest.jwsParseError(error)
    }
    // RFC 9101 §10.8 / OpenID4VP 1.0 §5: the request object's media type.
    guard jws.type == AuthorizationRequest.requestObjectType else {
      throw OpenID4VPError(
        .invalidRequestSignature,
        "typ must be \(AuthorizationRequest.requestObjectType), got \(jws.type ?? "none")")
    }
    let payload = try AuthorizationRequest.payloadObject(jws.payload)
    // RFC 9101 §5 / OpenID4VP 1.0 §5.9: the client_id outside is the one inside.
    guard payload["client_id"]?.string == clientID.rawValue else {
      throw OpenID4VPError(
        .invalidRequest,
        "client_id \(payload["client_id"]?.serialized() ?? "(none)") in the request object "
          + "differs from \(clientID.rawValue) in the request URI")
    }
    let verifier = try authenticate(
      jws, clientID: clientID, trustAnchors: trustAnchors, now: now, policy: policy)
    let claims: JWTClaims
    do {
      claims = try JWTClaims(json: payload)
    } catch {
      throw OpenID4VPError(
        .invalidRequest, "request object claims: \(error.reason)", underlying: error)
    }
    try checkAudience(claims, walletIssuer: walletIssuer)
    try checkLifetime(claims, now: now, policy: policy)
    // §5.10.1: a request fetched with a wallet_nonce must echo it.
    if let walletNonce { try checkWalletNonce(payload, walletNonce) }
    return (payload, verifier)
  }

  /// Who signed the request object, authenticated per client identifier prefix: an `x5c` chain
  /// for the `x509_*` prefixes, the attestation's `cnf` key for `verifier_attestation`.
  private static func authenticate(
    _ jws: CompactJWS, clientID: ClientIdentifier, trustAnchors: [Certificate], now: Date,
    policy: RedirectRequestPolicy
  ) throws(OpenID4VPError) -> RedirectVerifierIdentity {
    switch clientID.prefix {
    case .x509SANDNS?, .x509Hash?:
      let verified = try RequestAuthentication.authenticateX509(
        x5c: jws.x5c, identifier: clientID, trustAnchors: trustAnchors, now: now
      ) { (key) throws(JOSEError) in try jws.verifySignature(with: key) }
      return .certificate(
        clientID: clientID, leafCertificate: verified.chain[0], trustedChain: verified.trusted)
    case .verifierAttestation?:
      let (attestation, key) = try verifyAttestation(
        jws.protectedHeader["jwt"], clientID: clientID, trustAnchors: trustAnchors, now: now,
        clockSkew: policy.clockSkew)
      do {
        try jws.verifySignature(with: key)
      } catch {
        throw OpenID4VPError(
          .invalidRequestSignature,
          "the request object is not signed by the attestation's cnf key: \(error.reason)",
          underlying: error)
      }
      return .attestation(attestation)
    case .redirectURI?:
      // §5.9.3: requests with the redirect_uri prefix cannot be signed.
      throw OpenID4VPError(
        .invalidRequest, "a redirect_uri client identifier cannot send a signed request object")
    default:
      throw unsupportedPrefix(clientID)
    }
  }

  /// The request object's `aud`: the static discovery audience, or the wallet's own issuer.
  private static func checkAudience(_ claims: JWTClaims, walletIssuer: String?)
    throws(OpenID4VPError)
  {
    // §5.8: static discovery uses the self-issued audience; a wallet with its own issuer
    // identifier also accepts that.
    let audiences = claims.aud ?? []
    guard
      audiences.contains(staticDiscoveryAudience)
        || (walletIssuer.map { audiences.contains($0) } ?? false)
    else {
      throw OpenID4VPError(
        .invalidRequest,
        "request object aud \(audiences) is not \(staticDiscoveryAudience)"
          + (walletIssuer.map { " or \($0)" } ?? ""))
    }
  }

  /// The request object's times: `iat` and `exp` present (HAIP 1.0 §5), `exp` not past and
  /// `iat` not in the future, then bounded by the policy: issued at most `maximumAge` ago and
  /// valid for at most `maximumLifetime` (RFC 9101 §10.2: `iat` and `exp` limit replay).
  static func checkLifetime(_ claims: JWTClaims, now: Date, policy: RedirectRequestPolicy)
    throws(OpenID4VPError)
  {
    guard let issuedAt = claims.iat else {
      throw OpenID4VPError(.invalidRequest, "the request object has no iat")
    }
    guard let expiresAt = claims.exp else {
      throw OpenID4VPError(.invalidRequest, "the request object has no exp")
    }
    guard now < expiresAt.addingTimeInterval(policy.clockSkew) else {
      throw OpenID4VPError(
        .invalidRequest, "the request object expired at \(expiresAt.timeIntervalSince1970)")
    }
    guard issuedAt <= now.addingTimeInterval(policy.clockSkew) else {
      throw OpenID4VPError(
        .invalidRequest,
        "the request object is issued in the future (\(issuedAt.timeIntervalSince1970))")
    }
    // Hostile times may be far out of Int range: printed as whole seconds only when they fit.
    func seconds(_ interval: TimeInterval) -> String {
      abs(interval) < 1e15 ? String(Int64(interval)) : String(interval)
    }
    let age = now.timeIntervalSince(issuedAt)
    guard age <= policy.maximumAge + policy.clockSkew else {
      throw OpenID4VPError(
        .invalidRequest,
        "the request object was issued \(seconds(age)) s ago, over the "
          + "\(seconds(policy.maximumAge)) s allowed")
    }
    let lifetime = expiresAt.timeIntervalSince(issuedAt)
    guard lifetime <= policy.maximumLifetime else {
      throw OpenID4VPError(
        .invalidRequest,
        "the request object is valid for \(seconds(lifetime)) s, over the "
          + "\(seconds(policy.maximumLifetime)) s allowed")
    }
  }

  /// Checks a Verifier Attestation JWT and returns it with its `cnf` key (OpenID4VP 1.0 §12):
  /// `typ` `verifier-attestation+jwt`, signed by an `x5c` chain to a trust anchor (HAIP 1.0's
  /// chain rules), `sub` the client identifier without prefix, `exp` not past, `cnf.jwk` an EC
  /// key.
  static func verifyAttestation(
    _ header: JSONValue?, clientID: ClientIdentifier, trustAnchors: [Certificate], now: Date,
    clockSkew: TimeInterval
  ) throws(OpenID4VPError) -> (VerifierAttestation, ECPublicKey) {
    guard let text = header?.string else {
      throw OpenID4VPError(
        .invalidRequest, "verifier_attestation requests carry the attestation in the jwt header")
    }
    let jwt: CompactJWS
    do {
      jwt = try CompactJWS(text)
    } catch {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation: \(error.reason)", underlying: error)
    }
    guard jwt.type == verifierAttestationType else {
      throw OpenID4VPError(
        .untrustedVerifier,
        "verifier attestation typ must be \(verifierAttestationType), got \(jwt.type ?? "none")")
    }
    let trusted = try verifyAttestationIssuer(jwt, trustAnchors: trustAnchors, now: now)
    let claims: JWTClaims
    do {
      claims = try JWTClaims(payload: jwt.payload)
    } catch {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation claims: \(error.reason)", underlying: error)
    }
    guard let subject = claims.sub, subject == clientID.value else {
      throw OpenID4VPError(
        .untrustedVerifier,
        "verifier attestation sub \(claims.sub ?? "(none)") is not \(clientID.value)")
    }
    guard let expiresAt = claims.exp else {
      throw OpenID4VPError(.untrustedVerifier, "verifier attestation has no exp")
    }
    guard now < expiresAt.addingTimeInterval(clockSkew) else {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation expired at \(expiresAt.timeIntervalSince1970)")
    }
    let key = try attestationKey(claims)
    let redirectURIs = try attestationRedirectURIs(claims)
    let attestation = VerifierAttestation(
      clientID: clientID, issuer: claims.iss, subject: subject, expiresAt: expiresAt,
      redirectURIs: redirectURIs, trustedChain: trusted, claims: claims.json)
    return (attestation, key)
  }

  /// The attestation's signature, by the leaf of its `x5c` chain, and that chain's path to a
  /// trust anchor.
  private static func verifyAttestationIssuer(
    _ jwt: CompactJWS, trustAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> TrustedChain {
    let chain = try RequestAuthentication.certificateChain(
      jwt.x5c, trustAnchors: trustAnchors, what: "verifier attestations")
    guard let issuerKey = chain[0].publicKey.ecPublicKey else {
      throw OpenID4VPError(.untrustedVerifier, "the attestation signing key is not an EC key")
    }
    do {
      try jwt.verifySignature(with: issuerKey)
    } catch {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation signature: \(error.reason)", underlying: error)
    }
    switch CertificateValidator(trustAnchors: trustAnchors, revocation: .current).validate(
      chain: chain, at: now)
    {
    case .trusted(let path): return path
    case .untrusted(let reason), .malformed(let reason):
      throw OpenID4VPError(.untrustedVerifier, "verifier attestation issuer: \(reason)")
    }
  }

  /// The attestation's `redirect_uris`, when present: an array of strings.
  private static func attestationRedirectURIs(_ claims: JWTClaims) throws(OpenID4VPError)
    -> [String]?
  {
    guard let list = claims["redirect_uris"] else { return nil }
    guard let array = list.array, array.allSatisfy({ $0.string != nil }) else {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation redirect_uris must be an array of strings")
    }
    return array.compactMap(\.string)
  }

  /// §5.10.1: the request object echoes the `wallet_nonce` the wallet sent.
  private static func checkWalletNonce(_ payload: JSONValue, _ walletNonce: String)
    throws(OpenID4VPError)
  {
    guard let echoed = payload["wallet_nonce"]?.string else {
      throw OpenID4VPError(.invalidRequest, "the request object has no wallet_nonce")
    }
    guard echoed == walletNonce else {
      throw OpenID4VPError(
        .invalidRequest, "the request object's wallet_nonce is not the one the wallet sent")
    }
  }

  /// The attestation's `cnf.jwk`, the key the request object must be signed with.
  private static func attestationKey(_ claims: JWTClaims) throws(OpenID4VPError) -> ECPublicKey {
    do {
      return try JWK(json: claims["cnf"]?["jwk"] ?? .null).publicKey()
    } catch {
      throw OpenID4VPError(
        .untrustedVerifier, "verifier attestation cnf.jwk: \(error.reason)", underlying: error)
    }
  }
}
