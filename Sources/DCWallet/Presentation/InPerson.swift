import DCAPI
import DCCBOR
import DCCrypto
package import DCMdoc
import DCTrust
import Foundation

extension Wallet {
  /// Resolves an in-person DeviceRequest (ISO 18013-5, decrypted by the session layer) for this
  /// session's transcript into the same `PresentationRequest` as the DC API flows: the reader as
  /// requester (named only when its readerAuth chains to a reader anchor), its
  /// `requesterAuthentication`, the requested documents with intent to retain and candidates.
  ///
  /// The policy applies as for Annex C: the protocol must be allowed
  /// (``ProximityPresentation/protocolIdentifier``), an invalid readerAuth is refused unless
  /// `acceptsInvalidRequesterAuthentication`, `requireAuthenticatedRequester` refuses an
  /// unsigned or untrusted reader; `inPersonDeviceAuthentication` is kept for the response.
  ///
  /// - Throws: `refused` with one typed `Refusal` (logged); answer it with
  ///   `ProximityPresentation.refusalResponse(status: ProximityPresentation.status(for:))`.
  package func resolveInPerson(
    deviceRequest bytes: [UInt8], sessionTranscript: SessionTranscript,
    policy: WalletPolicy? = nil
  ) async throws(WalletError) -> PresentationRequest {
    let revocation = (policy ?? self.policy).revocation
    let fetched =
      revocation?.fetcher == nil
      ? [] : ((try? ProximityPresentation.decode(bytes)).map(Self.presentedCertificates) ?? [])
    return try await revocation.inEffect(
      for: fetched, issuers: try await requesterIssuers(revocation)
    ) { () async throws(WalletError) in
      try await resolveInPersonChecked(
        deviceRequest: bytes, sessionTranscript: sessionTranscript, policy: policy)
    }
  }

  /// ``resolveInPerson(deviceRequest:sessionTranscript:policy:)`` with the revocation setting
  /// in effect.
  private func resolveInPersonChecked(
    deviceRequest bytes: [UInt8], sessionTranscript: SessionTranscript,
    policy: WalletPolicy? = nil
  ) async throws(WalletError) -> PresentationRequest {
    let policy = try await withStoredTrust(policy ?? self.policy)
    let protocolIdentifier = ProximityPresentation.protocolIdentifier
    do {
      guard policy.allows(protocolIdentifier: protocolIdentifier) else {
        throw Refusal(
          protocolIdentifier: protocolIdentifier, code: .protocolNotAllowed,
          reason: "the policy does not allow this protocol")
      }
      let request = try ProximityPresentation.decode(bytes)
      let docTypes = Array(Set(request.docRequests.map(\.itemsRequest.docType)))
      let candidates = try await storedMdocs(
        docTypes: docTypes, protocolIdentifier: protocolIdentifier, policy: policy)
      let presentation = try ProximityPresentation.resolve(
        request: request, sessionTranscript: sessionTranscript,
        credentials: candidates.mdocs,
        readerTrustAnchors: try await trustAnchors(role: .reader), now: clock(),
        deviceAuthentication: policy.inPersonDeviceAuthentication)
      if let refusal = mdocPolicyRefusal(
        presentation.resolved, protocolIdentifier: protocolIdentifier, policy: policy,
        withheld: candidates.withheld)
      {
        throw refusal
      }
      let resolved = try await withRequesterTrust(
        PresentationRequest(
          protocolIdentifier: protocolIdentifier, origin: nil, kind: .inPerson(presentation),
          skipped: [], policy: policy, now: clock()), policy: policy)
      if let refusal = resolved.registrationRefusal(policy: policy) { throw refusal }
      return resolved
    } catch let refusal as Refusal {
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: protocolIdentifier, outcome: .refused,
          detail: "\(protocolIdentifier): \(refusal.reason)"))
      throw WalletError(
        .refused, "the request cannot be answered (\(refusal.reason))", refusals: [refusal])
    } catch let error as WalletError {
      throw error
    } catch {
      throw WalletError(.refused, "\(error)", underlying: error)
    }
  }

  /// Answers an in-person request with the consented documents: holder authentication first,
  /// then (the consent checked against the request before any key is
  /// used) a DeviceResponse whose documents carry a deviceSignature or a deviceMac over this
  /// session's transcript, as the request's `inPersonDeviceAuthentication` says; the sharing is
  /// logged. The session layer encrypts the bytes.
  ///
  /// - Throws: `unsupportedDeviceAuthentication` when a deviceMac is required and a device key
  ///   cannot agree (or the transcript has no EReaderKey); `refused` for a consent the request
  ///   does not allow. Nothing is signed or MACed unless the whole consent is valid.
  package func respondInPerson(to request: PresentationRequest, consent: PresentationConsent)
    async throws(WalletError) -> [UInt8]
  {
    guard case .inPerson(let presentation) = request.kind else {
      throw WalletError(.refused, "the request is not an in-person request")
    }
    guard case .mdoc(let mdocConsent) = consent else {
      throw WalletError(.refused, "the consent is for another protocol than the request")
    }
    try await requirePresentableStatus(mdocConsent.documents.map(\.credentialID), for: request)
    // The holder authenticates before any key is touched; a cancel sends nothing.
    try await authenticateHolder(
      usesDeviceKey: true, context: request.holderAuthenticationContext(for: consent))
    var authenticators: [String: DeviceAuthenticator] = [:]
    for document in mdocConsent.documents where authenticators[document.credentialID] == nil {
      authenticators[document.credentialID] = try await inPersonAuthenticator(
        forCredential: document.credentialID, presentation: presentation)
    }
    do {
      let response = try presentation.resolved.deviceResponse(consent: mdocConsent) { id in
        guard let authenticator = authenticators[id] else {
          throw WalletError(.notFound, "no device key for \(id)")
        }
        return authenticator
      }
      let bytes = response.bytes
      let items = mdocConsent.documents.flatMap { document in
        document.elements.flatMap { ns, elements in elements.sorted().map { "\(ns)/\($0)" } }
      }
      let macs = response.documents.filter {
        if case .mac = $0.deviceSigned.deviceAuth { true } else { false }
      }.count
      await log(
        NewActivity(
          timestamp: clock(), protocolIdentifier: request.protocolIdentifier,
          relyingParty: request.requester.verifiedName, outcome: .shared,
          credentialIDs: mdocConsent.documents.map(\.credentialID),
          sharedItems: items.sorted(),
          detail:
            "DeviceResponse in person, \(bytes.count) bytes, "
            + (macs == 0
              ? "deviceSignature"
              : macs == response.documents.count ? "deviceMac" : "deviceMac and deviceSignature")))
      await markPresented(mdocConsent.documents.map(\.credentialID))
      return bytes
    } catch {
      await logRefusal(request, reason: error.reason)
      throw WalletError(.refused, error.reason, underlying: error)
    }
  }

  /// The device authentication of one credential under the request's policy value.
  private func inPersonAuthenticator(
    forCredential id: String, presentation: ProximityPresentation
  ) async throws(WalletError) -> DeviceAuthenticator {
    if presentation.deviceAuthentication != .signature {
      switch try await macAuthenticator(forCredential: id, presentation: presentation) {
      case .success(let authenticator): return authenticator
      case .failure(let error):
        if presentation.deviceAuthentication == .mac { throw error }
      }
    }
    return .signature(try await signer(forCredential: id))
  }

  /// A deviceMac authenticator, or why there is none (§9.1.3.5 needs the transcript's EReaderKey
  /// and a device key the key store can agree with).
  private func macAuthenticator(forCredential id: String, presentation: ProximityPresentation)
    async throws(WalletError) -> Result<DeviceAuthenticator, WalletError>
  {
    let eReaderKey: ECPublicKey?
    do {
      eReaderKey = try presentation.sessionTranscript.eReaderKey
    } catch {
      return .failure(
        WalletError(.unsupportedDeviceAuthentication, error.reason, underlying: error))
    }
    guard let eReaderKey else {
      return .failure(
        WalletError(
          .unsupportedDeviceAuthentication,
          "a deviceMac needs the reader's EReaderKey, and the SessionTranscript has none"))
    }
    let credential: StoredCredential?
    do {
      credential = try await store.credential(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let keyID = credential?.deviceKeyID else {
      throw WalletError(.notFound, "credential \(id) has no device key")
    }
    let agreement: (any KeyAgreementKey)?
    do {
      agreement = try await keys.keyAgreement(for: keyID)
    } catch {
      throw WalletError(.storage, "device key of \(id): \(error)", underlying: error)
    }
    guard let agreement else {
      return .failure(
        WalletError(
          .unsupportedDeviceAuthentication,
          "the device key of \(id) cannot do key agreement, so no deviceMac can be made"))
    }
    return .success(.mac(agreement, eReaderKey: eReaderKey))
  }

  /// The refusal an mdoc request gets under a policy, shared by Annex C and in person: a
  /// zero-knowledge request no circuit of `circuits` answers (in person: every one), an invalid
  /// reader signature (unless accepted), an unauthenticated reader when the policy requires one,
  /// or no stored mdoc that matches (named for the status of a credential `withheld` for it,
  /// when one was).
  func mdocPolicyRefusal(
    _ resolved: ResolvedDeviceRequest, protocolIdentifier: String, policy: WalletPolicy,
    withheld: [Refusal] = [], circuits: [ZeroKnowledgeProverCircuit] = []
  ) -> Refusal? {
    if let refusal = zeroKnowledgeRefusal(
      resolved, circuits: circuits, protocolIdentifier: protocolIdentifier)
    {
      return refusal
    }
    if let failure = resolved.readerAuthenticationFailure,
      !policy.acceptsInvalidRequesterAuthentication || policy.requireAuthenticatedRequester
    {
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequesterAuthentication,
        reason: failure.reason, underlying: failure)
    }
    if policy.requireAuthenticatedRequester {
      do {
        try resolved.requireTrustedReader()
      } catch {
        return Refusal(
          protocolIdentifier: protocolIdentifier,
          code: error.code == .untrustedReader ? .requesterNotAuthenticated : .invalidRequest,
          reason: error.reason, underlying: error)
      }
    }
    guard resolved.answerableDocRequests != nil else {
      if let refusal = withheld.first { return refusal }
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .noMatchingCredential,
        reason: "no stored mdoc matches the requested documents")
    }
    return nil
  }
}
