import DCStatusList
public import DCTrust
public import DCX509
import Foundation

extension Wallet {
  // MARK: - Which lists are consulted

  /// The list policy in force: the authenticated setting, else the default (every kind, stale
  /// lists refused). A setting written without the wallet's key is refused and no list is
  /// consulted (see `trustedListPolicyStatus()`).
  public func trustedListPolicy() async throws(WalletError) -> TrustedListPolicy {
    try await trustedListPolicyStatus().policy
  }

  /// The list policy in force, with the reason when the stored setting was refused.
  package func trustedListPolicyStatus() async throws(WalletError)
    -> (policy: TrustedListPolicy, problem: StoreProblem?)
  {
    let record: SettingRecord?
    do {
      record = try await store.settingRecord(TrustedListPolicy.settingKey)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let record else { return (TrustedListPolicy(), nil) }
    func refused(_ code: WalletStoreErrorCode, _ why: String) -> (
      policy: TrustedListPolicy, problem: StoreProblem?
    ) {
      (
        .strictest,
        StoreProblem(
          record: .setting(key: record.key),
          error: WalletStoreError(
            code, "the trusted list policy \(why); no trusted list is consulted"))
      )
    }
    guard settingsAuthentication.verifies(record) else {
      return refused(.unauthenticatedRecord, "was changed without the wallet's key")
    }
    guard let policy = TrustedListPolicy(settingValue: record.value) else {
      return refused(.corruptRecord, "has an unknown value")
    }
    return (policy, nil)
  }

  /// Sets which list kinds are consulted and whether stale lists are used; the row is
  /// authenticated.
  public func setTrustedListPolicy(_ policy: TrustedListPolicy) async throws(WalletError) {
    let key = TrustedListPolicy.settingKey
    let value = policy.settingValue
    do {
      try await store.setSetting(
        SettingRecord(
          key: key, value: value,
          authenticationTag: settingsAuthentication.tag(forSetting: key, value: value)))
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  // MARK: - Decisions

  /// The anchors (authenticated rows) and usable lists, under the list policy in force.
  package func trustSources() async throws(WalletError) -> TrustSources {
    let anchors = try await checkedTrustAnchors(role: nil)
    let lists = try await trustedListListing().lists.map(\.list)
    let policy = try await trustedListPolicy()
    return TrustSources(
      anchors: zip(anchors.anchors, anchors.certificates).map { record, certificate in
        TrustAnchor(id: record.id, certificate: certificate, purposes: [record.role.purpose])
      },
      lists: lists, disabledKinds: policy.disabledKinds, staleListPolicy: policy.staleLists)
  }

  /// Whether `chain` (leaf first) is trusted for `purpose` now, and by what: a hand-added anchor
  /// or an entry of a stored list (kind, operator, entity, service type), or every reason no
  /// source trusted it (a disabled or stale list, a withdrawn service, a chain that does not
  /// validate).
  public func trustDecision(chain: [Certificate], for purpose: TrustPurpose)
    async throws(WalletError) -> TrustDecision
  {
    let sources = try await trustSources()
    return sources.decide(
      chain: chain, for: purpose, at: clock(),
      revocation: await revocationCheck(for: chain, sources: sources, purpose: purpose))
  }

  /// The check a decision on `chain` makes: the one in effect for the operation running, else
  /// the policy's (its distribution points fetched when the policy fetches).
  func revocationCheck(for chain: [Certificate], sources: TrustSources, purpose: TrustPurpose)
    async -> RevocationCheck?
  {
    if let current = RevocationCheck.current { return current }
    return await policy.revocation?.check(
      for: chain, issuers: sources.anchorCertificates(for: purpose, at: clock()))
  }
}

extension Wallet {
  /// The request with the decision on its requester's chain (``PresentationRequest/requesterTrust``),
  /// made with the sources the request was authenticated with, and its registration
  /// certificate's own status checked (``withRegistrationStatus(_:policy:)``).
  func withRequesterTrust(_ request: PresentationRequest, policy: WalletPolicy)
    async throws(WalletError) -> PresentationRequest
  {
    let (chain, purpose) = request.requesterChain
    var decided = await withRegistrationStatus(request, policy: policy)
    guard !chain.isEmpty else { return decided }
    decided.requesterTrust = try await trustDecision(chain: chain, for: purpose)
    return decided
  }

  /// The request with its verified registration certificate's status checked (issue 29): the
  /// certificate's `status.status_list` (ETSI TS 119 475 v1.2.1 Table 10, an IETF Token Status
  /// List reference) is fetched through the Token Status List checker with the client and URL
  /// policy of the revocation setting's fetcher, the list's token chaining to a
  /// registration-certificate provider. Invalid (revoked) or suspended makes the registration
  /// invalid, so ``WalletPolicy/refusesOverAsking`` refuses it and the consent screen says so;
  /// an unknown status does the same only under a fail-closed revocation policy. Without a
  /// fetcher, or a reference, nothing is fetched.
  func withRegistrationStatus(_ request: PresentationRequest, policy: WalletPolicy) async
    -> PresentationRequest
  {
    guard case .verified(let certificate, _, _) = request.registration,
      let reference = certificate.statusReference, let revocation = policy.revocation,
      let fetcher = revocation.fetcher
    else { return request }
    let checker = StatusListChecker(
      httpClient: fetcher.client,
      trustAnchors: policy.registrationCertificateProviders.anchorCertificates(
        for: .registrationCertificateProvider, at: clock()),
      urlPolicy: fetcher.urlPolicy, clock: clock)
    let result = await checker.check(
      StatusReference(index: reference.index, uri: reference.uri),
      format: certificate.form == .jwt ? .jwt : .cwt)
    let problem: String? =
      switch result {
      case .valid: nil
      case .invalid: "is revoked (its status list \(reference.uri), index \(reference.index))"
      case .suspended:
        "is suspended (its status list \(reference.uri), index \(reference.index))"
      case .applicationSpecific(let value):
        revocation.policy == .failClosed ? "has the application-specific status \(value)" : nil
      case .unknown(let reason, let detail):
        revocation.policy == .failClosed ? "has an unknown status (\(reason): \(detail))" : nil
      }
    guard let problem else { return request }
    var checked = request
    checked.registration = .invalid(
      TrustError(.revoked, "the registration certificate \(problem)"))
    return checked
  }
}

extension Wallet {
  /// What trusts a stored credential's issuer now (the anchor, or the list, entity and service
  /// type), or why nothing does; nil when the credential carries no issuer chain.
  public func issuerTrustDecision(for credential: StoredCredential) async throws(WalletError)
    -> TrustDecision?
  {
    let chain = credential.issuerChain
    guard !chain.isEmpty else { return nil }
    // An mdoc's issuer is trusted by a VICAL entry only for the docTypes it lists (ISO/IEC
    // 18013-5 Annex C.1.7.1).
    let docType = credential.format == .msoMdoc ? credential.type : nil
    let sources = try await trustSources()
    return sources.decide(
      chain: chain, for: .credentialIssuer, at: clock(),
      revocation: await revocationCheck(for: chain, sources: sources, purpose: .credentialIssuer),
      docType: docType)
  }
}

extension Wallet {
  /// The policy with the stored trusted lists added to its registration-certificate providers
  /// (issue 29): a provider a stored list names (a WRPRC providers LoTE) is trusted as one the
  /// app configured, under the stored list policy (disabled kinds add up; the stale-list policy
  /// is the stored one when the app configured no list of its own).
  func withStoredTrust(_ policy: WalletPolicy) async throws(WalletError) -> WalletPolicy {
    let stored = try await trustSources()
    guard !stored.lists.isEmpty else { return policy }
    var policy = policy
    if policy.registrationCertificateProviders.lists.isEmpty {
      policy.registrationCertificateProviders.staleListPolicy = stored.staleListPolicy
    }
    policy.registrationCertificateProviders.lists += stored.lists
    policy.registrationCertificateProviders.disabledKinds.formUnion(stored.disabledKinds)
    return policy
  }
}
