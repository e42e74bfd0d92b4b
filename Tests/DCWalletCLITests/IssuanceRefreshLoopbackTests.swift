import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCWallet
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// Issue 13's gaps over real loopback HTTP: re-issuance with the refresh token (library and
  /// `dcwallet issue --refresh`), the offer's tx_code shape, and a bounded invalid_nonce retry.
  @Suite("Issuance refresh and retries over loopback HTTP", .timeLimit(.minutes(1)))
  struct IssuanceRefreshLoopbackTests {
    /// Answers the first `refusals` credential requests with `invalid_nonce`.
    final class NonceRefuser: HTTPHandler, @unchecked Sendable {
      let inner: any HTTPHandler
      let refusals: Int
      private let lock = NSLock()
      private(set) var credentialRequests = 0

      init(_ inner: any HTTPHandler, refusals: Int) {
        self.inner = inner
        self.refusals = refusals
      }

      func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.url.path == "/credential" {
          let count = lock.withLock {
            credentialRequests += 1
            return credentialRequests
          }
          if count <= refusals {
            return HTTPResponse(
              status: 400, headers: ["Content-Type": "application/json"],
              body: Array(#"{"error": "invalid_nonce"}"#.utf8))
          }
        }
        return await inner.handle(request)
      }
    }

    @Test("reissue: the refresh grant over HTTP stores a new credential, then removes the old")
    func reissueLibrary() async throws {
      var settings = DevelopmentIssuerSettings()
      settings.autoApprove = true
      let issuer = try LoopbackIssuer(settings: settings)
      let issuance = try issuer.wallet()
      let offer = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .authorizationCode)
      let pending = try await issuance.beginAuthorization(offer: offer.offer)
      #expect(pending.authorizationURL.query?.contains("request_uri") == true)
      let first = try await issuance.completeAuthorization(
        pending, redirect: try await followAuthorizationRedirect(pending.authorizationURL),
        storage: WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true))
      let old = try #require(first.stored.first)
      // The opt-in recorded with the old credential carries over.
      let renewed = try await issuance.reissue(credentialID: old.id)
      #expect(renewed.failed.isEmpty, "\(renewed.failed.map(\.reason))")
      let new = try #require(renewed.stored.first)
      #expect(renewed.replaced == [old.id])
      #expect(new.issuance?.trustBasis == .issuerPublishedIACA)
      #expect(try await issuance.wallet.credentials().map(\.id) == [new.id])
      #expect(renewed.notificationFailures.isEmpty, "\(renewed.notificationFailures)")
      #expect(try issuer.events() == [.credentialAccepted, .credentialAccepted])
      // The new credential's removal notifies with the refreshed session's token.
      let removed = try await issuance.removeCredential(id: new.id)
      if case .failure(let error) = removed { Issue.record("not notified: \(error.reason)") }
      #expect(try issuer.events().last == .credentialDeleted)
    }

    @Test("issue --refresh ID: same output contract; unknown ids and missing refresh tokens fail")
    func reissueCLI() async throws {
      let home = try IssuerWalletHome(issuerConfig: #"{"auto_approve": true}"#)
      let (cli, config, issuer) = (home.cli, home.config, home.issuer)
      let browser = try cli.file(
        "browser.sh",
        """
        #!/bin/sh
        curl -s -o /dev/null -w '%{redirect_url}' "$1"
        echo
        """)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser)
      let offer = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL"])
      let uri = try #require(offer.out.split(separator: "\n").first.map(String.init))
      let issued = try await runDCWalletOffPool(
        cli, ["issue", uri, "--browser", browser, "--trust-issuer-iacas", "--id", "licence"])
      #expect(issued.code == 0, "\(issued.err)")

      let json = try await runDCWalletOffPool(cli, ["issue", "--refresh", "licence", "--json"])
      #expect(json.code == 0, "\(json.err)")
      let object = try JSONValue(parsing: Array(json.out.utf8))
      let credentials = object["credentials"]?.array ?? []
      #expect(credentials.count == 1)
      #expect(credentials.first?["configuration"]?.string == "mDL")
      #expect(credentials.first?["doctype"]?.string == "org.iso.18013.5.1.mDL")
      #expect(object["deferred"]?.array?.isEmpty == true)
      #expect(object["failed"]?.array?.isEmpty == true)
      let newID = try #require(credentials.first?["id"]?.string)
      #expect(json.err.contains("replaced licence"))
      let list = try await runDCWalletOffPool(cli, ["list", "--json"])
      #expect(
        try JSONValue(parsing: Array(list.out.utf8)).array?.compactMap { $0["id"]?.string }
          == [newID])

      // Plain: one line per stored credential, with its id.
      let plain = try await runDCWalletOffPool(cli, ["issue", "--refresh", newID])
      #expect(plain.code == 0, "\(plain.err)")
      let lines = plain.out.split(separator: "\n")
      #expect(lines.count == 1)
      #expect(lines.first?.contains(newID) == false)

      let unknown = try await runDCWalletOffPool(cli, ["issue", "--refresh", "nope", "--json"])
      #expect(unknown.code == 1)
      #expect(unknown.err.contains("no credential nope"))
      let unknownJSON = try JSONValue(parsing: Array(unknown.out.utf8))
      #expect(unknownJSON["credentials"]?.array?.isEmpty == true)
      #expect(unknownJSON["failed"]?.array?.count == 1)

      // A pre-authorized credential has no refresh token.
      let pre = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL", "--pre-authorized"])
      let preURI = try #require(pre.out.split(separator: "\n").first.map(String.init))
      let preIssued = try await runDCWalletOffPool(
        cli, ["issue", preURI, "--trust-issuer-iacas", "--id", "pre"])
      #expect(preIssued.code == 0, "\(preIssued.err)")
      let noRefresh = try await runDCWalletOffPool(cli, ["issue", "--refresh", "pre"])
      #expect(noRefresh.code == 1)
      #expect(noRefresh.out.isEmpty)
      #expect(noRefresh.err.contains("no refresh token"))
      #expect(try await runDCWalletOffPool(cli, ["issue", "--refresh", "pre", "x"]).code == 2)
      #expect(
        try await runDCWalletOffPool(cli, ["issue", "--refresh", "pre", "--tx-code", "1"]).code
          == 2)
      #expect(
        try await runDCWalletOffPool(cli, ["issue", "--deferred", "--refresh", "pre"]).code == 2)
      _ = issuer
    }

    @Test("a tx_code that does not fit the offer is refused before sending; the CLI says why")
    func txCodeShape() async throws {
      let home = try IssuerWalletHome(issuerConfig: "{}")
      let (cli, config, issuer) = (home.cli, home.config, home.issuer)
      let offer = try await runDCWalletOffPool(
        cli,
        [
          "issuer", "offer", "--config", config, "--configuration", "mDL", "--pre-authorized",
          "--tx-code",
        ])
      let lines = offer.out.split(separator: "\n").map(String.init)
      let code = try #require(lines.last)
      for wrong in ["12ab56", String(code.dropLast())] {
        let result = try await runDCWalletOffPool(cli, ["issue", lines[0], "--tx-code", wrong])
        #expect(result.code == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("transaction code (tx_code)"), "\(result.err)")
        #expect(result.err.contains("expected 6 digits"), "\(result.err)")
      }
      // Nothing reached the issuer: the right code still works (no attempt was spent).
      let right = try await runDCWalletOffPool(
        cli, ["issue", lines[0], "--tx-code", code, "--trust-issuer-iacas"])
      #expect(right.code == 0, "\(right.err)")
      _ = issuer
    }

    @Test("invalid_nonce over HTTP: one retry with a fresh c_nonce, and no more")
    func invalidNonceRetry() async throws {
      for (refusals, stores) in [(1, true), (3, false)] {
        var refuser: NonceRefuser?
        let issuer = try LoopbackIssuer(wrap: { inner in
          let handler = NonceRefuser(inner, refusals: refusals)
          refuser = handler
          return handler
        })
        let issuance = try issuer.wallet()
        let created = try issuer.service.createOffer(
          configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
        let result = try await issuance.issuePreAuthorized(
          offer: created.offer, txCode: nil,
          storage: WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true))
        #expect(result.stored.count == (stores ? 1 : 0), "\(result.failed.map(\.reason))")
        #expect(refuser?.credentialRequests == 2)
        if !stores {
          #expect(result.failed.first?.reason.contains("invalid_nonce") == true)
        }
      }
    }
  }
#endif
