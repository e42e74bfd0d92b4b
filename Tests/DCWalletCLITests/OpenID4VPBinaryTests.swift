import DCCrypto
import DCJOSE
import DCJSON
import DCSDJWT
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// A wallet with an SD-JWT PID and an mDL, a trusted verifier root and request signer files.
struct OpenID4VPFixture {
  let base: CLIFixture
  let verifierKeyPath: String
  let verifierChainPath: String
  let otherKeyPath: String
  let otherChainPath: String
  let dcqlPath: String

  init() throws {
    base = try CLIFixture()
    let cli = base.cli
    let pki = base.pki
    let now = pki.clock
    // The SD-JWT issuer chains to the IACA the wallet trusts.
    let issuerKey = try ECPrivateKey(curve: .p256)
    let issuerCert = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: issuerKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400),
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("issuer.example")]),
      ]
    ).issued(by: pki.iaca, signer: pki.iacaKey)
    let holder = try ECPrivateKey(curve: .p256)
    let claims: JSONValue = .object([
      ("given_name", "Erika"), ("family_name", "Mustermann"), ("age_over_18", true),
    ])
    let sdJWT = try SDJWTIssuer.issue(
      claims: claims, selectivelyDisclosable: ["given_name", "family_name", "age_over_18"],
      holderKey: holder.publicKey,
      vct: "urn:eudi:pid:1", issuer: "https://issuer.example", issuedAt: now,
      expiresAt: now.addingTimeInterval(86_400),
      signer: issuerKey, x5c: [issuerCert], random: SecureRandom())
    let imported = try cli.run([
      "import", "--sd-jwt", try cli.file("pid.sdjwt", sdJWT.serialized), "--device-key",
      try cli.file("holder.pem", holder.pemRepresentation),
      "--id", "pid",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    // Two verifier certificates under one root the wallet trusts, and one under a root it does not.
    let rootKey = try ECPrivateKey(curve: .p256)
    let root = try CertificateBuilder.readerRoot(
      commonName: "Verifier CA", publicKey: rootKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: rootKey)
    #expect(
      try cli.run(["trust", "add", "--verifier", try cli.file("verifier-root.pem", root.pemString)])
        .code == 0)
    let verifierKey = try ECPrivateKey(curve: .p256)
    let verifierCert = try CertificateBuilder.openID4VPVerifier(
      dnsName: "shop.example", publicKey: verifierKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).issued(by: root, signer: rootKey)
    verifierKeyPath = try cli.file("verifier.pem", verifierKey.pemRepresentation)
    verifierChainPath = try cli.file("verifier-chain.pem", verifierCert.pemString)
    let strangerRootKey = try ECPrivateKey(curve: .p256)
    let strangerRoot = try CertificateBuilder.readerRoot(
      commonName: "Unknown CA", publicKey: strangerRootKey.publicKey,
      notBefore: now.addingTimeInterval(-3600),
      notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: strangerRootKey)
    let otherKey = try ECPrivateKey(curve: .p256)
    let otherCert = try CertificateBuilder.openID4VPVerifier(
      dnsName: "shop.example", publicKey: otherKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
    ).issued(by: strangerRoot, signer: strangerRootKey)
    otherKeyPath = try cli.file("other.pem", otherKey.pemRepresentation)
    otherChainPath = try cli.file("other-chain.pem", otherCert.pemString)
    dcqlPath = try cli.file(
      "dcql.json",
      #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}, {"path": ["age_over_18"]}]}, {"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"]}]}]}"#
    )
  }

  func request(
    _ protocolID: String, mode: String, signers: [(String, String)],
    origin: String = "https://shop.example"
  ) throws
    -> (request: String, state: String)
  {
    let cli = base.cli
    let requestPath = cli.home + "-files/oid-request-\(UUID().uuidString).json"
    let statePath = cli.home + "-files/oid-state-\(UUID().uuidString).json"
    var arguments = [
      "verifier", "request", "--protocol", protocolID, "--dcql", dcqlPath, "--response-mode", mode,
      "--origin", origin,
      "--out-request", requestPath, "--out-state", statePath,
    ]
    for (key, chain) in signers { arguments += ["--signer-key", key, "--signer-cert", chain] }
    let result = try cli.run(arguments)
    #expect(result.code == 0, "\(result.err)")
    return (requestPath, statePath)
  }
}

@Suite("dcwallet with OpenID4VP", .serialized)
struct OpenID4VPBinaryTests {
  @Test(
    "verifier request -> respond -> verify for every protocol id and response mode",
    arguments: [
      ("openid4vp-v1-unsigned", "dc_api"), ("openid4vp-v1-unsigned", "dc_api.jwt"),
      ("openid4vp-v1-signed", "dc_api"),
      ("openid4vp-v1-signed", "dc_api.jwt"), ("openid4vp-v1-multisigned", "dc_api.jwt"),
    ])
  func flow(protocolID: String, mode: String) throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let signers: [(String, String)] =
      switch protocolID {
      case "openid4vp-v1-signed": [(fixture.verifierKeyPath, fixture.verifierChainPath)]
      case "openid4vp-v1-multisigned":
        [
          (fixture.otherKeyPath, fixture.otherChainPath),
          (fixture.verifierKeyPath, fixture.verifierChainPath),
        ]
      default: []
      }
    let (request, state) = try fixture.request(protocolID, mode: mode, signers: signers)
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    #expect(response.code == 0, "\(response.err)")
    let json = try JSONValue(parsing: response.out)
    #expect(json["protocol"]?.string == protocolID)
    #expect((json["data"]?["response"] != nil) == (mode == "dc_api.jwt"))
    let verify = try cli.run(
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example",
        "--issuer-anchor", fixture.base.iacaPath, "--sd-jwt-issuer-anchor",
        fixture.base.iacaPath, "--json",
      ],
      stdin: response.out)
    try #require(verify.code == 0, "\(verify.err)")
    let result = try JSONValue(parsing: verify.out)
    #expect(result["credentials"]?["pid"]?[0]?["claims"]?["age_over_18"] == .bool(true))
    #expect(result["credentials"]?["pid"]?[0]?["claims"]?["given_name"] == .string("Erika"))
    // Only what the query asked for is disclosed: family_name stays hidden.
    #expect(result["credentials"]?["pid"]?[0]?["claims"]?["family_name"] == nil)
    #expect(
      result["credentials"]?["mdl"]?[0]?["claims"]?["org.iso.18013.5.1/age_over_18"] == .bool(true))
  }

  @Test(
    "Refusals: origin not expected, untrusted verifier chain, a multisigned request with no acceptable signature"
  )
  func refusals() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let (signed, _) = try fixture.request(
      "openid4vp-v1-signed", mode: "dc_api.jwt",
      signers: [(fixture.verifierKeyPath, fixture.verifierChainPath)])
    let wrongOrigin = try cli.run([
      "respond", "--origin", "https://evil.example", "--request", signed,
    ])
    #expect(
      wrongOrigin.code == 1 && wrongOrigin.out.isEmpty
        && wrongOrigin.err.contains("expected_origins"))
    let (untrusted, _) = try fixture.request(
      "openid4vp-v1-signed", mode: "dc_api",
      signers: [(fixture.otherKeyPath, fixture.otherChainPath)])
    let refused = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", untrusted,
    ])
    #expect(refused.code == 1 && refused.out.isEmpty)
    let (multi, _) = try fixture.request(
      "openid4vp-v1-multisigned", mode: "dc_api",
      signers: [(fixture.otherKeyPath, fixture.otherChainPath)])
    let none = try cli.run(["respond", "--origin", "https://shop.example", "--request", multi])
    #expect(none.code == 1 && none.out.isEmpty)
  }

  @Test(
    "Disclosing less than a query requires is the holder's choice; the verifier then refuses the response"
  )
  func partialDisclosure() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let (request, state) = try fixture.request("openid4vp-v1-unsigned", mode: "dc_api", signers: [])
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--disclose",
      "age_over_18", "--disclose",
      "org.iso.18013.5.1/age_over_18",
    ])
    #expect(response.code == 0, "\(response.err)")
    let shared = try JSONValue(parsing: response.out)
    let pid = try #require(shared["data"]?["vp_token"]?["pid"]?[0]?.string)
    #expect(!pid.contains("Erika") && pid.split(separator: "~").count == 3)
    let verify = try cli.run(
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example",
        "--issuer-anchor", fixture.base.iacaPath, "--sd-jwt-issuer-anchor",
        fixture.base.iacaPath,
      ], stdin: response.out)
    #expect(verify.code == 1 && verify.err.contains("given_name"))
    let unknown = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--disclose",
      "birthdate",
    ])
    // A claim that was not requested is ignored; naming only such claims is refused, saying so.
    #expect(unknown.code == 1)
    #expect(
      unknown.err
        == "dcwallet respond: the request asks for none of the claims given with --disclose "
        + "(birthdate)\n")
  }

  @Test("A declined OpenID4VP request can be answered with access_denied, and only on request")
  func declined() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let (request, _) = try fixture.request("openid4vp-v1-unsigned", mode: "dc_api", signers: [])
    let quiet = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "n\n")
    #expect(quiet.code == 1 && quiet.out.isEmpty)
    let answered = try cli.run(
      [
        "respond", "--origin", "https://shop.example", "--request", request, "--interactive",
        "--error-response",
      ], stdin: "n\n")
    #expect(answered.code == 1)
    let json = try JSONValue(parsing: answered.out)
    #expect(json["protocol"]?.string == "openid4vp-v1-unsigned")
    #expect(json["data"]?["error"]?.string == "access_denied")
    #expect(json["data"]?["vp_token"] == nil)
  }

  @Test("A tampered SD-JWT is rejected on import and nothing is written")
  func tamperedSDJWT() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let before = try cli.run(["list"]).out
    let holder = try ECPrivateKey(curve: .p256)
    let bad = try cli.run([
      "import", "--sd-jwt",
      try cli.file("bad.sdjwt", "eyJhbGciOiJub25lIn0.e30.~WyJzYWx0IiwiYSIsMV0~"), "--device-key",
      try cli.file("h2.pem", holder.pemRepresentation),
    ])
    #expect(bad.code == 1 && bad.out.isEmpty)
    #expect(try cli.run(["list"]).out == before)
    #expect(try cli.run(["show", "pid"]).out.contains("given_name: Erika"))
  }
}
