#if os(Linux) || os(Android)
  import DCCBOR
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

  /// `Wallet.refreshStatus` for an mdoc whose MSO `status` (written by `MdocIssuer`) references a
  /// `statuslist+cwt` served by `DevelopmentHTTPServer` on 127.0.0.1, then the respond policy.
  @Suite("mdoc status refresh, end to end", .serialized)
  struct MdocStatusRefreshTests {
    static let index = 3

    @Test("valid, then suspended: the stored status refuses the mdoc on resolve (Annex C)")
    func validThenSuspended() async throws {
      let fixture = try await InPersonFixture()
      let server = try StatusListServer()
      defer {
        server.stop()
        fixture.dir.remove()
      }
      let now = fixture.pki.clock
      func token(_ status: Status) throws -> [UInt8] {
        var list = StatusList(bits: .two, count: 8)
        try list.setStatus(status, at: Self.index)
        // Signed by the document signer, under the wallet's trusted IACA; COSE_Sign1 (CWT).
        return try StatusListToken(
          format: .cwt, subject: server.uri, issuedAt: now.addingTimeInterval(-60),
          expiresAt: now.addingTimeInterval(3600), timeToLive: 300, statusList: list,
          certificateChain: [fixture.pki.documentSigner.derBytes], signer: fixture.pki.dsKey
        ).encoded
      }
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
        status: StatusReference(index: Self.index, uri: server.uri).msoStatus)
      _ = try await wallet.importMdoc(issued.bytes, deviceKey: fixture.mdlKey, id: "mdl-status")
      let checker = {
        try await wallet.statusListChecker(
          httpClient: URLSessionHTTPClient(
            configuration: URLSessionHTTPClient.Configuration(policy: .development)),
          urlPolicy: .development)
      }

      server.serve(try token(.valid))
      let valid = try await wallet.refreshStatus(
        credentialID: "mdl-status", checker: try await checker())
      #expect(valid.outcome == .valid)
      #expect(server.fetches == 1)
      let offered = try await CredentialStatusPolicyTests.annexC(wallet)
      #expect(offered.documents.first?.candidateIDs == ["mdl-status"])
      _ = try await wallet.respond(to: offered, consent: try offered.proposedConsent())

      server.serve(try token(.suspended))
      let suspended = try await wallet.refreshStatus(
        credentialID: "mdl-status", checker: try await checker(), force: true)
      #expect(suspended.outcome == .suspended)
      #expect(server.fetches == 2)
      #expect(try await wallet.lastKnownStatus(credentialID: "mdl-status") == suspended)
      do {
        _ = try await CredentialStatusPolicyTests.annexC(wallet)
        Issue.record("a suspended mdoc was offered")
      } catch let error as WalletError {
        #expect(error.refusals.map(\.code) == [.credentialSuspended])
        #expect(error.reason.contains("mdl-status is suspended"), "\(error.reason)")
      }
    }
  }
#endif
