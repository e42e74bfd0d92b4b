import DCWallet
import Foundation

/// Why the holder's `--credential` / `--disclose` choice leaves nothing to share, naming the real
/// cause (issue 32, items 13 and 17): an unknown id, a credential withheld for its status or its
/// validity, one of another type, claims the request does not ask for or the chosen credential
/// does not hold. Nil when none applies, and the library's reason stands.
enum SelectionRefusalText {
  static func explain(
    credentialIDs: [String], disclose: [String], request: PresentationRequest, wallet: Wallet
  ) async -> String? {
    let documents = request.requested.documents
    let candidates = Set(documents.flatMap(\.candidateIDs))
    let stored = (try? await wallet.credentials()) ?? []
    for id in credentialIDs where !candidates.contains(id) {
      guard let credential = stored.first(where: { $0.id == id }) else {
        return "no credential \(id) (see 'dcwallet list')"
      }
      return notACandidate(
        credential, documents: documents,
        statusBlocks: !wallet.policy.presentsInvalidOrSuspendedCredentials,
        offered: stored.filter { candidates.contains($0.id) })
    }
    guard !disclose.isEmpty else { return nil }
    let chosen = credentialIDs.isEmpty ? candidates : Set(credentialIDs)
    let held = Set(
      documents.flatMap(\.candidates).filter { chosen.contains($0.credentialID) }
        .flatMap(\.claims).map(ClaimName.of))
    let named = disclose.filter(held.contains)
    guard named.isEmpty else { return nil }
    let requested = Set(
      documents.flatMap { document in
        document.requestedClaims.map { ClaimName.of(requested: $0.path, format: document.format) }
      })
    let asked = disclose.filter(requested.contains)
    if asked.isEmpty {
      return "the request asks for none of the claims given with --disclose ("
        + disclose.joined(separator: ", ") + ")"
    }
    let which =
      credentialIDs.isEmpty ? "no stored credential" : credentialIDs.joined(separator: ", ")
    return "\(which) holds none of the claims given with --disclose ("
      + asked.joined(separator: ", ") + ")"
  }

  /// Why a stored credential is not among the request's candidates; nil when that is not known
  /// (the library's reason then stands).
  static func notACandidate(
    _ credential: StoredCredential, documents: [ConsentScreen.Document], statusBlocks: Bool,
    offered: [StoredCredential]
  ) -> String? {
    if statusBlocks, let status = credential.lastKnownStatus, status.outcome.refusesPresentation {
      let word = status.outcome == .invalid ? "revoked" : "suspended"
      let name = status.outcome == .invalid ? "INVALID" : "SUSPENDED"
      return "credential \(credential.id) is \(word): its status list said \(name) when checked "
        + "at \(Timestamp.utc(status.checkedAt)); it is not presented"
    }
    switch credential.validity(at: Date()) {
    case .valid: break
    case .expired: return "credential \(credential.id) has expired; it is not presented"
    case .notYetValid: return "credential \(credential.id) is not valid yet; it is not presented"
    }
    // Of a batch, only the credential presented least often is offered (use-once).
    if let batch = credential.issuance?.batchID,
      let sibling = offered.first(where: { $0.issuance?.batchID == batch })
    {
      return "credential \(credential.id) is not offered: of its batch, \(sibling.id) is "
        + "presented next (one credential per presentation)"
    }
    let types = Set(documents.flatMap(\.types)).sorted()
    guard !types.contains(credential.type) else { return nil }
    return "credential \(credential.id) (\(credential.type)) does not answer this request, "
      + "which asks for " + types.joined(separator: " or ")
  }
}

/// Dates as users read them.
enum Timestamp {
  /// `2026-12-05T13:04:05Z`.
  static func utc(_ date: Date) -> String {
    ISO8601DateFormatter.string(
      from: date, timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withInternetDateTime])
  }

  /// `2026-12-05T13:04:05Z (1796562245)`: the date beside its epoch seconds.
  static func withEpoch(_ date: Date) -> String {
    "\(utc(date)) (\(Int64(date.timeIntervalSince1970)))"
  }
}
