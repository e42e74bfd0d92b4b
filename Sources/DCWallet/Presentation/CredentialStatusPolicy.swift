import DCErrors
import Foundation

/// The stored credentials a request may be answered with under a policy, and why the others of
/// the requested types were withheld for their status.
struct PresentableCredentials {
  /// Valid now, not known revoked or suspended (unless the policy allows), one per batch.
  var credentials: [StoredCredential]
  /// A refusal for each credential withheld for its last known status, in store order.
  var withheld: [Refusal]
}

extension Wallet {
  /// The one status check of every respond path (Annex C, OpenID4VP over the DC API, in person):
  /// a credential whose last known Token Status List status is INVALID or SUSPENDED
  /// (draft-ietf-oauth-status-list §7.1) is not presented unless
  /// ``WalletPolicy/presentsInvalidOrSuspendedCredentials``. An unknown status, an
  /// application-specific value, or a status never checked does not block: a failure to learn
  /// the status is never taken for a revocation.
  static func statusRefusal(
    of credential: StoredCredential, protocolIdentifier: String,
    presentsInvalidOrSuspended: Bool
  ) -> Refusal? {
    guard !presentsInvalidOrSuspended, let status = credential.lastKnownStatus,
      status.outcome.refusesPresentation
    else { return nil }
    let checked = ISO8601DateFormatter.string(
      from: status.checkedAt, timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withInternetDateTime])
    switch status.outcome {
    case .invalid:
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .credentialInvalid,
        reason:
          "credential \(credential.id) is revoked: its status list said invalid when checked at \(checked)"
      )
    case .suspended:
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .credentialSuspended,
        reason:
          "credential \(credential.id) is suspended: its status list said suspended when checked at \(checked)"
      )
    case .valid, .applicationSpecific, .unknown:
      return nil
    }
  }

  /// The credentials that may be offered for a request: valid at `now`, passing the status check
  /// (``statusRefusal(of:protocolIdentifier:presentsInvalidOrSuspended:)``), and of a batch only
  /// the one presented least often (``onePerBatch(_:usable:)``).
  static func presentable(
    _ stored: [StoredCredential], at now: Date, protocolIdentifier: String, policy: WalletPolicy
  ) -> PresentableCredentials {
    var withheld: [Refusal] = []
    var blocked: Set<String> = []
    for credential in stored where credential.validity(at: now) == .valid {
      if let refusal = statusRefusal(
        of: credential, protocolIdentifier: protocolIdentifier,
        presentsInvalidOrSuspended: policy.presentsInvalidOrSuspendedCredentials)
      {
        withheld.append(refusal)
        blocked.insert(credential.id)
      }
    }
    let credentials = onePerBatch(stored) {
      $0.validity(at: now) == .valid && !blocked.contains($0.id)
    }
    return PresentableCredentials(credentials: credentials, withheld: withheld)
  }

  /// Checks the consented credentials once more before anything is signed: a status learned
  /// after the request was resolved (a refresh meanwhile) still refuses. The refusal is logged.
  func requirePresentableStatus(_ ids: [String], for request: PresentationRequest)
    async throws(WalletError)
  {
    for id in Set(ids).sorted() {
      guard let credential = try? await store.credential(id: id),
        let refusal = Self.statusRefusal(
          of: credential, protocolIdentifier: request.protocolIdentifier,
          presentsInvalidOrSuspended: request.presentsInvalidOrSuspendedCredentials)
      else { continue }
      await logRefusal(request, reason: refusal.reason)
      throw WalletError(.refused, refusal.reason, refusals: [refusal])
    }
  }
}
