import DCAPI
import DCJOSE
package import DCJSON
import DCMdoc
package import DCOpenID4VP
package import DCQL
import DCSDJWT
import Foundation

/// An OpenID4VP request resolved against the wallet: the checked authorization request (with
/// the verifier's identity), the stored credentials offered to its DCQL query, and the
/// evaluation.
package struct OpenID4VPPresentation: Sendable {
  /// The checked request: one that arrived over the DC API, or one fetched from an
  /// authorization request URI (redirect flows, issue 16). The DCQL evaluation, consent and
  /// signing are the same for both; only the binding and the delivery differ.
  package enum Request: Sendable {
    /// A request received over the W3C Digital Credentials API (OpenID4VP 1.0 Appendix A).
    case dcAPI(AuthorizationRequest)
    /// A request from an `openid4vp://` (or `haip-vp://`, `eudi-openid4vp://`, `eu-eaap://`)
    /// URI, answered by a POST to its `response_uri` (OpenID4VP 1.0 §5, §8.2).
    case redirect(RedirectAuthorizationRequest)

    /// `dcql_query`, parsed (OpenID4VP 1.0 §6).
    package var dcqlQuery: DCQLQuery {
      switch self {
      case .dcAPI(let request): request.dcqlQuery
      case .redirect(let request): request.dcqlQuery
      }
    }

    /// `transaction_data`, each entry checked (OpenID4VP 1.0 §5.1, §8.4).
    package var transactionData: [TransactionData] {
      switch self {
      case .dcAPI(let request): request.transactionData
      case .redirect(let request): request.transactionData
      }
    }

    /// The DC API request; nil for a redirect request.
    package var dcAPI: AuthorizationRequest? {
      if case .dcAPI(let request) = self { return request }
      return nil
    }

    /// The redirect request; nil for a DC API request.
    package var redirect: RedirectAuthorizationRequest? {
      if case .redirect(let request) = self { return request }
      return nil
    }

    /// Who is asking over the DC API (Appendix A.3); nil for a redirect request, whose verifier
    /// is its client identifier (``RedirectAuthorizationRequest/clientID``).
    package var verifier: VerifierIdentity? { dcAPI?.verifier }

    /// Why a DC API request's signature did not verify, when that was recorded instead of
    /// refused; nil otherwise (a redirect request whose signature fails is refused).
    package var signatureFailure: OpenID4VPError? { dcAPI?.signatureFailure }

    /// `expected_origins` of a signed DC API request; nil otherwise.
    package var expectedOrigins: [String]? { dcAPI?.expectedOrigins }
  }

  /// The checked request.
  package let request: Request
  /// The credentials offered to the query, in the order the evaluation indexes them.
  package let credentials: [any DCQLCredential]
  /// What the query matched.
  package let evaluation: DCQLEvaluation

  /// The wallet id of an evaluated credential.
  package func credentialID(at index: Int) -> String? {
    guard credentials.indices.contains(index) else { return nil }
    switch credentials[index] {
    case let sdJWT as SDJWTCredential: return sdJWT.id
    case let mdoc as MdocCredential: return mdoc.id
    default: return nil
    }
  }

  /// The candidates of a Credential Query with their wallet ids, in the evaluation's order.
  package func candidates(of queryID: String) -> [(
    credentialID: String, candidate: DCQLMatch.Candidate
  )] {
    (evaluation.matches[queryID]?.candidates ?? []).compactMap { candidate in
      credentialID(at: candidate.credentialIndex).map { ($0, candidate) }
    }
  }
}

/// What the holder agreed to share over OpenID4VP: per credential query, the credentials and the
/// concrete claims of each.
///
/// `Wallet.respond` refuses a consent that reaches beyond the request (OpenID4VP 1.0 §6.4): a
/// credential that is not a candidate of its query, a claim outside what the query matched in
/// that credential, or a selection that does not satisfy the query's credential sets.
public struct OpenID4VPConsent: Sendable, Hashable {
  /// One credential to present.
  public struct Item: Sendable, Hashable {
    /// The wallet id of the credential.
    public let credentialID: String
    /// The claims to disclose; empty presents only what is always presented (OpenID4VP 1.0
    /// §6.4.1).
    package let disclosed: [ClaimPath]
    /// Creates an item.
    package init(credentialID: String, disclosed: [ClaimPath]) {
      self.credentialID = credentialID
      self.disclosed = disclosed
    }
  }

  /// Items by credential query id.
  public let selections: [String: [Item]]

  /// Creates a consent.
  package init(selections: [String: [Item]]) { self.selections = selections }
}

/// The holder's choice for an OpenID4VP request: an option per credential set, the credentials
/// per Credential Query, and a limit on the claims of each credential (OpenID4VP 1.0 §6.4.2).
///
/// What is not chosen takes the minimum: a required credential set answers the first option (in
/// the query's order) that the chosen credentials satisfy, an optional set is not answered, and a
/// query presents its first candidate only, even with `multiple`.
package struct OpenID4VPChoice: Sendable, Hashable {
  /// The option the holder picked, by credential set index (`credential_sets` order).
  package var options: [Int: Int]
  /// The credentials to present, by Credential Query id; an empty list means the holder picked
  /// none for that query (so no option that needs it can be answered).
  package var credentials: [String: [String]]
  /// The claims the holder agrees to disclose, by credential id: a limit on what each query
  /// matched in the credential. A credential not named discloses everything its query matched.
  package var claims: [String: Set<ClaimPath>]

  /// Creates a choice; the empty choice is the minimum the request allows.
  package init(
    options: [Int: Int] = [:], credentials: [String: [String]] = [:],
    claims: [String: Set<ClaimPath>] = [:]
  ) {
    self.options = options
    self.credentials = credentials
    self.claims = claims
  }
}

extension Wallet {
  /// Resolves an OpenID4VP request (OpenID4VP 1.0 Appendix A): the signature, client id prefix,
  /// verifier chain and `expected_origins` for signed requests, then the DCQL query against the
  /// stored credentials of the requested types that are valid now.
  ///
  /// With `policy.requireAuthenticatedRequester`, an unsigned request is refused: only a signed
  /// request whose certificate chains to a configured verifier anchor authenticates the verifier
  /// (Appendix A.3.1 leaves an unsigned request identified by nothing but its origin).
  func resolveOpenID4VP(
    _ request: ProtocolRequest, origin: WebOrigin, policy: WalletPolicy
  ) async throws -> OpenID4VPPresentation {
    guard let protocolID = OpenID4VPProtocol(rawValue: request.protocolIdentifier) else {
      throw Refusal(
        protocolIdentifier: request.protocolIdentifier, code: .unsupportedProtocol,
        reason: "unsupported protocol")
    }
    let authorization = try AuthorizationRequest(
      protocol: protocolID, data: request.data, origin: origin,
      verifierTrustAnchors: try await trustAnchors(role: .verifier), now: clock(),
      recordingInvalidSignature: true)
    if let failure = authorization.signatureFailure,
      !policy.acceptsInvalidRequesterAuthentication || policy.requireAuthenticatedRequester
    {
      throw Refusal(
        protocolIdentifier: request.protocolIdentifier, code: .invalidRequesterAuthentication,
        reason: failure.reason, underlying: failure)
    }
    if policy.requireAuthenticatedRequester {
      guard case .authenticated = authorization.verifier else {
        throw Refusal(
          protocolIdentifier: request.protocolIdentifier, code: .requesterNotAuthenticated,
          reason: "the request is not signed, so the verifier is not authenticated")
      }
    }
    let (offered, evaluation) = try await evaluate(
      authorization.dcqlQuery, protocolIdentifier: request.protocolIdentifier, policy: policy)
    return OpenID4VPPresentation(
      request: .dcAPI(authorization), credentials: offered, evaluation: evaluation)
  }

  /// Evaluates a DCQL query against the stored credentials of the requested types that are
  /// valid now and presentable under the status policy: the part every OpenID4VP request shares,
  /// over the DC API or from an authorization request URI.
  ///
  /// - Throws: the first status ``Refusal`` when only withheld credentials could answer, else
  ///   `noMatchingCredential`.
  func evaluate(_ query: DCQLQuery, protocolIdentifier: String, policy: WalletPolicy)
    async throws -> (credentials: [any DCQLCredential], evaluation: DCQLEvaluation)
  {
    if let refusal = Self.zeroKnowledgeRefusal(query, protocolIdentifier: protocolIdentifier) {
      throw refusal
    }
    var vcts: [String] = []
    var docTypes: [String] = []
    for credentialQuery in query.credentials {
      vcts += credentialQuery.meta.vctValues ?? []
      if let docType = credentialQuery.meta.doctypeValue { docTypes.append(docType) }
    }
    let now = clock()
    var offered: [any DCQLCredential] = []
    // Of a batch, only the credential presented least often is offered (use-once); none known
    // revoked or suspended unless the policy allows it.
    let sdJWTs = Self.presentable(
      try await store.credentials(format: .sdJWT, types: Array(Set(vcts))), at: now,
      protocolIdentifier: protocolIdentifier, policy: policy)
    let mdocs = Self.presentable(
      try await store.credentials(format: .msoMdoc, types: Array(Set(docTypes))), at: now,
      protocolIdentifier: protocolIdentifier, policy: policy)
    for stored in sdJWTs.credentials {
      guard let sdJWT = stored.decodedSDJWT,
        let credential = try? SDJWTCredential(id: stored.id, sdJWT: sdJWT),
        // SD-JWT VC §3.2.2.2 (RFC 7519 §4.1.4, §4.1.5): not before `nbf`, not after `exp`.
        Self.isValid(credential.claims, at: now)
      else { continue }
      offered.append(credential)
    }
    for stored in mdocs.credentials {
      // ISO 18013-5 §9.3.1: an mdoc is valid from validFrom to validUntil (MSO validityInfo).
      guard let issuerSigned = stored.decodedMdoc,
        Self.isValid(issuerSigned.mso.validityInfo, at: now)
      else { continue }
      offered.append(MdocCredential(id: stored.id, issuerSigned: issuerSigned))
    }
    let evaluation = query.evaluate(offered)
    guard evaluation.isSatisfied else {
      if let refusal = (sdJWTs.withheld + mdocs.withheld).first { throw refusal }
      throw Refusal(
        protocolIdentifier: protocolIdentifier, code: .noMatchingCredential,
        reason:
          "the stored credentials do not satisfy the DCQL query (\(evaluation.unsatisfiedReason ?? "no match"))"
      )
    }
    return (offered, evaluation)
  }

  /// Whether an SD-JWT's processed payload is within its `nbf`/`exp` window at `now`.
  static func isValid(_ claims: ClaimValue, at now: Date) -> Bool {
    guard case .object(let members) = claims else { return true }
    func seconds(_ value: ClaimValue?) -> Double? {
      switch value {
      case .integer(let n)?: Double(n)
      case .number(let d)?: d
      default: nil
      }
    }
    let time = now.timeIntervalSince1970
    if let nbf = seconds(members["nbf"]), time < nbf { return false }
    if let exp = seconds(members["exp"]), time >= exp { return false }
    return true
  }

  /// Whether an mdoc's validity window holds at `now`.
  static func isValid(_ validity: ValidityInfo, at now: Date) -> Bool {
    validity.validFrom <= now && now <= validity.validUntil
  }

  /// Checks the consent, builds the presentations, signs them and returns the response data.
  func respondOpenID4VP(
    _ presentation: OpenID4VPPresentation, consent: OpenID4VPConsent, request: PresentationRequest
  ) async throws(WalletError) -> ProtocolResponse {
    guard let authorization = presentation.request.dcAPI else {
      throw WalletError(
        .invalidInput,
        "a request from an authorization request URI is answered with respond(to:consent:httpClient:)"
      )
    }
    let prepared = try await preparePresentations(presentation, consent: consent, request: request)
    guard let origin = request.origin else {
      throw WalletError(.invalidInput, "an OpenID4VP answer needs the origin the platform reported")
    }
    do {
      let response = try authorization.respond(
        origin: origin, presentations: prepared.presentations, now: clock())
      await logShared(
        prepared, consent: consent, request: request,
        detail: authorization.responseMode.rawValue)
      return ProtocolResponse(protocolIdentifier: request.protocolIdentifier, data: response.data)
    } catch {
      await logRefusal(request, reason: error.reason)
      throw WalletError(.refused, error.reason, underlying: error)
    }
  }

  /// The presentations of a consent, unsigned-for-binding: what every OpenID4VP answer shares.
  struct PreparedPresentations {
    /// Per Credential Query id, what to present.
    var presentations: [String: [CredentialPresentation]]
    /// The disclosed claims, for the activity log.
    var shared: [String]
  }

  /// Checks the consent against the request (nothing is signed, and the holder is not even
  /// asked, unless it fits), checks the consented credentials' status, authenticates the holder
  /// and gathers the device key signers: the part of an OpenID4VP answer that does not depend
  /// on how it is bound (origin or client id) or delivered.
  func preparePresentations(
    _ presentation: OpenID4VPPresentation, consent: OpenID4VPConsent, request: PresentationRequest
  ) async throws(WalletError) -> PreparedPresentations {
    try presentation.validate(consent)
    let byID = Dictionary(
      presentation.credentials.indices.compactMap { index in
        presentation.credentialID(at: index).map { ($0, index) }
      },
      uniquingKeysWith: { first, _ in first })
    try await requirePresentableStatus(
      consent.selections.values.flatMap { $0.map(\.credentialID) }, for: request)
    try await authenticateHolder(
      usesDeviceKey: true, context: request.holderAuthenticationContext(for: .openID4VP(consent)))
    var prepared = PreparedPresentations(presentations: [:], shared: [])
    for (queryID, items) in consent.selections {
      for item in items {
        guard let index = byID[item.credentialID] else {
          throw WalletError(
            .refused, "credential \(item.credentialID) was not offered to the query")
        }
        let signer = try await signer(forCredential: item.credentialID)
        switch presentation.credentials[index] {
        case let sdJWT as SDJWTCredential:
          prepared.presentations[queryID, default: []].append(
            sdJWT.presentation(disclosing: item.disclosed, holderKey: signer))
          prepared.shared += item.disclosed.map {
            ClaimReference(path: $0, format: DCQLFormat.sdJWTVC).logName
          }
        case let mdoc as MdocCredential:
          prepared.presentations[queryID, default: []].append(
            mdoc.presentation(disclosing: item.disclosed, deviceKey: signer))
          prepared.shared += item.disclosed.map {
            ClaimReference(path: $0, format: DCQLFormat.msoMdoc).logName
          }
        default:
          throw WalletError(.refused, "credential \(item.credentialID) has an unsupported format")
        }
      }
    }
    return prepared
  }

  /// Logs a shared OpenID4VP answer and marks its credentials presented (batch use-once).
  func logShared(
    _ prepared: PreparedPresentations, consent: OpenID4VPConsent, request: PresentationRequest,
    detail: String
  ) async {
    let ids = consent.selections.values.flatMap { $0.map(\.credentialID) }
    await log(
      NewActivity(
        timestamp: clock(), protocolIdentifier: request.protocolIdentifier,
        origin: request.origin?.serialized,
        relyingParty: request.loggedRelyingParty, outcome: .shared,
        credentialIDs: ids, sharedItems: prepared.shared.sorted(),
        detail:
          "vp_token for \(prepared.presentations.keys.sorted().joined(separator: ", ")), \(detail)"
      ))
    await markPresented(ids)
  }
}

extension OpenID4VPPresentation {
  /// The consent a screen proposes: the minimum the query allows (`OpenID4VPChoice()`).
  func proposedConsent() throws(WalletError) -> OpenID4VPConsent {
    try consent(for: OpenID4VPChoice())
  }

  /// The consent for a holder's choice (OpenID4VP 1.0 §6.4.2): for each credential set, the
  /// picked option or, for a required set, the first option (in query order) whose every query
  /// has a chosen credential; optional sets only when picked (when every set is optional and none
  /// is picked, the first option of the first set that can be answered); without
  /// `credential_sets`, every query. Each query presents its chosen credentials (by default its
  /// first candidate), each disclosing what the query matched in it, limited by the choice's
  /// claims.
  ///
  /// - Throws: `refused` naming the credential set or query the choice cannot answer, or when a
  ///   claim limit leaves a credential that a query needs with nothing to disclose.
  package func consent(for choice: OpenID4VPChoice) throws(WalletError) -> OpenID4VPConsent {
    let picks = try chosenCredentials(for: choice)
    let answered = try Self.answeredQueries(request.dcqlQuery, choice: choice, picks: picks)
    let consent = OpenID4VPConsent(
      selections: try Self.selections(answered, picks: picks, claims: choice.claims))
    try validate(consent)
    return consent
  }

  /// The credentials a choice picks, by credential query id.
  private typealias Picks = [String: [(credentialID: String, candidate: DCQLMatch.Candidate)]]

  /// The credentials each query would present: the ones the choice names, by default its first
  /// candidate; no entry when the choice leaves the query unanswerable.
  private func chosenCredentials(for choice: OpenID4VPChoice) throws(WalletError) -> Picks {
    let query = request.dcqlQuery
    var picks: Picks = [:]
    for credentialQuery in query.credentials {
      let candidates = self.candidates(of: credentialQuery.id)
      if let named = choice.credentials[credentialQuery.id] {
        var chosen: [(credentialID: String, candidate: DCQLMatch.Candidate)] = []
        for id in named {
          guard let found = candidates.first(where: { $0.credentialID == id }) else {
            throw WalletError(
              .refused, "credential \(id) cannot answer the credential query \(credentialQuery.id)")
          }
          chosen.append(found)
        }
        // `validate` refuses several credentials where `multiple` is false (§6.1).
        if !chosen.isEmpty { picks[credentialQuery.id] = chosen }
      } else if let first = candidates.first {
        // The minimum is one credential: `multiple` (§6.1) allows more, it never asks for more.
        picks[credentialQuery.id] = [first]
      }
    }
    return picks
  }

  /// The queries a choice answers: per credential set, the picked option or, for a required
  /// set, the first one the picks answer; without `credential_sets`, every query.
  private static func answeredQueries(
    _ query: DCQLQuery, choice: OpenID4VPChoice, picks: Picks
  ) throws(WalletError) -> [String] {
    var answered: [String] = []
    if let sets = query.credentialSets {
      for (index, set) in sets.enumerated() {
        if let option = choice.options[index] {
          guard set.options.indices.contains(option) else {
            throw WalletError(.refused, "credential_sets[\(index)] has no option \(option)")
          }
          let missing = set.options[option].filter { picks[$0] == nil }
          guard missing.isEmpty else {
            throw WalletError(
              .refused,
              "credential_sets[\(index)] option \(option) needs a chosen credential for \(missing.joined(separator: ", "))"
            )
          }
          answered += set.options[option]
        } else if set.required {
          guard let option = set.options.first(where: { $0.allSatisfy { picks[$0] != nil } })
          else {
            throw WalletError(
              .refused,
              "the required credential_sets[\(index)] (options \(set.options.map { "[\($0.joined(separator: ", "))]" }.joined(separator: " or "))) cannot be satisfied by the chosen credentials"
            )
          }
          answered += option
        }
      }
      // Every set optional and none picked: the minimum that still answers is the verifier's
      // first preference that can be answered.
      if answered.isEmpty, choice.options.isEmpty, !sets.contains(where: \.required) {
        answered =
          sets.lazy.compactMap { set in set.options.first { $0.allSatisfy { picks[$0] != nil } } }
          .first ?? []
      }
    } else {
      for credentialQuery in query.credentials {
        guard picks[credentialQuery.id] != nil else {
          throw WalletError(
            .refused,
            "the credential query \(credentialQuery.id) cannot be answered by the chosen credentials"
          )
        }
        answered.append(credentialQuery.id)
      }
    }
    return answered
  }

  /// What each answered query presents: its picked credentials, each disclosing what the query
  /// matched in it limited by the choice's claims (a credential left with nothing is dropped).
  private static func selections(
    _ answered: [String], picks: Picks, claims: [String: Set<ClaimPath>]
  ) throws(WalletError) -> [String: [OpenID4VPConsent.Item]] {
    var selections: [String: [OpenID4VPConsent.Item]] = [:]
    for queryID in answered where selections[queryID] == nil {
      var items: [OpenID4VPConsent.Item] = []
      for (credentialID, candidate) in picks[queryID] ?? [] {
        var disclosed = candidate.disclosed
        if let limit = claims[credentialID] {
          disclosed = disclosed.filter(limit.contains)
          // A credential whose every matched claim is withheld is not presented at all.
          if disclosed.isEmpty && !candidate.disclosed.isEmpty { continue }
        }
        items.append(.init(credentialID: credentialID, disclosed: disclosed))
      }
      guard !items.isEmpty else {
        throw WalletError(
          .refused,
          "the chosen claims leave nothing to share for the credential query \(queryID), which the request requires"
        )
      }
      selections[queryID] = items
    }
    return selections
  }

  /// The consent for a protocol-neutral selection: credentials by id (empty: the minimum) and a
  /// claim limit (nil: all requested). Naming credentials also answers the optional credential
  /// sets they satisfy; claims named that were not requested are ignored.
  ///
  /// - Throws: `refused` when the named claims include none that was requested, or as
  ///   `consent(for:)`.
  func consent(_ selection: ConsentSelection) throws(WalletError) -> OpenID4VPConsent {
    var choice = OpenID4VPChoice()
    let chosen = Set(selection.credentialIDs)
    if !chosen.isEmpty {
      for credentialQuery in request.dcqlQuery.credentials {
        let ids = candidates(of: credentialQuery.id).map(\.credentialID).filter(chosen.contains)
        choice.credentials[credentialQuery.id] =
          credentialQuery.multiple ? ids : Array(ids.prefix(1))
      }
      for (index, set) in (request.dcqlQuery.credentialSets ?? []).enumerated() where !set.required
      {
        if let option = set.options.firstIndex(where: {
          $0.allSatisfy { choice.credentials[$0]?.isEmpty == false }
        }) {
          choice.options[index] = option
        }
      }
    }
    if let wanted = selection.claims {
      var matched = false
      for query in request.dcqlQuery.credentials {
        for candidate in evaluation.matches[query.id]?.candidates ?? [] {
          guard let id = credentialID(at: candidate.credentialIndex) else { continue }
          let kept = candidate.disclosed.filter {
            wanted.contains(ClaimReference(path: $0, format: query.format))
          }
          matched = matched || !kept.isEmpty
          choice.claims[id, default: []].formUnion(kept)
        }
      }
      guard matched else {
        throw WalletError(.refused, "the chosen claims leave nothing to share")
      }
    }
    return try consent(for: choice)
  }

  /// Refuses a consent that reaches beyond the request (OpenID4VP 1.0 §6.4): an unknown query, a
  /// credential that is not a candidate of its query, several credentials without `multiple`, a
  /// claim outside what the query matched in the credential, or a selection that leaves a
  /// required credential set (or, without `credential_sets`, any query) unanswered or answers a
  /// query outside every answered option.
  func validate(_ consent: OpenID4VPConsent) throws(WalletError) {
    guard !consent.selections.isEmpty else {
      throw WalletError(.refused, "the consent shares no credential")
    }
    let queries = Dictionary(
      request.dcqlQuery.credentials.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for (queryID, items) in consent.selections {
      guard let query = queries[queryID] else {
        throw WalletError(.refused, "\(queryID) is not a credential query of the request")
      }
      try validate(items, for: query)
    }
    let answered = Set(consent.selections.keys)
    guard let sets = request.dcqlQuery.credentialSets else {
      // §6.4.2: without credential_sets, every credential query is requested.
      if let missing = request.dcqlQuery.credentials.first(where: { !answered.contains($0.id) }) {
        throw WalletError(
          .refused, "the consent leaves the credential query \(missing.id) unanswered")
      }
      return
    }
    try Self.validateCoverage(answered, sets: sets)
  }

  /// Refuses the credentials a consent names for one query when they are none, several without
  /// `multiple`, a credential twice or one that is not a candidate, or a claim outside what the
  /// query matched in the credential.
  private func validate(
    _ items: [OpenID4VPConsent.Item], for query: CredentialQuery
  ) throws(WalletError) {
    let queryID = query.id
    guard !items.isEmpty else {
      throw WalletError(.refused, "the consent names \(queryID) without a credential")
    }
    guard query.multiple || items.count == 1 else {
      throw WalletError(.refused, "the credential query \(queryID) takes one credential")
    }
    let candidates = Dictionary(
      self.candidates(of: queryID).map { ($0.credentialID, $0.candidate) },
      uniquingKeysWith: { first, _ in first })
    var seen = Set<String>()
    for item in items {
      guard seen.insert(item.credentialID).inserted else {
        throw WalletError(
          .refused, "credential \(item.credentialID) is named twice for \(queryID)")
      }
      guard let candidate = candidates[item.credentialID] else {
        throw WalletError(
          .refused,
          "credential \(item.credentialID) cannot answer the credential query \(queryID)")
      }
      let allowed = Set(candidate.disclosed)
      for path in item.disclosed where !allowed.contains(path) {
        throw WalletError(
          .refused,
          "\(ClaimReference(path: path, format: query.format).logName) was not requested from credential \(item.credentialID) by \(queryID)"
        )
      }
    }
  }

  /// Refuses answered queries that leave a required credential set unanswered, or that answer
  /// a query outside every fully answered option (§6.4.2).
  private static func validateCoverage(
    _ answered: Set<String>, sets: [CredentialSetQuery]
  ) throws(WalletError) {
    var covered = Set<String>()
    for (index, set) in sets.enumerated() {
      let full = set.options.filter { $0.allSatisfy(answered.contains) }
      // §6.4.2: a required set is answered by one of its options.
      guard !full.isEmpty || !set.required else {
        throw WalletError(
          .refused, "the consent leaves the required credential_sets[\(index)] unanswered")
      }
      for option in full { covered.formUnion(option) }
    }
    if let stray = answered.subtracting(covered).sorted().first {
      throw WalletError(
        .refused, "the consent answers \(stray) outside every option of the credential sets")
    }
  }
}
