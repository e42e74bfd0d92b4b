import Foundation

/// What chain validation does when a certificate's revocation status is unknown: it names a CRL
/// distribution point (RFC 5280 §4.2.1.13) but no current CRL from its issuer is at hand.
public enum RevocationPolicy: Sendable, Hashable {
  /// Unknown status is accepted and reported in ``TrustedChain/revocation``.
  case failOpen
  /// Unknown status fails the chain.
  case failClosed
}

/// The revocation check chain validation makes (RFC 5280 §6.3), as a value: the CRLs already at
/// hand (this module does no I/O; DCTrust fetches them) and the policy for unknown status.
///
/// Every certificate of the path below the trust anchor is checked against the CRLs its issuer
/// signed: listed with a revocationDate at or before the validation time fails the chain, even
/// in a CRL past its nextUpdate (a revocation is not undone). A CRL counts only when the issuer
/// signed it and it has no critical extension this library does not process (RFC 5280 §5.2).
public struct RevocationCheck: Sendable, Hashable {
  /// The CRLs to consult, from any issuers; each is used for the certificates its issuer issued.
  public var crls: [CertificateRevocationList]
  /// What to do when a status is unknown.
  public var policy: RevocationPolicy

  /// Creates a check; by default unknown status is accepted and reported.
  public init(crls: [CertificateRevocationList] = [], policy: RevocationPolicy = .failOpen) {
    self.crls = crls
    self.policy = policy
  }
}

extension RevocationCheck {
  /// Where a role (a wallet, a verifier, a reader, an issuer) puts its own revocation setting in
  /// effect while one of its operations runs (``inEffect(_:isolation:_:)``), so the chains the
  /// modules below it validate (IACA to document signer, readers, verifiers, SD-JWT VC issuers,
  /// status-list signers) are checked without threading the value through each module's API.
  /// Package-only: apps give the setting to the role explicitly; nothing outside a role's
  /// operation sees it.
  package static let taskLocal = TaskLocal<RevocationCheck?>(wrappedValue: nil)

  /// The check the role running the current operation put in effect; nil outside one. Library
  /// call sites pass it to ``CertificateValidator`` explicitly.
  package static var current: RevocationCheck? { taskLocal.get() }

  /// Runs `body` with `check` in effect for the chains it validates (typed throws kept).
  package static func inEffect<R, E: Error>(
    _ check: RevocationCheck?, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(E) -> R
  ) async throws(E) -> R {
    let result: Result<R, E> = await taskLocal.withValue(
      check,
      operation: { () async -> Result<R, E> in
        do throws(E) {
          return .success(try await body())
        } catch {
          return .failure(error)
        }
      }, isolation: isolation)
    return try result.get()
  }
}

/// What the revocation check found for a trusted chain.
public enum ChainRevocationStatus: Sendable, Hashable {
  /// The validator was given no revocation check.
  case notChecked
  /// No certificate is revoked, and every one that names a CRL distribution point is covered by a
  /// current CRL from its issuer.
  case good
  /// No certificate is revoked, but these name a distribution point and no current CRL from their
  /// issuer was at hand (accepted under ``RevocationPolicy/failOpen``).
  case unknown([Certificate])
}

/// The status of one certificate under a ``RevocationCheck``.
enum CertificateRevocationStatus: Sendable, Hashable {
  case good
  case revoked(RevokedCertificate)
  case unknown(String)
}

extension RevocationCheck {
  /// The status of `certificate`, issued by `issuer`, at `time` (RFC 5280 §6.3.3, for CRLs the
  /// certificate's issuer signs directly: complete, non-delta, not indirect).
  func status(of certificate: Certificate, issuedBy issuer: Certificate, at time: Date)
    -> CertificateRevocationStatus
  {
    var rejection: String?
    var current = false
    for crl in crls where crl.issuer == certificate.issuer {
      if let unhandled = crl.unhandledCriticalExtensions.first {
        rejection =
          "the CRL from \(issuer.subject) has critical extension \(unhandled), "
          + "which is not processed"
        continue
      }
      if let reason = crl.checkIssuer(issuer) {
        rejection = reason
        continue
      }
      if crl.thisUpdate <= time, let entry = crl.entry(forSerialNumber: certificate.serialNumber),
        entry.revocationDate <= time
      {
        return .revoked(entry)
      }
      if crl.isCurrent(at: time) { current = true }
    }
    if current || certificate.crlDistributionPoints.isEmpty && rejection == nil { return .good }
    if certificate.crlDistributionPoints.isEmpty, let rejection { return .unknown(rejection) }
    return .unknown(
      "no current CRL from \(issuer.subject) for \(certificate.subject) (distribution point "
        + "\(certificate.crlDistributionPoints.joined(separator: ", ")))"
        + (rejection.map { "; \($0)" } ?? ""))
  }

  /// Checks every certificate below the anchor; a failure reason, or the chain's status.
  func check(path: [Certificate], at time: Date) -> Result<ChainRevocationStatus, PathFailure> {
    var unknown: [Certificate] = []
    for index in 0..<(path.count - 1) {
      let certificate = path[index]
      switch status(of: certificate, issuedBy: path[index + 1], at: time) {
      case .good: continue
      case .revoked(let entry):
        let reason = entry.reasonCode.map { ", reason code \($0)" } ?? ""
        return .failure(
          PathFailure(
            reason: "\(certificate.subject) is revoked (serial \(hex(certificate.serialNumber)), "
              + "since \(timestamp(entry.revocationDate))\(reason))"))
      case .unknown(let reason):
        guard policy == .failOpen else {
          return .failure(PathFailure(reason: "revocation status unknown: \(reason)"))
        }
        unknown.append(certificate)
      }
    }
    return .success(unknown.isEmpty ? .good : .unknown(unknown))
  }
}

/// Why a path does not validate.
struct PathFailure: Error {
  let reason: String
}
