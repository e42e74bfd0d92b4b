import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCSDJWT
import DCTestSupport
import DCWalletTestSupport
import Foundation
import Testing

/// The nonce, credential, deferred and notification endpoints.
@Suite("Issuer credential endpoint")
struct IssuerCredentialTests {
  /// A wallet holding a DPoP-bound access token for `configurations` (pre-authorized).
  static func authorizedWallet(
    _ fixture: IssuerFixture, configurations: [String] = ["mDL", "pid-sd-jwt", "mDL-deferred"]
  ) async throws -> TestWallet {
    let wallet = try TestWallet(fixture)
    let offer = try fixture.service.createOffer(
      configurationIDs: configurations, grant: .preAuthorized(transactionCode: true))
    let response = try await wallet.preAuthorized(offer)
    #expect(response.status == 200)
    return wallet
  }

  static func credentials(_ response: HTTPResponse) throws -> ([IssuedCredential], String?) {
    guard
      case .issued(let credentials, let notificationID) = try CredentialResponse(
        jsonBytes: response.body)
    else { throw OpenID4VCIError(.invalidCredentialRequest, "not issued") }
    return (credentials, notificationID)
  }

  @Test("A batch of three mdocs, each bound to its proof's key, signed under the IACA")
  func mdocBatch() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    let (keys, response) = try await wallet.requestCredentials("mDL", count: 3)
    #expect(response.status == 200)
    let (credentials, notificationID) = try Self.credentials(response)
    #expect(credentials.count == 3)
    #expect(notificationID != nil)
    for (credential, key) in zip(credentials, keys) {
      let issuerSigned = try IssuerSigned(cbor: try CBOR.decode(try credential.mdocIssuerSigned()))
      #expect(issuerSigned.mso.docType == "org.iso.18013.5.1.mDL")
      #expect(try issuerSigned.mso.deviceKey.publicKey() == key.publicKey)
      #expect(issuerSigned.nameSpaces.first?.items.count == 3)
    }
    let records = try fixture.service.issuedCredentials()
    #expect(records.map(\.count) == [3])
  }

  @Test("An SD-JWT VC whose cnf.jwk is the proof's key and whose x5c is the issuer's chain")
  func sdJWT() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    let (keys, response) = try await wallet.requestCredentials("pid-sd-jwt")
    let (credentials, _) = try Self.credentials(response)
    let sdJWT = try SDJWT(serialized: try #require(credentials.first?.text))
    #expect(sdJWT.issuerPayload["vct"] == "urn:eudi:pid:1")
    #expect(sdJWT.issuerPayload["cnf"]?["jwk"] == JWK(publicKey: keys[0].publicKey).json)
    #expect(sdJWT.disclosures.count == 3)
    try sdJWT.issuerSignedJWT.verifySignature(with: fixture.pki.dsKey.publicKey)
  }

  @Test(
    "Key proof checks: reused c_nonce, no nonce, another key, wrong aud, duplicate keys, batch_size"
  )
  func proofChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    let key = try ECPrivateKey(curve: .p256)
    func request(_ proofs: [String], id: String = "mDL") async throws -> HTTPResponse {
      try await wallet.credentialRequest(
        CredentialRequest(target: .credentialConfigurationID(id), proofs: .jwt(proofs)))
    }
    // A c_nonce serves one request.
    let nonce = try await wallet.cNonce()
    #expect(try await request(try wallet.proofs([key], nonce: nonce)).status == 200)
    let reused = try await request(try wallet.proofs([key], nonce: nonce))
    #expect(oauthError(reused) == "invalid_nonce")
    let none = try await request(try wallet.proofs([key], nonce: nil))
    #expect(oauthError(none) == "invalid_nonce")
    // An expired c_nonce.
    let old = try await wallet.cNonce()
    fixture.clock.advance(301)
    await wallet.primeDPoPNonce()
    #expect(oauthError(try await request(try wallet.proofs([key], nonce: old))) == "invalid_nonce")
    // A proof whose jwk is one key but signed by another.
    let other = try ECPrivateKey(curve: .p256)
    let header: JSONValue = [
      "typ": "openid4vci-proof+jwt", "alg": "ES256", "jwk": JWK(publicKey: key.publicKey).json,
    ]
    let claims: JSONValue = [
      "aud": .string(IssuerFixture.issuerID),
      "iat": .integer(Int64(fixture.clock.now.timeIntervalSince1970)),
      "nonce": .string(try await wallet.cNonce()),
    ]
    let forged = try rawJWS(header: header, claims: claims, key: other)
    #expect(oauthError(try await request([forged])) == "invalid_proof")
    // Wrong aud.
    let aud = try wallet.proofs(
      [key], nonce: try await wallet.cNonce(), audience: "https://other.example")
    #expect(oauthError(try await request(aud)) == "invalid_proof")
    // Two proofs for one key.
    let nonce2 = try await wallet.cNonce()
    #expect(
      oauthError(try await request(try wallet.proofs([key, key], nonce: nonce2))) == "invalid_proof"
    )
    // More than batch_size (3).
    let many = try (0..<4).map { _ in try ECPrivateKey(curve: .p256) }
    let over = try await request(try wallet.proofs(many, nonce: try await wallet.cNonce()))
    #expect(oauthError(over) == "invalid_credential_request")
    // No proofs at all.
    let bare = try await wallet.credentialRequest(
      CredentialRequest(target: .credentialConfigurationID("mDL")))
    #expect(oauthError(bare) == "invalid_proof")
  }

  @Test("Unknown and ungranted configurations, unknown identifiers")
  func configurationChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture, configurations: ["mDL"])
    let key = try ECPrivateKey(curve: .p256)
    let unknown = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("nope"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce()))))
    #expect(oauthError(unknown) == "unknown_credential_configuration")
    let ungranted = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("pid-sd-jwt"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce()))))
    #expect(oauthError(ungranted) == "credential_request_denied")
    let identifier = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialIdentifier("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce()))))
    #expect(oauthError(identifier) == "unknown_credential_identifier")
  }

  @Test("Access token checks: none, unknown, bearer scheme, another DPoP key, missing ath")
  func tokenChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    await wallet.primeDPoPNonce()
    let body = CredentialRequest(
      target: .credentialConfigurationID("mDL"),
      proofs: .jwt(try wallet.proofs([try ECPrivateKey(curve: .p256)], nonce: "x"))
    ).json
    let none = await wallet.send(fixture.request(.post, .credential, body: body.serializedBytes()))
    #expect(none.status == 401)
    #expect(oauthError(none) == "invalid_token")
    #expect(none.headers["WWW-Authenticate"]?.hasPrefix("DPoP") == true)
    let unknown = try await wallet.protected(.credential, body: body, token: "made-up")
    #expect(unknown.status == 401)
    #expect(oauthError(unknown) == "invalid_token")
    let bearer = try await wallet.protected(.credential, body: body, scheme: "Bearer")
    #expect(oauthError(bearer) == "invalid_token")
    // The token is bound to the wallet's DPoP key (cnf.jkt): a proof by another key fails.
    let otherKey = try await wallet.protected(
      .credential, body: body, key: try ECPrivateKey(curve: .p256))
    #expect(otherKey.status == 401)
    #expect(oauthError(otherKey) == "invalid_dpop_proof")
    #expect(otherKey.headers["WWW-Authenticate"]?.contains("invalid_dpop_proof") == true)
    let noProof = try await wallet.protected(.credential, body: body, withProof: false)
    #expect(oauthError(noProof) == "invalid_dpop_proof")
    // A proof without ath (made as if no token were presented).
    var headers: HTTPFields = ["Authorization": "DPoP \(wallet.accessToken ?? "")"]
    headers["DPoP"] = try wallet.dpop(.credential)
    let noATH = await wallet.send(
      fixture.request(.post, .credential, headers: headers, body: body.serializedBytes()))
    #expect(oauthError(noATH) == "invalid_dpop_proof")
    // An expired token.
    fixture.clock.advance(3_601)
    await wallet.primeDPoPNonce()
    let expired = try await wallet.protected(.credential, body: body)
    #expect(oauthError(expired) == "invalid_token")
  }

  @Test("The credential endpoint demands the DPoP nonce too (401 use_dpop_nonce)")
  func resourceNonce() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    fixture.clock.advance(301)  // the nonce from the token exchange goes stale
    let key = try ECPrivateKey(curve: .p256)
    let nonce = try await wallet.cNonce()
    wallet.dpopNonce = "stale"
    let response = try await wallet.protected(
      .credential,
      body: CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: nonce))
      ).json)
    #expect(response.status == 401)
    #expect(response.headers["WWW-Authenticate"]?.contains("use_dpop_nonce") == true)
    #expect(response.headers["DPoP-Nonce"] != nil)
  }

  @Test("Response encryption when asked; refused when required and absent")
  func encryption() async throws {
    let fixture = try IssuerFixture {
      $0.responseEncryption = ResponseEncryptionPolicy(required: true)
    }
    let wallet = try await Self.authorizedWallet(fixture)
    let key = try ECPrivateKey(curve: .p256)
    let plain = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce()))))
    #expect(oauthError(plain) == "invalid_encryption_parameters")
    let encryptionKey = try ECPrivateKey(curve: .p256)
    let encryption = CredentialResponseEncryption(
      jwk: JWK(publicKey: encryptionKey.publicKey, kid: "k1", alg: "ECDH-ES"), enc: .a128gcm)
    let response = try await wallet.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: try await wallet.cNonce())),
        credentialResponseEncryption: encryption))
    #expect(response.status == 200)
    #expect(response.headers["Content-Type"] == "application/jwt")
    let decrypted = try CredentialResponse(
      encrypted: String(decoding: response.body, as: UTF8.self), encryption: encryption,
      key: encryptionKey)
    guard case .issued(let credentials, _) = decrypted else {
      Issue.record("expected credentials")
      return
    }
    #expect(credentials.count == 1)
    // An issuer without encryption refuses an encrypted request.
    let plainIssuer = try IssuerFixture()
    let other = try await Self.authorizedWallet(plainIssuer)
    let refused = try await other.credentialRequest(
      CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try other.proofs([key], nonce: try await other.cNonce())),
        credentialResponseEncryption: encryption))
    #expect(oauthError(refused) == "invalid_encryption_parameters")
  }

  @Test("Deferred issuance: 202 with transaction_id, pending until released, collected once")
  func deferred() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    let (keys, response) = try await wallet.requestCredentials("mDL-deferred", count: 2)
    #expect(response.status == 202)
    guard
      case .deferred(let transactionID, let interval) = try CredentialResponse(
        jsonBytes: response.body)
    else {
      Issue.record("expected a deferred response")
      return
    }
    #expect(interval == 5)
    #expect(try fixture.service.pendingDeferredTransactions() == [transactionID])
    let body = DeferredCredentialRequest(transactionID: transactionID).json
    let pending = try await wallet.protected(.deferredCredential, body: body)
    #expect(pending.status == 202)
    #expect(try fixture.service.releaseDeferred(transactionID: transactionID))
    let ready = try await wallet.protected(.deferredCredential, body: body)
    #expect(ready.status == 200)
    let (credentials, _) = try Self.credentials(ready)
    for (credential, key) in zip(credentials, keys) {
      let issuerSigned = try IssuerSigned(cbor: try CBOR.decode(try credential.mdocIssuerSigned()))
      #expect(try issuerSigned.mso.deviceKey.publicKey() == key.publicKey)
    }
    let again = try await wallet.protected(.deferredCredential, body: body)
    #expect(oauthError(again) == "invalid_transaction_id")
    let unknown = try await wallet.protected(
      .deferredCredential, body: DeferredCredentialRequest(transactionID: "nope").json)
    #expect(oauthError(unknown) == "invalid_transaction_id")
    #expect(try !fixture.service.releaseDeferred(transactionID: "nope"))
  }

  @Test("Deferred issuance with a delay becomes ready by itself; another grant cannot collect")
  func deferredDelay() async throws {
    let fixture = try IssuerFixture {
      $0.deferred = DeferredIssuanceSettings(configurationIDs: ["mDL-deferred"], delay: 30)
    }
    let wallet = try await Self.authorizedWallet(fixture)
    let (_, response) = try await wallet.requestCredentials("mDL-deferred")
    guard case .deferred(let transactionID, _) = try CredentialResponse(jsonBytes: response.body)
    else {
      Issue.record("expected a deferred response")
      return
    }
    let body = DeferredCredentialRequest(transactionID: transactionID).json
    #expect(try await wallet.protected(.deferredCredential, body: body).status == 202)
    fixture.clock.advance(31)
    let stranger = try await Self.authorizedWallet(fixture)
    let stolen = try await stranger.protected(.deferredCredential, body: body)
    #expect(oauthError(stolen) == "invalid_transaction_id")
    await wallet.primeDPoPNonce()
    #expect(try await wallet.protected(.deferredCredential, body: body).status == 200)
  }

  @Test("Notifications are recorded; unknown ids and events are refused")
  func notifications() async throws {
    let fixture = try IssuerFixture()
    let wallet = try await Self.authorizedWallet(fixture)
    let (_, response) = try await wallet.requestCredentials("mDL")
    let notificationID = try #require(try Self.credentials(response).1)
    let accepted = try await wallet.protected(
      .notification,
      body: NotificationRequest(notificationID: notificationID, event: .credentialAccepted).json)
    #expect(accepted.status == 204)
    let deleted = try await wallet.protected(
      .notification,
      body: NotificationRequest(
        notificationID: notificationID, event: .credentialDeleted, eventDescription: "removed"
      ).json)
    #expect(deleted.status == 204)
    let received = try fixture.service.receivedNotifications()
    #expect(received.map(\.event) == [.credentialAccepted, .credentialDeleted])
    #expect(received.last?.eventDescription == "removed")
    #expect(try fixture.service.issuedCredentials().first?.lastEvent == "credential_deleted")
    let unknown = try await wallet.protected(
      .notification,
      body: NotificationRequest(notificationID: "nope", event: .credentialAccepted).json)
    #expect(oauthError(unknown) == "invalid_notification_id")
    let badEvent = try await wallet.protected(
      .notification, body: ["notification_id": .string(notificationID), "event": "credential_lost"])
    #expect(oauthError(badEvent) == "invalid_notification_request")
    // Another grant cannot notify for these credentials.
    let stranger = try await Self.authorizedWallet(fixture)
    let foreign = try await stranger.protected(
      .notification,
      body: NotificationRequest(notificationID: notificationID, event: .credentialFailure).json)
    #expect(oauthError(foreign) == "invalid_notification_id")
  }

  @Test("The whole pre-authorized flow with state in SQLite")
  func sqliteStore() async throws {
    let directory = TestScratch.url("issuer-flow")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteIssuerStateStore(path: directory.appendingPathComponent("i.db").path)
    let fixture = try IssuerFixture(store: store)
    let wallet = try await Self.authorizedWallet(fixture)
    let (_, response) = try await wallet.requestCredentials("mDL", count: 2)
    #expect(try Self.credentials(response).0.count == 2)
  }
}
