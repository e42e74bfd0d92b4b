#if os(Linux) || os(Android)
  import DCCrypto
  import Foundation
  import DCHTTP
  import DCHTTPServer
  import DCJSON
  import DCMdoc
  import DCSDJWT
  import DCStatusList
  import Testing
  import DCWalletTestSupport
  import DCX509

  @testable import DCWallet

  /// Serves one status list token from 127.0.0.1 and counts the fetches.
  final class StatusTokenServer: HTTPHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var status = 200
    private var served = 0
    private var server: DevelopmentHTTPServer?
    private(set) var uri = ""

    init() throws {
      let server = DevelopmentHTTPServer(handler: self)
      uri = "http://127.0.0.1:\(try server.start())/lists/7"
      self.server = server
    }

    func stop() { server?.stop() }

    func serve(_ bytes: [UInt8], status: Int = 200) {
      lock.withLock {
        body = bytes
        self.status = status
      }
    }

    var fetches: Int { lock.withLock { served } }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      lock.withLock {
        served += 1
        return HTTPResponse(status: status, body: body)
      }
    }
  }

  /// `dcwallet status`, the status in list and show, and respond's refusal, through the binary.
  @Suite("dcwallet status", .serialized)
  struct StatusBinaryTests {
    static let index = 3

    /// The CLI fixture (IACA trusted, `mdl` imported) plus `pid`, an SD-JWT VC whose status is
    /// index 3 of the served list, signed by an issuer certificate under the IACA.
    struct Setup {
      let fixture: CLIFixture
      let server: StatusTokenServer
      let issuerKey: ECPrivateKey
      let issuer: Certificate

      init() throws {
        fixture = try CLIFixture()
        server = try StatusTokenServer()
        let pki = fixture.pki
        issuerKey = try ECPrivateKey(curve: .p256)
        issuer = try CertificateBuilder(
          subject: DistinguishedName(commonName: "Status Issuer", country: "UT"),
          publicKey: issuerKey.publicKey, notBefore: pki.clock.addingTimeInterval(-3600),
          notAfter: pki.clock.addingTimeInterval(86_400),
          extensions: [
            .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("issuer.example")]),
          ]
        ).issued(by: pki.iaca, signer: pki.iacaKey)
        let holder = try ECPrivateKey(curve: .p256)
        let sdJWT = try SDJWTIssuer.issue(
          claims: [
            "given_name": "Erika",
            "status": [
              "status_list": ["idx": .integer(Int64(index)), "uri": .string(server.uri)]
            ],
          ],
          selectivelyDisclosable: ["given_name"], holderKey: holder.publicKey,
          vct: "urn:eudi:pid:1", issuer: "https://issuer.example", issuedAt: Date(),
          expiresAt: Date().addingTimeInterval(86_400), signer: issuerKey, x5c: [issuer],
          random: SecureRandom())
        let cli = fixture.cli
        let imported = try cli.run([
          "import", "--sd-jwt", try cli.file("pid.sdjwt", Array(sdJWT.serialized.utf8)),
          "--device-key", try cli.file("pid-key.pem", Array(holder.pemRepresentation.utf8)),
          "--id", "pid",
        ])
        #expect(imported.code == 0, "\(imported.err)")
      }

      var cli: DCWallet { fixture.cli }

      func done() { server.stop() }

      func serve(_ status: Status) throws {
        var list = StatusList(bits: .two, count: 8)
        try list.setStatus(status, at: StatusBinaryTests.index)
        server.serve(
          try StatusListToken(
            format: .jwt, subject: server.uri, issuedAt: Date().addingTimeInterval(-60),
            expiresAt: Date().addingTimeInterval(3600), timeToLive: 600, statusList: list,
            certificateChain: [issuer.derBytes], signer: issuerKey
          ).encoded)
      }

      /// `status pid --json --force`: exit code and the object printed.
      func status(_ extra: [String] = ["--force"]) throws -> (code: Int32, json: JSONValue?) {
        let result = try cli.run(["status", "pid", "--json"] + extra)
        return (result.code, try? JSONValue(parsing: result.out))
      }
    }

    @Test("status --json: one object per outcome, exit 0 for each, unknown with its reason")
    func statusJSON() throws {
      let setup = try Setup()
      defer { setup.done() }
      let cases: [(Status, JSONValue)] = [
        (.valid, "valid"), (.invalid, "invalid"), (.suspended, "suspended"),
        (.applicationSpecific(3), .integer(3)),
      ]
      for (status, expected) in cases {
        try setup.serve(status)
        let (code, json) = try setup.status()
        #expect(code == 0)
        #expect(json?["status"] == expected, "\(String(describing: json))")
        #expect(json?["id"]?.string == "pid" && json?["reason"] == nil)
        #expect(json?["cached"] == .bool(false))
      }
      // Unreachable: unknown with a reason, still exit 0.
      setup.server.serve([], status: 503)
      let (code, json) = try setup.status()
      #expect(code == 0)
      #expect(json?["status"]?.string == "unknown")
      #expect(json?["reason"]?.string == "unreachable")
      // A credential that references no list: unknown too.
      let mdl = try setup.cli.run(["status", "mdl", "--json"])
      #expect(mdl.code == 0)
      #expect(try JSONValue(parsing: mdl.out)["reason"]?.string == "not_referenced")
      // Usage errors and a missing credential are not outcomes.
      #expect(try setup.cli.run(["status"]).code == 2)
      let missing = try setup.cli.run(["status", "absent", "--json"])
      #expect(missing.code == 1 && missing.out.isEmpty && missing.err.contains("no credential"))
    }

    @Test("A fresh status is shown from the store; list and show show the last known status")
    func cachedAndListed() throws {
      let setup = try Setup()
      defer { setup.done() }
      // Nothing is fetched by list or show without --refresh-status.
      #expect(try setup.cli.run(["show", "pid"]).out.contains("status: never checked"))
      #expect(setup.server.fetches == 0)
      try setup.serve(.suspended)
      #expect(try setup.status([]).json?["status"]?.string == "suspended")
      try setup.serve(.valid)
      let again = try setup.status([])
      #expect(again.json?["status"]?.string == "suspended" && again.json?["cached"] == .bool(true))
      #expect(setup.server.fetches == 1)
      let list = try setup.cli.run(["list"])
      #expect(list.out.contains("[status: SUSPENDED]"), "\(list.out)")
      let show = try JSONValue(parsing: try setup.cli.run(["show", "pid", "--json"]).out)
      #expect(show["status"]?["status"]?.string == "suspended")
      let plain = try setup.cli.run(["status", "pid"])
      #expect(plain.code == 0 && plain.out.contains("pid: SUSPENDED"))
      // --refresh-status honours the fresh status too; --force fetches.
      _ = try setup.cli.run(["list", "--refresh-status"])
      #expect(setup.server.fetches == 1)
      #expect(try setup.status().json?["status"]?.string == "valid")
      #expect(setup.server.fetches == 2)
      let listed = try JSONValue(parsing: try setup.cli.run(["list", "--json"]).out)
      let pid = listed.array?.first { $0["id"]?.string == "pid" }
      #expect(pid?["status"]?["status"]?.string == "valid")
      // The mDL references no list: its refreshed status is unknown, with the reason.
      let mdl = listed.array?.first { $0["id"]?.string == "mdl" }
      #expect(mdl?["status"]?["status"]?.string == "unknown")
      #expect(mdl?["status"]?["reason"]?.string == "not_referenced")
    }

    @Test("respond refuses a credential whose last known status is invalid or suspended")
    func respondRefusal() async throws {
      let setup = try Setup()
      defer { setup.done() }
      let cli = setup.cli
      // Written with the wallet's key: a status written without it is not authenticated
      // (issue 32) and reads as unknown.
      let store = try Wallet(home: WalletHome(directory: cli.home)).store
      let (request, _) = try setup.fixture.request()
      func respond() throws -> DCWallet.Result {
        try cli.run(["respond", "--origin", "https://shop.example", "--request", request])
      }
      for (outcome, word) in [
        (CredentialStatusOutcome.invalid, "revoked"), (.suspended, "suspended"),
      ] {
        try await store.setLastKnownStatus(
          CredentialStatusRecord(outcome: outcome, checkedAt: Date()), forCredential: "mdl")
        let refused = try respond()
        #expect(refused.code == 1 && refused.out.isEmpty)
        #expect(refused.err.contains("mdl is \(word)"), "\(refused.err)")
      }
      // Unknown is presented.
      try await store.setLastKnownStatus(
        CredentialStatusRecord(
          outcome: .unknown(CredentialStatusUnknownReason(.unreachable)), checkedAt: Date()),
        forCredential: "mdl")
      let answered = try respond()
      #expect(answered.code == 0, "\(answered.err)")
    }

    @Test("--credential naming a revoked, suspended, unknown or unfit credential: which and why")
    func respondNamesTheChosenCredential() async throws {
      let setup = try Setup()
      defer { setup.done() }
      let cli = setup.cli
      // A second mDL answers the request, so it resolves; the holder then picks `mdl`.
      let device = try ECPrivateKey(curve: .p256)
      let mdoc = try setup.fixture.pki.issue(deviceKey: device.publicKey)
      let other = try cli.run([
        "import", "--mdoc", try cli.file("mdl2.cbor", mdoc.bytes), "--device-key",
        try cli.file("device2.pem", device.pemRepresentation), "--id", "mdl2",
      ])
      #expect(other.code == 0, "\(other.err)")
      let store = try Wallet(home: WalletHome(directory: cli.home)).store
      let (request, _) = try setup.fixture.request()
      func respond(_ id: String) throws -> DCWallet.Result {
        try cli.run([
          "respond", "--origin", "https://shop.example", "--request", request, "--credential", id,
        ])
      }
      let checked = Date(timeIntervalSince1970: 1_780_000_000)
      for (outcome, words) in [
        (CredentialStatusOutcome.invalid, "revoked: its status list said INVALID"),
        (.suspended, "suspended: its status list said SUSPENDED"),
      ] {
        try await store.setLastKnownStatus(
          CredentialStatusRecord(outcome: outcome, checkedAt: checked), forCredential: "mdl")
        let refused = try respond("mdl")
        #expect(refused.code == 1 && refused.out.isEmpty)
        #expect(
          refused.err
            == "dcwallet respond: credential mdl is \(words) when checked at "
            + "2026-05-28T20:26:40Z; it is not presented\n")
      }
      let unknown = try respond("nosuch")
      #expect(unknown.err == "dcwallet respond: no credential nosuch (see 'dcwallet list')\n")
      let unfit = try respond("pid")
      #expect(
        unfit.err
          == "dcwallet respond: credential pid (urn:eudi:pid:1) does not answer this request, "
          + "which asks for org.iso.18013.5.1.mDL\n")
      #expect(try respond("mdl2").code == 0)
      // A requested element the chosen credential does not hold.
      let (lacking, _) = try setup.fixture.request(elements: ["age_over_18", "document_number"])
      let notHeld = try cli.run([
        "respond", "--origin", "https://shop.example", "--request", lacking, "--credential",
        "mdl2", "--disclose", "org.iso.18013.5.1/document_number",
      ])
      #expect(
        notHeld.err
          == "dcwallet respond: mdl2 holds none of the claims given with --disclose "
          + "(org.iso.18013.5.1/document_number)\n")
    }
  }
#endif
