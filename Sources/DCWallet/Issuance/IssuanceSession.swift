package import DCCrypto
package import Foundation

/// What the wallet keeps of an issuance to talk to the issuer later: the tokens (sealed at
/// rest, see `Wallet.storeIssuedCredentials`) and the DPoP key they are bound to.
package struct IssuanceSession: Sendable, Hashable {
  /// The session's identifier in this wallet.
  package let id: String
  /// The Credential Issuer Identifier.
  package let credentialIssuer: String
  /// The issuer's `notification_endpoint`, if it has one.
  package let notificationEndpoint: URL?
  /// The issuer's `deferred_credential_endpoint`, if it has one.
  package let deferredCredentialEndpoint: URL?
  /// The access token (RFC 6749 §5.1).
  package let accessToken: String?
  /// The `token_type` the token endpoint returned (`DPoP` or `Bearer`).
  package let tokenType: String?
  /// The refresh token, kept for re-issuance, if any.
  package let refreshToken: String?
  /// The device key store identifier of the DPoP key (RFC 9449) the token is bound to.
  package let dpopKeyID: String?
  /// When the session was stored.
  package let createdAt: Date

  /// Creates a session.
  package init(
    id: String = UUID().uuidString.lowercased(), credentialIssuer: String,
    notificationEndpoint: URL? = nil, deferredCredentialEndpoint: URL? = nil,
    accessToken: String? = nil, tokenType: String? = nil, refreshToken: String? = nil,
    dpopKeyID: String? = nil, createdAt: Date = Date()
  ) {
    self.id = id
    self.credentialIssuer = credentialIssuer
    self.notificationEndpoint = notificationEndpoint
    self.deferredCredentialEndpoint = deferredCredentialEndpoint
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.refreshToken = refreshToken
    self.dpopKeyID = dpopKeyID
    self.createdAt = StoreTime.normalized(createdAt)
  }
}

/// What the wallet hands back when an issued credential is removed, for the client to send
/// `credential_deleted` to the issuer's notification endpoint (OpenID4VCI 1.0 §11).
public struct CredentialDeletionNotice: Sendable {
  /// The removed credential's id.
  public let credentialID: String
  /// The Credential Issuer Identifier.
  public let credentialIssuer: String
  /// The `notification_id` the issuer gave.
  package let notificationID: String
  /// The issuance session: the notification endpoint, the access token and the DPoP key id.
  package let session: IssuanceSession
  /// A signer for the DPoP key, taken before the key was deleted with the last credential
  /// of its session (nil without a DPoP key). With a hardware-backed key store, send the
  /// notification before removing (use `Wallet.deletionNotice(forCredential:)`).
  package let dpopSigner: (any Signer)?
}
