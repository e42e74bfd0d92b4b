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
    for row in rows {
      switch row.flatMap(usableTrustedList) {
      case .success(let list): lists.append(list)
      case .failure(let problem): problems.append(problem)
      }
    }
    return TrustedListListing(lists: lists, problems: problems)
  }

  private func usableTrustedList(_ record: TrustedListRecord)
    -> Result<StoredTrustedList, StoreProblem>
  {
    guard settingsAuthentication.verifies(record) else {
      let why =
        record.authenticationTag == nil
        ? "has no authentication tag (written directly to the database); import it again"
        : "does not match its authentication tag: it was changed without the wallet's key"
      return .failure(
        StoreProblem(
          record: .trustedList(id: record.id),
          error: WalletStoreError(.unauthenticatedRecord, "trusted list \(record.id) \(why)")))
    }
    do {
      let list = try TrustedList(storedForm: record.verifiedForm)
      return .success(
        StoredTrustedList(
          id: record.id, location: record.location.flatMap(URL.init(string:)),
          importedAt: record.importedAt, list: list))
    } catch {
      return .failure(
        StoreProblem(
          record: .trustedList(id: record.id),
          error: WalletStoreError(
            .corruptRecord, "trusted list \(record.id) cannot be read: \(error.reason)")))
    }
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
      guard case .success(let stored) = usableTrustedList(record) else { continue }
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
