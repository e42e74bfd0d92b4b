public import DCAPI

/// The wasm matcher Android Credential Manager runs over a wallet's registry data
/// (wire-formats.md, "Android Credential Manager registry data").
public enum AndroidMatcher: String, Sendable, Hashable, CaseIterable {
  /// The multipaz matcher: a CBOR database; every DC API protocol, icons, claim values, issuer and
  /// reader identifiers.
  case multipaz
  /// The CMWallet matcher: the offset/icons/JSON blob, legacy `openid4vp` only, no reader gate.
  case cmwallet
  /// The Ubique `oid4vp-wasm-matcher`: the CMWallet blob layout, legacy `openid4vp` only, no
  /// reader gate.
  case ubique

  /// The protocols the matcher answers, in the order they are registered.
  package var supportedProtocols: [DigitalCredentialProtocol] {
    switch self {
    case .multipaz:
      [.openID4VPDraft, .openID4VPUnsigned, .openID4VPSigned, .openID4VPMultisigned, .orgIsoMdoc]
    case .cmwallet, .ubique:
      [.openID4VPDraft]
    }
  }

  /// Whether the matcher can restrict a credential to requests from listed readers.
  package var canGateReaders: Bool { self == .multipaz }

  /// Whether the matcher can match verifiers' accepted-issuer constraints; the others ignore
  /// `trusted_authorities`, so issuer identifiers are left out of their data.
  package var matchesIssuerIdentifiers: Bool { self == .multipaz }
}

/// Builds the registry data Android Credential Manager stores and hands to the matcher.
///
/// Every call replaces the whole registry, so the data is a pure function of its input: the same
/// descriptions, matcher and protocols give the same bytes. Claims are written in sorted order
/// (multipaz: RFC 8949 §4.2.1 deterministic map order; CMWallet: members sorted by UTF-8 bytes);
/// credentials keep the order given, which is the picker's order.
public enum AndroidRegistry {
  /// The credential types the same data is registered under (wire-formats.md, "multipaz matcher").
  package static let credentialTypes = [
    "com.credman.IdentityCredential", "androidx.credentials.TYPE_DIGITAL_CREDENTIAL",
  ]

  /// A match value is left empty when it has this many characters (UTF-16 code units, as the
  /// Kotlin registry writers count) or more (wire-formats.md, "multipaz matcher").
  package static let maximumMatchValueLength = 128

  /// Encodes the registry data for a matcher.
  ///
  /// - Parameters:
  ///   - descriptions: every credential to register; the previous registry is replaced.
  ///   - matcher: the matcher the data is for.
  ///   - protocols: the protocols to register, nil for all the matcher supports; written in the
  ///     matcher's order, duplicates once.
  /// - Throws: `RegistrationError`: `unsupportedProtocol` for a protocol the matcher cannot answer
  ///   or an empty list, `readerGatingUnsupported` for a reader gate with CMWallet or Ubique,
  ///   `invalidClaimPath` for a path the layout cannot hold, `invalidDescription`,
  ///   `duplicateCredentialID`, `invalidKeyIdentifier`, `registryTooLarge`.
  public static func data(
    for descriptions: [CredentialDescription],
    matcher: AndroidMatcher,
    protocols: [DigitalCredentialProtocol]? = nil
  ) throws(RegistrationError) -> [UInt8] {
    let chosen = try self.protocols(protocols, for: matcher)
    try descriptions.validateCommon()
    for description in descriptions {
      let options = description.android
      if !matcher.canGateReaders, !options.supportedAuthorityKeyIdentifiers.isEmpty {
        throw RegistrationError(
          .readerGatingUnsupported,
          "the \(matcher.rawValue) matcher cannot gate on readers; remove supportedAuthorityKeyIdentifiers",
          credentialID: description.id)
      }
      try options.supportedAuthorityKeyIdentifiers.validateNonEmpty(
        "supportedAuthorityKeyIdentifiers", credentialID: description.id)
      if matcher.matchesIssuerIdentifiers {
        try options.issuerAuthorityKeyIdentifiers.validateNonEmpty(
          "issuerAuthorityKeyIdentifiers", credentialID: description.id)
      }
    }
    switch matcher {
    case .multipaz: return try MultipazRegistry.encode(descriptions, protocols: chosen)
    case .cmwallet, .ubique: return try CMWalletRegistry.encode(descriptions)
    }
  }

  /// The protocols to register, in the matcher's order, or an error for one it cannot answer.
  static func protocols(
    _ requested: [DigitalCredentialProtocol]?, for matcher: AndroidMatcher
  ) throws(RegistrationError) -> [DigitalCredentialProtocol] {
    guard let requested else { return matcher.supportedProtocols }
    guard !requested.isEmpty else {
      throw RegistrationError(.unsupportedProtocol, "no protocol to register")
    }
    if let unsupported = requested.first(where: { !matcher.supportedProtocols.contains($0) }) {
      throw RegistrationError(
        .unsupportedProtocol,
        "the \(matcher.rawValue) matcher cannot answer '\(unsupported.rawValue)'")
    }
    return matcher.supportedProtocols.filter(requested.contains)
  }

  /// The match value of a claim: its text, or empty for `null` and for text of 128 characters or
  /// more (wire-formats.md, "multipaz matcher").
  static func matchValue(_ value: RegisteredClaimValue) -> String {
    guard let text = value.text, text.utf16.count < maximumMatchValueLength else { return "" }
    return text
  }
}
