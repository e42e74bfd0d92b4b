import Foundation

/// What a policy says about a validated path (the swift-certificates `PolicyEvaluationResult`).
public enum PolicyResult: Sendable, Hashable {
  /// The path satisfies the policy.
  case meetsPolicy
  /// The path fails the policy; the reason names the certificate and the rule.
  case failsToMeetPolicy(reason: String)
}

/// A rule a validated path must also satisfy for one use, such as an mdoc document signer
/// (RFC 5280 §6.1 leaves application rules to the relying party).
public protocol CertificatePolicy: Sendable {
  /// A short name for messages, such as `mdocDocumentSigner`.
  var name: String { get }
  /// Checks a path whose signatures, names, validity and CA constraints already hold; the path
  /// runs leaf first and ends with the trust anchor.
  func check(chain: [Certificate]) -> PolicyResult
}

/// ISO 18013-5 Annex B.1.4 document signer: IACA -> DS exactly, and the DS key signs MSOs.
public struct MdocDocumentSignerPolicy: CertificatePolicy {
  /// Creates the policy.
  public init() {}

  /// `mdocDocumentSigner`.
  public var name: String { "mdocDocumentSigner" }

  /// Requires a two-certificate path, EKU id-mdl-kp-mdlDS and keyUsage digitalSignature.
  public func check(chain: [Certificate]) -> PolicyResult {
    // ISO 18013-5 Annex B.1.1: the document signer is issued directly by the IACA.
    guard chain.count == 2, let leaf = chain.first else {
      return .failsToMeetPolicy(
        reason:
          "document signer must be issued directly by the IACA (path of 2, got \(chain.count))")
    }
    return requireLeaf(
      leaf, purpose: .mdlDocumentSigner, purposeName: "id-mdl-kp-mdlDS (1.0.18013.5.1.2)")
  }
}

/// ISO 18013-5 Annex B.1.7 mdoc reader authentication certificate.
public struct MdocReaderAuthenticationPolicy: CertificatePolicy {
  /// Creates the policy.
  public init() {}

  /// `mdocReaderAuthentication`.
  public var name: String { "mdocReaderAuthentication" }

  /// Requires EKU id-mdl-kp-mdlReaderAuth and keyUsage digitalSignature on the leaf.
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    return requireLeaf(
      leaf, purpose: .mdlReaderAuthentication,
      purposeName: "id-mdl-kp-mdlReaderAuth (1.0.18013.5.1.6)")
  }
}

/// OpenID4VP 1.0 §5.9.3 `x509_san_dns`: the leaf carries the client identifier as a dNSName,
/// compared without regard to ASCII case (DNS names are case-insensitive, RFC 4343).
public struct OpenID4VPSANDNSPolicy: CertificatePolicy {
  /// The client identifier without its `x509_san_dns:` prefix.
  package let clientID: String

  /// Creates the policy for a client identifier given without its prefix.
  public init(clientID: String) { self.clientID = clientID }

  /// `openID4VPSANDNS`.
  public var name: String { "openID4VPSANDNS" }

  /// Requires a dNSName SAN in the leaf equal to the policy's client ID, ignoring ASCII letter case as
  /// DNS does (RFC 4343 §3, RFC 5280 §7.2).
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    let dnsNames = leaf.dnsNames
    guard dnsNames.contains(where: { dnsNamesEqual($0, clientID) }) else {
      return .failsToMeetPolicy(
        reason:
          "leaf \(leaf.subject) has no dNSName SAN equal to '\(clientID)' (has \(dnsNames))")
    }
    return .meetsPolicy
  }
}

/// OpenID4VP 1.0 §5.9.3 `x509_hash`: the leaf's SHA-256 hash matches the client identifier.
public struct OpenID4VPX509HashPolicy: CertificatePolicy {
  /// The base64url (unpadded) SHA-256 of the leaf DER, without the `x509_hash:` prefix.
  package let hash: String

  /// Creates the policy for a hash given without its prefix.
  public init(hash: String) { self.hash = hash }

  /// `openID4VPX509Hash`.
  public var name: String { "openID4VPX509Hash" }

  /// Requires ``Certificate/x509Hash`` of the leaf to equal the policy's hash.
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    guard leaf.x509Hash == hash else {
      return .failsToMeetPolicy(
        reason: "x509_hash of leaf \(leaf.subject) is \(leaf.x509Hash), expected \(hash)")
    }
    return .meetsPolicy
  }
}

/// An SD-JWT VC issuer certificate (draft-ietf-oauth-sd-jwt-vc, "Issuer Verification Key
/// Discovery and Validation", inline X.509): the `x5c` leaf is an end-entity certificate whose
/// key signs (keyUsage digitalSignature), and it vouches for the `iss` the credential claims.
///
/// The issuer tie follows the SD-JWT VC rule deployed issuers and HAIP 1.0 use (drafts up to
/// -09 §3.5): an `https` `iss` needs its host as a dNSName SAN of the leaf (compared without
/// ASCII case) or the whole `iss` as a uniformResourceIdentifier SAN; any other `iss` needs
/// that URI SAN. Later drafts make the certificate subject the issuer and `iss` optional; a
/// credential that also names an `iss` the certificate does not vouch for would put an
/// unestablished issuer before the user, so it fails this policy.
public struct SDJWTVCIssuerPolicy: CertificatePolicy {
  /// The credential's `iss`, nil when it has none.
  package let issuer: String?

  /// Creates the policy for a credential's `iss` (nil: only the certificate profile is checked).
  public init(issuer: String?) { self.issuer = issuer }

  /// `sdJWTVCIssuer`.
  public var name: String { "sdJWTVCIssuer" }

  /// Requires an end-entity leaf (no basicConstraints cA), keyUsage with digitalSignature, and
  /// a SAN that matches the policy's issuer when there is one.
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    // RFC 5280 §4.2.1.9: a CA certificate is not an end entity and does not sign credentials.
    if let constraints = leaf.basicConstraints, constraints.isCA {
      return .failsToMeetPolicy(reason: "leaf \(leaf.subject) is a CA, not an issuer end entity")
    }
    // RFC 5280 §4.2.1.3: the key signs the Issuer-signed JWT.
    guard let usage = leaf.keyUsage, usage.contains(.digitalSignature) else {
      return .failsToMeetPolicy(reason: "leaf \(leaf.subject) keyUsage lacks digitalSignature")
    }
    guard let issuer else { return .meetsPolicy }
    let uris = (leaf.subjectAlternativeNames ?? []).compactMap { name -> String? in
      if case .uri(let value) = name { return value }
      return nil
    }
    if uris.contains(issuer) { return .meetsPolicy }
    if let components = URLComponents(string: issuer),
      components.scheme?.lowercased() == "https", let host = components.host, !host.isEmpty,
      leaf.dnsNames.contains(where: { dnsNamesEqual($0, host) })
    {
      return .meetsPolicy
    }
    return .failsToMeetPolicy(
      reason:
        "leaf \(leaf.subject) does not vouch for iss '\(issuer)': no dNSName SAN for its host "
        + "(has \(leaf.dnsNames)) and no equal URI SAN (has \(uris))")
  }
}

extension CertificatePolicy where Self == SDJWTVCIssuerPolicy {
  /// The SD-JWT VC issuer policy for a credential's `iss` (nil when it has none).
  package static func sdJWTVCIssuer(issuer: String?) -> SDJWTVCIssuerPolicy {
    SDJWTVCIssuerPolicy(issuer: issuer)
  }
}

extension Certificate {
  /// The dNSName entries of subjectAltName (RFC 5280 §4.2.1.6), in order.
  var dnsNames: [String] {
    (subjectAlternativeNames ?? []).compactMap { name -> String? in
      if case .dnsName(let value) = name { return value }
      return nil
    }
  }
}

/// DNS names are equal when they match with ASCII letters folded (RFC 4343 §3); IA5String SANs
/// carry no other letters (RFC 5280 §4.2.1.6).
func dnsNamesEqual(_ lhs: String, _ rhs: String) -> Bool {
  lhs.utf8.count == rhs.utf8.count
    && zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
}

private func asciiLower(_ byte: UInt8) -> UInt8 {
  (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
}

extension CertificatePolicy where Self == MdocDocumentSignerPolicy {
  /// ISO 18013-5 Annex B.1.4 document signer policy.
  public static var mdocDocumentSigner: MdocDocumentSignerPolicy { MdocDocumentSignerPolicy() }
}

extension CertificatePolicy where Self == MdocReaderAuthenticationPolicy {
  /// ISO 18013-5 Annex B.1.7 reader authentication policy.
  public static var mdocReaderAuthentication: MdocReaderAuthenticationPolicy {
    MdocReaderAuthenticationPolicy()
  }
}

extension CertificatePolicy where Self == OpenID4VPSANDNSPolicy {
  /// OpenID4VP 1.0 §5.9.3 `x509_san_dns` policy; clientID comes without its prefix.
  package static func openID4VPSANDNS(clientID: String) -> OpenID4VPSANDNSPolicy {
    OpenID4VPSANDNSPolicy(clientID: clientID)
  }
}

extension CertificatePolicy where Self == OpenID4VPX509HashPolicy {
  /// OpenID4VP 1.0 §5.9.3 `x509_hash` policy; hash comes without its prefix.
  package static func openID4VPX509Hash(hash: String) -> OpenID4VPX509HashPolicy {
    OpenID4VPX509HashPolicy(hash: hash)
  }
}

/// ISO 18013-5 Annex B: an end-entity key purpose and keyUsage digitalSignature, both required.
private func requireLeaf(
  _ leaf: Certificate, purpose: ASN1ObjectIdentifier, purposeName: String
) -> PolicyResult {
  guard let purposes = leaf.extendedKeyUsage, purposes.contains(purpose) else {
    let found = leaf.extendedKeyUsage.map { $0.map(\.dotted).joined(separator: ", ") } ?? "none"
    return .failsToMeetPolicy(
      reason: "leaf \(leaf.subject) extKeyUsage lacks \(purposeName) (has \(found))")
  }
  guard let usage = leaf.keyUsage, usage.contains(.digitalSignature) else {
    return .failsToMeetPolicy(reason: "leaf \(leaf.subject) keyUsage lacks digitalSignature")
  }
  return .meetsPolicy
}
