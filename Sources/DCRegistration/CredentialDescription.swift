import DCErrors
public import Foundation

/// One credential as a wallet registers it with the platform credential pickers, the single input
/// of both `IOSRegistrationPlan` and `AndroidRegistry`.
///
/// iOS registers only the id, the document type and the `ios` options
/// (`MobileDocumentRegistration`, IdentityDocumentServices); Android's matchers also need the
/// display and the claim values (wire-formats.md, "Android Credential Manager registry data").
public struct CredentialDescription: Sendable, Hashable {
  /// The wallet's identifier of the credential: the iOS `documentIdentifier` and the Android
  /// `documentId` / entry `id`, returned by the platform when the user picks it.
  public var id: String
  /// What the picker shows.
  public var display: CredentialDisplayInfo
  /// The credential's format, type and claims.
  public var credential: RegisteredCredential
  /// Options only iOS uses.
  package var ios: IOSRegistrationOptions
  /// Options only Android uses.
  package var android: AndroidRegistrationOptions

  /// Creates a description; options default to "no gates, no expiry".
  public init(
    id: String,
    display: CredentialDisplayInfo,
    credential: RegisteredCredential,
    ios: IOSRegistrationOptions = IOSRegistrationOptions(),
    android: AndroidRegistrationOptions = AndroidRegistrationOptions()
  ) {
    self.id = id
    self.display = display
    self.credential = credential
    self.ios = ios
    self.android = android
  }
}

/// What a credential picker shows for one credential (wire-formats.md: multipaz `title`,
/// `subtitle`, `bitmap`; CMWallet `title`, `subtitle`, `icon`).
public struct CredentialDisplayInfo: Sendable, Hashable {
  /// The main line, for example "Driving Licence".
  public var title: String
  /// The second line, for example the holder's name or the issuer.
  package var subtitle: String
  /// The icon as encoded image bytes (PNG or JPEG), or nil for none.
  package var icon: [UInt8]?

  /// Creates display information.
  public init(title: String, subtitle: String = "", icon: [UInt8]? = nil) {
    self.title = title
    self.subtitle = subtitle
    self.icon = icon
  }
}

/// The credential itself, as far as registration needs it: format, type and claims.
///
/// Claims are keyed, so a claim can be named only once; the registries write them in a sorted
/// order, so the order a wallet gathers them in never changes the registered bytes.
public enum RegisteredCredential: Sendable, Hashable {
  /// An ISO/IEC 18013-5 mdoc (`mso_mdoc`): its docType and element values by namespace and
  /// element identifier.
  case mdoc(docType: String, nameSpaces: [String: [String: RegisteredClaim]])
  /// An SD-JWT VC (`dc+sd-jwt`): its `vct` and its claims by path (OpenID4VP 1.0 §7), for example
  /// `["address", "locality"]`.
  case sdJWT(vct: String, claims: [[String]: RegisteredClaim])

  /// The mdoc docType or the SD-JWT VC `vct`.
  public var type: String {
    switch self {
    case .mdoc(let docType, _): docType
    case .sdJWT(let vct, _): vct
    }
  }
}

/// Options that only the iOS registration uses (IdentityDocumentServices,
/// `MobileDocumentRegistration` and `VerifiableCredentialRegistration`).
public struct IOSRegistrationOptions: Sendable, Hashable {
  /// Reader gate: AKIs of the reader roots whose requests the OS offers this credential to; empty
  /// offers it to every request (iOS 26.0).
  public var supportedAuthorityKeyIdentifiers: [KeyIdentifier]
  /// Key identifiers of the credential's issuer, matched against a request's
  /// `issuerKeyIdentifiers` (iOS 27.0; dropped with a warning on 26.x).
  public var supportedIssuerKeyIdentifiers: [KeyIdentifier]
  /// When the OS stops offering the credential; must be in the future when planned.
  public var invalidationDate: Date?

  /// Creates iOS options; the defaults gate nothing and never expire.
  public init(
    supportedAuthorityKeyIdentifiers: [KeyIdentifier] = [],
    supportedIssuerKeyIdentifiers: [KeyIdentifier] = [],
    invalidationDate: Date? = nil
  ) {
    self.supportedAuthorityKeyIdentifiers = supportedAuthorityKeyIdentifiers
    self.supportedIssuerKeyIdentifiers = supportedIssuerKeyIdentifiers
    self.invalidationDate = invalidationDate
  }
}

/// Options that only the Android registry uses (wire-formats.md, "multipaz matcher":
/// `issuerIdentifiers`, `readerIdentifiers`).
public struct AndroidRegistrationOptions: Sendable, Hashable {
  /// AKIs of every certificate in the credential's issuer chain, so verifiers that name accepted
  /// issuers (DCQL `trusted_authorities` of type `aki`) can match it. Only multipaz uses them;
  /// the other matchers ignore issuer constraints and they are left out.
  public var issuerAuthorityKeyIdentifiers: [KeyIdentifier]
  /// Reader gate: AKIs of the reader roots whose requests may match; empty matches every request.
  /// Only multipaz can gate; with the other matchers a non-empty gate is an error.
  public var supportedAuthorityKeyIdentifiers: [KeyIdentifier]

  /// Creates Android options; the defaults gate nothing.
  public init(
    issuerAuthorityKeyIdentifiers: [KeyIdentifier] = [],
    supportedAuthorityKeyIdentifiers: [KeyIdentifier] = []
  ) {
    self.issuerAuthorityKeyIdentifiers = issuerAuthorityKeyIdentifiers
    self.supportedAuthorityKeyIdentifiers = supportedAuthorityKeyIdentifiers
  }
}

extension CredentialDescription {
  /// Checks what both platforms need: a non-empty id and type, non-empty namespaces, element
  /// identifiers and claim path components.
  func validateCommon() throws(RegistrationError) {
    guard !id.isEmpty else {
      throw RegistrationError(.invalidDescription, "the credential id is empty")
    }
    switch credential {
    case .mdoc(let docType, let nameSpaces):
      guard !docType.isEmpty else {
        throw RegistrationError(.invalidDescription, "the docType is empty", credentialID: id)
      }
      for (nameSpace, elements) in nameSpaces {
        guard !nameSpace.isEmpty, !elements.keys.contains("") else {
          throw RegistrationError(
            .invalidDescription, "empty namespace or element identifier in '\(nameSpace)'",
            credentialID: id)
        }
      }
    case .sdJWT(let vct, let claims):
      guard !vct.isEmpty else {
        throw RegistrationError(.invalidDescription, "the vct is empty", credentialID: id)
      }
      for path in claims.keys where path.isEmpty || path.contains("") {
        throw RegistrationError(
          .invalidClaimPath, "claim path \(path) has an empty component", credentialID: id)
      }
    }
  }
}

extension [CredentialDescription] {
  /// Validates every description and that their ids are unique.
  func validateCommon() throws(RegistrationError) {
    var seen = Set<String>()
    for description in self {
      try description.validateCommon()
      guard seen.insert(description.id).inserted else {
        throw RegistrationError(
          .duplicateCredentialID, "two credentials have the id '\(description.id)'",
          credentialID: description.id)
      }
    }
  }
}

extension [KeyIdentifier] {
  /// Throws when an identifier is empty: it would match nothing, or everything, depending on the
  /// matcher.
  func validateNonEmpty(_ field: String, credentialID: String) throws(RegistrationError) {
    guard !contains(where: \.bytes.isEmpty) else {
      throw RegistrationError(
        .invalidKeyIdentifier, "\(field) holds an empty key identifier", credentialID: credentialID)
    }
  }
}
