internal import DCCrypto
internal import Foundation

/// Authenticates the rows that decide security, trust anchors and settings (the holder
/// authentication policy), so that someone who can write the database but does not hold the
/// key-encryption key cannot add an anchor or relax the policy.
///
/// Each such row carries HMAC-SHA256 (RFC 2104) over a canonical encoding of its columns (see
/// `encoding`), under a 32-byte key that HKDF-SHA256 (RFC 5869) derives from the wallet's
/// key-encryption key with its own `info` label, so the key that wraps device keys is never used
/// for two purposes. A row whose tag is missing or wrong is not used: an anchor is not trusted, a
/// policy falls back to the strictest one, and both are reported as `StoreProblem`s with
/// `WalletStoreErrorCode.unauthenticatedRecord`.
///
/// What this does not cover: deleting a row (an anchor or a setting that is gone is simply
/// absent; a missing policy reads as the default), and anyone who can read the key-encryption key
/// file (the same user, root), who can compute tags.
///
/// On Apple platforms with `KeychainKeyStore` there is no key-encryption key file: the tag key
/// is a random 32-byte secret in a keychain item of its own
/// (`KeychainKeyStore.settingsAuthenticationKey()`), passed to `Wallet.init(settingsKey:)`.
package struct SettingsAuthentication: Sendable {
  /// The HKDF `info` that separates this key from every other use of the key-encryption key.
  static let derivationLabel = Array("dcwallet settings authentication v1".utf8)
  /// The tag key's length, and the shortest key accepted (RFC 2104 §3: at least the hash's
  /// output length).
  package static let keyByteCount = 32

  package let key: [UInt8]

  /// Uses a tag key kept outside the database (a keychain item): at least 32 random bytes.
  package init(key: [UInt8]) throws(WalletStoreError) {
    guard key.count >= Self.keyByteCount else {
      throw WalletStoreError(
        .invalidArgument,
        "a settings authentication key has at least \(Self.keyByteCount) bytes, not \(key.count)")
    }
    self.key = key
  }

  /// Derives the tag key from the wallet's key-encryption key:
  /// HKDF-SHA256(IKM = KEK, salt = empty, info = "dcwallet settings authentication v1", L = 32).
  package init(keyEncryptionKey: [UInt8]) throws(WalletStoreError) {
    let derived: [UInt8]
    do {
      derived = try HKDF.deriveKey(
        .sha256, inputKeyMaterial: keyEncryptionKey, salt: [UInt8](), info: Self.derivationLabel,
        outputByteCount: Self.keyByteCount)
    } catch {
      throw WalletStoreError(.keyOperationFailed, "cannot derive the settings key: \(error)")
    }
    try self.init(key: derived)
  }

  /// The tag for a trust anchor row.
  package func tag(for anchor: TrustAnchorRecord) -> [UInt8] {
    HMAC.authenticationCode(.sha256, for: Self.encoding(anchor), key: key)
  }

  /// The tag for a setting row.
  package func tag(forSetting key: String, value: String) -> [UInt8] {
    HMAC.authenticationCode(.sha256, for: Self.encoding(setting: key, value: value), key: self.key)
  }

  /// Whether a trust anchor row carries its tag.
  package func verifies(_ anchor: TrustAnchorRecord) -> Bool {
    guard let tag = anchor.authenticationTag else { return false }
    return constantTimeEquals(tag, self.tag(for: anchor))
  }

  /// Whether a setting row carries its tag.
  package func verifies(_ setting: SettingRecord) -> Bool {
    guard let tag = setting.authenticationTag else { return false }
    return constantTimeEquals(tag, self.tag(forSetting: setting.key, value: setting.value))
  }

  /// The canonical encoding of a trust anchor row: a label naming the table, then each column
  /// (id, role, certificate DER, subject, added_at_ms as a decimal) as an 8-byte big-endian length
  /// and its bytes, so no two different rows, and no anchor and setting, encode alike.
  static func encoding(_ anchor: TrustAnchorRecord) -> [UInt8] {
    fields([
      Array("trust_anchors".utf8), Array(anchor.id.utf8), Array(anchor.role.rawValue.utf8),
      anchor.certificateDER, Array(anchor.subject.utf8),
      Array(String(StoreTime.milliseconds(anchor.addedAt)).utf8),
    ])
  }

  /// The tag for a trusted list row.
  package func tag(for list: TrustedListRecord) -> [UInt8] {
    HMAC.authenticationCode(.sha256, for: Self.encoding(list), key: key)
  }

  /// Whether a trusted list row carries its tag.
  package func verifies(_ list: TrustedListRecord) -> Bool {
    guard let tag = list.authenticationTag else { return false }
    return constantTimeEquals(tag, self.tag(for: list))
  }

  /// The canonical encoding of a trusted list row: the label `trusted_lists`, then id, kind,
  /// location (empty when none, after a byte saying whether there is one), the list's bytes,
  /// the number of operator certificates and each one's DER, the verified model and
  /// imported_at_ms as a decimal, each as an 8-byte big-endian length and its bytes.
  static func encoding(_ list: TrustedListRecord) -> [UInt8] {
    fields(
      [
        Array("trusted_lists".utf8), Array(list.id.utf8), Array(list.kind.utf8),
        [list.location == nil ? 0 : 1], Array((list.location ?? "").utf8), list.listBytes,
        Array(String(list.operatorCertificates.count).utf8),
      ] + list.operatorCertificates + [
        list.verifiedForm, Array(String(StoreTime.milliseconds(list.importedAt)).utf8),
      ])
  }

  /// The canonical encoding of a setting row: the label `settings`, the key and the value.
  static func encoding(setting key: String, value: String) -> [UInt8] {
    fields([Array("settings".utf8), Array(key.utf8), Array(value.utf8)])
  }

  private static func fields(_ fields: [[UInt8]]) -> [UInt8] {
    var out: [UInt8] = []
    for field in fields {
      let count = UInt64(field.count)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: count >> UInt64(shift)))
      }
      out.append(contentsOf: field)
    }
    return out
  }
}
