package import DCCrypto
package import DCJOSE
package import DCJSON
package import DCOpenID4VCI
package import Foundation

/// What an issuance produced, per credential: issued (not yet verified or stored: the caller
/// verifies before storage), deferred (poll later with ``IssuanceClient/pollDeferred(_:)``), or
/// failed with a reason.
package struct IssuanceResult: Sendable {
  /// The Credential Issuer Identifier.
  package var credentialIssuer: String
  /// The issued credentials, one entry per credential (a batch gives several).
  package var issued: [IssuedCredentialOutcome]
  /// The deferred issuances, one per credential request answered with a `transaction_id`.
  package var deferred: [DeferredIssuance]
  /// The configurations that failed, with the reason.
  package var failed: [IssuanceFailure]
  /// The refresh token, when the authorization server issued one (RFC 6749 §6), for later
  /// re-issuance.
  package var refreshToken: String?

  package init(
    credentialIssuer: String, issued: [IssuedCredentialOutcome] = [],
    deferred: [DeferredIssuance] = [], failed: [IssuanceFailure] = [],
    refreshToken: String? = nil
  ) {
    self.credentialIssuer = credentialIssuer
    self.issued = issued
    self.deferred = deferred
    self.failed = failed
    self.refreshToken = refreshToken
  }
}

/// One issued credential, as received: not verified, not stored.
package struct IssuedCredentialOutcome: Sendable {
  /// The credential configuration it was issued under.
  package var configurationID: String
  /// Its format (`mso_mdoc` with the doctype, `dc+sd-jwt` with the vct).
  package var format: DCOpenID4VCI.CredentialFormat
  /// The credential: for `dc+sd-jwt` the SD-JWT string, for `mso_mdoc` base64url
  /// `IssuerSigned` (`IssuedCredential.mdocIssuerSigned()` decodes it).
  package var credential: DCOpenID4VCI.IssuedCredential
  /// The device key the credential should be bound to: the key of the proof at the same
  /// position in the request (OpenID4VCI 1.0 §8.3: each key binds at most one credential). The
  /// verifier checks the binding; nil when the configuration takes no proofs.
  package var deviceKey: ECPrivateKey?
  /// The configuration's display metadata (`credential_metadata.display`).
  package var display: [DCOpenID4VCI.CredentialDisplay]
  /// The issuer's display metadata.
  package var issuerDisplay: [IssuerDisplay]
  /// Where to send `credential_accepted` / `credential_failure` / `credential_deleted`, when
  /// the issuer has a notification endpoint and returned a `notification_id`. Credentials of one
  /// response share it.
  package var notification: NotificationTarget?
}

/// A configuration that could not be issued.
package struct IssuanceFailure: Sendable {
  /// The configuration.
  package var configurationID: String
  /// Why.
  package var error: IssuanceError

  /// A failure of the configuration `configurationID`, for `error`.
  package init(configurationID: String, error: IssuanceError) {
    self.configurationID = configurationID
    self.error = error
  }
}

/// What the wallet needs to call the notification endpoint later (OpenID4VCI 1.0 §11): the
/// `notification_id`, the access token and the DPoP key it is bound to.
///
/// ``json`` holds the DPoP private key and the access token: store it as the secret it is.
package struct NotificationTarget: Sendable, Hashable {
  package var endpoint: URL
  package var notificationID: String
  package var accessToken: String
  package var tokenType: AccessTokenType
  /// The DPoP key, when the token is DPoP-bound.
  package var dpopKey: ECPrivateKey?

  /// A notification target.
  ///
  /// - Parameters:
  ///   - endpoint: the issuer's `notification_endpoint`.
  ///   - notificationID: the `notification_id` of the credential response.
  ///   - accessToken: the access token the credentials were requested with.
  ///   - tokenType: `Bearer` or `DPoP`.
  ///   - dpopKey: the DPoP key the token is bound to; nil for a bearer token.
  package init(
    endpoint: URL, notificationID: String, accessToken: String, tokenType: AccessTokenType,
    dpopKey: ECPrivateKey?
  ) {
    self.endpoint = endpoint
    self.notificationID = notificationID
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.dpopKey = dpopKey
  }

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }
  package func hash(into hasher: inout Hasher) { hasher.combine(json) }

  /// A JSON object to store and read back with ``init(json:)``.
  package var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("endpoint", .string(endpoint.absoluteString)), ("notification_id", .string(notificationID)),
      ("access_token", .string(accessToken)), ("token_type", .string(tokenType.rawValue)),
    ]
    if let dpopKey { members.append(("dpop_key", JWK(privateKey: dpopKey).json)) }
    return .object(members)
  }

  /// Reads a target stored as ``json``.
  ///
  /// - Throws: `unexpectedResponse` when a member is missing or malformed.
  package init(json: JSONValue) throws(IssuanceError) {
    let reader = StoredJSON(json, "notification target")
    endpoint = try reader.url("endpoint")
    notificationID = try reader.string("notification_id")
    accessToken = try reader.string("access_token")
    tokenType = try reader.tokenType("token_type")
    dpopKey = try reader.optionalPrivateKey("dpop_key")
  }
}

/// A credential request the issuer deferred (OpenID4VCI 1.0 §8.3, §9): everything a later
/// ``IssuanceClient/pollDeferred(_:)`` needs, also in a later process.
///
/// ``json`` holds private keys (the device keys and the DPoP key) and the access token: store it
/// as the secret it is.
package struct DeferredIssuance: Sendable, Hashable {
  /// The Credential Issuer Identifier of the issuer that deferred the request.
  package var credentialIssuer: String
  /// The requested credential configuration's id.
  package var configurationID: String
  /// The configuration's format (`mso_mdoc` with the doctype, `dc+sd-jwt` with the vct).
  package var format: DCOpenID4VCI.CredentialFormat
  /// The configuration's display metadata, for the pending entry shown to the holder.
  package var display: [DCOpenID4VCI.CredentialDisplay]
  package var issuerDisplay: [IssuerDisplay]
  package var deferredEndpoint: URL
  package var notificationEndpoint: URL?
  /// `transaction_id`.
  package var transactionID: String
  /// `interval`: seconds to wait before the next poll.
  package var interval: Int
  /// When the last answer arrived: the next poll is due at `receivedAt + interval`.
  package var receivedAt: Date
  package var accessToken: String
  package var tokenType: AccessTokenType
  package var dpopKey: ECPrivateKey?
  /// The device keys of the proofs, in order.
  package var deviceKeys: [ECPrivateKey]
  /// Whether responses must be encrypted (`encryption_required`), and the `enc` to ask for.
  package var encryption: JWEEncryption?

  /// When the next poll is due.
  package var nextPollAt: Date { receivedAt.addingTimeInterval(TimeInterval(interval)) }

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }
  package func hash(into hasher: inout Hasher) { hasher.combine(json) }

  /// A JSON object to store and read back with ``init(json:)``; it holds private keys and the
  /// access token.
  package var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("credential_issuer", .string(credentialIssuer)),
      ("configuration_id", .string(configurationID)),
      ("format", .string(format.name)),
    ]
    switch format {
    case .msoMdoc(let doctype): members.append(("doctype", .string(doctype)))
    case .sdJWTVC(let vct): members.append(("vct", .string(vct)))
    case .other: break
    }
    members += [
      ("display", .array(display.map(Self.displayJSON))),
      ("issuer_display", .array(issuerDisplay.map(Self.issuerDisplayJSON))),
      ("deferred_endpoint", .string(deferredEndpoint.absoluteString)),
    ]
    if let notificationEndpoint {
      members.append(("notification_endpoint", .string(notificationEndpoint.absoluteString)))
    }
    members += [
      ("transaction_id", .string(transactionID)), ("interval", .integer(Int64(interval))),
      ("received_at", .integer(Int64(receivedAt.timeIntervalSince1970.rounded(.down)))),
      ("access_token", .string(accessToken)), ("token_type", .string(tokenType.rawValue)),
      ("device_keys", .array(deviceKeys.map { JWK(privateKey: $0).json })),
    ]
    if let dpopKey { members.append(("dpop_key", JWK(privateKey: dpopKey).json)) }
    if let encryption { members.append(("enc", .string(encryption.rawValue))) }
    return .object(members)
  }

  init(
    credentialIssuer: String, configuration: CredentialConfiguration,
    issuerDisplay: [IssuerDisplay],
    deferredEndpoint: URL, notificationEndpoint: URL?, transactionID: String, interval: Int,
    receivedAt: Date, accessToken: String, tokenType: AccessTokenType, dpopKey: ECPrivateKey?,
    deviceKeys: [ECPrivateKey], encryption: JWEEncryption?
  ) {
    self.credentialIssuer = credentialIssuer
    self.configurationID = configuration.id
    self.format = configuration.format
    self.display = configuration.display
    self.issuerDisplay = issuerDisplay
    self.deferredEndpoint = deferredEndpoint
    self.notificationEndpoint = notificationEndpoint
    self.transactionID = transactionID
    self.interval = interval
    self.receivedAt = receivedAt
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.dpopKey = dpopKey
    self.deviceKeys = deviceKeys
    self.encryption = encryption
  }

  /// Reads a deferred issuance stored as ``json``, in this process or a later one.
  ///
  /// - Throws: `unexpectedResponse` when a member is missing or malformed.
  package init(json: JSONValue) throws(IssuanceError) {
    let reader = StoredJSON(json, "pending deferred issuance")
    credentialIssuer = try reader.string("credential_issuer")
    configurationID = try reader.string("configuration_id")
    switch try reader.string("format") {
    case "mso_mdoc": format = .msoMdoc(doctype: try reader.string("doctype"))
    case "dc+sd-jwt": format = .sdJWTVC(vct: try reader.string("vct"))
    case let other: format = .other(other)
    }
    display = try reader.array("display").map { (value) throws(IssuanceError) in
      try StoredJSON(value, "display").credentialDisplay()
    }
    issuerDisplay = try reader.array("issuer_display").map { (value) throws(IssuanceError) in
      try StoredJSON(value, "issuer_display").issuerDisplay()
    }
    deferredEndpoint = try reader.url("deferred_endpoint")
    notificationEndpoint = try reader.optionalString("notification_endpoint").map {
      (text) throws(IssuanceError) in try StoredJSON.url(text, "notification_endpoint")
    }
    transactionID = try reader.string("transaction_id")
    interval = try reader.integer("interval")
    receivedAt = Date(timeIntervalSince1970: TimeInterval(try reader.integer("received_at")))
    accessToken = try reader.string("access_token")
    tokenType = try reader.tokenType("token_type")
    dpopKey = try reader.optionalPrivateKey("dpop_key")
    deviceKeys = try reader.array("device_keys").map { (value) throws(IssuanceError) in
      try StoredJSON.privateKey(value, "device_keys")
    }
    encryption = try reader.optionalString("enc").map { (text) throws(IssuanceError) in
      guard let enc = JWEEncryption(rawValue: text) else {
        throw IssuanceError(.unexpectedResponse, "stored enc \(text) is unknown")
      }
      return enc
    }
  }

  static func displayJSON(_ display: DCOpenID4VCI.CredentialDisplay) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("name", .string(display.name))]
    if let locale = display.locale { members.append(("locale", .string(locale))) }
    if let logo = display.logo { members.append(("logo", imageJSON(logo))) }
    if let description = display.description {
      members.append(("description", .string(description)))
    }
    if let color = display.backgroundColor { members.append(("background_color", .string(color))) }
    if let image = display.backgroundImage {
      members.append(("background_image", imageJSON(image)))
    }
    if let color = display.textColor { members.append(("text_color", .string(color))) }
    return .object(members)
  }

  static func issuerDisplayJSON(_ display: IssuerDisplay) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    if let name = display.name { members.append(("name", .string(name))) }
    if let locale = display.locale { members.append(("locale", .string(locale))) }
    if let logo = display.logo { members.append(("logo", imageJSON(logo))) }
    return .object(members)
  }

  static func imageJSON(_ image: DisplayImage) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("uri", .string(image.uri))]
    if let alt = image.altText { members.append(("alt_text", .string(alt))) }
    return .object(members)
  }
}

/// Typed reads of the JSON this module stores, failing with `unexpectedResponse`.
struct StoredJSON {
  let value: JSONValue
  let what: String

  init(_ value: JSONValue, _ what: String) {
    self.value = value
    self.what = what
  }

  func fail(_ reason: String) -> IssuanceError {
    IssuanceError(.unexpectedResponse, "stored \(what): \(reason)")
  }

  func optionalString(_ name: String) throws(IssuanceError) -> String? {
    guard let member = value[name] else { return nil }
    guard let string = member.string else { throw fail("\(name) is not a string") }
    return string
  }

  func string(_ name: String) throws(IssuanceError) -> String {
    guard let string = try optionalString(name) else { throw fail("\(name) is missing") }
    return string
  }

  func integer(_ name: String) throws(IssuanceError) -> Int {
    guard let int = value[name]?.int else { throw fail("\(name) is not an integer") }
    return int
  }

  func array(_ name: String) throws(IssuanceError) -> [JSONValue] {
    guard let array = value[name]?.array else { throw fail("\(name) is not an array") }
    return array
  }

  func url(_ name: String) throws(IssuanceError) -> URL { try Self.url(try string(name), name) }

  static func url(_ text: String, _ name: String) throws(IssuanceError) -> URL {
    guard let url = URL(string: text) else {
      throw IssuanceError(.unexpectedResponse, "stored \(name) is not a URL")
    }
    return url
  }

  func tokenType(_ name: String) throws(IssuanceError) -> AccessTokenType {
    guard let type = AccessTokenType(wireValue: try string(name)) else {
      throw fail("\(name) is not DPoP or Bearer")
    }
    return type
  }

  func optionalPrivateKey(_ name: String) throws(IssuanceError) -> ECPrivateKey? {
    guard let member = value[name] else { return nil }
    return try Self.privateKey(member, name)
  }

  static func privateKey(_ value: JSONValue, _ name: String) throws(IssuanceError) -> ECPrivateKey {
    do {
      return try JWK(json: value).privateKey()
    } catch {
      throw IssuanceError(
        .unexpectedResponse, "stored \(name) is not a private JWK", underlying: error)
    }
  }

  func image(_ name: String) throws(IssuanceError) -> DisplayImage? {
    guard let member = value[name] else { return nil }
    let reader = StoredJSON(member, name)
    return DisplayImage(
      uri: try reader.string("uri"), altText: try reader.optionalString("alt_text"))
  }

  func credentialDisplay() throws(IssuanceError) -> DCOpenID4VCI.CredentialDisplay {
    DCOpenID4VCI.CredentialDisplay(
      name: try string("name"), locale: try optionalString("locale"), logo: try image("logo"),
      description: try optionalString("description"),
      backgroundColor: try optionalString("background_color"),
      backgroundImage: try image("background_image"), textColor: try optionalString("text_color"))
  }

  func issuerDisplay() throws(IssuanceError) -> IssuerDisplay {
    IssuerDisplay(
      name: try optionalString("name"), locale: try optionalString("locale"),
      logo: try image("logo"))
  }
}
