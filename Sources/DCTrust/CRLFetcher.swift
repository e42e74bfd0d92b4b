public import DCHTTP
public import DCX509
public import Foundation

/// Fetches the CRLs certificates name in their cRLDistributionPoints (RFC 5280 §4.2.1.13) and
/// hands them to chain validation as a `RevocationCheck` value (DCX509 itself does no I/O).
///
/// URLs are fetched under the same `HTTPURLPolicy` as status lists: https, and plain http only
/// to a loopback host under `HTTPURLPolicy.development`. A CRL is kept only when the
/// certificate's issuer (found by name among the certificates and issuers given) signed it, and
/// is cached until its nextUpdate (RFC 5280 §5.1.2.5); a CRL without nextUpdate is cached for
/// an hour. A URL that cannot be fetched or read yields no CRL: the validator then
/// reports the status as unknown and the `RevocationPolicy` decides. CRLs given as values
/// (`--crl FILE`) are always included and never fetched over.
public actor CRLFetcher {
  /// How long a CRL without nextUpdate is kept before it is fetched again.
  package static let uncachedLifetime: TimeInterval = 3600
  /// The most CRLs kept in the cache; the oldest are dropped first.
  package static let maximumCachedCRLs = 64

  /// The client it fetches with; the wallet fetches a registration certificate's status list
  /// through it too, under the same URL policy.
  package nonisolated let client: any HTTPClient
  /// Which URLs are fetched.
  package nonisolated let urlPolicy: HTTPURLPolicy
  let policy: RevocationPolicy
  let offline: [CertificateRevocationList]
  let clock: @Sendable () -> Date
  var cache: [String: (crl: CertificateRevocationList, until: Date)] = [:]
  var cacheOrder: [String] = []
  /// Why the last attempt at each URL gave no CRL, for reports.
  public private(set) var failures: [String: String] = [:]

  /// Creates a fetcher.
  ///
  /// - Parameters:
  ///   - httpClient: fetches the CRLs (it enforces its own timeout and response size).
  ///   - urlPolicy: which distribution point URLs are fetched (https only by default).
  ///   - offlineCRLs: CRLs given as values, always part of the check.
  ///   - policy: what validation does when a status is unknown.
  ///   - clock: the time CRLs are checked for currency at.
  public init(
    httpClient: any HTTPClient, urlPolicy: HTTPURLPolicy = .standard,
    offlineCRLs: [CertificateRevocationList] = [], policy: RevocationPolicy = .failOpen,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    client = httpClient
    self.urlPolicy = urlPolicy
    offline = offlineCRLs
    self.policy = policy
    self.clock = clock
  }

  /// The check for `certificates` (a chain, leaf first, and any anchors): the offline CRLs plus
  /// a current CRL for every distribution point the certificates name, fetched or cached.
  public func revocationCheck(for certificates: [Certificate], issuers: [Certificate] = [])
    async -> RevocationCheck
  {
    var crls = offline
    var seen: Set<String> = []
    for certificate in certificates {
      for uri in certificate.crlDistributionPoints where seen.insert(uri).inserted {
        let issuer = (certificates + issuers).first {
          $0.subject == certificate.issuer && $0.keyUsage?.contains(.cRLSign) != false
        }
        if let crl = await crl(at: uri, issuer: issuer) { crls.append(crl) }
      }
    }
    return RevocationCheck(crls: crls, policy: policy)
  }

  /// The CRL at `uri` (`dcwallet --crl URL`): cached, or fetched; its signature is checked by the
  /// validator that uses it.
  package func fetched(_ uri: String) async -> CertificateRevocationList? {
    await crl(at: uri, issuer: nil)
  }

  /// The CRL at `uri`: cached while current, else fetched; nil with the reason in ``failures``.
  func crl(at uri: String, issuer: Certificate?) async -> CertificateRevocationList? {
    let now = clock()
    if let entry = cache[uri] {
      if now < entry.until { return entry.crl }
      cache[uri] = nil
      cacheOrder.removeAll { $0 == uri }
    }
    let crl: CertificateRevocationList
    switch await fetch(uri) {
    case .success(let fetched): crl = fetched
    case .failure(let failure):
      failures[uri] = failure.reason
      return nil
    }
    if let issuer, let reason = crl.checkIssuer(issuer) {
      failures[uri] = reason
      return nil
    }
    failures[uri] = nil
    // Only a CRL whose signer was checked is cached; another is used once and checked again by
    // the validator.
    if issuer != nil { store(crl, uri: uri, now: now) }
    return crl
  }

  struct FetchFailure: Error {
    let reason: String
  }

  /// GET with `Accept: application/pkix-crl` (RFC 5280 §4.2.1.13, RFC 2585 §4.2); DER, or PEM.
  func fetch(_ uri: String) async -> Result<CertificateRevocationList, FetchFailure> {
    guard let url = URL(string: uri) else {
      return .failure(FetchFailure(reason: "\(uri) is not a URL"))
    }
    do {
      try urlPolicy.check(url)
    } catch {
      return .failure(FetchFailure(reason: "\(uri): \(error.reason)"))
    }
    let response: HTTPResponse
    do {
      response = try await client.send(
        HTTPRequest(method: .get, url: url, headers: ["Accept": "application/pkix-crl"]))
    } catch {
      return .failure(FetchFailure(reason: "\(uri) is unreachable: \(error.reason)"))
    }
    guard response.status == 200 else {
      return .failure(FetchFailure(reason: "\(uri) answered HTTP \(response.status)"))
    }
    do {
      return .success(try CertificateRevocationList(derOrPEM: response.body))
    } catch {
      return .failure(FetchFailure(reason: "\(uri) is not a CRL: \(error.reason)"))
    }
  }

  func store(_ crl: CertificateRevocationList, uri: String, now: Date) {
    let until = crl.nextUpdate ?? now.addingTimeInterval(Self.uncachedLifetime)
    guard until > now else { return }
    cache[uri] = (crl, until)
    cacheOrder.removeAll { $0 == uri }
    cacheOrder.append(uri)
    while cacheOrder.count > Self.maximumCachedCRLs {
      cache[cacheOrder.removeFirst()] = nil
    }
  }
}
