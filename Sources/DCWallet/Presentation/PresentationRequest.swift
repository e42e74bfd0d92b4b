public import DCAPI
public import DCCBOR
import DCCrypto
package import DCJSON
import DCMdoc
import DCOpenID4VP
public import DCQL
public import DCTrust
package import DCX509
import Foundation

/// A DC API request resolved against the wallet: what a consent screen shows, and what the
/// response will be built from.
///
/// Every protocol (`org-iso-mdoc` Annex C, OpenID4VP over the DC API, and next ISO 18013-5
/// proximity) produces the same neutral values, computed once when the request is resolved:
/// the ``requester`` and its ``requesterAuthentication``, the requested ``documents`` (each doc
/// request or Credential Query with its requested claims, intent to retain, and candidate
/// credentials with the claims each can disclose) and the ``credentialSets`` with their options
/// and purposes. A consent screen is written against these alone, and the holder's answer is a
/// typed ``ConsentSelection`` (see ``consent(_:)``); a package-internal part keeps what only one
/// protocol has.
public struct PresentationRequest: Sendable {
  /// The protocol-specific part.
  package enum Kind: Sendable {
    /// `org-iso-mdoc` (ISO/IEC TS 18013-7 Annex C).
    case mdoc(AnnexCPresentation)
    /// OpenID4VP 1.0 over the DC API.
    case openID4VP(OpenID4VPPresentation)
    /// ISO 18013-5 in person (a DeviceRequest of a proximity session).
    case inPerson(ProximityPresentation)
  }

  /// The resolved DeviceRequest of an mdoc request (Annex C or in person); nil for OpenID4VP.
  var resolvedDeviceRequest: ResolvedDeviceRequest? {
    switch kind {
    case .mdoc(let presentation): presentation.resolved
    case .inPerson(let presentation): presentation.resolved
    case .openID4VP: nil
    }
  }

  /// Whether this is an in-person (ISO 18013-5 proximity) request: there is no ``origin``, and
  /// the requester is the reader.
  package var isInPerson: Bool {
    if case .inPerson = kind { return true }
    return false
  }

  /// The protocol being answered.
  public let protocolIdentifier: String
  /// The origin the platform reported (never one from the payload); nil in person (ISO 18013-5),
  /// where the requester is the reader in radio range and no website is involved.
  public let origin: WebOrigin?
  /// The protocol-specific request, for what only one protocol has.
  package let kind: Kind
  /// Earlier requests of the envelope that could not be answered, each with a typed refusal.
  package let skipped: [Refusal]

  /// How the requester was authenticated, recorded and never thrown: the policy decides whether
  /// it refuses (``WalletPolicy``'s `requireAuthenticatedRequester` and
  /// `acceptsInvalidRequesterAuthentication`), a consent screen shows it.
  ///
  /// Annex C: `invalid` when a readerAuth or readerAuthAll signature does not verify (ISO
  /// 18013-5 §9.1.4), `trusted` when every doc request is signed by a reader that chains to a
  /// configured reader anchor, `absent` when none is signed, `untrusted` otherwise (an untrusted
  /// chain, or only some doc requests signed). OpenID4VP: `invalid` for a signed request whose
  /// signature does not verify, `trusted` for a signed request whose verifier chain is trusted
  /// (Appendix A.3.2), `absent` for an unsigned one (Appendix A.3.1).
  public let requesterAuthentication: RequesterAuthentication

  /// Who asks, as far as the wallet could establish it.
  ///
  /// A name is verified only through a chain to a configured anchor and a signature that
  /// verifies: every doc request signed by a trusted reader (Annex C), or a signed request whose
  /// verifier chain is trusted (OpenID4VP Appendix A.3.2). A name from an untrusted or
  /// self-signed certificate, or from a request whose signature fails, is never used.
  public let requester: Requester

  /// The certificate path that authenticated the requester, leaf first: the trusted reader's
  /// x5chain as presented (Annex C, the first signed doc request) or the verifier's validated path to its
  /// anchor (OpenID4VP Appendix A.3.2). Empty unless ``requesterAuthentication`` is `trusted`, so
  /// a UI never shows an unestablished certificate as the requester's.
  package let requesterCertificates: [Certificate]

  /// What trusted the requester's certificate chain, or why nothing did (issue 29): the
  /// hand-added anchor, or the trusted list, entity and service type that made the reader or
  /// verifier trusted; for a chain that is not trusted, every reason (a disabled or stale list, a
  /// withdrawn service, a chain that validates to no source). Nil when the request carries no
  /// certificate chain (an unsigned request).
  public internal(set) var requesterTrust: TrustDecision?

  /// The chain a requester trust decision is made on, and for what: the trusted path, else the
  /// reader's chain as presented; empty when the request carries none.
  var requesterChain: (chain: [Certificate], purpose: TrustPurpose) {
    switch kind {
    case .mdoc, .inPerson:
      let presented = resolvedDeviceRequest?.documentRequests.lazy.compactMap(\.reader).first?.chain
      return (requesterCertificates.isEmpty ? presented ?? [] : requesterCertificates, .reader)
    case .openID4VP: return (requesterCertificates, .verifier)
    }
  }

  /// The doc requests (Annex C) or Credential Queries (OpenID4VP), in request order, each with
  /// its requested claims and candidate credentials; nothing in them is marked shared.
  public let documents: [ConsentScreen.Document]

  /// The credential sets (OpenID4VP `credential_sets`) or use cases (Annex C DeviceRequestInfo)
  /// with their options and which of them the stored credentials can satisfy; empty when the
  /// request has none.
  public let credentialSets: [ConsentScreen.CredentialSet]

  /// The types of the transaction data the response will be bound to (OpenID4VP §8.4).
  package let transactionDataTypes: [String]

  /// The relying party's registration (ETSI TS 119 475): absent, invalid, or verified with its
  /// binding to the requester and each requested claim within the registration or over-asked,
  /// checked against the policy's ``WalletPolicy/registrationCertificateProviders``.
  public internal(set) var registration: RelyingPartyRegistration

  /// The resolving policy's ``WalletPolicy/presentsInvalidOrSuspendedCredentials``, applied
  /// again when the response is built.
  let presentsInvalidOrSuspendedCredentials: Bool

  /// Resolves the neutral values of a protocol-specific request once.
  init(
    protocolIdentifier: String, origin: WebOrigin?, kind: Kind, skipped: [Refusal],
    policy: WalletPolicy = WalletPolicy(), now: Date
  ) {
    presentsInvalidOrSuspendedCredentials = policy.presentsInvalidOrSuspendedCredentials
    self.protocolIdentifier = protocolIdentifier
    self.origin = origin
    self.kind = kind
    self.skipped = skipped
    let authentication = Self.authentication(of: kind)
    requesterAuthentication = authentication
    requester = Self.requester(of: kind, origin: origin, authentication: authentication)
    requesterCertificates =
      authentication == .trusted ? Self.requesterCertificates(of: kind) : []
    switch kind {
    case .mdoc(let presentation):
      documents = Self.documents(presentation.resolved, MdocConsent(documents: []))
      credentialSets = Self.credentialSets(presentation.resolved, answered: [])
      transactionDataTypes = []
    case .inPerson(let presentation):
      documents = Self.documents(presentation.resolved, MdocConsent(documents: []))
      credentialSets = Self.credentialSets(presentation.resolved, answered: [])
      transactionDataTypes = []
    case .openID4VP(let presentation):
      documents = Self.documents(presentation, OpenID4VPConsent(selections: [:]))
      credentialSets = Self.credentialSets(presentation, answered: [])
      transactionDataTypes = presentation.request.transactionData.map(\.type)
    }
    registration = Self.resolveRegistration(
      of: kind, requesterCertificates: requesterCertificates, documents: documents,
      providers: policy.registrationCertificateProviders, at: now)
  }

  /// The refusal ``WalletPolicy/refusesOverAsking`` makes of this request's registration, nil
  /// when it answers.
  package func registrationRefusal(policy: WalletPolicy) -> Refusal? {
    guard policy.refusesOverAsking, let reason = registration.refusalReason else { return nil }
    return Refusal(protocolIdentifier: protocolIdentifier, code: .overAsking, reason: reason)
  }

  private static func authentication(of kind: Kind) -> RequesterAuthentication {
    switch kind {
    case .mdoc(let annexC): return authentication(of: annexC.resolved)
    case .inPerson(let proximity): return authentication(of: proximity.resolved)
    case .openID4VP(let presentation):
      if let redirect = presentation.request.redirect {
        // A redirect request whose signature or chain fails is refused while resolving: what
        // is left is trusted (x509_san_dns, x509_hash, verifier_attestation) or unsigned
        // (redirect_uri, OpenID4VP 1.0 §5.9.3).
        return redirect.verifier.isAuthenticated ? .trusted : .absent
      }
      if let failure = presentation.request.signatureFailure {
        return .invalid(reason: failure.reason)
      }
      if case .authenticated = presentation.request.verifier { return .trusted }
      return .absent
    }
  }

  /// Annex C and in person alike: `invalid` when a reader signature fails, `absent` when no doc
  /// request is signed, `trusted` when every one is signed by a trusted reader.
  private static func authentication(of presentation: ResolvedDeviceRequest)
    -> RequesterAuthentication
  {
    if let failure = presentation.readerAuthenticationFailure {
      return .invalid(reason: failure.reason)
    }
    let documents = presentation.documentRequests
    if documents.allSatisfy({ $0.reader == nil }) { return .absent }
    for document in documents {
      guard let reader = document.reader else {
        return .untrusted(reason: "doc request \(document.index) is not signed by a reader")
      }
      if case .untrusted(let reason) = reader.trust { return .untrusted(reason: reason) }
    }
    return .trusted
  }

  private static func requesterCertificates(of kind: Kind) -> [Certificate] {
    switch kind {
    case .mdoc(let presentation):
      presentation.documentRequests.lazy.compactMap(\.reader).first?.chain ?? []
    case .inPerson(let presentation):
      presentation.resolved.documentRequests.lazy.compactMap(\.reader).first?.chain ?? []
    case .openID4VP(let presentation):
      if let redirect = presentation.request.redirect {
        redirect.trustedChainPath
      } else if case .authenticated(let verifier) = presentation.request.verifier {
        verifier.trustedChain.path
      } else {
        []
      }
    }
  }

  private static func requester(
    of kind: Kind, origin: WebOrigin?, authentication: RequesterAuthentication
  ) -> Requester {
    // Only a trusted chain with a verifying signature names the requester.
    guard authentication == .trusted else { return .unverified(origin: origin) }
    switch kind {
    case .mdoc(let presentation):
      if let reader = presentation.documentRequests.lazy.compactMap(\.reader).first {
        return .verified(name: reader.name, origin: origin)
      }
      return .unverified(origin: origin)
    case .inPerson(let presentation):
      if let reader = presentation.resolved.documentRequests.lazy.compactMap(\.reader).first {
        return .verified(name: reader.name, origin: origin)
      }
      return .unverified(origin: origin)
    case .openID4VP(let presentation):
      if let redirect = presentation.request.redirect {
        // No web origin outside the DC API: an authenticated client identifier names the
        // verifier.
        return redirect.verifier.isAuthenticated
          ? .verified(name: redirect.clientID.rawValue, origin: nil) : .unverified(origin: nil)
      }
      if case .authenticated(let verifier) = presentation.request.verifier {
        return .verified(name: verifier.clientID.description, origin: origin)
      }
      return .unverified(origin: origin)
    }
  }

  /// Every claim the candidate credentials can disclose, in request order without repeats: the
  /// values a consent's claim limit (`ConsentSelection.claims`) is made of.
  package var disclosableClaims: [ClaimReference] {
    var seen = Set<ClaimReference>()
    var claims: [ClaimReference] = []
    for document in documents {
      for candidate in document.candidates {
        for claim in candidate.claims where seen.insert(claim).inserted { claims.append(claim) }
      }
    }
    return claims
  }

  /// Who asks, for logs: the verified name, else the origin; nil for an unverified reader in
  /// person, which has neither.
  package var relyingParty: String? {
    requester.verifiedName ?? origin?.serialized ?? redirectClientID
  }

  /// The client identifier of a request from an authorization request URI (redirect flows),
  /// authenticated or not; nil for every other request.
  package var redirectClientID: String? {
    if case .openID4VP(let presentation) = kind {
      return presentation.request.redirect?.clientID.rawValue
    }
    return nil
  }

  /// The requester the activity log names: the verified name, or for a redirect request the
  /// client identifier the response goes to.
  var loggedRelyingParty: String? { requester.verifiedName ?? redirectClientID }

  /// The consent a consent screen proposes before the user changes anything: the minimum the
  /// request allows (one credential per query, no optional credential set).
  public func proposedConsent() throws(WalletError) -> PresentationConsent {
    switch kind {
    case .mdoc(let presentation):
      do {
        return .mdoc(try presentation.proposedConsent())
      } catch {
        throw WalletError(.refused, error.reason, underlying: error)
      }
    case .inPerson(let presentation):
      do {
        return .mdoc(try presentation.resolved.proposedConsent())
      } catch {
        throw WalletError(.refused, error.reason, underlying: error)
      }
    case .openID4VP(let presentation):
      return .openID4VP(try presentation.proposedConsent())
    }
  }

  /// A consent narrowed by the holder's selection (see `ConsentSelection`).
  ///
  /// For OpenID4VP, each credential set answers the first option (in the query's order) the
  /// chosen credentials satisfy, and an optional set is answered only when the named credentials
  /// satisfy one of its options. Claims named that were not requested are ignored; when none of
  /// the named claims was requested, nothing is left to share and the request is refused.
  public func consent(_ selection: ConsentSelection) throws(WalletError) -> PresentationConsent {
    switch kind {
    case .openID4VP(let presentation):
      return .openID4VP(try presentation.consent(selection))
    case .mdoc(let annexC):
      return try Self.mdocConsent(annexC.resolved, selection)
    case .inPerson(let proximity):
      return try Self.mdocConsent(proximity.resolved, selection)
    }
  }

  /// An mdoc consent (Annex C or in person) narrowed by the holder's selection.
  private static func mdocConsent(
    _ presentation: ResolvedDeviceRequest, _ selection: ConsentSelection
  ) throws(WalletError) -> PresentationConsent {
    var chosen: [MdocConsent.Document] = []
    let chosenCredentials = Set(selection.credentialIDs)
    guard let indices = presentation.docRequestsToAnswer(credentials: chosenCredentials) else {
      throw WalletError(
        .refused,
        chosenCredentials.isEmpty
          ? "no stored credential can answer the request"
          : "the chosen credentials leave nothing to share (none answers the request, or a mandatory use case needs others)"
      )
    }
    var matched = false
    for index in indices {
      let docRequest = presentation.documentRequests[index]
      let candidate =
        chosenCredentials.isEmpty
        ? docRequest.candidates.first
        : docRequest.candidates.first { chosenCredentials.contains($0.credentialID) }
      guard let candidate else { continue }
      var elements: [String: Set<String>] = [:]
      for element in candidate.match.available
      where selection.claims?.contains(
        .mdoc(nameSpace: element.nameSpace, element: element.identifier)) ?? true
      {
        elements[element.nameSpace, default: []].insert(element.identifier)
        matched = true
      }
      if !elements.isEmpty {
        chosen.append(
          .init(docRequestIndex: index, credentialID: candidate.credentialID, elements: elements))
      }
    }
    guard matched, !chosen.isEmpty else {
      throw WalletError(.refused, "the chosen credentials and claims leave nothing to share")
    }
    let consent = MdocConsent(documents: chosen)
    do {
      try presentation.validate(consent)
    } catch {
      throw WalletError(.refused, error.reason, underlying: error)
    }
    return .mdoc(consent)
  }

  /// What the request asks for before any consent, as values: the requester and its
  /// authentication, each doc request or Credential Query with its requested claims (intent to
  /// retain where the protocol has it) and candidate credentials, and the credential sets with
  /// their options and purposes. Nothing is marked shared or answered.
  package var requested: ConsentScreen {
    var screen = ConsentScreen(
      origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
      requesterAuthentication: requesterAuthentication, documents: documents,
      credentialSets: credentialSets, transactionDataTypes: transactionDataTypes)
    screen.clientID = redirectClientID
    screen.registration = registration
    return screen
  }

  /// What a consent screen shows for a consent, as values: who asks and whether that is
  /// verified, each requested document or Credential Query with its candidates, what the consent
  /// presents of it claim by claim, and the credential sets with their options.
  ///
  /// Built in time linear in the size of the request and the consent.
  public func screen(for consent: PresentationConsent) -> ConsentScreen {
    var screen = unnamedScreen(for: consent)
    screen.clientID = redirectClientID
    screen.registration = registration
    return screen
  }

  private func unnamedScreen(for consent: PresentationConsent) -> ConsentScreen {
    switch (resolvedDeviceRequest, consent) {
    case (let presentation?, .mdoc(let mdocConsent)):
      return ConsentScreen(
        origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
        requesterAuthentication: requesterAuthentication,
        documents: Self.documents(presentation, mdocConsent),
        credentialSets: Self.credentialSets(
          presentation, answered: Set(mdocConsent.documents.map(\.docRequestIndex))),
        transactionDataTypes: [])
    case (nil, .openID4VP(let consent)):
      guard case .openID4VP(let presentation) = kind else { break }
      return ConsentScreen(
        origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
        requesterAuthentication: requesterAuthentication,
        documents: Self.documents(presentation, consent),
        credentialSets: Self.credentialSets(presentation, answered: Set(consent.selections.keys)),
        transactionDataTypes: transactionDataTypes)
    default:
      break
    }
    return ConsentScreen(
      origin: origin, protocolIdentifier: protocolIdentifier, requester: requester,
      requesterAuthentication: requesterAuthentication,
      documents: [], credentialSets: [], transactionDataTypes: [])
  }

  /// DeviceRequestInfo use cases are Annex C's credential sets: document sets as options.
  private static func credentialSets(_ presentation: ResolvedDeviceRequest, answered: Set<Int>)
    -> [ConsentScreen.CredentialSet]
  {
    let answerable = Set(
      presentation.documentRequests.filter { !$0.candidates.isEmpty }.map(\.index))
    return presentation.useCases.map { useCase in
      ConsentScreen.CredentialSet(
        required: useCase.mandatory,
        options: useCase.documentSets.map { $0.map(String.init) },
        satisfiableOptions: useCase.documentSets.indices.filter {
          useCase.documentSets[$0].allSatisfy(answerable.contains)
        },
        answeredOption: useCase.documentSets.firstIndex { $0.allSatisfy(answered.contains) },
        purpose: nil)
    }
  }

  private static func credentialSets(_ presentation: OpenID4VPPresentation, answered: Set<String>)
    -> [ConsentScreen.CredentialSet]
  {
    zip(
      presentation.request.dcqlQuery.credentialSets ?? [],
      presentation.evaluation.credentialSets
    ).map { set, result in
      ConsentScreen.CredentialSet(
        required: set.required, options: set.options,
        satisfiableOptions: result.satisfiableOptions,
        answeredOption: set.options.firstIndex { $0.allSatisfy(answered.contains) },
        purpose: set.purpose.map(Self.purposeText))
    }
  }

  private static func purposeText(_ value: ClaimValue) -> String {
    if case .string(let text) = value { return text }
    return value.description
  }

  private static func documents(_ presentation: ResolvedDeviceRequest, _ consent: MdocConsent)
    -> [ConsentScreen.Document]
  {
    var consented: [Int: MdocConsent.Document] = [:]
    for document in consent.documents where consented[document.docRequestIndex] == nil {
      consented[document.docRequestIndex] = document
    }
    return presentation.documentRequests.map { docRequest in
      let authentication = readerAuthentication(docRequest, of: presentation)
      var presentations: [ConsentScreen.Presentation] = []
      if let chosen = consented[docRequest.index],
        let candidate = docRequest.candidates.first(where: {
          $0.credentialID == chosen.credentialID
        })
      {
        // One pass over the match: the requested elements are in request order with their values.
        let claims = candidate.match.elements.map { element in
          ConsentScreen.Claim(
            path: ClaimPath([.key(element.nameSpace), .key(element.identifier)]
            ),
            intentToRetain: element.intentToRetain,
            shared: chosen.elements[element.nameSpace]?.contains(element.identifier) ?? false,
            value: element.value.map(ConsentScreen.Value.cbor))
        }
        presentations.append(.init(credentialID: chosen.credentialID, claims: claims))
      }
      return ConsentScreen.Document(
        id: String(docRequest.index), format: DCQLFormat.msoMdoc,
        types: [docRequest.itemsRequest.docType], authentication: authentication,
        candidateIDs: docRequest.candidates.map(\.credentialID),
        candidates: docRequest.candidates.map { candidate in
          ConsentScreen.Candidate(
            credentialID: candidate.credentialID,
            claims: candidate.match.available.map {
              .mdoc(nameSpace: $0.nameSpace, element: $0.identifier)
            })
        },
        requestedClaims: docRequest.itemsRequest.requestedElements.map {
          ConsentScreen.RequestedClaim(
            path: [.key($0.nameSpace), .key($0.element.identifier)],
            intentToRetain: $0.element.intentToRetain)
        },
        presentations: presentations,
        // Only a request the wallet proves is resolved (others are refused).
        provenInZeroKnowledge: (try? docRequest.itemsRequest.zkRequest) != nil)
    }
  }

  /// How the reader of a doc request authenticated, as the consent screen shows it.
  private static func readerAuthentication(
    _ docRequest: ResolvedDeviceRequest.DocumentRequest, of presentation: ResolvedDeviceRequest
  ) -> ConsentScreen.Authentication {
    switch docRequest.reader?.trust {
    case _ where presentation.readerAuthenticationFailure != nil:
      // §9.1.4: no certificate name of a request whose reader signature fails is used.
      .invalid(reason: presentation.readerAuthenticationFailure?.reason ?? "")
    case .trusted?: .trusted(name: docRequest.reader?.name ?? "")
    case .untrusted(let reason)?: .untrusted(reason: reason)
    case nil: .unsigned
    }
  }

  private static func documents(_ presentation: OpenID4VPPresentation, _ consent: OpenID4VPConsent)
    -> [ConsentScreen.Document]
  {
    presentation.request.dcqlQuery.credentials.map { query in
      let candidates = presentation.candidates(of: query.id)
      var byID: [String: (index: Int, disclosed: [ClaimPath])] = [:]
      for (id, candidate) in candidates where byID[id] == nil {
        byID[id] = (candidate.credentialIndex, candidate.disclosed)
      }
      let presentations = (consent.selections[query.id] ?? []).map { item in
        let shared = Set(item.disclosed)
        let root = byID[item.credentialID].map { presentation.credentials[$0.index].claims }
        let claims = (byID[item.credentialID]?.disclosed ?? item.disclosed).map { path in
          ConsentScreen.Claim(
            path: path,
            intentToRetain: nil, shared: shared.contains(path),
            value: root.flatMap { Self.value(at: path, in: $0) }.map(ConsentScreen.Value.json))
        }
        return ConsentScreen.Presentation(credentialID: item.credentialID, claims: claims)
      }
      return ConsentScreen.Document(
        id: query.id, format: query.format,
        types: query.meta.vctValues ?? query.meta.doctypeValue.map { [$0] } ?? [],
        authentication: nil, candidateIDs: candidates.map(\.credentialID),
        candidates: candidates.map { id, candidate in
          ConsentScreen.Candidate(
            credentialID: id,
            claims: candidate.disclosed.map { ClaimReference(path: $0, format: query.format) })
        },
        requestedClaims: (query.claims ?? []).map {
          ConsentScreen.RequestedClaim(path: $0.path.components, intentToRetain: $0.intentToRetain)
        },
        presentations: presentations, provenInZeroKnowledge: false)
    }
  }

  private static func value(at path: ClaimPath, in root: ClaimValue) -> ClaimValue? {
    var value = root
    for component in path.components {
      switch (component, value) {
      case (.key(let key), .object(let members)):
        guard let member = members[key] else { return nil }
        value = member
      case (.index(let index), .array(let elements)) where elements.indices.contains(index):
        value = elements[index]
      default:
        return nil
      }
    }
    return value
  }

}

/// Who asks for credentials, as far as the wallet could establish it.
public enum Requester: Sendable, Hashable {
  /// A name established through a chain to a configured anchor: the trusted reader's certificate
  /// name (Annex C, in person) or the authenticated client identifier (OpenID4VP); the origin is
  /// nil in person.
  case verified(name: String, origin: WebOrigin?)
  /// Nothing beyond the origin the platform reported (nil in person: a reader in radio range); a
  /// name the request may carry is not shown.
  case unverified(origin: WebOrigin?)

  /// The verified name, nil when unverified.
  public var verifiedName: String? {
    if case .verified(let name, _) = self { return name }
    return nil
  }

  /// The origin the platform reported; nil in person.
  public var origin: WebOrigin? {
    switch self {
    case .verified(_, let origin), .unverified(let origin): origin
    }
  }
}

/// A consent screen as values, for any protocol (see `PresentationRequest.screen(for:)`).
public struct ConsentScreen: Sendable {
  /// How a doc request was signed (Annex C).
  public enum Authentication: Sendable, Hashable {
    /// Signed by a reader that chains to a configured reader anchor.
    case trusted(name: String)
    /// Signed, but the chain does not reach a configured anchor: the certificate's name is not
    /// established. The reason is for diagnostics and may quote the certificate's subject.
    case untrusted(reason: String)
    /// Signed, but a reader signature does not verify: nothing of the certificate is
    /// established. The reason is for diagnostics.
    case invalid(reason: String)
    /// Not signed.
    case unsigned
  }

  /// A stored credential that can answer a doc request or Credential Query, with the requested
  /// claims it holds (what a consent can disclose from it).
  public struct Candidate: Sendable, Hashable {
    /// The wallet id of the credential.
    public let credentialID: String
    /// The requested claims the credential holds, in request order.
    public let claims: [ClaimReference]
  }

  /// A claim value as the credential holds it.
  public enum Value: Sendable, Hashable {
    /// An mdoc element value.
    case cbor(CBOR)
    /// An SD-JWT VC claim value.
    case json(ClaimValue)
  }

  /// A claim the request names, as the verifier wrote it.
  package struct RequestedClaim: Sendable, Hashable {
    /// The claims path (for mdoc, namespace and element identifier).
    package let path: [ClaimPathComponent]
    /// Whether the verifier says it will retain the claim (mdoc), when it says.
    package let intentToRetain: Bool?
  }

  /// One claim of a presented credential.
  package struct Claim: Sendable, Hashable {
    /// Where the claim is (for mdoc, namespace and element identifier).
    package let path: ClaimPath
    /// Whether the verifier says it will retain the claim (mdoc), when it says.
    package let intentToRetain: Bool?
    /// Whether the consent discloses it.
    package let shared: Bool
    /// The credential's value; nil when the credential does not hold the claim.
    package let value: Value?
  }

  /// A credential the consent presents, with every requested claim of it.
  package struct Presentation: Sendable, Hashable {
    /// The wallet id of the credential.
    package let credentialID: String
    /// The requested claims the credential was matched on, in request order.
    package let claims: [Claim]
  }

  /// One doc request (Annex C) or Credential Query (OpenID4VP).
  public struct Document: Sendable, Hashable {
    /// The doc request's index as text, or the Credential Query id.
    public let id: String
    /// `mso_mdoc` or `dc+sd-jwt` (or another format the query names).
    public let format: String
    /// The requested docType, or the accepted `vct` values.
    public let types: [String]
    /// How the doc request was signed (Annex C); nil for OpenID4VP, where `requester` says it.
    package let authentication: Authentication?
    /// The stored credentials that can answer it.
    package let candidateIDs: [String]
    /// The same candidates, each with the requested claims it holds.
    public let candidates: [Candidate]
    /// The claims the verifier requested.
    package let requestedClaims: [RequestedClaim]
    /// What the consent presents; empty when it is not answered.
    package let presentations: [Presentation]
    /// Whether it is answered with a zero-knowledge proof (ISO 18013-5 2nd edition
    /// `zkRequest`, Longfellow): the shared claims' values are proven to come from the issued
    /// credential, and nothing else of it is disclosed (not the issuer's signature, the other
    /// elements or the device key).
    public let provenInZeroKnowledge: Bool
  }

  /// A credential set (OpenID4VP `credential_sets`) or use case (Annex C DeviceRequestInfo).
  public struct CredentialSet: Sendable, Hashable {
    /// Whether the set must be answered.
    public let required: Bool
    /// The options, each a list of document ids, in the verifier's order of preference.
    public let options: [[String]]
    /// The options the stored credentials can satisfy.
    package let satisfiableOptions: [Int]
    /// The option the consent answers, nil when it answers none.
    package let answeredOption: Int?
    /// The verifier's purpose text, if any.
    package let purpose: String?
  }

  /// The origin the platform reported; nil in person (ISO 18013-5).
  public let origin: WebOrigin?
  /// The protocol being answered.
  public let protocolIdentifier: String
  /// Who asks, verified or not.
  public let requester: Requester
  /// How the requester was authenticated (see `PresentationRequest.requesterAuthentication`).
  public let requesterAuthentication: RequesterAuthentication
  /// The documents or Credential Queries, in request order.
  public let documents: [Document]
  /// The credential sets with their options; empty when the request has none.
  public let credentialSets: [CredentialSet]
  /// The types of the transaction data the response will be bound to (OpenID4VP §8.4).
  package let transactionDataTypes: [String]
  /// The client identifier of a request from an authorization request URI (redirect flows,
  /// where there is no origin), authenticated or not (``requester`` says which); nil otherwise.
  public internal(set) var clientID: String? = nil
  /// The relying party's registration (ETSI TS 119 475): the registered name, purpose and
  /// privacy policy to show, and the over-asked claims to mark.
  public internal(set) var registration: RelyingPartyRegistration = .absent
}

/// What the holder agreed to share.
public enum PresentationConsent: Sendable, Hashable {
  /// For `org-iso-mdoc`.
  case mdoc(MdocConsent)
  /// For OpenID4VP.
  case openID4VP(OpenID4VPConsent)
}

extension PresentationRequest {
  /// The protocol's own answer for a declined request, where the protocol defines one: OpenID4VP
  /// 1.0 §8.5 `access_denied` (the verifier learns that the holder said no, and nothing else).
  /// `org-iso-mdoc` defines no such answer: the page simply gets no credential. In person the
  /// reader is answered with a DeviceResponse without documents and status 10 (general error,
  /// no reason given): `ProximityPresentation.refusalResponse(status:)`, not a `ProtocolResponse`.
  public func declinedResponse(reason: String? = nil) -> ProtocolResponse? {
    switch kind {
    case .openID4VP(let presentation):
      // A redirect request is declined by posting to its response_uri (`Wallet.decline`).
      presentation.request.dcAPI.map {
        ProtocolResponse(
          protocolIdentifier: protocolIdentifier, data: $0.errorResponse(.accessDenied(reason)))
      }
    case .mdoc, .inPerson:
      nil
    }
  }
}
