import DCHTTP
public import DCJSON
public import Foundation

/// A credential offer (OpenID4VCI 1.0 §4.1.1): which issuer offers which credential
/// configurations, and the grants the wallet may use to obtain them.
public struct CredentialOffer: Sendable, Hashable {
  /// `credential_issuer`: the issuer whose metadata the wallet fetches next.
  public var credentialIssuer: IssuerIdentifier
  /// `credential_configuration_ids`: keys of the issuer's `credential_configurations_supported`;
  /// non-empty and unique.
  public var credentialConfigurationIDs: [String]
  /// The `authorization_code` grant, when offered.
  public var authorizationCode: AuthorizationCodeGrant?
  /// The `urn:ietf:params:oauth:grant-type:pre-authorized_code` grant, when offered.
  public var preAuthorizedCode: PreAuthorizedCodeGrant?

  /// The grant type of the pre-authorized code flow (OpenID4VCI 1.0 §4.1.1, §6.1).
  package static let preAuthorizedCodeGrantType =
    "urn:ietf:params:oauth:grant-type:pre-authorized_code"
  /// The grant type of the authorization code flow (RFC 6749 §4.1.3).
  package static let authorizationCodeGrantType = "authorization_code"
  /// The most bytes read for an offer given as text (a URI or JSON); a QR code holds under 3 KB.
  package static let maximumLength = 64 * 1024

  /// Creates an offer, checking it as a parsed one is checked.
  package init(
    credentialIssuer: IssuerIdentifier, credentialConfigurationIDs: [String],
    authorizationCode: AuthorizationCodeGrant? = nil,
    preAuthorizedCode: PreAuthorizedCodeGrant? = nil
  ) throws(OpenID4VCIError) {
    try Self.checkConfigurationIDs(credentialConfigurationIDs)
    if let preAuthorizedCode { try preAuthorizedCode.check() }
    self.credentialIssuer = credentialIssuer
    self.credentialConfigurationIDs = credentialConfigurationIDs
    self.authorizationCode = authorizationCode
    self.preAuthorizedCode = preAuthorizedCode
  }

  /// Reads an offer object (OpenID4VCI 1.0 §4.1.1). Unknown members and grant types are ignored.
  package init(json: JSONValue, policy: URLPolicy = .standard) throws(OpenID4VCIError) {
    let fields = try Fields(json, "credential offer", .invalidOffer)
    let issuer = try fields.identifier("credential_issuer", policy)
    guard let ids = json["credential_configuration_ids"]?.array else {
      throw fields.fail("credential_configuration_ids is missing or not an array")
    }
    var configurationIDs: [String] = []
    for id in ids {
      guard let id = id.string else {
        throw fields.fail("credential_configuration_ids holds a non-string")
      }
      configurationIDs.append(id)
    }
    var authorizationCode: AuthorizationCodeGrant?
    var preAuthorizedCode: PreAuthorizedCodeGrant?
    if let grants = try fields.optionalObject("grants") {
      if let grant = try grants.optionalObject(Self.authorizationCodeGrantType) {
        authorizationCode = AuthorizationCodeGrant(
          issuerState: try grant.optionalString("issuer_state"),
          authorizationServer: try grant.optionalIdentifier("authorization_server", policy))
      }
      if let grant = try grants.optionalObject(Self.preAuthorizedCodeGrantType) {
        var txCode: TransactionCodeRequirement?
        if let tx = try grant.optionalObject("tx_code") {
          var inputMode: TransactionCodeRequirement.InputMode?
          if let mode = try tx.optionalString("input_mode") {
            guard let known = TransactionCodeRequirement.InputMode(rawValue: mode) else {
              throw tx.fail("input_mode '\(mode)' is neither numeric nor text")
            }
            inputMode = known
          }
          txCode = TransactionCodeRequirement(
            inputMode: inputMode, length: try tx.optionalInteger("length"),
            description: try tx.optionalString("description"))
        }
        preAuthorizedCode = PreAuthorizedCodeGrant(
          preAuthorizedCode: try grant.nonEmptyString("pre-authorized_code"), txCode: txCode,
          authorizationServer: try grant.optionalIdentifier("authorization_server", policy))
      }
    }
    try self.init(
      credentialIssuer: issuer, credentialConfigurationIDs: configurationIDs,
      authorizationCode: authorizationCode, preAuthorizedCode: preAuthorizedCode)
  }

  /// Reads an offer object from JSON bytes (the body fetched from a `credential_offer_uri`).
  package init(jsonBytes: some Collection<UInt8>, policy: URLPolicy = .standard)
    throws(OpenID4VCIError)
  {
    try self.init(
      json: parseJSON(jsonBytes, "credential offer", maximumLength: Self.maximumLength),
      policy: policy)
  }

  /// The offer object (OpenID4VCI 1.0 §4.1.1), members in the specification's order.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("credential_issuer", credentialIssuer.string)
    object.set("credential_configuration_ids", strings: credentialConfigurationIDs)
    var grants = ObjectBuilder()
    if let authorizationCode {
      var grant = ObjectBuilder()
      grant.set("issuer_state", authorizationCode.issuerState)
      grant.set("authorization_server", authorizationCode.authorizationServer?.string)
      grants.set(Self.authorizationCodeGrantType, grant.value)
    }
    if let preAuthorizedCode {
      var grant = ObjectBuilder()
      grant.set("pre-authorized_code", preAuthorizedCode.preAuthorizedCode)
      if let tx = preAuthorizedCode.txCode {
        var txObject = ObjectBuilder()
        txObject.set("input_mode", tx.inputMode?.rawValue)
        txObject.set("length", tx.length)
        txObject.set("description", tx.description)
        grant.set("tx_code", txObject.value)
      }
      grant.set("authorization_server", preAuthorizedCode.authorizationServer?.string)
      grants.set(Self.preAuthorizedCodeGrantType, grant.value)
    }
    if !grants.members.isEmpty { object.set("grants", grants.value) }
    return object.value
  }

  /// The offer passed by value: `<scheme>://?credential_offer=<percent-encoded JSON>`
  /// (OpenID4VCI 1.0 §4.1.2).
  public func uri(scheme: CredentialOfferScheme = .openIDCredentialOffer) -> String {
    scheme.rawValue + "://?credential_offer=" + Self.percentEncode(json.serialized())
  }

  /// An offer passed by reference: `<scheme>://?credential_offer_uri=<percent-encoded URL>`
  /// (OpenID4VCI 1.0 §4.1.3).
  package static func uri(
    reference: URL, scheme: CredentialOfferScheme = .openIDCredentialOffer
  ) -> String {
    scheme.rawValue + "://?credential_offer_uri=" + percentEncode(reference.absoluteString)
  }

  /// Reads an offer as a wallet receives it: an offer URI (by value or by reference,
  /// OpenID4VCI 1.0 §4.1.2, §4.1.3) or the offer JSON itself (§4.1.1). Surrounding white space
  /// is ignored.
  public static func parse(_ text: String, policy: URLPolicy = .standard) throws(OpenID4VCIError)
    -> CredentialOfferSource
  {
    guard text.utf8.count <= maximumLength else {
      throw OpenID4VCIError(.invalidOfferURI, "the offer is larger than \(maximumLength) bytes")
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.hasPrefix("{") {
      return .value(try CredentialOffer(jsonBytes: Array(trimmed.utf8), policy: policy))
    }
    guard let colon = trimmed.firstIndex(of: ":"),
      let scheme = CredentialOfferScheme(rawValue: trimmed[..<colon].lowercased())
    else {
      throw OpenID4VCIError(
        .invalidOfferURI,
        "the offer is neither JSON nor an openid-credential-offer:// or haip-vci:// URI")
    }
    let items = try queryParameters(trimmed[trimmed.index(after: colon)...])
    let byValue = items.filter { $0.name == "credential_offer" }
    let byReference = items.filter { $0.name == "credential_offer_uri" }
    // §4.1: the offer "contains a single URI query parameter, either credential_offer or
    // credential_offer_uri".
    guard byValue.count + byReference.count == 1 else {
      throw OpenID4VCIError(
        .invalidOfferURI,
        "the \(scheme.rawValue) URI must carry exactly one credential_offer or "
          + "credential_offer_uri parameter (it has \(byValue.count) and \(byReference.count))")
    }
    if let value = byValue.first {
      guard !value.value.isEmpty else {
        throw OpenID4VCIError(.invalidOfferURI, "credential_offer has no value")
      }
      return .value(try CredentialOffer(jsonBytes: Array(value.value.utf8), policy: policy))
    }
    guard let reference = byReference.first?.value, !reference.isEmpty else {
      throw OpenID4VCIError(.invalidOfferURI, "credential_offer_uri has no value")
    }
    do {
      return .reference(try policy.url(reference, "credential_offer_uri"), scheme: scheme)
    } catch {
      throw OpenID4VCIError(.invalidOfferURI, error.reason, underlying: error)
    }
  }

  /// The query of an offer URI (what follows the scheme's colon), decoded as a form: `+` is a
  /// space and `%XX` a byte (OpenID4VCI 1.0 §4.1.2 sends the offer as a URI query parameter;
  /// RFC 6749 Appendix B and WHATWG URL §5 are how standard libraries encode one).
  static func queryParameters(_ rest: Substring) throws(OpenID4VCIError) -> [(
    name: String, value: String
  )] {
    var rest = rest
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
    do {
      return try FormEncoding.decode(query, maximumFields: FormParameters.maximumCount)
    } catch .duplicate(let name) {
      throw OpenID4VCIError(.invalidOfferURI, "the offer URI repeats \(name.prefix(40))")
    } catch .tooManyFields(let limit) {
      throw OpenID4VCIError(.invalidOfferURI, "the offer URI has over \(limit) parameters")
    } catch {
      throw OpenID4VCIError(.invalidOfferURI, "the offer URI has a malformed percent-encoding")
    }
  }

  static func checkConfigurationIDs(_ ids: [String]) throws(OpenID4VCIError) {
    // §4.1.1: "A non-empty array of unique strings".
    guard !ids.isEmpty else {
      throw OpenID4VCIError(.invalidOffer, "credential_configuration_ids is empty")
    }
    var seen = Set<String>()
    for id in ids {
      guard seen.insert(id).inserted else {
        throw OpenID4VCIError(.invalidOffer, "credential_configuration_ids repeats '\(id)'")
      }
    }
  }

  /// RFC 3986 §2.3 unreserved characters stay; everything else is percent-encoded, so the value
  /// survives any query parser (`+`, `&`, `=`, `#` included).
  static func percentEncode(_ text: String) -> String {
    let unreserved = CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }
}

/// The URI schemes that carry a credential offer to a wallet.
public enum CredentialOfferScheme: String, Sendable, Hashable, CaseIterable {
  /// `openid-credential-offer://` (OpenID4VCI 1.0 §4.1.2, §11.1).
  case openIDCredentialOffer = "openid-credential-offer"
  /// `haip-vci://` (OpenID4VC High Assurance Interoperability Profile 1.0, issuance).
  case haip = "haip-vci"
}

/// What an offer URI or text carries: the offer itself, or where to fetch it.
public enum CredentialOfferSource: Sendable, Hashable {
  /// The offer, passed by value (or given as JSON).
  case value(CredentialOffer)
  /// `credential_offer_uri`: the wallet fetches the offer object there with a GET accepting
  /// `application/json` (OpenID4VCI 1.0 §4.1.3); the issuance client does it when it resolves
  /// the offer.
  case reference(URL, scheme: CredentialOfferScheme)
}

/// The `authorization_code` grant of an offer (OpenID4VCI 1.0 §4.1.1).
public struct AuthorizationCodeGrant: Sendable, Hashable {
  /// `issuer_state`: sent back in the authorization request to bind it to this offer.
  package var issuerState: String?
  /// `authorization_server`: which of the issuer's `authorization_servers` to use.
  public var authorizationServer: IssuerIdentifier?

  /// Creates the grant.
  package init(issuerState: String? = nil, authorizationServer: IssuerIdentifier? = nil) {
    self.issuerState = issuerState
    self.authorizationServer = authorizationServer
  }
}

/// The pre-authorized code grant of an offer (OpenID4VCI 1.0 §4.1.1).
public struct PreAuthorizedCodeGrant: Sendable, Hashable {
  /// `pre-authorized_code`: short lived and single use; sent in the token request.
  package var preAuthorizedCode: String
  /// `tx_code`: present when a transaction code is required, even when empty.
  public var txCode: TransactionCodeRequirement?
  /// `authorization_server`: which of the issuer's `authorization_servers` to use.
  public var authorizationServer: IssuerIdentifier?

  /// Creates the grant; an empty code or a bad `tx_code` is refused when the offer is made.
  package init(
    preAuthorizedCode: String, txCode: TransactionCodeRequirement? = nil,
    authorizationServer: IssuerIdentifier? = nil
  ) {
    self.preAuthorizedCode = preAuthorizedCode
    self.txCode = txCode
    self.authorizationServer = authorizationServer
  }

  func check() throws(OpenID4VCIError) {
    guard !preAuthorizedCode.isEmpty else {
      throw OpenID4VCIError(.invalidOffer, "pre-authorized_code is empty")
    }
    try txCode?.check()
  }
}

/// What the authorization server expects of a transaction code (OpenID4VCI 1.0 §4.1.1
/// `tx_code`).
public struct TransactionCodeRequirement: Sendable, Hashable {
  /// The character set of a transaction code.
  public enum InputMode: String, Sendable, Hashable, CaseIterable {
    /// Digits only; the default.
    case numeric
    /// Any characters.
    case text
  }

  /// `input_mode` as written; nil when absent (which means ``InputMode/numeric``).
  public var inputMode: InputMode?
  /// `length`: the code's length, to render the input screen.
  public var length: Int?
  /// `description`: how to obtain the code; at most 300 characters.
  public var description: String?

  /// The most characters `description` may have (§4.1.1).
  package static let maximumDescriptionLength = 300

  /// Creates a requirement; an empty one says only that a code is required.
  package init(inputMode: InputMode? = nil, length: Int? = nil, description: String? = nil) {
    self.inputMode = inputMode
    self.length = length
    self.description = description
  }

  /// The input mode in force: `input_mode`, or numeric by default.
  package var effectiveInputMode: InputMode { inputMode ?? .numeric }

  /// Whether `code` fits this requirement (§4.1.1): only the digits 0-9 when the input mode in
  /// force is ``InputMode/numeric``, and exactly `length` characters when `length` is given.
  package func accepts(_ code: String) -> Bool {
    if effectiveInputMode == .numeric,
      !code.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
    {
      return false
    }
    if let length, code.count != length { return false }
    return true
  }

  func check() throws(OpenID4VCIError) {
    if let length, length < 1 {
      throw OpenID4VCIError(.invalidOffer, "tx_code length \(length) is not positive")
    }
    if let description, description.count > Self.maximumDescriptionLength {
      throw OpenID4VCIError(
        .invalidOffer,
        "tx_code description has \(description.count) characters, more than "
          + "\(Self.maximumDescriptionLength)")
    }
  }
}
