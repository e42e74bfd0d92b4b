/// A stored row that could not be used, and why: returned beside the good rows, so that one
/// damaged row does not hide the others.
public struct StoreProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which row.
  public enum Record: Sendable, Hashable {
    /// A row of `credentials`.
    case credential(id: String)
    /// A row of `trust_anchors`.
    case trustAnchor(id: String)
    /// A row of `settings`.
    case setting(key: String)
    /// A row of `activity`.
    case activity(id: Int64)
    /// A row of `deferred_issuances` (a pending OpenID4VCI deferred issuance).
    case deferredIssuance(id: String)
    /// A row of `trusted_lists` (issue 29).
    case trustedList(id: String)
  }

  /// The row.
  public let record: Record
  /// Why it was not used: `.corruptRecord` (it cannot be read) or `.unauthenticatedRecord` (a
  /// security setting whose authentication tag is missing or wrong).
  public let error: WalletStoreError

  /// Creates a problem report.
  package init(record: Record, error: WalletStoreError) {
    self.record = record
    self.error = error
  }

  /// `<record>: <reason>`.
  public var description: String { "\(record): \(error.reason)" }
}

/// The readable credentials and a report for each row that is not.
package struct CredentialListing: Sendable, Hashable {
  /// The credentials that could be read, in creation order.
  package let credentials: [StoredCredential]
  /// One entry per row that could not be read.
  package let problems: [StoreProblem]

  /// Creates a listing.
  package init(credentials: [StoredCredential], problems: [StoreProblem]) {
    self.credentials = credentials
    self.problems = problems
  }

  init(_ rows: [CredentialRow]) {
    var credentials: [StoredCredential] = []
    var problems: [StoreProblem] = []
    for row in rows {
      switch row {
      case .success(let credential):
        credentials.append(credential)
        // Issue 32: listed, downgraded, and reported.
        if !credential.unauthenticated.isEmpty {
          problems.append(
            StoreProblem(
              record: .credential(id: credential.id),
              error: WalletStoreError(
                .unauthenticatedRecord, Self.reason(credential.unauthenticated))))
        }
      case .failure(let problem): problems.append(problem)
      }
    }
    self.init(credentials: credentials, problems: problems)
  }
}

extension CredentialListing {
  static func reason(_ columns: UnauthenticatedColumns) -> String {
    var parts: [String] = []
    if columns.contains(.record) {
      parts.append("its trust level and issuance record are not authenticated (read as unverified)")
    }
    if columns.contains(.status) {
      parts.append("its status is not authenticated (read as unknown)")
    }
    return parts.joined(separator: "; ")
  }
}

/// A row of `credentials`, decoded or with why it cannot be.
typealias CredentialRow = Result<StoredCredential, StoreProblem>

/// A setting as stored: its value and the tag that authenticates it, if any.
package struct SettingRecord: Sendable, Hashable {
  /// The setting's name.
  package let key: String
  /// Its value.
  package let value: String
  /// HMAC-SHA256 over the row (see `SettingsAuthentication`); nil when written without one.
  package let authenticationTag: [UInt8]?

  /// Creates a setting record.
  package init(key: String, value: String, authenticationTag: [UInt8]? = nil) {
    self.key = key
    self.value = value
    self.authenticationTag = authenticationTag
  }
}

/// The activity entries that can be read and a report for each that cannot.
package struct ActivityListing: Sendable, Hashable {
  /// Readable entries, newest first.
  package let records: [ActivityRecord]
  /// One entry per row that could not be read.
  package let problems: [StoreProblem]
}
