public import DCCrypto
import DCOpenID4VCI
public import DCStatusList
public import Foundation

/// How an issuer gives its credentials a place in an IETF Token Status List
/// (draft-ietf-oauth-status-list, "Status List"; issue 15).
///
/// Each list has a fixed number of bits per entry and a fixed size; an issued credential gets a
/// random unused index in the newest list of these settings that still has room, and a new list
/// is opened when it is full. An index is never given twice and never freed.
public struct StatusListSettings: Sendable, Hashable {
  /// Bits per entry: 1 or 2. One bit holds VALID (0x00) and INVALID (0x01) only; SUSPENDED
  /// (0x02) needs two (draft "Status List", the 2-bit example: "As the Status Type value for
  /// SUSPENDED is 0x02 and does not fit into 1 bit, the `bits` is required to be 2").
  public var bits: Int
  /// Entries per list, a multiple of 8 (draft "Status List Size": "RECOMMENDED that the size of
  /// a Status List in bits is divisible in bytes"). A larger list gives more herd privacy
  /// ("Observability of Issuers") at the price of a larger token.
  public var size: Int
  /// `ttl` of the published tokens, in seconds (draft "Status List Update Interval and Caching").
  package var timeToLive: Int
  /// How long a published token is valid (`exp` − `iat`), in seconds.
  package var tokenLifetime: TimeInterval

  /// Two bits (suspension possible), 16,384 entries (4 KiB before compression), a `ttl` of five
  /// minutes and tokens valid for a day by default.
  public init(
    bits: Int = 2, size: Int = 16_384, timeToLive: Int = 300, tokenLifetime: TimeInterval = 86_400
  ) {
    self.bits = bits
    self.size = size
    self.timeToLive = timeToLive
    self.tokenLifetime = tokenLifetime
  }

  /// Refuses settings no list may have: bits other than 1 or 2, a size that is not a positive
  /// multiple of 8 or above 2^24 entries, a `ttl` or lifetime that is not positive.
  package func validate() throws(IssuerStoreError) {
    guard bits == 1 || bits == 2 else {
      throw IssuerStoreError(
        .invalidSettings, "a status list has 1 or 2 bits per entry, not \(bits)")
    }
    guard size > 0, size % 8 == 0, size <= 1 << 24 else {
      throw IssuerStoreError(
        .invalidSettings, "a status list's size must be a multiple of 8 from 8 to 16777216")
    }
    guard timeToLive > 0, tokenLifetime > 0 else {
      throw IssuerStoreError(
        .invalidSettings, "a status list token's ttl and lifetime must be positive")
    }
  }
}

/// The status values the issuer sets (draft "Status Types Values").
package enum IssuerStatusValue {
  /// 0x00 "VALID"; also the value of every unused index (draft "Default Values and Double
  /// Allocation": an unused index cannot be told from a valid token).
  package static let valid: UInt8 = 0x00
  /// 0x01 "INVALID": revoked.
  package static let invalid: UInt8 = 0x01
  /// 0x02 "SUSPENDED": temporarily invalid.
  package static let suspended: UInt8 = 0x02
}

/// What `revoke`, `suspend` and `reinstate` do to a credential's status.
///
/// INVALID is final here: the draft defines it as "revoked, annulled, taken back, recalled or
/// cancelled" and SUSPENDED as the status that "is usually temporary"; it does not forbid going
/// back, but a relying party that refused a revoked credential must be able to trust that
/// refusal, and the draft's advice for a temporary state is SUSPENDED ("Status Types" privacy
/// considerations: "revocation and re-issuance"). So reinstate undoes a suspension only; asking
/// for the status a credential already has changes nothing and is not an error.
public enum CredentialStatusChange: String, Sendable, Hashable, CaseIterable {
  /// To INVALID (0x01), from VALID or SUSPENDED.
  case revoke
  /// To SUSPENDED (0x02), from VALID; needs a list of 2 bits.
  case suspend
  /// To VALID (0x00), from SUSPENDED.
  case reinstate

  /// The status after this change from `current` in a list of `bits` bits per entry.
  package func apply(to current: UInt8, bits: Int) throws(IssuerStoreError) -> UInt8 {
    switch self {
    case .revoke:
      return IssuerStatusValue.invalid
    case .suspend:
      guard bits >= 2 else {
        throw IssuerStoreError(
          .transitionNotAllowed,
          "the credential's status list has 1 bit per entry: SUSPENDED (0x02) does not fit")
      }
      guard current != IssuerStatusValue.invalid else {
        throw IssuerStoreError(.transitionNotAllowed, "a revoked credential cannot be suspended")
      }
      return IssuerStatusValue.suspended
    case .reinstate:
      guard current != IssuerStatusValue.invalid else {
        throw IssuerStoreError(
          .transitionNotAllowed, "a revoked credential cannot be reinstated (INVALID is final)")
      }
      return IssuerStatusValue.valid
    }
  }
}

/// An issued credential's place in a status list and its current status.
public struct IssuedCredentialStatus: Sendable, Hashable {
  /// The issuer's id for the credential (what `dcwallet issuer revoke` takes).
  public var credentialID: String
  /// The credential configuration it was issued under.
  public var configurationID: String
  /// The status list's id (the last path segment of its URL).
  public var listID: Int
  /// The credential's index in the list (`idx`).
  public var index: Int
  /// The current status value: 0x00 VALID, 0x01 INVALID (revoked) or 0x02 SUSPENDED (draft
  /// "Status Types Values").
  public var status: UInt8
  /// When the index was assigned.
  package var issuedAt: Date

  /// The current status as the StatusList module's value.
  public var statusValue: Status { Status(rawValue: status) }

  /// Creates a record.
  package init(
    credentialID: String, configurationID: String, listID: Int, index: Int, status: UInt8,
    issuedAt: Date
  ) {
    self.credentialID = credentialID
    self.configurationID = configurationID
    self.listID = listID
    self.index = index
    self.status = status
    self.issuedAt = issuedAt
  }
}

/// A status list as stored: its shape and every entry that is not VALID.
public struct StoredStatusList: Sendable, Hashable {
  /// The list's id.
  public var id: Int
  /// Bits per entry.
  package var bits: Int
  /// Number of entries.
  package var size: Int
  /// The entries whose status is not VALID (0x00), by index.
  package var statuses: [Int: UInt8]

  /// Creates a list.
  package init(id: Int, bits: Int, size: Int, statuses: [Int: UInt8]) {
    self.id = id
    self.bits = bits
    self.size = size
    self.statuses = statuses
  }

  /// Every entry's status, index 0 first (VALID where nothing is stored).
  package var values: [UInt8] {
    var values = [UInt8](repeating: IssuerStatusValue.valid, count: size)
    for (index, status) in statuses where index >= 0 && index < size { values[index] = status }
    return values
  }
}

/// Where an issuer keeps its status lists and which credential holds which index. Every
/// operation is atomic (with the SQLite store, across processes too): an index is assigned to
/// exactly one credential, and a status change either happens whole or not at all.
public protocol IssuerStatusListStore: Sendable {
  /// Assigns `credentialID` a random unused index in the newest list of `settings` that has
  /// room, opening a new list when none has; the status is VALID.
  ///
  /// Throws ``IssuerStoreErrorCode/duplicateCredential`` when the id already has
  /// an index (nothing is changed then).
  func assignStatusIndex(
    credentialID: String, configurationID: String, settings: StatusListSettings, now: Date,
    random: any RandomSource
  ) throws(IssuerStoreError) -> IssuedCredentialStatus
  /// Applies `change` to the credential's status and returns the record after it.
  ///
  /// Throws ``IssuerStoreErrorCode/unknownCredential`` or
  /// ``IssuerStoreErrorCode/transitionNotAllowed``.
  func changeStatus(credentialID: String, _ change: CredentialStatusChange)
    throws(IssuerStoreError) -> IssuedCredentialStatus
  /// The credential's record, nil when the id is unknown.
  func issuedCredentialStatus(credentialID: String) throws(IssuerStoreError)
    -> IssuedCredentialStatus?
  /// Every credential with an index, in the order they were issued.
  func issuedCredentialStatuses() throws(IssuerStoreError) -> [IssuedCredentialStatus]
  /// The list `id`, nil when there is none.
  func statusList(id: Int) throws(IssuerStoreError) -> StoredStatusList?
}

/// How an index is chosen in a list (shared by the stores, so they choose alike).
///
/// Random rather than sequential: the draft recommends "non-sequential, pseudo-random or random
/// indices" ("Observability of Outsiders", "Unlinkability"), so that an index tells nobody how
/// many credentials were issued before it or which credentials were issued together.
package enum StatusIndexChooser {
  /// Random probes before the chooser lists the used indices.
  static let probes = 16

  /// A uniformly random unused index below `size`, given how many are `used`; nil when the list
  /// is full. Tries random indices first, then picks uniformly among the free ones.
  package static func choose(
    size: Int, used: Int, random: any RandomSource,
    isUsed: (Int) throws(IssuerStoreError) -> Bool,
    usedIndices: () throws(IssuerStoreError) -> Set<Int>
  ) throws(IssuerStoreError) -> Int? {
    guard used < size, size > 0 else { return nil }
    for _ in 0..<probes {
      let candidate = uniform(below: size, random: random)
      if try !isUsed(candidate) { return candidate }
    }
    let taken = try usedIndices()
    let free = (0..<size).filter { !taken.contains($0) }
    guard !free.isEmpty else { return nil }
    return free[uniform(below: free.count, random: random)]
  }

  /// A uniform integer in `0..<bound` by rejection sampling over 64-bit values.
  package static func uniform(below bound: Int, random: any RandomSource) -> Int {
    precondition(bound > 0)
    let range = UInt64(bound)
    let limit = UInt64.max - UInt64.max % range
    // A broken source that keeps answering above the limit ends in the plain remainder.
    var value = UInt64.max
    for _ in 0..<64 {
      value = random.bytes(count: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      if value < limit { break }
    }
    return Int(value % range)
  }
}

extension InMemoryIssuerStateStore {
  public func assignStatusIndex(
    credentialID: String, configurationID: String, settings: StatusListSettings, now: Date,
    random: any RandomSource
  ) throws(IssuerStoreError) -> IssuedCredentialStatus {
    try statusLists.assign(
      credentialID: credentialID, configurationID: configurationID, settings: settings, now: now,
      random: random)
  }

  public func changeStatus(credentialID: String, _ change: CredentialStatusChange)
    throws(IssuerStoreError) -> IssuedCredentialStatus
  {
    try statusLists.change(credentialID: credentialID, change)
  }

  public func issuedCredentialStatus(credentialID: String) -> IssuedCredentialStatus? {
    statusLists.credential(credentialID)
  }

  public func issuedCredentialStatuses() -> [IssuedCredentialStatus] { statusLists.all() }

  public func statusList(id: Int) -> StoredStatusList? { statusLists.list(id) }
}

/// The status lists of ``InMemoryIssuerStateStore``.
final class InMemoryStatusLists: @unchecked Sendable {
  private struct List {
    var bits: Int
    var size: Int
    var used: Set<Int> = []
  }

  private let lock = NSLock()
  private var lists: [Int: List] = [:]
  private var credentials: [String: IssuedCredentialStatus] = [:]
  private var order: [String] = []

  func assign(
    credentialID: String, configurationID: String, settings: StatusListSettings, now: Date,
    random: any RandomSource
  ) throws(IssuerStoreError) -> IssuedCredentialStatus {
    try settings.validate()
    lock.lock()
    defer { lock.unlock() }
    guard credentials[credentialID] == nil else {
      throw IssuerStoreError(
        .duplicateCredential, "credential \(credentialID) already has a status list index")
    }
    var listID =
      lists.filter { $0.value.bits == settings.bits && $0.value.size == settings.size }
      .keys.max()
    if let id = listID, let list = lists[id], list.used.count >= list.size { listID = nil }
    let id = listID ?? ((lists.keys.max() ?? 0) + 1)
    var list = lists[id] ?? List(bits: settings.bits, size: settings.size)
    let used = list.used
    guard
      let index = try StatusIndexChooser.choose(
        size: list.size, used: used.count, random: random, isUsed: { used.contains($0) },
        usedIndices: { used })
    else { throw IssuerStoreError(.databaseFailure, "status list \(id) has no free index") }
    list.used.insert(index)
    lists[id] = list
    let record = IssuedCredentialStatus(
      credentialID: credentialID, configurationID: configurationID, listID: id, index: index,
      status: IssuerStatusValue.valid, issuedAt: now)
    credentials[credentialID] = record
    order.append(credentialID)
    return record
  }

  func change(credentialID: String, _ change: CredentialStatusChange) throws(IssuerStoreError)
    -> IssuedCredentialStatus
  {
    lock.lock()
    defer { lock.unlock() }
    guard var record = credentials[credentialID], let list = lists[record.listID] else {
      throw IssuerStoreError(.unknownCredential, "no issued credential \(credentialID)")
    }
    record.status = try change.apply(to: record.status, bits: list.bits)
    credentials[credentialID] = record
    return record
  }

  func credential(_ id: String) -> IssuedCredentialStatus? { lock.withLock { credentials[id] } }

  func all() -> [IssuedCredentialStatus] { lock.withLock { order.compactMap { credentials[$0] } } }

  func list(_ id: Int) -> StoredStatusList? {
    lock.withLock {
      guard let list = lists[id] else { return nil }
      var statuses: [Int: UInt8] = [:]
      for record in credentials.values
      where record.listID == id && record.status != IssuerStatusValue.valid {
        statuses[record.index] = record.status
      }
      return StoredStatusList(id: id, bits: list.bits, size: list.size, statuses: statuses)
    }
  }
}
