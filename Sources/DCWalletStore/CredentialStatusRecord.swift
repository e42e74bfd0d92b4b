import DCStore
public import Foundation

/// A credential's status as the wallet last learned it from its issuer's Token Status List
/// (draft-ietf-oauth-status-list), kept with the credential so that it can be shown and acted on
/// without fetching anything.
public struct CredentialStatusRecord: Sendable, Hashable {
  /// What the check found.
  public let outcome: CredentialStatusOutcome
  /// When the wallet checked.
  public let checkedAt: Date
  /// Until when the status list token the outcome was read from may be relied on without
  /// fetching it again: its `exp`, or `iat` + `ttl` when that comes first
  /// (draft-ietf-oauth-status-list §5.1, §13.7). Nil when nothing bounds it or the status is
  /// unknown (an unknown status is never fresh).
  public let freshUntil: Date?

  /// Creates a record. Dates keep millisecond precision, the precision stored.
  package init(outcome: CredentialStatusOutcome, checkedAt: Date, freshUntil: Date? = nil) {
    self.outcome = outcome
    self.checkedAt = StoreTime.normalized(checkedAt)
    self.freshUntil = freshUntil.map(StoreTime.normalized)
  }

  /// Whether the record may be used at `now` instead of fetching the list again: an outcome
  /// read from a list whose freshness bound has not passed. An unknown outcome is never fresh.
  package func isFresh(at now: Date) -> Bool {
    if case .unknown = outcome { return false }
    guard let freshUntil else { return false }
    return now < freshUntil
  }
}

/// What a status check found for one credential: the three outcomes of
/// draft-ietf-oauth-status-list §7 as the holder needs them. A failure to learn the status (the
/// list cannot be fetched, does not verify, does not cover the index) is `unknown`, never
/// `invalid`.
public enum CredentialStatusOutcome: Sendable, Hashable {
  /// Status VALID (0x00).
  case valid
  /// Status INVALID (0x01): revoked for good.
  case invalid
  /// Status SUSPENDED (0x02): not valid for now.
  case suspended
  /// An application-specific status value (0x03 and above; §7.1), kept as the number.
  case applicationSpecific(UInt8)
  /// The status could not be determined; see the reason.
  case unknown(CredentialStatusUnknownReason)

  /// The outcome of a status value read from a list (§7.1).
  package init(statusValue: UInt8) {
    switch statusValue {
    case 0: self = .valid
    case 1: self = .invalid
    case 2: self = .suspended
    default: self = .applicationSpecific(statusValue)
    }
  }

  /// The status value read from the list; nil when the status is unknown.
  public var statusValue: UInt8? {
    switch self {
    case .valid: 0
    case .invalid: 1
    case .suspended: 2
    case .applicationSpecific(let value): value
    case .unknown: nil
    }
  }

  /// Whether the default policy refuses to present a credential with this status: invalid or
  /// suspended (see ``WalletPolicy/presentsInvalidOrSuspendedCredentials``).
  package var refusesPresentation: Bool {
    switch self {
    case .invalid, .suspended: true
    case .valid, .applicationSpecific, .unknown: false
    }
  }
}

/// Why a credential's status is unknown: a typed code and a diagnostic (which may quote a URL or
/// a lower layer's error; a UI words the code itself).
public struct CredentialStatusUnknownReason: Sendable, Hashable {
  /// The kind of reason; extensible.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The stable identifier, as stored and as `dcwallet status --json` prints it.
    public let rawValue: String
    /// A code with an identifier (for codes read back from the store).
    package init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The credential references no status list, so there is nothing to check.
    public static let notReferenced = Code(rawValue: "not_referenced")
    /// The credential's status reference uses another mechanism (an ISO 18013-5
    /// `identifier_list`), which the wallet does not check.
    public static let unsupported = Code(rawValue: "unsupported")
    /// The list could not be fetched (network, HTTP status).
    public static let unreachable = Code(rawValue: "unreachable")
    /// The list's `uri` is not https (plain http only to a loopback host) or not a URL.
    package static let urlNotAllowed = Code(rawValue: "url_not_allowed")
    /// The token's signature does not verify.
    package static let badSignature = Code(rawValue: "bad_signature")
    /// The token's certificate chain does not reach the issuer's trust anchors, or the
    /// credential's own issuer is not established under an anchor.
    public static let untrusted = Code(rawValue: "untrusted")
    /// The token is signed under another anchor than the credential's own issuer
    /// (draft-ietf-oauth-status-list, "Key Resolution and Trust Management").
    package static let issuerMismatch = Code(rawValue: "issuer_mismatch")
    /// The token's `sub` is not the URI the credential references.
    package static let subjectMismatch = Code(rawValue: "sub_mismatch")
    /// The token has expired.
    package static let expired = Code(rawValue: "expired")
    /// The credential's index is beyond the end of the list.
    package static let indexOutOfRange = Code(rawValue: "index_out_of_range")
    /// The list is larger than the wallet accepts (compressed or decompressed).
    package static let tooLarge = Code(rawValue: "too_large")
    /// The token, or the credential's `status` claim, cannot be parsed.
    package static let malformed = Code(rawValue: "malformed")
    /// The stored credential itself cannot be read.
    package static let unreadableCredential = Code(rawValue: "unreadable_credential")
    /// The stored status does not carry the wallet's authentication tag (changed by someone
    /// without the key-encryption key, or written before tags existed): it is not used.
    public static let unauthenticated = Code(rawValue: "unauthenticated")
  }

  /// The kind of reason.
  public let code: Code
  /// A diagnostic for logs and `--json`.
  public let detail: String

  /// Creates a reason.
  package init(_ code: Code, detail: String = "") {
    self.code = code
    self.detail = detail
  }
}

/// The stored form of a status: the `status_*` columns of `credentials` (schema version 6).
enum StoredStatusColumns {
  /// The values for outcome, value, reason, detail, checked-at and fresh-until, in that order.
  static func values(_ record: CredentialStatusRecord?) -> [SQLValue] {
    guard let record else { return Array(repeating: .null, count: 6) }
    let outcome: String
    var reason = SQLValue.null
    var detail = SQLValue.null
    switch record.outcome {
    case .valid: outcome = "valid"
    case .invalid: outcome = "invalid"
    case .suspended: outcome = "suspended"
    case .applicationSpecific: outcome = "other"
    case .unknown(let why):
      outcome = "unknown"
      reason = .text(why.code.rawValue)
      detail = .text(why.detail)
    }
    return [
      .text(outcome), record.outcome.statusValue.map { .integer(Int64($0)) } ?? .null, reason,
      detail, .integer(StoreTime.milliseconds(record.checkedAt)),
      record.freshUntil.map { .integer(StoreTime.milliseconds($0)) } ?? .null,
    ]
  }

  /// The record read from a row whose status columns start at `first`; nil when never checked.
  static func record(_ row: WalletStatement, first: Int32, id: String) throws(WalletStoreError)
    -> CredentialStatusRecord?
  {
    guard let outcomeText = row.text(first) else { return nil }
    let value = row.optionalInt64(first + 1)
    func statusValue() throws(WalletStoreError) -> UInt8 {
      guard let value, let byte = UInt8(exactly: value) else {
        throw WalletStoreError(
          .corruptRecord, "credential \(id) has a status without a valid status value")
      }
      return byte
    }
    let outcome: CredentialStatusOutcome
    switch outcomeText {
    case "valid", "invalid", "suspended", "other":
      outcome = CredentialStatusOutcome(statusValue: try statusValue())
      guard outcomeText == Self.name(outcome) else {
        throw WalletStoreError(
          .corruptRecord, "credential \(id) has status \(outcomeText) with value \(value ?? -1)")
      }
    case "unknown":
      outcome = .unknown(
        CredentialStatusUnknownReason(
          CredentialStatusUnknownReason.Code(rawValue: row.text(first + 2) ?? "unknown"),
          detail: row.text(first + 3) ?? ""))
    default:
      throw WalletStoreError(
        .corruptRecord, "credential \(id) has an unknown status \(outcomeText)")
    }
    guard let checked = row.optionalInt64(first + 4) else {
      throw WalletStoreError(.corruptRecord, "credential \(id) has a status without a check time")
    }
    return CredentialStatusRecord(
      outcome: outcome, checkedAt: StoreTime.date(milliseconds: checked),
      freshUntil: row.optionalInt64(first + 5).map { StoreTime.date(milliseconds: $0) })
  }

  private static func name(_ outcome: CredentialStatusOutcome) -> String {
    switch outcome {
    case .valid: "valid"
    case .invalid: "invalid"
    case .suspended: "suspended"
    case .applicationSpecific: "other"
    case .unknown: "unknown"
    }
  }
}

extension WalletConnection {
  /// Records a credential's last known status; false when no credential has this id.
  func setCredentialStatus(_ record: CredentialStatusRecord?, id: String)
    throws(WalletStoreError) -> Bool
  {
    let values = StoredStatusColumns.values(record)
    let columns = """
      status_outcome = ?, status_value = ?, status_reason = ?, status_detail = ?,
      status_checked_at_ms = ?, status_fresh_until_ms = ?
      """
    if let authentication = credentialAuthentication {
      try run(
        "UPDATE credentials SET \(columns), status_authentication_tag = ? WHERE id = ?",
        values + [.blob(authentication.statusTag(id: id, values)), .text(id)])
    } else {
      // Without the key the status is written untagged: a wallet reads it as unknown.
      try run("UPDATE credentials SET \(columns) WHERE id = ?", values + [.text(id)])
    }
    return changes > 0
  }
}
