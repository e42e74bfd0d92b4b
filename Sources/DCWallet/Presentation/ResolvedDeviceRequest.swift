import DCAPI
import DCCBOR
import DCCrypto
package import DCMdoc
package import DCX509
package import Foundation

/// A DeviceRequest resolved against the wallet's mdocs for one SessionTranscript: each doc
/// request with the reader that signed it and the candidate credentials, the use cases, and the
/// checks and response building every mdoc presentation shares (ISO 18013-5 §8.3.2.1.2,
/// §9.1.3, §9.1.4). `AnnexCPresentation` (ISO/IEC TS 18013-7 Annex C) and
/// `ProximityPresentation` (ISO 18013-5 in person) each hold one.
package struct ResolvedDeviceRequest: Sendable {
  /// One doc request of the DeviceRequest.
  package struct DocumentRequest: Sendable {
    /// Its index in `docRequests`.
    package let index: Int
    /// What it asks for.
    package let itemsRequest: ItemsRequest
    /// Who signed it (its own readerAuth or readerAuthAll), nil when unsigned.
    package let reader: ReaderIdentity?
    /// Stored mdocs of the requested docType, with what each holds of the request.
    package let candidates: [Candidate]
  }

  /// A stored mdoc that can answer a doc request.
  package struct Candidate: Sendable {
    /// The credential's identifier.
    package let credentialID: String
    /// Every requested element with the credential's value or nil.
    package let match: ItemsRequestMatch
  }

  /// The DeviceRequest as received.
  package let deviceRequest: DeviceRequest
  /// The transcript the reader signatures and the device authentication are bound to.
  package let sessionTranscript: SessionTranscript
  /// The doc requests, in request order.
  package let documentRequests: [DocumentRequest]
  /// The DeviceRequestInfo use cases (alternatives over doc requests), empty when absent.
  package let useCases: [UseCase]
  /// Why reader authentication failed, when a readerAuth or readerAuthAll signature does not
  /// verify or carries no usable certificate (ISO 18013-5 §9.1.4): recorded, not thrown, so the
  /// wallet's policy decides. Every `DocumentRequest.reader` is then nil: no certificate name
  /// of such a request is ever used.
  package let readerAuthenticationFailure: MdocError?
  let credentials: [String: IssuerSigned]

  /// Resolves a DeviceRequest for a transcript: reader authentication (a signature that does
  /// not verify is recorded in `readerAuthenticationFailure`), use cases, candidates.
  ///
  /// - Throws: `invalidRequest` when the use cases are malformed or name a missing doc request.
  package static func resolve(
    deviceRequest: DeviceRequest, sessionTranscript transcript: SessionTranscript,
    credentials: [StoredMdoc], readerTrustAnchors: [Certificate], now: Date
  ) throws(PresentationError) -> ResolvedDeviceRequest {
    let authentication: RequestAuthentication?
    let failure: MdocError?
    do {
      authentication = try deviceRequest.authenticateReader(
        sessionTranscript: transcript, trustAnchors: readerTrustAnchors, at: now)
      failure = nil
    } catch {
      // §9.1.4: an invalid reader signature authenticates no one; recorded for the policy.
      authentication = nil
      failure = error
    }
    let useCases: [UseCase]
    do {
      useCases = try deviceRequest.useCases
    } catch {
      throw PresentationError(.invalidRequest, error.reason)
    }
    for useCase in useCases {
      for set in useCase.documentSets
      where set.contains(where: { !deviceRequest.docRequests.indices.contains($0) }) {
        throw PresentationError(
          .invalidRequest, "a use case refers to a doc request that does not exist")
      }
    }
    let documentRequests = deviceRequest.docRequests.enumerated().map { index, docRequest in
      DocumentRequest(
        index: index, itemsRequest: docRequest.itemsRequest,
        reader: authentication?.perDocRequest[index],
        candidates: credentials.compactMap { stored in
          docRequest.itemsRequest.match(stored.issuerSigned).map {
            Candidate(credentialID: stored.id, match: $0)
          }
        })
    }
    return ResolvedDeviceRequest(
      deviceRequest: deviceRequest, sessionTranscript: transcript,
      documentRequests: documentRequests,
      useCases: useCases, readerAuthenticationFailure: failure,
      credentials: Dictionary(
        credentials.map { ($0.id, $0.issuerSigned) }, uniquingKeysWith: { first, _ in first }))
  }

  /// Whether every doc request is signed by a trusted reader.
  package var isReaderTrusted: Bool {
    documentRequests.allSatisfy { $0.reader?.trust.isTrusted == true }
  }

  /// Refuses the request unless every doc request is signed by a trusted reader (what
  /// `WalletPolicy.requireAuthenticatedRequester` asks of an mdoc request).
  package func requireTrustedReader() throws(PresentationError) {
    if let failure = readerAuthenticationFailure {
      throw PresentationError(.invalidReaderAuthentication, failure.reason)
    }
    for document in documentRequests {
      guard let reader = document.reader else {
        throw PresentationError(
          .untrustedReader, "doc request \(document.index) is not signed by a reader")
      }
      if case .untrusted(let reason) = reader.trust {
        throw PresentationError(
          .untrustedReader, "reader \(reader.name) is not trusted: \(reason)")
      }
    }
  }

  /// The doc requests to answer: with use cases, the first satisfiable document set of each
  /// use case (mandatory ones must be satisfiable); without, every doc request that has a
  /// candidate. Nil when a mandatory use case, or every doc request, cannot be answered.
  package var answerableDocRequests: [Int]? {
    let answerable = Set(documentRequests.filter { !$0.candidates.isEmpty }.map(\.index))
    guard !useCases.isEmpty else { return answerable.isEmpty ? nil : answerable.sorted() }
    var chosen = Set<Int>()
    for useCase in useCases {
      if let set = useCase.documentSets.first(where: { $0.allSatisfy(answerable.contains) }) {
        chosen.formUnion(set)
      } else if useCase.mandatory {
        return nil
      }
    }
    return chosen.isEmpty ? nil : chosen.sorted()
  }

  /// The doc requests a consent answers with the holder's chosen credentials (empty: any
  /// candidate), at the minimum: with use cases, the first document set (in the reader's order)
  /// of each mandatory use case that the chosen credentials satisfy, and an optional use case
  /// only when credentials were chosen and satisfy one of its sets; without use cases, every doc
  /// request a chosen credential answers. When no use case is mandatory and none was chosen, the
  /// first satisfiable set of the first use case that has one, so that such a request can still
  /// be answered. Nil when a mandatory use case, or everything, is left unanswered.
  package func docRequestsToAnswer(credentials chosen: Set<String> = []) -> [Int]? {
    // Read in place: no DocumentRequest (with its candidates) is copied.
    var answerable = Set<Int>(minimumCapacity: documentRequests.count)
    for position in documentRequests.indices
    where documentRequests[position].candidates.contains(where: {
      chosen.isEmpty || chosen.contains($0.credentialID)
    }) {
      answerable.insert(documentRequests[position].index)
    }
    guard !useCases.isEmpty else { return answerable.isEmpty ? nil : answerable.sorted() }
    var answered = Set<Int>()
    for useCase in useCases where useCase.mandatory || !chosen.isEmpty {
      if let set = useCase.documentSets.first(where: { $0.allSatisfy(answerable.contains) }) {
        answered.formUnion(set)
      } else if useCase.mandatory {
        return nil
      }
    }
    if answered.isEmpty, !useCases.contains(where: \.mandatory) {
      for useCase in useCases {
        if let set = useCase.documentSets.first(where: { $0.allSatisfy(answerable.contains) }) {
          answered.formUnion(set)
          break
        }
      }
    }
    return answered.isEmpty ? nil : answered.sorted()
  }

  /// A consent that shares the minimum (`docRequestsToAnswer()`): for each doc request to answer,
  /// the first candidate's requested elements that it holds (what a consent screen proposes
  /// before the user changes anything).
  package func proposedConsent() throws(PresentationError) -> MdocConsent {
    guard let indices = docRequestsToAnswer() else {
      throw PresentationError(.noMatchingCredential, "no stored mdoc can answer the request")
    }
    let documents = indices.compactMap { index -> MdocConsent.Document? in
      guard let candidate = documentRequests[index].candidates.first else { return nil }
      // The matched elements come in runs of one namespace (request order): each run's set is
      // sized once and its namespace looked up once.
      let matched = candidate.match.elements
      var elements: [String: Set<String>] = [:]
      var start = 0
      while start < matched.count {
        let ns = matched[start].nameSpace
        var end = start + 1
        while end < matched.count, matched[end].nameSpace == ns { end += 1 }
        var identifiers = elements.removeValue(forKey: ns) ?? Set(minimumCapacity: end - start)
        for position in start..<end where matched[position].value != nil {
          identifiers.insert(matched[position].identifier)
        }
        if !identifiers.isEmpty { elements[ns] = identifiers }
        start = end
      }
      return MdocConsent.Document(
        docRequestIndex: index, credentialID: candidate.credentialID, elements: elements)
    }
    return MdocConsent(documents: documents)
  }

  /// Checks a consent against the request and the credentials, then builds the DeviceResponse:
  /// one document per consented doc request, only consented elements, each device-signed (or
  /// MACed, as `authenticator` says per credential) over this session's transcript. Nothing is signed unless the whole consent is valid.
  package func deviceResponse(
    consent: MdocConsent, authenticator: (String) throws -> DeviceAuthenticator
  ) throws(PresentationError) -> DeviceResponse {
    try validate(consent)
    var documents: [Document] = []
    for item in consent.documents.sorted(by: { $0.docRequestIndex < $1.docRequestIndex }) {
      let docRequest = documentRequests[item.docRequestIndex]
      guard let issuerSigned = credentials[item.credentialID] else {
        throw PresentationError(
          .consentViolation, "credential \(item.credentialID) is not offered")
      }
      let notReturned = Self.notReturned(
        docRequest.itemsRequest.nameSpaces, shared: item.elements)
      let deviceAuthenticator: DeviceAuthenticator
      do {
        deviceAuthenticator = try authenticator(item.credentialID)
      } catch {
        throw PresentationError(
          .cryptoFailure, "no device key for \(item.credentialID): \(error)")
      }
      do {
        documents.append(
          try Document.present(
            issuerSigned, disclosing: item.elements, notReturned: notReturned,
            sessionTranscript: sessionTranscript,
            authenticator: deviceAuthenticator))
      } catch {
        throw PresentationError(
          .cryptoFailure, "presenting \(item.credentialID): \(error.reason)")
      }
    }
    let answered = Set(consent.documents.map(\.docRequestIndex))
    let documentErrors = documentRequests.filter { !answered.contains($0.index) }.map {
      [$0.itemsRequest.docType: 0]
    }
    return DeviceResponse(documents: documents, documentErrors: documentErrors)
  }

  /// The requested elements that are not shared, reported as not returned (ISO 18013-5
  /// §8.3.2.1.2.3, error code 0).
  private static func notReturned(
    _ requestedSpaces: [(nameSpace: String, elements: [ItemsRequest.Element])],
    shared sharedElements: [String: Set<String>]
  ) -> [String: [String]] {
    var notReturned: [String: [String]] = [:]
    for (ns, requested) in requestedSpaces {
      let shared = sharedElements[ns]
      // `validate` checked that every shared element was requested: sharing as many elements
      // as the namespace's requests name (repeats included) means sharing every one of them.
      if let shared,
        shared.count
          == requestedSpaces.reduce(0, { $0 + ($1.nameSpace == ns ? $1.elements.count : 0) })
      {
        continue
      }
      for element in requested where !(shared?.contains(element.identifier) ?? false) {
        notReturned[ns, default: []].append(element.identifier)
      }
    }
    return notReturned
  }

  /// Refuses a consent that names an unknown doc request twice, a credential that is not a
  /// candidate, an element that was not requested or that the credential lacks, or that leaves
  /// a mandatory use case unanswered.
  package func validate(_ consent: MdocConsent) throws(PresentationError) {
    guard !consent.documents.isEmpty else {
      throw PresentationError(.consentViolation, "the consent shares no document")
    }
    var seen = Set<Int>()
    for item in consent.documents {
      guard documentRequests.indices.contains(item.docRequestIndex) else {
        throw PresentationError(
          .consentViolation, "doc request \(item.docRequestIndex) does not exist")
      }
      guard seen.insert(item.docRequestIndex).inserted else {
        throw PresentationError(
          .consentViolation, "doc request \(item.docRequestIndex) is answered twice")
      }
      let docRequest = documentRequests[item.docRequestIndex]
      guard
        let candidate = docRequest.candidates.first(where: { $0.credentialID == item.credentialID })
      else {
        throw PresentationError(
          .consentViolation,
          "credential \(item.credentialID) cannot answer doc request \(item.docRequestIndex)")
      }
      guard item.elements.values.contains(where: { !$0.isEmpty }) else {
        throw PresentationError(
          .consentViolation, "the consent shares no element for doc request \(item.docRequestIndex)"
        )
      }
      let matched = candidate.match.elements
      // The common case, a valid consent, is decided with one set lookup per requested element;
      // anything else is read again below to name the first offending element.
      if Self.sharesOnlyRequestedHeldElements(item.elements, of: matched) { continue }
      try Self.checkSharedElements(item.elements, of: matched, credentialID: item.credentialID)
    }
    for (index, useCase) in useCases.enumerated() where useCase.mandatory {
      guard useCase.documentSets.contains(where: { Set($0).isSubset(of: seen) }) else {
        throw PresentationError(
          .consentViolation, "mandatory use case \(index) is not answered by the consent")
      }
    }
  }

  /// Names the first consented element that was not requested or that the candidate does not
  /// hold: the slow path of `validate`, for a consent the fast path did not accept.
  private static func checkSharedElements(
    _ shared: [String: Set<String>], of matched: [ItemsRequestMatch.Element], credentialID: String
  ) throws(PresentationError) {
    // One index per candidate keeps the check linear in the request and the consent: the
    // position of each requested element's first occurrence, by namespace (the elements are
    // not copied).
    var requested: [String: [String: Int]] = [:]
    // Filled from the end, so the first occurrence of a repeated element is the one kept; the
    // elements come in runs of one namespace, whose dictionary is looked up once per run.
    func fill(_ positions: inout [String: Int], _ run: Range<Int>) {
      for position in run.reversed() { positions[matched[position].identifier] = position }
    }
    var end = matched.count
    while end > 0 {
      let ns = matched[end - 1].nameSpace
      var start = end - 1
      while start > 0, matched[start - 1].nameSpace == ns { start -= 1 }
      fill(&requested[ns, default: Dictionary(minimumCapacity: matched.count)], start..<end)
      end = start
    }
    for (ns, elements) in shared {
      let positions = requested[ns]
      for element in elements {
        guard let position = positions?[element] else {
          throw PresentationError(.consentViolation, "\(ns)/\(element) was not requested")
        }
        guard matched[position].value != nil else {
          throw PresentationError(
            .consentViolation, "credential \(credentialID) does not hold \(ns)/\(element)")
        }
      }
    }
  }

  /// Whether every consented element was requested and is held by the candidate: the fast path
  /// of `validate`, one set lookup per requested element and no index built. Each requested
  /// element's value comes from one lookup by identifier (`ItemsRequest.match`), so every
  /// occurrence of a repeated element holds the same value; a repeated element is counted once
  /// (by its index in the consented set).
  private static func sharesOnlyRequestedHeldElements(
    _ elements: [String: Set<String>], of matched: [ItemsRequestMatch.Element]
  ) -> Bool {
    var found: [String: [Set<String>.Index]] = [:]
    var start = 0
    while start < matched.count {
      let ns = matched[start].nameSpace
      var end = start + 1
      while end < matched.count, matched[end].nameSpace == ns { end += 1 }
      if let wanted = elements[ns] {
        var indices = found.removeValue(forKey: ns) ?? []
        for position in start..<end {
          guard let index = wanted.firstIndex(of: matched[position].identifier) else { continue }
          guard matched[position].value != nil else { return false }
          indices.append(index)
        }
        found[ns] = indices
      }
      start = end
    }
    for (ns, wanted) in elements {
      var indices = found[ns] ?? []
      indices.sort()
      var distinct = 0
      for position in indices.indices
      where position == 0 || indices[position - 1] != indices[position] {
        distinct += 1
      }
      if distinct != wanted.count { return false }
    }
    return true
  }
}
