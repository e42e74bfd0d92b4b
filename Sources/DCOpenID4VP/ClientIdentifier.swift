/// A Client Identifier and its prefix (OpenID4VP 1.0 §5.9).
public struct ClientIdentifier: Sendable, Hashable, CustomStringConvertible {
  /// A Client Identifier Prefix (OpenID4VP 1.0 §5.9.3), open to new values.
  public struct Prefix: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The prefix without its colon.
    public let rawValue: String
    /// Wraps a prefix given without its colon.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The prefix without its colon.
    public var description: String { rawValue }

    /// `x509_san_dns`: a DNS name in the leaf certificate's SAN (OpenID4VP 1.0 §5.9.3).
    public static let x509SANDNS = Prefix(rawValue: "x509_san_dns")
    /// `x509_hash`: the base64url SHA-256 of the leaf certificate (OpenID4VP 1.0 §5.9.3).
    public static let x509Hash = Prefix(rawValue: "x509_hash")
    /// `redirect_uri` (OpenID4VP 1.0 §5.9.3); cannot sign requests, unsupported here.
    public static let redirectURI = Prefix(rawValue: "redirect_uri")
    /// `decentralized_identifier` (OpenID4VP 1.0 §5.9.3); unsupported here.
    package static let decentralizedIdentifier = Prefix(rawValue: "decentralized_identifier")
    /// `verifier_attestation` (OpenID4VP 1.0 §5.9.3); unsupported here.
    public static let verifierAttestation = Prefix(rawValue: "verifier_attestation")
    /// `openid_federation` (OpenID4VP 1.0 §5.9.3); unsupported here.
    package static let openIDFederation = Prefix(rawValue: "openid_federation")

    /// The prefixes whose certificate checks this module implements.
    static let supported: Set<Prefix> = [.x509SANDNS, .x509Hash]
  }

  /// The full identifier as sent, prefix included.
  public let rawValue: String
  /// The prefix, nil when there is no `:` (a pre-registered client, OpenID4VP 1.0 §5.9.2).
  public let prefix: Prefix?
  /// The part after the first `:`, or the whole identifier without a prefix.
  public let value: String

  /// Splits an identifier at its first `:` (OpenID4VP 1.0 §5.9.1).
  public init(_ rawValue: String) {
    self.rawValue = rawValue
    if let colon = rawValue.firstIndex(of: ":") {
      prefix = Prefix(rawValue: String(rawValue[..<colon]))
      value = String(rawValue[rawValue.index(after: colon)...])
    } else {
      prefix = nil
      value = rawValue
    }
  }

  /// The identifier as sent.
  public var description: String { rawValue }
}
