@_exported public import DCErrors
public import DCJSON
public import DCOpenID4VCI
public import Foundation

/// What an issuer keeps between requests, by kind. Each record lives under a key unique within
/// its kind and may expire.
public enum IssuerStateKind: String, Sendable, Hashable, CaseIterable {
  /// A pre-authorized code and its transaction code (OpenID4VCI 1.0 §4.1.1, §6.1).
  case preAuthorizedCode = "pre_authorized_code"
  /// An `issuer_state` from an authorization code offer (§4.1.1).
  case issuerState = "issuer_state"
  /// A pushed authorization request, under its `request_uri` (RFC 9126 §2.2).
  case pushedAuthorizationRequest = "par_request"
  /// An authorization request waiting for the user's consent.
  case pendingAuthorization = "pending_authorization"
  /// An authorization code with its PKCE challenge and redirect URI (RFC 6749 §4.1.2).
  case authorizationCode = "authorization_code"
  /// An access token and what it grants (RFC 6749 §5.1).
  case accessToken = "access_token"
  /// A refresh token (RFC 6749 §6).
  case refreshToken = "refresh_token"
  /// A `c_nonce` from the nonce endpoint, single use (§7).
  case cNonce = "c_nonce"
  /// A server-provided DPoP nonce (RFC 9449 §8, §9).
  case dpopNonce = "dpop_nonce"
  /// An accepted DPoP proof `jti`, kept to refuse replays (RFC 9449 §11.1).
  case dpopProofID = "dpop_jti"
  /// A client attestation PoP `jti`, kept to refuse replays.
  case clientAttestationProofID = "client_attestation_jti"
  /// A deferred issuance, under its `transaction_id` (§9).
  case deferredTransaction = "deferred_transaction"
  /// Credentials issued together, under their `notification_id` (§8.3, §11).
  case issuedCredentials = "issued_credentials"
  /// A notification received at the notification endpoint (§11).
  case notification = "notification"
  /// A credential offer served by reference at its `credential_offer_uri` (§4.1.3).
  case offer = "offer"
}

/// One stored value: a JSON object under a key of a kind, with an optional expiry.
public struct IssuerStateRecord: Sendable, Hashable {
  /// The kind of state.
  public var kind: IssuerStateKind
  /// The key, unique within the kind (a code, a token, a nonce, an id).
  public var key: String
  /// The state itself.
  public var value: JSONValue
  /// When the record stops being found; nil for never.
  public var expiresAt: Date?

  /// Creates a record.
  public init(kind: IssuerStateKind, key: String, value: JSONValue, expiresAt: Date? = nil) {
    self.kind = kind
    self.key = key
    self.value = value
    self.expiresAt = expiresAt
  }

  /// Whether the record is still valid at `now`.
  public func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}

/// An error from an issuer state store.
public typealias IssuerStoreError = DCError<IssuerStoreErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct IssuerStoreErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name, for logs.
  public var description: String { name }

  /// The store could not be opened or created.
  public static let cannotOpen = Self("cannotOpen")
  /// A read or write failed.
  public static let databaseFailure = Self("databaseFailure")
  /// A stored value could not be read back.
  public static let corruptRecord = Self("corruptRecord")
  /// No issued credential has this id (status lists).
  public static let unknownCredential = Self("unknownCredential")
  /// The status change is not allowed from the credential's status (status lists).
  public static let transitionNotAllowed = Self("transitionNotAllowed")
  /// The credential id already has a status list index.
  public static let duplicateCredential = Self("duplicateCredential")
  /// Status list settings no list may have.
  public static let invalidSettings = Self("invalidSettings")
}

/// Where an issuer keeps its state: codes, tokens, nonces, deferred transactions,
/// notifications. Every operation is atomic, so several handler calls (or several processes,
/// with the SQLite store) may share one store.
///
/// Expired records are never returned; ``purgeExpired(now:)`` deletes them. The status lists
/// (``IssuerStatusListStore``) live in the same store and never expire.
public protocol IssuerStateStore: DPoPReplayStore, IssuerStatusListStore {
  /// Stores `record` unless a live record of its kind and key exists; returns whether it was
  /// stored. An expired record under the key is replaced.
  func insertIfAbsent(_ record: IssuerStateRecord, now: Date) throws(IssuerStoreError) -> Bool
  /// Stores `record`, replacing any record of its kind and key.
  func upsert(_ record: IssuerStateRecord) throws(IssuerStoreError)
  /// The live record of `kind` under `key`, left in place.
  func find(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  /// Removes and returns the live record of `kind` under `key`, in one step: of two callers
  /// taking the same record, exactly one gets it (single-use codes and nonces).
  func take(_ kind: IssuerStateKind, _ key: String, now: Date) throws(IssuerStoreError)
    -> IssuerStateRecord?
  /// Reads the live record of `kind` under `key` (nil when there is none) and lets `change`
  /// replace it (set a record) or delete it (set nil), as one atomic step: no other caller,
  /// process or instance reads or writes that record in between (a row lock, or the write
  /// lock). For counters such as wrong `tx_code` attempts (OpenID4VCI 1.0 §13.6), never a find
  /// then an upsert. `change` may run more than once (a transaction retried after a lost race),
  /// so it only computes; returns what its last run returned.
  func update<T>(
    _ kind: IssuerStateKind, _ key: String, now: Date,
    _ change: (inout IssuerStateRecord?) -> T
  ) throws(IssuerStoreError) -> T
  /// Removes the record of `kind` under `key`, if any.
  func remove(_ kind: IssuerStateKind, _ key: String) throws(IssuerStoreError)
  /// Every live record of `kind`, oldest first.
  func records(_ kind: IssuerStateKind, now: Date) throws(IssuerStoreError) -> [IssuerStateRecord]
  /// Deletes every expired record.
  func purgeExpired(now: Date) throws(IssuerStoreError)
}

extension IssuerStateStore {
  /// DPoP `jti` replay protection (RFC 9449 §11.1) in the same store; a store failure refuses
  /// the proof.
  public func insertIfAbsent(_ key: String, expiry: Date, now: Date) -> Bool {
    let record = IssuerStateRecord(
      kind: .dpopProofID, key: key, value: .object([]), expiresAt: expiry)
    return (try? insertIfAbsent(record, now: now)) ?? false
  }
}

/// An ``IssuerStateStore`` in memory, for tests and single-process servers.
public final class InMemoryIssuerStateStore: IssuerStateStore, @unchecked Sendable {
  private struct Key: Hashable {
    let kind: IssuerStateKind
    let key: String
  }

  private let lock = NSLock()
  private var entries: [Key: (record: IssuerStateRecord, sequence: Int)] = [:]
  private var sequence = 0
  /// The status lists, behind their own lock.
  let statusLists = InMemoryStatusLists()

  /// An empty store.
  public init() {}

  public func insertIfAbsent(_ record: IssuerStateRecord, now: Date) -> Bool {
    lock.withLock {
      let key = Key(kind: record.kind, key: record.key)
      if let existing = entries[key], existing.record.isLive(at: now) { return false }
      sequence += 1
      entries[key] = (record, sequence)
      return true
    }
  }

  public func upsert(_ record: IssuerStateRecord) {
    lock.withLock {
      let key = Key(kind: record.kind, key: record.key)
      sequence += 1
      entries[key] = (record, entries[key]?.sequence ?? sequence)
    }
  }

  public func find(_ kind: IssuerStateKind, _ key: String, now: Date) -> IssuerStateRecord? {
    lock.withLock {
      guard let entry = entries[Key(kind: kind, key: key)], entry.record.isLive(at: now) else {
        return nil
      }
      return entry.record
    }
  }

  public func take(_ kind: IssuerStateKind, _ key: String, now: Date) -> IssuerStateRecord? {
    lock.withLock {
      guard let entry = entries.removeValue(forKey: Key(kind: kind, key: key)),
        entry.record.isLive(at: now)
      else { return nil }
      return entry.record
    }
  }

  public func update<T>(
    _ kind: IssuerStateKind, _ key: String, now: Date,
    _ change: (inout IssuerStateRecord?) -> T
  ) -> T {
    lock.withLock {
      let slot = Key(kind: kind, key: key)
      let entry = entries[slot]
      var record = entry.flatMap { $0.record.isLive(at: now) ? $0.record : nil }
      let result = change(&record)
      if var record {
        record.kind = kind
        record.key = key
        sequence += 1
        entries[slot] = (record, entry?.sequence ?? sequence)
      } else {
        entries[slot] = nil
      }
      return result
    }
  }

  public func remove(_ kind: IssuerStateKind, _ key: String) {
    lock.withLock { _ = entries.removeValue(forKey: Key(kind: kind, key: key)) }
  }

  public func records(_ kind: IssuerStateKind, now: Date) -> [IssuerStateRecord] {
    lock.withLock {
      entries.values.filter { $0.record.kind == kind && $0.record.isLive(at: now) }
        .sorted { $0.sequence < $1.sequence }.map(\.record)
    }
  }

  public func purgeExpired(now: Date) {
    lock.withLock { entries = entries.filter { $0.value.record.isLive(at: now) } }
  }
}
