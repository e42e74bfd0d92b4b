internal import DCCrypto
import DCStore
package import DCX509
package import Foundation

/// Which of a stored credential's authenticated columns did not verify when it was read
/// (issue 32): the row is still listed, and reported as a `StoreProblem`, but what the failed
/// tag covers is not used.
public struct UnauthenticatedColumns: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The credential itself, its trust level and its issuance record: it reads as
  /// `IssuerTrust.unverified`.
  public static let record = UnauthenticatedColumns(rawValue: 1)
  /// Its last known status: it reads as unknown (`CredentialStatusUnknownReason.Code
  /// .unauthenticated`), which the next status check replaces.
  public static let status = UnauthenticatedColumns(rawValue: 2)
}

/// Authenticates each credential row, as `SettingsAuthentication` does trust anchors and
/// settings, so that whoever can write the database without the key-encryption key cannot turn
/// an unverified import into a trusted one, forge an issuance record, or reset a revoked status.
///
/// Two HMAC-SHA256 tags (RFC 2104) under a 32-byte key that HKDF-SHA256 (RFC 5869) derives from
/// the settings key (itself derived from the key-encryption key) with its own `info` (the
/// encoding is `RowAuthenticator`'s):
/// `authentication_tag` over every column of the row as stored except the presentation count and
/// the status, and `status_authentication_tag` over the id and the `status_*` columns (written
/// whenever the status is). Each column is encoded with its SQLite type and length, so no two
/// rows encode alike. Not covered, as for settings: deleting a row, putting back an older tagged
/// status of the same credential, and anyone who can read the key-encryption key file.
struct CredentialAuthentication: Sendable {
  static let derivationLabel = Array("dcwallet credential authentication v1".utf8)

  /// The tags, computed by the SQLite layer's authenticated rows (`RowAuthenticator`).
  let rows: RowAuthenticator

  /// Uses the connection's authenticator.
  init(rows: RowAuthenticator) {
    self.rows = rows
  }

  /// HKDF-SHA256(IKM = settings key, salt = empty, info = "dcwallet credential authentication
  /// v1", L = 32).
  init(settings: SettingsAuthentication) throws(WalletStoreError) {
    do {
      rows = RowAuthenticator(
        key: try HKDF.deriveKey(
          .sha256, inputKeyMaterial: settings.key, salt: [UInt8](), info: Self.derivationLabel,
          outputByteCount: 32))
    } catch {
      throw WalletStoreError(
        .keyOperationFailed, "cannot derive the credential authentication key: \(error)")
    }
  }

  /// The tag over a row's record columns, as bound or read (`credentials`, columns 0-12).
  func recordTag(_ columns: [SQLValue]) -> [UInt8] {
    rows.tag(label: "credentials", columns)
  }

  /// The tag over a credential's id and its six status columns.
  func statusTag(id: String, _ columns: [SQLValue]) -> [UInt8] {
    rows.tag(label: "credential_status", [.text(id)] + columns)
  }

  /// Whether `tag` is the one these columns should carry.
  func verifies(_ tag: [UInt8]?, _ expected: [UInt8]) -> Bool {
    rows.verifies(tag, expected)
  }
}

extension WalletConnection {
  /// Tags credential rows as they are written and checks them as they are read (issue 32);
  /// nil for a store opened without the wallet's key, which writes no tags and checks none.
  var credentialAuthentication: CredentialAuthentication? {
    get { rowAuthenticator.map { CredentialAuthentication(rows: $0) } }
    set { rowAuthenticator = newValue?.rows }
  }
}

/// Whether a stored credential's own issuer chain (mdoc `x5chain`, SD-JWT `x5c`) validates at a
/// time to one of the anchors. The wallet answers it (it decodes credentials; the store keeps
/// their bytes and does not read them).
package typealias IssuerChainCheck = @Sendable (StoredCredential, [Certificate], Date) -> Bool

/// The migration of the credential rows written before rows carried tags (schema version 6 and
/// earlier; issue 32): run once, with the wallet's key, in the transaction that adds the tag
/// columns. Anyone could have written a legacy row, so nothing it claims about trust or status
/// is taken on its word:
/// - the trust level is derived again: `issuerVouched` when its issuance record says the
///   issuer's own IACAs or metadata keys vouched for it; `trusted` only when the row said so and
///   its issuer chain still validates to an authenticated issuer anchor of the wallet;
///   `unverified` otherwise;
/// - a last known status is kept only when it withholds the credential (invalid, suspended);
///   any other reads as never checked, so the next status check learns it again.
///
/// Then both tags are written. What a legacy row's issuance record says is kept (it is then
/// authenticated as written): rows from before version 7 cannot be told apart from rows changed
/// before the upgrade.
struct LegacyCredentialAdoption {
  let settings: SettingsAuthentication
  let authentication: CredentialAuthentication
  let issuerChainCheck: IssuerChainCheck
  let now: Date

  func adopt(_ connection: WalletConnection) throws(WalletStoreError) {
    let anchors = try connection.trustAnchors(role: .issuer).filter(settings.verifies)
      .compactMap { try? Certificate(derEncoded: $0.certificateDER) }
    // Read as stored: the connection checks no tags during the migration.
    for case .success(let credential) in try connection.credentials(format: nil) {
      let status = credential.lastKnownStatus.flatMap {
        $0.outcome.refusesPresentation ? $0 : nil
      }
      let statusColumns = StoredStatusColumns.values(status)
      try connection.run(
        """
        UPDATE credentials SET issuer_trust = ?, status_outcome = ?, status_value = ?,
          status_reason = ?, status_detail = ?, status_checked_at_ms = ?,
          status_fresh_until_ms = ?, status_authentication_tag = ? WHERE id = ?
        """,
        [.text(trust(of: credential, anchors: anchors).rawValue)] + statusColumns + [
          .blob(authentication.statusTag(id: credential.id, statusColumns)),
          .text(credential.id),
        ])
      try retag(credential.id, connection)
    }
  }

  /// The trust level a legacy row gets.
  func trust(of credential: StoredCredential, anchors: [Certificate]) -> IssuerTrust {
    switch credential.issuance?.trustBasis {
    case .issuerPublishedIACA?, .issuerMetadataKey?: return .issuerVouched
    case .walletAnchor?, nil:
      guard credential.issuerTrust != .unverified,
        issuerChainCheck(credential, anchors, now)
      else { return .unverified }
      return .trusted
    }
  }

  /// Writes the record tag over the row as it now stands.
  private func retag(_ id: String, _ connection: WalletConnection) throws(WalletStoreError) {
    let columns = WalletConnection.credentialColumnList.prefix(
      WalletConnection.recordColumns.count)
    let rows = try connection.query(
      "SELECT \(columns.joined(separator: ", ")) FROM credentials WHERE id = ?", [.text(id)]
    ) { $0.values() }
    guard let values = rows.first else { return }
    try connection.run(
      "UPDATE credentials SET authentication_tag = ? WHERE id = ?",
      [.blob(authentication.recordTag(values)), .text(id)])
  }
}
