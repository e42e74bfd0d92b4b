import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJSON
import DCSDJWT
import DCStatusList
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// A wallet holding an SD-JWT VC PID whose `status` points at entry 1 of a list, a request for
/// it, the wallet's answer, and status list tokens over that entry.
struct StatusCLIFixture {
  let base: CLIFixture
  let issuerKey: ECPrivateKey
  let issuerCert: Certificate
  let uri: String
  let state: String
  let response: String

  init(uri: String = "https://status.invalid/lists/1") throws {
    base = try CLIFixture(importMDL: false)
    self.uri = uri
    let cli = base.cli
    let pki = base.pki
    let now = pki.clock
    issuerKey = try ECPrivateKey(curve: .p256)
    issuerCert = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: issuerKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400),
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("issuer.example")]),
      ]
    ).issued(by: pki.iaca, signer: pki.iacaKey)
    let holder = try ECPrivateKey(curve: .p256)
    let sdJWT = try SDJWTIssuer.issue(
      claims: .object([
        ("given_name", "Erika"),
        ("status", StatusReference(index: 1, uri: uri).sdJWTStatusClaim),
      ]),
      selectivelyDisclosable: ["given_name"], holderKey: holder.publicKey,
      vct: "urn:eudi:pid:1", issuer: "https://issuer.example", issuedAt: now,
      expiresAt: now.addingTimeInterval(86_400), signer: issuerKey, x5c: [issuerCert],
      random: SecureRandom())
    let imported = try cli.run([
      "import", "--sd-jwt", try cli.file("pid.sdjwt", sdJWT.serialized), "--device-key",
      try cli.file("holder.pem", holder.pemRepresentation), "--id", "pid",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    let dcql = try cli.file(
      "dcql.json",
      #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}]}]}"#
    )
    let requestPath = cli.home + "-files/status-request.json"
    state = cli.home + "-files/status-state.json"
    let made = try cli.run([
      "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--dcql", dcql,
      "--response-mode", "dc_api", "--origin", "https://shop.example", "--out-request",
      requestPath, "--out-state", state,
    ])
    #expect(made.code == 0, "\(made.err)")
    let answered = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", requestPath,
    ])
    #expect(answered.code == 0, "\(answered.err)")
    response = try cli.file("status-response.json", answered.out)
  }

  /// A JWT status list token for `uri` whose entry 1 is `status`, signed by the PID issuer.
  func token(_ status: Status, subject: String? = nil) throws -> [UInt8] {
    var list = StatusList(bits: .two, count: 8)
    try list.setStatus(status, at: 1)
    return try StatusListToken(
      format: .jwt, subject: subject ?? uri, issuedAt: base.pki.clock.addingTimeInterval(-60),
      expiresAt: base.pki.clock.addingTimeInterval(3600), timeToLive: 60, statusList: list,
      certificateChain: [issuerCert.derBytes], signer: issuerKey
    ).encoded
  }

  func verifyArguments(_ extra: [String]) -> [String] {
    [
      "verifier", "verify", "--state", state, "--origin", "https://shop.example", "--response",
      response, "--sd-jwt-issuer-anchor", base.iacaPath,
    ] + extra
  }

  func verify(_ extra: [String]) throws -> DCWallet.Result {
    try base.cli.run(verifyArguments(extra))
  }
}

@Suite("dcwallet verifier verify with credential status", .serialized)
struct VerifierStatusBinaryTests {
  @Test("--status-list: valid passes and is reported; revoked and suspended fail naming the status")
  func offlineTokens() throws {
    let fixture = try StatusCLIFixture()
    let cli = fixture.base.cli
    let valid = try fixture.verify([
      "--status-list", try cli.file("valid.jwt", try fixture.token(.valid)),
    ])
    #expect(valid.code == 0, "\(valid.err)")
    #expect(valid.out.contains("ok  status of pid (urn:eudi:pid:1): valid (index 1 of "))
    let json = try fixture.verify([
      "--status-list", try cli.file("valid2.jwt", try fixture.token(.valid)), "--json",
    ])
    let parsed = try JSONValue(parsing: json.out)
    #expect(parsed["credentials"]?["pid"]?[0]?["status"]?["status"] == "valid")
    #expect(parsed["credentials"]?["pid"]?[0]?["status"]?["index"] == .integer(1))

    let revoked = try fixture.verify([
      "--status-list", try cli.file("revoked.jwt", try fixture.token(.invalid)),
    ])
    #expect(revoked.code == 1 && revoked.out.isEmpty)
    #expect(revoked.err.contains("invalid (revoked)"), "\(revoked.err)")
    let suspended = try fixture.verify([
      "--status-list", try cli.file("suspended.jwt", try fixture.token(.suspended)), "--json",
    ])
    #expect(suspended.code == 1 && suspended.out.isEmpty)
    #expect(suspended.err.contains("suspended"), "\(suspended.err)")
  }

  @Test("A token for another uri is not used: unknown, reported, exit 0")
  func subMismatchOffline() throws {
    let fixture = try StatusCLIFixture()
    let cli = fixture.base.cli
    let other = try fixture.verify([
      "--status-list",
      try cli.file("other.jwt", try fixture.token(.invalid, subject: "https://other.example/l")),
      "--json",
    ])
    #expect(other.code == 0, "\(other.err)")
    let parsed = try JSONValue(parsing: other.out)
    #expect(parsed["credentials"]?["pid"]?[0]?["status"]?["status"] == "unknown")
    #expect(parsed["credentials"]?["pid"]?[0]?["status"]?["reason"] == "unreachable")
  }

  @Test("--no-status-check skips the check (even for a revoked credential) and says so")
  func skipped() throws {
    let fixture = try StatusCLIFixture()
    let result = try fixture.verify(["--no-status-check"])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("status of pid (urn:eudi:pid:1): skipped"))
    let both = try fixture.verify([
      "--no-status-check", "--status-list",
      try fixture.base.cli.file("x.jwt", try fixture.token(.invalid)),
    ])
    #expect(both.code == 2)
  }

  @Test("By default the list is fetched from its uri over loopback; revoked fails")
  func fetched() async throws {
    let holder = TokenBox()
    let server = DevelopmentHTTPServer(handler: holder)
    let port = try server.start()
    defer { server.stop() }
    // Made on a thread of its own: the fixture runs the binary, and the server's handler needs
    // the cooperative threads.
    let fixture = try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result { try StatusCLIFixture(uri: "http://127.0.0.1:\(port)/lists/1") })
      }.start()
    }
    holder.set(try fixture.token(.invalid))
    let revoked = try await runDCWalletOffPool(fixture.base.cli, fixture.verifyArguments([]))
    #expect(revoked.code == 1)
    #expect(revoked.err.contains("invalid (revoked)"), "\(revoked.err)")
    holder.set(try fixture.token(.valid))
    let valid = try await runDCWalletOffPool(fixture.base.cli, fixture.verifyArguments([]))
    #expect(valid.code == 0, "\(valid.err)")
    #expect(valid.out.contains("valid (index 1 of http://127.0.0.1:\(port)/lists/1)"))
    // Unreachable: unknown, reported, not a failure.
    server.stop()
    let unreachable = try await runDCWalletOffPool(fixture.base.cli, fixture.verifyArguments([]))
    #expect(unreachable.code == 0, "\(unreachable.err)")
    #expect(unreachable.out.contains("status of pid (urn:eudi:pid:1): unknown"))
  }
}

/// Serves one token at any path.
final class TokenBox: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var token: [UInt8] = []

  func set(_ token: [UInt8]) { lock.withLock { self.token = token } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    HTTPResponse(status: 200, body: lock.withLock { token })
  }
}
