import DCCrypto
import DCHTTP
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCStatusList
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// `dcwallet issuer credentials|revoke|suspend|reinstate` (issue 15) as scripts run them,
  /// against the development issuer in this process sharing the CLI's state directory; the
  /// published status list tokens fetched over loopback HTTP after each command.
  @Suite("dcwallet issuer status commands", .timeLimit(.minutes(1)))
  struct IssuerStatusBinaryTests {
    @Test("credentials lists ids and entries; suspend, reinstate, revoke show in both tokens")
    func statusCommands() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"status_list_size": 16}"#)
      // The wallet trusts the issuer's IACA (the SD-JWT VC leaf is under it too).
      let iaca = (setup.config as NSString).deletingLastPathComponent + "/iaca.pem"
      #expect(try await setup.run(["trust", "add", "--issuer", iaca]).code == 0)
      try await setup.issue("mDL")
      try await setup.issue("pid")
      let listed = try await setup.run([
        "issuer", "credentials", "--config", setup.config, "--json",
      ])
      #expect(listed.code == 0, "\(listed.err)")
      let credentials = try #require(try JSONValue(parsing: Array(listed.out.utf8)).array)
      #expect(credentials.map { $0["configuration_id"]?.string } == ["mDL", "pid"])
      #expect(credentials.allSatisfy { $0["status"]?.string == "valid" })
      let uri = "\(setup.issuer.url)/status-lists/1"
      #expect(credentials.allSatisfy { $0["status_list"]?["uri"]?.string == uri })
      let mdl = try #require(credentials[0]["id"]?.string)
      let mdlIndex = try #require(credentials[0]["status_list"]?["idx"]?.int)
      let pidIndex = try #require(credentials[1]["status_list"]?["idx"]?.int)
      #expect(mdlIndex != pidIndex)
      #expect(try await setup.published(uri, index: mdlIndex) == .valid)

      let suspended = try await setup.run(["issuer", "suspend", mdl, "--config", setup.config])
      #expect(suspended.code == 0, "\(suspended.err)")
      #expect(suspended.out == "\(mdl): suspended  \(uri)#\(mdlIndex)")
      #expect(try await setup.published(uri, index: mdlIndex) == .suspended)
      #expect(try await setup.published(uri, index: pidIndex) == .valid)

      let reinstated = try await setup.run(["issuer", "reinstate", mdl, "--config", setup.config])
      #expect(reinstated.code == 0, "\(reinstated.err)")
      #expect(try await setup.published(uri, index: mdlIndex) == .valid)

      let revoked = try await setup.run(["issuer", "revoke", mdl, "--config", setup.config])
      #expect(revoked.code == 0, "\(revoked.err)")
      #expect(try await setup.published(uri, index: mdlIndex) == .invalid)

      // Revocation is final.
      let again = try await setup.run(["issuer", "reinstate", mdl, "--config", setup.config])
      #expect(again.code == 1)
      #expect(again.err.contains("revoked"))
      #expect(try await setup.published(uri, index: mdlIndex) == .invalid)

      let plain = try await setup.run(["issuer", "credentials", "--config", setup.config])
      #expect(plain.out.contains("\(mdl)  mDL  invalid  \(uri)#\(mdlIndex)"))
      #expect(plain.out.contains("  pid  valid  \(uri)#\(pidIndex)"))
    }

    /// Issue 32, items 5, 7 and 16: with --trust-issuer-iacas (and no `trust add`) the mdoc and
    /// the SD-JWT VC are stored issuer-vouched, and their status lists are checked under the
    /// issuer's published IACA: a suspension is seen, labelled with that trust level.
    @Test("credentials stored through --trust-issuer-iacas are issuer-vouched and status-checked")
    func issuerVouchedStatus() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"status_list_size": 16}"#)
      try await setup.issue("mDL", ["--trust-issuer-iacas"])
      try await setup.issue("pid", ["--trust-issuer-iacas"])
      let listed = try await setup.run(["list", "--json"])
      let stored = try #require(try JSONValue(parsing: Array(listed.out.utf8)).array)
      #expect(stored.map { $0["issuerTrust"]?.string } == ["issuer-vouched", "issuer-vouched"])
      let wallet = Dictionary(
        uniqueKeysWithValues: stored.compactMap { entry in
          entry["format"]?.string.flatMap { format in entry["id"]?.string.map { (format, $0) } }
        })
      let mdl = try #require(wallet["mso_mdoc"])
      let pid = try #require(wallet["dc+sd-jwt"])
      let issued = try await setup.run([
        "issuer", "credentials", "--config", setup.config, "--json",
      ])
      let records = try #require(try JSONValue(parsing: Array(issued.out.utf8)).array)
      for record in records {
        let id = try #require(record["id"]?.string)
        #expect(try await setup.run(["issuer", "suspend", id, "--config", setup.config]).code == 0)
      }
      for id in [mdl, pid] {
        let status = try await setup.run(["status", id, "--json"])
        #expect(status.code == 0, "\(status.err)")
        let json = try JSONValue(parsing: Array(status.out.utf8))
        #expect(json["status"]?.string == "suspended", "\(status.out)")
        #expect(json["issuerTrust"]?.string == "issuer-vouched")
        let plain = try await setup.run(["status", id])
        #expect(plain.out.contains("SUSPENDED"))
        #expect(plain.out.contains("issuer-vouched"))
      }
      let show = try await setup.run(["show", pid])
      #expect(show.out.contains("(issuer-vouched: chains to an IACA the issuer published"))
    }

    @Test(
      "serve refuses status list settings no list may have",
      arguments: [
        (#"{"status_list_bits": 4}"#, "status_list_bits"),
        (#"{"status_list_bits": "2"}"#, "status_list_bits"),
        (#"{"status_list_size": 12}"#, "status_list_size"),
        (#"{"status_list_size": 0}"#, "status_list_size"),
      ])
    func badSettings(config: String, named: String) async throws {
      let cli = try DCWallet()
      let path = try cli.file("bad-issuer.json", config)
      let result = try await runDCWalletOffPool(
        cli, ["issuer", "serve", "--port", "0", "--config", path])
      #expect(result.code == 1)
      #expect(result.err.contains(named))
    }

    @Test("with 1-bit lists, suspend is refused and revoke works")
    func oneBit() async throws {
      let home = try IssuerWalletHome(
        issuerConfig: #"{"status_list_bits": 1, "status_list_size": 8}"#)
      let (cli, config, issuer) = (home.cli, home.config, home.issuer)
      let offer = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL", "--pre-authorized"])
      let issued = try await runDCWalletOffPool(
        cli,
        [
          "issue", offer.out.trimmingCharacters(in: .whitespacesAndNewlines),
          "--trust-issuer-iacas",
        ])
      #expect(issued.code == 0, "\(issued.err)")
      let records = try issuer.service.store.issuedCredentialStatuses()
      let id = try #require(records.first?.credentialID)
      #expect(try issuer.service.store.statusList(id: 1)?.bits == 1)
      let suspended = try await runDCWalletOffPool(
        cli, ["issuer", "suspend", id, "--config", config])
      #expect(suspended.code == 1)
      #expect(suspended.err.contains("1 bit"))
      let revoked = try await runDCWalletOffPool(cli, ["issuer", "revoke", id, "--config", config])
      #expect(revoked.code == 0, "\(revoked.err)")
      #expect(revoked.out.hasPrefix("\(id): invalid"))
    }

    @Test("an unknown id is exit 1; a missing id or unknown list is refused")
    func refusals() async throws {
      let setup = try IssuerWalletHome(issuerConfig: #"{"status_list_size": 16}"#)
      let unknown = try await setup.run(["issuer", "revoke", "nope", "--config", setup.config])
      #expect(unknown.code == 1)
      #expect(unknown.err.contains("no issued credential nope"))
      #expect(try await setup.run(["issuer", "suspend", "--config", setup.config]).code == 2)
      let empty = try await setup.run(["issuer", "credentials", "--config", setup.config])
      #expect(empty.code == 0)
      #expect(empty.out == "no credentials issued")
      let client = URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10))
      let missing = try await client.send(
        HTTPRequest(
          method: .get, url: try #require(URL(string: "\(setup.issuer.url)/status-lists/1"))))
      #expect(missing.status == 404)
    }
  }

  extension IssuerWalletHome {
    func run(_ arguments: [String]) async throws -> (code: Int32, out: String, err: String) {
      let result = try await runDCWalletOffPool(cli, arguments)
      return (result.code, result.out, result.err)
    }

    /// Issues `configuration` into the wallet through `issuer offer` and `issue` (with `extra`).
    func issue(_ configuration: String, _ extra: [String] = []) async throws {
      let offer = try await run([
        "issuer", "offer", "--config", config, "--configuration", configuration,
        "--pre-authorized",
      ])
      #expect(offer.code == 0, "\(offer.err)")
      let issued = try await run(
        ["issue", offer.out.trimmingCharacters(in: .whitespacesAndNewlines)] + extra)
      #expect(issued.code == 0, "\(issued.err)")
    }

    /// The status at `index` of the list at `uri`, fetched over loopback in both forms.
    func published(_ uri: String, index: Int) async throws -> Status {
      let client = URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development, timeout: 10))
      var seen: [Status] = []
      for form in StatusListToken.Format.allCases {
        let response = try await client.send(
          HTTPRequest(
            method: .get, url: try #require(URL(string: uri)),
            headers: ["Accept": form.mediaType]))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == form.mediaType)
        let token =
          form == .jwt
          ? try StatusListToken(jwt: String(decoding: response.body, as: UTF8.self))
          : try StatusListToken(cwt: response.body)
        try token.verifySignature(publicKey: issuer.pki.dsKey.publicKey)
        #expect(token.subject == uri)
        seen.append(try token.statusList.status(at: index))
      }
      #expect(seen.count == 2 && seen[0] == seen[1], "the forms disagree: \(seen)")
      return seen[0]
    }
  }
#endif
