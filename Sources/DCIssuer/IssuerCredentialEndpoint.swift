import DCCrypto
import DCEncoding
public import DCHTTP
import DCJOSE
import DCJSON
package import DCOpenID4VCI
package import Foundation

/// What the store holds for a deferred issuance (OpenID4VCI 1.0 §9).
struct DeferredState {
  var configurationID: String
  /// The proven keys, one credential each.
  var keys: [JWK]
  /// When the credentials become ready; nil for a manual release.
  var readyAt: Date?
  var released: Bool
  /// The grant's client and DPoP key: only the same grant may collect.
  var clientID: String?
  var jkt: String?

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("configuration_id", configurationID)
    object.set("keys", .array(keys.map(\.json)))
    object.set("ready_at", readyAt.map { JSONValue.number($0.timeIntervalSince1970) })
    object.set("released", released)
    object.set("client_id", clientID)
    object.set("jkt", jkt)
    return object.value
  }

  init(
    configurationID: String, keys: [JWK], readyAt: Date?, released: Bool, clientID: String?,
    jkt: String?
  ) {
    self.configurationID = configurationID
    self.keys = keys
    self.readyAt = readyAt
    self.released = released
    self.clientID = clientID
    self.jkt = jkt
  }

  init?(_ json: JSONValue) {
    guard let id = json["configuration_id"]?.string, let keyValues = json["keys"]?.array else {
      return nil
    }
    var keys: [JWK] = []
    for value in keyValues {
      guard let key = try? JWK(json: value) else { return nil }
      keys.append(key)
    }
    self.init(
      configurationID: id, keys: keys,
      readyAt: json["ready_at"]?.double.map { Date(timeIntervalSince1970: $0) },
      released: json["released"]?.bool ?? false, clientID: json["client_id"]?.string,
      jkt: json["jkt"]?.string)
  }
}

/// Credentials the issuer issued together under one `notification_id` (OpenID4VCI 1.0 §8.3).
package struct IssuedCredentialsRecord: Sendable, Hashable {
  /// `notification_id`.
  package let notificationID: String
  /// The configuration issued.
  package let configurationID: String
  /// How many credentials (one per proven key).
  package let count: Int
  /// When they were issued.
  package let issuedAt: Date
  /// The last event the wallet notified, if any.
  package let lastEvent: String?
  /// The issuer's ids of the credentials, when they have status list entries (issue 15): what
  /// ``IssuerStatusListStore/changeStatus(credentialID:_:)`` takes.
  package let credentialIDs: [String]
}

/// A notification the wallet sent (OpenID4VCI 1.0 §11.1).
package struct ReceivedNotification: Sendable, Hashable {
  /// `notification_id`.
  package let notificationID: String
  /// `event`.
  package let event: NotificationRequest.Event
  /// `event_description`.
  package let eventDescription: String?
  /// When it arrived.
  package let receivedAt: Date
}

extension CredentialIssuerService {
  // MARK: Nonce endpoint

  /// POST `nonce_endpoint` (OpenID4VCI 1.0 §7): a fresh single-use `c_nonce`, uncacheable, and
  /// a DPoP nonce for the credential request when the issuer demands one (§7.2).
  public func handleNonce(_ request: HTTPRequest) -> HTTPResponse {
    let nonce = randomToken(bytes: 16)
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .cNonce, key: nonce, value: .object([]),
          expiresAt: now.addingTimeInterval(configuration.cNonceLifetime)))
    } catch {
      return IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
        .response
    }
    var headers: HTTPFields = [:]
    if let dpopNonce = freshDPoPNonce() { headers["DPoP-Nonce"] = dpopNonce }
    return Self.json(NonceResponse(cNonce: nonce).json, headers: headers)
  }

  // MARK: Credential endpoint

  /// POST `credential_endpoint` (OpenID4VCI 1.0 §8): the DPoP-bound access token with its proof
  /// (`ath`), the credential request, key proofs checked by `KeyProofVerifier` (`aud`, `iat`,
  /// the single-use `c_nonce`, one key each, at most `batch_size`), then one credential per key,
  /// a `transaction_id` for a deferred configuration, and the response encrypted when asked or
  /// required (§10).
  public func handleCredential(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return try credential(request)
    } catch {
      return error.response
    }
  }

  func credential(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let token = try authenticate(request, endpoint: .credential)
    let credentialRequest: CredentialRequest
    do {
      credentialRequest = try CredentialRequest(jsonBytes: request.body)
    } catch {
      throw .invalidCredentialRequest(error.reason)
    }
    let encryption = try checkEncryption(credentialRequest.credentialResponseEncryption)
    let credential = try requestedCredential(credentialRequest.target, grant: token.grant)
    guard let proofs = credentialRequest.proofs else {
      throw .invalidProof("the credential is key-bound: proofs are required")
    }
    guard case .jwt(let jwts) = proofs else {
      throw .invalidProof("only jwt proofs are supported")
    }
    let keys = try verifyProofs(jwts, clientID: token.grant.clientID)
    let response: CredentialResponse
    if let deferred = configuration.deferred, deferred.configurationIDs.contains(credential.id) {
      let transactionID = randomToken()
      let state = DeferredState(
        configurationID: credential.id, keys: keys,
        readyAt: deferred.delay.map(now.addingTimeInterval),
        released: false, clientID: token.grant.clientID, jkt: token.grant.jkt)
      do {
        try store.upsert(
          IssuerStateRecord(
            kind: .deferredTransaction, key: transactionID, value: state.json,
            expiresAt: now.addingTimeInterval(deferred.lifetime)))
      } catch {
        throw IssuerEndpointFailure(
          "server_error", "the issuer's state is unavailable", status: 500)
      }
      response = .deferred(transactionID: transactionID, interval: deferred.interval)
    } else {
      response = try issue(credential, keys: keys, grant: token.grant)
    }
    return try respond(response, encryption: encryption)
  }

  /// The credential a request names (§8.2): a `credential_identifier` when the token response
  /// had `credential_identifiers`, else a `credential_configuration_id`, in both cases one the
  /// access token grants.
  func requestedCredential(_ target: CredentialRequest.Target, grant: GrantState)
    throws(IssuerEndpointFailure) -> IssuableCredential
  {
    switch target {
    case .credentialConfigurationID(let id):
      guard let credential = configuration.credential(id: id) else {
        throw .unknownCredentialConfiguration("no credential configuration '\(id)'")
      }
      guard !grant.usesCredentialIdentifiers else {
        throw .invalidCredentialRequest(
          "the token response had credential_identifiers: use credential_identifier")
      }
      guard grant.configurationIDs.contains(id) else {
        throw .credentialRequestDenied("the access token does not cover '\(id)'")
      }
      return credential
    case .credentialIdentifier(let id):
      guard grant.usesCredentialIdentifiers, grant.configurationIDs.contains(id),
        let credential = configuration.credential(id: id)
      else { throw .unknownCredentialIdentifier("no credential_identifier '\(id)' in this grant") }
      return credential
    }
  }

  /// The key proofs of a request (§8.2, Appendix F): at most `batch_size` of them, each for a
  /// different key, all with one fresh `c_nonce`, which is then used up; a key attestation
  /// when required.
  func verifyProofs(_ jwts: [String], clientID: String?) throws(IssuerEndpointFailure) -> [JWK] {
    let maximum = configuration.batchSize ?? 1
    guard jwts.count <= maximum else {
      throw .invalidCredentialRequest(
        "\(jwts.count) proofs; this issuer issues at most \(maximum) per request (batch_size)")
    }
    let attestationVerifier =
      configuration.attestation.trustedWalletProviderKeys.isEmpty
      ? nil
      : KeyAttestationVerifier(
        trust: .keys(configuration.attestation.trustedWalletProviderKeys), clock: clock)
    let verifier = KeyProofVerifier(
      credentialIssuer: configuration.credentialIssuer.string, clock: clock,
      keyAttestationVerifier: attestationVerifier.map { verifier in
        { @Sendable (attestation: String) throws -> [JWK] in try verifier.verifyKeys(attestation) }
      })
    let store = self.store
    let clock = self.clock
    let verified: [VerifiedKeyProof]
    do {
      verified = try verifier.verifyBatch(
        jwts, clientID: clientID,
        nonceCheck: { nonce in (try? store.take(.cNonce, nonce, now: clock())) != nil },
        maxCount: maximum)
    } catch let error where error.code == .invalidNonce {
      throw .invalidNonce(error.reason)
    } catch {
      throw .invalidProof(error.reason)
    }
    if configuration.attestation.requireKeyAttestation,
      verified.contains(where: { $0.keyAttestation == nil })
    {
      throw .invalidProof("every key proof must carry a key_attestation")
    }
    return verified.map(\.key)
  }

  /// The request's `credential_response_encryption` against the issuer's policy (§8.2, §10).
  func checkEncryption(_ encryption: CredentialResponseEncryption?)
    throws(IssuerEndpointFailure) -> CredentialResponseEncryption?
  {
    guard let encryption else {
      if configuration.responseEncryption?.required == true {
        throw .invalidEncryptionParameters("this issuer requires credential response encryption")
      }
      return nil
    }
    guard configuration.responseEncryption != nil else {
      throw .invalidEncryptionParameters("this issuer does not encrypt credential responses")
    }
    return encryption
  }

  /// Issues one credential per key and records them under a fresh `notification_id`.
  func issue(_ credential: IssuableCredential, keys: [JWK], grant: GrantState)
    throws(IssuerEndpointFailure) -> CredentialResponse
  {
    var credentials: [IssuedCredential] = []
    var credentialIDs: [String] = []
    for key in keys {
      // The issuer's own id for the credential, what revoke/suspend/reinstate name (issue 15).
      // Hex, not base64url: an id must never start with '-', which a command line reads as an
      // option (`dcwallet issuer revoke -ujl…` failed one issuance in 64).
      let credentialID = Hex.encode(random.bytes(count: 16))
      let status = try assignStatus(credentialID: credentialID, configurationID: credential.id)
      credentials.append(IssuedCredential(try mint(credential, boundTo: key, status: status)))
      if status != nil { credentialIDs.append(credentialID) }
    }
    let notificationID = randomToken(bytes: 16)
    var record = ObjectBuilder()
    record.set("configuration_id", credential.id)
    record.set("count", credentials.count)
    if !credentialIDs.isEmpty {
      record.set("credential_ids", .array(credentialIDs.map(JSONValue.string)))
    }
    record.set("issued_at", JSONValue.number(now.timeIntervalSince1970))
    record.set("client_id", grant.clientID)
    record.set("jkt", grant.jkt)
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .issuedCredentials, key: notificationID, value: record.value,
          expiresAt: now.addingTimeInterval(configuration.lifetimes.issuedCredentials)))
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    return .issued(credentials, notificationID: notificationID)
  }

  /// The response, plain JSON or a JWE to the wallet's key (`application/jwt`, §10).
  func respond(_ response: CredentialResponse, encryption: CredentialResponseEncryption?)
    throws(IssuerEndpointFailure) -> HTTPResponse
  {
    guard let encryption else { return Self.json(response.json, status: response.status) }
    let jwe: String
    do {
      jwe = try response.encrypted(to: encryption, random: random)
    } catch {
      throw .invalidEncryptionParameters("the response cannot be encrypted to this key")
    }
    return HTTPResponse(
      status: response.status,
      headers: [
        "Content-Type": CredentialResponse.encryptedContentType, "Cache-Control": "no-store",
      ], body: Array(jwe.utf8))
  }

  // MARK: Deferred credential endpoint

  /// POST `deferred_credential_endpoint` (OpenID4VCI 1.0 §9): the `transaction_id` of the same
  /// grant; 202 with `interval` while pending, the credentials once ready (after the
  /// configured delay, or when the package releases it early); a transaction is collected once.
  public func handleDeferredCredential(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return try deferredCredential(request)
    } catch {
      return error.response
    }
  }

  func deferredCredential(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let token = try authenticate(request, endpoint: .deferredCredential)
    let deferredRequest: DeferredCredentialRequest
    do {
      deferredRequest = try DeferredCredentialRequest(jsonBytes: request.body)
    } catch {
      throw .invalidCredentialRequest(error.reason)
    }
    let encryption = try checkEncryption(deferredRequest.credentialResponseEncryption)
    let id = deferredRequest.transactionID
    let invalid = IssuerEndpointFailure("invalid_transaction_id", "the transaction_id is unknown")
    guard let record = try? store.find(.deferredTransaction, id, now: now),
      let state = DeferredState(record.value), state.clientID == token.grant.clientID,
      state.jkt == token.grant.jkt,
      let credential = configuration.credential(id: state.configurationID)
    else { throw invalid }
    let ready = state.released || (state.readyAt.map { $0 <= now } ?? false)
    guard ready else {
      return try respond(
        .deferred(transactionID: id, interval: configuration.deferred?.interval ?? 5),
        encryption: encryption)
    }
    guard (try? store.take(.deferredTransaction, id, now: now)) != nil else { throw invalid }
    return try respond(
      try issue(credential, keys: state.keys, grant: token.grant), encryption: encryption)
  }

  /// Makes a pending deferred issuance ready; false when the transaction is unknown.
  package func releaseDeferred(transactionID: String) throws -> Bool {
    // One atomic step: a transaction the wallet collects meanwhile is not written back.
    try store.update(.deferredTransaction, transactionID, now: now) { record in
      guard let current = record, var state = DeferredState(current.value) else { return false }
      state.released = true
      record?.value = state.json
      return true
    }
  }

  /// The `transaction_id`s of deferred issuances not yet collected, oldest first.
  package func pendingDeferredTransactions() throws -> [String] {
    try store.records(.deferredTransaction, now: now).map(\.key)
  }

  // MARK: Notification endpoint

  /// POST `notification_endpoint` (OpenID4VCI 1.0 §11): the access token, a `notification_id`
  /// this grant received, and an event, recorded; 204.
  public func handleNotification(_ request: HTTPRequest) -> HTTPResponse {
    do {
      return try notification(request)
    } catch {
      return error.response
    }
  }

  func notification(_ request: HTTPRequest) throws(IssuerEndpointFailure) -> HTTPResponse {
    let token = try authenticate(request, endpoint: .notification)
    let notificationRequest: NotificationRequest
    do {
      notificationRequest = try NotificationRequest(jsonBytes: request.body)
    } catch {
      throw IssuerEndpointFailure("invalid_notification_request", error.reason)
    }
    let id = notificationRequest.notificationID
    guard let record = try? store.find(.issuedCredentials, id, now: now),
      record.value["client_id"]?.string == token.grant.clientID,
      record.value["jkt"]?.string == token.grant.jkt
    else {
      throw IssuerEndpointFailure("invalid_notification_id", "the notification_id is unknown")
    }
    var event = ObjectBuilder()
    event.set("notification_id", id)
    event.set("event", notificationRequest.event.rawValue)
    event.set("event_description", notificationRequest.eventDescription)
    event.set("received_at", JSONValue.number(now.timeIntervalSince1970))
    let last = JSONValue.string(notificationRequest.event.rawValue)
    do {
      try store.upsert(
        IssuerStateRecord(
          kind: .notification, key: randomToken(bytes: 16), value: event.value,
          expiresAt: record.expiresAt))
      // In place, atomically: a record removed meanwhile is not written back.
      try store.update(.issuedCredentials, id, now: now) { stored in
        stored = stored.map {
          var updated = $0
          updated.value = $0.value.setting("last_event", to: last)
          return updated
        }
      }
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
    return HTTPResponse(status: 204, headers: ["Cache-Control": "no-store"])
  }

  /// The notifications received, oldest first.
  package func receivedNotifications() throws -> [ReceivedNotification] {
    try store.records(.notification, now: now).compactMap { record in
      guard let id = record.value["notification_id"]?.string,
        let event = record.value["event"]?.string.flatMap(
          NotificationRequest.Event.init(rawValue:)),
        let at = record.value["received_at"]?.double
      else { return nil }
      return ReceivedNotification(
        notificationID: id, event: event,
        eventDescription: record.value["event_description"]?.string,
        receivedAt: Date(timeIntervalSince1970: at))
    }
  }

  /// The credentials issued, oldest first.
  package func issuedCredentials() throws -> [IssuedCredentialsRecord] {
    try store.records(.issuedCredentials, now: now).compactMap { record in
      guard let id = record.value["configuration_id"]?.string,
        let count = record.value["count"]?.int, let at = record.value["issued_at"]?.double
      else { return nil }
      return IssuedCredentialsRecord(
        notificationID: record.key, configurationID: id, count: count,
        issuedAt: Date(timeIntervalSince1970: at), lastEvent: record.value["last_event"]?.string,
        credentialIDs: record.value["credential_ids"]?.array?.compactMap(\.string) ?? [])
    }
  }
}
