public import DCCrypto
import DCEncoding
package import DCJOSE
public import DCJSON
import Foundation

/// `credential_response_encryption` of a credential or deferred credential request
/// (OpenID4VCI 1.0 §8.2, §10): the wallet's public key and the `enc` (and `zip`) to use.
package struct CredentialResponseEncryption: Sendable, Hashable {
  /// `jwk`: a public key with `alg` (§10: "The `alg` parameter MUST be present"); this module
  /// encrypts with `ECDH-ES` only.
  package var jwk: JWK
  /// `enc`.
  package var enc: JWEEncryption
  /// `zip`; this module never compresses, so a request with `zip` fails at the issuer.
  package var zip: String?

  /// The encryption a wallet asks for.
  ///
  /// - Parameters:
  ///   - jwk: the wallet's ephemeral public key, with `alg` set (`ECDH-ES`).
  ///   - enc: the content encryption the issuer must use, one its metadata lists.
  ///   - zip: `zip`, a compression algorithm; leave nil (this module does not decompress).
  package init(jwk: JWK, enc: JWEEncryption, zip: String? = nil) {
    self.jwk = jwk
    self.enc = enc
    self.zip = zip
  }

  /// The `credential_response_encryption` object: `jwk`, `enc` and, when set, `zip`.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("jwk", jwk.json)
    object.set("enc", enc.rawValue)
    object.set("zip", zip)
    return object.value
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    guard let jwkValue = fields.object["jwk"] else { throw fields.fail("jwk is missing") }
    do {
      jwk = try JWK(json: jwkValue)
    } catch {
      throw OpenID4VCIError(
        fields.code, "\(fields.context).jwk: \(error.reason)", underlying: error)
    }
    guard !jwk.isPrivate else { throw fields.fail("jwk is a private key") }
    guard jwk.alg == JWEAlgorithm.ecdhES.rawValue else {
      throw fields.fail("jwk.alg is \(jwk.alg ?? "absent"), not ECDH-ES")
    }
    let enc = try fields.string("enc")
    guard let encryption = JWEEncryption(rawValue: enc) else {
      throw fields.fail("enc \(enc) is not supported")
    }
    self.enc = encryption
    zip = try fields.optionalString("zip")
  }

  /// Encrypts a response payload to ``jwk`` (OpenID4VCI 1.0 §10): a JWE with `alg` the key's
  /// `alg`, `kid` the key's `kid`, and this `enc`; the plaintext is the JSON claims set.
  package func encrypt(_ payload: JSONValue, random: any RandomSource = SecureRandom())
    throws(OpenID4VCIError) -> String
  {
    guard zip == nil else {
      throw OpenID4VCIError(.responseEncryption, "zip \(zip ?? "") is not supported")
    }
    do {
      return try JWE.encrypt(
        plaintext: payload.serializedBytes(), recipient: jwk.publicKey(), enc: enc, kid: jwk.kid,
        random: random)
    } catch {
      throw OpenID4VCIError(
        .responseEncryption, "encryption failed: \(error.reason)", underlying: error)
    }
  }

  /// Decrypts a response with the private key of ``jwk`` and returns the payload bytes; the
  /// JWE's `enc` must be the requested one and its `kid` (if any) the key's.
  package func decrypt(_ jwe: String, key: ECPrivateKey, maximumLength: Int)
    throws(OpenID4VCIError) -> [UInt8]
  {
    guard jwe.utf8.count <= maximumLength else {
      throw OpenID4VCIError(.responseEncryption, "the encrypted response is too large")
    }
    let parsed: CompactJWE
    do {
      parsed = try CompactJWE(jwe.trimmingCharacters(in: .whitespacesAndNewlines))
    } catch {
      throw OpenID4VCIError(.responseEncryption, "not a JWE: \(error.reason)", underlying: error)
    }
    guard parsed.encryption == enc else {
      throw OpenID4VCIError(
        .responseEncryption, "enc is \(parsed.encryption.rawValue), not \(enc.rawValue)")
    }
    if let kid = jwk.kid, let received = parsed.keyID, received != kid {
      throw OpenID4VCIError(.responseEncryption, "kid is \(received), not \(kid)")
    }
    guard parsed.protectedHeader["zip"] == nil else {
      throw OpenID4VCIError(.responseEncryption, "a compressed response was not requested")
    }
    do {
      return try parsed.decrypt(with: key)
    } catch {
      throw OpenID4VCIError(
        .responseEncryption, "decryption failed: \(error.reason)", underlying: error)
    }
  }
}

/// The key proofs of a credential request (OpenID4VCI 1.0 §8.2 `proofs`, Appendix F): exactly
/// one proof type, a non-empty array.
package enum CredentialRequestProofs: Sendable, Hashable {
  /// `jwt`: one key proof JWT per key (§F.1).
  case jwt([String])
  /// `attestation`: exactly one key attestation JWT (§F.3).
  case attestation(String)

  /// The most proofs a request may carry, whatever the issuer's `batch_size`.
  package static let maximumCount = 100

  /// The `proofs` object: `{"jwt": [...]}` or `{"attestation": [...]}`.
  package var json: JSONValue {
    switch self {
    case .jwt(let proofs): .object([("jwt", .array(proofs.map { .string($0) }))])
    case .attestation(let jwt): .object([("attestation", .array([.string(jwt)]))])
    }
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    guard case .object(let members) = fields.object, members.count == 1 else {
      throw fields.fail("proofs does not hold exactly one proof type")
    }
    let (type, value) = members[0]
    guard let array = value.array, !array.isEmpty else {
      throw fields.fail("proofs.\(type) is not a non-empty array")
    }
    guard array.count <= Self.maximumCount else {
      throw fields.fail("proofs.\(type) has more than \(Self.maximumCount) proofs")
    }
    var strings: [String] = []
    for element in array {
      guard let string = element.string, !string.isEmpty else {
        throw fields.fail("proofs.\(type) holds a non-string")
      }
      strings.append(string)
    }
    switch type {
    case "jwt": self = .jwt(strings)
    case "attestation":
      guard strings.count == 1 else { throw fields.fail("proofs.attestation holds more than one") }
      self = .attestation(strings[0])
    default: throw fields.fail("proof type \(type) is not supported")
    }
  }
}

/// A credential request (OpenID4VCI 1.0 §8.2), JSON in the body of a POST to the credential
/// endpoint with the access token.
package struct CredentialRequest: Sendable, Hashable {
  /// Which credential: exactly one of the two (§8.2).
  package enum Target: Sendable, Hashable {
    /// `credential_identifier`, from the token response's `credential_identifiers`.
    case credentialIdentifier(String)
    /// `credential_configuration_id`, when the token response had no `credential_identifiers`.
    case credentialConfigurationID(String)
  }

  package var target: Target
  /// `proofs`.
  package var proofs: CredentialRequestProofs?
  /// `credential_response_encryption`.
  package var credentialResponseEncryption: CredentialResponseEncryption?

  /// A credential request.
  ///
  /// - Parameters:
  ///   - target: the credential asked for, by `credential_identifier` or
  ///     `credential_configuration_id`.
  ///   - proofs: proofs of possession of the keys to bind, when the configuration binds keys
  ///     (`proof_types_supported`).
  ///   - credentialResponseEncryption: the key and algorithms to encrypt the response with
  ///     (§10); nil for a plain JSON response.
  package init(
    target: Target, proofs: CredentialRequestProofs? = nil,
    credentialResponseEncryption: CredentialResponseEncryption? = nil
  ) {
    self.target = target
    self.proofs = proofs
    self.credentialResponseEncryption = credentialResponseEncryption
  }

  /// The request body: the target member, `proofs` and `credential_response_encryption`.
  package var json: JSONValue {
    var object = ObjectBuilder()
    switch target {
    case .credentialIdentifier(let id): object.set("credential_identifier", id)
    case .credentialConfigurationID(let id): object.set("credential_configuration_id", id)
    }
    object.set("proofs", proofs?.json)
    object.set("credential_response_encryption", credentialResponseEncryption?.json)
    return object.value
  }

  /// Reads a request body (the issuer's side).
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidCredentialRequest
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the credential request", maximumLength: 256 * 1024)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    try self.init(json: json)
  }

  /// Reads a request object (for a decrypted, JWT-encoded request too).
  package init(json: JSONValue) throws(OpenID4VCIError) {
    let fields = try Fields(json, "credential request", .invalidCredentialRequest)
    let identifier = try fields.optionalString("credential_identifier")
    let configuration = try fields.optionalString("credential_configuration_id")
    switch (identifier, configuration) {
    case (let id?, nil) where !id.isEmpty: target = .credentialIdentifier(id)
    case (nil, let id?) where !id.isEmpty: target = .credentialConfigurationID(id)
    case (nil, nil):
      throw fields.fail("credential_identifier or credential_configuration_id is missing")
    case (.some, .some):
      throw fields.fail("credential_identifier and credential_configuration_id both present")
    default: throw fields.fail("the credential identifier is empty")
    }
    proofs = try fields.optionalObject("proofs").map {
      (proofs) throws(OpenID4VCIError) in try CredentialRequestProofs(proofs)
    }
    credentialResponseEncryption = try fields.optionalObject("credential_response_encryption").map {
      (encryption) throws(OpenID4VCIError) in try CredentialResponseEncryption(encryption)
    }
  }
}

/// A deferred credential request (OpenID4VCI 1.0 §9.1).
package struct DeferredCredentialRequest: Sendable, Hashable {
  /// `transaction_id`.
  package var transactionID: String
  /// `credential_response_encryption`: the key for this response (§9.1: may differ from the
  /// first request's).
  package var credentialResponseEncryption: CredentialResponseEncryption?

  /// A deferred credential request.
  ///
  /// - Parameters:
  ///   - transactionID: the `transaction_id` of the deferred credential response (§8.3).
  ///   - credentialResponseEncryption: the key for this response, which may differ from the first
  ///     request's (§9.1); nil for a plain JSON response.
  package init(
    transactionID: String, credentialResponseEncryption: CredentialResponseEncryption? = nil
  ) {
    self.transactionID = transactionID
    self.credentialResponseEncryption = credentialResponseEncryption
  }

  /// The request body: `transaction_id` and, when set, `credential_response_encryption`.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("transaction_id", transactionID)
    object.set("credential_response_encryption", credentialResponseEncryption?.json)
    return object.value
  }

  /// Reads a deferred credential request body (the issuer's side), at most 64 KiB of JSON.
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidCredentialRequest` for a body that is not a JSON object
  ///   with a non-empty `transaction_id`, or with a malformed `credential_response_encryption`.
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidCredentialRequest
    let json: JSONValue
    do {
      json = try parseJSON(
        jsonBytes, "the deferred credential request", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    let fields = try Fields(json, "deferred credential request", code)
    transactionID = try fields.nonEmptyString("transaction_id")
    credentialResponseEncryption = try fields.optionalObject("credential_response_encryption").map {
      (encryption) throws(OpenID4VCIError) in try CredentialResponseEncryption(encryption)
    }
  }
}

/// One issued credential of a credential response (OpenID4VCI 1.0 §8.3 `credentials[i]`).
public struct IssuedCredential: Sendable, Hashable {
  /// `credential`: a string for `dc+sd-jwt` (the SD-JWT, Appendix A.3.4) and for `mso_mdoc`
  /// (base64url `IssuerSigned`, Appendix A.2.4), an object for some other formats.
  public var credential: JSONValue

  /// Wraps the `credential` member as the issuer sends it.
  package init(_ credential: JSONValue) { self.credential = credential }

  /// The credential when it is a string.
  public var text: String? { credential.string }

  /// The `IssuerSigned` CBOR bytes of an `mso_mdoc` credential: the string, base64url-decoded
  /// (OpenID4VCI 1.0 Appendix A.2.4).
  public func mdocIssuerSigned() throws(OpenID4VCIError) -> [UInt8] {
    guard let text = credential.string else {
      throw OpenID4VCIError(.invalidCredentialResponse, "the mso_mdoc credential is not a string")
    }
    do {
      return try Base64URL.decode(text)
    } catch {
      throw OpenID4VCIError(
        .invalidCredentialResponse, "the mso_mdoc credential is not base64url", underlying: error)
    }
  }
}

/// A credential response (OpenID4VCI 1.0 §8.3) or deferred credential response (§9.2): the
/// credentials (HTTP 200) or a `transaction_id` to poll with (HTTP 202).
package enum CredentialResponse: Sendable, Hashable {
  /// `credentials` with an optional `notification_id`.
  case issued([IssuedCredential], notificationID: String?)
  /// `transaction_id` and `interval` (seconds, positive).
  case deferred(transactionID: String, interval: Int)

  /// The most bytes of a (decrypted or plain) credential response: a batch of large mdocs.
  package static let maximumLength = 4 * 1024 * 1024

  /// The HTTP status the response goes with (§8.3: 200 issued, 202 deferred).
  package var status: Int {
    switch self {
    case .issued: 200
    case .deferred: 202
    }
  }

  /// The plain (unencrypted) response body: `credentials` and `notification_id`, or
  /// `transaction_id` and `interval` (§8.3).
  package var json: JSONValue {
    var object = ObjectBuilder()
    switch self {
    case .issued(let credentials, let notificationID):
      object.set(
        "credentials", .array(credentials.map { .object([("credential", $0.credential)]) }))
      object.set("notification_id", notificationID)
    case .deferred(let transactionID, let interval):
      object.set("transaction_id", transactionID)
      object.set("interval", interval)
    }
    return object.value
  }

  /// Reads a plain (JSON) response. `credentials` (non-empty, each with `credential`) and
  /// `transaction_id` exclude each other; `interval` comes with and only with
  /// `transaction_id`; `notification_id` only with `credentials` (§8.3).
  /// - Parameters:
  ///   - jsonBytes: the response body, at most 4 MiB of UTF-8 JSON.
  ///   - expectedTransactionID: for a deferred response, the `transaction_id` sent: a further
  ///     deferral must repeat it (§9.2).
  /// - Throws: `OpenID4VCIErrorCode.invalidCredentialResponse` for a body that is not JSON or
  ///   breaks one of these rules.
  package init(jsonBytes: some Collection<UInt8>, expectedTransactionID: String? = nil)
    throws(OpenID4VCIError)
  {
    let code = OpenID4VCIErrorCode.invalidCredentialResponse
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the credential response", maximumLength: Self.maximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    try self.init(json: json, expectedTransactionID: expectedTransactionID)
  }

  /// Reads a plain response already parsed as JSON, with the rules of
  /// ``init(jsonBytes:expectedTransactionID:)``.
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidCredentialResponse` for a value that breaks them.
  package init(json: JSONValue, expectedTransactionID: String? = nil) throws(OpenID4VCIError) {
    let fields = try Fields(json, "credential response", .invalidCredentialResponse)
    let transactionID = try fields.optionalString("transaction_id")
    let interval = try fields.optionalInteger("interval")
    let notificationID = try fields.optionalString("notification_id")
    if let credentials = try fields.optionalObjects("credentials") {
      guard transactionID == nil else {
        throw fields.fail("credentials and transaction_id both present")
      }
      guard interval == nil else { throw fields.fail("interval comes only with transaction_id") }
      guard credentials.count <= CredentialRequestProofs.maximumCount else {
        throw fields.fail("more than \(CredentialRequestProofs.maximumCount) credentials")
      }
      var issued: [IssuedCredential] = []
      for entry in credentials {
        guard let credential = entry.object["credential"] else {
          throw entry.fail("credential is missing")
        }
        switch credential {
        case .string(let text) where !text.isEmpty: break
        case .object: break
        default: throw entry.fail("credential is neither a non-empty string nor an object")
        }
        issued.append(IssuedCredential(credential))
      }
      if let notificationID, notificationID.isEmpty {
        throw fields.fail("notification_id is empty")
      }
      self = .issued(issued, notificationID: notificationID)
    } else if let transactionID {
      guard !transactionID.isEmpty else { throw fields.fail("transaction_id is empty") }
      guard let interval else { throw fields.fail("interval is missing with transaction_id") }
      guard interval > 0 else { throw fields.fail("interval is not positive") }
      guard notificationID == nil else {
        throw fields.fail("notification_id comes only with credentials")
      }
      if let expectedTransactionID, transactionID != expectedTransactionID {
        throw fields.fail("transaction_id is not the one polled for")
      }
      self = .deferred(transactionID: transactionID, interval: interval)
    } else {
      throw fields.fail("neither credentials nor transaction_id")
    }
  }

  /// The encrypted form (§10): a JWE to the wallet's key, media type `application/jwt`.
  package func encrypted(
    to encryption: CredentialResponseEncryption, random: any RandomSource = SecureRandom()
  )
    throws(OpenID4VCIError) -> String
  {
    try encryption.encrypt(json, random: random)
  }

  /// Reads an encrypted response: decrypts with the wallet's key, then reads the JSON payload.
  package init(
    encrypted jwe: String, encryption: CredentialResponseEncryption, key: ECPrivateKey,
    expectedTransactionID: String? = nil
  ) throws(OpenID4VCIError) {
    let payload = try encryption.decrypt(jwe, key: key, maximumLength: Self.maximumLength * 2)
    try self.init(jsonBytes: payload, expectedTransactionID: expectedTransactionID)
  }

  /// The media type of an encrypted response or request (§10).
  package static let encryptedContentType = "application/jwt"
}

/// A notification request (OpenID4VCI 1.0 §11.1).
package struct NotificationRequest: Sendable, Hashable {
  /// `event` (§11.1).
  package enum Event: String, Sendable, Hashable, CaseIterable {
    /// The credentials were stored.
    case credentialAccepted = "credential_accepted"
    /// Issuance failed for a reason other than the user's action.
    case credentialFailure = "credential_failure"
    /// The user deleted (or declined) the credentials.
    case credentialDeleted = "credential_deleted"
  }

  /// `notification_id`.
  package var notificationID: String
  package var event: Event
  /// `event_description`: ASCII `%x20-21 / %x23-5B / %x5D-7E`.
  package var eventDescription: String?

  /// A notification about issued credentials.
  ///
  /// - Parameters:
  ///   - notificationID: the `notification_id` of the credential response.
  ///   - event: what the wallet did with the credentials.
  ///   - eventDescription: `event_description`, a human-readable note in ASCII without `"` or
  ///     `\`.
  package init(notificationID: String, event: Event, eventDescription: String? = nil) {
    self.notificationID = notificationID
    self.event = event
    self.eventDescription = eventDescription
  }

  /// The request body: `notification_id`, `event` and, when set, `event_description`.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("notification_id", notificationID)
    object.set("event", event.rawValue)
    object.set("event_description", eventDescription)
    return object.value
  }

  /// Reads a notification request body (the issuer's side), at most 64 KiB of JSON.
  ///
  /// - Throws: `OpenID4VCIErrorCode.invalidNotificationRequest` for a body without a non-empty
  ///   `notification_id`, with an unknown `event`, or with an `event_description` outside the
  ///   allowed characters.
  package init(jsonBytes: some Collection<UInt8>) throws(OpenID4VCIError) {
    let code = OpenID4VCIErrorCode.invalidNotificationRequest
    let json: JSONValue
    do {
      json = try parseJSON(
        jsonBytes, "the notification request", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(code, error.reason, underlying: error)
    }
    let fields = try Fields(json, "notification request", code)
    notificationID = try fields.nonEmptyString("notification_id")
    let event = try fields.string("event")
    guard let parsed = Event(rawValue: event) else {
      throw fields.fail("event \(event) is unknown")
    }
    self.event = parsed
    eventDescription = try fields.optionalString("event_description")
    if let eventDescription {
      for byte in eventDescription.utf8
      where !(0x20...0x7E).contains(byte) || byte == 0x22 || byte == 0x5C {
        throw fields.fail("event_description has a character outside %x20-21 / %x23-5B / %x5D-7E")
      }
    }
  }
}
