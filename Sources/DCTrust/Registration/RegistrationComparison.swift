/// A claim a presentation request asks for, named the way a registration names it (ETSI TS
/// 119 475 v1.2.1 Annex B.2.9 / B.2.10): the credential's format and type, and the claim's path.
public struct RegistrationRequestedClaim: Sendable, Hashable {
  /// The credential the claim is asked of.
  public enum Credential: Sendable, Hashable {
    /// An mdoc of a document type (`mso_mdoc`, `meta.doctype_value`).
    case mdoc(docType: String)
    /// An SD-JWT VC of any of the types (`dc+sd-jwt`, `meta.vct_values`).
    case sdJWT(vctValues: [String])
  }

  /// The credential asked of.
  public let credential: Credential
  /// The claim's path; for an mdoc namespace then element; empty when the request asks for the
  /// whole credential (a DCQL query without `claims`).
  public let path: RegistrationClaimPath

  /// Creates a requested claim.
  public init(credential: Credential, path: RegistrationClaimPath) {
    self.credential = credential
    self.path = path
  }
}

/// Why a requested claim is over-asking.
public enum OverAskingReason: Sendable, Hashable {
  /// The registration names no credential of this format and type.
  case credentialNotRegistered
  /// The credential is registered, but not this claim.
  case claimNotRegistered
}

/// The request compared with the registration: each requested claim, registered or over-asked
/// (beyond what the relying party is registered to request).
public struct RegistrationComparison: Sendable, Hashable {
  /// One requested claim's result.
  public enum Finding: Sendable, Hashable {
    /// The registration covers the claim.
    case registered(RegistrationRequestedClaim)
    /// The registration does not cover the claim.
    case overAsked(RegistrationRequestedClaim, OverAskingReason)
  }

  /// Every requested claim, in request order.
  public let findings: [Finding]

  /// The over-asked claims.
  public var overAsked: [RegistrationRequestedClaim] {
    findings.compactMap {
      if case .overAsked(let claim, _) = $0 { return claim }
      return nil
    }
  }

  /// Whether every requested claim is registered.
  public var isWithinRegistration: Bool { overAsked.isEmpty }
}

extension RegistrationCertificate {
  /// The mdoc format identifier (OpenID4VP 1.0 Appendix B.2).
  package static let mdocFormat = "mso_mdoc"
  /// The SD-JWT VC format identifier (OpenID4VP 1.0 Appendix B.3).
  package static let sdJWTFormat = "dc+sd-jwt"

  /// Compares requested claims with the registered `credentials` (Table 9): a claim is
  /// registered when a credential of its format and type is registered with a path covering
  /// it. Choices the spec leaves open: a credential registered without a claim list covers all
  /// its claims; a registered path covers the paths below it; a registered `null` covers every
  /// array index; a credential registered without `vct_values` covers every SD-JWT VC type;
  /// `values` restrictions are not compared.
  public func compare(_ requested: [RegistrationRequestedClaim]) -> RegistrationComparison {
    RegistrationComparison(findings: requested.map(finding))
  }

  private func finding(_ claim: RegistrationRequestedClaim) -> RegistrationComparison.Finding {
    let candidates = credentials.filter { Self.registers($0, claim.credential) }
    guard !candidates.isEmpty else { return .overAsked(claim, .credentialNotRegistered) }
    for credential in candidates {
      guard let paths = credential.claims else { return .registered(claim) }
      // A request for the whole credential is covered only by a whole registration.
      if !claim.path.components.isEmpty, paths.contains(where: { $0.covers(claim.path) }) {
        return .registered(claim)
      }
    }
    return .overAsked(claim, .claimNotRegistered)
  }

  private static func registers(
    _ credential: RegisteredCredential, _ requested: RegistrationRequestedClaim.Credential
  ) -> Bool {
    switch requested {
    case .mdoc(let docType):
      return credential.format == mdocFormat && credential.docType == docType
    case .sdJWT(let vctValues):
      guard credential.format == sdJWTFormat else { return false }
      // Every type the request accepts must be registered, or a wallet could answer with one
      // that is not.
      return credential.vctValues.isEmpty
        || (!vctValues.isEmpty && Set(vctValues).isSubset(of: credential.vctValues))
    }
  }
}

extension RegistrationClaimPath {
  /// Whether this registered path covers `requested`: a prefix of it, component by component,
  /// a registered `null` covering any index (and a requested `null`).
  func covers(_ requested: RegistrationClaimPath) -> Bool {
    guard components.count <= requested.components.count else { return false }
    for (registered, asked) in zip(components, requested.components) {
      switch (registered, asked) {
      case (.allElements, .index), (.allElements, .allElements): continue
      case (let a, let b) where a == b: continue
      default: return false
      }
    }
    return true
  }
}
