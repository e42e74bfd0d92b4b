public import DCX509

/// Whether a registration certificate belongs to the requester that presented it (ETSI TS
/// 119 475 v1.2.1 clause 5.2.4, Table 7 `sub`: the same semantic identifier as the relying
/// party's access certificate, ETSI TS 119 411-8).
public enum RegistrationBinding: Sendable, Hashable {
  /// The access certificate names the registered relying party.
  case bound(subject: String)
  /// The access certificate names the registered intermediary acting for the relying party
  /// (Table 10).
  case boundThroughIntermediary(intermediary: String, relyingParty: String)
  /// The access certificate names someone else: another relying party's registration.
  case mismatch(registered: String, presented: String?)
  /// The requester did not authenticate with an access certificate, so nothing binds it.
  case noAccessCertificate

  /// Whether the certificate is bound to the requester.
  public var isBound: Bool {
    switch self {
    case .bound, .boundThroughIntermediary: true
    case .mismatch, .noAccessCertificate: false
    }
  }
}

extension ASN1ObjectIdentifier {
  /// `organizationIdentifier` (X.520; ETSI EN 319 412-1 §5.1.4 semantic identifiers).
  static let organizationIdentifier = ASN1ObjectIdentifier(arcs: [2, 5, 4, 97])
}

extension RegistrationCertificate {
  /// Binds the certificate to the requester's authenticated access certificate (leaf): its
  /// subject's `organizationIdentifier` (a legal person) or `serialNumber` (a natural person,
  /// ETSI TS 119 411-8 / EN 319 412-1 §5.1.3) must equal `sub`, or, under intermediation, the
  /// intermediary's `sub` (Table 10).
  public func binding(to accessCertificate: Certificate?) -> RegistrationBinding {
    guard let accessCertificate else { return .noAccessCertificate }
    let presented = Self.semanticIdentifier(of: accessCertificate)
    if let intermediary {
      guard presented == intermediary.subject else {
        return .mismatch(registered: intermediary.subject, presented: presented)
      }
      return .boundThroughIntermediary(intermediary: intermediary.subject, relyingParty: subject)
    }
    guard presented == subject else { return .mismatch(registered: subject, presented: presented) }
    return .bound(subject: subject)
  }

  /// The access certificate's semantic identifier: `organizationIdentifier`, else
  /// `serialNumber`.
  package static func semanticIdentifier(of certificate: Certificate) -> String? {
    certificate.subject.first(.organizationIdentifier)
      ?? certificate.subject.first(.serialNumberAttribute)
  }
}
