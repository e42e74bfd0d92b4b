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

/// OpenID4VP 1.0 §5.9.3 `x509_san_dns`: the leaf carries the client identifier as a dNSName.
public struct OpenID4VPSANDNSPolicy: CertificatePolicy {
  /// The client identifier without its `x509_san_dns:` prefix.
  public let clientID: String

  /// Creates the policy for a client identifier given without its prefix.
  public init(clientID: String) { self.clientID = clientID }

  /// `openID4VPSANDNS`.
  public var name: String { "openID4VPSANDNS" }

  /// Requires a dNSName SAN in the leaf exactly equal to ``clientID``.
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    let dnsNames = (leaf.subjectAlternativeNames ?? []).compactMap { name -> String? in
      if case .dnsName(let value) = name { return value }
      return nil
    }
    guard dnsNames.contains(clientID) else {
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
  public let hash: String

  /// Creates the policy for a hash given without its prefix.
  public init(hash: String) { self.hash = hash }

  /// `openID4VPX509Hash`.
  public var name: String { "openID4VPX509Hash" }

  /// Requires ``Certificate/x509Hash`` of the leaf to equal ``hash``.
  public func check(chain: [Certificate]) -> PolicyResult {
    guard let leaf = chain.first else { return .failsToMeetPolicy(reason: "empty path") }
    guard leaf.x509Hash == hash else {
      return .failsToMeetPolicy(
        reason: "x509_hash of leaf \(leaf.subject) is \(leaf.x509Hash), expected \(hash)")
    }
    return .meetsPolicy
  }
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
  public static func openID4VPSANDNS(clientID: String) -> OpenID4VPSANDNSPolicy {
    OpenID4VPSANDNSPolicy(clientID: clientID)
  }
}

extension CertificatePolicy where Self == OpenID4VPX509HashPolicy {
  /// OpenID4VP 1.0 §5.9.3 `x509_hash` policy; hash comes without its prefix.
  public static func openID4VPX509Hash(hash: String) -> OpenID4VPX509HashPolicy {
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
