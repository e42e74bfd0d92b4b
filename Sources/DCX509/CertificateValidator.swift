public import Foundation

/// A path that validated: leaf first, ending with the trust anchor (RFC 5280 §6.1).
public struct TrustedChain: Sendable, Hashable {
  /// The certificates from the leaf to the anchor, both included.
  public let path: [Certificate]

  /// The end-entity certificate (RFC 5280 §6.1, certificate n).
  public var leaf: Certificate { path[0] }
  /// The trust anchor the path ends at, as configured in the validator (RFC 5280 §6.1.1(d)).
  public var anchor: Certificate { path[path.count - 1] }
  /// What the revocation check found (RFC 5280 §6.3), or ``ChainRevocationStatus/notChecked``.
  public internal(set) var revocation: ChainRevocationStatus = .notChecked
}

/// The outcome of validating a presented chain; travels with a request to whoever decides.
///
/// - `malformed`: the input is not a certificate chain at all: empty, longer than
///   ten certificates, or a certificate that does not parse
///   (``CertificateValidator/validate(chainDER:at:)``).
/// - `untrusted`: every certificate reads, but the path fails an RFC 5280 §6.1 check (a
///   signature, validity at the given time, names, CA flag, pathLen, keyUsage, AKI/SKI, an
///   unhandled critical extension, an unsupported algorithm), reaches no trust anchor, or fails a
///   policy. The reason names the certificate and the check.
/// - `trusted`: the path holds and every policy is met.
public enum ChainValidationResult: Sendable, Hashable {
  /// The chain reaches a trust anchor and meets every policy.
  case trusted(TrustedChain)
  /// The chain is well formed but fails a check or a policy, or reaches no anchor.
  case untrusted(reason: String)
  /// The input cannot be read as a chain.
  case malformed(reason: String)

  /// The validated path when trusted.
  public var trustedChain: TrustedChain? {
    if case .trusted(let chain) = self { return chain }
    return nil
  }

  /// The reason when not trusted.
  public var reason: String? {
    switch self {
    case .trusted: nil
    case .untrusted(let reason), .malformed(let reason): reason
    }
  }
}

/// Validates certificate chains against trust anchors at an injected time, then applies
/// policies (RFC 5280 §6.1, simplified to the single-path chains wallets and readers present).
///
/// Checked on the path leaf..anchor: each link's names are identical (§6.1.3(a)(4)) and its
/// ECDSA signature verifies with the issuer's key (§6.1.3(a)(1)); the authorityKeyIdentifier
/// equals the issuer's subjectKeyIdentifier when both are present (§4.2.1.1); every issuer,
/// the anchor included, has basicConstraints cA TRUE (§6.1.4(k)), keyCertSign when it has a
/// keyUsage (§6.1.4(n)) and a pathLenConstraint not smaller than the number of non-self-issued
/// intermediates below it (§6.1.4(l, m)); every certificate, the anchor included, is valid at
/// the given time (§6.1.3(a)(2)) and has no critical extension this library does not process
/// (§6.1.4(o)). With a ``RevocationCheck`` every certificate below the anchor is also checked
/// against its issuer's CRLs (RFC 5280 §6.3); without one, revocation is not checked.
public struct CertificateValidator: Sendable {
  /// The longest chain accepted before it is reported malformed.
  package static let maximumChainLength = 10

  /// The configured anchors, matched by subject name and public key (RFC 5280 §6.1.1(d)).
  package let trustAnchors: [Certificate]
  /// Policies every trusted path must also meet, in order.
  package let policies: [any CertificatePolicy]
  /// The revocation check, or nil for none.
  package let revocation: RevocationCheck?

  /// Creates a validator with one policy.
  package init(
    trustAnchors: [Certificate], policy: some CertificatePolicy,
    revocation: RevocationCheck? = nil
  ) {
    self.trustAnchors = trustAnchors
    self.policies = [policy]
    self.revocation = revocation
  }

  /// Creates a validator with any number of policies, all of which must be met, and a
  /// revocation check (RFC 5280 §6.3); without one, revocation is not checked.
  public init(
    trustAnchors: [Certificate], policies: [any CertificatePolicy] = [],
    revocation: RevocationCheck? = nil
  ) {
    self.trustAnchors = trustAnchors
    self.policies = policies
    self.revocation = revocation
  }

  /// Parses DER certificates (leaf first), then validates; a parse failure is `malformed`.
  public func validate(chainDER: [[UInt8]], at time: Date) -> ChainValidationResult {
    var chain: [Certificate] = []
    for (index, der) in chainDER.enumerated() {
      do {
        chain.append(try Certificate(derEncoded: der))
      } catch {
        return .malformed(reason: "certificate \(index) does not parse: \(error.reason)")
      }
    }
    return validate(chain: chain, at: time)
  }

  /// Validates a chain presented leaf first, with or without the anchor, at the given time.
  public func validate(chain: [Certificate], at time: Date) -> ChainValidationResult {
    guard !chain.isEmpty else { return .malformed(reason: "empty certificate chain") }
    guard chain.count <= CertificateValidator.maximumChainLength else {
      return .malformed(
        reason:
          "chain of \(chain.count) certificates exceeds \(CertificateValidator.maximumChainLength)")
    }
    let path: [Certificate]
    switch buildPath(chain) {
    case .success(let built): path = built
    case .failure(let failure): return .untrusted(reason: failure.reason)
    }
    if let reason = checkLinks(path) ?? checkCertificates(path, at: time) {
      return .untrusted(reason: reason)
    }
    var status = ChainRevocationStatus.notChecked
    if let revocation {
      switch revocation.check(path: path, at: time) {
      case .success(let found): status = found
      case .failure(let failure): return .untrusted(reason: failure.reason)
      }
    }
    for policy in policies {
      if case .failsToMeetPolicy(let reason) = policy.check(chain: path) {
        return .untrusted(reason: "policy \(policy.name): \(reason)")
      }
    }
    return .trusted(TrustedChain(path: path, revocation: status))
  }

  /// Walks the presented chain until a certificate is an anchor or is issued by one; the
  /// configured anchor, not the presented copy, ends the path.
  private func buildPath(_ chain: [Certificate]) -> Result<[Certificate], PathFailure> {
    var path: [Certificate] = []
    for certificate in chain {
      if let anchor = trustAnchors.first(where: {
        $0.subject == certificate.subject && $0.publicKey == certificate.publicKey
      }) {
        path.append(anchor)
        return .success(path)
      }
      path.append(certificate)
      let candidates = trustAnchors.filter { $0.subject == certificate.issuer }
      // Among several anchors with the issuer's name, prefer one whose key verifies; otherwise
      // keep the first so the link check reports why it fails. A single candidate is left to the
      // link check alone, so its signature is verified once.
      let chosen =
        candidates.count > 1
        ? candidates.first(where: { certificate.checkSignature(issuedBy: $0) == .valid })
          ?? candidates.first
        : candidates.first
      if let anchor = chosen {
        path.append(anchor)
        return .success(path)
      }
    }
    guard let last = path.last else { return .failure(PathFailure(reason: "empty chain")) }
    if last.isSelfIssued {
      return .failure(
        PathFailure(
          reason: "chain ends at self-issued \(last.subject), which is not a trust anchor"))
    }
    return .failure(
      PathFailure(
        reason: "no trust anchor for \(last.issuer), the issuer of \(last.subject)"))
  }

  private func checkLinks(_ path: [Certificate]) -> String? {
    for index in 0..<(path.count - 1) {
      let child = path[index]
      let issuer = path[index + 1]
      guard child.issuer == issuer.subject else {
        return "issuer of \(child.subject) is \(child.issuer), but the next certificate is "
          + "\(issuer.subject)"
      }
      switch child.checkSignature(issuedBy: issuer) {
      case .valid: break
      case .invalid:
        return "signature of \(child.subject) does not verify with the key of \(issuer.subject)"
      case .unsupported(let detail):
        return "signature of \(child.subject) cannot be verified: \(detail)"
      }
      if let authority = child.authorityKeyIdentifier, let subject = issuer.subjectKeyIdentifier,
        authority != subject
      {
        return "authorityKeyIdentifier of \(child.subject) (\(hex(authority))) does not match "
          + "subjectKeyIdentifier of \(issuer.subject) (\(hex(subject)))"
      }
      guard let constraints = issuer.basicConstraints, constraints.isCA else {
        return "\(issuer.subject) issued \(child.subject) but is not a CA "
          + "(basicConstraints cA is not TRUE)"
      }
      if let usage = issuer.keyUsage, !usage.contains(.keyCertSign) {
        return "\(issuer.subject) issued \(child.subject) but its keyUsage lacks keyCertSign"
      }
      if let limit = constraints.pathLengthConstraint {
        let intermediates = path[1..<(index + 1)].filter { !$0.isSelfIssued }.count
        if intermediates > limit {
          return "pathLenConstraint \(limit) of \(issuer.subject) is exceeded by "
            + "\(intermediates) intermediate certificates below it"
        }
      }
    }
    return nil
  }

  private func checkCertificates(_ path: [Certificate], at time: Date) -> String? {
    for certificate in path {
      if let unknown = certificate.unhandledCriticalExtensions.first {
        return "\(certificate.subject) has an unrecognised critical extension \(unknown.dotted)"
      }
      if time < certificate.notBefore {
        return "\(certificate.subject) is not valid before \(timestamp(certificate.notBefore)) "
          + "(checked at \(timestamp(time)))"
      }
      if time > certificate.notAfter {
        return "\(certificate.subject) expired at \(timestamp(certificate.notAfter)) "
          + "(checked at \(timestamp(time)))"
      }
    }
    return nil
  }
}

/// ISO 8601 UTC with whole seconds, independent of locale.
func timestamp(_ date: Date) -> String {
  let time = CivilTime(date)
  func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
  return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):"
    + "\(two(time.minute)):\(two(time.second))Z"
}
