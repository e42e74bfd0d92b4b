import DCCrypto
import DCJSON
import DCMdoc
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCWallet

/// Issue 13's contract for stored issued credentials: `list --json` shows `id`, `format` and
/// `doctype` (or `vct`); `list` and `show` show the issuer's display name; `remove` works.
@Suite("Issued credentials in list, show and remove")
struct IssuedCredentialListingBinaryTests {
  /// `count` mDLs from the fixture's issuer, each bound to a new key in the wallet's key store.
  static func mdlBatch(of count: Int, fixture: CLIFixture, wallet: Wallet) async throws
    -> [IssuedCredential]
  {
    var issued: [IssuedCredential] = []
    for _ in 0..<count {
      let key = try await wallet.keys.createKey(curve: .p256)
      issued.append(
        IssuedCredential(
          payload: .msoMdoc(issuerSigned: try fixture.pki.issue(deviceKey: key.publicKey).bytes),
          deviceKeyID: key.id))
    }
    return issued
  }

  @Test("--credential naming a batch sibling not offered now says which one is presented next")
  func batchSiblingIsNamed() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let wallet = try Wallet(home: WalletHome(directory: cli.home))
    let issued = try await Self.mdlBatch(of: 2, fixture: fixture, wallet: wallet)
    let ids = try await wallet.storeIssuedCredentials(
      issued,
      expected: IssuanceExpectation(
        credentialIssuer: "https://issuer.example", configurationID: "org.iso.18013.5.1.mDL",
        format: .msoMdoc, type: "org.iso.18013.5.1.mDL", display: []), notificationID: nil,
      trust: IssuanceTrustOptions(
        issuerPublishedIACAs: [fixture.pki.iaca], trustIssuerPublishedIACAs: true)
    ).storedIDs
    #expect(ids.count == 2)
    // The first was presented once: the second, presented least, is the one offered.
    try await wallet.store.markPresented(ids: [ids[0]])
    let (request, _) = try fixture.request()
    let refused = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--credential", ids[0],
    ])
    #expect(refused.code == 1)
    #expect(
      refused.err
        == "dcwallet respond: credential \(ids[0]) is not offered: of its batch, \(ids[1]) is "
        + "presented next (one credential per presentation)\n")
  }

  @Test(
    "list, list --json and show name an issued batch by the issuer's display name; remove works")
  func listShowRemove() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let wallet = try Wallet(home: WalletHome(directory: cli.home))
    let issued = try await Self.mdlBatch(of: 2, fixture: fixture, wallet: wallet)
    let result = try await wallet.storeIssuedCredentials(
      issued,
      expected: IssuanceExpectation(
        credentialIssuer: "https://issuer.example", configurationID: "org.iso.18013.5.1.mDL",
        format: .msoMdoc, type: "org.iso.18013.5.1.mDL",
        display: [
          IssuerCredentialDisplay(name: "Issued Licence", locale: "en", backgroundColor: "#12107c")
        ]), notificationID: "n-1",
      trust: IssuanceTrustOptions(
        issuerPublishedIACAs: [fixture.pki.iaca], trustIssuerPublishedIACAs: true))
    let ids = result.storedIDs
    #expect(ids.count == 2)

    let list = try cli.run(["list"])
    #expect(list.code == 0)
    for id in ids {
      let line = list.out.split(separator: "\n").first { $0.contains(id) }
      #expect(line?.contains("Issued Licence") == true)
    }
    let json = try JSONValue(parsing: try cli.run(["list", "--json"]).out).array ?? []
    let entries = json.filter { ids.contains($0["id"]?.string ?? "") }
    #expect(entries.count == 2)
    for entry in entries {
      #expect(entry["format"]?.string == "mso_mdoc")
      #expect(entry["doctype"]?.string == "org.iso.18013.5.1.mDL")
      #expect(entry["vct"] == nil)
      #expect(entry["issuance"]?["name"]?.string == "Issued Licence")
      #expect(entry["issuance"]?["credentialIssuer"]?.string == "https://issuer.example")
      // The wallet's anchor vouched for it, before the issuer's own IACAs were needed.
      #expect(entry["issuance"]?["trust"]?.string == "wallet-anchor")
    }
    // The imported mDL of the fixture has a type too, and no issuance.
    let imported = json.first { $0["id"]?.string == "mdl" }
    #expect(imported?["doctype"]?.string == "org.iso.18013.5.1.mDL")
    #expect(imported?["issuance"] == nil)

    let show = try cli.run(["show", ids[0]])
    #expect(show.code == 0)
    #expect(show.out.contains("Issued Licence"))
    #expect(
      show.out.contains(
        "issued by https://issuer.example as \"Issued Licence\" (configuration org.iso.18013.5.1.mDL)"
      ))
    #expect(show.out.contains("batch: "))
    #expect(show.out.contains("the issuer is notified when it is removed"))

    let removed = try cli.run(["remove", ids[0]])
    #expect(removed.code == 0)
    #expect(removed.out == "removed \(ids[0])")
    #expect(try await wallet.credentials().map(\.id).contains(ids[0]) == false)
  }

  @Test("show says when the issuer was trusted through its own published IACA, by opt-in")
  func showOptIn() async throws {
    let cli = try DCWallet()
    let pki = try TestPKI(now: Date())
    let wallet = try Wallet(home: WalletHome(directory: cli.home))
    let key = try await wallet.keys.createKey(curve: .p256)
    let result = try await wallet.storeIssuedCredentials(
      [
        IssuedCredential(
          payload: .msoMdoc(issuerSigned: try pki.issue(deviceKey: key.publicKey).bytes),
          deviceKeyID: key.id)
      ],
      expected: IssuanceExpectation(
        credentialIssuer: "https://issuer.example", configurationID: "mdl", format: .msoMdoc,
        type: "org.iso.18013.5.1.mDL", display: [IssuerCredentialDisplay(name: "Licence")]),
      trust: IssuanceTrustOptions(issuerPublishedIACAs: [pki.iaca], trustIssuerPublishedIACAs: true)
    )
    let id = try #require(result.storedIDs.first)
    let show = try cli.run(["show", id])
    #expect(
      show.out.contains("chains to an IACA the issuer published, accepted by --trust-issuer-iacas"))
    let json = try JSONValue(parsing: try cli.run(["show", id, "--json"]).out)
    #expect(json["issuance"]?["trust"]?.string == "issuer-published-iaca")
    #expect(json["doctype"]?.string == "org.iso.18013.5.1.mDL")
    // Issue 32: self-vouched is its own trust level, in JSON and text alike.
    #expect(json["issuerTrust"]?.string == "issuer-vouched")
    #expect(show.out.contains("(issuer-vouched: "))
    let listed = try JSONValue(parsing: try cli.run(["list", "--json"]).out)
    #expect(listed.array?.first?["issuerTrust"]?.string == "issuer-vouched")
    #expect(try cli.run(["list"]).out.contains("[issuer-vouched]"))
    // And on the consent screen.
    let request = try cli.file("request.json", "")
    let made = try cli.run([
      "verifier", "request", "--protocol", "org-iso-mdoc", "--doctype", "org.iso.18013.5.1.mDL",
      "--element", "org.iso.18013.5.1/family_name", "--origin", "https://shop.example",
      "--out-request", request, "--out-state", cli.home + "-files/state.json",
    ])
    try #require(made.code == 0, "\(made.err)")
    let screen = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "n\n")
    #expect(screen.err.contains("from credential \(id) (issuer-vouched: "), "\(screen.err)")
  }
}
