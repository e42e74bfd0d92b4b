import DCJSON

// Matching Credentials against a DCQL query (OpenID4VP 1.0 §6.4).

extension DCQLQuery {
  /// Finds, for every Credential Query, the Credentials that satisfy it and the claims each would disclose, then applies `credential_sets` (OpenID4VP 1.0 §6.4).
  ///
  /// A Credential matches a Credential Query when its format is the query's; its doctype equals
  /// `doctype_value` (mdoc) or its `vct` is in `vct_values` (SD-JWT VC, without `vct` extension
  /// resolution); when `trusted_authorities` is present, one of its issuer AKIs is listed under a
  /// `aki` entry (other types, such as `etsi_tl` and `openid_federation`, cannot be checked here
  /// and never match); it supports holder binding when required; and its claims meet `claims`
  /// and `claim_sets`. For a format other than `mso_mdoc` and `dc+sd-jwt`, a non-empty `meta`
  /// cannot be checked and the Credential does not match. A Credential Query without `meta`
  /// (REQUIRED by §6.1) matches no Credential.
  public func evaluate(_ credentials: [any DCQLCredential]) -> DCQLEvaluation {
    var claimsCache = [ClaimValue?](repeating: nil, count: credentials.count)
    var matches = [String: DCQLMatch](minimumCapacity: self.credentials.count)
    for query in self.credentials {
      matches[query.id] = CompiledCredentialQuery(query).match(
        credentials, claimsCache: &claimsCache)
    }

    var setResults = [CredentialSetResult]()
    var reasons = [String]()
    if let sets = credentialSets {
      for (s, set) in sets.enumerated() {
        let satisfiable = set.options.indices.filter { o in
          set.options[o].allSatisfy { matches[$0]?.candidates.isEmpty == false }
        }
        setResults.append(
          CredentialSetResult(required: set.required, satisfiableOptions: satisfiable))
        if set.required && satisfiable.isEmpty {
          // §6.4.2: a required set with no satisfiable option makes the query unanswerable.
          let why = set.options.enumerated().map { o, ids in
            let missing = ids.filter { matches[$0]?.candidates.isEmpty != false }
            return "option \(o) lacks "
              + missing.map { "\"\($0)\" (\(matches[$0]?.unmatchedReason ?? "no match"))" }
              .joined(separator: ", ")
          }
          reasons.append(
            "required credential_sets[\(s)] has no satisfiable option: "
              + why.joined(separator: "; "))
        }
      }
    } else {
      for query in self.credentials {
        if let match = matches[query.id], match.candidates.isEmpty {
          reasons.append("\"\(query.id)\": \(match.unmatchedReason ?? "no match")")
        }
      }
    }
    return DCQLEvaluation(
      matches: matches, isSatisfied: reasons.isEmpty, credentialSets: setResults,
      unsatisfiedReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "),
      queryOrder: self.credentials.map(\.id), usesCredentialSets: credentialSets != nil,
      setOptions: credentialSets?.map(\.options) ?? [])
  }
}

/// A Credential Query prepared once for evaluation against many Credentials.
struct CompiledCredentialQuery {
  let query: CredentialQuery
  let vctValues: Set<String>?
  let metaUncheckable: Bool
  let trustedKeyIdentifiers: Set<[UInt8]>?
  /// `claim_sets` as indices into `claims`.
  let claimSets: [[Int]]?

  init(_ query: CredentialQuery) {
    self.query = query
    vctValues = query.meta.vctValues.map(Set.init)
    let known = query.format == DCQLFormat.msoMdoc || query.format == DCQLFormat.sdJWTVC
    metaUncheckable = !known && !query.meta.raw.isEmpty
    trustedKeyIdentifiers = query.trustedAuthorities.map { authorities in
      authorities.reduce(into: Set<[UInt8]>()) { $0.formUnion($1.keyIdentifiers) }
    }
    if let sets = query.claimSets, let claims = query.claims {
      var indexByID = [String: Int]()
      for (i, claim) in claims.enumerated() { if let id = claim.id { indexByID[id] = i } }
      // The parser guarantees every id exists; compactMap only guards the invariant.
      claimSets = sets.map { $0.compactMap { indexByID[$0] } }
    } else {
      claimSets = nil
    }
  }

  private struct Rejections {
    var format = 0
    var meta = 0
    var trust = 0
    var binding = 0
    var claims = 0
    var firstUnmetClaim: ClaimsPathPointer?
  }

  func match(_ credentials: [any DCQLCredential], claimsCache: inout [ClaimValue?]) -> DCQLMatch {
    // §6.1: `meta` is REQUIRED; a Credential Query without it matches no Credential.
    guard query.meta.isPresent else {
      return DCQLMatch(
        credentialQueryID: query.id, multiple: query.multiple, candidates: [],
        unmatchedReason: "the credential query has no meta, which OpenID4VP 1.0 §6.1 requires")
    }
    var candidates = [DCQLMatch.Candidate]()
    var rejections = Rejections()
    for (index, credential) in credentials.enumerated() {
      guard passesChecks(credential, rejections: &rejections) else { continue }
      guard let claims = query.claims else {
        // §6.4.1: without claims, only the mandatory parts are presented.
        candidates.append(.init(credentialIndex: index, claimSetIndex: nil, disclosed: []))
        continue
      }
      let root: ClaimValue
      if let cached = claimsCache[index] {
        root = cached
      } else {
        root = credential.claims
        claimsCache[index] = root
      }
      switch matchClaims(claims, in: root) {
      case .matched(let setIndex, let disclosed):
        candidates.append(
          .init(credentialIndex: index, claimSetIndex: setIndex, disclosed: disclosed))
      case .unmet(let path):
        rejections.claims += 1
        if rejections.firstUnmetClaim == nil { rejections.firstUnmetClaim = path }
      }
    }
    return DCQLMatch(
      credentialQueryID: query.id, multiple: query.multiple, candidates: candidates,
      unmatchedReason: candidates.isEmpty ? reason(rejections, total: credentials.count) : nil)
  }

  /// The format, meta, trusted authority and holder binding checks, in that order; a failure
  /// is counted in `rejections`.
  private func passesChecks(_ credential: any DCQLCredential, rejections: inout Rejections)
    -> Bool
  {
    guard credential.format == query.format else {
      rejections.format += 1
      return false
    }
    guard metaMatches(credential) else {
      rejections.meta += 1
      return false
    }
    if let trusted = trustedKeyIdentifiers {
      // §6.1.1: the Credential's issuer must be one of the trusted authorities.
      guard credential.authorityKeyIdentifiers.contains(where: trusted.contains) else {
        rejections.trust += 1
        return false
      }
    }
    // §6.1: holder binding is required unless the Verifier waives it.
    if query.requireCryptographicHolderBinding && !credential.supportsHolderBinding {
      rejections.binding += 1
      return false
    }
    return true
  }

  private func metaMatches(_ credential: any DCQLCredential) -> Bool {
    if metaUncheckable { return false }
    // Appendix B.2.3: the doctype equals doctype_value.
    if let doctype = query.meta.doctypeValue, credential.docType != doctype { return false }
    // Appendix B.3: the vct is one of vct_values.
    if let vcts = vctValues {
      guard let vct = credential.vct, vcts.contains(vct) else { return false }
    }
    return true
  }

  private enum ClaimsOutcome {
    case matched(claimSetIndex: Int?, disclosed: [ClaimPath])
    case unmet(ClaimsPathPointer)
  }

  private func matchClaims(_ claims: [ClaimsQuery], in root: ClaimValue) -> ClaimsOutcome {
    var results = [[ClaimPath]??](repeating: nil, count: claims.count)
    func result(_ i: Int) -> [ClaimPath]? {
      if let known = results[i] { return known }
      let value = Self.match(claims[i], in: root)
      results[i] = .some(value)
      return value
    }
    let order: [(set: Int?, claims: [Int])] =
      claimSets.map { $0.enumerated().map { ($0.offset, $0.element) } }
      ?? [(nil, Array(claims.indices))]
    var firstUnmet: Int?
    // §6.4.1: the first claim set (in the Verifier's order) that can be satisfied wins.
    for (setIndex, members) in order {
      var disclosed = [ClaimPath]()
      var seen = Set<ClaimPath>()
      var satisfied = true
      for i in members {
        guard let paths = result(i) else {
          if firstUnmet == nil { firstUnmet = i }
          satisfied = false
          break
        }
        for path in paths {
          // Few claims per query in practice: a linear scan beats hashing until the list grows.
          if disclosed.count < 16 {
            if !disclosed.contains(path) { disclosed.append(path) }
          } else {
            if seen.isEmpty { seen = Set(disclosed) }
            if seen.insert(path).inserted { disclosed.append(path) }
          }
        }
      }
      if satisfied { return .matched(claimSetIndex: setIndex, disclosed: disclosed) }
    }
    return .unmet(claims[firstUnmet ?? 0].path)
  }

  /// The concrete paths a Claims Query discloses, or `nil` when it is not met (OpenID4VP 1.0 §6.3, §7).
  static func match(_ claim: ClaimsQuery, in root: ClaimValue) -> [ClaimPath]? {
    let selected = claim.path.select(in: root)
    guard !selected.isEmpty else { return nil }
    guard let values = claim.values else { return selected.map(\.path) }
    // §6.3: with values, only claims whose type and value equal one of them qualify.
    let matching = selected.filter { s in values.contains { s.value.matchesQueryValue($0) } }
    return matching.isEmpty ? nil : matching.map(\.path)
  }

  private func reason(_ r: Rejections, total: Int) -> String {
    guard total > 0 else { return "no credentials" }
    if r.format == total { return "no credential has format \(query.format)" }
    var parts = [String]()
    if r.meta > 0 {
      parts.append("\(r.meta) of format \(query.format) with other metadata (doctype or vct)")
    }
    if r.trust > 0 { parts.append("\(r.trust) from issuers outside trusted_authorities") }
    if r.binding > 0 { parts.append("\(r.binding) without cryptographic holder binding") }
    if r.claims > 0 {
      parts.append(
        "\(r.claims) lacking requested claims (first unmet path \(r.firstUnmetClaim?.description ?? "?"))"
      )
    }
    return "no credential matched: " + parts.joined(separator: ", ")
  }
}
