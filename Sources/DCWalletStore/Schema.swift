import DCStore

/// The store's schema, versioned with `PRAGMA user_version` (`SQLiteDatabase.migrate`).
///
/// A new file runs every step from version 1; an older file runs the steps it lacks, inside one
/// `BEGIN IMMEDIATE` transaction, so a migration is all-or-nothing and two processes opening an
/// old file at once migrate it once. Steps are never edited once shipped: a change is a new step.
///
/// Dates are INTEGER milliseconds since 1970 (UTC). Lists are JSON arrays of strings.
package enum Schema {
  /// The version this code writes.
  package static let currentVersion = 8

  /// Every step, 1 to `currentVersion`; with `adoption` (the wallet's key), step 7 also tags the
  /// credential rows written before it.
  static func steps(adoption: LegacyCredentialAdoption?) -> [SQLiteMigration<WalletStoreError>] {
    (1...currentVersion).map { version in
      SQLiteMigration(
        version: version, migration(to: version),
        then: version == 7 ? adoption.map { adoption in adoption.adopt } : nil)
    }
  }

  /// The statements that bring a file from `version - 1` to `version`.
  static func migration(to version: Int) -> [String] {
    switch version {
    case 1: version1
    case 2: version2
    case 3: version3
    case 4: version4
    case 5: version5
    case 6: version6
    case 7: version7
    case 8: version8
    default: []
    }
  }

  /// Version 1, the first schema, kept verbatim: credentials without their issuers' key
  /// identifiers, and no settings.
  static let version1 = [
    """
    CREATE TABLE device_keys (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      curve TEXT NOT NULL,
      public_key BLOB NOT NULL,
      protection TEXT NOT NULL,
      wrapped_private_key BLOB,
      created_at_ms INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE credentials (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      format TEXT NOT NULL,
      type TEXT NOT NULL,
      issued BLOB NOT NULL,
      display TEXT NOT NULL,
      valid_from_ms INTEGER,
      valid_until_ms INTEGER,
      device_key_id TEXT REFERENCES device_keys(id) ON DELETE RESTRICT,
      created_at_ms INTEGER NOT NULL
    )
    """,
    "CREATE INDEX credentials_by_creation ON credentials(created_at_ms, id)",
    "CREATE INDEX credentials_by_device_key ON credentials(device_key_id)",
    """
    CREATE TABLE trust_anchors (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      role TEXT NOT NULL CHECK (role IN ('issuer', 'reader', 'verifier')),
      certificate BLOB NOT NULL,
      subject TEXT NOT NULL,
      added_at_ms INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE activity (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      timestamp_ms INTEGER NOT NULL,
      protocol TEXT NOT NULL,
      origin TEXT,
      relying_party TEXT,
      outcome TEXT NOT NULL,
      credential_ids TEXT NOT NULL,
      shared_items TEXT NOT NULL,
      detail TEXT NOT NULL
    )
    """,
  ]

  /// Version 2: the authority key identifiers of each credential's issuer chain (for
  /// registration and matching; existing rows get an empty list), settings, and an index for
  /// the newest-first activity log.
  static let version2 = [
    """
    ALTER TABLE credentials
      ADD COLUMN issuer_authority_key_ids TEXT NOT NULL DEFAULT '[]'
    """,
    """
    CREATE TABLE settings (
      key TEXT PRIMARY KEY NOT NULL CHECK (length(key) > 0),
      value TEXT NOT NULL
    )
    """,
    "CREATE INDEX activity_by_time ON activity(timestamp_ms, id)",
  ]

  /// Version 3: matching asks for credentials of one format and type, so index them.
  static let version3 = [
    "CREATE INDEX credentials_by_type ON credentials(format, type, created_at_ms, id)"
  ]

  /// Version 4: whether an issuer anchor vouched for each credential's issuer (existing rows
  /// recorded nothing, so they read as unverified), and an authentication tag on the rows that
  /// decide security (trust anchors, settings): HMAC-SHA256 under a key derived from the
  /// key-encryption key (see `SettingsAuthentication`). Rows written before have no tag and are
  /// not trusted until written again with one; SQL alone cannot compute it.
  static let version4 = [
    "ALTER TABLE credentials ADD COLUMN issuer_trust TEXT NOT NULL DEFAULT 'unverified'",
    "ALTER TABLE trust_anchors ADD COLUMN authentication_tag BLOB",
    "ALTER TABLE settings ADD COLUMN authentication_tag BLOB",
  ]

  /// Version 5 (issue 13, OpenID4VCI): where an issued credential came from (`issuance`, JSON of
  /// `IssuanceProvenance`: issuer, configuration, the issuer's display entries, notification id,
  /// trust basis, batch), the issuance session it may notify through, and how often it was
  /// presented (batch credentials are used once each). Sessions keep the issuer's endpoints and
  /// the tokens sealed with AES-256-GCM under a key derived from the settings key (never in the
  /// clear), and name the DPoP key in the device key store. Pending deferred issuances name their
  /// session. Existing rows read as imported (no provenance) and never presented.
  static let version5 = [
    "ALTER TABLE credentials ADD COLUMN issuance TEXT",
    """
    CREATE TABLE issuance_sessions (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      credential_issuer TEXT NOT NULL,
      notification_endpoint TEXT,
      deferred_endpoint TEXT,
      sealed_tokens BLOB,
      dpop_key_id TEXT,
      created_at_ms INTEGER NOT NULL
    )
    """,
    """
    ALTER TABLE credentials ADD COLUMN issuance_session_id TEXT
      REFERENCES issuance_sessions(id) ON DELETE RESTRICT
    """,
    "ALTER TABLE credentials ADD COLUMN presentation_count INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX credentials_by_issuance_session ON credentials(issuance_session_id)",
    """
    CREATE TABLE deferred_issuances (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      session_id TEXT NOT NULL REFERENCES issuance_sessions(id) ON DELETE RESTRICT,
      pending TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL
    )
    """,
  ]

  /// Version 6 (issue 15, Token Status List): each credential's last known status, as the wallet
  /// last checked it (`CredentialStatusRecord`): the outcome (`valid`, `invalid`, `suspended`,
  /// `other` for an application-specific value, `unknown`), the status value read from the list,
  /// why it is unknown (a reason code and a diagnostic), when it was checked, and until when the
  /// list token it came from is fresh (its `exp`, or `iat` + `ttl`, draft-ietf-oauth-status-list
  /// §5.1 / §12). Existing rows read as never checked (NULL outcome).
  static let version6 = [
    """
    ALTER TABLE credentials ADD COLUMN status_outcome TEXT
      CHECK (status_outcome IN ('valid', 'invalid', 'suspended', 'other', 'unknown'))
    """,
    "ALTER TABLE credentials ADD COLUMN status_value INTEGER",
    "ALTER TABLE credentials ADD COLUMN status_reason TEXT",
    "ALTER TABLE credentials ADD COLUMN status_detail TEXT",
    "ALTER TABLE credentials ADD COLUMN status_checked_at_ms INTEGER",
    "ALTER TABLE credentials ADD COLUMN status_fresh_until_ms INTEGER",
  ]

  /// Version 7 (issue 32): an authentication tag on each credential row, as trust anchors and
  /// settings have (`CredentialAuthentication`): `authentication_tag` over the credential, its
  /// trust level and issuance record, `status_authentication_tag` over its status. Rows written
  /// before have neither; SQL cannot compute them, so a wallet opening the file with its key
  /// adopts them in the same transaction (`LegacyCredentialAdoption`); a store opened without
  /// the key leaves a file that holds credentials at version 6 for it.
  static let version7 = [
    "ALTER TABLE credentials ADD COLUMN authentication_tag BLOB",
    "ALTER TABLE credentials ADD COLUMN status_authentication_tag BLOB",
  ]

  /// Version 8 (issue 29): trusted lists (`TrustedListRecord`): the kind, where it was fetched
  /// from, the list as published, its operator certificates (a JSON array of base64 DER), the
  /// verified list's model and an authentication tag, as trust anchors have; a row without a
  /// valid tag is never used.
  static let version8 = [
    """
    CREATE TABLE trusted_lists (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) > 0),
      kind TEXT NOT NULL,
      location TEXT,
      list BLOB NOT NULL,
      operator_certificates TEXT NOT NULL,
      verified BLOB NOT NULL,
      imported_at_ms INTEGER NOT NULL,
      authentication_tag BLOB
    )
    """
  ]
}
