#if os(Linux) || os(Android)
  import DCCBOR
  import DCVerifier
  import DCWallet
  import DCCrypto
  import DCWalletFixtureTestSupport
  import Foundation
  import DCHTTP
  import DCMdoc
  import DCStatusList
  import Testing
  import DCWalletTestSupport
  import DCX509

  /// `InPersonReader` with a status check: a whole session over loopback TCP whose mDL's MSO
  /// references a CWT status list served by `DevelopmentHTTPServer` on 127.0.0.1.
  @Suite("In person: the reader checks the mdoc's status list", .serialized)
  struct InPersonStatusTests {
    /// Entry statuses of the served list: 0 valid, 1 invalid (revoked), 2 suspended.
    static let statuses: [Status] = [.valid, .invalid, .suspended]

    /// The fixture's wallet holding only an mDL whose MSO references `index` of the server's list,
    /// the list served as a CWT signed by the document signer, and a session to it.
    struct Setup {
      let fixture: InPersonFixture
      let server: StatusListServer
      let pair: LoopbackSessionPair

      init(index: Int) async throws {
        fixture = try await InPersonFixture()
        server = try StatusListServer()
        var list = StatusList(bits: .two, count: InPersonStatusTests.statuses.count)
        for (entry, status) in InPersonStatusTests.statuses.enumerated() {
          try list.setStatus(status, at: entry)
        }
        let now = fixture.pki.clock
        server.serve(
          try StatusListToken(
            format: .cwt, subject: server.uri, issuedAt: now.addingTimeInterval(-60),
            expiresAt: now.addingTimeInterval(3600), timeToLive: 300, statusList: list,
            certificateChain: [fixture.pki.documentSigner.derBytes], signer: fixture.pki.dsKey
          ).encoded)
        let wallet = try fixture.wallet()
        _ = try await wallet.removeCredential(id: "mdl")
        let issued = try MdocIssuer(
          signer: fixture.pki.dsKey, certificateChain: [fixture.pki.documentSigner]
        ).issue(
          docType: InPersonFixture.mdlType,
          nameSpaces: [("org.iso.18013.5.1", [("age_over_18", true)])],
          deviceKey: fixture.mdlKey.publicKey,
          validity: ValidityInfo(
            signed: now.addingTimeInterval(-3600), validFrom: now.addingTimeInterval(-3600),
            validUntil: now.addingTimeInterval(86_400)),
          status: StatusReference(index: index, uri: server.uri).msoStatus)
        _ = try await wallet.importMdoc(issued.bytes, deviceKey: fixture.mdlKey, id: "mdl-status")
        pair = try await LoopbackSessionPair.start(wallet: wallet, consent: share(["age_over_18"]))
      }

      /// Requests age_over_18 with the status checked by fetching the list.
      func request() async throws(InPersonReaderError) -> ProximityReader.Result {
        try await pair.reader.request(
          [InPersonSessionTests.ageOnly], issuerTrustAnchors: [fixture.pki.iaca],
          now: fixture.pki.clock,
          status: .fetching(
            httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
            urlPolicy: .development))
      }

      func finish() async {
        await pair.reader.terminate()
        _ = await pair.holder.value
        server.stop()
        fixture.dir.remove()
      }
    }

    @Test("valid: the report ends with the status check naming the list and the index")
    func valid() async throws {
      let setup = try await Setup(index: 0)
      let result = try await setup.request()
      await setup.finish()
      #expect(
        result.report.checks.last
          == .credentialStatus(
            credential: InPersonFixture.mdlType, outcome: .valid(uri: setup.server.uri, index: 0)))
    }

    @Test(
      "revoked (invalid) and suspended fail the verification, naming the status",
      arguments: [
        (1, "invalid (revoked)"), (2, "suspended"),
      ])
    func revoked(index: Int, words: String) async throws {
      let setup = try await Setup(index: index)
      var failure: InPersonReaderError?
      do {
        _ = try await setup.request()
      } catch {
        failure = error
      }
      await setup.finish()
      #expect(failure?.code == .verificationFailed)
      #expect(failure?.reason.contains("status \(words)") == true, "\(String(describing: failure))")
    }

    @Test("unreachable list: unknown (never revoked), and the verification passes by default")
    func unreachable() async throws {
      let setup = try await Setup(index: 1)
      setup.server.serve([], status: 503)
      let result = try await setup.request()
      await setup.finish()
      guard case .credentialStatus(_, .unknown(_, let reason, _))? = result.report.checks.last
      else {
        Issue.record("no unknown status check: \(result.report.checks)")
        return
      }
      #expect(reason == .unreachable)
    }

    @Test("without a status checker the report has no status check (as before)")
    func noChecker() async throws {
      let setup = try await Setup(index: 1)
      let result = try await setup.pair.reader.request(
        [InPersonSessionTests.ageOnly], issuerTrustAnchors: [setup.fixture.pki.iaca],
        now: setup.fixture.pki.clock)
      await setup.finish()
      #expect(
        !result.report.checks.contains {
          if case .credentialStatus = $0 { true } else { false }
        })
    }
  }
#endif
