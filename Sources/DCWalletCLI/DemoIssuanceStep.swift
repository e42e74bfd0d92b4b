import DCAPI
import DCHTTP
import DCIssuer
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCOrgIsoMdoc
import DCVerifier
import DCWallet
import Foundation

#if os(Linux)
  import DCHTTPServer
#endif

extension DemoCommand {
  /// Steps 14 and 15: OpenID4VCI over loopback HTTP. The development issuer (the handlers
  /// `dcwallet issuer serve` runs, SQLite state) listens on 127.0.0.1 and an ephemeral port; a
  /// second wallet takes a pre-authorized offer with a transaction code, gets a batch of three
  /// mDLs (three device keys), verifies and stores them, then presents twice: each presentation
  /// uses another credential of the batch.
  static func runIssuance(
    _ pki: PKI, origin: WebOrigin, directory: String, _ narrator: Narrator
  ) async throws {
    #if os(Linux)
      narrator.step(
        "14. OpenID4VCI over loopback HTTP: a pre-authorized offer with a transaction code")
      let issuerDirectory = directory + "/issuer"
      try FileManager.default.createDirectory(
        atPath: issuerDirectory, withIntermediateDirectories: true)
      let loopback = try LoopbackServer(what: "the demo issuer")
      let (server, router, port) = (loopback.server, loopback.router, loopback.port)
      defer { server.stop() }
      let url = "http://127.0.0.1:\(port)"
      let service = try demoIssuerService(pki, url: url, directory: issuerDirectory)
      router.set(IssuerHTTPHandler(service: service))
      let wallet = try await issueBatch(pki, service: service, url: url, directory, narrator)

      narrator.step("15. Two presentations of the batch: each uses another credential")
      var used: [String] = []
      for round in 1...2 {
        let presented = try await presentOnce(from: wallet, pki, origin: origin)
        narrator.say("presentation \(round): \(presented.joined(separator: ", ")) (verified)")
        used += presented
      }
      guard used.count == 2, Set(used).count == 2 else {
        throw CommandFailure("the batch's presentations did not use two credentials: \(used)")
      }
    #else
      narrator.step("14. OpenID4VCI over loopback HTTP: skipped (needs libmicrohttpd, Linux)")
    #endif
  }

  #if os(Linux)
    /// The development issuer at `url`, with batches of up to 10 and SQLite state in
    /// `directory`.
    private static func demoIssuerService(_ pki: PKI, url: String, directory: String) throws
      -> CredentialIssuerService
    {
      var settings = DevelopmentIssuerSettings()
      settings.batchSize = 10
      return CredentialIssuerService(
        configuration: try DevelopmentIssuerCatalog.configuration(
          identifier: try IssuerIdentifier(url, policy: .development),
          pki: DevelopmentIssuer(
            iacaKey: pki.iacaKey, iaca: pki.iaca, dsKey: pki.dsKey, ds: pki.ds),
          settings: settings),
        store: try SQLiteIssuerStateStore(path: directory + "/state.sqlite"))
    }

    /// Step 14: a second wallet takes a pre-authorized offer with a transaction code and stores
    /// a verified batch of three mDLs.
    private static func issueBatch(
      _ pki: PKI, service: CredentialIssuerService, url: String, _ directory: String,
      _ narrator: Narrator
    ) async throws -> Wallet {
      let say = narrator.say
      let created = try service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
      say("issuer \(url) (libmicrohttpd on 127.0.0.1)")
      say("offer \(created.uri.prefix(90))...")
      say("transaction code (sent to the holder another way): \(created.transactionCode ?? "-")")

      let wallet = try Wallet(
        home: WalletHome(directory: directory + "/wallet2"), documentTitles: MdocDisplay.titles)
      _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
      _ = try await wallet.addTrustAnchor(pki.readerRoot, role: .reader)
      let issuance = WalletIssuance(wallet: wallet, client: IssueCommand.client(development: true))
      let result: WalletIssuanceResult
      do {
        result = try await issuance.issuePreAuthorized(
          offer: created.offer, txCode: created.transactionCode,
          options: IssuanceClient.Options(batchSize: 3))
      } catch {
        throw CommandFailure("issuance failed: \(error.reason)")
      }
      guard result.isComplete, result.stored.count == 3 else {
        throw CommandFailure(
          "issuance stored \(result.stored.count) of 3: \(result.failed.map(\.reason))")
      }
      say("token with DPoP, c_nonce, one credential request with 3 proofs by 3 device keys")
      for credential in result.stored {
        say("verified and stored \(credential.id) (\(credential.type), batch)")
      }
      say(
        "the issuer was told credential_accepted: \(try service.receivedNotifications().map(\.event.rawValue))"
      )
      return wallet
    }

    /// Step 15: one verified Annex C presentation of `age_over_18`; returns the ids of the
    /// credentials it used.
    private static func presentOnce(from wallet: Wallet, _ pki: PKI, origin: WebOrigin)
      async throws -> [String]
    {
      let state = try AnnexCVerifier.makeRequest(
        itemsRequests: [
          ItemsRequest(
            docType: DevelopmentIssuerCatalog.mdlDoctype,
            nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
        ], origin: origin, reader: .init(signer: pki.readerKey, chain: [pki.reader]))
      let page = mdocRequestPage(state.request.data)
      let before = Dictionary(
        uniqueKeysWithValues: try await wallet.credentials().map { ($0.id, $0.presentationCount) }
      )
      let request = try await wallet.resolve(
        RequestEnvelope(json: page), origin: origin.serialized,
        policy: WalletPolicy(requireAuthenticatedRequester: true))
      let response = try await wallet.respond(to: request, consent: try request.proposedConsent())
      _ = try AnnexCVerifier.verify(
        responseData: response.data, state: state, issuerTrustAnchors: [pki.iaca], now: Date())
      return try await wallet.credentials().filter {
        $0.presentationCount > (before[$0.id] ?? 0)
      }.map(\.id)
    }
  #endif
}
