import DCCrypto
import DCHTTP
import DCJSON
import DCOpenID4VCI
import Foundation

extension IssuanceClient {
  /// Exchanges a refresh token for a new access token (RFC 6749 §6) with the DPoP key the token
  /// is bound to (RFC 9449 §5: a public client's refresh token is bound to its DPoP key) and
  /// the client the first token request named (its attestation again when the server takes
  /// one).
  ///
  /// - Returns: the token response, the session to request credentials with, and the
  ///   `client_id` sent.
  /// - Throws: `refreshRefused` when the server answers `invalid_grant`; `metadata`, `token`,
  ///   `transport` otherwise.
  func refreshAccess(
    refreshToken: String, dpopSigner: (any Signer)?, context: IssuerContext
  ) async throws(IssuanceError) -> (TokenResponse, IssuanceExchange, String?) {
    let server = try await authorizationServer(context, hint: nil)
    var session = try await makeSession(server, dpopSigner: dpopSigner)
    // The client of the authorization code flow (the grant that issues refresh tokens).
    let clientID =
      session.attestation != nil
      ? (configuration.walletProvider?.clientID ?? configuration.clientID) : configuration.clientID
    let request = TokenRequest(grant: .refreshToken(refreshToken), clientID: clientID)
    do {
      let token = try await requestToken(request, server: server, session: &session)
      return (token, session, clientID)
    } catch {
      if let oauth = error.underlying as? OAuthErrorResponse, oauth.error == .invalidGrant {
        throw IssuanceError(
          .refreshRefused, "the authorization server refused the refresh token: \(oauth)",
          underlying: oauth)
      }
      throw error
    }
  }
}

extension WalletIssuance {
  // MARK: Re-issuance (refresh token)

  /// Re-issues a stored credential: a new credential of the same configuration from the same
  /// issuer, obtained with the refresh token kept from its issuance (RFC 6749 §6).
  ///
  /// The refresh token grant is sent with the session's stored DPoP key (RFC 9449 §5) and the
  /// same client (and client attestation, when the server takes one) as the first token
  /// request. The new tokens are kept in the session at once (a rotated refresh token is not
  /// lost if the credential request then fails). Then a fresh `c_nonce`, fresh device keys, one
  /// proof each, and the credentials verified before storage exactly as a first issuance.
  ///
  /// **Replace after success.** The new credentials are stored under new ids; only once they
  /// are stored (every credential asked for, nothing failed) is the old credential removed,
  /// with its device key: when it belongs to a batch, every credential of that batch, and as
  /// many are requested (capped by the issuer's `batch_size`). A crash between the two steps
  /// leaves both, never neither. When anything fails, or the issuer defers the request, the
  /// old credentials stay. The issuer is told `credential_accepted` for the new ones; the
  /// replaced ones are not reported as deleted.
  ///
  /// The IACA opt-in recorded with the old credential
  /// (``IssuanceTrustBasis/issuerPublishedIACA``) carries over; `storage` can give it anew.
  ///
  /// - Parameters:
  ///   - id: the stored credential to re-issue.
  ///   - batchSize: credentials to request; by default as many as the old batch had (1 outside a
  ///     batch).
  ///   - storage: the IACA opt-in and the ids for the new credentials.
  /// - Returns: what was stored, deferred or failed; ``WalletIssuanceResult/replaced`` lists the
  ///   ids removed.
  /// - Throws: `unknownCredential`, `noRefreshToken` (not issued by OpenID4VCI, or no refresh
  ///   token kept), `refreshRefused` (the server answered `invalid_grant`: a new issuance is
  ///   needed), `walletStorage`, `metadata`, `token`, `transport`.
  package func reissue(
    credentialID id: String, batchSize: Int? = nil, storage: StorageOptions = StorageOptions()
  ) async throws(IssuanceError) -> WalletIssuanceResult {
    let (old, all, issuance, session, refreshToken) = try await reissuable(id)
    let signer: (any Signer)?
    do {
      signer = try await dpopSigner(session)
    } catch {
      throw IssuanceError(.walletStorage, error.reason, underlying: error)
    }
    let identifier: IssuerIdentifier
    do {
      identifier = try IssuerIdentifier(
        issuance.credentialIssuer, policy: client.configuration.urlPolicy)
    } catch {
      throw IssuanceError(.metadata, error.reason, underlying: error)
    }
    let context = try await client.issuerMetadata(identifier)
    let optIn = storage.trustIssuerPublishedIACAs || issuance.trustBasis == .issuerPublishedIACA
    let iacas = try await publishedIACAs(context, optIn: optIn)
    let members =
      issuance.batchID.map { batch in all.filter { $0.issuance?.batchID == batch } } ?? []
    let replacing = members.contains { $0.id == id } ? members : [old]

    var (token, exchange, clientID) = try await client.refreshAccess(
      refreshToken: refreshToken, dpopSigner: signer, context: context)
    let renewed = try await renewSession(
      session, token: token, refreshToken: refreshToken, context: context)
    token.refreshToken = renewed.refreshToken
    let result = await client.requestCredentials(
      offered: [issuance.configurationID], context: context, token: token, clientID: clientID,
      options: IssuanceClient.Options(batchSize: batchSize ?? replacing.count),
      session: &exchange)
    var out = await store(
      result, iacas: iacas,
      storage: StorageOptions(trustIssuerPublishedIACAs: optIn, ids: storage.ids),
      renewing: renewed, dpopSigner: signer)
    // Replace after success: the old credentials go only once the new ones are stored.
    guard !out.stored.isEmpty, out.failed.isEmpty else { return out }
    await removeReplaced(replacing, configurationID: issuance.configurationID, into: &out)
    return out
  }

  /// The credential `id` with every stored credential, its provenance, the issuance session it
  /// names and that session's refresh token; refused when any is missing.
  private func reissuable(_ id: String) async throws(IssuanceError) -> (
    old: StoredCredential, all: [StoredCredential], issuance: IssuanceProvenance,
    session: IssuanceSession, refreshToken: String
  ) {
    let old: StoredCredential
    let all: [StoredCredential]
    do {
      guard let found = try await wallet.store.credential(id: id) else {
        throw IssuanceError(.unknownCredential, "no credential \(id)")
      }
      old = found
      all = try await wallet.credentials()
    } catch let error as IssuanceError {
      throw error
    } catch {
      throw IssuanceError(.walletStorage, "\(error)", underlying: error)
    }
    guard let issuance = old.issuance else {
      throw IssuanceError(.noRefreshToken, "credential \(id) was not issued by OpenID4VCI")
    }
    guard let sessionID = issuance.sessionID else {
      throw IssuanceError(.noRefreshToken, "the wallet keeps no issuance session for \(id)")
    }
    let found: IssuanceSession?
    do {
      found = try await wallet.issuanceSession(id: sessionID)
    } catch {
      throw IssuanceError(.walletStorage, error.reason, underlying: error)
    }
    guard let session = found, let refreshToken = session.refreshToken else {
      throw IssuanceError(.noRefreshToken, "the wallet keeps no refresh token for \(id)")
    }
    return (old, all, issuance, session, refreshToken)
  }

  /// The session with the refreshed tokens, stored at once: RFC 6749 §6, the server may issue
  /// a new refresh token (ours rotates it).
  private func renewSession(
    _ session: IssuanceSession, token: TokenResponse, refreshToken: String,
    context: IssuerContext
  ) async throws(IssuanceError) -> IssuanceSession {
    let renewed = IssuanceSession(
      id: session.id, credentialIssuer: session.credentialIssuer,
      notificationEndpoint: context.metadata.notificationEndpoint ?? session.notificationEndpoint,
      deferredCredentialEndpoint: session.deferredCredentialEndpoint,
      accessToken: token.accessToken, tokenType: token.tokenType.rawValue,
      refreshToken: token.refreshToken ?? refreshToken, dpopKeyID: session.dpopKeyID,
      createdAt: session.createdAt)
    do {
      try await wallet.updateIssuanceSession(renewed)
    } catch {
      throw IssuanceError(.walletStorage, error.reason, underlying: error)
    }
    return renewed
  }

  /// Removes the credentials a re-issuance replaced; each one that stays is a failure.
  private func removeReplaced(
    _ replacing: [StoredCredential], configurationID: String, into out: inout WalletIssuanceResult
  ) async {
    for member in replacing {
      do {
        try await wallet.removeCredential(id: member.id)
        out.replaced.append(member.id)
      } catch {
        out.failed.append(
          WalletIssuanceFailure(
            configurationID: configurationID,
            cause: .wallet(
              WalletError(
                error.code, "re-issued, but the old credential \(member.id) stays: \(error.reason)",
                underlying: error))))
      }
    }
  }
}
