import DCAPI
import DCCBOR
public import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCTrust
// The wallet's store is the wallet's data (credentials, trust anchors, the activity log): its
// values are in this module's public API, so importing DCWallet is enough to name them.
@_exported public import DCWalletStore
public import DCX509
public import Foundation

/// The holder: a credential store, device keys, trust anchors and an activity log in one wallet
/// home, and the steps from a DC API request to a response.
///
/// Typical use: `resolve` a request for the origin the platform reported, show the result on a
/// consent screen, build a consent, then `respond`. Nothing is signed that the consent does not
/// cover, and every answer or refusal is logged.
public final class Wallet: Sendable {
  /// Where the store and the key-encryption key live.
  package let home: WalletHome
  /// The credential store.
  package let store: WalletStore
  /// Where device keys live.
  public let keys: any DeviceKeyStore
  /// The clock (injected so tests can pin time).
  package let clock: @Sendable () -> Date
  /// Asks the holder to authenticate before sharing, as the policy requires.
  package let authenticator: any UserAuthenticator
  /// What the wallet refuses: unauthenticated requesters, unverified issuers, protocols.
  package let policy: WalletPolicy
  /// The titles stored with imported mdocs, by docType (the docType itself when absent).
  package let documentTitles: [String: String]
  /// The Longfellow circuits the wallet proves with: an Annex C request for a zero-knowledge
  /// proof that names one is answered with a proof; any other is refused.
  package let zeroKnowledgeCircuits: [ZeroKnowledgeProverCircuit]
  /// Tags and checks the rows that decide security (trust anchors, the policy).
  let settingsAuthentication: SettingsAuthentication
  /// The stored lists already decoded, by their verified row tag (issue 29).
  let trustedListMemo = TrustedListMemo()

  /// Opens (and on first use creates) the wallet in a home directory.
  ///
  /// - Parameters:
  ///   - home: the directory of the store, the key file and the key-encryption key.
  ///   - keys: where device keys live; by default `SoftwareKeyStore` with the home's
  ///     key-encryption key.
  ///   - settingsKey: the key (at least 32 bytes) whose HMAC-SHA256 tags authenticate the rows
  ///     of trust anchors, settings and credentials. By default it is derived from the home's
  ///     key-encryption key (created on first use); with `KeychainKeyStore`, pass
  ///     `KeychainKeyStore.settingsAuthenticationKey()`.
  ///   - policy: what the wallet refuses; the defaults are the safe values (see `WalletPolicy`).
  ///   - authenticator: asks the holder to authenticate before credentials are shared
  ///     (LocalAuthentication on Apple platforms); the default, for contexts without a person,
  ///     always says yes.
  ///   - documentTitles: the titles to store with imported mdocs, by docType (an app's localised
  ///     names); a docType without one is its own title.
  ///   - zeroKnowledgeCircuits: the Longfellow circuits the wallet proves with: an org-iso-mdoc
  ///     request for a zero-knowledge proof that names one is answered with a proof. None by
  ///     default, and every zero-knowledge request is refused.
  ///   - clock: the current time, for validity and status checks; tests inject a fixed one.
  public init(
    home: WalletHome, keys: (any DeviceKeyStore)? = nil, settingsKey: [UInt8]? = nil,
    authenticator: any UserAuthenticator = ImplicitAuthenticator(),
    policy: WalletPolicy = WalletPolicy(), documentTitles: [String: String] = [:],
    zeroKnowledgeCircuits: [ZeroKnowledgeProverCircuit] = [],
    clock: @escaping @Sendable () -> Date = { Date() }
  ) throws(WalletError) {
    self.home = home
    self.zeroKnowledgeCircuits = zeroKnowledgeCircuits
    self.policy = policy
    self.documentTitles = documentTitles
    self.clock = clock
    self.authenticator = authenticator
    do {
      try home.create()
      if let settingsKey {
        settingsAuthentication = try SettingsAuthentication(key: settingsKey)
      } else {
        settingsAuthentication = try SettingsAuthentication(
          keyEncryptionKey: try KeyEncryptionKey.loadOrCreate(at: home.keyEncryptionKeyPath))
      }
      // Credential rows are authenticated under the same key (issue 32).
      store = try WalletStore(
        path: home.databasePath, schemaVersion: Schema.currentVersion,
        settings: settingsAuthentication, issuerChainCheck: Self.issuerChainCheck)
      self.keys =
        try keys ?? SoftwareKeyStore(store: store, keyEncryptionKeyPath: home.keyEncryptionKeyPath)
    } catch let error as WalletStoreError {
      throw WalletError(
        .storage, "cannot open the wallet in \(home.directory): \(error.reason)",
        underlying: error)
    } catch {
      throw WalletError(
        .storage, "cannot open the wallet in \(home.directory): \(error)", underlying: error)
    }
  }

  /// Whether a stored credential's issuer chain validates to one of the anchors: what the store
  /// asks when it adopts a credential row written before rows carried tags.
  static let issuerChainCheck: IssuerChainCheck = { credential, anchors, now in
    credential.issuerAnchor(among: anchors, at: now) != nil
  }

  // MARK: - Trust anchors

  /// Adds a trusted certificate for a role (issuer IACA, mdoc reader, OpenID4VP verifier); the
  /// row is authenticated with the wallet's settings key (see `init(home:keys:settingsKey:...)`).
  public func addTrustAnchor(_ certificate: Certificate, role: TrustRole) async throws(WalletError)
    -> TrustAnchorRecord
  {
    let record = TrustAnchorRecord(
      role: role, certificateDER: certificate.derBytes, subject: certificate.subject.description,
      addedAt: clock())
    let tagged = record.tagged(settingsAuthentication.tag(for: record))
    do {
      try await store.addTrustAnchor(tagged)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    return tagged
  }

  /// The trust anchors of a role (or all), split into those that may be used and those that
  /// may not: a row whose authentication tag is missing or wrong (written without the
  /// key-encryption key) or whose certificate does not parse is reported, never trusted.
  public func trustAnchorListing(role: TrustRole? = nil) async throws(WalletError)
    -> TrustAnchorListing
  {
    let (anchors, _, problems) = try await checkedTrustAnchors(role: role)
    return TrustAnchorListing(anchors: anchors, problems: problems)
  }

  /// Removes a trust anchor (one of ``trustAnchorListing(role:)``, usable or not).
  ///
  /// - Throws: `WalletError` with `.notFound` when no anchor has this id, `.storage` when the
  ///   store cannot be written.
  public func removeTrustAnchor(id: String) async throws(WalletError) {
    let removed: Bool
    do {
      removed = try await store.removeTrustAnchor(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard removed else { throw WalletError(.notFound, "no trust anchor \(id)") }
  }

  /// The certificates a chain may end at for a role: the role's anchors (authenticated rows,
  /// see `trustAnchorListing`) and the certificates of every granted entry of a usable stored
  /// list whose service serves the role (issue 29), in the lists the list policy consults.
  package func trustAnchors(role: TrustRole) async throws(WalletError) -> [Certificate] {
    try await trustSources().anchorCertificates(for: role.purpose, at: clock())
  }

  /// The rows of a role (or all) that may be used, each with its certificate, and a problem for
  /// each that may not. A certificate is parsed once per process for the same DER
  /// (`CertificateMemo`: parsing is a function of the bytes); each row's authentication tag is
  /// checked on every call.
  func checkedTrustAnchors(role: TrustRole?) async throws(WalletError) -> (
    anchors: [TrustAnchorRecord], certificates: [Certificate], problems: [StoreProblem]
  ) {
    let records: [TrustAnchorRecord]
    do {
      records = try await store.trustAnchors(role: role)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    return Self.usableTrustAnchors(records, authentication: settingsAuthentication)
  }

  /// Splits anchor rows into those that may be used, each with its certificate, and a problem
  /// for each that may not (see `checkedTrustAnchors(role:)`).
  static func usableTrustAnchors(
    _ records: [TrustAnchorRecord], authentication settingsAuthentication: SettingsAuthentication
  ) -> (anchors: [TrustAnchorRecord], certificates: [Certificate], problems: [StoreProblem]) {
    var anchors: [TrustAnchorRecord] = []
    var certificates: [Certificate] = []
    var problems: [StoreProblem] = []
    for record in records {
      guard settingsAuthentication.verifies(record) else {
        let why =
          record.authenticationTag == nil
          ? "has no authentication tag (added before this version, or written directly to the database); remove it and add it again"
          : "does not match its authentication tag: it was changed without the wallet's key"
        problems.append(
          StoreProblem(
            record: .trustAnchor(id: record.id),
            error: WalletStoreError(
              .unauthenticatedRecord, "trust anchor \(record.id) (\(record.subject)) \(why)")))
        continue
      }
      guard
        let certificate = try? CertificateMemo.shared.certificate(derEncoded: record.certificateDER)
      else {
        problems.append(
          StoreProblem(
            record: .trustAnchor(id: record.id),
            error: WalletStoreError(
              .corruptRecord, "trust anchor \(record.id) is not a certificate")))
        continue
      }
      anchors.append(record)
      certificates.append(certificate)
    }
    return (anchors, certificates, problems)
  }

  // MARK: - Import

  /// Imports an mdoc (`IssuerSigned` CBOR) with its device key after verifying it: the issuer
  /// signature, the chain to a configured issuer IACA (when any is configured), every digest,
  /// the validity window, that no element identifier repeats in a namespace, and that the device
  /// key is the one the MSO binds. A credential that fails any check is rejected and nothing is
  /// written. With no issuer anchor configured, the issuer cannot be established: the import is
  /// refused unless `policy.acceptsUnverifiedIssuers`, and then the credential is stored with
  /// `issuerTrust == .unverified`, for the caller to warn about.
  public func importMdoc(_ bytes: [UInt8], deviceKey: ECPrivateKey, id: String? = nil)
    async throws(WalletError) -> StoredCredential
  {
    let issuerSigned: IssuerSigned
    do {
      issuerSigned = try IssuerSigned(bytes: bytes)
    } catch {
      throw WalletError(
        .importRejected, "not an ISO 18013-5 IssuerSigned structure: \(error.reason)",
        underlying: error)
    }
    let anchors = try await issuerAnchorsForImport(
      format: .mdoc, docType: issuerSigned.mso.docType)
    let verification: IssuerVerification
    // Issue 29: the document signer's chain checked for revocation as the policy says,
    // its distribution points fetched first when the policy fetches.
    let chain = (try? issuerSigned.documentSignerChain()) ?? []
    do {
      verification = try await policy.revocation.inEffect(for: chain, issuers: anchors) {
        () throws(MdocError) in
        try issuerSigned.verify(
          trustAnchors: anchors, at: clock(), requireTrustedIssuer: !anchors.isEmpty)
      }
    } catch {
      throw WalletError(
        .importRejected, "the mdoc does not verify: \(error.reason)", underlying: error)
    }
    guard verification.deviceKey == deviceKey.publicKey else {
      throw WalletError(.importRejected, "the device key is not the key the mdoc's MSO binds")
    }
    // The document signer's AKI names the IACA: what issuer gating on both platforms matches.
    let identifiers = [verification.documentSigner.authorityKeyIdentifier].compactMap { $0 }
    let mso = issuerSigned.mso
    let display = CredentialDisplay(
      title: documentTitles[mso.docType] ?? mso.docType,
      subtitle: MdocDisplay.subtitle(issuerSigned),
      issuerName: verification.documentSigner.subject.organization
        ?? verification.documentSigner.subject.commonName)
    return try await storeCredential(
      id: id, format: .msoMdoc, type: mso.docType, issued: issuerSigned.bytes, display: display,
      validFrom: mso.validityInfo.validFrom, validUntil: mso.validityInfo.validUntil,
      deviceKey: deviceKey,
      identifiers: identifiers, issuerTrust: verification.trust.isTrusted ? .trusted : .unverified)
  }

  /// Imports an SD-JWT VC with its device key: the issuer signature is checked against the
  /// configured issuer anchors (through its `x5c` chain) when any are configured, every
  /// disclosure must be referenced, the validity window must hold, and `cnf` must be the device
  /// key. A credential that fails is rejected and nothing is written. With no issuer anchor
  /// configured the import is refused unless `policy.acceptsUnverifiedIssuers`, and then the
  /// credential is stored with `issuerTrust == .unverified`.
  public func importSDJWT(_ text: String, deviceKey: ECPrivateKey, id: String? = nil)
    async throws(WalletError) -> StoredCredential
  {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let sdJWT: SDJWT
    do {
      sdJWT = try SDJWT(serialized: trimmed)
    } catch {
      throw WalletError(.importRejected, "not an SD-JWT: \(error.reason)", underlying: error)
    }
    guard sdJWT.keyBindingJWT == nil else {
      throw WalletError(.importRejected, "an issued SD-JWT carries no key binding JWT")
    }
    let anchors = try await issuerAnchorsForImport(format: .sdJWTVC)
    let verified: VerifiedSDJWT
    do {
      if anchors.isEmpty {
        guard let der = sdJWT.issuerSignedJWT.x5c?.first,
          let key = try Certificate(derEncoded: der).publicKey.ecPublicKey
        else {
          throw WalletError(
            .importRejected,
            "with no issuer anchors configured, the SD-JWT must carry its signing key in x5c")
        }
        verified = try sdJWT.verify(issuerKey: key, now: clock())
      } else {
        let chain = (sdJWT.issuerSignedJWT.x5c ?? []).compactMap {
          try? Certificate(derEncoded: $0)
        }
        verified = try await policy.revocation.inEffect(for: chain, issuers: anchors) {
          () throws(SDJWTError) in
          try sdJWT.verify(trustAnchors: anchors, at: clock())
        }
      }
    } catch let error as WalletError {
      throw error
    } catch let error as SDJWTError {
      throw WalletError(
        .importRejected, "the SD-JWT does not verify: \(error.reason)", underlying: error)
    } catch {
      throw WalletError(.importRejected, "the SD-JWT does not verify: \(error)", underlying: error)
    }
    guard verified.holderKey == deviceKey.publicKey else {
      throw WalletError(.importRejected, "the device key is not the SD-JWT's cnf key")
    }
    let vct = verified.vct ?? "unknown"
    let identifiers = verified.issuerCertificateChain.compactMap(\.authorityKeyIdentifier)
    let display = CredentialDisplay(
      title: vct, subtitle: verified.payload["given_name"]?.string, issuerName: verified.issuer)
    return try await storeCredential(
      id: id, format: .sdJWT, type: vct, issued: Array(trimmed.utf8), display: display,
      validFrom: verified.payload["nbf"]?.double.map { Date(timeIntervalSince1970: $0) },
      validUntil: verified.payload["exp"]?.double.map { Date(timeIntervalSince1970: $0) },
      deviceKey: deviceKey,
      identifiers: identifiers, issuerTrust: anchors.isEmpty ? .unverified : .trusted)
  }

  /// The issuer anchors an import verifies against; with none configured, the import goes on
  /// (with the issuer unverified) only when the policy accepts unverified issuers.
  /// A VICAL's IACAs trust mdocs only, and only of the docTypes their entry lists.
  private func issuerAnchorsForImport(format: IssuerCredentialFormat, docType: String? = nil)
    async throws(WalletError) -> [Certificate]
  {
    let sources = try await trustSources()
    let now = clock()
    let anchors = sources.anchorCertificates(
      for: .credentialIssuer, at: now, docType: docType, format: format)
    guard anchors.isEmpty, !policy.acceptsUnverifiedIssuers else { return anchors }
    // Name the restriction when a list entry would trust the issuer but for the docType
    // (ISO/IEC 18013-5 Annex C.1.7.1), rather than "no anchor".
    if let docType, let entry = sources.restrictedEntries(format: format, at: now).first {
      throw WalletError(
        .importRejected,
        "the only issuers trusted (\(entry.entity.name) in the \(entry.list.kind.rawValue) of \(entry.list.operatorName)) are listed for "
          + entry.entity.docTypes.joined(separator: ", ")
          + " only, not \(docType), and the policy does not accept unverified issuers")
    }
    throw WalletError(
      .importRejected,
      "no issuer trust anchor is configured, so the issuer cannot be established, and the policy does not accept unverified issuers"
    )
  }

  /// Writes the device key and the credential as one step of the key store (see
  /// `DeviceKeyStore.importKey(_:storing:in:)`): a failed import leaves nothing behind.
  private func storeCredential(
    id: String?, format: DCWalletStore.CredentialFormat, type: String, issued: [UInt8],
    display: CredentialDisplay, validFrom: Date?,
    validUntil: Date?, deviceKey: ECPrivateKey, identifiers: [[UInt8]],
    issuerTrust: DCWalletStore.IssuerTrust
  ) async throws(WalletError) -> StoredCredential {
    let id = id ?? UUID().uuidString.lowercased()
    let createdAt = clock()
    let credential: @Sendable (String) -> StoredCredential = { keyID in
      StoredCredential(
        id: id, format: format, type: type, issued: issued, display: display,
        validFrom: validFrom, validUntil: validUntil, deviceKeyID: keyID,
        issuerAuthorityKeyIdentifiers: identifiers, createdAt: createdAt, issuerTrust: issuerTrust)
    }
    do {
      return try await keys.importKey(deviceKey, storing: credential, in: store)
    } catch let error as WalletStoreError {
      throw WalletError(
        error.code == .duplicateID ? .invalidInput : .storage, error.reason, underlying: error)
    } catch {
      throw WalletError(.storage, "cannot store the device key: \(error)", underlying: error)
    }
  }

  /// Removes a credential and its device key, as one step of the key store (see
  /// `DeviceKeyStore.removeCredential(id:from:)`), then the issuance session and DPoP key of an
  /// issued credential once no other credential uses them.
  ///
  /// - Returns: for an issued credential with a `notification_id`, what the client needs to send
  ///   `credential_deleted` to the issuer (OpenID4VCI 1.0 §11); nil otherwise.
  @discardableResult
  public func removeCredential(id: String) async throws(WalletError) -> CredentialDeletionNotice? {
    let notice = try? await deletionNotice(forCredential: id)
    let sessionID = (try? await store.credential(id: id))??.issuance?.sessionID
    do {
      // One step of the key store: a process killed meanwhile leaves no orphan key behind
      // (with SoftwareKeyStore, one transaction). A row too damaged to list can be removed.
      guard try await keys.removeCredential(id: id, from: store) else {
        throw WalletError(.notFound, "no credential \(id)")
      }
    } catch let error as WalletError {
      throw error
    } catch {
      throw WalletError(.storage, "\(error)", underlying: error)
    }
    if let sessionID { await releaseIssuanceSession(id: sessionID) }
    return notice ?? nil
  }

  /// The stored credentials that can be read, in the order they were stored; a damaged row is
  /// skipped.
  public func credentials() async throws(WalletError) -> [StoredCredential] {
    try await credentialListing().credentials
  }

  /// The stored credential with this id, or nil when there is none.
  ///
  /// - Throws: `WalletError` with `.storage` when the store cannot be read, or the row cannot
  ///   be read back.
  public func credential(id: String) async throws(WalletError) -> StoredCredential? {
    do {
      return try await store.credential(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// The stored credentials that can be read, and a problem for each row that cannot: one
  /// damaged row neither hides the others nor blocks requests for its type.
  package func credentialListing() async throws(WalletError) -> CredentialListing {
    do {
      return try await store.credentialListing()
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// The stored mdocs of the given docTypes that may be offered, parsed for matching: an expired
  /// or not yet valid mdoc is never offered (ISO 18013-5 §9.3.1), nor one known revoked or
  /// suspended unless the policy allows it (see `presentable(_:at:protocolIdentifier:policy:)`);
  /// a refusal for each one withheld for its status.
  func storedMdocs(docTypes: [String], protocolIdentifier: String, policy: WalletPolicy)
    async throws(WalletError) -> (mdocs: [StoredMdoc], withheld: [Refusal])
  {
    let all: [StoredCredential]
    do {
      all = try await store.credentials(format: .msoMdoc, types: docTypes)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    let now = clock()
    // Of a batch, only the credential presented least often is offered (use-once).
    let presentable = Self.presentable(
      all, at: now, protocolIdentifier: protocolIdentifier, policy: policy)
    let mdocs = presentable.credentials.compactMap { credential -> StoredMdoc? in
      guard let issuerSigned = credential.decodedMdoc,
        Self.isValid(issuerSigned.mso.validityInfo, at: now)
      else { return nil }
      return StoredMdoc(id: credential.id, issuerSigned: issuerSigned)
    }
    return (mdocs, presentable.withheld)
  }

  /// Records an activity; a failure to log never hides the answer or the refusal.
  func log(_ activity: NewActivity) async {
    _ = try? await store.append(activity)
  }

  /// The activity log, newest first; an entry that cannot be read is skipped.
  public func activity(limit: Int = 100) async throws(WalletError) -> [ActivityRecord] {
    try await activityListing(limit: limit).records
  }

  /// The activity log, newest first, with a problem for each entry that cannot be read.
  package func activityListing(limit: Int = 100) async throws(WalletError) -> ActivityListing {
    do {
      return try await store.activityListing(limit: limit)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }
}

/// What an mdoc shows on a credential list besides its title.
enum MdocDisplay {
  /// The holder's name from the `given_name` and `family_name` elements, when present.
  static func subtitle(_ issuerSigned: IssuerSigned) -> String? {
    let given = issuerSigned.nameSpaces.lazy.compactMap { ns in
      ns.items.first { $0.elementIdentifier == "given_name" }?.elementValue.text
    }.first
    let family = issuerSigned.nameSpaces.lazy.compactMap { ns in
      ns.items.first { $0.elementIdentifier == "family_name" }?.elementValue.text
    }.first
    let name = [given, family].compactMap { $0 }.joined(separator: " ")
    return name.isEmpty ? nil : name
  }
}
