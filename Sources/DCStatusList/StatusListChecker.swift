public import DCHTTP
public import DCX509
public import Foundation

/// Why a status could not be determined. Never a revocation: a verifier's policy decides
/// whether an unknown status fails a presentation.
public enum StatusUnknownReason: String, Sendable, Hashable, CaseIterable {
  /// The list could not be fetched: connection failure, timeout, or an HTTP status other than
  /// 200 (draft §8.1).
  case unreachable
  /// The `uri` is not https (plain http only to a loopback host) or not a URL.
  case urlNotAllowed = "url_not_allowed"
  /// The token's signature does not verify (draft §8.3 step 3).
  case badSignature = "bad_signature"
  /// The token has no certificate chain, or it does not validate to the issuer's trust anchors.
  case untrusted
  /// The token validates, but under another anchor than the Referenced Token's own issuer
  /// (``StatusListIssuer``): another issuer's list does not speak for this token.
  case issuerMismatch = "issuer_mismatch"
  /// The token's `sub` is not the Referenced Token's `uri` (draft §8.3 step 2).
  case subjectMismatch = "sub_mismatch"
  /// The token's `exp` has passed (draft §8.3 step 4).
  case expired
  /// The index is not in the list (draft §8.3 step 5).
  case indexOutOfRange = "index_out_of_range"
  /// The token, or its list once decompressed, exceeds ``StatusListLimits``.
  case tooLarge = "too_large"
  /// The token, or the Referenced Token's `status` claim, is not as the draft defines it.
  case malformed
  /// The Referenced Token uses a mechanism other than a Status List (an ISO 18013-5
  /// `identifier_list`).
  case unsupported
}

/// The outcome of checking a Referenced Token's status: valid; invalid, suspended or an
/// application-specific value read from a verified list; or unknown with the reason. A
/// failure to fetch, verify or parse the list is always unknown, never a revocation.
public enum StatusCheckResult: Sendable, Hashable {
  /// 0x00 VALID.
  case valid
  /// 0x01 INVALID (revoked).
  case invalid
  /// 0x02 SUSPENDED.
  case suspended
  /// Another value from a verified list, kept as the number (draft §7.1).
  case applicationSpecific(UInt8)
  /// The status could not be determined; `detail` says what failed, for logs.
  case unknown(StatusUnknownReason, detail: String)

  /// The result that a status read from a verified list gives.
  package init(_ status: Status) {
    switch status {
    case .valid: self = .valid
    case .invalid: self = .invalid
    case .suspended: self = .suspended
    case .applicationSpecific(let value): self = .applicationSpecific(value)
    }
  }

  /// The status read from the list, nil when unknown.
  public var status: Status? {
    switch self {
    case .valid: .valid
    case .invalid: .invalid
    case .suspended: .suspended
    case .applicationSpecific(let value): .applicationSpecific(value)
    case .unknown: nil
    }
  }
}

/// Whose Status List Token may give a Referenced Token's status: the token's own issuer, or a
/// Status Issuer under the same trust anchor (draft-ietf-oauth-status-list, Security
/// Considerations "Key Resolution and Trust Management": a Status Issuer other than the
/// Referenced Token's issuer is linked to it through the same certificate authority). A list
/// signed under another anchor, even a trusted one, does not speak for the token.
public struct StatusListIssuer: Sendable, Hashable {
  /// The trust anchor the Referenced Token's own certificate chain was validated to.
  public let anchor: Certificate

  /// The issuer whose Referenced Token's chain reached `anchor`.
  public init(anchor: Certificate) { self.anchor = anchor }
}

/// Checks Referenced Tokens against their Status List Tokens (draft-ietf-oauth-status-list §8):
/// fetches the token at `uri` with the `Accept` of the expected form, verifies its signature and
/// certificate chain against the issuer's trust anchors, checks `sub` equals `uri`, `exp`, and
/// the index, and reads the status. Verified tokens are cached until the earlier of `ttl` after
/// fetching and `exp` (draft §8.3, §13.7); tokens given as values
/// (offline) are used instead of fetching and are checked the same way.
public actor StatusListChecker {
  /// The most decompressed list bytes kept in the cache (64 MiB, four lists at the cap);
  /// the oldest entries are dropped first.
  public static let maximumCacheSize = 64 << 20

  let client: any HTTPClient
  let trustAnchors: [Certificate]
  let urlPolicy: HTTPURLPolicy
  let clock: @Sendable () -> Date
  let cacheSize: Int
  var offline: [String: StatusListToken] = [:]
  var cache: [String: CacheEntry] = [:]
  var cacheOrder: [String] = []

  struct CacheEntry {
    let token: StatusListToken
    let until: Date
    /// The anchor the token's chain was validated to.
    let anchor: Certificate
  }

  /// Creates a checker.
  ///
  /// - Parameters:
  ///   - httpClient: fetches the tokens (it enforces its own timeout and response size).
  ///   - trustAnchors: the issuer anchors the credential itself is checked against; a token
  ///     must chain to one of them.
  ///   - urlPolicy: which `uri`s are fetched: https only by default (`.standard`); plain http
  ///     to loopback hosts (`localhost`, 127.0.0.0/8, `[::1]`) only under `.development`.
  ///   - offlineTokens: tokens given as values (a file), used for the `uri` equal to their
  ///     `sub` instead of fetching.
  ///   - cacheSize: the most decompressed list bytes cached (``maximumCacheSize`` by default).
  ///   - clock: the time every check is made at.
  public init(
    httpClient: any HTTPClient, trustAnchors: [Certificate],
    urlPolicy: HTTPURLPolicy = .standard,
    offlineTokens: [StatusListToken] = [], cacheSize: Int = StatusListChecker.maximumCacheSize,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.cacheSize = cacheSize
    client = httpClient
    self.trustAnchors = trustAnchors
    self.urlPolicy = urlPolicy
    self.clock = clock
    for token in offlineTokens { offline[token.subject] = token }
  }

  /// Adds a token given as a value; it replaces an earlier one with the same `sub`.
  package func addOfflineToken(_ token: StatusListToken) {
    offline[token.subject] = token
  }

  /// Checks a `status` claim as read from a Referenced Token; with `issuer`, only a list of that
  /// issuer (or under its anchor) is used.
  public func check(
    _ status: ReferencedStatus, format: StatusListToken.Format, issuer: StatusListIssuer? = nil
  ) async -> StatusCheckResult {
    switch status {
    case .statusList(let reference): await check(reference, format: format, issuer: issuer)
    case .unsupported(let mechanism):
      .unknown(.unsupported, detail: "the status mechanism \(mechanism) is not supported")
    }
  }

  /// Checks one Referenced Token: `format` is the form to fetch (`.jwt` for an SD-JWT VC,
  /// `.cwt` for an mdoc, draft §8.1). With `issuer` (the Referenced Token's own anchor), a token
  /// signed under another anchor is `issuerMismatch`.
  public func check(
    _ reference: StatusReference, format: StatusListToken.Format, issuer: StatusListIssuer? = nil
  ) async -> StatusCheckResult {
    let token: StatusListToken
    switch await verifiedToken(for: reference, format: format, issuer: issuer) {
    case .success(let verified): token = verified
    case .failure(let failure): return .unknown(failure.reason, detail: failure.detail)
    }
    do {
      return StatusCheckResult(try token.statusList.status(at: reference.index))
    } catch {
      return .unknown(.indexOutOfRange, detail: error.reason)
    }
  }

  /// Why a token could not be had, as the check reports it.
  public struct Failure: Error, Sendable, Hashable {
    /// The reason reported.
    public let reason: StatusUnknownReason
    /// What failed, for logs.
    public let detail: String
  }

  /// The verified Status List Token for `reference`: offline, cached or fetched, checked for
  /// `sub`, `exp` and its signature and chain; with `issuer`, the chain must end at the
  /// Referenced Token's own anchor (``StatusListIssuer``), else `issuerMismatch`.
  public func verifiedToken(
    for reference: StatusReference, format: StatusListToken.Format,
    issuer: StatusListIssuer? = nil
  ) async -> Result<StatusListToken, Failure> {
    let now = clock()
    if let token = offline[reference.uri] {
      return validate(token, reference: reference, issuer: issuer, now: now).map { $0.token }
    }
    let key = "\(format.rawValue) \(reference.uri)"
    if let entry = cache[key] {
      if now < entry.until, entry.token.expiresAt.map({ now < $0 }) ?? true {
        return Self.bound(entry.token, anchor: entry.anchor, to: issuer, or: trustAnchors)
      }
      cache[key] = nil
      cacheOrder.removeAll { $0 == key }
    }
    let token: StatusListToken
    switch await fetch(reference.uri, format: format) {
    case .success(let fetched): token = fetched
    case .failure(let failure): return .failure(failure)
    }
    let result = validate(token, reference: reference, issuer: issuer, now: clock())
    if case .success(let valid) = result {
      store(valid.token, anchor: valid.anchor, key: key, now: now)
    }
    return result.map { $0.token }
  }

  /// A token validated to `anchor`, checked against whose list the caller may use: the
  /// Referenced Token's own anchor when `issuer` is given, else one of `anchors`.
  static func bound(
    _ token: StatusListToken, anchor: Certificate, to issuer: StatusListIssuer?,
    or anchors: [Certificate]
  ) -> Result<StatusListToken, Failure> {
    if let issuer {
      // draft-ietf-oauth-status-list, "Key Resolution and Trust Management": the Referenced
      // Token's issuer, or a Status Issuer its certificate authority linked to it.
      guard anchor == issuer.anchor else {
        return .failure(
          Failure(
            reason: .issuerMismatch,
            detail:
              "the token is signed under \(anchor.subject), not under the credential's anchor "
              + "\(issuer.anchor.subject)"))
      }
    } else if !anchors.contains(anchor) {
      return .failure(
        Failure(reason: .untrusted, detail: "the token is not signed under a trusted anchor"))
    }
    return .success(token)
  }

  /// Draft §8.3 steps 2-4: `sub`, `exp`, then the signature and the chain (to the checker's
  /// anchors, and the Referenced Token's own anchor when `issuer` is given, which it must end
  /// at).
  func validate(
    _ token: StatusListToken, reference: StatusReference, issuer: StatusListIssuer?, now: Date
  ) -> Result<(token: StatusListToken, anchor: Certificate), Failure> {
    guard token.subject == reference.uri else {
      return .failure(
        Failure(
          reason: .subjectMismatch,
          detail: "the token's sub \(token.subject) is not the uri \(reference.uri)"))
    }
    if let exp = token.expiresAt, exp <= now {
      return .failure(Failure(reason: .expired, detail: "the token expired at \(exp)"))
    }
    let anchors =
      trustAnchors + (issuer.map { [$0.anchor] } ?? []).filter { !trustAnchors.contains($0) }
    let chain: TrustedChain
    do {
      chain = try token.verifySignature(
        trustAnchors: anchors, at: now, fallbackChain: reference.certificate.map { [$0] } ?? [])
    } catch {
      return .failure(
        Failure(
          reason: error.code == .invalidSignature ? .badSignature : .untrusted,
          detail: error.reason))
    }
    return Self.bound(token, anchor: chain.anchor, to: issuer, or: trustAnchors).map {
      ($0, chain.anchor)
    }
  }

  /// Fetches and reads the token at `uri` (draft §8.1: GET with `Accept`).
  func fetch(_ uri: String, format: StatusListToken.Format) async
    -> Result<StatusListToken, Failure>
  {
    guard let url = URL(string: uri) else {
      return .failure(Failure(reason: .urlNotAllowed, detail: "the uri is not a URL"))
    }
    do {
      try urlPolicy.check(url)
    } catch {
      return .failure(Failure(reason: .urlNotAllowed, detail: error.reason))
    }
    let response: HTTPResponse
    do {
      response = try await client.send(
        HTTPRequest(method: .get, url: url, headers: ["Accept": format.mediaType]))
    } catch {
      return .failure(
        Failure(
          reason: error.code == .responseTooLarge ? .tooLarge : .unreachable, detail: error.reason)
      )
    }
    guard response.status == 200 else {
      return .failure(
        Failure(reason: .unreachable, detail: "the server answered HTTP \(response.status)"))
    }
    do {
      return .success(try StatusListToken(bytes: response.body))
    } catch {
      return .failure(
        Failure(reason: error.code == .tooLarge ? .tooLarge : .malformed, detail: error.reason))
    }
  }

  /// Caches a verified token until the earlier of `ttl` after `now` and `exp` (draft §13.7);
  /// a token with neither is not cached.
  func store(_ token: StatusListToken, anchor: Certificate, key: String, now: Date) {
    let ttlEnd = token.timeToLive.map { now.addingTimeInterval(TimeInterval($0)) }
    let candidates = [ttlEnd, token.expiresAt].compactMap { $0 }
    guard let until = candidates.min() else { return }
    cache[key] = CacheEntry(token: token, until: until, anchor: anchor)
    cacheOrder.removeAll { $0 == key }
    cacheOrder.append(key)
    var total = cacheOrder.reduce(0) { $0 + (cache[$1]?.token.statusList.bytes.count ?? 0) }
    while total > cacheSize, cacheOrder.count > 1 {
      let oldest = cacheOrder.removeFirst()
      total -= cache[oldest]?.token.statusList.bytes.count ?? 0
      cache[oldest] = nil
    }
  }
}
