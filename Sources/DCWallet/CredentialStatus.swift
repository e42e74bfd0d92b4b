public import DCHTTP
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
public import DCStatusList
import DCTrust
import DCX509
import Foundation

extension Wallet {
  /// A status list checker for this wallet's stored credentials: it trusts the issuer anchors
  /// the wallet verifies credentials against and reads the wallet's clock;
  /// ``refreshStatus(credentialID:checker:force:)`` asks it for each credential's list under
  /// that credential's own anchor (by its document signer or another certificate the same
  /// anchor certified).
  ///
  /// - Parameters:
  ///   - httpClient: fetches the lists (`URLSessionHTTPClient` in an app).
  ///   - urlPolicy: which list URIs are fetched: https only by default; plain http to a loopback
  ///     host only under `.development`.
  public func statusListChecker(
    httpClient: any HTTPClient, urlPolicy: HTTPURLPolicy = .standard
  ) async throws(WalletError) -> StatusListChecker {
    StatusListChecker(
      httpClient: httpClient, trustAnchors: try await trustAnchors(role: .issuer),
      urlPolicy: urlPolicy, clock: clock)
  }

  /// The credential's last known status, read from the store without fetching anything; nil
  /// when it was never checked.
  ///
  /// - Throws: `notFound` when no credential has this id.
  package func lastKnownStatus(credentialID id: String) async throws(WalletError)
    -> CredentialStatusRecord?
  {
    try await storedCredential(id: id).lastKnownStatus
  }

  /// Learns a stored credential's status from its issuer's Token Status List
  /// (draft-ietf-oauth-status-list §8.3) and stores it as its last known status.
  ///
  /// The reference is read from the stored credential: an SD-JWT VC's `status.status_list`
  /// claim (fetched as `application/statuslist+jwt`) or an mdoc MSO's `status` (fetched as
  /// `application/statuslist+cwt`). A stored status that is still fresh (younger than the list
  /// token's `ttl` and `exp`, see ``CredentialStatusRecord/freshUntil``) is returned without
  /// fetching, unless `force`. A failure to learn the status (no reference, the list cannot be
  /// fetched or verified, the index is not in it) is `unknown` with the reason, never `invalid`,
  /// and is stored too; the default policy presents a credential whose status is unknown.
  ///
  /// The list must be signed under the anchor the credential's own chain reaches
  /// (draft-ietf-oauth-status-list, "Key Resolution and Trust Management"): one of the wallet's
  /// issuer anchors, or, for an `issuerVouched` credential, the IACA the issuer published that
  /// vouched for it at issuance; the status then has that credential's trust level. A list under
  /// another anchor is `issuerMismatch`; a credential whose chain reaches no such anchor has an
  /// `untrusted` (unknown) status.
  ///
  /// - Parameters:
  ///   - id: the stored credential's id.
  ///   - checker: fetches and verifies the list; use ``statusListChecker(httpClient:urlPolicy:)``
  ///     so that the list is trusted as the credential is.
  ///   - force: fetch even when the stored status is fresh.
  /// - Returns: the stored status (fresh), or the one just learned.
  /// - Throws: `notFound` when no credential has this id; `storage` when the store fails.
  @discardableResult
  public func refreshStatus(
    credentialID id: String, checker: StatusListChecker, force: Bool = false
  ) async throws(WalletError) -> CredentialStatusRecord {
    try await policy.revocation.inEffect { () async throws(WalletError) in
      try await refreshStatusChecked(credentialID: id, checker: checker, force: force)
    }
  }

  /// ``refreshStatus(credentialID:checker:force:)`` with the revocation setting in effect.
  @discardableResult
  private func refreshStatusChecked(
    credentialID id: String, checker: StatusListChecker, force: Bool = false
  ) async throws(WalletError) -> CredentialStatusRecord {
    let credential = try await storedCredential(id: id)
    let now = clock()
    if !force, let known = credential.lastKnownStatus, known.isFresh(at: now) { return known }
    let issuer = Self.statusIssuer(
      of: credential, walletAnchors: try await trustAnchors(role: .issuer), at: now)
    let record = await Self.checkStatus(of: credential, issuer: issuer, checker: checker, at: now)
    do {
      guard try await store.setLastKnownStatus(record, forCredential: id) else {
        throw WalletError(.notFound, "no credential \(id)")
      }
    } catch let error as WalletError {
      throw error
    } catch {
      throw WalletError(.storage, "\(error)", underlying: error)
    }
    return record
  }

  /// The stored credential with this id.
  private func storedCredential(id: String) async throws(WalletError) -> StoredCredential {
    let found: StoredCredential?
    do {
      found = try await store.credential(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let found else { throw WalletError(.notFound, "no credential \(id)") }
    return found
  }

  /// The anchor the stored credential's own issuer chain reaches now: a wallet issuer anchor, or
  /// for an `issuerVouched` credential the issuer-published IACA recorded at issuance; nil when
  /// none does (an issuer metadata key, a chain no anchor validates, an unreadable credential).
  static func statusIssuer(
    of credential: StoredCredential, walletAnchors: [Certificate], at now: Date
  ) -> StatusListIssuer? {
    var anchors = walletAnchors
    if credential.issuerTrust == .issuerVouched {
      guard let der = credential.issuance?.issuerPublishedAnchor,
        let published = try? Certificate(derEncoded: der)
      else { return nil }
      anchors = [published]
    }
    return credential.issuerAnchor(among: anchors, at: now).map(StatusListIssuer.init(anchor:))
  }

  /// Checks one credential's status now, with a list signed under `issuer`'s anchor only.
  static func checkStatus(
    of credential: StoredCredential, issuer: StatusListIssuer?, checker: StatusListChecker,
    at now: Date
  ) async -> CredentialStatusRecord {
    func unknown(_ code: CredentialStatusUnknownReason.Code, _ detail: String)
      -> CredentialStatusRecord
    {
      CredentialStatusRecord(
        outcome: .unknown(CredentialStatusUnknownReason(code, detail: detail)), checkedAt: now)
    }
    let reference: StatusReference
    let format: StatusListToken.Format
    switch Self.statusReference(of: credential) {
    case .listed(let found, let foundFormat): (reference, format) = (found, foundFormat)
    case .unknown(let reason):
      return CredentialStatusRecord(outcome: .unknown(reason), checkedAt: now)
    }
    guard let issuer else {
      return unknown(
        .untrusted, "the credential's own chain reaches no issuer anchor its list could chain to")
    }
    let token: StatusListToken
    switch await checker.verifiedToken(for: reference, format: format, issuer: issuer) {
    case .success(let verified): token = verified
    case .failure(let failure):
      return unknown(
        CredentialStatusUnknownReason.Code(rawValue: failure.reason.rawValue), failure.detail)
    }
    let status: Status
    do {
      status = try token.statusList.status(at: reference.index)
    } catch {
      return unknown(.indexOutOfRange, error.reason)
    }
    // Fresh until the token's exp, and no longer than ttl from now (draft §13.7).
    let bounds = [
      token.expiresAt, token.timeToLive.map { now.addingTimeInterval(TimeInterval($0)) },
    ].compactMap { $0 }
    return CredentialStatusRecord(
      outcome: CredentialStatusOutcome(statusValue: status.rawValue), checkedAt: now,
      freshUntil: bounds.min())
  }

  /// Where the credential's status is listed (the status list reference and the token format
  /// of its list), or why its status cannot be checked.
  private static func statusReference(of credential: StoredCredential) -> StatusLookup {
    func unknown(_ code: CredentialStatusUnknownReason.Code, _ detail: String) -> StatusLookup {
      .unknown(CredentialStatusUnknownReason(code, detail: detail))
    }
    let referenced: ReferencedStatus
    let format: StatusListToken.Format
    do {
      switch credential.format {
      case .sdJWT:
        guard let sdJWT = credential.decodedSDJWT else {
          return unknown(.unreadableCredential, "the stored SD-JWT does not decode")
        }
        // The status claim is in the issuer-signed payload (SD-JWT VC §3.2.2.2); a disclosed
        // one is read too.
        let payload = (try? sdJWT.process().payload) ?? sdJWT.issuerPayload
        guard let found = try ReferencedStatus.sdJWT(payload: payload) else {
          return unknown(.notReferenced, "the SD-JWT VC has no status claim")
        }
        referenced = found
        format = .jwt
      case .msoMdoc:
        guard let issuerSigned = credential.decodedMdoc else {
          return unknown(.unreadableCredential, "the stored mdoc does not decode")
        }
        guard let status = issuerSigned.mso.status else {
          return unknown(.notReferenced, "the MSO has no status")
        }
        referenced = try ReferencedStatus.mdoc(status: status)
        format = .cwt
      }
    } catch {
      return unknown(.malformed, error.reason)
    }
    switch referenced {
    case .statusList(let found): return .listed(found, format)
    case .unsupported(let mechanism):
      return unknown(.unsupported, "the status mechanism \(mechanism) is not a status list")
    }
  }
}

/// Where a credential's status is listed, or why it cannot be checked.
private enum StatusLookup {
  case listed(StatusReference, StatusListToken.Format)
  case unknown(CredentialStatusUnknownReason)
}

extension StoredCredential {
  /// The anchor among `anchors` that the credential's own issuer chain (mdoc `x5chain`, SD-JWT
  /// `x5c`) validates to at `now`; nil when none does or the credential does not decode.
  func issuerAnchor(among anchors: [Certificate], at now: Date) -> Certificate? {
    let chain = issuerChain
    guard !chain.isEmpty, !anchors.isEmpty,
      case .trusted(let path) = CertificateValidator(trustAnchors: anchors, revocation: .current)
        .validate(
          chain: chain, at: now)
    else { return nil }
    return path.anchor
  }

  /// The credential's issuer chain, leaf first (mdoc `x5chain`, SD-JWT `x5c`); empty when the
  /// credential does not decode or a certificate does not parse.
  var issuerChain: [Certificate] {
    switch format {
    case .msoMdoc:
      return (try? decodedMdoc?.documentSignerChain()) ?? []
    case .sdJWT:
      guard let x5c = decodedSDJWT?.issuerSignedJWT.x5c,
        let chain = try? x5c.map({ (der) throws(CertificateError) in
          try CertificateMemo.shared.certificate(derEncoded: der)
        })
      else { return [] }
      return chain
    }
  }
}
