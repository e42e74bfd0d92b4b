import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOrgIsoMdoc
import DCTestSupport
import DCWalletCLI
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 10 §1, §4, §7.10 and §7.14 through the built binary: request shapes, verifying and
/// opening captured exchanges without a state, `--at`, the two issuer anchor lists, and the
/// verifier state's file mode.
@Suite("dcwallet: captured exchanges and request shapes", .serialized)
struct CapturedExchangeBinaryTests {
  /// The walt.id deterministic capture, as files: the request in the shape a page passes to
  /// navigator.credentials.get, the response envelope and the verifier's key as a JWK.
  struct WaltIDFiles {
    let origin: String
    let request: String
    let response: String
    let key: String

    init(_ cli: DCWallet) throws {
      let vector = try #require(
        try JSONValue(parsing: VectorFile.bytes("annex-c-waltid-deterministic", in: .module))[
          "vector"])
      origin = try #require(vector["origin"]?.string)
      let data = JSONValue.object([
        ("deviceRequest", .string(try #require(vector["deviceRequestB64"]?.string))),
        ("encryptionInfo", .string(try #require(vector["encryptionInfoB64"]?.string))),
      ])
      let page = JSONValue.object([
        (
          "digital",
          .object([("requests", .array([.object([("protocol", "org-iso-mdoc"), ("data", data)])]))])
        ),
        ("mediation", "required"),
      ])
      request = try cli.file("waltid-request.json", page.serialized())
      response = try cli.file(
        "waltid-response.json",
        JSONValue.object([
          ("protocol", "org-iso-mdoc"),
          (
            "data",
            .object([("response", .string(try #require(vector["encryptedResponseB64"]?.string)))])
          ),
        ]).serialized())
      let privateKey = try ECPrivateKey(
        rawRepresentation: hexBytes(try #require(vector["recipientPrivateKeyHex"]?.string)),
        curve: .p256)
      key = try cli.file("waltid-key.jwk", JWK(privateKey: privateKey).json.serialized())
    }
  }

  static func expectRefusal(_ result: DCWallet.Result, containing text: String) {
    #expect(result.code == 1)
    #expect(result.out.isEmpty)
    let lines = result.err.split(separator: "\n")
    #expect(lines.count == 1, "\(result.err)")
    #expect(result.err.contains(text), "\(result.err)")
  }

  @Test("walt.id capture: verify without a state opens it and reports that it holds no documents")
  func waltIDVerify() throws {
    let cli = try DCWallet()
    let files = try WaltIDFiles(cli)
    let result = try cli.run([
      "verifier", "verify", "--request", files.request, "--recipient-key", files.key, "--origin",
      files.origin, "--response", files.response,
    ])
    Self.expectRefusal(
      result,
      containing:
        "verification failed: the response opened and its DeviceResponse 1.0 has status 0 (OK), but it holds no documents: nothing was presented for org.iso.18013.5.1.mDL"
    )
    // Another spelling of the origin is another origin: the response does not open.
    let other = try cli.run([
      "verifier", "verify", "--request", files.request, "--recipient-key", files.key, "--origin",
      "https://VERIFIER.example", "--response", files.response,
    ])
    Self.expectRefusal(other, containing: "verification failed")
    #expect(!other.err.contains("holds no documents"))
  }

  @Test("walt.id capture: inspect --key opens the HPKE response and prints the DeviceResponse")
  func waltIDInspect() throws {
    let cli = try DCWallet()
    let files = try WaltIDFiles(cli)
    let result = try cli.run([
      "inspect", "--key", files.key, "--origin", files.origin, "--request", files.request,
      files.response,
    ])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("Annex C response (HPKE opened for https://verifier.example"))
    #expect(result.out.contains("DeviceResponse 1.0, status 0 (OK), 0 document(s)"))
    #expect(result.out.contains(#""status": 0"#))
    // Without the request there is no EncryptionInfo for the HPKE info: a usage error.
    let noRequest = try cli.run([
      "inspect", "--key", files.key, "--origin", files.origin, files.response,
    ])
    #expect(noRequest.code == 2 && noRequest.out.isEmpty)
    #expect(noRequest.err.contains("needs --request"))
    // A wrong key is a one-line refusal.
    let wrongKey = try cli.run([
      "inspect", "--key",
      try cli.file("other.pem", try ECPrivateKey(curve: .p256).pemRepresentation),
      "--origin", files.origin, "--request", files.request, files.response,
    ])
    Self.expectRefusal(wrongKey, containing: "the Annex C response does not open")
  }

  @Test(
    "Our own org-iso-mdoc exchange verifies without the state, with --at, and --at with --state")
  func ownAnnexCWithoutState() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, state) = try fixture.request()
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    try #require(response.code == 0, "\(response.err)")
    let responsePath = try cli.file("response.json", response.out)
    // The verifier's key, as a debugging developer has it: PEM.
    let stateJSON = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: state))))
    let scalar = try Base64URL.decode(try #require(stateJSON["recipientPrivateKey"]?.string))
    let keyPath = try cli.file(
      "verifier-hpke.pem",
      try ECPrivateKey(rawRepresentation: scalar, curve: .p256).pemRepresentation)
    let stateless = [
      "verifier", "verify", "--request", request, "--recipient-key", keyPath, "--origin",
      "https://shop.example", "--response", responsePath, "--issuer-anchor", fixture.iacaPath,
    ]
    let verified = try cli.run(stateless + ["--json"])
    try #require(verified.code == 0, "\(verified.err)")
    let json = try JSONValue(parsing: verified.out)
    #expect(json["documents"]?[0]?["elements"]?["org.iso.18013.5.1/family_name"] == "Mustermann")
    // The MSO is valid for 90 days: a year later it has expired, with or without a state.
    let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400 * 365))
    Self.expectRefusal(try cli.run(stateless + ["--at", later]), containing: "verification failed")
    let withState = [
      "verifier", "verify", "--state", state, "--origin", "https://shop.example", "--response",
      responsePath, "--issuer-anchor", fixture.iacaPath,
    ]
    #expect(try cli.run(withState).code == 0)
    Self.expectRefusal(try cli.run(withState + ["--at", later]), containing: "verification failed")
    let bad = try cli.run(withState + ["--at", "yesterday"])
    #expect(bad.code == 2 && bad.err.contains("RFC 3339"))
    // Trust in the document signer itself, pinned as the anchor.
    let pinned = try cli.run([
      "verifier", "verify", "--request", request, "--recipient-key", keyPath, "--origin",
      "https://shop.example", "--response", responsePath, "--issuer-anchor",
      try cli.file("ds.pem", fixture.pki.documentSigner.pemString),
    ])
    #expect(pinned.code == 0, "\(pinned.err)")
    #expect(pinned.out.contains("document signer pinned as an issuer anchor (direct trust)"))
    #expect(json["documents"]?[0]?["trust"] == "chain to a trusted IACA")
    // Without anchors the issuer is not trusted.
    Self.expectRefusal(
      try cli.run(Array(stateless.dropLast(2))), containing: "is not trusted")
    // A key that is not the request's: refused before any decryption.
    Self.expectRefusal(
      try cli.run([
        "verifier", "verify", "--request", request, "--recipient-key",
        try cli.file("stranger.pem", try ECPrivateKey(curve: .p256).pemRepresentation),
        "--origin", "https://shop.example", "--response", responsePath,
      ]), containing: "the recipient key is not the one the request's EncryptionInfo names")
    // --state excludes --request.
    #expect(try cli.run(withState + ["--request", request]).code == 2)
  }

  @Test(
    "Our own signed OpenID4VP exchange: stateless verify with the JWK, anchors kept apart, inspect --key"
  )
  func ownOpenID4VPWithoutState() throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let (request, state) = try fixture.request(
      "openid4vp-v1-signed", mode: "dc_api.jwt",
      signers: [(fixture.verifierKeyPath, fixture.verifierChainPath)])
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    try #require(response.code == 0, "\(response.err)")
    let responsePath = try cli.file("oid-response.json", response.out)
    let stateJSON = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: state))))
    let keyPath = try cli.file(
      "oid-key.jwk", try #require(stateJSON["encryption_key"]).serialized())
    let base = [
      "verifier", "verify", "--request", request, "--recipient-key", keyPath, "--origin",
      "https://shop.example", "--response", responsePath, "--issuer-anchor", fixture.base.iacaPath,
    ]
    // The mdoc list does not vouch for the SD-JWT VC issuer.
    Self.expectRefusal(try cli.run(base), containing: "pid")
    let verified = try cli.run(base + ["--sd-jwt-issuer-anchor", fixture.base.iacaPath, "--json"])
    try #require(verified.code == 0, "\(verified.err)")
    let json = try JSONValue(parsing: verified.out)
    #expect(json["credentials"]?["pid"]?[0]?["claims"]?["given_name"] == "Erika")
    // The SD-JWT list does not vouch for the mdoc issuer either.
    Self.expectRefusal(
      try cli.run(
        Array(base.dropLast(2)) + ["--sd-jwt-issuer-anchor", fixture.base.iacaPath]),
      containing: "mdl")
    // inspect --key opens the JWE and decodes each presentation.
    let inspect = try cli.run(["inspect", "--key", keyPath, responsePath])
    #expect(inspect.code == 0, "\(inspect.err)")
    #expect(inspect.out.contains("OpenID4VP response (JWE opened with the given key)"))
    #expect(inspect.out.contains("vp_token.pid[0]:"))
    #expect(inspect.out.contains("SD-JWT with"))
    #expect(inspect.out.contains("vp_token.mdl[0]:"))
    #expect(inspect.out.contains("DeviceResponse 1.0, status 0 (OK), 1 document(s)"))
    let wrongKey = try cli.run([
      "inspect", "--key",
      try cli.file("oid-other.pem", try ECPrivateKey(curve: .p256).pemRepresentation),
      responsePath,
    ])
    Self.expectRefusal(wrongKey, containing: "the JWE response does not open with this key")
    // A key the request did not publish is named as such.
    Self.expectRefusal(
      try cli.run([
        "verifier", "verify", "--request", request, "--recipient-key",
        try cli.file("oid-stranger.pem", try ECPrivateKey(curve: .p256).pemRepresentation),
        "--origin", "https://shop.example", "--response", responsePath,
      ]), containing: "the recipient key is not in the request's client_metadata.jwks")
  }

  @Test(
    "respond reads the navigator.credentials.get argument and legacy providers; a malformed entry is skipped"
  )
  func respondToEveryShape() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, _) = try fixture.request()
    let sent = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: request))))
    let data = try #require(sent["data"])
    let shapes: [JSONValue] = [
      .object([
        ("digital", .object([("requests", .array([sent]))])), ("mediation", "required"),
        ("signal", .object([])),
      ]),
      .object([
        (
          "providers",
          .array([.object([("protocol", "org-iso-mdoc"), ("request", .string(data.serialized()))])])
        )
      ]),
      .object([
        (
          "digital",
          .object([
            ("providers", .array([.object([("protocol", "org-iso-mdoc"), ("request", data)])]))
          ])
        )
      ]),
      // A malformed entry among good ones: skipped, not an envelope-level error.
      .object([
        (
          "digital",
          .object([("requests", .array([.object([("protocol", 5)]), "junk", sent]))])
        )
      ]),
    ]
    for (index, shape) in shapes.enumerated() {
      let path = try cli.file("shape-\(index).json", shape.serialized())
      // inspect reads every shape too.
      let inspected = try cli.run(["inspect", path])
      #expect(inspected.code == 0 && inspected.out.contains("deviceRequest ("), "shape \(index)")
      let answered = try cli.run(["respond", "--origin", "https://shop.example", "--request", path])
      #expect(answered.code == 0, "shape \(index): \(answered.err)")
      #expect(answered.out.contains(#""protocol":"org-iso-mdoc""#), "shape \(index)")
    }
    // When nothing can be answered, the refusal names each entry's reason.
    let onlyBad = try cli.file(
      "only-bad.json",
      #"{"digital": {"requests": [{"protocol": 5}, {"protocol": "x-unknown", "data": {}}]}}"#)
    let refused = try cli.run(["respond", "--origin", "https://shop.example", "--request", onlyBad])
    Self.expectRefusal(refused, containing: #"requests[0]: a request needs a string "protocol""#)
    #expect(refused.err.contains("x-unknown: unsupported protocol"))
  }

  @Test("The verifier state is created 0600: the file never exists with a wider mode")
  func stateFileMode() throws {
    let directory = TestScratch.path("secret")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/state.json"
    var modeBeforeRename: Int?
    try SecretFile.create(Array("{}".utf8), to: path) { temporary in
      modeBeforeRename =
        (try? FileManager.default.attributesOfItem(atPath: temporary)[.posixPermissions]) as? Int
    }
    #expect(modeBeforeRename == 0o600)
    #expect(
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int == 0o600)
    // Replacing an existing, wider file leaves a 0600 file.
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
    try SecretFile.create(Array("{}".utf8), to: path)
    #expect(
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}")
    // The commands that write a state use it.
    let fixture = try CLIFixture(importMDL: false)
    let (_, state) = try fixture.request()
    #expect(
      (try FileManager.default.attributesOfItem(atPath: state)[.posixPermissions]) as? Int == 0o600)
  }

  @Test(
    "verify without a state refuses a sent request it cannot rebuild, naming why",
    arguments: [
      (
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"response_mode": "dc_api", "dcql_query": {}}}"#,
        "the request has no string nonce"
      ),
      (
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n", "response_mode": "fragment", "dcql_query": {}}}"#,
        "response_mode is not dc_api or dc_api.jwt"
      ),
      (
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n", "response_mode": "dc_api"}}"#,
        "the request has no dcql_query"
      ),
      (
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n", "response_mode": "dc_api", "dcql_query": {}, "transaction_data": [1]}}"#,
        "transaction_data must be an array of strings"
      ),
      (
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n", "response_mode": "dc_api.jwt", "dcql_query": {}}}"#,
        "the request asks for an encrypted response: give its private key"
      ),
      (
        #"{"protocol": "openid4vp-v1-signed", "data": {"nonce": "n"}}"#,
        #"a signed request is {"request": <compact JWS>}"#
      ),
      (
        #"{"protocol": "openid4vp-v1-multisigned", "data": {"payload": "e30", "signatures": "x"}}"#,
        "the request JWS"
      ),
      (
        #"{"protocol": "openid4vp", "data": {"nonce": "n", "response_mode": "dc_api", "dcql_query": {}}}"#,
        "cannot be verified with OpenID4VP 1.0 semantics"
      ),
      (
        #"{"protocol": "org-iso-mdoc", "data": {"deviceRequest": "AA", "encryptionInfo": "AA"}}"#,
        "an org-iso-mdoc response is sealed to the verifier: give --recipient-key"
      ),
      (
        #"{"protocol": "x-unknown", "data": {}}"#,
        "the request holds no org-iso-mdoc or OpenID4VP entry to verify"
      ),
    ])
  func unusableSentRequest(request: String, reason: String) throws {
    let cli = try DCWallet()
    let result = try cli.run([
      "verifier", "verify", "--request", try cli.file("sent.json", request), "--origin",
      "https://shop.example", "--response", try cli.file("answer.json", #"{"vp_token": {}}"#),
    ])
    Self.expectRefusal(result, containing: reason)
  }

  @Test("A response that answers a protocol the request did not use is refused")
  func responseForAnotherProtocol() throws {
    let cli = try DCWallet()
    let result = try cli.run([
      "verifier", "verify", "--request",
      try cli.file(
        "sent.json",
        #"{"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n", "response_mode": "dc_api", "dcql_query": {}}}"#
      ),
      "--origin", "https://shop.example", "--response",
      try cli.file("answer.json", #"{"protocol": "org-iso-mdoc", "data": {"response": "AA"}}"#),
    ])
    Self.expectRefusal(
      result, containing: "the response answers org-iso-mdoc, which the request does not ask")
  }

  @Test(
    "Stateless verification of our own unsigned and multisigned OpenID4VP exchanges",
    arguments: [("openid4vp-v1-unsigned", "dc_api"), ("openid4vp-v1-multisigned", "dc_api.jwt")])
  func ownOpenID4VPProtocols(protocolID: String, mode: String) throws {
    let fixture = try OpenID4VPFixture()
    let cli = fixture.base.cli
    let signers =
      protocolID == "openid4vp-v1-multisigned"
      ? [
        (fixture.otherKeyPath, fixture.otherChainPath),
        (fixture.verifierKeyPath, fixture.verifierChainPath),
      ]
      : []
    let (request, state) = try fixture.request(protocolID, mode: mode, signers: signers)
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    try #require(response.code == 0, "\(response.err)")
    var arguments = [
      "verifier", "verify", "--request", request, "--origin", "https://shop.example", "--response",
      try cli.file("answer-\(protocolID).json", response.out), "--issuer-anchor",
      fixture.base.iacaPath, "--sd-jwt-issuer-anchor", fixture.base.iacaPath, "--json",
    ]
    if mode == "dc_api.jwt" {
      let stateJSON = try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: state))))
      arguments += [
        "--recipient-key",
        try cli.file(
          "key-\(protocolID).jwk", try #require(stateJSON["encryption_key"]).serialized()),
      ]
    }
    let verified = try cli.run(arguments)
    try #require(verified.code == 0, "\(verified.err)")
    let json = try JSONValue(parsing: verified.out)
    #expect(json["credentials"]?["pid"]?[0]?["claims"]?["age_over_18"] == .bool(true))
    #expect(
      json["credentials"]?["mdl"]?[0]?["claims"]?["org.iso.18013.5.1/age_over_18"] == .bool(true))
    // The same exchange checked for another origin fails: the key binding names the origin.
    var elsewhere = arguments
    elsewhere[try #require(elsewhere.firstIndex(of: "https://shop.example"))] =
      "https://evil.example"
    Self.expectRefusal(try cli.run(elsewhere), containing: "verification failed")
  }
}
