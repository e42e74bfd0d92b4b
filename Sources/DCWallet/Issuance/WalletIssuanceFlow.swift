import DCCrypto
import DCHTTP
import DCJOSE
import DCJSON
public import DCOpenID4VCI
package import DCX509
public import Foundation

/// What one issuance left in the wallet: the credentials stored (each verified before storage),
/// the deferred requests stored as pending, and what failed with its reason.
public struct WalletIssuanceResult: Sendable {
  /// The credentials stored, in the order the issuer returned them.
  public var stored: [StoredCredential]
  /// The deferred issuances stored as pending (poll them with ``WalletIssuance/pollDeferred(id:)``).
  public var deferred: [PendingDeferredIssuance]
  /// What was not stored, per configuration, with why.
  public var failed: [WalletIssuanceFailure]
  /// Notifications (OpenID4VCI 1.0 §11) that could not be delivered; they never undo what was
  /// stored.
  package var notificationFailures: [IssuanceError]
  /// The ids of the credentials a re-issuance replaced: removed once the new ones were stored
  /// (see ``WalletIssuance/reissue(credentialID:batchSize:storage:)``).
  package var replaced: [String] = []

  /// An empty result.
  package init(
    stored: [StoredCredential] = [], deferred: [PendingDeferredIssuance] = [],
    failed: [WalletIssuanceFailure] = [], notificationFailures: [IssuanceError] = []
  ) {
    self.stored = stored
    self.deferred = deferred
    self.failed = failed
    self.notificationFailures = notificationFailures
  }

  /// Whether everything asked for was stored or deferred.
  package var isComplete: Bool { failed.isEmpty }

  mutating func append(_ other: WalletIssuanceResult) {
    stored += other.stored
    deferred += other.deferred
    failed += other.failed
    notificationFailures += other.notificationFailures
    replaced += other.replaced
  }
}

/// A configuration, or one credential of it, that was not stored.
public struct WalletIssuanceFailure: Sendable {
  /// Why, by stage.
  package enum Cause: Sendable {
    /// The exchange with the issuer failed (token, credential request, deferred poll, ...).
    case issuance(IssuanceError)
    /// The credential arrived and failed verification before storage.
    case rejected(IssuanceRejection)
    /// The wallet could not keep it (key store or database).
    case wallet(WalletError)
  }

  /// The credential configuration.
  public var configurationID: String
  /// Why it was not stored.
  package var cause: Cause

  /// Creates a failure.
  package init(configurationID: String, cause: Cause) {
    self.configurationID = configurationID
    self.cause = cause
  }

  /// The cause's reason.
  public var reason: String {
    switch cause {
    case .issuance(let error): error.reason
    case .rejected(let rejection): rejection.reason
    case .wallet(let error): error.reason
    }
  }
}

/// The wallet's side of OpenID4VCI 1.0 from offer to storage: an ``IssuanceClient`` talks to the
/// issuer, and every credential it receives is verified before it is stored
/// (by the same checks as an import, against the wallet's issuer anchors), the issuer
/// is told `credential_accepted` or `credential_failure` (§11), deferred requests are kept as
/// pending entries, and removing an issued credential tells the issuer `credential_deleted`.
///
/// Device keys and the DPoP key the client made are moved into the wallet's key store; the
/// access token is sealed in the store with the session.
public struct WalletIssuance: Sendable {
  /// The wallet credentials go to.
  public let wallet: Wallet
  /// The client that talks to issuers.
  public let client: IssuanceClient

  /// Joins `wallet` and `client`.
  public init(wallet: Wallet, client: IssuanceClient) {
    self.wallet = wallet
    self.client = client
  }

  /// How to store what an issuance returns.
  public struct StorageOptions: Sendable, Hashable {
    /// The holder's explicit opt-in to trust the IACAs the issuer publishes at `mdoc_iacas_uri`
    /// as mdoc anchors, for this issuance only; each credential stored that way records it
    /// (``IssuanceTrustBasis/issuerPublishedIACA``).
    package var trustIssuerPublishedIACAs: Bool
    /// The ids to store the credentials under, in the order they arrive; the rest get UUIDs.
    package var ids: [String]

    /// Creates options; by default only the wallet's own issuer anchors count.
    public init(trustIssuerPublishedIACAs: Bool = false, ids: [String] = []) {
      self.trustIssuerPublishedIACAs = trustIssuerPublishedIACAs
      self.ids = ids
    }
  }

  // MARK: Flows

  /// Runs the pre-authorized code flow for `offer` and stores what it returns.
  ///
  /// - Throws: `IssuanceError` when the exchange with the issuer fails before any credential is
  ///   requested (the offer, the metadata, the token; `metadata` too when the IACA opt-in is given
  ///   and the issuer publishes none); what fails after is in the result's `failed`.
  public func issuePreAuthorized(
    offer: CredentialOffer, txCode: String?, options: IssuanceClient.Options = .init(),
    storage: StorageOptions = StorageOptions()
  ) async throws(IssuanceError) -> WalletIssuanceResult {
    if let grant = offer.preAuthorizedCode {
      try IssuanceClient.checkTransactionCode(txCode, for: grant)
    }
    let context = try await client.issuerMetadata(offer.credentialIssuer)
    let iacas = try await publishedIACAs(context, optIn: storage.trustIssuerPublishedIACAs)
    let result = try await client.issuePreAuthorized(
      offer: offer, txCode: txCode, issuer: context, options: options)
    return await store(result, iacas: iacas, storage: storage)
  }

  /// The first half of the authorization code flow: the authorization URL to open in a browser;
  /// finish with ``completeAuthorization(_:redirect:storage:)``.
  public func beginAuthorization(offer: CredentialOffer, options: IssuanceClient.Options = .init())
    async throws(IssuanceError) -> PendingAuthorization
  {
    try await client.beginAuthorization(offer: offer, options: options)
  }

  /// Finishes the authorization code flow with the redirect URL the browser ended on and stores
  /// what it returns.
  public func completeAuthorization(
    _ pending: PendingAuthorization, redirect: URL, storage: StorageOptions = StorageOptions()
  ) async throws(IssuanceError) -> WalletIssuanceResult {
    let iacas = try await publishedIACAs(
      pending.issuer, optIn: storage.trustIssuerPublishedIACAs)
    let result = try await client.completeAuthorization(pending, redirect: redirect)
    return await store(result, iacas: iacas, storage: storage)
  }

  /// The IACAs the issuer publishes, when the holder opted in to trusting them.
  func publishedIACAs(_ context: IssuerContext, optIn: Bool) async throws(IssuanceError)
    -> [Certificate]
  {
    guard optIn else { return [] }
    var certificates: [Certificate] = []
    for der in try await client.issuerIACAs(context) {
      do {
        certificates.append(try Certificate(derEncoded: der))
      } catch {
        throw IssuanceError(
          .metadata, "an IACA at mdoc_iacas_uri is not a certificate: \(error.reason)",
          underlying: error)
      }
    }
    return certificates
  }

  // MARK: Storage

  /// Verifies and stores the credentials of `result`, keeps its deferred requests as pending
  /// entries, and notifies the issuer per credential response.
  package func store(
    _ result: IssuanceResult, iacas: [Certificate], storage: StorageOptions
  ) async -> WalletIssuanceResult {
    await store(result, iacas: iacas, storage: storage, renewing: nil)
  }

  /// As above; with `renewed` (a re-issuance), the credentials name that stored session, whose
  /// tokens the caller has already updated, and it is never released here.
  func store(
    _ result: IssuanceResult, iacas: [Certificate], storage: StorageOptions,
    renewing renewed: IssuanceSession?, dpopSigner: (any Signer)? = nil
  ) async -> WalletIssuanceResult {
    var out = WalletIssuanceResult()
    out.failed = result.failed.map {
      WalletIssuanceFailure(configurationID: $0.configurationID, cause: .issuance($0.error))
    }
    var session: IssuanceSession? = renewed
    if renewed == nil { session = await newSession(result) }
    var ids = storage.ids[...]
    for group in Self.responseGroups(result.issued) {
      let groupIDs = Array(ids.prefix(group.count))
      ids = ids.dropFirst(group.count)
      out.append(
        await storeGroup(
          group, credentialIssuer: result.credentialIssuer, session: session, iacas: iacas,
          optIn: storage.trustIssuerPublishedIACAs, ids: groupIDs, dpopSigner: dpopSigner))
    }
    for deferred in result.deferred {
      guard let session else { break }
      do throws(WalletError) {
        out.deferred.append(
          try await keepPending(
            deferred, session: session, optIn: storage.trustIssuerPublishedIACAs))
      } catch {
        out.failed.append(
          WalletIssuanceFailure(configurationID: deferred.configurationID, cause: .wallet(error)))
      }
    }
    if renewed == nil, let session, out.stored.isEmpty, out.deferred.isEmpty {
      // Nothing names the session: its DPoP key goes.
      await wallet.releaseIssuanceSession(id: session.id)
      if let keyID = session.dpopKeyID { try? await wallet.keys.deleteKey(id: keyID) }
    }
    return out
  }

  /// The session of a new issuance (access token, DPoP key imported into the key store), which
  /// serves every response of it; nil when no response carries an access token.
  private func newSession(_ result: IssuanceResult) async -> IssuanceSession? {
    let access =
      result.issued.compactMap(\.notification).first.map {
        ($0.accessToken, $0.tokenType, $0.dpopKey, $0.endpoint)
      }
      ?? result.deferred.first.map {
        ($0.accessToken, $0.tokenType, $0.dpopKey, $0.notificationEndpoint)
      }
    guard let (token, type, dpopKey, notificationEndpoint) = access else { return nil }
    var dpopKeyID: String?
    if let dpopKey { dpopKeyID = try? await wallet.keys.importKey(dpopKey) }
    return IssuanceSession(
      credentialIssuer: result.credentialIssuer, notificationEndpoint: notificationEndpoint,
      deferredCredentialEndpoint: result.deferred.first?.deferredEndpoint, accessToken: token,
      tokenType: type.rawValue, refreshToken: result.refreshToken, dpopKeyID: dpopKeyID)
  }

  /// The issued credentials grouped by credential response: the credentials of one response
  /// share a configuration and a notification_id (§8.3).
  private static func responseGroups(
    _ issued: [IssuedCredentialOutcome]
  ) -> [[IssuedCredentialOutcome]] {
    var groups: [[IssuedCredentialOutcome]] = []
    for outcome in issued {
      if let last = groups.last?.last, last.configurationID == outcome.configurationID,
        last.notification?.notificationID == outcome.notification?.notificationID
      {
        groups[groups.count - 1].append(outcome)
      } else {
        groups.append([outcome])
      }
    }
    return groups
  }

  /// One credential response's credentials: device keys into the key store, verified, stored,
  /// and the issuer told.
  func storeGroup(
    _ group: [IssuedCredentialOutcome], credentialIssuer: String, session: IssuanceSession?,
    iacas: [Certificate], optIn: Bool, ids: [String], dpopSigner: (any Signer)? = nil
  ) async -> WalletIssuanceResult {
    var out = WalletIssuanceResult()
    guard let first = group.first else { return out }
    let configurationID = first.configurationID
    func fail(_ cause: WalletIssuanceFailure.Cause) {
      out.failed.append(WalletIssuanceFailure(configurationID: configurationID, cause: cause))
    }
    guard let (format, type) = Self.walletFormat(first.format) else {
      fail(.issuance(IssuanceError(.unsupported, "format \(first.format.name) is not stored")))
      await notify(
        first.notification, .credentialFailure, "unsupported format", signer: dpopSigner,
        into: &out)
      return out
    }
    // §8.3 does not tie the order of credentials to the order of proofs: each credential is
    // matched to the proof key it binds, and the keys of the credentials that verify go into
    // the key store with them (one transaction for the batch with `SoftwareKeyStore`); a key
    // no stored credential binds never reaches the key store.
    let (payloads, refused) = Self.payloads(of: group, format: format)
    for cause in refused { fail(cause) }
    let notification = first.notification
    let expected = IssuanceExpectation(
      credentialIssuer: credentialIssuer, configurationID: configurationID, format: format,
      type: type, display: first.display.map(Self.display))
    do throws(WalletError) {
      let stored = try await wallet.storeIssuedCredentials(
        payloads, deviceKeys: group.compactMap(\.deviceKey), expected: expected,
        notificationID: notification?.notificationID, session: session,
        trust: IssuanceTrustOptions(issuerPublishedIACAs: iacas, trustIssuerPublishedIACAs: optIn),
        ids: ids.count == payloads.count ? ids : nil)
      out.stored += stored.stored
      for rejection in stored.rejected { fail(.rejected(rejection)) }
    } catch {
      fail(.wallet(error))
    }
    // §11.1: credential_accepted when the credentials were stored; credential_failure when
    // any of this response's credentials was not.
    if out.failed.isEmpty {
      await notify(notification, .credentialAccepted, nil, signer: dpopSigner, into: &out)
    } else {
      await notify(
        notification, .credentialFailure, "not verified or not stored", signer: dpopSigner,
        into: &out)
    }
    return out
  }

  /// The payloads of a response's credentials in `format`, and why each of the others was
  /// refused (not a string, or not readable).
  private static func payloads(
    of group: [IssuedCredentialOutcome], format: DCWalletStore.CredentialFormat
  ) -> ([IssuedCredential.Payload], [WalletIssuanceFailure.Cause]) {
    var payloads: [IssuedCredential.Payload] = []
    var refused: [WalletIssuanceFailure.Cause] = []
    for outcome in group {
      guard let text = outcome.credential.text else {
        refused.append(
          .issuance(IssuanceError(.unexpectedResponse, "a credential is not a string")))
        continue
      }
      do {
        payloads.append(
          try IssuedCredential(format: format, credential: text, deviceKeyID: "").payload)
      } catch {
        refused.append(.rejected(error))
      }
    }
    return (payloads, refused)
  }

  /// Sends a notification; with `signer` (a stored DPoP key, for a re-issuance) the DPoP
  /// proofs are signed by it rather than by the target's key.
  func notify(
    _ target: NotificationTarget?, _ event: NotificationRequest.Event, _ description: String?,
    signer: (any Signer)? = nil, into result: inout WalletIssuanceResult
  ) async {
    guard let target else { return }
    do {
      if let signer {
        try await client.notify(target, event: event, description: description, signer: signer)
      } else {
        try await client.notify(target, event: event, description: description)
      }
    } catch {
      result.notificationFailures.append(error)
    }
  }

  /// Moves a deferred request's device keys into the key store and stores it as pending.
  func keepPending(_ deferred: DeferredIssuance, session: IssuanceSession, optIn: Bool)
    async throws(WalletError) -> PendingDeferredIssuance
  {
    guard let (format, type) = Self.walletFormat(deferred.format) else {
      throw WalletError(.invalidInput, "format \(deferred.format.name) is not stored")
    }
    var keyIDs: [String] = []
    for key in deferred.deviceKeys {
      do {
        keyIDs.append(try await wallet.keys.importKey(key))
      } catch {
        for id in keyIDs { try? await wallet.keys.deleteKey(id: id) }
        throw WalletError(.storage, "cannot keep a device key: \(error)")
      }
    }
    // The session row records the deferred endpoint of this request.
    let pendingSession = IssuanceSession(
      id: session.id, credentialIssuer: session.credentialIssuer,
      notificationEndpoint: session.notificationEndpoint,
      deferredCredentialEndpoint: deferred.deferredEndpoint, accessToken: session.accessToken,
      tokenType: session.tokenType, refreshToken: session.refreshToken,
      dpopKeyID: session.dpopKeyID, createdAt: session.createdAt)
    let pending = PendingDeferredIssuance(
      transactionID: deferred.transactionID, credentialIssuer: deferred.credentialIssuer,
      configurationID: deferred.configurationID, format: format, expectedType: type,
      display: deferred.display.map(Self.display), interval: deferred.interval,
      deviceKeyIDs: keyIDs, sessionID: session.id, trustIssuerPublishedIACAs: optIn)
    do {
      try await wallet.addPendingDeferred(pending, session: pendingSession)
    } catch {
      for id in keyIDs { try? await wallet.keys.deleteKey(id: id) }
      throw error
    }
    return pending
  }

  // MARK: Deferred

  /// Polls the deferred credential endpoint (OpenID4VCI 1.0 §9) for the pending issuance `id`,
  /// or every pending issuance when nil; what became ready is verified and stored in the
  /// transaction that removes its pending entry, and the issuer is told. What is not ready
  /// stays pending (and is listed in ``WalletIssuanceResult/deferred``).
  ///
  /// - Throws: `WalletError` `.notFound` when `id` names no pending issuance, `.storage` when
  ///   the store cannot be read.
  public func pollDeferred(id: String? = nil) async throws(WalletError) -> WalletIssuanceResult {
    let all = try await wallet.pendingDeferredIssuances()
    let chosen = id.map { wanted in all.filter { $0.id == wanted } } ?? all
    if let id, chosen.isEmpty { throw WalletError(.notFound, "no pending issuance \(id)") }
    var out = WalletIssuanceResult()
    for pending in chosen {
      out.append(await poll(pending))
    }
    return out
  }

  func poll(_ pending: PendingDeferredIssuance) async -> WalletIssuanceResult {
    var out = WalletIssuanceResult()
    do {
      guard let session = try await wallet.issuanceSession(id: pending.sessionID),
        let endpoint = session.deferredCredentialEndpoint, let token = session.accessToken,
        let tokenType = session.tokenType.flatMap(AccessTokenType.init(wireValue:))
      else {
        out.failed.append(
          WalletIssuanceFailure(
            configurationID: pending.configurationID,
            cause: .wallet(
              WalletError(.storage, "pending issuance \(pending.id) has no usable session"))))
        return out
      }
      let signer = try await dpopSigner(session)
      let context = try await client.issuerMetadata(
        IssuerIdentifier(pending.credentialIssuer, policy: client.configuration.urlPolicy))
      let iacas = try await publishedIACAs(context, optIn: pending.trustIssuerPublishedIACAs)
      let parsed = try await requestDeferred(
        pending, endpoint: endpoint, context: context, accessToken: (token, tokenType),
        signer: signer)
      switch parsed {
      case .deferred:
        out.deferred.append(pending)
      case .issued(let credentials, let notificationID):
        try await storeDeferred(
          credentials, notificationID: notificationID, pending: pending, session: session,
          accessToken: (token, tokenType), signer: signer, issuerPublishedIACAs: iacas, into: &out)
      }
    } catch {
      out.failed.append(
        WalletIssuanceFailure(
          configurationID: pending.configurationID, cause: Self.deferredFailureCause(error)))
    }
    return out
  }

  /// Sends the deferred credential request (§9.1) of `pending` and reads the response.
  private func requestDeferred(
    _ pending: PendingDeferredIssuance, endpoint: URL, context: IssuerContext,
    accessToken: (String, AccessTokenType), signer: (any Signer)?
  ) async throws -> CredentialResponse {
    var exchange = IssuanceExchange(
      http: client.http, clock: client.configuration.clock, dpopSigner: signer)
    let encryption = try client.responseEncryption(context.metadata)
    let request = DeferredCredentialRequest(
      transactionID: pending.transactionID, credentialResponseEncryption: encryption?.0)
    let response = try await exchange.send(
      .post, endpoint,
      headers: [
        "Content-Type": "application/json", "Accept": "application/json, application/jwt",
      ],
      body: request.json.serializedBytes(), role: .resource,
      accessToken: accessToken)
    guard (200..<300).contains(response.status) else {
      throw IssuanceExchange.failure(
        .deferred, "deferred credential request", response, role: .resource)
    }
    return try client.readCredentialResponse(
      response, encryption: encryption, expectedTransactionID: pending.transactionID,
      code: .deferred)
  }

  /// Stores the credentials a deferred response issued (the wallet matches each to its key and
  /// deletes the rest), notifies the issuer, and releases the session when none was stored.
  private func storeDeferred(
    _ credentials: [DCOpenID4VCI.IssuedCredential], notificationID: String?,
    pending: PendingDeferredIssuance, session: IssuanceSession,
    accessToken: (String, AccessTokenType), signer: (any Signer)?,
    issuerPublishedIACAs iacas: [Certificate], into out: inout WalletIssuanceResult
  ) async throws {
    guard credentials.count <= pending.deviceKeyIDs.count else {
      throw IssuanceError(
        .deferred, "\(credentials.count) credentials for \(pending.deviceKeyIDs.count) proofs")
    }
    var payloads: [IssuedCredential.Payload] = []
    for credential in credentials {
      guard let text = credential.text else {
        throw IssuanceError(.deferred, "a deferred credential is not a string")
      }
      payloads.append(
        try IssuedCredential(format: pending.format, credential: text, deviceKeyID: "")
          .payload)
    }
    // completePendingDeferred matches each credential to its key and deletes the rest.
    let stored = try await wallet.completePendingDeferred(
      id: pending.id, credentials: payloads, notificationID: notificationID,
      issuerPublishedIACAs: iacas)
    out.stored += stored.stored
    for rejection in stored.rejected {
      out.failed.append(
        WalletIssuanceFailure(configurationID: pending.configurationID, cause: .rejected(rejection))
      )
    }
    if let notificationID, let endpoint = session.notificationEndpoint {
      let event: NotificationRequest.Event =
        stored.rejected.isEmpty ? .credentialAccepted : .credentialFailure
      if let failure = await notifyDeferred(
        notificationID, event: event, endpoint: endpoint, accessToken: accessToken, signer: signer)
      {
        out.notificationFailures.append(failure)
      }
    }
    if stored.stored.isEmpty { await wallet.releaseIssuanceSession(id: session.id) }
  }

  /// Sends the notification (§11.1) of a deferred issuance; the error when it failed.
  private func notifyDeferred(
    _ notificationID: String, event: NotificationRequest.Event, endpoint: URL,
    accessToken: (String, AccessTokenType), signer: (any Signer)?
  ) async -> IssuanceError? {
    var notifyExchange = IssuanceExchange(
      http: client.http, clock: client.configuration.clock, dpopSigner: signer)
    do throws(IssuanceError) {
      let body = NotificationRequest(notificationID: notificationID, event: event)
      let answer = try await notifyExchange.send(
        .post, endpoint, headers: ["Content-Type": "application/json"],
        body: body.json.serializedBytes(), role: .resource, accessToken: accessToken)
      guard (200..<300).contains(answer.status) else {
        throw IssuanceExchange.failure(
          .notification, "notification", answer, role: .resource)
      }
      return nil
    } catch {
      return error
    }
  }

  /// Why polling a deferred issuance failed, from the error it threw.
  private static func deferredFailureCause(_ error: any Error) -> WalletIssuanceFailure.Cause {
    switch error {
    case let error as IssuanceError: .issuance(error)
    case let error as IssuanceRejection: .rejected(error)
    case let error as WalletError: .wallet(error)
    case let error as OpenID4VCIError:
      .issuance(IssuanceError(.metadata, error.reason, underlying: error))
    default: .issuance(IssuanceError(.deferred, "\(error)"))
    }
  }

  func dpopSigner(_ session: IssuanceSession) async throws(WalletError) -> (any Signer)? {
    guard let keyID = session.dpopKeyID else { return nil }
    do {
      return try await wallet.keys.signer(for: keyID)
    } catch {
      throw WalletError(.storage, "the session's DPoP key cannot sign: \(error)")
    }
  }

  // MARK: Removal

  /// Removes a stored credential; for an issued one with a `notification_id`, then sends
  /// `credential_deleted` (OpenID4VCI 1.0 §11.1) with the stored access token and DPoP key.
  ///
  /// - Returns: whether the issuer was told (nil when there was nobody to tell), with the error
  ///   when telling failed; the credential is removed either way.
  @discardableResult
  public func removeCredential(id: String) async throws(WalletError) -> Result<Void, IssuanceError>?
  {
    guard let notice = try await wallet.removeCredential(id: id) else { return nil }
    return await notifyDeleted(notice)
  }

  /// Sends `credential_deleted` for a removed credential.
  package func notifyDeleted(_ notice: CredentialDeletionNotice) async -> Result<
    Void, IssuanceError
  >? {
    let session = notice.session
    guard let endpoint = session.notificationEndpoint, let token = session.accessToken,
      let type = session.tokenType.flatMap(AccessTokenType.init(wireValue:))
    else { return nil }
    var exchange = IssuanceExchange(
      http: client.http, clock: client.configuration.clock, dpopSigner: notice.dpopSigner)
    do throws(IssuanceError) {
      let body = NotificationRequest(
        notificationID: notice.notificationID, event: .credentialDeleted)
      let answer = try await exchange.send(
        .post, endpoint, headers: ["Content-Type": "application/json"],
        body: body.json.serializedBytes(), role: .resource, accessToken: (token, type))
      guard (200..<300).contains(answer.status) else {
        throw IssuanceExchange.failure(.notification, "notification", answer, role: .resource)
      }
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  // MARK: Conversions

  /// The wallet's format and type for a configuration's format; nil for formats the wallet does
  /// not store.
  static func walletFormat(_ format: DCOpenID4VCI.CredentialFormat) -> (
    DCWalletStore.CredentialFormat, String
  )? {
    switch format {
    case .msoMdoc(let doctype): (.msoMdoc, doctype)
    case .sdJWTVC(let vct): (.sdJWT, vct)
    case .other: nil
    }
  }

  static func display(_ display: DCOpenID4VCI.CredentialDisplay) -> IssuerCredentialDisplay {
    IssuerCredentialDisplay(
      name: display.name, locale: display.locale, logoURI: display.logo?.uri,
      logoAltText: display.logo?.altText, description: display.description,
      backgroundColor: display.backgroundColor,
      backgroundImageURI: display.backgroundImage?.uri, textColor: display.textColor)
  }
}
