public import DCJSON

/// The Credentials that can answer one Credential Query (OpenID4VP 1.0 §6.1, §6.4).
public struct DCQLMatch: Sendable, Hashable {
  /// One Credential that satisfies the query, and the claims it would disclose (OpenID4VP 1.0 §6.4.1).
  public struct Candidate: Sendable, Hashable {
    /// The Credential's position in the array given to `evaluate(_:)`.
    public let credentialIndex: Int
    /// The index in `claim_sets` of the first claim set this Credential satisfies; `nil` without `claim_sets` (OpenID4VP 1.0 §6.4.1).
    package let claimSetIndex: Int?
    /// The concrete paths of the claims to disclose, in query order, without repeats (OpenID4VP 1.0 §6.4.1, §7).
    public let disclosed: [ClaimPath]
  }

  /// The Credential Query's id (OpenID4VP 1.0 §6.1).
  public let credentialQueryID: String
  /// Whether several Credentials may be presented for this query (OpenID4VP 1.0 §6.1, `multiple`).
  public let multiple: Bool
  /// Every matching Credential, in the order given; with `multiple` false, at most one may be presented.
  public let candidates: [Candidate]
  /// Why no Credential matched, when `candidates` is empty.
  public let unmatchedReason: String?
}

/// How a Credential Set Query fares against the matches (OpenID4VP 1.0 §6.2, §6.4.2).
public struct CredentialSetResult: Sendable, Hashable {
  /// Whether the set is required (OpenID4VP 1.0 §6.2).
  public let required: Bool
  /// The indices of the options whose every Credential Query has a candidate (OpenID4VP 1.0 §6.4.2).
  public let satisfiableOptions: [Int]
  /// The first satisfiable option, the Verifier's preferred one (OpenID4VP 1.0 §6.4.2).
  public var chosenOption: Int? { satisfiableOptions.first }
}

/// The outcome of evaluating a DCQL query against a wallet's Credentials (OpenID4VP 1.0 §6.4).
public struct DCQLEvaluation: Sendable, Hashable {
  /// Every Credential Query's match, by id (OpenID4VP 1.0 §6.4).
  public let matches: [String: DCQLMatch]
  /// Whether a response can satisfy the query: every Credential Query, or every required Credential Set, is met (OpenID4VP 1.0 §6.4.2).
  public let isSatisfied: Bool
  /// One result per Credential Set Query, in query order; empty without `credential_sets` (OpenID4VP 1.0 §6.2).
  public let credentialSets: [CredentialSetResult]
  /// Why the query cannot be satisfied, when `isSatisfied` is false.
  public let unsatisfiedReason: String?
  /// The Credential Query ids in query order.
  let queryOrder: [String]
  /// Whether the query had `credential_sets`.
  let usesCredentialSets: Bool

  /// The Verifier's preferred answer: for each Credential Query the response includes, its first candidate, or all with `multiple` (OpenID4VP 1.0 §6.4.2).
  ///
  /// With `credential_sets`, only the queries of each set's chosen option are included (optional
  /// sets when satisfiable); without, every query. Empty when the query is not satisfied, since
  /// §6.4.2 forbids answering an unsatisfiable query in part.
  public func defaultSelection() -> [String: [DCQLMatch.Candidate]] {
    guard isSatisfied else { return [:] }
    var ids = [String]()
    if usesCredentialSets {
      for (set, options) in zip(credentialSets, setOptions) {
        if let option = set.chosenOption { ids += options[option] }
      }
    } else {
      ids = queryOrder
    }
    var selection = [String: [DCQLMatch.Candidate]]()
    for id in ids where selection[id] == nil {
      guard let match = matches[id], let first = match.candidates.first else { continue }
      selection[id] = match.multiple ? match.candidates : [first]
    }
    return selection
  }

  /// The options of each Credential Set Query, in `credentialSets` order.
  let setOptions: [[[String]]]
}
