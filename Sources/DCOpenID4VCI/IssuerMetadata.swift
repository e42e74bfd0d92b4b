import DCEncoding
import DCJOSE
package import DCJSON
package import Foundation

/// Credential issuer metadata (OpenID4VCI 1.0 §12.2.4), read and checked; unknown members are
/// ignored. A wallet gets it checked for its issuer from the issuance client; an issuer
/// publishes its own from its configuration.
public struct CredentialIssuerMetadata: Sendable, Hashable {
  /// `credential_issuer`.
  public var credentialIssuer: IssuerIdentifier
  /// `authorization_servers`; empty when absent, which means the issuer is its own
  /// authorization server (OpenID4VCI 1.0 §12.2.4).
  package var authorizationServers: [IssuerIdentifier]
  /// `credential_endpoint` (https; may have a port, path and query).
  package var credentialEndpoint: URL
  /// `nonce_endpoint`; absent when the issuer does not use `c_nonce`.
  package var nonceEndpoint: URL?
  /// `deferred_credential_endpoint`.
  package var deferredCredentialEndpoint: URL?
  /// `notification_endpoint`.
  package var notificationEndpoint: URL?
  /// `credential_response_encryption`.
  package var credentialResponseEncryption: CredentialResponseEncryptionMetadata?
  /// `batch_credential_issuance.batch_size`: the most proofs in one credential request (≥ 2).
  package var batchSize: Int?
  /// `display`: the issuer's name and logo per language.
  public var display: [IssuerDisplay]
  /// `credential_configurations_supported`, in the order written.
  public var credentialConfigurations: [CredentialConfiguration]
  /// `mdoc_iacas_uri` (this project's issuer contract, issue 13): where the issuer publishes the
  /// IACAs it signs mdocs under, as `{"iacas": [{"certificate": "<base64 DER>"}]}`.
  package var mdocIACAsURI: URL?
  /// `signed_metadata` (OpenID4VCI drafts 13–15), when present; verify it with
  /// ``SignedIssuerMetadata/verify(trustAnchors:at:expectedIssuer:policies:urlPolicy:)``.
  package var signedMetadata: SignedIssuerMetadata?
  /// The registration certificates of `issuer_info` (ETSI TS 119 472-3 §4.2.3: entries
  /// `{"format": "registration_cert", "data": ...}`; ETSI TS 119 475 certificates), as bytes: a
  /// JWT's text, or a CWT from base64url. Entries of other formats are skipped.
  package var registrationCertificates: [[UInt8]] = []

  /// The most bytes of a metadata document this module reads.
  package static let maximumLength = 1 << 20

  /// Creates metadata (the issuer side publishes it with ``json``).
  package init(
    credentialIssuer: IssuerIdentifier, authorizationServers: [IssuerIdentifier] = [],
    credentialEndpoint: URL, nonceEndpoint: URL? = nil, deferredCredentialEndpoint: URL? = nil,
    notificationEndpoint: URL? = nil,
    credentialResponseEncryption: CredentialResponseEncryptionMetadata? = nil,
    batchSize: Int? = nil, display: [IssuerDisplay] = [],
    credentialConfigurations: [CredentialConfiguration], mdocIACAsURI: URL? = nil
  ) {
    self.credentialIssuer = credentialIssuer
    self.authorizationServers = authorizationServers
    self.credentialEndpoint = credentialEndpoint
    self.nonceEndpoint = nonceEndpoint
    self.deferredCredentialEndpoint = deferredCredentialEndpoint
    self.notificationEndpoint = notificationEndpoint
    self.credentialResponseEncryption = credentialResponseEncryption
    self.batchSize = batchSize
    self.display = display
    self.credentialConfigurations = credentialConfigurations
    self.mdocIACAsURI = mdocIACAsURI
  }

  /// Reads metadata from JSON bytes.
  package init(jsonBytes: some Collection<UInt8>, policy: URLPolicy = .standard)
    throws(OpenID4VCIError)
  {
    try self.init(
      json: parseJSON(
        jsonBytes, "credential issuer metadata", maximumLength: Self.maximumLength),
      policy: policy)
  }

  /// Reads a metadata object (OpenID4VCI 1.0 §12.2.4).
  package init(json: JSONValue, policy: URLPolicy = .standard) throws(OpenID4VCIError) {
    let fields = try Fields(json, "credential issuer metadata", .invalidMetadata)
    credentialIssuer = try fields.identifier("credential_issuer", policy)
    authorizationServers = try Self.readAuthorizationServers(fields, policy)
    credentialEndpoint = try fields.url("credential_endpoint", policy)
    nonceEndpoint = try fields.optionalURL("nonce_endpoint", policy)
    deferredCredentialEndpoint = try fields.optionalURL("deferred_credential_endpoint", policy)
    notificationEndpoint = try fields.optionalURL("notification_endpoint", policy)
    credentialResponseEncryption = try fields.optionalObject("credential_response_encryption").map {
      (encryption) throws(OpenID4VCIError) in
      try CredentialResponseEncryptionMetadata(encryption)
    }
    batchSize = try Self.readBatchSize(fields)
    var display: [IssuerDisplay] = []
    for entry in try fields.optionalObjects("display") ?? [] {
      display.append(
        IssuerDisplay(
          name: try entry.optionalString("name"), locale: try entry.optionalString("locale"),
          logo: try entry.optionalObject("logo").map { (logo) throws(OpenID4VCIError) in
            try DisplayImage(logo)
          }))
    }
    try checkUniqueLocales(display.map(\.locale), fields)
    self.display = display
    credentialConfigurations = try Self.readConfigurations(fields)
    mdocIACAsURI = try fields.optionalURL("mdoc_iacas_uri", policy)
    if let signed = try fields.optionalString("signed_metadata") {
      do {
        signedMetadata = try SignedIssuerMetadata(compact: signed)
      } catch {
        throw OpenID4VCIError(
          .invalidMetadata, "signed_metadata: \(error.reason)", underlying: error)
      }
    } else {
      signedMetadata = nil
    }
    registrationCertificates = try Self.readIssuerInfo(fields)
  }

  /// `issuer_info`: at most 16 entries, each an object with a string `format`.
  private static func readIssuerInfo(_ fields: Fields) throws(OpenID4VCIError) -> [[UInt8]] {
    guard let entries = try fields.optionalObjects("issuer_info") else { return [] }
    guard entries.count <= 16 else { throw fields.fail("issuer_info has more than 16 entries") }
    var certificates: [[UInt8]] = []
    for entry in entries {
      guard try entry.optionalString("format") == "registration_cert" else { continue }
      guard let data = try entry.optionalString("data") else {
        throw fields.fail("an issuer_info registration_cert needs a string data")
      }
      let isJWT = data.utf8.filter { $0 == UInt8(ascii: ".") }.count == 2
      certificates.append(
        isJWT ? Array(data.utf8) : (try? Base64URL.decode(data)) ?? Array(data.utf8))
    }
    return certificates
  }

  /// `authorization_servers`: unique issuer identifiers.
  private static func readAuthorizationServers(_ fields: Fields, _ policy: URLPolicy)
    throws(OpenID4VCIError) -> [IssuerIdentifier]
  {
    var servers: [IssuerIdentifier] = []
    for text in try fields.optionalStrings("authorization_servers", unique: true) ?? [] {
      do {
        servers.append(try IssuerIdentifier(text, policy: policy))
      } catch {
        throw OpenID4VCIError(
          .invalidMetadata, "authorization_servers: \(error.reason)", underlying: error)
      }
    }
    return servers
  }

  /// `batch_credential_issuance.batch_size`, when batches are offered.
  private static func readBatchSize(_ fields: Fields) throws(OpenID4VCIError) -> Int? {
    guard let batch = try fields.optionalObject("batch_credential_issuance") else { return nil }
    guard let size = try batch.optionalInteger("batch_size") else {
      throw batch.fail("batch_size is missing")
    }
    // §12.2.4: "It MUST be 2 or greater."
    guard size >= 2 else { throw batch.fail("batch_size \(size) is less than 2") }
    return size
  }

  /// `credential_configurations_supported`, required, in the order of the object's members.
  private static func readConfigurations(_ fields: Fields) throws(OpenID4VCIError)
    -> [CredentialConfiguration]
  {
    guard let configurations = try fields.optionalObject("credential_configurations_supported"),
      case .object(let members) = configurations.object
    else { throw fields.fail("credential_configurations_supported is missing") }
    var parsed: [CredentialConfiguration] = []
    for (id, value) in members {
      parsed.append(
        try CredentialConfiguration(
          id: id,
          Fields(value, "credential_configurations_supported.\(id)", .invalidMetadata)))
    }
    return parsed
  }

  /// The metadata when its `credential_issuer` is exactly `expected`, the identifier whose
  /// well-known URL was fetched; compared as strings with no normalisation (OpenID4VCI 1.0
  /// §12.2.4: otherwise "the data contained in the response MUST NOT be used").
  package func validated(for expected: IssuerIdentifier) throws(OpenID4VCIError) -> Self {
    guard credentialIssuer.string == expected.string else {
      throw OpenID4VCIError(
        .issuerMismatch,
        "metadata names credential_issuer '\(credentialIssuer)' but was fetched for '\(expected)'")
    }
    return self
  }

  /// The authorization servers to use: `authorization_servers`, or the issuer itself when
  /// absent (§12.2.4).
  package var authorizationServerIdentifiers: [IssuerIdentifier] {
    authorizationServers.isEmpty ? [credentialIssuer] : authorizationServers
  }

  /// The authorization server for a grant: the offer's `authorization_server` hint, which must be
  /// one of `authorization_servers` (§4.1.1, §12.2.4), or else the first one.
  package func authorizationServer(hint: IssuerIdentifier?) throws(OpenID4VCIError)
    -> IssuerIdentifier
  {
    guard let hint else { return authorizationServerIdentifiers[0] }
    guard authorizationServers.contains(where: { $0.string == hint.string }) else {
      throw OpenID4VCIError(
        .issuerMismatch,
        "the offer's authorization_server '\(hint)' is not in the issuer's authorization_servers")
    }
    return hint
  }

  /// The configuration with this id.
  package func configuration(id: String) -> CredentialConfiguration? {
    credentialConfigurations.first { $0.id == id }
  }

  /// The metadata object (§12.2.4), as the issuer publishes it.
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("credential_issuer", credentialIssuer.string)
    object.set(
      "authorization_servers",
      strings: authorizationServers.isEmpty ? nil : authorizationServers.map(\.string))
    object.set("credential_endpoint", credentialEndpoint.absoluteString)
    object.set("nonce_endpoint", nonceEndpoint?.absoluteString)
    object.set("deferred_credential_endpoint", deferredCredentialEndpoint?.absoluteString)
    object.set("notification_endpoint", notificationEndpoint?.absoluteString)
    object.set("credential_response_encryption", credentialResponseEncryption?.json)
    object.set(
      "batch_credential_issuance",
      batchSize.map { JSONValue.object([("batch_size", .integer(Int64($0)))]) })
    object.set("display", display.isEmpty ? nil : JSONValue.array(display.map(\.json)))
    object.set(
      "credential_configurations_supported",
      JSONValue.object(credentialConfigurations.map { ($0.id, $0.json) }))
    object.set("mdoc_iacas_uri", mdocIACAsURI?.absoluteString)
    object.set("signed_metadata", signedMetadata?.jws.compactSerialization)
    object.set(
      "issuer_info",
      registrationCertificates.isEmpty
        ? nil
        : JSONValue.array(
          registrationCertificates.map { certificate in
            let isJWT =
              certificate.allSatisfy { $0 < 0x80 }
              && certificate.filter { $0 == UInt8(ascii: ".") }.count == 2
            let data =
              isJWT ? String(decoding: certificate, as: UTF8.self) : Base64URL.encode(certificate)
            return ["format": "registration_cert", "data": .string(data)]
          }))
    return object.value
  }
}

/// §12.2.4 `display`: "There MUST be only one object for each language identifier."
func checkUniqueLocales(_ locales: [String?], _ fields: Fields) throws(OpenID4VCIError) {
  var seen = Set<String?>()
  for locale in locales where !seen.insert(locale).inserted {
    throw fields.fail("display has two entries for locale '\(locale ?? "(none)")'")
  }
}

/// `credential_response_encryption` (OpenID4VCI 1.0 §12.2.4).
package struct CredentialResponseEncryptionMetadata: Sendable, Hashable {
  /// `alg_values_supported`: JWE `alg` values (non-empty).
  package var algorithms: [String]
  /// `enc_values_supported`: JWE `enc` values (non-empty).
  package var encryptionMethods: [String]
  /// `zip_values_supported`: JWE `zip` values; nil when compression is not supported.
  package var compressionAlgorithms: [String]?
  /// `encryption_required`: whether every credential response must be encrypted.
  package var encryptionRequired: Bool

  /// Creates the object.
  package init(
    algorithms: [String], encryptionMethods: [String], compressionAlgorithms: [String]? = nil,
    encryptionRequired: Bool
  ) {
    self.algorithms = algorithms
    self.encryptionMethods = encryptionMethods
    self.compressionAlgorithms = compressionAlgorithms
    self.encryptionRequired = encryptionRequired
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    guard let algorithms = try fields.optionalStrings("alg_values_supported") else {
      throw fields.fail("alg_values_supported is missing")
    }
    guard let methods = try fields.optionalStrings("enc_values_supported") else {
      throw fields.fail("enc_values_supported is missing")
    }
    guard let required = try fields.optionalBool("encryption_required") else {
      throw fields.fail("encryption_required is missing")
    }
    self.init(
      algorithms: algorithms, encryptionMethods: methods,
      compressionAlgorithms: try fields.optionalStrings("zip_values_supported"),
      encryptionRequired: required)
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("alg_values_supported", strings: algorithms)
    object.set("enc_values_supported", strings: encryptionMethods)
    object.set("zip_values_supported", strings: compressionAlgorithms)
    object.set("encryption_required", encryptionRequired)
    return object.value
  }
}

/// A `logo` or `background_image` object: a URI (any scheme, `https:` or `data:`) and
/// optional alternative text (OpenID4VCI 1.0 §12.2.4).
public struct DisplayImage: Sendable, Hashable {
  /// `uri`: where the wallet gets the image; the wallet decides whether to fetch it.
  public var uri: String
  /// `alt_text`.
  public var altText: String?

  /// Creates the object.
  public init(uri: String, altText: String? = nil) {
    self.uri = uri
    self.altText = altText
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    self.init(uri: try fields.nonEmptyString("uri"), altText: try fields.optionalString("alt_text"))
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("uri", uri)
    object.set("alt_text", altText)
    return object.value
  }
}

/// One entry of the issuer's `display` (OpenID4VCI 1.0 §12.2.4).
public struct IssuerDisplay: Sendable, Hashable {
  /// `name`.
  public var name: String?
  /// `locale`: a BCP 47 language tag.
  public var locale: String?
  /// `logo`.
  public var logo: DisplayImage?

  /// Creates the entry.
  public init(name: String? = nil, locale: String? = nil, logo: DisplayImage? = nil) {
    self.name = name
    self.locale = locale
    self.logo = logo
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("name", name)
    object.set("locale", locale)
    object.set("logo", logo?.json)
    return object.value
  }
}
