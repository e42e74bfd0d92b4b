import DCJSON
import DCOpenID4VCI
import DCWallet
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// `dcwallet issuer offer` and `dcwallet issue` as scripts run them, against the development
  /// issuer in this process sharing the CLI's state directory (issue 13's contract).
  @Suite("dcwallet issue and issuer offer", .timeLimit(.minutes(1)))
  struct IssueBinaryTests {

    @Test("issue --json with --tx-code and --batch stores the batch; list --json shows it")
    func issueJSONBatch() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"batch_size": 4}"#)
      let lines = try await setup.offer(["--pre-authorized", "--tx-code"])
      #expect(lines.count == 2)
      #expect(lines[0].hasPrefix("openid-credential-offer://"))
      let result = try await runDCWalletOffPool(
        setup.cli,
        [
          "issue", lines[0], "--tx-code", lines[1], "--batch", "3", "--trust-issuer-iacas",
          "--json",
        ])
      #expect(result.code == 0, "\(result.err)")
      let json = try JSONValue(parsing: Array(result.out.utf8))
      let credentials = json["credentials"]?.array ?? []
      #expect(credentials.count == 3)
      #expect(json["deferred"]?.array?.isEmpty == true)
      #expect(json["failed"]?.array?.isEmpty == true)
      for credential in credentials {
        #expect(credential["configuration"]?.string == "mDL")
        #expect(credential["format"]?.string == "mso_mdoc")
        #expect(credential["doctype"]?.string == "org.iso.18013.5.1.mDL")
      }
      let list = try await runDCWalletOffPool(setup.cli, ["list"])
      #expect(list.out.contains("Mobile Driving Licence"))
    }

    @Test("plain issue prints one line per credential with its id; by reference works")
    func issuePlainByReference() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"batch_size": 4}"#)
      let lines = try await setup.offer(["--pre-authorized", "--by-reference"])
      #expect(lines.count == 1)
      #expect(lines[0].contains("credential_offer_uri"))
      let result = try await runDCWalletOffPool(
        setup.cli, ["issue", lines[0], "--id", "mine", "--trust-issuer-iacas"])
      #expect(result.code == 0, "\(result.err)")
      let out = result.out.split(separator: "\n")
      #expect(out.count == 1)
      #expect(out.first?.contains("mine") == true)
      // remove of the issued credential tells the issuer credential_deleted.
      let removed = try await runDCWalletOffPool(setup.cli, ["remove", "mine"])
      #expect(removed.code == 0, "\(removed.err)")
      #expect(try setup.issuer.events() == [.credentialAccepted, .credentialDeleted])
    }

    @Test("an offer by value form-encoded with + for spaces, as other languages write it, issues")
    func offerWithPlusForSpaces() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"batch_size": 4}"#)
      let lines = try await setup.offer(["--pre-authorized"])
      guard case .value(let offer) = try CredentialOffer.parse(lines[0], policy: .development)
      else {
        Issue.record("expected an offer by value: \(lines)")
        return
      }
      // The offer JSON with white space (pretty-printed), form-encoded: spaces travel as `+`.
      let spaced = try JSONSerialization.data(
        withJSONObject: try JSONSerialization.jsonObject(with: Data(offer.json.serializedBytes())),
        options: [.prettyPrinted])
      let query = try #require(
        String(decoding: spaced, as: UTF8.self).addingPercentEncoding(
          withAllowedCharacters: .alphanumerics)
      ).replacingOccurrences(of: "%20", with: "+")
      #expect(query.contains("+"))
      let result = try await runDCWalletOffPool(
        setup.cli,
        ["issue", "openid-credential-offer://?credential_offer=" + query, "--trust-issuer-iacas"])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out.split(separator: "\n").count == 1)
    }

    @Test("a missing tx_code on a non-terminal stdin is exit 1 naming tx_code, output empty")
    func missingTxCode() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"batch_size": 4}"#)
      let lines = try await setup.offer(["--pre-authorized", "--tx-code"])
      let result = try await runDCWalletOffPool(setup.cli, ["issue", lines[0]])
      #expect(result.code == 1)
      #expect(result.out.isEmpty)
      #expect(result.err.contains("tx_code"))
      // Not asked for: standard input is no terminal.
      #expect(!result.err.contains("enter the transaction code"))
    }

    @Test("an untrusted issuer is exit 1; --json still lists all three arrays, nothing stored")
    func untrustedJSON() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"batch_size": 4}"#)
      let lines = try await setup.offer(["--pre-authorized"])
      let result = try await runDCWalletOffPool(setup.cli, ["issue", lines[0], "--json"])
      #expect(result.code == 1)
      let json = try JSONValue(parsing: Array(result.out.utf8))
      #expect(json["credentials"]?.array?.isEmpty == true)
      #expect(json["deferred"]?.array?.isEmpty == true)
      #expect(json["failed"]?.array?.first?["configuration"]?.string == "mDL")
      let plain = try await runDCWalletOffPool(
        setup.cli, ["issue", try await setup.offer(["--pre-authorized"])[0]])
      #expect(plain.code == 1)
      #expect(plain.out.isEmpty)
      let list = try await runDCWalletOffPool(setup.cli, ["list", "--json"])
      #expect(try JSONValue(parsing: Array(list.out.utf8)).array?.isEmpty == true)
    }

    @Test("usage errors are exit 2")
    func usage() async throws {
      let cli = try DCWallet()
      #expect(try await runDCWalletOffPool(cli, ["issue"]).code == 2)
      #expect(try await runDCWalletOffPool(cli, ["issue", "x", "--batch", "0"]).code == 2)
      #expect(
        try await runDCWalletOffPool(cli, ["issue", "--deferred", "--tx-code", "1"]).code == 2)
      #expect(try await runDCWalletOffPool(cli, ["issuer", "offer"]).code == 2)
      #expect(try await runDCWalletOffPool(cli, ["issuer", "serve"]).code == 2)
    }
  }

  extension IssuerWalletHome {
    /// `issuer offer` lines: the offer URI, then the transaction code when asked for.
    func offer(_ extra: [String]) async throws -> [String] {
      let result = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL"] + extra)
      #expect(result.code == 0, "\(result.err)")
      return result.out.split(separator: "\n").map(String.init)
    }
  }
#endif
