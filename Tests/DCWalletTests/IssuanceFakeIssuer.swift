import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCWalletFixtureTestSupport
import Foundation

/// A credential issuer and authorization server in one, answering per OpenID4VCI 1.0 with the
/// checks of the OpenID4VCI module's server-side types, and switches for the negative tests.
final class FakeIssuer: HTTPHandler, @unchecked Sendable {
  struct Settings {
    var issuer = "https://issuer.example"
    var metadataIssuer: String?
    var txCode: String? = "493536"
    var preAuthorizedCode = "pre-code-1"
    var dpop = true
    var asNonce = true
    var rsNonce = true
    var par = true
    var requirePAR = false
    var issParameter = true
    var redirectIss: String?
    var redirectState: String?
    var batchSize = 5
    var deferred = false
    var deferredPolls = 1
    var encryptionRequired = false
    var attestation = false
    var keyAttestationRequired = false
    var anonymousPreAuthorized = true
    var oversizeCredentialResponse = false
    var credentialIdentifiers = false
    var useDPoPNonceForever = false
    var tokenType: AccessTokenType?
    var issueFewer = false
    var mdocCredential = false
    var plainDespiteEncryption = false
    var wrongStatus = false
    var extraCredentials = false
    var objectCredential = false
    var codeChallengeMethods: [String] = ["S256"]
    var dpopAlgorithms: [String] = ["ES256"]
  }

  var settings: Settings
  let lock = NSLock()
  var log: [HTTPRequest] = []
  var notifications: [NotificationRequest] = []
  var asNonces: Set<String> = []
  var rsNonces: Set<String> = []
  var cNonces: Set<String> = []
  var codes: [String: (challenge: String, redirectURI: String, clientID: String, jkt: String?)] =
    [:]
  var pushed: [String: AuthorizationRequest] = [:]
  var tokens: [String: (jkt: String?, clientID: String?)] = [:]
  var pendingTransactions: [String: (keys: [JWK], polls: Int)] = [:]
  var challenges: Set<String> = []
  let replay = InMemoryDPoPReplayStore()
  let walletAttester: ECPublicKey?
  var counter = 0

  init(_ settings: Settings = Settings(), walletAttester: ECPublicKey? = nil) {
    self.settings = settings
    self.walletAttester = walletAttester
  }

  var base: String { settings.issuer }
  func url(_ path: String) -> URL { URL(string: base + path)! }

  func fresh(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)-\(counter)-\(Base64URL.encode(SecureRandom().bytes(count: 6)))"
  }

  var offerJSON: JSONValue {
    var grants: [(key: String, value: JSONValue)] = []
    var pre: [(key: String, value: JSONValue)] = [
      ("pre-authorized_code", .string(settings.preAuthorizedCode))
    ]
    if settings.txCode != nil {
      pre.append(("tx_code", ["input_mode": "numeric", "length": 6]))
    }
    grants.append((CredentialOffer.preAuthorizedCodeGrantType, .object(pre)))
    grants.append(("authorization_code", ["issuer_state": "issuer-state-1"]))
    return [
      "credential_issuer": .string(base), "credential_configuration_ids": ["pid-sd-jwt", "mdl"],
      "grants": .object(grants),
    ]
  }

  var metadataJSON: JSONValue {
    var proof: [(key: String, value: JSONValue)] = [
      ("proof_signing_alg_values_supported", ["ES256"])
    ]
    if settings.keyAttestationRequired {
      proof.append(("key_attestations_required", ["key_storage": ["iso_18045_basic"]]))
    }
    let proofTypes: JSONValue = .object([("jwt", .object(proof))])
    var object: [(key: String, value: JSONValue)] = [
      ("credential_issuer", .string(settings.metadataIssuer ?? base)),
      ("credential_endpoint", .string(base + "/credential")),
      ("nonce_endpoint", .string(base + "/nonce")),
      ("deferred_credential_endpoint", .string(base + "/deferred")),
      ("notification_endpoint", .string(base + "/notification")),
      ("batch_credential_issuance", ["batch_size": .integer(Int64(settings.batchSize))]),
      ("display", [["name": "Fake Issuer", "locale": "en"]]),
      (
        "credential_configurations_supported",
        [
          "pid-sd-jwt": [
            "format": "dc+sd-jwt", "vct": "urn:eudi:pid:1",
            "cryptographic_binding_methods_supported": ["jwk"],
            "credential_signing_alg_values_supported": ["ES256"],
            "proof_types_supported": proofTypes,
            "credential_metadata": [
              "display": [["name": "Fake PID", "background_color": "#123456"]]
            ],
          ],
          "mdl": [
            "format": "mso_mdoc", "doctype": "org.iso.18013.5.1.mDL",
            "cryptographic_binding_methods_supported": ["cose_key"],
            "credential_signing_alg_values_supported": [-7], "proof_types_supported": proofTypes,
            "credential_metadata": ["display": [["name": "Fake mDL"]]],
          ],
        ]
      ),
    ]
    if settings.encryptionRequired {
      object.append(
        (
          "credential_response_encryption",
          [
            "alg_values_supported": ["ECDH-ES"], "enc_values_supported": ["A128GCM"],
            "encryption_required": true,
          ]
        ))
    }
    return .object(object)
  }

  var asMetadataJSON: JSONValue {
    var object: [(key: String, value: JSONValue)] = [
      ("issuer", .string(base)), ("authorization_endpoint", .string(base + "/authorize")),
      ("token_endpoint", .string(base + "/token")),
      (
        "code_challenge_methods_supported",
        .array(settings.codeChallengeMethods.map { .string($0) })
      ),
      ("authorization_response_iss_parameter_supported", .bool(settings.issParameter)),
      ("pre-authorized_grant_anonymous_access_supported", .bool(settings.anonymousPreAuthorized)),
    ]
    if settings.par {
      object.append(("pushed_authorization_request_endpoint", .string(base + "/par")))
      object.append(("require_pushed_authorization_requests", .bool(settings.requirePAR)))
    }
    if settings.dpop {
      object.append(
        ("dpop_signing_alg_values_supported", .array(settings.dpopAlgorithms.map { .string($0) })))
    }
    if settings.attestation {
      object.append(("token_endpoint_auth_methods_supported", ["attest_jwt_client_auth"]))
      object.append(("challenge_endpoint", .string(base + "/challenge")))
    }
    return .object(object)
  }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    lock.withLock { handleLocked(request) }
  }

  func handleLocked(_ request: HTTPRequest) -> HTTPResponse {
    log.append(request)
    let path = request.url.path
    switch (request.method, path) {
    case (.get, "/.well-known/openid-credential-issuer"): return json(metadataJSON)
    case (.get, "/.well-known/oauth-authorization-server"): return json(asMetadataJSON)
    case (.get, "/offer"): return json(offerJSON)
    case (.post, "/challenge"):
      let challenge = fresh("challenge")
      challenges.insert(challenge)
      return json(["attestation_challenge": .string(challenge)])
    case (.post, "/par"): return par(request)
    case (.post, "/token"): return token(request)
    case (.post, "/nonce"):
      let nonce = fresh("c-nonce")
      cNonces.insert(nonce)
      var headers: HTTPFields = ["Cache-Control": "no-store"]
      if settings.rsNonce {
        let dpopNonce = fresh("rs-nonce")
        rsNonces.insert(dpopNonce)
        headers["DPoP-Nonce"] = dpopNonce
      }
      return json(["c_nonce": .string(nonce)], headers: headers)
    case (.post, "/credential"): return credential(request)
    case (.post, "/deferred"): return deferred(request)
    case (.post, "/notification"):
      if let failure = checkAccess(request) { return failure }
      guard let notification = try? NotificationRequest(jsonBytes: request.body) else {
        return error(.invalidNotificationRequest)
      }
      notifications.append(notification)
      return HTTPResponse(status: 204)
    default: return HTTPResponse(status: 404)
    }
  }

  func json(_ value: JSONValue, status: Int = 200, headers: HTTPFields = [:]) -> HTTPResponse {
    var headers = headers
    headers["Content-Type"] = "application/json"
    return HTTPResponse(status: status, headers: headers, body: value.serializedBytes())
  }

  func error(_ code: OAuthErrorCode, status: Int = 400, headers: HTTPFields = [:]) -> HTTPResponse {
    json(OAuthErrorResponse(error: code).json, status: status, headers: headers)
  }

  /// RFC 9449 §4.3 at the authorization server, with a nonce when configured (§8).
  func checkASDPoP(_ request: HTTPRequest) -> (HTTPResponse?, String?) {
    guard settings.dpop else { return (nil, nil) }
    guard let proof = request.headers["DPoP"] else { return (error(.invalidDPoPProof), nil) }
    let nonces = asNonces
    let requireNonce = settings.asNonce
    let forever = settings.useDPoPNonceForever
    var nonceCheck: (@Sendable (String) -> Bool)?
    if requireNonce { nonceCheck = { @Sendable nonce in !forever && nonces.contains(nonce) } }
    let verifier = DPoPVerifier(replayStore: replay)
    do {
      let verified = try verifier.verify(
        proof: proof, method: request.method.rawValue, uri: request.url.absoluteString,
        nonceCheck: nonceCheck)
      return (nil, verified.thumbprint)
    } catch  where error.code == .useDPoPNonce {
      let nonce = fresh("as-nonce")
      asNonces.insert(nonce)
      return (self.error(.useDPoPNonce, headers: ["DPoP-Nonce": nonce]), nil)
    } catch {
      return (self.error(.invalidDPoPProof), nil)
    }
  }

  func checkAttestation(_ request: HTTPRequest, clientID: String?) -> HTTPResponse? {
    guard settings.attestation, let walletAttester else { return nil }
    guard let attestation = request.headers[ClientAttestation.headerName],
      let pop = request.headers[ClientAttestation.popHeaderName]
    else { return error(.invalidClient, status: 401) }
    let verifier = ClientAttestationVerifier(trust: .keys([walletAttester]))
    do {
      let challenges = self.challenges
      let jwt = try CompactJWS(pop)
      let claims = try JWTClaims(payload: jwt.payload)
      guard let challenge = claims["challenge"]?.string, challenges.contains(challenge) else {
        let fresh = fresh("challenge")
        self.challenges.insert(fresh)
        return error(
          .useAttestationChallenge, headers: [ClientAttestation.challengeHeaderName: fresh])
      }
      _ = try verifier.verify(
        attestation: attestation, pop: pop, audience: base, clientID: clientID, challenge: challenge
      )
      return nil
    } catch {
      return self.error(.invalidClientAttestation, status: 401)
    }
  }

  func par(_ request: HTTPRequest) -> HTTPResponse {
    let (failure, _) = checkASDPoP(request)
    if let failure { return failure }
    guard let parameters = try? FormParameters(body: request.body),
      let authorization = try? AuthorizationRequest(parameters: parameters)
    else { return error(.invalidRequest) }
    if let failure = checkAttestation(request, clientID: authorization.clientID) { return failure }
    let requestURI = "urn:ietf:params:oauth:request_uri:" + fresh("par")
    pushed[requestURI] = authorization
    return json(
      PushedAuthorizationResponse(requestURI: requestURI, expiresIn: 60).json, status: 201)
  }

  /// The user's visit to the authorization endpoint, approving at once: the redirect URL.
  func authorize(_ url: URL) -> URL? {
    lock.lock()
    defer { lock.unlock() }
    guard let endpointRequest = try? AuthorizationEndpointRequest(url: url) else { return nil }
    let request: AuthorizationRequest
    switch endpointRequest {
    case .request(let full):
      if settings.requirePAR { return nil }
      request = full
    case .pushed(let clientID, let requestURI):
      guard let stored = pushed.removeValue(forKey: requestURI), stored.clientID == clientID else {
        return nil
      }
      request = stored
    }
    let code = fresh("code")
    codes[code] = (request.codeChallenge, request.redirectURI, request.clientID, nil)
    let response = AuthorizationResponse(
      code: code, state: settings.redirectState ?? request.state,
      issuer: settings.issParameter ? (settings.redirectIss ?? base) : settings.redirectIss)
    return try? response.redirectURL(redirectURI: URL(string: request.redirectURI)!)
  }

  func token(_ request: HTTPRequest) -> HTTPResponse {
    let (failure, thumbprint) = checkASDPoP(request)
    if let failure { return failure }
    guard let tokenRequest = try? TokenRequest(body: request.body) else {
      return error(.invalidRequest)
    }
    if let failure = checkAttestation(request, clientID: tokenRequest.clientID) { return failure }
    switch tokenRequest.grant {
    case .preAuthorizedCode(let code, let txCode):
      guard code == settings.preAuthorizedCode else { return error(.invalidGrant) }
      // §6.3: a missing tx_code is invalid_request, a wrong one invalid_grant.
      if let expected = settings.txCode {
        guard let txCode else { return error(.invalidRequest) }
        guard txCode == expected else { return error(.invalidGrant) }
      } else if txCode != nil {
        return error(.invalidRequest)
      }
      if tokenRequest.clientID == nil, !settings.anonymousPreAuthorized {
        return error(.invalidClient)
      }
    case .authorizationCode(let code, let verifier, let redirectURI):
      guard let stored = codes.removeValue(forKey: code), stored.redirectURI == redirectURI,
        stored.clientID == tokenRequest.clientID
      else { return error(.invalidGrant) }
      do {
        try PKCE.verify(verifier: verifier, challenge: stored.challenge)
      } catch {
        return self.error(.invalidGrant)
      }
    case .refreshToken:
      return error(.unsupportedGrantType)
    }
    let accessToken = fresh("at")
    tokens[accessToken] = (thumbprint, tokenRequest.clientID)
    var details: [CredentialAuthorizationDetail]?
    if settings.credentialIdentifiers {
      details = [
        CredentialAuthorizationDetail(
          credentialConfigurationID: "pid-sd-jwt", credentialIdentifiers: ["pid-dataset-1"]),
        CredentialAuthorizationDetail(
          credentialConfigurationID: "mdl", credentialIdentifiers: ["mdl-dataset-1"]),
      ]
    }
    let response = TokenResponse(
      accessToken: accessToken, tokenType: settings.tokenType ?? (settings.dpop ? .dpop : .bearer),
      expiresIn: 300, refreshToken: fresh("rt"), authorizationDetails: details)
    return json(response.json, headers: ["Cache-Control": "no-store"])
  }

  /// RFC 9449 §7 at the resource server: the token, the proof with `ath`, the binding, the nonce.
  func checkAccess(_ request: HTTPRequest) -> HTTPResponse? {
    guard let authorization = request.headers["Authorization"] else {
      return error(.invalidToken, status: 401)
    }
    let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let entry = tokens[parts[1]] else {
      return error(.invalidToken, status: 401)
    }
    let bound = entry.jkt
    guard settings.dpop else {
      return parts[0] == "Bearer" ? nil : error(.invalidToken, status: 401)
    }
    guard parts[0] == "DPoP", let proof = request.headers["DPoP"] else {
      return error(.invalidToken, status: 401)
    }
    let nonces = rsNonces
    let requireNonce = settings.rsNonce
    let forever = settings.useDPoPNonceForever
    var nonceCheck: (@Sendable (String) -> Bool)?
    if requireNonce { nonceCheck = { @Sendable nonce in !forever && nonces.contains(nonce) } }
    do {
      _ = try DPoPVerifier(replayStore: replay).verify(
        proof: proof, method: request.method.rawValue, uri: request.url.absoluteString,
        nonceCheck: nonceCheck,
        accessToken: parts[1], boundThumbprint: bound ?? "")
      return nil
    } catch  where error.code == .useDPoPNonce {
      let nonce = fresh("rs-nonce")
      rsNonces.insert(nonce)
      return HTTPResponse(
        status: 401,
        headers: [
          "WWW-Authenticate": OAuthErrorResponse(
            error: .useDPoPNonce, errorDescription: "Resource server requires nonce in DPoP proof"
          ).wwwAuthenticate(scheme: "DPoP"),
          "DPoP-Nonce": nonce,
        ])
    } catch {
      return HTTPResponse(
        status: 401,
        headers: [
          "WWW-Authenticate": OAuthErrorResponse(error: .invalidDPoPProof).wwwAuthenticate(
            scheme: "DPoP")
        ])
    }
  }

  func credential(_ request: HTTPRequest) -> HTTPResponse {
    if let failure = checkAccess(request) { return failure }
    let clientID = request.headers["Authorization"].flatMap {
      tokens[String($0.split(separator: " ").last ?? "")]?.clientID
    }
    guard let credentialRequest = try? CredentialRequest(jsonBytes: request.body) else {
      return error(.invalidCredentialRequest)
    }
    if settings.encryptionRequired, credentialRequest.credentialResponseEncryption == nil {
      return error(.invalidEncryptionParameters)
    }
    let configuration: String
    switch credentialRequest.target {
    case .credentialConfigurationID(let id):
      guard !settings.credentialIdentifiers else { return error(.invalidCredentialRequest) }
      configuration = id
    case .credentialIdentifier(let id):
      guard settings.credentialIdentifiers else { return error(.invalidCredentialRequest) }
      configuration = id == "mdl-dataset-1" ? "mdl" : "pid-sd-jwt"
    }
    guard case .jwt(let proofs) = credentialRequest.proofs else { return error(.invalidProof) }
    let cNonces = self.cNonces
    var keyAttestationVerifier: (@Sendable (String) throws -> [JWK])?
    if let walletAttester {
      let verifier = KeyAttestationVerifier(trust: .keys([walletAttester]))
      keyAttestationVerifier = { try verifier.verifyKeys($0) }
    }
    let verifier = KeyProofVerifier(
      credentialIssuer: base, keyAttestationVerifier: keyAttestationVerifier)
    let keys: [JWK]
    do {
      keys = try verifier.verifyBatch(
        proofs, clientID: clientID, nonceCheck: { cNonces.contains($0) },
        maxCount: settings.batchSize
      ).map(\.key)
    } catch  where error.code == .invalidNonce {
      return self.error(.invalidNonce)
    } catch {
      return self.error(.invalidProof)
    }
    if settings.keyAttestationRequired,
      !proofs.allSatisfy({ (try? decodeHeader($0)["key_attestation"]) != nil })
    {
      return error(.invalidProof)
    }
    let response: CredentialResponse
    if settings.deferred {
      let transactionID = fresh("tx")
      pendingTransactions[transactionID] = (keys, 0)
      response = .deferred(transactionID: transactionID, interval: 5)
    } else {
      response = .issued(
        issue(keys, configuration: configuration), notificationID: fresh("notification"))
    }
    if settings.oversizeCredentialResponse {
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Array(#"{"credentials":[{"credential":""#.utf8)
          + [UInt8](repeating: 0x41, count: 5 * 1024 * 1024) + Array(#""}]}"#.utf8))
    }
    return encode(response, for: credentialRequest.credentialResponseEncryption)
  }

  func issue(_ keys: [JWK], configuration: String) -> [DCOpenID4VCI.IssuedCredential] {
    if settings.objectCredential {
      return keys.map { _ in DCOpenID4VCI.IssuedCredential(["claims": 1]) }
    }
    let issued =
      settings.issueFewer ? Array(keys.prefix(1)) : keys + (settings.extraCredentials ? keys : [])
    return issued.map { key in
      if configuration == "mdl" || settings.mdocCredential {
        return DCOpenID4VCI.IssuedCredential(
          .string(Base64URL.encode(Array("mdoc-for-\(key.thumbprintBase64URL)".utf8))))
      }
      return DCOpenID4VCI.IssuedCredential(.string("sd-jwt-for-\(key.thumbprintBase64URL)~"))
    }
  }

  func encode(_ response: CredentialResponse, for encryption: CredentialResponseEncryption?)
    -> HTTPResponse
  {
    let status = settings.wrongStatus ? (response.status == 200 ? 202 : 200) : response.status
    guard let encryption, !settings.plainDespiteEncryption else {
      return json(response.json, status: status)
    }
    guard let jwe = try? response.encrypted(to: encryption) else {
      return error(.invalidEncryptionParameters)
    }
    return HTTPResponse(
      status: status, headers: ["Content-Type": CredentialResponse.encryptedContentType],
      body: Array(jwe.utf8))
  }

  func deferred(_ request: HTTPRequest) -> HTTPResponse {
    if let failure = checkAccess(request) { return failure }
    guard let deferredRequest = try? DeferredCredentialRequest(jsonBytes: request.body),
      var pending = pendingTransactions[deferredRequest.transactionID]
    else { return error(.invalidTransactionID) }
    pending.polls += 1
    if pending.polls < settings.deferredPolls {
      pendingTransactions[deferredRequest.transactionID] = pending
      return encode(
        .deferred(transactionID: deferredRequest.transactionID, interval: 7),
        for: deferredRequest.credentialResponseEncryption)
    }
    pendingTransactions[deferredRequest.transactionID] = nil
    return encode(
      .issued(
        issue(pending.keys, configuration: "pid-sd-jwt"), notificationID: fresh("notification")),
      for: deferredRequest.credentialResponseEncryption)
  }

  /// The requests to `path`.
  func requests(to path: String) -> [HTTPRequest] {
    lock.lock()
    defer { lock.unlock() }
    return log.filter { $0.url.path == path }
  }
}
