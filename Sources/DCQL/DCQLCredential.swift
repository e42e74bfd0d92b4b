/// A Credential as DCQL sees it: format, type metadata, claims, issuer keys and holder binding (OpenID4VP 1.0 §6.4).
///
/// Wallet credential types (mdoc, SD-JWT VC) conform so that a query can be evaluated without
/// this module knowing their encodings.
public protocol DCQLCredential: Sendable {
  /// The format identifier, such as `mso_mdoc` or `dc+sd-jwt` (OpenID4VP 1.0 §6.1, Appendix B).
  var format: String { get }
  /// The mdoc doctype, compared with `doctype_value` (OpenID4VP 1.0 Appendix B.2.3).
  var docType: String? { get }
  /// The SD-JWT VC type, looked up in `vct_values` (OpenID4VP 1.0 Appendix B.3).
  var vct: String? { get }
  /// The claims; for an mdoc, an object of namespace to an object of element identifier to value (OpenID4VP 1.0 §7, Appendix B.2.4).
  var claims: ClaimValue { get }
  /// The key identifiers of the Authority Key Identifier extensions in the issuer's chain (OpenID4VP 1.0 §6.1.1.1).
  var authorityKeyIdentifiers: [[UInt8]] { get }
  /// Whether a presentation can prove possession of a holder key (OpenID4VP 1.0 §6.1, `require_cryptographic_holder_binding`).
  var supportsHolderBinding: Bool { get }
}

/// A plain-value Credential for callers and tests that already hold the decoded claims (OpenID4VP 1.0 §6.4).
public struct DCQLCredentialDescription: DCQLCredential, Sendable, Hashable {
  /// The format identifier (OpenID4VP 1.0 §6.1).
  public var format: String
  /// The mdoc doctype (OpenID4VP 1.0 Appendix B.2.3).
  public var docType: String?
  /// The SD-JWT VC type (OpenID4VP 1.0 Appendix B.3).
  public var vct: String?
  /// The claims tree (OpenID4VP 1.0 §7).
  public var claims: ClaimValue
  /// The AKI key identifiers of the issuer chain (OpenID4VP 1.0 §6.1.1.1).
  public var authorityKeyIdentifiers: [[UInt8]]
  /// Whether the Credential is bound to a holder key (OpenID4VP 1.0 §6.1).
  public var supportsHolderBinding: Bool

  /// Describes a Credential by its parts.
  public init(
    format: String, docType: String? = nil, vct: String? = nil, claims: ClaimValue,
    authorityKeyIdentifiers: [[UInt8]] = [], supportsHolderBinding: Bool = true
  ) {
    self.format = format
    self.docType = docType
    self.vct = vct
    self.claims = claims
    self.authorityKeyIdentifiers = authorityKeyIdentifiers
    self.supportsHolderBinding = supportsHolderBinding
  }

  /// Describes an mdoc: its doctype and `namespace -> element -> value` (OpenID4VP 1.0 Appendix B.2).
  public static func mdoc(
    docType: String, namespaces: [String: [String: ClaimValue]],
    authorityKeyIdentifiers: [[UInt8]] = [], supportsHolderBinding: Bool = true
  ) -> DCQLCredentialDescription {
    DCQLCredentialDescription(
      format: DCQLFormat.msoMdoc, docType: docType,
      claims: .object(namespaces.mapValues { .object($0) }),
      authorityKeyIdentifiers: authorityKeyIdentifiers, supportsHolderBinding: supportsHolderBinding
    )
  }

  /// Describes an SD-JWT VC: its type and claims (OpenID4VP 1.0 Appendix B.3).
  public static func sdJWTVC(
    vct: String, claims: ClaimValue, authorityKeyIdentifiers: [[UInt8]] = [],
    supportsHolderBinding: Bool = true
  ) -> DCQLCredentialDescription {
    DCQLCredentialDescription(
      format: DCQLFormat.sdJWTVC, vct: vct, claims: claims,
      authorityKeyIdentifiers: authorityKeyIdentifiers, supportsHolderBinding: supportsHolderBinding
    )
  }
}
