public import DCAPI
import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCTrust
import Foundation

extension Wallet {
  /// Resolves the first request of an envelope this wallet can answer, in the website's order.
  ///
  /// - Parameters:
  ///   - envelope: the request as the platform handed it over, in any of its shapes.
  ///   - originText: the origin the platform reported; the payload is never trusted for it.
  ///   - policy: what is refused; by default the wallet's `policy`. With
  ///     `requireAuthenticatedRequester`, only requesters authenticated through a trusted chain
  ///     are answered, for every protocol (see `WalletPolicy`).
  /// - Throws: `refused` with a typed `Refusal` per request when none can be answered; the
  ///   refusal is logged.
  public func resolve(
    _ envelope: RequestEnvelope, origin originText: String, policy: WalletPolicy? = nil
  ) async throws(WalletError) -> PresentationRequest {
    // Issue 29: the policy's revocation setting is in effect for every chain resolved.
    let revocation = (policy ?? self.policy).revocation
    let fetched = revocation?.fetcher == nil ? [] : Self.presentedCertificates(envelope)
    return try await revocation.inEffect(
      for: fetched, issuers: try await requesterIssuers(revocation)
    ) { () async throws(WalletError) in
      try await resolveChecked(envelope, origin: originText, policy: policy)
    }
  }

  private func resolveChecked(
    _ envelope: RequestEnvelope, origin originText: String, policy: WalletPolicy? = nil
  ) async throws(WalletError) -> PresentationRequest {
    let policy = try await withStoredTrust(policy ?? self.policy)
    let origin: WebOrigin
    do {
      origin = try WebOrigin(originText)
    } catch {
      throw WalletError(.invalidInput, error.reason, underlying: error)
    }
    var skipped: [Refusal] = []
    for request in envelope.requests {
      let protocolIdentifier = request.protocolIdentifier
      if request.knownProtocol != nil, !policy.allows(protocolIdentifier: protocolIdentifier) {
        skipped.append(
          Refusal(
            protocolIdentifier: protocolIdentifier, code: .protocolNotAllowed,
            reason: "the policy does not allow this protocol"))
        continue
      }
      let kind: Result<PresentationRequest.Kind, Refusal>
      switch request.knownProtocol {
      case .orgIsoMdoc:
        kind = try await resolveAnnexCKind(request, origin: origin, policy: policy)
      case .openID4VPUnsigned, .openID4VPSigned, .openID4VPMultisigned, .openID4VPDraft:
        kind = try await resolveOpenID4VPKind(request, origin: origin, policy: policy)
      case nil:
        kind = .failure(
          Refusal(
            protocolIdentifier: protocolIdentifier, code: .unsupportedProtocol,
            reason: request.skipReason ?? "unsupported protocol"))
      }
      switch kind {
      case .success(let kind):
        let resolved = try await withRequesterTrust(
          PresentationRequest(
            protocolIdentifier: protocolIdentifier, origin: origin, kind: kind, skipped: skipped,
            policy: policy, now: clock()), policy: policy)
        guard let refusal = resolved.registrationRefusal(policy: policy) else { return resolved }
        skipped.append(refusal)
      case .failure(let refusal):
        skipped.append(refusal)
      }
    }
    let reason = skipped.map { "\($0.protocolIdentifier): \($0.reason)" }.joined(separator: "; ")
    await log(
      NewActivity(
        timestamp: clock(), protocolIdentifier: envelope.requests.first?.protocolIdentifier ?? "",
        origin: origin.serialized,
        outcome: .refused, detail: reason))
    throw WalletError(.refused, "no request can be answered (\(reason))", refusals: skipped)
  }

  /// An `org-iso-mdoc` request resolved, or why it is refused; a wallet error ends the
  /// resolution.
  private func resolveAnnexCKind(
    _ request: ProtocolRequest, origin: WebOrigin, policy: WalletPolicy
  ) async throws(WalletError) -> Result<PresentationRequest.Kind, Refusal> {
    do {
      return .success(.mdoc(try await resolveAnnexC(request, origin: origin, policy: policy)))
    } catch {
      return .failure(try refusal(error, protocolIdentifier: request.protocolIdentifier))
    }
  }

  /// An OpenID4VP request resolved, or why it is refused; a wallet error ends the resolution.
  private func resolveOpenID4VPKind(
    _ request: ProtocolRequest, origin: WebOrigin, policy: WalletPolicy
  ) async throws(WalletError) -> Result<PresentationRequest.Kind, Refusal> {
    do {
      return .success(
        .openID4VP(try await resolveOpenID4VP(request, origin: origin, policy: policy)))
    } catch {
      return .failure(try refusal(error, protocolIdentifier: request.protocolIdentifier))
    }
  }

  /// The refusal that an error resolving one request of an envelope becomes: an untrusted
  /// reader is not authenticated, anything the request's own checks refused is an invalid
  /// request (the error kept as the cause). A wallet error (the store) ends the resolution.
  private func refusal(_ error: any Error, protocolIdentifier: String) throws(WalletError)
    -> Refusal
  {
    switch error {
    case let refusal as Refusal:
      return refusal
    case let error as WalletError:
      throw error
    case let error as PresentationError:
      return Refusal(
        protocolIdentifier: protocolIdentifier,
        code: error.code == .untrustedReader ? .requesterNotAuthenticated : .invalidRequest,
        reason: error.reason, underlying: error)
    case let error as OrgIsoMdocError:
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: error.reason,
        underlying: error)
    case let error as OpenID4VPError:
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: error.reason,
        underlying: error)
    default:
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: "\(error)",
        underlying: error)
    }
  }

  /// Resolves an `org-iso-mdoc` request against the stored mdocs of the requested docTypes.
  private func resolveAnnexC(_ request: ProtocolRequest, origin: WebOrigin, policy: WalletPolicy)
    async throws -> AnnexCPresentation
  {
    // Only credentials of the requested docTypes are read from the store and parsed.
    let annexC = try AnnexCRequest(data: request.data)
    let docTypes = Array(Set(annexC.deviceRequest.docRequests.map(\.itemsRequest.docType)))
    let candidates = try await storedMdocs(
      docTypes: docTypes, protocolIdentifier: request.protocolIdentifier, policy: policy)
    let presentation = try AnnexCPresentation.resolve(
      request: annexC, origin: origin, credentials: candidates.mdocs,
      readerTrustAnchors: try await trustAnchors(role: .reader), now: clock())
    if let refusal = mdocPolicyRefusal(
      presentation.resolved, protocolIdentifier: request.protocolIdentifier, policy: policy,
      withheld: candidates.withheld, circuits: zeroKnowledgeCircuits)
    {
      throw refusal
    }
    return presentation
  }

  /// Builds, signs and seals the response for a consent, and logs what was shared.
  ///
  /// The consent is checked against the request and the credentials before any key is used.
  public func respond(to request: PresentationRequest, consent: PresentationConsent)
    async throws(WalletError) -> ProtocolResponse
  {
    switch (request.kind, consent) {
    case (.openID4VP(let presentation), .openID4VP(let openID4VPConsent)):
      return try await respondOpenID4VP(presentation, consent: openID4VPConsent, request: request)
    case (.mdoc, .openID4VP), (.openID4VP, .mdoc), (.inPerson, .openID4VP):
      throw WalletError(.refused, "the consent is for another protocol than the request")
    case (.inPerson, .mdoc):
      // In person the answer is the DeviceResponse itself, for the session layer to encrypt;
      // here it travels base64url-encoded (see `respondInPerson(to:consent:)`).
      let bytes = try await respondInPerson(to: request, consent: consent)
      return ProtocolResponse(
        protocolIdentifier: request.protocolIdentifier, data: .string(Base64URL.encode(bytes)))
    case (.mdoc(let presentation), .mdoc(let mdocConsent)):
      // The holder authenticates before any key is touched; a cancel sends nothing.
      try await requirePresentableStatus(
        mdocConsent.documents.map(\.credentialID), for: request)
      try await authenticateHolder(
        usesDeviceKey: true, context: request.holderAuthenticationContext(for: consent))
      var signers: [String: any Signer] = [:]
      for document in mdocConsent.documents where signers[document.credentialID] == nil {
        signers[document.credentialID] = try await signer(forCredential: document.credentialID)
      }
      do {
        let sealed = try presentation.respond(
          consent: mdocConsent, circuits: zeroKnowledgeCircuits, now: clock()
        ) { id in
          guard let signer = signers[id] else {
            throw WalletError(.notFound, "no device key for \(id)")
          }
          return signer
        }
        let items = mdocConsent.documents.flatMap { document in
          document.elements.flatMap { ns, elements in elements.sorted().map { "\(ns)/\($0)" } }
        }
        await log(
          NewActivity(
            timestamp: clock(), protocolIdentifier: request.protocolIdentifier,
            origin: request.origin?.serialized,
            relyingParty: request.requester.verifiedName, outcome: .shared,
            credentialIDs: mdocConsent.documents.map(\.credentialID),
            sharedItems: items.sorted(),
            detail: "sealed DeviceResponse, \(sealed.cipherText.count) bytes"))
        await markPresented(mdocConsent.documents.map(\.credentialID))
        return ProtocolResponse(protocolIdentifier: request.protocolIdentifier, data: sealed.data)
      } catch {
        await logRefusal(request, reason: error.reason)
        throw WalletError(.refused, error.reason, underlying: error)
      }
    }
  }

  /// Logs that a resolved request was refused (by policy or by the user).
  package func logRefusal(_ request: PresentationRequest, reason: String) async {
    await log(
      NewActivity(
        timestamp: clock(), protocolIdentifier: request.protocolIdentifier,
        origin: request.origin?.serialized,
        relyingParty: request.loggedRelyingParty, outcome: .refused, detail: reason))
  }

  /// The signer of a credential's device key.
  func signer(forCredential id: String) async throws(WalletError) -> any Signer {
    let credential: StoredCredential?
    do {
      credential = try await store.credential(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let keyID = credential?.deviceKeyID else {
      throw WalletError(.notFound, "credential \(id) has no device key")
    }
    do {
      return try await keys.signer(for: keyID)
    } catch {
      throw WalletError(.storage, "device key of \(id): \(error)", underlying: error)
    }
  }
}
