import DCCrypto
import DCHTTP
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// Answers CRL requests from a table by URL and counts them.
final class CRLServer: HTTPClient, @unchecked Sendable {
  private let lock = NSLock()
  private var table: [String: HTTPResponse] = [:]
  private var sent = 0

  func serve(_ body: [UInt8], status: Int = 200, at uri: String) {
    lock.withLock { table[uri] = HTTPResponse(status: status, body: body) }
  }

  var requestCount: Int { lock.withLock { sent } }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let response: HTTPResponse? = lock.withLock {
      sent += 1
      return table[request.url.absoluteString]
    }
    #expect(request.headers["Accept"] == "application/pkix-crl")
    guard let response else { throw HTTPError(.connectionFailed, "nothing at \(request.url)") }
    return response
  }
}

/// An IACA whose document signer names a distribution point, and a server for its CRL.
struct FetchFixture {
  static let uri = "https://iaca.example/crl"
  let pki: TestPKI
  let signer: Certificate
  let server = CRLServer()
  let clock: Date

  init() throws {
    pki = try TestPKI()
    clock = pki.clock
    signer = try CertificateBuilder.documentSigner(
      commonName: "Fetched DS", country: "UT", publicKey: pki.dsKey.publicKey,
      notBefore: clock - 86_400, notAfter: clock + 86_400, crlDistributionPoint: Self.uri
    ).issued(by: pki.iaca, signer: pki.iacaKey)
  }

  func crl(revoking: [Certificate] = [], signer key: ECPrivateKey? = nil, nextUpdate: Date? = nil)
    throws -> CertificateRevocationList
  {
    try CertificateRevocationList.build(
      issuer: pki.iaca, signer: key ?? pki.iacaKey, thisUpdate: clock - 60,
      nextUpdate: nextUpdate ?? clock + 3600,
      revoked: revoking.map {
        RevokedCertificate(serialNumber: $0.serialNumber, revocationDate: clock - 60)
      })
  }

  func fetcher(
    policy: RevocationPolicy = .failClosed, urlPolicy: HTTPURLPolicy = .standard, now: Date? = nil
  )
    -> CRLFetcher
  {
    let time = now ?? clock
    return CRLFetcher(httpClient: server, urlPolicy: urlPolicy, policy: policy, clock: { time })
  }

  func decide(_ check: RevocationCheck) -> TrustDecision {
    let anchor = TrustAnchor(id: "iaca", certificate: pki.iaca, purposes: [.credentialIssuer])
    return TrustSources(anchors: [anchor], revocation: check).decide(
      chain: [signer], for: .credentialIssuer, at: clock)
  }
}

@Suite("CRLFetcher: distribution points fetched under the URL policy, cached until nextUpdate")
struct CRLFetcherTests {
  @Test("a fetched CRL that lists the signer refuses it; a clean one keeps it trusted")
  func fetchedRevocation() async throws {
    let fixture = try FetchFixture()
    fixture.server.serve(try fixture.crl(revoking: [fixture.signer]).derBytes, at: FetchFixture.uri)
    let check = await fixture.fetcher().revocationCheck(
      for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(check.crls.count == 1)
    guard case .untrusted(let refusals) = fixture.decide(check) else {
      Issue.record("a revoked signer was trusted")
      return
    }
    #expect(refusals.contains { "\($0)".contains("is revoked") })

    let clean = try FetchFixture()
    clean.server.serve(Array(try clean.crl().pemString.utf8), at: FetchFixture.uri)
    let good = await clean.fetcher().revocationCheck(for: [clean.signer], issuers: [clean.pki.iaca])
    #expect(clean.decide(good).source != nil)
  }

  @Test("cached until nextUpdate, fetched again after it")
  func cache() async throws {
    let fixture = try FetchFixture()
    fixture.server.serve(try fixture.crl().derBytes, at: FetchFixture.uri)
    // One fetcher whose clock moves past the CRL's nextUpdate (an hour).
    let offset = MovingOffset()
    let start = fixture.clock
    let fetcher = CRLFetcher(
      httpClient: fixture.server, policy: .failClosed, clock: { start + offset.value })
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    offset.value = 3500
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(fixture.server.requestCount == 1)
    // The publisher's next CRL, current for another two hours, is fetched once the first's
    // nextUpdate has passed, then kept.
    fixture.server.serve(
      try fixture.crl(nextUpdate: fixture.clock + 7200).derBytes, at: FetchFixture.uri)
    offset.value = 3700
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(fixture.server.requestCount == 2)
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(fixture.server.requestCount == 2)
  }

  @Test("the cache holds 64 CRLs: at 64 every one is reused, the 65th drops the oldest")
  func cacheBound() async throws {
    let fixture = try FetchFixture()
    let crl = try fixture.crl().derBytes
    let limit = CRLFetcher.maximumCachedCRLs
    var signers: [Certificate] = []
    for index in 0...limit {
      let uri = "https://iaca.example/crl/\(index)"
      fixture.server.serve(crl, at: uri)
      signers.append(
        try CertificateBuilder.documentSigner(
          commonName: "DS \(index)", country: "UT", publicKey: fixture.pki.dsKey.publicKey,
          notBefore: fixture.clock - 86_400, notAfter: fixture.clock + 86_400,
          crlDistributionPoint: uri
        ).issued(by: fixture.pki.iaca, signer: fixture.pki.iacaKey))
    }
    let fetcher = fixture.fetcher()
    let iaca = [fixture.pki.iaca]
    // At the limit: 64 fetched once, then all served from the cache.
    _ = await fetcher.revocationCheck(for: Array(signers.prefix(limit)), issuers: iaca)
    _ = await fetcher.revocationCheck(for: Array(signers.prefix(limit)), issuers: iaca)
    #expect(fixture.server.requestCount == limit)
    // Past it: the 65th drops the first, which is fetched again; the last stays cached.
    _ = await fetcher.revocationCheck(for: [signers[limit]], issuers: iaca)
    _ = await fetcher.revocationCheck(for: [signers[0]], issuers: iaca)
    #expect(fixture.server.requestCount == limit + 2)
    _ = await fetcher.revocationCheck(for: [signers[limit]], issuers: iaca)
    #expect(fixture.server.requestCount == limit + 2)
  }

  @Test("a CRL signed by another key is not kept: the status is unknown, refused fail-closed")
  func otherKey() async throws {
    let fixture = try FetchFixture()
    let forged = try fixture.crl(signer: try ECPrivateKey(curve: .p256))
    fixture.server.serve(forged.derBytes, at: FetchFixture.uri)
    let fetcher = fixture.fetcher()
    let check = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(check.crls.isEmpty)
    #expect(await fetcher.failures[FetchFixture.uri]?.contains("does not verify") == true)
    #expect(fixture.decide(check).source == nil)
    // Fail-open accepts the chain and reports the status unknown.
    let open = RevocationCheck(crls: check.crls, policy: .failOpen)
    guard case .trusted(let chain, _) = fixture.decide(open) else {
      Issue.record("fail-open refused the chain")
      return
    }
    #expect(chain.revocation == .unknown([fixture.signer]))
  }

  @Test("unreachable, HTTP errors, not a CRL, and URLs the policy refuses give no CRL")
  func failures() async throws {
    let fixture = try FetchFixture()
    let fetcher = fixture.fetcher()
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(await fetcher.failures[FetchFixture.uri]?.contains("unreachable") == true)
    fixture.server.serve([0x30, 0x00], at: FetchFixture.uri)
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(await fetcher.failures[FetchFixture.uri]?.contains("not a CRL") == true)
    fixture.server.serve([], status: 404, at: FetchFixture.uri)
    _ = await fetcher.revocationCheck(for: [fixture.signer], issuers: [fixture.pki.iaca])
    #expect(await fetcher.failures[FetchFixture.uri]?.contains("HTTP 404") == true)

    // Plain http only to loopback, and only under the development policy.
    for (uri, policy, fetched) in [
      ("http://iaca.example/crl", HTTPURLPolicy.development, false),
      ("http://127.0.0.1:8080/crl", .standard, false),
      ("http://127.0.0.1:8080/crl", .development, true),
    ] {
      let pki = fixture.pki
      let signer = try CertificateBuilder.documentSigner(
        commonName: "DS", country: "UT", publicKey: pki.dsKey.publicKey,
        notBefore: fixture.clock - 60, notAfter: fixture.clock + 60, crlDistributionPoint: uri
      ).issued(by: pki.iaca, signer: pki.iacaKey)
      fixture.server.serve(try fixture.crl().derBytes, at: uri)
      let before = fixture.server.requestCount
      let check = await fixture.fetcher(urlPolicy: policy).revocationCheck(
        for: [signer], issuers: [pki.iaca])
      #expect((fixture.server.requestCount > before) == fetched, "\(uri)")
      #expect(check.crls.count == (fetched ? 1 : 0), "\(uri)")
    }
  }
}

/// A time offset a test moves while a fetcher's clock reads it.
final class MovingOffset: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds: TimeInterval = 0
  var value: TimeInterval {
    get { lock.withLock { seconds } }
    set { lock.withLock { seconds = newValue } }
  }
}
