public import DCTrust
package import DCX509
public import Foundation

/// A trusted list the wallet keeps: its row and the list, verified when it was imported.
public struct StoredTrustedList: Sendable, Hashable {
  /// The list's identifier in this wallet.
  public let id: String
  /// Where the list is fetched from by ``Wallet/refreshTrustedLists(httpClient:urlPolicy:)``;
  /// nil for a list imported from a file.
  public let location: URL?
  /// When the list was imported or last refreshed.
  public let importedAt: Date
  /// The verified list.
  public let list: TrustedList
}

/// The trusted lists that may be used, and a problem for each row that may not.
public struct TrustedListListing: Sendable, Hashable {
  /// Lists whose row is authenticated and readable.
  public let lists: [StoredTrustedList]
  /// Rows that are never used: `.unauthenticatedRecord` (written without the wallet's key) or
  /// `.corruptRecord`.
  public let problems: [StoreProblem]
}

/// Which trusted lists the wallet consults: kinds turned off, and whether a list past its next
/// update is still used. Stored as an authenticated setting.
public struct TrustedListPolicy: Sendable, Hashable {
  /// List kinds that are not consulted.
  public var disabledKinds: Set<TrustedListKind>
  /// Whether a stale list is used (by default it is reported and not used).
  public var staleLists: StaleListPolicy

  /// Creates a policy; the default consults every kind and refuses stale lists.
  public init(disabledKinds: Set<TrustedListKind> = [], staleLists: StaleListPolicy = .refuse) {
    self.disabledKinds = disabledKinds
    self.staleLists = staleLists
  }

  /// What applies when the stored setting is refused: no list is consulted.
  static let strictest = TrustedListPolicy(
    disabledKinds: Set(TrustedListKind.allCases), staleLists: .refuse)

  static let settingKey = "trust.lists.policy"

  /// `stale=refuse|accept;disabled=KIND,KIND`.
  var settingValue: String {
    let disabled = TrustedListKind.allCases.filter(disabledKinds.contains).map(\.rawValue)
    return "stale=\(staleLists == .accept ? "accept" : "refuse");disabled="
      + disabled.joined(separator: ",")
  }

  init?(settingValue: String) {
    let parts = settingValue.split(separator: ";", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0] == "stale=accept" || parts[0] == "stale=refuse",
      parts[1].hasPrefix("disabled=")
    else { return nil }
    var kinds = Set<TrustedListKind>()
    for name in parts[1].dropFirst("disabled=".count).split(separator: ",") {
      guard let kind = TrustedListKind(rawValue: String(name)) else { return nil }
      kinds.insert(kind)
    }
    self.init(disabledKinds: kinds, staleLists: parts[0] == "stale=accept" ? .accept : .refuse)
  }
}

/// What refreshing one list did.
public enum TrustedListRefresh: Sendable {
  /// The list was fetched, verified and stored in place of the old one.
  case refreshed(StoredTrustedList)
  /// The new list could not be fetched or did not verify: the old one is kept, with why.
  case kept(StoredTrustedList, failure: WalletError)
  /// The list was imported from a file: there is nothing to fetch.
  case notRefreshable(StoredTrustedList)
}

/// Verifies a published list against its operator's certificates (`TrustedList.verifying`).
package typealias TrustedListVerifier =
  @Sendable (_ bytes: [UInt8], _ kind: TrustedListKind, _ operatorCertificates: [Certificate])
  throws(TrustError) -> TrustedList

extension TrustRole {
  /// What a chain to an anchor of this role is trusted for.
  package var purpose: TrustPurpose {
    switch self {
    case .issuer: .credentialIssuer
    case .reader: .reader
    case .verifier: .verifier
    }
  }
}
