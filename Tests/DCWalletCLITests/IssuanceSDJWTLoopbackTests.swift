import DCCrypto
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCWallet
import DCX509
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// SD-JWT VC issuance from the development issuer over loopback HTTP: its SD-JWT VC leaf names
  /// the issuer URL, which the wallet's key discovery demands (SD-JWT VC §3.5).
  @Suite("SD-JWT VC issuance over loopback HTTP", .timeLimit(.minutes(1)))
  struct IssuanceSDJWTLoopbackTests {
    @Test("the development issuer's SD-JWT VC leaf names its URL as a URI SAN")
    func leafNamesIssuerURL() throws {
      let issuer = try LoopbackIssuer()
      let signing = try #require(issuer.service.configuration.sdJWTSigning)
      let leaf = try #require(signing.certificateChain.first)
      #expect(leaf.subjectAlternativeNames == [.uri(issuer.url)])
      #expect(leaf.issuer == issuer.pki.iaca.subject)
      #expect(issuer.service.configuration.certificateChain == [issuer.pki.ds])
    }

    @Test("a pid SD-JWT VC is verified and stored over real HTTP under the wallet's anchor")
    func storesSDJWTVC() async throws {
      let issuer = try LoopbackIssuer()
      let issuance = try issuer.wallet()
      _ = try await issuance.wallet.addTrustAnchor(issuer.pki.iaca, role: .issuer)
      let created = try issuer.service.createOffer(
        configurationIDs: ["pid"], grant: .preAuthorized(transactionCode: false))
      let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      #expect(result.stored.map(\.format) == [.sdJWT])
      #expect(result.stored.first?.issuance?.trustBasis == .walletAnchor)
      #expect(try await issuance.wallet.credentials().count == 1)
      #expect(try issuer.events() == [.credentialAccepted])
    }

    @Test(
      "an SD-JWT VC signed by a leaf without the issuer URL SAN is refused",
      arguments: [false, true])
    func leafWithoutSANRefused(otherSAN: Bool) async throws {
      let issuer = try LoopbackIssuer { configuration, pki in
        if otherSAN {
          // A leaf of the same IACA vouching for another issuer URL.
          let other = try pki.sdJWTIssuerIdentity(for: "http://127.0.0.1:1")
          configuration.sdJWTSigning = IssuerSigningIdentity(
            signer: other.key, certificateChain: [other.certificate])
        } else {
          // The mdoc document signer (no SAN), as before the fix.
          configuration.sdJWTSigning = nil
        }
      }
      let issuance = try issuer.wallet()
      _ = try await issuance.wallet.addTrustAnchor(issuer.pki.iaca, role: .issuer)
      let created = try issuer.service.createOffer(
        configurationIDs: ["pid"], grant: .preAuthorized(transactionCode: false))
      let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
      #expect(result.stored.isEmpty)
      #expect(result.failed.map(\.configurationID) == ["pid"])
      if case .rejected(let rejection) = result.failed.first?.cause {
        #expect(rejection.code == .untrustedIssuer)
        #expect(rejection.reason.contains("does not vouch for iss"), "\(rejection.reason)")
      } else {
        Issue.record("expected a verification refusal, got \(result.failed.map(\.reason))")
      }
      #expect(try await issuance.wallet.credentials().isEmpty)
      #expect(try issuer.events() == [.credentialFailure])
    }

    @Test("issue --browser CMD runs a script that fetches the authorization URL with curl")
    func issueWithBrowserScript() async throws {
      let home = try IssuerWalletHome(issuerConfig: #"{"auto_approve": true}"#)
      let (cli, config, issuer) = (home.cli, home.config, home.issuer)
      let browser = try cli.file(
        "browser.sh",
        """
        #!/bin/sh
        # The authorization URL is the only argument; the issuer auto-approves and redirects.
        echo "opening $1"
        curl -s -o /dev/null -w '%{redirect_url}' "$1"
        echo
        """)
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: browser)
      let offer = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL"])
      #expect(offer.code == 0, "\(offer.err)")
      let uri = try #require(offer.out.split(separator: "\n").first.map(String.init))
      let result = try await runDCWalletOffPool(
        cli, ["issue", uri, "--browser", browser, "--trust-issuer-iacas", "--json"])
      #expect(result.code == 0, "\(result.err)")
      let json = try JSONValue(parsing: Array(result.out.utf8))
      #expect(json["credentials"]?.array?.count == 1)
      #expect(json["credentials"]?.array?.first?["format"]?.string == "mso_mdoc")
      #expect(try issuer.events() == [.credentialAccepted])
    }

    @Test("issue --json without --browser: the authorization URL goes to standard error")
    func jsonKeepsTheAuthorizationURLOffStandardOutput() async throws {
      let cli = try DCWallet()
      let config = try cli.file("issuer-config.json", #"{"auto_approve": true}"#)
      let context = CommandContext(
        console: .capturing(), homeOverride: cli.home, environment: [:])
      let state = try StateDirectory(config: config, context: context)
      let issuer = try LoopbackIssuer(settings: try state.settings(), state: state)
      let offer = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL"])
      #expect(offer.code == 0, "\(offer.err)")
      let uri = try #require(offer.out.split(separator: "\n").first.map(String.init))
      // A redirect with a wrong state: the issuance fails, reported as JSON.
      let result = try await runDCWalletOffPool(
        cli, ["issue", uri, "--json", "--trust-issuer-iacas"],
        stdin: "\(issuer.url)/callback?code=nothing&state=wrong\n")
      #expect(result.code == 1)
      let json = try JSONValue(parsing: Array(result.out.utf8))
      #expect(json["failed"]?.array?.first?["configuration"]?.string == "mDL")
      let lines = result.err.split(separator: "\n")
      #expect(lines.first?.hasPrefix(issuer.url + "/") == true, "\(result.err)")
      #expect(lines.first?.contains("request_uri=") == true, "\(result.err)")
    }
  }
#endif
