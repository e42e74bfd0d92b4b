public import DCJSON
public import Foundation

/// A Digital Credentials Query Language query: the `dcql_query` request parameter (OpenID4VP 1.0 §6).
public struct DCQLQuery: Sendable, Hashable {
  /// The Credential Queries, never empty, ids unique (OpenID4VP 1.0 §6, `credentials`).
  public let credentials: [CredentialQuery]
  /// Which combinations of Credential Queries may be returned, if the Verifier constrains them (OpenID4VP 1.0 §6.2).
  public let credentialSets: [CredentialSetQuery]?

  /// Parses and validates a query from JSON text (OpenID4VP 1.0 §6).
  public init(jsonData: Data) throws(DCQLError) {
    try self.init(try ClaimValue(jsonData: jsonData))
  }

  /// Parses and validates a query from a JSON value (OpenID4VP 1.0 §6).
  public init(_ value: JSONValue) throws(DCQLError) {
    try self.init(ClaimValue(value))
  }

  /// Parses and validates a query from a JSON value (OpenID4VP 1.0 §6).
  package init(_ value: ClaimValue) throws(DCQLError) {
    self = try QueryParser.query(value)
  }

  init(credentials: [CredentialQuery], credentialSets: [CredentialSetQuery]?) {
    self.credentials = credentials
    self.credentialSets = credentialSets
  }
}

/// Credential format identifiers this module knows the `meta` of (OpenID4VP 1.0 Appendix B).
public enum DCQLFormat: Sendable {
  /// ISO/IEC 18013-5 mdoc (OpenID4VP 1.0 Appendix B.2).
  public static let msoMdoc = "mso_mdoc"
  /// IETF SD-JWT VC (OpenID4VP 1.0 Appendix B.3).
  public static let sdJWTVC = "dc+sd-jwt"
}

/// A request for one Credential: format, metadata constraints and claims (OpenID4VP 1.0 §6.1).
public struct CredentialQuery: Sendable, Hashable {
  /// The query's id, matching `^[A-Za-z0-9_-]+$` and unique in the query (OpenID4VP 1.0 §6.1).
  public let id: String
  /// The requested Credential format, such as `mso_mdoc` or `dc+sd-jwt`; unknown formats are kept (OpenID4VP 1.0 §6.1).
  public let format: String
  /// Whether more than one Credential may be returned for this query; default `false` (OpenID4VP 1.0 §6.1).
  public let multiple: Bool
  /// Constraints on the Credential's metadata (OpenID4VP 1.0 §6.1, Appendix B).
  public let meta: CredentialQueryMeta
  /// The issuers or trust frameworks the Verifier accepts, if constrained (OpenID4VP 1.0 §6.1.1).
  package let trustedAuthorities: [TrustedAuthorityQuery]?
  /// Whether the Credential must be bound to a holder key; default `true` (OpenID4VP 1.0 §6.1).
  public let requireCryptographicHolderBinding: Bool
  /// The requested claims; `nil` requests none selectively disclosable (OpenID4VP 1.0 §6.1, §6.4.1).
  public let claims: [ClaimsQuery]?
  /// Acceptable combinations of claim ids, in the Verifier's order of preference (OpenID4VP 1.0 §6.1, §6.4.1).
  package let claimSets: [[String]]?
}

/// The `meta` object of a Credential Query, with the known members read out (OpenID4VP 1.0 §6.1, Appendix B).
public struct CredentialQueryMeta: Sendable, Hashable {
  /// The mdoc doctype the Credential must have (`doctype_value`, OpenID4VP 1.0 Appendix B.2.3).
  public let doctypeValue: String?
  /// The SD-JWT VC types one of which the Credential must have (`vct_values`, OpenID4VP 1.0 Appendix B.3).
  public let vctValues: [String]?
  /// Every member as received, known or not.
  package let raw: [String: ClaimValue]
  /// Whether the Credential Query carried `meta` at all. It is REQUIRED (OpenID4VP 1.0 §6.1): a
  /// query without it is kept, so that `credential_sets` naming it still parse, but no
  /// Credential matches it (as in Google's CMWallet matcher).
  package let isPresent: Bool
}

/// One accepted issuer or trust framework for a Credential (OpenID4VP 1.0 §6.1.1).
package struct TrustedAuthorityQuery: Sendable, Hashable {
  /// The type, such as `aki`, `etsi_tl` or `openid_federation` (OpenID4VP 1.0 §6.1.1).
  package let type: String
  /// The type-specific identifiers, never empty (OpenID4VP 1.0 §6.1.1).
  package let values: [String]
  /// The type of Authority Key Identifier matching (OpenID4VP 1.0 §6.1.1.1).
  package static let aki = "aki"
  /// For `aki`, the decoded key identifiers, decoded once at parse time.
  let keyIdentifiers: Set<[UInt8]>
}

/// A request for one claim, by claims path pointer, optionally restricted to values (OpenID4VP 1.0 §6.3).
public struct ClaimsQuery: Sendable, Hashable {
  /// The claim's id, required when `claim_sets` is present (OpenID4VP 1.0 §6.3).
  public let id: String?
  /// Where the claim is; for `mso_mdoc`, `[namespace, element identifier]` (OpenID4VP 1.0 §6.3, §7, Appendix B.2.4).
  public let path: ClaimsPathPointer
  /// The acceptable values: strings, integers or booleans (OpenID4VP 1.0 §6.3).
  public let values: [ClaimValue]?
  /// Whether the Verifier will keep the mdoc data element (`intent_to_retain`, OpenID4VP 1.0 Appendix B.2.4).
  public let intentToRetain: Bool?
}

/// A constraint on which Credential Queries are answered together (OpenID4VP 1.0 §6.2).
public struct CredentialSetQuery: Sendable, Hashable {
  /// Alternative lists of Credential Query ids, in the Verifier's order of preference (OpenID4VP 1.0 §6.2).
  public let options: [[String]]
  /// Whether the set must be satisfied; default `true` (OpenID4VP 1.0 §6.2).
  public let required: Bool
  /// The Verifier's explanation for this set, as received, if any (OpenID4VP 1.0 §6.2).
  public let purpose: ClaimValue?
}
