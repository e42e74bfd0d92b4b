import DCCBOR
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJSON
import DCStatusList
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// An in-process HTTP client: answers from a table by URL, 406 when `Accept` is not the one
/// expected for the form, and counts the requests it answered.
final class TableClient: HTTPClient, @unchecked Sendable {
  private let lock = NSLock()
  private var table: [String: (accept: String, response: HTTPResponse)] = [:]
  private var failures: [String: HTTPError] = [:]
  private var sent = 0

  func serve(_ token: StatusListToken, at uri: String) {
    lock.withLock {
      table[uri] = (
        token.format.mediaType,
        HTTPResponse(
          status: 200, headers: ["Content-Type": token.format.mediaType], body: token.encoded)
      )
    }
  }

  func serve(bytes: [UInt8], status: Int = 200, accept: String, at uri: String) {
    lock.withLock { table[uri] = (accept, HTTPResponse(status: status, body: bytes)) }
  }

  func fail(_ uri: String, with error: HTTPError) { lock.withLock { failures[uri] = error } }

  var requestCount: Int { lock.withLock { sent } }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let (entry, failure): ((accept: String, response: HTTPResponse)?, HTTPError?) = lock.withLock {
      sent += 1
      return (table[request.url.absoluteString], failures[request.url.absoluteString])
    }
    if let failure { throw failure }
    guard let entry else { return HTTPResponse(status: 404) }
    guard request.headers["Accept"] == entry.accept else { return HTTPResponse(status: 406) }
    return entry.response
  }
}

/// A clock tests move.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  init(_ start: Date) { current = start }
  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite struct StatusListCheckerTests {
  static let uri = StatusListTokenTests.uri

  struct Fixture {
    let pki: TestPKI
    let client = TableClient()
    let clock: TestClock
    let checker: StatusListChecker

    init(
      offline: [StatusListToken] = [], pki: TestPKI? = nil, urlPolicy: HTTPURLPolicy = .standard
    ) throws {
      let pki = try pki ?? TestPKI()
      self.pki = pki
      let clock = TestClock(pki.clock)
      self.clock = clock
      checker = StatusListChecker(
        httpClient: client, trustAnchors: [pki.iaca], urlPolicy: urlPolicy,
        offlineTokens: offline, clock: { clock.now })
    }
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func statusesFromAVerifiedList(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(try StatusListTokenTests.token(format, pki: fixture.pki), at: Self.uri)
    let expected: [(Int, StatusCheckResult)] = [
      (0, .valid), (3, .invalid), (4, .suspended), (9_999, .applicationSpecific(3)),
    ]
    for (index, result) in expected {
      let checked = await fixture.checker.check(
        StatusReference(index: index, uri: Self.uri), format: format)
      #expect(checked == result, "index \(index)")
    }
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func theRightAcceptIsSent(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(try StatusListTokenTests.token(format, pki: fixture.pki), at: Self.uri)
    let other: StatusListToken.Format = format == .jwt ? .cwt : .jwt
    // Asking for the other form gets 406 from the table: unreachable, never revoked.
    let wrong = await fixture.checker.check(
      StatusReference(index: 3, uri: Self.uri), format: other)
    guard case .unknown(.unreachable, _) = wrong else {
      Issue.record("expected unknown(unreachable), got \(wrong)")
      return
    }
    #expect(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: format)
        == .invalid)
  }

  func expectUnknown(
    _ result: StatusCheckResult, _ reason: StatusUnknownReason,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .unknown(let got, _) = result else {
      Issue.record("expected unknown(\(reason)), got \(result)", sourceLocation: sourceLocation)
      return
    }
    #expect(got == reason, sourceLocation: sourceLocation)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func anotherIssuersListIsUnknown(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(try StatusListTokenTests.token(format, pki: try TestPKI()), at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: format),
      .untrusted)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aForgedSignatureIsUnknown(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(format, pki: fixture.pki, signer: ECPrivateKey(curve: .p256)),
      at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: format),
      .badSignature)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aSubMismatchIsUnknown(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(
        format, pki: fixture.pki, subject: "https://issuer.example/statuslists/2"),
      at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: format),
      .subjectMismatch)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func anExpiredListIsUnknown(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(format, pki: fixture.pki, expiresIn: -1), at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: format),
      .expired)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func anIndexOutOfRangeIsUnknown(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    fixture.client.serve(try StatusListTokenTests.token(format, pki: fixture.pki), at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 10_000, uri: Self.uri), format: format),
      .indexOutOfRange)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aBombIsUnknownEvenForAnEarlyIndex(format: StatusListToken.Format) async throws {
    let fixture = try Fixture()
    var bomb = StatusList(bits: .one, bytes: [UInt8](repeating: 0, count: 32 << 20))
    try bomb.setStatus(.invalid, at: 0)
    fixture.client.serve(
      try StatusListTokenTests.token(format, pki: fixture.pki, list: bomb), at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 0, uri: Self.uri), format: format),
      .tooLarge)
  }

  @Test func anUnreachableListIsUnknownNeverRevoked() async throws {
    let fixture = try Fixture()
    fixture.client.fail(Self.uri, with: HTTPError(.connectionFailed, "refused"))
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: .jwt),
      .unreachable)
    // A 404 (nothing served at the other URI) is unreachable too.
    expectUnknown(
      await fixture.checker.check(
        StatusReference(index: 3, uri: "https://issuer.example/none"), format: .jwt),
      .unreachable)
  }

  @Test func anUnreadableListIsMalformedNeverRevoked() async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      bytes: Array("not a token".utf8), accept: StatusListToken.Format.jwt.mediaType, at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: .jwt),
      .malformed)
  }

  @Test func onlyHTTPSOrLoopbackHTTP() async throws {
    let fixture = try Fixture(urlPolicy: .development)
    for uri in ["http://issuer.example/statuslists/1", "file:///etc/passwd", "ftp://a.example/x"] {
      expectUnknown(
        await fixture.checker.check(StatusReference(index: 3, uri: uri), format: .jwt),
        .urlNotAllowed)
    }
    #expect(fixture.client.requestCount == 0)
    for uri in ["http://127.0.0.1:9/l", "http://localhost/l", "http://[::1]/l"] {
      let token = try StatusListTokenTests.token(.jwt, pki: fixture.pki, subject: uri)
      fixture.client.serve(token, at: uri)
      #expect(
        await fixture.checker.check(StatusReference(index: 3, uri: uri), format: .jwt) == .invalid,
        "\(uri)")
    }
  }

  /// Issue 32: plain http, even to loopback, only under the development URL policy; the
  /// library's default fetches https only.
  @Test func loopbackHTTPOnlyUnderTheDevelopmentPolicy() async throws {
    let pki = try TestPKI()
    let client = TableClient()
    // The checker's default policy.
    let checker = StatusListChecker(
      httpClient: client, trustAnchors: [pki.iaca], clock: { [now = pki.clock] in now })
    for uri in ["http://127.0.0.1:9/l", "http://localhost/l", "http://[::1]/l"] {
      client.serve(try StatusListTokenTests.token(.jwt, pki: pki, subject: uri), at: uri)
      expectUnknown(
        await checker.check(StatusReference(index: 3, uri: uri), format: .jwt), .urlNotAllowed)
    }
    #expect(client.requestCount == 0)
  }

  /// Issue 32: a list speaks only for the Referenced Tokens of its own issuer or of a Status
  /// Issuer under the same anchor; another trusted anchor's list is `issuerMismatch`, fetched,
  /// cached or offline.
  @Test(arguments: StatusListToken.Format.allCases)
  func aListUnderAnotherAnchorIsAnIssuerMismatch(format: StatusListToken.Format) async throws {
    let pki = try TestPKI()
    let other = try TestPKI()
    let client = TableClient()
    let checker = StatusListChecker(
      httpClient: client, trustAnchors: [pki.iaca, other.iaca],
      clock: { [now = pki.clock] in now })
    client.serve(try StatusListTokenTests.token(format, pki: other), at: Self.uri)
    let reference = StatusReference(index: 3, uri: Self.uri)
    let mine = StatusListIssuer(anchor: pki.iaca)
    // Fetched: refused for a credential of pki's issuer.
    expectUnknown(await checker.check(reference, format: format, issuer: mine), .issuerMismatch)
    // Accepted (and cached) for a credential of other's issuer; the cached token is refused
    // for pki's credential all the same.
    #expect(
      await checker.check(reference, format: format, issuer: StatusListIssuer(anchor: other.iaca))
        == .invalid)
    expectUnknown(await checker.check(reference, format: format, issuer: mine), .issuerMismatch)
    // Offline.
    let offline = StatusListChecker(
      httpClient: TableClient(), trustAnchors: [pki.iaca, other.iaca],
      offlineTokens: [try StatusListTokenTests.token(format, pki: other)],
      clock: { [now = pki.clock] in now })
    expectUnknown(await offline.check(reference, format: format, issuer: mine), .issuerMismatch)
  }

  /// A Status Issuer other than the credential's signer, certified by the same anchor, is
  /// accepted (the draft's delegated signer); so is the credential's own issuer-published
  /// anchor, which need not be one of the checker's anchors.
  @Test func aDelegatedSignerUnderTheSameAnchorIsAccepted() async throws {
    let pki = try TestPKI()
    let key = try ECPrivateKey(curve: .p256)
    let statusSigner = try CertificateBuilder.documentSigner(
      commonName: "Status Issuer", country: "UT", publicKey: key.publicKey,
      notBefore: pki.clock.addingTimeInterval(-86_400),
      notAfter: pki.clock.addingTimeInterval(86_400)
    ).issued(by: pki.iaca, signer: pki.iacaKey)
    let client = TableClient()
    client.serve(
      try StatusListTokenTests.token(.jwt, pki: pki, chain: [statusSigner], signer: key),
      at: Self.uri)
    let checker = StatusListChecker(
      httpClient: client, trustAnchors: [], clock: { [now = pki.clock] in now })
    let reference = StatusReference(index: 3, uri: Self.uri)
    #expect(
      await checker.check(reference, format: .jwt, issuer: StatusListIssuer(anchor: pki.iaca))
        == .invalid)
    // Without the credential's anchor, the checker's own (none here) decide.
    expectUnknown(await checker.check(reference, format: .jwt), .untrusted)
  }

  @Test func anUnsupportedMechanismIsUnknown() async throws {
    let fixture = try Fixture()
    expectUnknown(
      await fixture.checker.check(.unsupported(mechanism: "identifier_list"), format: .cwt),
      .unsupported)
  }

  @Test func verifiedListsAreCachedForTheirTTL() async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(.cwt, pki: fixture.pki, ttl: 600), at: Self.uri)
    let reference = StatusReference(index: 3, uri: Self.uri)
    #expect(await fixture.checker.check(reference, format: .cwt) == .invalid)
    #expect(await fixture.checker.check(reference, format: .cwt) == .invalid)
    #expect(fixture.client.requestCount == 1)
    // Within the ttl the cached list answers even when the server now says otherwise.
    var reinstated = try StatusListTokenTests.sampleList()
    try reinstated.setStatus(.valid, at: 3)
    fixture.client.serve(
      try StatusListTokenTests.token(.cwt, pki: fixture.pki, ttl: 600, list: reinstated),
      at: Self.uri)
    fixture.clock.advance(599)
    #expect(await fixture.checker.check(reference, format: .cwt) == .invalid)
    #expect(fixture.client.requestCount == 1)
    // Past the ttl it is fetched again.
    fixture.clock.advance(2)
    #expect(await fixture.checker.check(reference, format: .cwt) == .valid)
    #expect(fixture.client.requestCount == 2)
  }

  @Test func theCacheDropsTheOldestListPastItsSize() async throws {
    let pki = try TestPKI()
    let client = TableClient()
    // Each sample list is 2,500 bytes: two fit in 5,000, a third pushes the first out.
    let checker = StatusListChecker(
      httpClient: client, trustAnchors: [pki.iaca], cacheSize: 5_000,
      clock: { [now = pki.clock] in now })
    let uris = (1...3).map { "https://issuer.example/statuslists/\($0)" }
    for uri in uris {
      client.serve(try StatusListTokenTests.token(.jwt, pki: pki, subject: uri), at: uri)
      #expect(await checker.check(StatusReference(index: 3, uri: uri), format: .jwt) == .invalid)
    }
    #expect(client.requestCount == 3)
    // The second and third are cached; the first was dropped and is fetched again.
    for uri in uris[1...] {
      _ = await checker.check(StatusReference(index: 3, uri: uri), format: .jwt)
    }
    #expect(client.requestCount == 3)
    _ = await checker.check(StatusReference(index: 3, uri: uris[0]), format: .jwt)
    #expect(client.requestCount == 4)
  }

  @Test func aCachedListIsNotUsedPastItsExp() async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(.jwt, pki: fixture.pki, expiresIn: 100, ttl: 3600),
      at: Self.uri)
    let reference = StatusReference(index: 3, uri: Self.uri)
    #expect(await fixture.checker.check(reference, format: .jwt) == .invalid)
    fixture.clock.advance(50)
    #expect(await fixture.checker.check(reference, format: .jwt) == .invalid)
    #expect(fixture.client.requestCount == 1)
    fixture.clock.advance(60)
    // Past exp: fetched again (the server still has the expired token: unknown).
    expectUnknown(await fixture.checker.check(reference, format: .jwt), .expired)
    #expect(fixture.client.requestCount == 2)
  }

  @Test func offlineTokensAreUsedWithoutFetchingAndStillChecked() async throws {
    let pki = try TestPKI()
    let good = try StatusListTokenTests.token(.jwt, pki: pki)
    let fixture = try Fixture(offline: [good], pki: pki)
    #expect(
      await fixture.checker.check(StatusReference(index: 4, uri: Self.uri), format: .cwt)
        == .suspended)
    #expect(fixture.client.requestCount == 0)
    await fixture.checker.addOfflineToken(try StatusListTokenTests.token(.jwt, pki: try TestPKI()))
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 4, uri: Self.uri), format: .jwt),
      .untrusted)
    #expect(fixture.client.requestCount == 0)
  }

  @Test func theMdocCertificateStandsInForAMissingChain() async throws {
    let fixture = try Fixture()
    fixture.client.serve(
      try StatusListTokenTests.token(.cwt, pki: fixture.pki, chain: []), at: Self.uri)
    expectUnknown(
      await fixture.checker.check(StatusReference(index: 3, uri: Self.uri), format: .cwt),
      .untrusted)
    let withCertificate = StatusReference(
      index: 3, uri: Self.uri, certificate: fixture.pki.documentSigner.derBytes)
    #expect(await fixture.checker.check(withCertificate, format: .cwt) == .invalid)
  }

  @Test func fetchesOverRealHTTPFromALoopbackServer() async throws {
    let pki = try TestPKI()
    /// Serves the token put in it once the server knows its port (the token's sub is its URL).
    final class Handler: HTTPHandler, @unchecked Sendable {
      private let lock = NSLock()
      private var token: StatusListToken?
      func set(_ token: StatusListToken) { lock.withLock { self.token = token } }
      func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = lock.withLock({ self.token }),
          request.headers["Accept"] == token.format.mediaType
        else { return HTTPResponse(status: 406) }
        return HTTPResponse(
          status: 200, headers: ["Content-Type": token.format.mediaType], body: token.encoded)
      }
    }
    let handler = Handler()
    let server = DevelopmentHTTPServer(handler: handler)
    let port = try server.start()
    defer { server.stop() }
    let uri = "http://127.0.0.1:\(port)/statuslists/1"
    handler.set(try StatusListTokenTests.token(.cwt, pki: pki, subject: uri))
    let checker = StatusListChecker(
      httpClient: URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10)),
      trustAnchors: [pki.iaca], urlPolicy: .development, clock: { [now = pki.clock] in now })
    #expect(await checker.check(StatusReference(index: 4, uri: uri), format: .cwt) == .suspended)
    #expect(await checker.check(StatusReference(index: 5, uri: uri), format: .cwt) == .valid)
  }
}
