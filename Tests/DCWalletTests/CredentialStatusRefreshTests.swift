#if os(Linux) || os(Android)
  import DCWallet
  import DCCrypto
  import DCWalletFixtureTestSupport
  import Foundation
  import DCHTTP
  import DCHTTPServer
  import DCJSON
  import DCSDJWT
  import DCStatusList
  import Testing
  import DCWalletTestSupport
  import DCX509

  /// `Wallet.refreshStatus` against a list served on 127.0.0.1, built with StatusList's builder.
  @Suite("Credential status refresh", .serialized)
  struct CredentialStatusRefreshTests {
    static let index = 5

    /// The fixture's wallet, with `pid-status` referencing index 5 of the served list.
    struct Setup {
      let fixture: ConsentFixture
      let server: StatusListServer
      let wallet: Wallet

      init() async throws {
        fixture = try await ConsentFixture()
        server = try StatusListServer()
        wallet = try fixture.wallet()
        let holder = try ECPrivateKey(curve: .p256)
        let sdJWT = try SDJWTIssuer.issue(
          claims: [
            "given_name": "Erika",
            "status": ["status_list": ["idx": .integer(Int64(index)), "uri": .string(server.uri)]],
          ],
          selectivelyDisclosable: ["given_name"], holderKey: holder.publicKey,
          vct: ConsentFixture.pidType, issuer: "https://issuer.example",
          issuedAt: fixture.now.addingTimeInterval(-3600),
          expiresAt: fixture.now.addingTimeInterval(86_400), signer: fixture.sdJWTIssuerKey,
          x5c: [fixture.sdJWTIssuer], random: SecureRandom())
        _ = try await wallet.importSDJWT(sdJWT.serialized, deviceKey: holder, id: "pid-status")
      }

      func done() {
        server.stop()
        fixture.dir.remove()
      }

      /// A token for the served URI with `status` at the credential's index, signed by the
      /// credential's own issuer certificate (under the trusted IACA) unless told otherwise.
      func token(
        _ status: Status, count: Int = 16, ttl: Int? = 600, expiresIn: TimeInterval = 3600,
        subject: String? = nil, signer: (key: ECPrivateKey, chain: [Certificate])? = nil
      ) throws -> [UInt8] {
        var list = StatusList(bits: .two, count: count)
        if index < count { try list.setStatus(status, at: index) }
        let signing = signer ?? (fixture.sdJWTIssuerKey, [fixture.sdJWTIssuer])
        return try StatusListToken(
          format: .jwt, subject: subject ?? server.uri,
          issuedAt: fixture.now.addingTimeInterval(-60),
          expiresAt: fixture.now.addingTimeInterval(expiresIn), timeToLive: ttl,
          statusList: list, certificateChain: signing.chain.map(\.derBytes),
          signer: signing.key
        ).encoded
      }

      /// A new checker (the checker caches verified tokens itself).
      func checker() async throws -> StatusListChecker {
        try await wallet.statusListChecker(
          httpClient: URLSessionHTTPClient(
            configuration: URLSessionHTTPClient.Configuration(policy: .development)),
          urlPolicy: .development)
      }

      func refresh(force: Bool = false) async throws -> CredentialStatusRecord {
        try await wallet.refreshStatus(
          credentialID: "pid-status", checker: try await checker(), force: force)
      }
    }

    @Test(arguments: [
      (Status.valid, CredentialStatusOutcome.valid), (.invalid, .invalid),
      (.suspended, .suspended), (.applicationSpecific(3), .applicationSpecific(3)),
    ])
    func eachStatusIsReadAndStored(status: Status, outcome: CredentialStatusOutcome) async throws {
      let setup = try await Setup()
      defer { setup.done() }
      #expect(try await setup.wallet.lastKnownStatus(credentialID: "pid-status") == nil)
      setup.server.serve(try setup.token(status))
      let record = try await setup.refresh()
      #expect(record.outcome == outcome)
      #expect(record.checkedAt == setup.fixture.now)
      // Fresh until the earlier of exp and ttl from now.
      #expect(record.freshUntil == setup.fixture.now.addingTimeInterval(600))
      #expect(try await setup.wallet.lastKnownStatus(credentialID: "pid-status") == record)
      #expect(setup.server.fetches == 1)
    }

    @Test func aFreshStatusIsNotFetchedAgainUnlessForced() async throws {
      let setup = try await Setup()
      defer { setup.done() }
      setup.server.serve(try setup.token(.valid, ttl: 300, expiresIn: 3600))
      #expect(try await setup.refresh().outcome == .valid)
      // Revoked meanwhile: within the ttl the stored status stands and nothing is fetched.
      setup.server.serve(try setup.token(.invalid, ttl: 300))
      #expect(try await setup.refresh().outcome == .valid)
      #expect(setup.server.fetches == 1)
      #expect(try await setup.refresh(force: true).outcome == .invalid)
      #expect(setup.server.fetches == 2)
      // Past the ttl the list is fetched again.
      let later = try setup.fixture.wallet(at: setup.fixture.now.addingTimeInterval(301))
      setup.server.serve(try setup.token(.suspended, expiresIn: 3600))
      let record = try await later.refreshStatus(
        credentialID: "pid-status", checker: try await setup.checker())
      #expect(setup.server.fetches == 3)
      #expect(record.outcome == .suspended)
    }

    @Test func whatCannotBeLearnedIsUnknownNeverRevoked() async throws {
      let setup = try await Setup()
      defer { setup.done() }
      func reason() async throws -> CredentialStatusUnknownReason.Code? {
        guard case .unknown(let why) = try await setup.refresh().outcome else { return nil }
        return why.code
      }
      setup.server.serve([], status: 500)
      #expect(try await reason() == .unreachable)
      setup.server.serve(try setup.token(.invalid, count: 4))
      #expect(try await reason() == .indexOutOfRange)
      setup.server.serve(try setup.token(.invalid, subject: "https://other.example/lists/1"))
      #expect(try await reason() == .subjectMismatch)
      // Signed under another issuer's root: not trusted.
      let strangerKey = try ECPrivateKey(curve: .p256)
      let stranger = try CertificateBuilder(
        subject: DistinguishedName(commonName: "Stranger", country: "UT"),
        publicKey: strangerKey.publicKey,
        notBefore: setup.fixture.now.addingTimeInterval(-3600),
        notAfter: setup.fixture.now.addingTimeInterval(86_400),
        extensions: [.keyUsage(.digitalSignature)]
      ).selfSigned(signer: strangerKey)
      setup.server.serve(try setup.token(.invalid, signer: (strangerKey, [stranger])))
      #expect(try await reason() == .untrusted)
      setup.server.serve(Array("not a token".utf8))
      #expect(try await reason() == .malformed)
      // Every unknown was stored, and an unknown status is fetched again each time.
      #expect(setup.server.fetches == 5)
      let stored = try await setup.wallet.lastKnownStatus(credentialID: "pid-status")
      #expect(stored?.outcome.statusValue == nil && stored?.freshUntil == nil)
      // A credential with no status claim, and an mdoc whose MSO has none: not referenced.
      for id in ["pid-sdjwt", "mdl"] {
        let record = try await setup.wallet.refreshStatus(
          credentialID: id, checker: try await setup.checker())
        guard case .unknown(let why) = record.outcome else {
          Issue.record("\(id): \(record.outcome)")
          continue
        }
        #expect(why.code == .notReferenced)
      }
      let notFoundError = await #expect(throws: WalletError.self) {
        try await setup.wallet.refreshStatus(
          credentialID: "absent", checker: try await setup.checker())
      }
      #expect(notFoundError?.code == .notFound)
    }
  }
#endif
