import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@Suite("dcwallet respond: the holder's choice, trusted requesters, verified names", .serialized)
struct ConsentChoiceBinaryTests {
  /// The OpenID4VP fixture (SD-JWT PID `pid`, mDL `mdl`) plus an mdoc PID `pid-mdoc`.
  func fixture() throws -> OpenID4VPFixture {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let device = try ECPrivateKey(curve: .p256)
    let imported = try cli.run([
      "import", "--mdoc",
      try cli.file("pid.cbor", try fixture.base.pki.issuePID(deviceKey: device.publicKey).bytes),
      "--device-key", try cli.file("pid-device.pem", device.pemRepresentation), "--id", "pid-mdoc",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    return fixture
  }

  /// A request with `credential_sets: [{"options": [["pid_sdjwt"], ["pid_mdoc"]]}]`.
  func optionsRequest(_ fixture: OpenID4VPFixture) throws -> (request: String, state: String) {
    let cli = fixture.base.cli
    let dcql = try cli.file(
      "options.json",
      #"""
      {"credentials": [
        {"id": "pid_sdjwt", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]},
         "claims": [{"path": ["given_name"]}]},
        {"id": "pid_mdoc", "format": "mso_mdoc", "meta": {"doctype_value": "eu.europa.ec.eudi.pid.1"},
         "claims": [{"path": ["eu.europa.ec.eudi.pid.1", "given_name"]}]}],
       "credential_sets": [{"options": [["pid_sdjwt"], ["pid_mdoc"]]}]}
      """#)
    let request = cli.home + "-files/options-request.json"
    let state = cli.home + "-files/options-state.json"
    let made = try cli.run([
      "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--dcql", dcql,
      "--response-mode", "dc_api", "--origin", "https://shop.example", "--out-request", request,
      "--out-state", state,
    ])
    #expect(made.code == 0, "\(made.err)")
    return (request, state)
  }

  @Test("--credential with the mdoc PID answers the credential set's second option with the mdoc")
  func credentialPicksOption() throws {
    let fixture = try fixture()
    let cli = fixture.base.cli
    let (request, state) = try optionsRequest(fixture)
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--credential",
      "pid-mdoc",
    ])
    try #require(response.code == 0, "\(response.err)")
    let token = try JSONValue(parsing: response.out)["data"]?["vp_token"]
    #expect(token?["pid_mdoc"]?[0]?.string != nil)
    #expect(token?["pid_sdjwt"] == nil)
    let verify = try cli.run(
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example",
        "--issuer-anchor", fixture.base.iacaPath, "--json",
      ], stdin: response.out)
    try #require(verify.code == 0, "\(verify.err)")
    let result = try JSONValue(parsing: verify.out)
    #expect(
      result["credentials"]?["pid_mdoc"]?[0]?["claims"]?["eu.europa.ec.eudi.pid.1/given_name"]
        == .string("Erika"))
    // Without a choice, the verifier's first option: the SD-JWT PID.
    let first = try cli.run(["respond", "--origin", "https://shop.example", "--request", request])
    #expect(try JSONValue(parsing: first.out)["data"]?["vp_token"]?["pid_sdjwt"] != nil)
    // A credential that satisfies no option is refused, naming it and what the request asks for.
    let refused = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--credential", "mdl",
    ])
    #expect(refused.code == 1 && refused.out.isEmpty)
    #expect(
      refused.err
        == "dcwallet respond: credential mdl (org.iso.18013.5.1.mDL) does not answer this "
        + "request, which asks for eu.europa.ec.eudi.pid.1 or urn:eudi:pid:1\n")
    // The consent screen shows the set and its options.
    let screen = try cli.run(
      [
        "respond", "--origin", "https://shop.example", "--request", request, "--credential",
        "pid-mdoc", "--interactive",
      ], stdin: "n\n")
    #expect(
      screen.err.contains(
        "credential set 1 (required): option 1 [pid_sdjwt] or option 2 [pid_mdoc] <- answered"))
    #expect(screen.err.contains("https://shop.example (unverified"))
  }

  @Test("a credential query without meta matches nothing: the default and --credential agree")
  func queryWithoutMeta() throws {
    let fixture = try fixture()
    let cli = fixture.base.cli
    // OpenID4VP 1.0 §6.1: meta is REQUIRED. q_all, without it, would match the mdoc PID if read
    // as "no constraint"; it matches nothing, so the set's second option, q_one, answers.
    let claims = #""claims": [{"path": ["eu.europa.ec.eudi.pid.1", "given_name"]}]"#
    let dcql = try cli.file(
      "no-meta.json",
      #"""
      {"credentials": [
        {"id": "q_all", "format": "mso_mdoc", \#(claims)},
        {"id": "q_one", "format": "mso_mdoc", "meta": {"doctype_value": "eu.europa.ec.eudi.pid.1"},
         \#(claims)}],
       "credential_sets": [{"options": [["q_all"], ["q_one"]]}]}
      """#)
    let request = cli.home + "-files/no-meta-request.json"
    let made = try cli.run([
      "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--dcql", dcql,
      "--response-mode", "dc_api", "--origin", "https://shop.example", "--out-request", request,
      "--out-state", cli.home + "-files/no-meta-state.json",
    ])
    try #require(made.code == 0, "\(made.err)")
    for chosen in [[], ["--credential", "pid-mdoc"]] {
      let answer = try cli.run(
        ["respond", "--origin", "https://shop.example", "--request", request] + chosen)
      try #require(answer.code == 0, "\(answer.err)")
      let token = try JSONValue(parsing: answer.out)["data"]?["vp_token"]
      #expect(token?["q_one"]?[0]?.string != nil, "\(chosen)")
      #expect(token?["q_all"] == nil, "\(chosen)")
    }
  }

  @Test(
    "--require-trusted-reader refuses an unsigned OpenID4VP request; a trusted signed one is answered"
  )
  func requireTrustedReaderCoversOpenID4VP() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let (unsigned, _) = try fixture.request("openid4vp-v1-unsigned", mode: "dc_api", signers: [])
    let refused = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", unsigned,
      "--require-trusted-reader",
    ])
    #expect(refused.code == 1 && refused.out.isEmpty && refused.err.contains("not signed"))
    let (signed, _) = try fixture.request(
      "openid4vp-v1-signed", mode: "dc_api",
      signers: [(fixture.verifierKeyPath, fixture.verifierChainPath)])
    let answered = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", signed,
      "--require-trusted-reader",
    ])
    #expect(answered.code == 0, "\(answered.err)")
  }

  @Test("A credential query without claims is answered with what is always presented")
  func queryWithoutClaims() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let dcql = try cli.file(
      "no-claims.json",
      #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}}]}"#
    )
    let request = cli.home + "-files/no-claims-request.json"
    let state = cli.home + "-files/no-claims-state.json"
    let made = try cli.run([
      "verifier", "request", "--protocol", "openid4vp-v1-unsigned", "--dcql", dcql,
      "--response-mode", "dc_api", "--origin", "https://shop.example", "--out-request", request,
      "--out-state", state,
    ])
    try #require(made.code == 0, "\(made.err)")
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    try #require(response.code == 0, "\(response.err)")
    let pid = try #require(
      try JSONValue(parsing: response.out)["data"]?["vp_token"]?["pid"]?[0]?.string)
    // The issuer-signed JWT and the Key Binding JWT, no Disclosure.
    #expect(pid.split(separator: "~", omittingEmptySubsequences: false).count == 2)
    let verify = try cli.run(
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example",
        "--sd-jwt-issuer-anchor", fixture.base.iacaPath,
      ], stdin: response.out)
    #expect(verify.code == 0, "\(verify.err)")
  }

  @Test("A self-signed reader named \"Your Bank\" is shown and logged by its origin, unverified")
  func selfSignedReaderNameIsNotShown() throws {
    let base = try CLIFixture()
    let cli = base.cli
    let key = try ECPrivateKey(curve: .p256)
    let now = Date()
    let certificate = try CertificateBuilder.reader(
      commonName: "Your Bank", publicKey: key.publicKey, notBefore: now.addingTimeInterval(-3600),
      notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: key)
    let request = cli.home + "-files/bank-request.json"
    let made = try cli.run([
      "verifier", "request", "--protocol", "org-iso-mdoc", "--doctype", "org.iso.18013.5.1.mDL",
      "--element", "org.iso.18013.5.1/age_over_18", "--origin", "https://evil.example",
      "--reader-key", try cli.file("bank-key.pem", key.pemRepresentation), "--reader-cert",
      try cli.file("bank.pem", certificate.pemString), "--out-request", request, "--out-state",
      cli.home + "-files/bank-state.json",
    ])
    try #require(made.code == 0, "\(made.err)")
    let shared = try cli.run(
      ["respond", "--origin", "https://evil.example", "--request", request, "--interactive"],
      stdin: "y\n")
    #expect(shared.code == 0, "\(shared.err)")
    #expect(!shared.err.contains("Your Bank"))
    #expect(shared.err.contains("https://evil.example (unverified"))
    let log = try cli.run(["log", "--json"])
    #expect(!log.out.contains("Your Bank"))
    let entries = try JSONValue(parsing: log.out).array ?? []
    #expect(entries.first?["outcome"]?.string == "shared")
    #expect(entries.first?["relyingParty"] == .null)
  }
}
