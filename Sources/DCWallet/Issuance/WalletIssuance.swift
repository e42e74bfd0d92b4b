import DCCOSE
package import DCCrypto
import DCJSON
import DCMdoc
import DCSDJWT
import DCTrust
package import DCX509
import Foundation

/// The result of storing the credentials of one credential response: one outcome per
/// credential, in the order given.
package struct IssuanceStorageResult: Sendable {
  /// For each credential given: what was stored, or why it was not.
  package let outcomes: [Result<StoredCredential, IssuanceRejection>]

  /// The credentials stored, in the order given.
  package var stored: [StoredCredential] {
    outcomes.compactMap { if case .success(let credential) = $0 { credential } else { nil } }
  }

  /// The ids of the credentials stored.
  package var storedIDs: [String] { stored.map(\.id) }

  /// Why each credential that was not stored was refused.
  package var rejected: [IssuanceRejection] {
    outcomes.compactMap { if case .failure(let rejection) = $0 { rejection } else { nil } }
  }
}

/// A credential of a response with the public key it must bind and that key's id in the key
/// store ("" for a key still in memory), or why it is refused before verification.
enum ResolvedIssuedCredential: Sendable {
  case rejected(IssuanceRejection)
  case ready(PreparedIssuedCredential, ECPublicKey, keyID: String)
}

/// A response's credentials after verification: one outcome per credential (nil for those that
/// verified until their rows are built) and the verified ones with the keys they bind.
struct VerifiedIssuedBatch: Sendable {
  var outcomes: [Result<StoredCredential, IssuanceRejection>?] = []
  var verified:
    [(index: Int, credential: VerifiedIssuedCredential, key: PreparedIssuedCredential.Key)] = []

  /// The keys still in memory that verified credentials bind, in order.
  var freshKeys: [ECPrivateKey] {
    verified.compactMap { entry -> ECPrivateKey? in
      if case .fresh(let key, _) = entry.key { key } else { nil }
    }
  }

  /// The rows of the verified credentials, fresh keys taking `freshKeyIDs` in order, and the
  /// outcomes in the response's order.
  mutating func rows(freshKeyIDs: [String], _ context: IssuedRowContext) -> IssuanceStorageResult {
    var freshIDs = freshKeyIDs[...]
    for entry in verified {
      let keyID: String
      switch entry.key {
      case .stored(let id): keyID = id
      case .fresh: keyID = freshIDs.popFirst() ?? ""
      }
      let credential = entry.credential
      let expected = context.expected
      let provenance = IssuanceProvenance(
        credentialIssuer: expected.credentialIssuer, configurationID: expected.configurationID,
        display: expected.display, notificationID: context.notificationID,
        sessionID: context.sessionID, trustBasis: credential.trustBasis,
        batchID: context.batchID,
        issuerPublishedAnchor: credential.trustBasis == .issuerPublishedIACA
          ? credential.anchor?.derBytes : nil)
      let display = CredentialDisplay(
        title: expected.display.preferred()?.name ?? context.documentTitles[credential.type]
          ?? credential.type,
        subtitle: credential.subtitle, issuerName: credential.issuerName)
      outcomes[entry.index] = .success(
        StoredCredential(
          id: context.ids?[entry.index] ?? RandomIdentifier.timeOrderedUUID(at: context.now),
          format: credential.format,
          type: credential.type, issued: credential.issued, display: display,
          validFrom: credential.validFrom, validUntil: credential.validUntil, deviceKeyID: keyID,
          issuerAuthorityKeyIdentifiers: credential.issuerAuthorityKeyIdentifiers,
          createdAt: context.now,
          // Only a wallet anchor makes the issuer trusted; the issuer's own published IACAs or
          // metadata keys (the holder's opt-in) make it issuer-vouched (issue 32).
          issuerTrust: credential.trustBasis == .walletAnchor ? .trusted : .issuerVouched,
          issuance: provenance))
    }
    return IssuanceStorageResult(outcomes: outcomes.compactMap { $0 })
  }
}

/// What every stored row of a response shares.
struct IssuedRowContext: Sendable {
  let expected: IssuanceExpectation
  let notificationID: String?
  let sessionID: String?
  let batchID: String?
  let ids: [String]?
  let now: Date
  let documentTitles: [String: String]
}

/// An issued credential on its way to verification: its payload (parsed once when the key it
/// binds had to be found) and the device key it must bind.
struct PreparedIssuedCredential: Sendable {
  /// A key already in the wallet's key store, or one still in memory (stored with the
  /// credential that binds it).
  enum Key: Sendable {
    case stored(String)
    case fresh(ECPrivateKey, ECPublicKey)
  }

  var payload: IssuedCredential.Payload
  var parsed: ParsedIssuedCredential?
  var key: Key

  init(payload: IssuedCredential.Payload, parsed: ParsedIssuedCredential? = nil, key: Key) {
    self.payload = payload
    self.parsed = parsed
    self.key = key
  }
}

/// The pending deferred issuances that can be read, and a problem for each that cannot.
package struct PendingDeferredListing: Sendable, Hashable {
  /// Readable entries, oldest first.
  package let pending: [PendingDeferredIssuance]
  /// One entry per row that could not be read.
  package let problems: [StoreProblem]
}

extension Wallet {
  // MARK: - Issued credentials (OpenID4VCI)

  /// Verifies the credentials of one credential response and stores those that verify, with
  /// their issuance provenance; nothing that fails a check is stored.
  ///
  /// Each credential is checked by `IssuedCredentialVerifier` against the wallet's issuer
  /// anchors (or what `trust` opts in to) and the public key of its `deviceKeyID` in the key
  /// store (the key the wallet made its proof with). The credentials that verify are written in
  /// one transaction with `session`, whose tokens are sealed at rest (AES-256-GCM under a key
  /// HKDF derives from the settings key; the DPoP key stays in the device key store). Several
  /// credentials form a batch: they share a batch id and are presented once each (see
  /// ``onePerBatch(_:usable:)``). The device key of a credential that was refused is deleted.
  ///
  /// - Parameters:
  ///   - credentials: the response's credentials, each with its device key id.
  ///   - expected: the issuer, configuration, doctype or vct, and display entries.
  ///   - notificationID: the response's `notification_id`, kept with each stored credential.
  ///   - session: the access token and DPoP key to notify the issuer with later.
  ///   - ids: the ids to store them under (default: new UUIDs); as many as `credentials`.
  /// - Returns: one outcome per credential.
  /// - Throws: `WalletError` `.invalidInput` for a wrong number of ids, `.storage` when the
  ///   store fails (then nothing is stored).
  package func storeIssuedCredentials(
    _ credentials: [IssuedCredential], expected: IssuanceExpectation,
    notificationID: String? = nil, session: IssuanceSession? = nil,
    trust: IssuanceTrustOptions = IssuanceTrustOptions(), ids: [String]? = nil
  ) async throws(WalletError) -> IssuanceStorageResult {
    try await verifyAndStore(
      credentials.map {
        .success(PreparedIssuedCredential(payload: $0.payload, key: .stored($0.deviceKeyID)))
      }, expected: expected, notificationID: notificationID, session: session, trust: trust,
      ids: ids, completingDeferred: nil)
  }

  /// As ``storeIssuedCredentials(_:expected:notificationID:session:trust:ids:)``, for
  /// credentials whose device keys are not known one by one: OpenID4VCI 1.0 §8.3 does not tie
  /// the order of `credentials` to the order of the proofs, so each credential is matched to the
  /// key it binds (MSO `deviceKey`, `cnf.jwk`) among `deviceKeyIDs`, each key used once. A
  /// credential that binds none of them is refused with `.deviceKeyMismatch` (and an empty
  /// `deviceKeyID`); a key no credential binds is left in the key store for the caller.
  package func storeIssuedCredentials(
    _ credentials: [IssuedCredential.Payload], deviceKeyIDs: [String],
    expected: IssuanceExpectation, notificationID: String? = nil,
    session: IssuanceSession? = nil, trust: IssuanceTrustOptions = IssuanceTrustOptions(),
    ids: [String]? = nil
  ) async throws(WalletError) -> IssuanceStorageResult {
    try await verifyAndStore(
      await matchDeviceKeys(credentials, deviceKeyIDs: deviceKeyIDs), expected: expected,
      notificationID: notificationID, session: session, trust: trust, ids: ids,
      completingDeferred: nil)
  }

  /// As ``storeIssuedCredentials(_:deviceKeyIDs:expected:notificationID:session:trust:ids:)``,
  /// with the device keys still in memory (the keys ``IssuanceClient`` made the proofs with):
  /// each credential is matched to the key it binds among `deviceKeys`, each key used once, and
  /// verified; then the keys of the credentials that verify, the session and those credentials
  /// are written in one transaction (one durable commit for the batch) when the key store keeps
  /// its keys in this wallet's store (``SoftwareKeyStore``); another key store imports those
  /// keys first (``DeviceKeyStore/importKeys(_:)``) and gets them deleted again when the
  /// credentials cannot be written.
  ///
  /// Per credential as before: one that fails a check is not stored and is reported; the ones
  /// that verify are stored together (or, when the store fails, none of them and this throws).
  /// A key no stored credential binds never reaches the key store, so a rejection's
  /// `deviceKeyID` is empty.
  package func storeIssuedCredentials(
    _ credentials: [IssuedCredential.Payload], deviceKeys: [ECPrivateKey],
    expected: IssuanceExpectation, notificationID: String? = nil,
    session: IssuanceSession? = nil, trust: IssuanceTrustOptions = IssuanceTrustOptions(),
    ids: [String]? = nil
  ) async throws(WalletError) -> IssuanceStorageResult {
    try await verifyAndStore(
      Self.matchDeviceKeys(credentials, deviceKeys: deviceKeys), expected: expected,
      notificationID: notificationID, session: session, trust: trust, ids: ids,
      completingDeferred: nil)
  }

  /// Each credential, parsed once, with the first of `deviceKeyIDs` (not yet taken) whose
  /// public key it binds.
  func matchDeviceKeys(_ credentials: [IssuedCredential.Payload], deviceKeyIDs: [String]) async
    -> [Result<PreparedIssuedCredential, IssuanceRejection>]
  {
    var candidates: [(id: String, key: ECPublicKey)] = []
    for id in deviceKeyIDs {
      if let key = try? await keys.publicKey(for: id) { candidates.append((id, key)) }
    }
    var taken = Set<String>()
    return credentials.map { payload in
      let parsed = try? ParsedIssuedCredential.parse(payload).get()
      guard let binds = parsed?.keyBinding,
        let match = candidates.first(where: { binds($0.key) && !taken.contains($0.id) })
      else {
        return .failure(
          IssuanceRejection(
            .deviceKeyMismatch,
            "the credential binds none of the keys the wallet made its proofs with"))
      }
      taken.insert(match.id)
      return .success(
        PreparedIssuedCredential(payload: payload, parsed: parsed, key: .stored(match.id)))
    }
  }

  /// Each credential, parsed once, with the first of `deviceKeys` (not yet taken) whose public
  /// key it binds; a credential binding a key another credential of the batch took is refused
  /// with `.deviceKeyReused` (OpenID4VCI 1.0 §8.2: one key per credential).
  static func matchDeviceKeys(_ credentials: [IssuedCredential.Payload], deviceKeys: [ECPrivateKey])
    -> [Result<PreparedIssuedCredential, IssuanceRejection>]
  {
    let candidates = deviceKeys.map { (key: $0, publicKey: $0.publicKey) }
    var taken = Set<Int>()
    return credentials.map { payload in
      let parsed = try? ParsedIssuedCredential.parse(payload).get()
      guard let binds = parsed?.keyBinding,
        let index = candidates.firstIndex(where: { binds($0.publicKey) })
      else {
        return .failure(
          IssuanceRejection(
            .deviceKeyMismatch,
            "the credential binds none of the keys the wallet made its proofs with"))
      }
      let match = candidates[index]
      guard taken.insert(index).inserted else {
        return .failure(
          IssuanceRejection(
            .deviceKeyReused, "another credential of this response binds the same device key"))
      }
      return .success(
        PreparedIssuedCredential(
          payload: payload, parsed: parsed, key: .fresh(match.key, match.publicKey)))
    }
  }

  private func verifyAndStore(
    _ prepared: [Result<PreparedIssuedCredential, IssuanceRejection>],
    expected: IssuanceExpectation, notificationID: String?, session: IssuanceSession?,
    trust: IssuanceTrustOptions, ids: [String]?, completingDeferred pendingID: String?
  ) async throws(WalletError) -> IssuanceStorageResult {
    let credentials = prepared
    try Self.checkStorageInputs(
      count: credentials.count, expected: expected, session: session, ids: ids)
    let now = clock()
    let rows = IssuedRowContext(
      expected: expected, notificationID: notificationID, sessionID: session?.id,
      batchID: credentials.count > 1 ? RandomIdentifier.timeOrderedUUID() : nil, ids: ids,
      now: now, documentTitles: documentTitles)
    let sessionRow = try sealedRow(session)
    // A response whose keys are all still in memory, for a key store that keeps its keys in
    // this wallet's store (`SoftwareKeyStore`), the usual issuance: one visit to the store's
    // queue reads the issuer anchors, verifies, wraps the keys and writes the batch (a round
    // trip to that queue wakes two threads).
    if pendingID == nil, let resolved = Self.resolvedInMemory(credentials),
      let software = keys as? SoftwareKeyStore, software.keepsKeys(in: store)
    {
      return try await storeInMemoryBatch(
        resolved, software: software, expected: expected, trust: trust, at: now, rows: rows,
        sessionRow: sessionRow)
    }

    let anchors = try await trustAnchors(role: .issuer)
    let resolved = try await resolveKeys(credentials)
    var batch = await policy.revocation.inEffect {
      Self.verify(resolved, expected: expected, anchors: anchors, trust: trust, at: now)
    }
    // The key ids of the verified credentials: stored keys have theirs; fresh keys are wrapped
    // here (written in the credentials' transaction) or imported by another key store.
    let (wrapped, imported) = try await keepFreshKeys(batch.freshKeys)
    let result = batch.rows(freshKeyIDs: wrapped.isEmpty ? imported : wrapped.map(\.id), rows)
    let stored = result.stored
    try await writeIssued(
      stored, completingDeferred: pendingID, wrapped: wrapped, imported: imported,
      sessionRow: sessionRow)
    // A stored key whose credential was refused proves nothing any more (a key another
    // credential binds stays: `DeviceKeyStore.deleteKey` refuses it).
    for rejection in result.rejected where !rejection.deviceKeyID.isEmpty {
      try? await keys.deleteKey(id: rejection.deviceKeyID)
    }
    if let session, stored.isEmpty, pendingID != nil {
      await releaseIssuanceSession(id: session.id)
    }
    return result
  }

  /// The row of the session the credentials name, sealed for the store.
  private func sealedRow(_ session: IssuanceSession?) throws(WalletError) -> IssuanceSessionRow? {
    do {
      return try session.map { (session) throws(WalletStoreError) in try sealed(session) }
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// Writes the stored credentials: the pending deferred issuance they complete, or a new
  /// batch with its wrapped keys and session; a failed write deletes the keys imported for it.
  private func writeIssued(
    _ stored: [StoredCredential], completingDeferred pendingID: String?,
    wrapped: [WrappedDeviceKey], imported: [String], sessionRow: IssuanceSessionRow?
  ) async throws(WalletError) {
    do {
      if let pendingID {
        try await store.completeDeferred(id: pendingID, with: stored)
      } else if !stored.isEmpty {
        try await store.insertIssued(stored, keys: wrapped, session: sessionRow)
      }
    } catch {
      for keyID in imported { try? await keys.deleteKey(id: keyID) }
      throw WalletError(
        error.code == .duplicateID ? .invalidInput : .storage, error.reason, underlying: error)
    }
  }

  /// Refuses ids that do not match the credentials one for one, or a session for another issuer.
  private static func checkStorageInputs(
    count: Int, expected: IssuanceExpectation, session: IssuanceSession?, ids: [String]?
  ) throws(WalletError) {
    if let ids, ids.count != count {
      throw WalletError(
        .invalidInput,
        "give one id per credential (\(count)), not \(ids.count)")
    }
    if let session, session.credentialIssuer != expected.credentialIssuer {
      throw WalletError(
        .invalidInput,
        "the session is for \(session.credentialIssuer), the credentials for \(expected.credentialIssuer)"
      )
    }
  }

  /// Reads the issuer anchors, verifies, wraps the fresh keys and writes the batch in one visit
  /// to the store's queue (every key still in memory, kept by a `SoftwareKeyStore` in this store).
  private func storeInMemoryBatch(
    _ resolved: [ResolvedIssuedCredential], software: SoftwareKeyStore,
    expected: IssuanceExpectation, trust: IssuanceTrustOptions, at now: Date,
    rows: IssuedRowContext, sessionRow: IssuanceSessionRow?
  ) async throws(WalletError) -> IssuanceStorageResult {
    let authentication = settingsAuthentication
    let outcome: Result<IssuanceStorageResult, WalletError>
    do {
      outcome = try await store.insertIssued(anchorsOf: .issuer) { records in
        let anchors = Self.usableTrustAnchors(records, authentication: authentication)
          .certificates
        var batch = Self.verify(
          resolved, expected: expected, anchors: anchors, trust: trust, at: now)
        var wrapped: [WrappedDeviceKey] = []
        do {
          for key in batch.freshKeys { wrapped.append(try software.wrap(key)) }
        } catch {
          return (nil, .failure(WalletError(.storage, "cannot keep the device keys: \(error)")))
        }
        let result = batch.rows(freshKeyIDs: wrapped.map(\.id), rows)
        let write = IssuedBatchWrite(
          credentials: result.stored, keys: wrapped, session: sessionRow)
        return (result.stored.isEmpty ? nil : write, .success(result))
      }
    } catch {
      throw WalletError(
        error.code == .duplicateID ? .invalidInput : .storage, error.reason, underlying: error)
    }
    return try outcome.get()
  }

  /// Each credential with the public key it must bind: fresh keys are in memory, stored keys
  /// come from the key store (each used once, and only when no stored credential binds it).
  private func resolveKeys(
    _ credentials: [Result<PreparedIssuedCredential, IssuanceRejection>]
  ) async throws(WalletError) -> [ResolvedIssuedCredential] {
    let used = try await usedDeviceKeys(credentials)
    var resolved: [ResolvedIssuedCredential] = []
    var keysSeen = Set<String>()
    for entry in credentials {
      let credential: PreparedIssuedCredential
      switch entry {
      case .success(let value): credential = value
      case .failure(let rejection):
        resolved.append(.rejected(rejection))
        continue
      }
      switch credential.key {
      case .fresh(_, let publicKey):
        resolved.append(.ready(credential, publicKey, keyID: ""))
      case .stored(let keyID):
        guard keysSeen.insert(keyID).inserted, !used.contains(keyID) else {
          resolved.append(
            .rejected(
              IssuanceRejection(
                .deviceKeyReused, "device key \(keyID) already binds another credential",
                deviceKeyID: keyID)))
          continue
        }
        do {
          resolved.append(.ready(credential, try await keys.publicKey(for: keyID), keyID: keyID))
        } catch {
          resolved.append(
            .rejected(
              IssuanceRejection(
                .unknownDeviceKey, "the wallet holds no device key \(keyID)", deviceKeyID: keyID,
                underlying: error)))
        }
      }
    }
    return resolved
  }

  /// Which of the stored keys the credentials name already bind a credential: one query for
  /// the batch.
  private func usedDeviceKeys(
    _ credentials: [Result<PreparedIssuedCredential, IssuanceRejection>]
  ) async throws(WalletError) -> Set<String> {
    let storedKeyIDs = credentials.compactMap { entry -> String? in
      guard case .success(let credential) = entry, case .stored(let id) = credential.key else {
        return nil
      }
      return id
    }
    // Fresh keys are in no row yet: no query, no hop to the store.
    guard !storedKeyIDs.isEmpty else { return [] }
    do {
      return try await store.usedDeviceKeys(storedKeyIDs)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// Keeps the fresh keys of the verified credentials: wrapped for this store by a
  /// `SoftwareKeyStore` that keeps its keys here, else imported into the key store.
  private func keepFreshKeys(
    _ fresh: [ECPrivateKey]
  ) async throws(WalletError) -> (wrapped: [WrappedDeviceKey], imported: [String]) {
    var wrapped: [WrappedDeviceKey] = []
    var imported: [String] = []
    do {
      if !fresh.isEmpty, let software = keys as? SoftwareKeyStore, software.keepsKeys(in: store) {
        for key in fresh { wrapped.append(try software.wrap(key)) }
      } else if !fresh.isEmpty {
        imported = try await keys.importKeys(fresh)
      }
    } catch {
      throw WalletError(.storage, "cannot keep the device keys: \(error)")
    }
    return (wrapped, imported)
  }

  /// Each credential with the key it must bind, when every key is still in memory; nil as soon
  /// as one names a stored key (those are resolved through the key store, asynchronously).
  static func resolvedInMemory(
    _ credentials: [Result<PreparedIssuedCredential, IssuanceRejection>]
  ) -> [ResolvedIssuedCredential]? {
    var resolved: [ResolvedIssuedCredential] = []
    for entry in credentials {
      switch entry {
      case .failure(let rejection): resolved.append(.rejected(rejection))
      case .success(let credential):
        guard case .fresh(_, let publicKey) = credential.key else { return nil }
        resolved.append(.ready(credential, publicKey, keyID: ""))
      }
    }
    return resolved
  }

  /// Verifies each credential against the key it must bind (synchronous: it runs on the
  /// store's queue on the one-visit path).
  static func verify(
    _ resolved: [ResolvedIssuedCredential], expected: IssuanceExpectation,
    anchors: [Certificate], trust: IssuanceTrustOptions, at now: Date
  ) -> VerifiedIssuedBatch {
    var batch = VerifiedIssuedBatch()
    // The credentials of a response share their document signer chain: parsed once.
    var chains = DocumentSignerChainMemo()
    for entry in resolved {
      switch entry {
      case .rejected(let rejection):
        batch.outcomes.append(.failure(rejection))
      case .ready(let credential, let deviceKey, let keyID):
        let result =
          if let parsed = credential.parsed {
            IssuedCredentialVerifier.verify(
              parsed, deviceKey: deviceKey, expected: expected, walletAnchors: anchors,
              trust: trust, at: now, chains: &chains)
          } else {
            IssuedCredentialVerifier.verify(
              credential.payload, deviceKey: deviceKey, expected: expected,
              walletAnchors: anchors, trust: trust, at: now, chains: &chains)
          }
        switch result {
        case .failure(let rejection):
          batch.outcomes.append(.failure(rejection.forKey(keyID)))
        case .success(let verified):
          batch.verified.append((batch.outcomes.count, verified, credential.key))
          batch.outcomes.append(nil)
        }
      }
    }
    return batch
  }

  /// The issuance session with this id, its tokens unsealed; nil when there is none.
  package func issuanceSession(id: String) async throws(WalletError) -> IssuanceSession? {
    let row: IssuanceSessionRow?
    do {
      row = try await store.issuanceSessionRow(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let row else { return nil }
    do {
      return try IssuanceSecrets(settingsKey: settingsAuthentication.key).session(from: row)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// Writes a stored session's new endpoints and tokens (a re-issuance's refreshed tokens).
  func updateIssuanceSession(_ session: IssuanceSession) async throws(WalletError) {
    do {
      try await store.insertIssued([], session: try sealed(session))
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  private func sealed(_ session: IssuanceSession) throws(WalletStoreError) -> IssuanceSessionRow {
    try IssuanceSecrets(settingsKey: settingsAuthentication.key).row(for: session)
  }

  // MARK: - Deferred issuance

  /// Stores a pending deferred issuance (OpenID4VCI 1.0 §9) with the session its polls use.
  package func addPendingDeferred(_ pending: PendingDeferredIssuance, session: IssuanceSession)
    async throws(WalletError)
  {
    guard pending.sessionID == session.id, pending.credentialIssuer == session.credentialIssuer
    else {
      throw WalletError(.invalidInput, "the pending issuance does not name the session given")
    }
    do {
      try await store.insertDeferred(pending, session: try sealed(session))
    } catch {
      throw WalletError(
        error.code == .duplicateID ? .invalidInput : .storage, error.reason, underlying: error)
    }
  }

  /// The pending deferred issuances, oldest first, and a problem for each row that cannot be
  /// read.
  package func pendingDeferredListing() async throws(WalletError) -> PendingDeferredListing {
    do {
      var pending: [PendingDeferredIssuance] = []
      var problems: [StoreProblem] = []
      for row in try await store.pendingDeferred() {
        switch row {
        case .success(let entry): pending.append(entry)
        case .failure(let problem): problems.append(problem)
        }
      }
      return PendingDeferredListing(pending: pending, problems: problems)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// The pending deferred issuances that can be read, oldest first.
  package func pendingDeferredIssuances() async throws(WalletError) -> [PendingDeferredIssuance] {
    try await pendingDeferredListing().pending
  }

  /// Completes a pending deferred issuance with the credentials the deferred credential
  /// endpoint returned: verified as ``storeIssuedCredentials(_:expected:notificationID:session:trust:ids:)``
  /// does (against the pending entry's configuration, display and IACA opt-in, and
  /// `issuerMetadataKeys` only with `trustIssuerMetadataKeys`), and stored in
  /// the same transaction that removes the pending entry (the `transaction_id` is used up).
  ///
  /// Each credential is matched to the pending entry's device key it binds (see
  /// ``storeIssuedCredentials(_:deviceKeyIDs:expected:notificationID:session:trust:ids:)``);
  /// the entry's keys that no stored credential binds are deleted with it.
  package func completePendingDeferred(
    id: String, credentials: [IssuedCredential.Payload], notificationID: String? = nil,
    issuerPublishedIACAs: [Certificate] = [],
    issuerMetadataKeys: JWTVCIssuerKeys? = nil, trustIssuerMetadataKeys: Bool = false
  ) async throws(WalletError) -> IssuanceStorageResult {
    guard let pending = try await pendingDeferredIssuances().first(where: { $0.id == id }) else {
      throw WalletError(.notFound, "no pending issuance \(id)")
    }
    guard let session = try await issuanceSession(id: pending.sessionID) else {
      throw WalletError(.storage, "pending issuance \(id) names no stored session")
    }
    let expected = IssuanceExpectation(
      credentialIssuer: pending.credentialIssuer, configurationID: pending.configurationID,
      format: pending.format, type: pending.expectedType, display: pending.display)
    let result = try await verifyAndStore(
      await matchDeviceKeys(credentials, deviceKeyIDs: pending.deviceKeyIDs),
      expected: expected, notificationID: notificationID, session: session,
      trust: IssuanceTrustOptions(
        issuerPublishedIACAs: issuerPublishedIACAs,
        trustIssuerPublishedIACAs: pending.trustIssuerPublishedIACAs,
        issuerMetadataKeys: issuerMetadataKeys,
        trustIssuerMetadataKeys: trustIssuerMetadataKeys),
      ids: nil, completingDeferred: id)
    // A key a stored credential now binds stays: `DeviceKeyStore.deleteKey` refuses it.
    for keyID in pending.deviceKeyIDs { try? await keys.deleteKey(id: keyID) }
    return result
  }

  /// Removes a pending deferred issuance (abandoned, or refused by the issuer), its device keys
  /// and, when nothing else uses it, its session and DPoP key. False when there is none.
  @discardableResult
  package func removePendingDeferred(id: String) async throws(WalletError) -> Bool {
    let pending = try await pendingDeferredIssuances().first { $0.id == id }
    let removed: Bool
    do {
      removed = try await store.removeDeferred(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard removed else { return false }
    if let pending {
      for keyID in pending.deviceKeyIDs { try? await keys.deleteKey(id: keyID) }
      await releaseIssuanceSession(id: pending.sessionID)
    }
    return true
  }

  // MARK: - Removal and notification

  /// What the client needs to send `credential_deleted` for a stored issued credential
  /// (OpenID4VCI 1.0 §11.1): nil for a credential that was not issued with a `notification_id`
  /// and a stored session.
  package func deletionNotice(forCredential id: String) async throws(WalletError)
    -> CredentialDeletionNotice?
  {
    let credential: StoredCredential?
    do {
      credential = try await store.credential(id: id)
    } catch {
      // A row too damaged to read can still be removed; it just notifies nobody.
      return nil
    }
    guard let issuance = credential?.issuance, let notificationID = issuance.notificationID,
      let sessionID = issuance.sessionID,
      let session = try await issuanceSession(id: sessionID)
    else { return nil }
    var signer: (any Signer)?
    if let keyID = session.dpopKeyID { signer = try? await keys.signer(for: keyID) }
    return CredentialDeletionNotice(
      credentialID: id, credentialIssuer: issuance.credentialIssuer,
      notificationID: notificationID, session: session, dpopSigner: signer)
  }

  /// Removes an issuance session no credential or pending issuance names any more, and then
  /// its DPoP key; does nothing while it is still used. A failure leaves an unused row behind,
  /// which the next removal of its last user tries again.
  func releaseIssuanceSession(id: String) async {
    guard let row = try? await store.removeIssuanceSessionIfUnused(id: id) else { return }
    if let keyID = row.dpopKeyID { try? await keys.deleteKey(id: keyID) }
  }

  // MARK: - Batch use-once

  /// The credentials to offer for a request: each credential without a batch, and of each
  /// batch (OpenID4VCI 1.0 §8.2 batch issuance) only the usable one presented least often, the
  /// oldest first on a tie, so successive presentations use different credentials of the
  /// batch (HAIP: one credential per presentation, against linking). Order is kept.
  package static func onePerBatch(
    _ credentials: [StoredCredential], usable: (StoredCredential) -> Bool = { _ in true }
  ) -> [StoredCredential] {
    var chosen: [String: StoredCredential] = [:]
    for credential in credentials where usable(credential) {
      guard let batch = credential.issuance?.batchID else { continue }
      if let current = chosen[batch], current.presentationCount <= credential.presentationCount {
        continue
      }
      chosen[batch] = credential
    }
    return credentials.filter { credential in
      guard usable(credential) else { return false }
      guard let batch = credential.issuance?.batchID else { return true }
      return chosen[batch]?.id == credential.id
    }
  }

  /// Counts a presentation of each credential (for ``onePerBatch(_:usable:)``); a failure to
  /// count never hides the response already built.
  func markPresented(_ ids: [String]) async {
    try? await store.markPresented(ids: ids)
  }
}

/// The tokens of an issuance session, sealed at rest: AES-256-GCM (NIST SP 800-38D) under
/// HKDF-SHA256(IKM = settings key, salt = empty, info = "dcwallet issuance tokens v1", L = 32),
/// a fresh 12-byte nonce, and the label `issuance_sessions` with the session id as associated
/// data, so sealed tokens copied onto another session do not open.
struct IssuanceSecrets {
  static let derivationLabel = Array("dcwallet issuance tokens v1".utf8)

  private let key: [UInt8]

  init(settingsKey: [UInt8]) throws(WalletStoreError) {
    do {
      key = try HKDF.deriveKey(
        .sha256, inputKeyMaterial: settingsKey, salt: [UInt8](), info: Self.derivationLabel,
        outputByteCount: 32)
    } catch {
      throw WalletStoreError(.keyOperationFailed, "cannot derive the issuance token key: \(error)")
    }
  }

  /// The tokens as sealed JSON.
  private struct Tokens: Codable {
    var accessToken: String?
    var tokenType: String?
    var refreshToken: String?
  }

  private static func associatedData(_ id: String) -> [UInt8] {
    Array("issuance_sessions".utf8) + [0] + Array(id.utf8)
  }

  func row(for session: IssuanceSession) throws(WalletStoreError) -> IssuanceSessionRow {
    var sealed: [UInt8]?
    if session.accessToken != nil || session.refreshToken != nil {
      let plain = Array(
        try StoreJSON.encode(
          Tokens(
            accessToken: session.accessToken, tokenType: session.tokenType,
            refreshToken: session.refreshToken)
        ).utf8)
      do {
        let box = try AES.GCM.seal(
          plain, key: key, nonce: SecureRandom.bytes(count: 12),
          authenticating: Self.associatedData(session.id))
        sealed = box.nonce + box.ciphertext + box.tag
      } catch {
        throw WalletStoreError(.keyOperationFailed, "cannot seal the session's tokens: \(error)")
      }
    }
    return IssuanceSessionRow(
      id: session.id, credentialIssuer: session.credentialIssuer,
      notificationEndpoint: session.notificationEndpoint?.absoluteString,
      deferredEndpoint: session.deferredCredentialEndpoint?.absoluteString,
      sealedTokens: sealed, dpopKeyID: session.dpopKeyID, createdAt: session.createdAt)
  }

  func session(from row: IssuanceSessionRow) throws(WalletStoreError) -> IssuanceSession {
    var tokens = Tokens()
    if let sealed = row.sealedTokens {
      let plain: [UInt8]
      do {
        let box = try AES.GCM.SealedBox(
          nonce: Array(sealed.prefix(12)), ciphertext: Array(sealed.dropFirst(12).dropLast(16)),
          tag: Array(sealed.suffix(16)))
        plain = try AES.GCM.open(box, key: key, authenticating: Self.associatedData(row.id))
      } catch {
        throw WalletStoreError(
          .keyUnwrapFailed,
          "issuance session \(row.id): the tokens do not open with this wallet's key (tampered, or another wallet's)"
        )
      }
      tokens = try StoreJSON.decode(
        Tokens.self, String(decoding: plain, as: UTF8.self), what: "issuance session \(row.id)")
    }
    return IssuanceSession(
      id: row.id, credentialIssuer: row.credentialIssuer,
      notificationEndpoint: row.notificationEndpoint.flatMap(URL.init(string:)),
      deferredCredentialEndpoint: row.deferredEndpoint.flatMap(URL.init(string:)),
      accessToken: tokens.accessToken, tokenType: tokens.tokenType,
      refreshToken: tokens.refreshToken, dpopKeyID: row.dpopKeyID, createdAt: row.createdAt)
  }
}
