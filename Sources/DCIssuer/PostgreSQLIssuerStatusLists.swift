public import DCCrypto
import DCPostgreSQL
public import Foundation

// MARK: Status lists (IssuerStatusListStore) on PostgreSQL

extension PostgreSQLIssuerStateStore {
  private static let credentialColumns =
    "credential_id, configuration_id, list_id, idx, status, issued_at"

  public func assignStatusIndex(
    credentialID: String, configurationID: String, settings: StatusListSettings, now: Date,
    random: any RandomSource
  ) throws(IssuerStoreError) -> IssuedCredentialStatus {
    try settings.validate()
    return try transaction { (connection) throws(IssuerStoreError) -> IssuedCredentialStatus in
      // One assignment at a time across instances (the lock ends with the transaction); the
      // unique constraints refuse a second credential at an index even without it.
      try connection.execute("SELECT pg_advisory_xact_lock(4342018226577172)")
      if try !connection.execute(
        "SELECT 1 FROM issuer_status_entries WHERE credential_id = $1", [.text(credentialID)]
      ).rows.isEmpty {
        throw IssuerStoreError(
          .duplicateCredential, "credential \(credentialID) already has a status list index")
      }
      let (listID, used) = try Self.listWithRoom(settings, now: now, connection)
      guard
        let index = try StatusIndexChooser.choose(
          size: settings.size, used: used, random: random,
          isUsed: { (candidate) throws(IssuerStoreError) in
            try !connection.execute(
              "SELECT 1 FROM issuer_status_entries WHERE list_id = $1 AND idx = $2",
              [.integer(listID), .integer(Int64(candidate))]
            ).rows.isEmpty
          },
          usedIndices: { () throws(IssuerStoreError) in
            Set(
              try connection.execute(
                "SELECT idx FROM issuer_status_entries WHERE list_id = $1", [.integer(listID)]
              ).rows.compactMap { $0.int64(0).map(Int.init) })
          })
      else { throw IssuerStoreError(.databaseFailure, "status list \(listID) has no free index") }
      try connection.execute(
        """
        INSERT INTO issuer_status_entries
          (credential_id, list_id, idx, status, configuration_id, issued_at)
        VALUES ($1, $2, $3, 0, $4, $5)
        """,
        [
          .text(credentialID), .integer(listID), .integer(Int64(index)), .text(configurationID),
          .double(now.timeIntervalSince1970),
        ])
      return IssuedCredentialStatus(
        credentialID: credentialID, configurationID: configurationID, listID: Int(listID),
        index: index, status: IssuerStatusValue.valid, issuedAt: now)
    }
  }

  /// The newest list of these settings with a free index and how many it uses; a new list when
  /// none has room. Called inside the assignment's transaction.
  private static func listWithRoom(
    _ settings: StatusListSettings, now: Date, _ connection: PostgreSQLConnection<IssuerStoreError>
  ) throws(IssuerStoreError) -> (listID: Int64, used: Int) {
    let shape: [PostgreSQLValue] = [.integer(Int64(settings.bits)), .integer(Int64(settings.size))]
    if let row = try connection.execute(
      """
      SELECT l.id, (SELECT COUNT(*) FROM issuer_status_entries e WHERE e.list_id = l.id)
      FROM issuer_status_lists l WHERE l.bits = $1 AND l.size = $2 ORDER BY l.id DESC LIMIT 1
      """, shape
    ).rows.first, let id = row.int64(0), let used = row.int64(1), used < settings.size {
      return (id, Int(used))
    }
    guard
      let id = try connection.execute(
        "INSERT INTO issuer_status_lists (bits, size, created_at) VALUES ($1, $2, $3) RETURNING id",
        shape + [.double(now.timeIntervalSince1970)]
      ).rows.first?.int64(0)
    else { throw IssuerStoreError(.databaseFailure, "a new status list got no id") }
    return (id, 0)
  }

  public func changeStatus(credentialID: String, _ change: CredentialStatusChange)
    throws(IssuerStoreError) -> IssuedCredentialStatus
  {
    try transaction { (connection) throws(IssuerStoreError) -> IssuedCredentialStatus in
      // FOR UPDATE: two changes of one credential on two instances run one after the other.
      let rows = try connection.execute(
        """
        SELECT e.credential_id, e.configuration_id, e.list_id, e.idx, e.status, e.issued_at, l.bits
        FROM issuer_status_entries e JOIN issuer_status_lists l ON l.id = e.list_id
        WHERE e.credential_id = $1 FOR UPDATE OF e
        """, [.text(credentialID)]
      ).rows
      guard let row = rows.first, var record = try Self.credential(row),
        let bits = row.int64(6)
      else {
        throw IssuerStoreError(.unknownCredential, "no issued credential \(credentialID)")
      }
      record.status = try change.apply(to: record.status, bits: Int(bits))
      try connection.execute(
        "UPDATE issuer_status_entries SET status = $1 WHERE credential_id = $2",
        [.integer(Int64(record.status)), .text(credentialID)])
      return record
    }
  }

  public func issuedCredentialStatus(credentialID: String) throws(IssuerStoreError)
    -> IssuedCredentialStatus?
  {
    try credentials(where: "credential_id = $1", [.text(credentialID)]).first
  }

  public func issuedCredentialStatuses() throws(IssuerStoreError) -> [IssuedCredentialStatus] {
    try credentials(where: "TRUE", [])
  }

  public func statusList(id: Int) throws(IssuerStoreError) -> StoredStatusList? {
    // One transaction, REPEATABLE READ: the shape and the entries are of the same moment.
    try transaction { (connection) throws(IssuerStoreError) -> StoredStatusList? in
      try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
      guard
        let shape = try connection.execute(
          "SELECT bits, size FROM issuer_status_lists WHERE id = $1", [.integer(Int64(id))]
        ).rows.first, let bits = shape.int64(0), let size = shape.int64(1)
      else { return nil }
      var statuses: [Int: UInt8] = [:]
      for row in try connection.execute(
        "SELECT idx, status FROM issuer_status_entries WHERE list_id = $1 AND status <> 0",
        [.integer(Int64(id))]
      ).rows {
        guard let index = row.int64(0), let status = row.int64(1) else { continue }
        statuses[Int(index)] = UInt8(clamping: status)
      }
      return StoredStatusList(id: id, bits: Int(bits), size: Int(size), statuses: statuses)
    }
  }

  private func credentials(where condition: String, _ values: [PostgreSQLValue])
    throws(IssuerStoreError) -> [IssuedCredentialStatus]
  {
    var records: [IssuedCredentialStatus] = []
    for row in try execute(
      "SELECT \(Self.credentialColumns) FROM issuer_status_entries WHERE \(condition) ORDER BY seq",
      values
    ).rows {
      if let record = try Self.credential(row) { records.append(record) }
    }
    return records
  }

  private static func credential(_ row: PostgreSQLRow) throws(IssuerStoreError)
    -> IssuedCredentialStatus?
  {
    guard let id = row.text(0), let configuration = row.text(1), let list = row.int64(2),
      let index = row.int64(3), let status = row.int64(4), let issued = row.double(5)
    else {
      throw IssuerStoreError(.corruptRecord, "a row of issuer_status_entries lacks a column")
    }
    return IssuedCredentialStatus(
      credentialID: id, configurationID: configuration, listID: Int(list), index: Int(index),
      status: UInt8(clamping: status), issuedAt: Date(timeIntervalSince1970: issued))
  }
}
