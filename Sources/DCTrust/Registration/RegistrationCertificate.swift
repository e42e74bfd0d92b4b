package import DCX509
package import Foundation

/// A wallet-relying party registration certificate (WRPRC, ETSI TS 119 475 v1.2.1 clause 5.2):
/// what a relying party is registered as, and the credentials and claims it is registered to ask
/// for, signed by a registration-certificate provider.
///
/// Only ``verifying(_:sources:at:)`` makes these, after the signature and the provider's chain
/// have been checked.
public struct RegistrationCertificate: Sendable, Hashable {
  /// The two forms clause 5.2.1 defines.
  package enum Form: Sendable, Hashable {
    /// A JWT with `typ` `rc-wrp+jwt` (clause 5.2.2, Table 5).
    case jwt
    /// A CWT (COSE_Sign1) with `typ` `rc-wrp+cwt` (clause 5.2.3, Table 6).
    case cwt
  }

  /// The form it arrived in.
  package let form: Form
  /// The bytes exactly as received (the compact JWS's ASCII, or the COSE_Sign1).
  package let bytes: [UInt8]
  /// The relying party's semantic identifier, `sub` (Table 7; ETSI EN 319 412-1 §5.1.4).
  public let subject: String
  /// The registered trade name, `name` (Table 7).
  public let name: String
  /// The legal person's name, `sub_ln`, or the natural person's names, `sub_gn` / `sub_fn`.
  public let legalName: String?
  /// The ISO 3166-1 country of the registrar, `country` (Table 7).
  package let country: String
  /// The registry's API endpoint, `registry_uri` (Table 7).
  package let registryURI: String
  /// The entitlements (Annex A.2 URIs), `entitlements` (Table 8).
  package let entitlements: [String]
  /// The purpose of the intended processing, per language, `purpose` (Table 9).
  public let purpose: [LocalizedText]
  /// The privacy policy's URL, `privacy_policy` (Table 8).
  public let privacyPolicy: String?
  /// The credentials and claims the relying party is registered to request, `credentials`
  /// (Table 9); nil when the certificate registers none.
  package let credentials: [RegisteredCredential]
  /// The credentials an attestation provider is registered to issue, `provides_attestations`
  /// (Table 8).
  package let providedAttestations: [RegisteredCredential]
  /// The intermediary acting for the relying party, `intermediary` (Table 10).
  public let intermediary: Intermediary?
  /// Whether the relying party is a public sector body, `public_body` (Table 10).
  package let isPublicBody: Bool?
  /// The intended use's identifier at the registry, `intended_use_id` (Table 9).
  package let intendedUseID: String?
  /// When it was issued, `iat` (Table 7).
  package let issuedAt: Date
  /// When it expires, `exp` (Table 10).
  package let expiresAt: Date?
  /// Where its status is published, `status.status_list` (Table 10; IETF Token Status List).
  package let statusReference: StatusReference?
  /// The provider's signing chain, leaf first, as carried in `x5c` / `x5chain`.
  package let signingChain: [Certificate]
  /// The trust decision for the signing chain (a registration-certificate provider).
  public let decision: TrustDecision

  /// A text in one language (ETSI TS 119 475 Annex B.2.6 MultiLangString).
  public struct LocalizedText: Sendable, Hashable {
    /// The BCP 47 language tag.
    public let language: String
    /// The text.
    public let value: String
  }

  /// An intermediary acting on behalf of the relying party (Table 10).
  public struct Intermediary: Sendable, Hashable {
    /// The intermediary's semantic identifier, `sub`, from its own access certificate.
    public let subject: String
    /// The intermediary's name, `sname` (Table 10; the informative Annex C example says
    /// `name`, read too).
    public let name: String
  }

  /// A status list entry (`idx`, `uri`).
  package struct StatusReference: Sendable, Hashable {
    /// The index in the list.
    package let index: Int
    /// The list's URI.
    package let uri: String
  }
}

/// A credential a registration names (Annex B.2.9 Class Credential): its format, type and,
/// optionally, its claims.
package struct RegisteredCredential: Sendable, Hashable {
  /// The credential format (`mso_mdoc`, `dc+sd-jwt`, ...).
  package let format: String
  /// The mdoc document type, `meta.doctype_value`.
  package let docType: String?
  /// The SD-JWT VC types, `meta.vct_values`.
  package let vctValues: [String]
  /// The registered claims, `claim` (Tables 8 and 9 name the array `claim`; `claims` is read
  /// too); nil when the credential is registered without a claim list.
  package let claims: [RegistrationClaimPath]?

  /// Creates a registered credential (the dev builders and tests make these).
  package init(
    format: String, docType: String? = nil, vctValues: [String] = [],
    claims: [RegistrationClaimPath]?
  ) {
    self.format = format
    self.docType = docType
    self.vctValues = vctValues
    self.claims = claims
  }
}

/// A claim path in a registration or a request (Annex B.2.10: the DCQL claims path pointer of
/// OpenID4VP 1.0 §7); for an mdoc, namespace then element.
public struct RegistrationClaimPath: Sendable, Hashable {
  /// One step of the path.
  public enum Component: Sendable, Hashable {
    /// An object member, or an mdoc namespace or element identifier.
    case key(String)
    /// An array index.
    case index(Int)
    /// Every element of an array (a JSON `null` in the path).
    case allElements
  }

  /// The components, from the top down.
  public let components: [Component]

  /// A path from its components.
  public init(_ components: [Component]) { self.components = components }
}
