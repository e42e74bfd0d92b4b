import DCJSON
import Foundation
import Testing

/// Issue 33 through the built binary: `verifier request --zk`, `verifier verify` of a ZK answer
/// (Google Wallet's capture), `inspect` of ZK requests and documents, `respond` refusing. Each
/// run reads the 300 KB circuit (seconds in a debug build): the runs wait off Swift's
/// cooperative pool (`runDCWalletOffPool`).
@Suite("dcwallet: zero-knowledge requests and answers", .serialized)
struct ZeroKnowledgeBinaryTests {
  static let circuitID = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"

  /// The published files the verifier tests keep (Tests/DCVerifierTests/Vectors, SOURCE.md).
  static func vector(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("DCVerifierTests/Vectors/\(name)").path
  }

  static var circuit: String { vector("longfellow-circuit-\(circuitID).zst") }

  /// A copy of the circuit named as longfellow-zk names it (its id alone).
  static func circuitNamedByID(_ cli: DCWallet) throws -> String {
    try cli.file(circuitID, Array(try Data(contentsOf: URL(fileURLWithPath: circuit))))
  }

  @Test("verifier request --zk: an org-iso-mdoc request carrying zkRequest, explained by inspect")
  func annexCRequest() async throws {
    let cli = try DCWallet()
    let request = try cli.file("zk-request.json", "")
    let state = cli.home + "-files/zk-state.json"
    let made = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "request", "--protocol", "org-iso-mdoc", "--zk", "age_over_18",
        "--zk-circuit", Self.circuit, "--out-request", request, "--out-state", state,
      ])
    #expect(made.code == 0, "\(made.err)")
    let inspected = try await runDCWalletOffPool(cli, ["inspect", request])
    #expect(inspected.code == 0, "\(inspected.err)")
    #expect(
      inspected.out.contains(
        "docRequests[0]: a zero-knowledge proof of org.iso.18013.5.1/age_over_18 of org.iso.18013.5.1.mDL (required), nothing else disclosed"
      ), "\(inspected.out)")
    #expect(inspected.out.contains("longfellow-libzk-v1 \(Self.circuitID) (block_enc_hash=4151"))
    // The file may also be named as longfellow-zk names it.
    let byID = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "request", "--protocol", "org-iso-mdoc", "--zk",
        "org.iso.18013.5.1/age_over_18",
        "--zk-circuit", try Self.circuitNamedByID(cli), "--out-request", request, "--out-state",
        state,
      ])
    #expect(byID.code == 0, "\(byID.err)")
  }

  @Test("verifier request --zk refuses what no circuit can prove")
  func requestRefusals() async throws {
    let cli = try DCWallet()
    let out = [
      "--out-request", cli.home + "-files/r.json", "--out-state", cli.home + "-files/s.json",
    ]
    let base = ["verifier", "request", "--protocol", "org-iso-mdoc"]
    let two = try await runDCWalletOffPool(
      cli,
      base + ["--zk", "age_over_18", "--zk", "age_over_21", "--zk-circuit", Self.circuit] + out)
    #expect(two.code != 0 && two.err.contains("no configured circuit proves 2 attribute(s)"))
    let unknown = try await runDCWalletOffPool(
      cli,
      base + ["--zk", "age_over_18", "--zk-circuit", try cli.file("abc.zst", "x")] + out)
    #expect(unknown.code != 0 && unknown.err.contains("not a Longfellow circuit"), "\(unknown.err)")
    let none = try await runDCWalletOffPool(cli, base + ["--zk", "age_over_18"] + out)
    #expect(none.code != 0 && none.err.contains("--zk needs at least one --zk-circuit"))
    let mixed = try await runDCWalletOffPool(
      cli,
      base + ["--zk", "a/x", "--zk", "b/y", "--zk-circuit", Self.circuit] + out)
    #expect(mixed.code != 0 && mixed.err.contains("must share one namespace"))
  }

  @Test("verifier request --zk over OpenID4VP: an mso_mdoc_zk Credential Query")
  func openID4VPRequest() async throws {
    let cli = try DCWallet()
    let request = try cli.file("zk-vp-request.json", "")
    let made = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--zk", "age_over_18",
        "--zk-circuit", Self.circuit, "--out-request", request, "--out-state",
        cli.home + "-files/zk-vp-state.json",
      ])
    #expect(made.code == 0, "\(made.err)")
    let json = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: request)))
    let credential = try #require(json["data"]?["dcql_query"]?["credentials"]?.array?.first)
    #expect(credential["format"]?.string == "mso_mdoc_zk")
    #expect(credential["meta"]?["zk_system_type"]?.array?.first?["id"]?.string == Self.circuitID)
    let inspected = try await runDCWalletOffPool(cli, ["inspect", request])
    #expect(
      inspected.out.contains(
        "credential query zk: a zero-knowledge proof (mso_mdoc_zk, not in OpenID4VP 1.0) of org.iso.18013.5.1/age_over_18"
      ), "\(inspected.out)")
  }

  @Test("verifier verify --zk-capture: Google Wallet's answer verifies, proof included")
  func verifyCapture() async throws {
    let cli = try DCWallet()
    let base = [
      "verifier", "verify", "--zk-capture", Self.vector("longfellow-post2.json"),
      "--zk-circuit", Self.circuit, "--at", "2026-01-12T12:00:00Z",
    ]
    let result = try await runDCWalletOffPool(
      cli,
      base + ["--issuer-anchor", Self.vector("longfellow-payground-root.pem")])
    #expect(
      result.out.contains(
        "ok  structure: DeviceResponse 1.0, status 0, 1 zero-knowledge document(s)"))
    #expect(
      result.out.contains(
        "chains to the issuer anchor CN=Payground Root, O=Google, C=ZZ (msoX5chain, checked outside the proof)"
      ), "\(result.out)")
    #expect(result.out.contains("public inputs: org.iso.18013.5.1/age_over_18 (requested)"))
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out.contains(
        "org.iso.18013.5.1.mDL: proven in zero knowledge by an issuer under anchor CN=Payground Root, O=Google, C=ZZ"
      ), "\(result.out)")
    #expect(result.out.contains("  age_over_18 = yes"))
    #expect(result.out.contains("  nothing else disclosed: no other element, no issuer signature"))
    #expect(
      result.out.contains(
        "ok  proof org.iso.18013.5.1.mDL: Longfellow proof under \(Self.circuitID) verified"))
    let untrusted = try await runDCWalletOffPool(cli, base)
    #expect(untrusted.code == 1 && untrusted.err.contains("is not trusted"), "\(untrusted.err)")
    let late = try await runDCWalletOffPool(
      cli,
      base.dropLast(2) + [
        "--at", "2026-01-20T12:00:00Z", "--issuer-anchor",
        Self.vector("longfellow-payground-root.pem"),
      ])
    #expect(late.code == 1 && late.err.contains("timestamp"), "\(late.err)")
  }

  @Test("verifier verify --zk-capture: Google Wallet's version 6 answer (post1.json) verifies")
  func verifyVersion6Capture() async throws {
    let v6 = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6"
    let result = try await runDCWalletOffPool(
      try DCWallet(),
      [
        "verifier", "verify", "--zk-capture", Self.vector("longfellow-post1.json"),
        "--zk-circuit", Self.vector("longfellow-circuit-\(v6).zst"), "--at",
        "2025-12-01T12:00:00Z", "--issuer-anchor", Self.vector("longfellow-payground-root.pem"),
      ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("  age_over_18 = yes"), "\(result.out)")
    #expect(
      result.out.contains("ok  proof org.iso.18013.5.1.mDL: Longfellow proof under \(v6) verified"))
  }

  @Test("inspect explains a ZkDocument: what the proof claims and what stays hidden")
  func inspectCapture() async throws {
    let result = try DCWallet().run(["inspect", Self.vector("longfellow-post2.json")])
    #expect(result.code == 0, "\(result.err)")
    #expect(
      result.out.contains(
        "zkDocuments[0]: org.iso.18013.5.1.mDL, a zero-knowledge proof (362132 bytes) under the ZK system \(Self.circuitID)"
      ), "\(result.out)")
    #expect(result.out.contains("org.iso.18013.5.1/age_over_18 = true"))
    #expect(result.out.contains("the MSO was valid at 2026-01-12T23:59:59Z"))
    #expect(result.out.contains("CN=Payground Document Signer"))
    #expect(result.out.contains("hidden: every other element, the MSO and its signature"))
    #expect(result.out.contains("OpenID4VPDCAPIHandover"))
    // The proof's bytes are not printed.
    #expect(result.out.utf8.count < 20_000)
  }

  @Test(
    "respond without --zk-circuit refuses a ZK request clearly, though the wallet holds the element"
  )
  func respondRefuses() async throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let request = cli.home + "-files/zk-respond-request.json"
    let made = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "request", "--protocol", "org-iso-mdoc", "--zk", "age_over_18",
        "--zk-circuit", Self.circuit, "--origin", "https://shop.example", "--out-request", request,
        "--out-state", cli.home + "-files/zk-respond-state.json",
      ])
    #expect(made.code == 0, "\(made.err)")
    let refused = try await runDCWalletOffPool(
      cli,
      [
        "respond", "--origin", "https://shop.example", "--request", request,
      ])
    #expect(refused.code == 1)
    #expect(refused.out.isEmpty)
    #expect(
      refused.err.contains(
        "refused: the verifier asks for a zero-knowledge proof this wallet cannot make (no circuit for it"
      ), "\(refused.err)")
  }

  /// A ZK request made by `verifier request --zk age_over_18`, with its state.
  static func zkRequest(_ cli: DCWallet) async throws -> (request: String, state: String) {
    let request = cli.home + "-files/zk-answer-request.json"
    let state = cli.home + "-files/zk-answer-state.json"
    let made = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "request", "--protocol", "org-iso-mdoc", "--zk", "age_over_18",
        "--zk-circuit", Self.circuit, "--origin", "https://shop.example", "--out-request", request,
        "--out-state", state,
      ])
    #expect(made.code == 0, "\(made.err)")
    return (request, state)
  }

  @Test("respond --zk-circuit --interactive: the consent screen says what is proven in ZK")
  func consentScreen() async throws {
    let fixture = try CLIFixture()
    let (request, _) = try await Self.zkRequest(fixture.cli)
    // Declined: nothing is proven or sent (a debug build would take minutes to prove).
    let declined = try await runDCWalletOffPool(
      fixture.cli,
      [
        "respond", "--origin", "https://shop.example", "--request", request, "--zk-circuit",
        Self.circuit, "--interactive",
      ], stdin: "n\n")
    #expect(declined.code == 1 && declined.out.isEmpty)
    #expect(declined.err.contains("org.iso.18013.5.1/age_over_18"), "\(declined.err)")
    #expect(
      declined.err.contains(
        "proven in zero knowledge: only the values below are disclosed; nothing else of the "
          + "credential"), "\(declined.err)")
  }

  @Test("respond --zk-circuit refuses a circuit it cannot prove with (version 6), no answer")
  func otherCircuitRefused() async throws {
    let fixture = try CLIFixture()
    let (request, _) = try await Self.zkRequest(fixture.cli)
    let other = Self.vector(
      "longfellow-circuit-137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6.zst")
    let refused = try await runDCWalletOffPool(
      fixture.cli,
      ["respond", "--origin", "https://shop.example", "--request", request, "--zk-circuit", other])
    #expect(refused.code == 1 && refused.out.isEmpty)
    // The wallet's witness fills the version 7 layout only: the file is refused on reading.
    #expect(
      refused.err.contains("not a version 7 Longfellow mdoc circuit"), "\(refused.err)")
  }

  /// Proving takes about 6 s in a release build and many minutes in a debug one: this runs the
  /// release `dcwallet` that `DCWALLET_RELEASE_BIN` names (`.ci/run` builds it), and is skipped
  /// without it.
  @Test(
    "verifier request --zk -> respond --zk-circuit -> verifier verify: proven in zero knowledge",
    .enabled(if: ProcessInfo.processInfo.environment["DCWALLET_RELEASE_BIN"] != nil))
  func proveEndToEnd() async throws {
    let fixture = try CLIFixture()
    var cli = fixture.cli
    cli.executable = ProcessInfo.processInfo.environment["DCWALLET_RELEASE_BIN"] ?? ""
    let (request, state) = try await Self.zkRequest(cli)
    let answered = try await runDCWalletOffPool(
      cli,
      [
        "respond", "--origin", "https://shop.example", "--request", request, "--zk-circuit",
        Self.circuit,
      ])
    try #require(answered.code == 0, "\(answered.err)")
    let response = try cli.file("zk-answer-response.json", Array(answered.out.utf8))
    let verified = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example", "--response",
        response, "--zk-circuit", Self.circuit, "--issuer-anchor", fixture.iacaPath,
      ])
    #expect(verified.code == 0, "\(verified.err)")
    #expect(verified.out.contains("proven in zero knowledge"), "\(verified.out)")
    #expect(verified.out.contains("age_over_18 = yes"), "\(verified.out)")
    // The same answer under another origin's transcript is refused.
    let elsewhere = try await runDCWalletOffPool(
      cli,
      [
        "verifier", "verify", "--state", state, "--origin", "https://other.example",
        "--response", response, "--zk-circuit", Self.circuit, "--issuer-anchor", fixture.iacaPath,
      ])
    #expect(elsewhere.code != 0)
  }
}
