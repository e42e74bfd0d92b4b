public import DCHTTP
public import DCTrust
public import DCX509
public import Foundation

// Issue 29: the wallet's trust decisions come from its anchors and the trusted lists it
// imported, each list verified against its operator's certificates before it is stored, and
// stored in a row the wallet's key authenticates (as anchors are).
extension Wallet {
  // MARK: - Importing lists

  /// Verifies a published trusted list against its operator's certificates and keeps it: from
  /// then on, the entries whose service serves a purpose (issuers, readers, verifiers) are
  /// trusted for it, as an anchor would be, and decisions name the list and entry.
  ///
  /// - Parameters:
  ///   - bytes: the list as published (LoTE JSON, TSL XML, VICAL COSE).
  ///   - kind: the list's kind.
  ///   - operatorCertificates: the certificates the operator signs the list with, obtained out of
  ///     band (the Official Journal for the EU LOTL, a scheme's publication).
  ///   - location: where the list is published, for ``refreshTrustedLists(httpClient:urlPolicy:)``.
  /// - Throws: `WalletError` `.importRejected` when the list does not verify (its cause is the
  ///   `TrustError`), `.storage` when it cannot be stored.
  @discardableResult
  public func importTrustedList(
    _ bytes: [UInt8], kind: TrustedListKind, operatorCertificates: [Certificate],
    location: URL? = nil
  ) async throws(WalletError) -> StoredTrustedList {
    let list = try Self.verifiedList(
      bytes, kind: kind, operatorCertificates: operatorCertificates, verifier: listVerifier)
    return try await addTrustedList(
      list, bytes: bytes, operatorCertificates: operatorCertificates, location: location)
  }

  /// Stores a list its parser verified; the row is authenticated with the settings key.
  package func addTrustedList(
    _ list: TrustedList, bytes: [UInt8], operatorCertificates: [Certificate], location: URL?,
    id: String? = nil
  ) async throws(WalletError) -> StoredTrustedList {
    let record = TrustedListRecord(
      id: id ?? UUID().uuidString.lowercased(), kind: list.kind.rawValue,
      location: location?.absoluteString, listBytes: bytes,
      operatorCertificates: operatorCertificates.map(\.derBytes), verifiedForm: list.storedForm,
      importedAt: clock())
    let tagged = record.tagged(settingsAuthentication.tag(for: record))
    do {
      if id == nil {
        try await store.addTrustedList(tagged)
      } else {
        try await store.replaceTrustedList(tagged)
      }
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    return StoredTrustedList(
      id: record.id, location: location, importedAt: record.importedAt, list: list)
  }

  /// `TrustedList.verifying` at the wallet's clock (a VICAL's or RICAL's signer must be valid
  /// now).
  private var listVerifier: TrustedListVerifier {
    let now = clock()
    return { bytes, kind, operatorCertificates throws(TrustError) in
      try TrustedList.verifying(
        bytes, kind: kind, operatorCertificates: operatorCertificates, at: now)
    }
  }

  static func verifiedList(
    _ bytes: [UInt8], kind: TrustedListKind, operatorCertificates: [Certificate],
    verifier: TrustedListVerifier
  ) throws(WalletError) -> TrustedList {
    do {
      return try verifier(bytes, kind, operatorCertificates)
    } catch {
      throw WalletError(
        .importRejected, "the \(kind.rawValue) list does not verify: \(error.reason)",
        underlying: error)
    }
  }

  // MARK: - Reading lists

  /// The stored lists that may be used, and a problem for each row that may not: a row whose
  /// authentication tag is missing or wrong (written without the wallet's key) is never used.
  public func trustedListListing() async throws(WalletError) -> TrustedListListing {
    let rows: [Result<TrustedListRecord, StoreProblem>]
    do {
      rows = try await store.trustedLists()
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    var lists: [StoredTrustedList] = []
    var problems: [StoreProblem] = []
    var seen: [[UInt8]: TrustedList] = [:]
    for row in rows {
      switch row.flatMap(usableTrustedList) {
      case .success(let (list, tag)):
        lists.append(list)
        seen[tag] = list.list
      case .failure(let problem): problems.append(problem)
      }
    }
    trustedListMemo.keepOnly(seen)
    return TrustedListListing(lists: lists, problems: problems)
  }

  /// The row's list and its verified tag. Every call reads the rows and checks each tag (so a
  /// change by another process or connection, or a row changed without the key, is seen at
  /// once); only decoding the verified model is skipped for a tag already decoded: the tag is
  /// an HMAC over every column, so the same verified tag is the same row content.
  private func usableTrustedList(_ record: TrustedListRecord)
    -> Result<(StoredTrustedList, tag: [UInt8]), StoreProblem>
  {
    guard settingsAuthentication.verifies(record), let tag = record.authenticationTag else {
      let why =
        record.authenticationTag == nil
        ? "has no authentication tag (written directly to the database); import it again"
        : "does not match its authentication tag: it was changed without the wallet's key"
      return .failure(
        StoreProblem(
          record: .trustedList(id: record.id),
          error: WalletStoreError(.unauthenticatedRecord, "trusted list \(record.id) \(why)")))
    }
    let list: TrustedList
    if let kept = trustedListMemo.list(tag: tag) {
      list = kept
    } else {
      do {
        list = trustedListMemo.decoded(try TrustedList(storedForm: record.verifiedForm), tag: tag)
      } catch {
        return .failure(
          StoreProblem(
            record: .trustedList(id: record.id),
            error: WalletStoreError(
              .corruptRecord, "trusted list \(record.id) cannot be read: \(error.reason)")))
      }
    }
    return .success(
      (
        StoredTrustedList(
          id: record.id, location: record.location.flatMap(URL.init(string:)),
          importedAt: record.importedAt, list: list), tag
      ))
  }

  /// Removes a stored list.
  ///
  /// - Throws: `.notFound` when no list has this id, `.storage` when the store cannot be written.
  public func removeTrustedList(id: String) async throws(WalletError) {
    let removed: Bool
    do {
      removed = try await store.removeTrustedList(id: id)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard removed else { throw WalletError(.notFound, "no trusted list \(id)") }
  }

  // MARK: - Refreshing lists

  /// Fetches each list imported from a URL again, verifies it against the operator
  /// certificates it was imported with, and stores it in place of the old one. A list that
  /// cannot be fetched or does not verify leaves the old one in place, with the reason.
  ///
  /// - Parameters:
  ///   - httpClient: fetches the lists (`URLSessionHTTPClient` in an app).
  ///   - urlPolicy: which locations are fetched: https only by default; plain http to a
  ///     loopback host only under `.development` (the status lists' policy).
  public func refreshTrustedLists(
    httpClient: any HTTPClient, urlPolicy: HTTPURLPolicy = .standard
  ) async throws(WalletError) -> [TrustedListRefresh] {
    try await refreshTrustedLists(
      httpClient: httpClient, urlPolicy: urlPolicy, verifier: listVerifier)
  }

  /// As the public refresh, with the list verifier injected (tests pass lists their own
  /// builders made).
  package func refreshTrustedLists(
    httpClient: any HTTPClient, urlPolicy: HTTPURLPolicy, verifier: TrustedListVerifier
  ) async throws(WalletError) -> [TrustedListRefresh] {
    let rows: [Result<TrustedListRecord, StoreProblem>]
    do {
      rows = try await store.trustedLists()
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    var outcomes: [TrustedListRefresh] = []
    for case .success(let record) in rows {
      guard case .success(let (stored, _)) = usableTrustedList(record) else { continue }
      guard let location = stored.location else {
        outcomes.append(.notRefreshable(stored))
        continue
      }
      do {
        let certificates = try record.operatorCertificates.map { (der) throws(WalletError) in
          do {
            return try Certificate(derEncoded: der)
          } catch {
            throw WalletError(.storage, "an operator certificate does not parse", underlying: error)
          }
        }
        let bytes = try await Self.fetchList(location, httpClient: httpClient, urlPolicy: urlPolicy)
        let list = try Self.verifiedList(
          bytes, kind: stored.list.kind, operatorCertificates: certificates, verifier: verifier)
        try Self.refuseRollback(list, replacing: stored.list)
        outcomes.append(
          .refreshed(
            try await addTrustedList(
              list, bytes: bytes, operatorCertificates: certificates, location: location,
              id: stored.id)))
      } catch {
        outcomes.append(.kept(stored, failure: error))
      }
    }
    return outcomes
  }

  /// Refuses a fetched list older than the stored one: a validly signed earlier issue (an
  /// attacker replaying it could bring back an entry since withdrawn). ETSI TS 119 612 §5.3.2
  /// (TSL sequence number) and TS 119 602's LoTESequenceNumber grow with each issue; where a
  /// format has none, the issue date decides. What a relying party does with a lower number is
  /// left open: refusing it is this wallet's choice.
  static func refuseRollback(_ list: TrustedList, replacing old: TrustedList)
    throws(WalletError)
  {
    let older =
      if let new = list.sequenceNumber, let current = old.sequenceNumber {
        new < current
      } else {
        list.issued < old.issued
      }
    guard !older else {
      throw WalletError(
        .importRejected,
        "the fetched list is older than the stored one (sequence \(list.sequenceNumber ?? 0) < "
          + "\(old.sequenceNumber ?? 0), issued \(list.issued) vs \(old.issued))")
    }
  }

  /// The list's bytes from its location, under the URL policy.
  static func fetchList(_ url: URL, httpClient: any HTTPClient, urlPolicy: HTTPURLPolicy)
    async throws(WalletError) -> [UInt8]
  {
    let response: HTTPResponse
    do {
      try urlPolicy.check(url)
      response = try await httpClient.send(HTTPRequest(method: .get, url: url))
    } catch {
      throw WalletError(
        .transport, "cannot fetch \(url.absoluteString): \(error.reason)", underlying: error)
    }
    guard response.status == 200 else {
      throw WalletError(
        .transport, "\(url.absoluteString) answered HTTP \(response.status)")
    }
    return response.body
  }
}

/// The wallet's decoded stored lists, by the verified authentication tag of their row (issue
/// 29): a trust check reads and authenticates the rows each time, and decodes only a row whose
/// tag it has not decoded before. After each reading only the tags of the rows read are kept,
/// so a removed or replaced list is dropped and the memo holds at most the stored lists.
final class TrustedListMemo: @unchecked Sendable {
  // `lists` and `decodes` are read and written only while `lock` is held.
  private let lock = NSLock()
  private var lists: [[UInt8]: TrustedList] = [:]
  private var decodes = 0

  /// The list decoded for `tag`, if kept.
  func list(tag: [UInt8]) -> TrustedList? {
    lock.withLock { lists[tag] }
  }

  /// Keeps `list`, just decoded from the row tagged `tag`, and returns it.
  func decoded(_ list: TrustedList, tag: [UInt8]) -> TrustedList {
    lock.withLock {
      decodes += 1
      lists[tag] = list
    }
    return list
  }

  /// Keeps only these (the rows just read).
  func keepOnly(_ current: [[UInt8]: TrustedList]) {
    lock.withLock { lists = current }
  }

  /// How many rows were decoded so far (for tests: a repeated check decodes nothing).
  var decodeCount: Int { lock.withLock { decodes } }
}
