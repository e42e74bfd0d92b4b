import DCJSON

/// One entry of `credential_configurations_supported` (OpenID4VCI 1.0 §12.2.4, Appendix A).
public struct CredentialConfiguration: Sendable, Hashable {
  /// The entry's key: what offers name in `credential_configuration_ids`.
  public var id: String
  /// `format` with its type: `doctype` for `mso_mdoc`, `vct` for `dc+sd-jwt`.
  public var format: CredentialFormat
  /// `scope`.
  package var scope: String?
  /// `cryptographic_binding_methods_supported` (`jwk`, `cose_key`, `did:…`); empty when the
  /// credential is not key-bound.
  package var bindingMethods: [String]
  /// `credential_signing_alg_values_supported`: JOSE names for `dc+sd-jwt`, COSE algorithm
  /// numbers for `mso_mdoc` (Appendix A.2.2, A.3.2).
  package var signingAlgorithms: [CredentialSigningAlgorithm]
  /// `proof_types_supported`, in the order written.
  package var proofTypes: [ProofTypeMetadata]
  /// `credential_metadata.display`.
  public var display: [CredentialDisplay]
  /// `credential_metadata.claims`.
  public var claims: [ClaimDescription]

  /// Creates a configuration.
  package init(
    id: String, format: CredentialFormat, scope: String? = nil, bindingMethods: [String] = [],
    signingAlgorithms: [CredentialSigningAlgorithm] = [], proofTypes: [ProofTypeMetadata] = [],
    display: [CredentialDisplay] = [], claims: [ClaimDescription] = []
  ) {
    self.id = id
    self.format = format
    self.scope = scope
    self.bindingMethods = bindingMethods
    self.signingAlgorithms = signingAlgorithms
    self.proofTypes = proofTypes
    self.display = display
    self.claims = claims
  }

  /// `credential_signing_alg_values_supported`: JOSE names or COSE numbers, non-empty when
  /// present.
  private static func readSigningAlgorithms(_ fields: Fields) throws(OpenID4VCIError)
    -> [CredentialSigningAlgorithm]
  {
    var algorithms: [CredentialSigningAlgorithm] = []
    if let values = fields.object["credential_signing_alg_values_supported"] {
      guard let array = values.array, !array.isEmpty else {
        throw fields.fail("credential_signing_alg_values_supported is not a non-empty array")
      }
      for value in array {
        switch value {
        case .string(let name): algorithms.append(.jose(name))
        case .integer(let number) where Int(exactly: number) != nil:
          algorithms.append(.cose(Int(number)))
        default:
          throw fields.fail("credential_signing_alg_values_supported holds a non-identifier")
        }
      }
    }
    return algorithms
  }

  /// `proof_types_supported`, by proof type name.
  private static func readProofTypes(_ fields: Fields) throws(OpenID4VCIError)
    -> [ProofTypeMetadata]
  {
    var proofTypes: [ProofTypeMetadata] = []
    if let proofs = try fields.optionalObject("proof_types_supported"),
      case .object(let members) = proofs.object
    {
      for (name, value) in members {
        proofTypes.append(
          try ProofTypeMetadata(name: name, Fields(value, "\(proofs.context).\(name)", fields.code))
        )
      }
    }
    return proofTypes
  }

  /// The proof type named `name` (`jwt`, `attestation`), when supported.
  package func proofType(_ name: String) -> ProofTypeMetadata? {
    proofTypes.first { $0.name == name }
  }

  init(id: String, _ fields: Fields) throws(OpenID4VCIError) {
    let formatName = try fields.nonEmptyString("format")
    switch formatName {
    case CredentialFormat.msoMdocName:
      format = .msoMdoc(doctype: try fields.nonEmptyString("doctype"))
    case CredentialFormat.sdJWTVCName:
      format = .sdJWTVC(vct: try fields.nonEmptyString("vct"))
    default:
      format = .other(formatName)
    }
    self.id = id
    scope = try fields.optionalString("scope")
    bindingMethods = try fields.optionalStrings("cryptographic_binding_methods_supported") ?? []
    signingAlgorithms = try Self.readSigningAlgorithms(fields)
    proofTypes = try Self.readProofTypes(fields)
    var display: [CredentialDisplay] = []
    var claims: [ClaimDescription] = []
    if let metadata = try fields.optionalObject("credential_metadata") {
      for entry in try metadata.optionalObjects("display") ?? [] {
        display.append(try CredentialDisplay(entry))
      }
      try checkUniqueLocales(display.map(\.locale), metadata)
      for entry in try metadata.optionalObjects("claims") ?? [] {
        claims.append(try ClaimDescription(entry))
      }
    }
    self.display = display
    self.claims = claims
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("format", format.name)
    switch format {
    case .msoMdoc(let doctype): object.set("doctype", doctype)
    case .sdJWTVC(let vct): object.set("vct", vct)
    case .other: break
    }
    object.set("scope", scope)
    object.set(
      "cryptographic_binding_methods_supported",
      strings: bindingMethods.isEmpty ? nil : bindingMethods)
    object.set(
      "credential_signing_alg_values_supported",
      signingAlgorithms.isEmpty ? nil : JSONValue.array(signingAlgorithms.map(\.json)))
    object.set(
      "proof_types_supported",
      proofTypes.isEmpty ? nil : JSONValue.object(proofTypes.map { ($0.name, $0.json) }))
    var metadata = ObjectBuilder()
    metadata.set("display", display.isEmpty ? nil : JSONValue.array(display.map(\.json)))
    metadata.set("claims", claims.isEmpty ? nil : JSONValue.array(claims.map(\.json)))
    if !metadata.members.isEmpty { object.set("credential_metadata", metadata.value) }
    return object.value
  }
}

/// A credential format with the type it names (OpenID4VCI 1.0 Appendix A).
public enum CredentialFormat: Sendable, Hashable {
  /// `mso_mdoc` with its `doctype` (Appendix A.2).
  case msoMdoc(doctype: String)
  /// `dc+sd-jwt` with its `vct` (Appendix A.3).
  case sdJWTVC(vct: String)
  /// Any other format, kept by name so that a wallet can skip it.
  case other(String)

  static let msoMdocName = "mso_mdoc"
  static let sdJWTVCName = "dc+sd-jwt"

  /// The `format` string.
  public var name: String {
    switch self {
    case .msoMdoc: Self.msoMdocName
    case .sdJWTVC: Self.sdJWTVCName
    case .other(let name): name
    }
  }
}

/// One `credential_signing_alg_values_supported` value.
package enum CredentialSigningAlgorithm: Sendable, Hashable {
  /// A JOSE algorithm name, as for `dc+sd-jwt` (Appendix A.3.2).
  case jose(String)
  /// A COSE algorithm number, as for `mso_mdoc` (Appendix A.2.2; `-7` is ES256).
  case cose(Int)

  var json: JSONValue {
    switch self {
    case .jose(let name): .string(name)
    case .cose(let number): .integer(Int64(number))
    }
  }
}

/// One entry of `proof_types_supported` (OpenID4VCI 1.0 §12.2.4).
package struct ProofTypeMetadata: Sendable, Hashable {
  /// The proof type: `jwt`, `di_vp`, `attestation` (Appendix F).
  package var name: String
  /// `proof_signing_alg_values_supported` (non-empty).
  package var signingAlgorithms: [String]
  /// `key_attestations_required`: nil when no key attestation is required.
  package var keyAttestationsRequired: KeyAttestationRequirement?

  /// Creates the entry.
  package init(
    name: String, signingAlgorithms: [String],
    keyAttestationsRequired: KeyAttestationRequirement? = nil
  ) {
    self.name = name
    self.signingAlgorithms = signingAlgorithms
    self.keyAttestationsRequired = keyAttestationsRequired
  }

  init(name: String, _ fields: Fields) throws(OpenID4VCIError) {
    guard let algorithms = try fields.optionalStrings("proof_signing_alg_values_supported") else {
      throw fields.fail("proof_signing_alg_values_supported is missing")
    }
    var requirement: KeyAttestationRequirement?
    if let required = try fields.optionalObject("key_attestations_required") {
      requirement = KeyAttestationRequirement(
        keyStorage: try required.optionalStrings("key_storage"),
        userAuthentication: try required.optionalStrings("user_authentication"))
    }
    self.init(name: name, signingAlgorithms: algorithms, keyAttestationsRequired: requirement)
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("proof_signing_alg_values_supported", strings: signingAlgorithms)
    if let keyAttestationsRequired {
      var required = ObjectBuilder()
      required.set("key_storage", strings: keyAttestationsRequired.keyStorage)
      required.set("user_authentication", strings: keyAttestationsRequired.userAuthentication)
      object.set("key_attestations_required", required.value)
    }
    return object.value
  }
}

/// `key_attestations_required` (OpenID4VCI 1.0 §12.2.4, Appendix D.2): the attack potential
/// resistance levels the issuer accepts; both nil means any key attestation.
package struct KeyAttestationRequirement: Sendable, Hashable {
  /// `key_storage`, e.g. `iso_18045_moderate`.
  package var keyStorage: [String]?
  /// `user_authentication`.
  package var userAuthentication: [String]?

  /// Creates the requirement.
  package init(keyStorage: [String]? = nil, userAuthentication: [String]? = nil) {
    self.keyStorage = keyStorage
    self.userAuthentication = userAuthentication
  }
}

/// One entry of `credential_metadata.display` (OpenID4VCI 1.0 §12.2.4).
public struct CredentialDisplay: Sendable, Hashable {
  /// `name` (required).
  public var name: String
  /// `locale`.
  public var locale: String?
  /// `logo`.
  public var logo: DisplayImage?
  /// `description`.
  public var description: String?
  /// `background_color` (CSS colour).
  public var backgroundColor: String?
  /// `background_image`.
  public var backgroundImage: DisplayImage?
  /// `text_color` (CSS colour).
  public var textColor: String?

  /// Creates the entry.
  public init(
    name: String, locale: String? = nil, logo: DisplayImage? = nil, description: String? = nil,
    backgroundColor: String? = nil, backgroundImage: DisplayImage? = nil, textColor: String? = nil
  ) {
    self.name = name
    self.locale = locale
    self.logo = logo
    self.description = description
    self.backgroundColor = backgroundColor
    self.backgroundImage = backgroundImage
    self.textColor = textColor
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    self.init(
      name: try fields.string("name"), locale: try fields.optionalString("locale"),
      logo: try fields.optionalObject("logo").map { (logo) throws(OpenID4VCIError) in
        try DisplayImage(logo)
      },
      description: try fields.optionalString("description"),
      backgroundColor: try fields.optionalString("background_color"),
      backgroundImage: try fields.optionalObject("background_image").map {
        (image) throws(OpenID4VCIError) in try DisplayImage(image)
      },
      textColor: try fields.optionalString("text_color"))
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set("name", name)
    object.set("locale", locale)
    object.set("logo", logo?.json)
    object.set("description", description)
    object.set("background_color", backgroundColor)
    object.set("background_image", backgroundImage?.json)
    object.set("text_color", textColor)
    return object.value
  }
}

/// A claims description in issuer metadata (OpenID4VCI 1.0 Appendix B.2): a claims path
/// pointer, whether the claim is always present, and its display names.
public struct ClaimDescription: Sendable, Hashable {
  /// One step of a claims path pointer (OpenID4VCI 1.0 Appendix C, OpenID4VP 1.0 §7).
  public enum PathElement: Sendable, Hashable {
    /// An object member name.
    case key(String)
    /// A non-negative array index.
    case index(Int)
    /// `null`: every element of an array.
    case allElements
  }

  /// `path` (non-empty).
  public var path: [PathElement]
  /// `mandatory`; nil when absent (which means false).
  package var mandatory: Bool?
  /// `display`: the claim's name per language.
  public var display: [ClaimDisplay]

  /// Creates the description.
  public init(path: [PathElement], mandatory: Bool? = nil, display: [ClaimDisplay] = []) {
    self.path = path
    self.mandatory = mandatory
    self.display = display
  }

  init(_ fields: Fields) throws(OpenID4VCIError) {
    guard let elements = fields.object["path"]?.array, !elements.isEmpty else {
      throw fields.fail("path is missing or not a non-empty array")
    }
    var path: [PathElement] = []
    for element in elements {
      switch element {
      case .string(let key): path.append(.key(key))
      case .integer(let index) where index >= 0 && Int(exactly: index) != nil:
        path.append(.index(Int(index)))
      case .null: path.append(.allElements)
      default: throw fields.fail("path holds something other than a string, index or null")
      }
    }
    var display: [ClaimDisplay] = []
    for entry in try fields.optionalObjects("display") ?? [] {
      display.append(
        ClaimDisplay(
          name: try entry.optionalString("name"), locale: try entry.optionalString("locale")))
    }
    try checkUniqueLocales(display.map(\.locale), fields)
    self.init(path: path, mandatory: try fields.optionalBool("mandatory"), display: display)
  }

  var json: JSONValue {
    var object = ObjectBuilder()
    object.set(
      "path",
      JSONValue.array(
        path.map {
          switch $0 {
          case .key(let key): .string(key)
          case .index(let index): .integer(Int64(index))
          case .allElements: .null
          }
        }))
    object.set("mandatory", mandatory)
    object.set(
      "display",
      display.isEmpty
        ? nil
        : JSONValue.array(
          display.map {
            var entry = ObjectBuilder()
            entry.set("name", $0.name)
            entry.set("locale", $0.locale)
            return entry.value
          }))
    return object.value
  }
}

/// One entry of a claim's `display` (OpenID4VCI 1.0 Appendix B.2).
public struct ClaimDisplay: Sendable, Hashable {
  /// `name`.
  public var name: String?
  /// `locale`.
  public var locale: String?

  /// Creates the entry.
  public init(name: String? = nil, locale: String? = nil) {
    self.name = name
    self.locale = locale
  }
}
