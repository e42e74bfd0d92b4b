import DCEncoding
import DCJSON
import DCStore
internal import Foundation

// Each table's SQL, in one place, over a connection. `WalletStore` runs these in a transaction
// of its own; `WalletStore.Transaction` runs several in one. Values are always bound.

extension WalletConnection {
  // MARK: Credentials

  /// The columns without the tags (schema version 6), which a store without the wallet's key
  /// reads and writes, so it works on a file a wallet has not migrated yet.
  private static let untaggedCredentialColumns = """
    id, format, type, issued, display, valid_from_ms, valid_until_ms, device_key_id,
    issuer_authority_key_ids, created_at_ms, issuer_trust, issuance, issuance_session_id,
    presentation_count, status_outcome, status_value, status_reason, status_detail,
    status_checked_at_ms, status_fresh_until_ms
    """
  private static let taggedCredentialColumns =
    untaggedCredentialColumns + ", authentication_tag, status_authentication_tag"

  /// The columns this connection reads and writes: with the tags when it holds the key.
  private var credentialColumns: String {
    credentialAuthentication == nil ? Self.untaggedCredentialColumns : Self.taggedCredentialColumns
  }

  private static let insertTaggedCredentialSQL =
    "INSERT INTO credentials (\(taggedCredentialColumns)) VALUES (\(bindMarkers(22)))"
  private static let insertUntaggedCredentialSQL =
    "INSERT INTO credentials (\(untaggedCredentialColumns)) VALUES (\(bindMarkers(20)))"

  private static func bindMarkers(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
  }

  /// The column names, in order.
  static let credentialColumnList = taggedCredentialColumns.split(separator: ",").map {
    $0.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The columns the record tag covers (all before `presentation_count`), and where the status
  /// columns and the two tags are (see `CredentialAuthentication`).
  static let recordColumns = 0..<13
  static let statusColumns = 14..<20
  static let recordTagColumn: Int32 = 20
  static let statusTagColumn: Int32 = 21

  func insertCredential(_ credential: StoredCredential) throws(WalletStoreError) {
    var memo = CredentialJSONMemo()
    try insertCredential(credential, memo: &memo)
  }

  /// Inserts several credentials (in the caller's transaction), encoding the display and
  /// provenance JSON once for the run of credentials that share them (a batch does).
  func insertCredentials(_ credentials: [StoredCredential]) throws(WalletStoreError) {
    var memo = CredentialJSONMemo()
    for credential in credentials { try insertCredential(credential, memo: &memo) }
  }

  private func insertCredential(_ credential: StoredCredential, memo: inout CredentialJSONMemo)
    throws(WalletStoreError)
  {
    var issuance = SQLValue.null
    if let provenance = credential.issuance { issuance = .text(try memo.json(provenance)) }
    guard !credential.id.isEmpty, !credential.type.isEmpty else {
      throw WalletStoreError(.invalidArgument, "a credential needs a non-empty id and type")
    }
    var values: [SQLValue] = [
      .text(credential.id), .text(credential.format.rawValue), .text(credential.type),
      .blob(credential.issued), .text(try memo.json(credential.display)),
      credential.validFrom.map { .integer(StoreTime.milliseconds($0)) } ?? .null,
      credential.validUntil.map { .integer(StoreTime.milliseconds($0)) } ?? .null,
      credential.deviceKeyID.map { .text($0) } ?? .null,
      .text(try memo.json(authorityKeyIdentifiers: credential.issuerAuthorityKeyIdentifiers)),
      .integer(StoreTime.milliseconds(credential.createdAt)),
      .text(credential.issuerTrust.rawValue),
      issuance,
      credential.issuance?.sessionID.map { .text($0) } ?? .null,
      .integer(Int64(credential.presentationCount)),
    ]
    let status = StoredStatusColumns.values(credential.lastKnownStatus)
    values += status
    // Issue 32: the row's tags, when the store holds the wallet's key.
    if let authentication = credentialAuthentication {
      values.append(.blob(authentication.recordTag(Array(values[Self.recordColumns]))))
      values.append(.blob(authentication.statusTag(id: credential.id, status)))
    }
    do throws(WalletStoreError) {
      try runCached(
        credentialAuthentication == nil
          ? Self.insertUntaggedCredentialSQL : Self.insertTaggedCredentialSQL, values)
    } catch  where error.code == .duplicateID {
      throw WalletStoreError(.duplicateID, "a credential with id \(credential.id) already exists")
    } catch  where error.code == .constraintViolation && credential.deviceKeyID != nil {
      throw WalletStoreError(
        .constraintViolation,
        "credential \(credential.id): no device key \(credential.deviceKeyID ?? "") (\(error.reason))"
      )
    }
  }

  func credential(id: String) throws(WalletStoreError) -> StoredCredential? {
    let authentication = credentialAuthentication
    return try query(
      "SELECT \(credentialColumns) FROM credentials WHERE id = ?", [.text(id)]
    ) { (row) throws(WalletStoreError) in
      try Self.decodeCredential(row, authentication: authentication)
    }.first
  }

  /// The rows of one format whose type is one of `types`, each decoded or with why it cannot be.
  func credentials(format: CredentialFormat, types: [String]) throws(WalletStoreError)
    -> [CredentialRow]
  {
    guard !types.isEmpty else { return [] }
    let placeholders = Array(repeating: "?", count: types.count).joined(separator: ", ")
    let authentication = credentialAuthentication
    return try query(
      "SELECT \(credentialColumns) FROM credentials WHERE format = ? AND type IN (\(placeholders)) ORDER BY created_at_ms, id",
      [.text(format.rawValue)] + types.map { .text($0) }
    ) { Self.credentialRow($0, authentication: authentication) }
  }

  /// Every row, or those of one format, each decoded or with why it cannot be.
  func credentials(format: CredentialFormat?) throws(WalletStoreError) -> [CredentialRow] {
    let authentication = credentialAuthentication
    if let format {
      return try query(
        "SELECT \(credentialColumns) FROM credentials WHERE format = ? ORDER BY created_at_ms, id",
        [.text(format.rawValue)]
      ) { Self.credentialRow($0, authentication: authentication) }
    }
    return try query(
      "SELECT \(credentialColumns) FROM credentials ORDER BY created_at_ms, id"
    ) { Self.credentialRow($0, authentication: authentication) }
  }

  /// One row: a bad row is reported with its id rather than failing the whole query.
  private static func credentialRow(
    _ row: WalletStatement, authentication: CredentialAuthentication?
  ) -> CredentialRow {
    do throws(WalletStoreError) {
      return .success(try decodeCredential(row, authentication: authentication))
    } catch {
      return .failure(StoreProblem(record: .credential(id: row.text(0) ?? ""), error: error))
    }
  }

  func removeCredential(id: String) throws(WalletStoreError) -> Bool {
    try run("DELETE FROM credentials WHERE id = ?", [.text(id)])
    return changes > 0
  }

  /// A row as a credential; with `authentication`, what a missing or wrong tag covers is not
  /// used (issue 32): the trust level reads as unverified, the status as unknown.
  static func decodeCredential(
    _ row: WalletStatement, authentication: CredentialAuthentication?
  ) throws(WalletStoreError) -> StoredCredential {
    let id = row.text(0) ?? ""
    guard let format = row.text(1).flatMap(CredentialFormat.init(rawValue:)) else {
      throw WalletStoreError(
        .corruptRecord, "credential \(id) has an unknown format \(row.text(1) ?? "NULL")")
    }
    let display = try StoreJSON.decode(
      CredentialDisplay.self, row.text(4), what: "credential \(id) display")
    let identifiers = try issuerKeyIdentifiers(row, id: id)
    var (trust, issuance) = try issuerTrustAndIssuance(row, id: id)
    var status = try StoredStatusColumns.record(row, first: 14, id: id)
    let unauthenticated =
      authentication.map { unauthenticatedColumns(row, id: id, $0) } ?? []
    if unauthenticated.contains(.record) { trust = .unverified }
    if unauthenticated.contains(.status) {
      status = CredentialStatusRecord(
        outcome: .unknown(
          CredentialStatusUnknownReason(
            .unauthenticated, detail: "the stored status does not carry this wallet's tag")),
        checkedAt: status?.checkedAt ?? StoreTime.date(milliseconds: row.int64(9)))
    }
    var credential = StoredCredential(
      id: id, format: format, type: row.text(2) ?? "", issued: row.blob(3), display: display,
      validFrom: row.optionalInt64(5).map { StoreTime.date(milliseconds: $0) },
      validUntil: row.optionalInt64(6).map { StoreTime.date(milliseconds: $0) },
      deviceKeyID: row.text(7), issuerAuthorityKeyIdentifiers: identifiers,
      createdAt: StoreTime.date(milliseconds: row.int64(9)), issuerTrust: trust,
      issuance: issuance, presentationCount: Int(clamping: row.int64(13)),
      lastKnownStatus: status)
    credential.unauthenticated = unauthenticated
    return credential
  }

  /// The issuer key identifiers of a credential row (hex strings in a JSON array).
  private static func issuerKeyIdentifiers(
    _ row: WalletStatement, id: String
  ) throws(WalletStoreError) -> [[UInt8]] {
    let akis = try StoreJSON.decode(
      [String].self, row.text(8), what: "credential \(id) issuer keys")
    var identifiers = [[UInt8]]()
    for hex in akis {
      guard let bytes = try? Hex.decode(hex) else {
        throw WalletStoreError(
          .corruptRecord, "credential \(id) has a malformed issuer key identifier")
      }
      identifiers.append(bytes)
    }
    return identifiers
  }

  /// The issuer trust and the issuance record of a credential row, the trust of rows written
  /// before `issuerVouched` existed read from their issuance record.
  private static func issuerTrustAndIssuance(
    _ row: WalletStatement, id: String
  ) throws(WalletStoreError) -> (IssuerTrust, IssuanceProvenance?) {
    guard var trust = row.text(10).flatMap(IssuerTrust.init(rawValue:)) else {
      throw WalletStoreError(
        .corruptRecord, "credential \(id) has an unknown issuer trust \(row.text(10) ?? "NULL")")
    }
    let issuance =
      row.isNull(11)
      ? nil
      : try StoreJSON.decode(
        IssuanceProvenance.self, row.text(11), what: "credential \(id) issuance")
    // Rows written before `issuerVouched` existed stored such credentials as `trusted`: their
    // issuance record says what vouched for them (issue 32).
    if trust == .trusted, let basis = issuance?.trustBasis, basis != .walletAnchor {
      trust = .issuerVouched
    }
    return (trust, issuance)
  }

  /// The columns of the row whose tag is missing or wrong (issue 32).
  private static func unauthenticatedColumns(
    _ row: WalletStatement, id: String, _ authentication: CredentialAuthentication
  ) -> UnauthenticatedColumns {
    let columns = row.values()
    var failed = UnauthenticatedColumns()
    if !authentication.verifies(
      tag(row, recordTagColumn), authentication.recordTag(Array(columns[recordColumns])))
    {
      failed.insert(.record)
    }
    if !authentication.verifies(
      tag(row, statusTagColumn), authentication.statusTag(id: id, Array(columns[statusColumns])))
    {
      failed.insert(.status)
    }
    return failed
  }

  /// A tag column, nil when NULL.
  private static func tag(_ row: WalletStatement, _ column: Int32) -> [UInt8]? {
    row.isNull(column) ? nil : row.blob(column)
  }

  // MARK: Trust anchors

  func insertTrustAnchor(_ anchor: TrustAnchorRecord) throws(WalletStoreError) {
    guard !anchor.id.isEmpty else {
      throw WalletStoreError(.invalidArgument, "a trust anchor needs a non-empty id")
    }
    do throws(WalletStoreError) {
      try run(
        """
        INSERT INTO trust_anchors (id, role, certificate, subject, added_at_ms, authentication_tag)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(anchor.id), .text(anchor.role.rawValue), .blob(anchor.certificateDER),
          .text(anchor.subject), .integer(StoreTime.milliseconds(anchor.addedAt)),
          anchor.authenticationTag.map { .blob($0) } ?? .null,
        ])
    } catch  where error.code == .duplicateID {
      throw WalletStoreError(.duplicateID, "a trust anchor with id \(anchor.id) already exists")
    }
  }

  func trustAnchors(role: TrustRole?) throws(WalletStoreError) -> [TrustAnchorRecord] {
    let columns = "id, role, certificate, subject, added_at_ms, authentication_tag"
    if let role {
      return try queryCached(
        "SELECT \(columns) FROM trust_anchors WHERE role = ? ORDER BY added_at_ms, id",
        [.text(role.rawValue)], row: Self.decodeTrustAnchor)
    }
    return try queryCached(
      "SELECT \(columns) FROM trust_anchors ORDER BY added_at_ms, id", row: Self.decodeTrustAnchor)
  }

  func removeTrustAnchor(id: String) throws(WalletStoreError) -> Bool {
    try run("DELETE FROM trust_anchors WHERE id = ?", [.text(id)])
    return changes > 0
  }

  private static func decodeTrustAnchor(_ row: WalletStatement) throws(WalletStoreError)
    -> TrustAnchorRecord
  {
    let id = row.text(0) ?? ""
    guard let role = row.text(1).flatMap(TrustRole.init(rawValue:)) else {
      throw WalletStoreError(.corruptRecord, "trust anchor \(id) has an unknown role")
    }
    return TrustAnchorRecord(
      id: id, role: role, certificateDER: row.blob(2), subject: row.text(3) ?? "",
      addedAt: StoreTime.date(milliseconds: row.int64(4)),
      authenticationTag: row.isNull(5) ? nil : row.blob(5))
  }

  // MARK: Trusted lists

  /// Writes a list row; with `replacing`, the row of that id is replaced (a refresh), else a
  /// duplicate id fails.
  func writeTrustedList(_ list: TrustedListRecord, replacing: Bool) throws(WalletStoreError) {
    guard !list.id.isEmpty else {
      throw WalletStoreError(.invalidArgument, "a trusted list needs a non-empty id")
    }
    let certificates = try StoreJSON.encode(list.operatorCertificates.map(Base64.encode))
    let conflict =
      replacing
      ? """
       ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, location = excluded.location,
        list = excluded.list, operator_certificates = excluded.operator_certificates,
        verified = excluded.verified, imported_at_ms = excluded.imported_at_ms,
        authentication_tag = excluded.authentication_tag
      """ : ""
    do throws(WalletStoreError) {
      try run(
        """
        INSERT INTO trusted_lists (id, kind, location, list, operator_certificates, verified,
          imported_at_ms, authentication_tag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """ + conflict,
        [
          .text(list.id), .text(list.kind), list.location.map { .text($0) } ?? .null,
          .blob(list.listBytes), .text(certificates), .blob(list.verifiedForm),
          .integer(StoreTime.milliseconds(list.importedAt)),
          list.authenticationTag.map { .blob($0) } ?? .null,
        ])
    } catch  where error.code == .duplicateID {
      throw WalletStoreError(.duplicateID, "a trusted list with id \(list.id) already exists")
    }
  }

  /// Every list row, oldest first; a row that cannot be read is a problem, not an error.
  func trustedLists() throws(WalletStoreError) -> [Result<TrustedListRecord, StoreProblem>] {
    try query(
      """
      SELECT id, kind, location, list, operator_certificates, verified, imported_at_ms,
        authentication_tag FROM trusted_lists ORDER BY imported_at_ms, id
      """
    ) { (row) throws(WalletStoreError) in Self.decodeTrustedList(row) }
  }

  func removeTrustedList(id: String) throws(WalletStoreError) -> Bool {
    try run("DELETE FROM trusted_lists WHERE id = ?", [.text(id)])
    return changes > 0
  }

  private static func decodeTrustedList(_ row: WalletStatement)
    -> Result<TrustedListRecord, StoreProblem>
  {
    let id = row.text(0) ?? ""
    let certificates: [[UInt8]]
    do {
      certificates = try StoreJSON.decode(
        [String].self, row.text(4), what: "trusted list \(id)'s operator certificates"
      ).map { (text) throws(WalletStoreError) in
        guard let der = try? Base64.decode(text) else {
          throw WalletStoreError(.corruptRecord, "trusted list \(id) has a non-base64 certificate")
        }
        return der
      }
    } catch {
      return .failure(StoreProblem(record: .trustedList(id: id), error: error))
    }
    return .success(
      TrustedListRecord(
        id: id, kind: row.text(1) ?? "", location: row.isNull(2) ? nil : row.text(2),
        listBytes: row.blob(3), operatorCertificates: certificates, verifiedForm: row.blob(5),
        importedAt: StoreTime.date(milliseconds: row.int64(6)),
        authenticationTag: row.isNull(7) ? nil : row.blob(7)))
  }

  // MARK: Activity

  func appendActivity(_ entry: NewActivity) throws(WalletStoreError) -> Int64 {
    try run(
      """
      INSERT INTO activity (timestamp_ms, protocol, origin, relying_party, outcome, credential_ids,
        shared_items, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .integer(StoreTime.milliseconds(entry.timestamp)), .text(entry.protocolIdentifier),
        entry.origin.map { .text($0) } ?? .null, entry.relyingParty.map { .text($0) } ?? .null,
        .text(entry.outcome.rawValue), .text(try StoreJSON.encode(entry.credentialIDs)),
        .text(try StoreJSON.encode(entry.sharedItems)), .text(entry.detail),
      ])
    return lastInsertRowID
  }

  /// The newest entries, each decoded or with why it cannot be.
  func activities(limit: Int) throws(WalletStoreError) -> [Result<ActivityRecord, StoreProblem>] {
    guard limit >= 0 else { throw WalletStoreError(.invalidArgument, "limit must not be negative") }
    return try query(
      """
      SELECT id, timestamp_ms, protocol, origin, relying_party, outcome, credential_ids,
        shared_items, detail FROM activity ORDER BY timestamp_ms DESC, id DESC LIMIT ?
      """, [.integer(Int64(limit))]
    ) { (row) -> Result<ActivityRecord, StoreProblem> in
      do throws(WalletStoreError) {
        return .success(try Self.decodeActivity(row))
      } catch {
        return .failure(StoreProblem(record: .activity(id: row.int64(0)), error: error))
      }
    }
  }

  private static func decodeActivity(_ row: WalletStatement) throws(WalletStoreError)
    -> ActivityRecord
  {
    let id = row.int64(0)
    guard let outcome = row.text(5).flatMap(ActivityOutcome.init(rawValue:)) else {
      throw WalletStoreError(.corruptRecord, "activity \(id) has an unknown outcome")
    }
    let entry = NewActivity(
      timestamp: StoreTime.date(milliseconds: row.int64(1)),
      protocolIdentifier: row.text(2) ?? "", origin: row.text(3), relyingParty: row.text(4),
      outcome: outcome,
      credentialIDs: try StoreJSON.decode([String].self, row.text(6), what: "activity \(id)"),
      sharedItems: try StoreJSON.decode([String].self, row.text(7), what: "activity \(id)"),
      detail: row.text(8) ?? "")
    return ActivityRecord(id: id, entry)
  }

  // MARK: Settings

  func setting(_ key: String) throws(WalletStoreError) -> String? {
    try query("SELECT value FROM settings WHERE key = ?", [.text(key)]) { $0.text(0) }.first ?? nil
  }

  func settingRecord(_ key: String) throws(WalletStoreError) -> SettingRecord? {
    try query("SELECT key, value, authentication_tag FROM settings WHERE key = ?", [.text(key)]) {
      SettingRecord(
        key: $0.text(0) ?? "", value: $0.text(1) ?? "",
        authenticationTag: $0.isNull(2) ? nil : $0.blob(2))
    }.first
  }

  func setSetting(_ key: String, _ value: String?, tag: [UInt8]? = nil) throws(WalletStoreError) {
    guard !key.isEmpty else { throw WalletStoreError(.invalidArgument, "a setting needs a key") }
    if let value {
      try run(
        """
        INSERT INTO settings (key, value, authentication_tag) VALUES (?, ?, ?) ON CONFLICT (key)
        DO UPDATE SET value = excluded.value, authentication_tag = excluded.authentication_tag
        """,
        [.text(key), .text(value), tag.map { .blob($0) } ?? .null])
    } else {
      try run("DELETE FROM settings WHERE key = ?", [.text(key)])
    }
  }

  // MARK: Device keys

  func insertDeviceKey(_ key: DeviceKeyRow) throws(WalletStoreError) {
    do throws(WalletStoreError) {
      try runCached(
        """
        INSERT INTO device_keys (id, curve, public_key, protection, wrapped_private_key, created_at_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(key.id), .text(key.curve), .blob(key.publicKey), .text(key.protection),
          key.wrappedPrivateKey.map { .blob($0) } ?? .null,
          .integer(StoreTime.milliseconds(key.createdAt)),
        ])
    } catch  where error.code == .duplicateID {
      throw WalletStoreError(.duplicateID, "a device key with id \(key.id) already exists")
    }
  }

  func deviceKey(id: String) throws(WalletStoreError) -> DeviceKeyRow? {
    try query(
      """
      SELECT id, curve, public_key, protection, wrapped_private_key, created_at_ms
      FROM device_keys WHERE id = ?
      """, [.text(id)]
    ) { row in
      DeviceKeyRow(
        id: row.text(0) ?? "", curve: row.text(1) ?? "", publicKey: row.blob(2),
        protection: row.text(3) ?? "", wrappedPrivateKey: row.isNull(4) ? nil : row.blob(4),
        createdAt: StoreTime.date(milliseconds: row.int64(5)))
    }.first
  }

  func removeDeviceKey(id: String) throws(WalletStoreError) -> Bool {
    do throws(WalletStoreError) {
      try run("DELETE FROM device_keys WHERE id = ?", [.text(id)])
    } catch  where error.code == .constraintViolation {
      throw WalletStoreError(
        .constraintViolation, "device key \(id) is still used by a stored credential")
    }
    return changes > 0
  }
}

/// A row of `device_keys`: a public key, and how its private key is kept.
struct DeviceKeyRow: Sendable, Hashable {
  var id: String
  /// The curve's JWK name (`P-256`).
  var curve: String
  /// SEC1 uncompressed point.
  var publicKey: [UInt8]
  /// `aes-256-gcm-kek` (wrapped here), `secure-enclave` or `keychain` (kept by the platform).
  var protection: String
  /// nonce || ciphertext || tag, for keys wrapped here.
  var wrappedPrivateKey: [UInt8]?
  var createdAt: Date
}

/// JSON for the store's TEXT columns: sorted keys, so equal values are equal bytes.
/// The JSON of the last display and provenance encoded, reused while the next credential's are
/// equal: `JSONEncoder` costs more than comparing the values.
struct CredentialJSONMemo {
  private var display: (value: CredentialDisplay, json: String)?
  private var provenance: (value: IssuanceProvenance, json: String)?
  private var authorityKeyIdentifiers: (value: [[UInt8]], json: String)?

  mutating func json(_ value: CredentialDisplay) throws(WalletStoreError) -> String {
    if let display, display.value == value { return display.json }
    let json = try StoreJSON.encode(value)
    display = (value, json)
    return json
  }

  /// The issuer authority key identifiers, as a JSON array of hex strings.
  mutating func json(authorityKeyIdentifiers value: [[UInt8]]) throws(WalletStoreError) -> String {
    if let authorityKeyIdentifiers, authorityKeyIdentifiers.value == value {
      return authorityKeyIdentifiers.json
    }
    let json = try StoreJSON.encode(value.map { Hex.encode($0) })
    authorityKeyIdentifiers = (value, json)
    return json
  }

  mutating func json(_ value: IssuanceProvenance) throws(WalletStoreError) -> String {
    if let provenance, provenance.value == value { return provenance.json }
    let json = try StoreJSON.encode(value)
    provenance = (value, json)
    return json
  }
}

package enum StoreJSON {
  package static func encode(_ value: some Encodable) throws(WalletStoreError) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw WalletStoreError(.invalidArgument, "cannot encode \(type(of: value)): \(error)")
    }
  }

  package static func decode<T: Decodable>(_ type: T.Type, _ text: String?, what: String)
    throws(WalletStoreError) -> T
  {
    do {
      return try JSONDecoder().decode(type, from: Data((text ?? "").utf8))
    } catch {
      throw WalletStoreError(.corruptRecord, "\(what) is not valid JSON: \(error)")
    }
  }
}
