import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Runs the built `dcwallet` binary, as scripts will.
struct DCWallet {
  struct Result {
    let code: Int32
    let out: String
    let err: String
  }

  static var binary: String {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("dcwallet").path,
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent(".build/debug/dcwallet").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
  }

  let home: String
  /// The executable run: the debug build's unless a test points it elsewhere (a release
  /// build, for proving).
  var executable = DCWallet.binary

  init() throws {
    home =
      TestScratch.path("dcwallet-test")
  }

  func run(_ arguments: [String], stdin: String = "") throws -> Result {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DCWALLET_HOME")
    let result = try runProcess(
      executable, ["--home", home] + arguments, input: Array(stdin.utf8),
      environment: environment)
    return Result(
      code: result.status, out: result.out.trimmingCharacters(in: .whitespacesAndNewlines),
      err: result.err)
  }

  func file(_ name: String, _ contents: [UInt8]) throws -> String {
    try FileManager.default.createDirectory(
      atPath: home + "-files", withIntermediateDirectories: true)
    let path = home + "-files/" + name
    try Data(contents).write(to: URL(fileURLWithPath: path))
    return path
  }

  func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }
}

/// A wallet with an IACA, a reader root and an imported mDL, ready for requests.
struct CLIFixture {
  let cli: DCWallet
  let pki: TestPKI
  let iacaPath: String
  let readerKeyPath: String
  let readerCertPath: String

  init(importMDL: Bool = true) throws {
    cli = try DCWallet()
    // The CLI uses the real clock: make a PKI valid now.
    pki = try TestPKI(now: Date())
    iacaPath = try cli.file("iaca.pem", pki.iaca.pemString)
    readerKeyPath = try cli.file("reader-key.pem", pki.readerKey.pemRepresentation)
    readerCertPath = try cli.file("reader.pem", pki.reader.pemString)
    #expect(try cli.run(["trust", "add", "--issuer", iacaPath]).code == 0)
    #expect(
      try cli.run([
        "trust", "add", "--reader", try cli.file("reader-root.der", pki.readerRoot.derBytes),
      ]).code == 0)
    if importMDL {
      let device = try ECPrivateKey(curve: .p256)
      let mdoc = try pki.issue(deviceKey: device.publicKey)
      let imported = try cli.run([
        "import", "--mdoc", try cli.file("mdl.cbor", mdoc.bytes), "--device-key",
        try cli.file("device.pem", device.pemRepresentation),
        "--id", "mdl",
      ])
      #expect(imported.code == 0, "\(imported.err)")
      #expect(imported.out == "mdl")
    }
  }

  func request(
    origin: String = "https://shop.example", reader: Bool = true,
    elements: [String] = ["family_name", "age_over_18"]
  ) throws
    -> (request: String, state: String)
  {
    let requestPath = cli.home + "-files/request-\(UUID().uuidString).json"
    let statePath = cli.home + "-files/state-\(UUID().uuidString).json"
    var arguments = [
      "verifier", "request", "--protocol", "org-iso-mdoc", "--doctype", "org.iso.18013.5.1.mDL",
    ]
    for element in elements { arguments += ["--element", "org.iso.18013.5.1/\(element)"] }
    arguments += ["--origin", origin, "--out-request", requestPath, "--out-state", statePath]
    if reader { arguments += ["--reader-key", readerKeyPath, "--reader-cert", readerCertPath] }
    let result = try cli.run(arguments)
    #expect(result.code == 0, "\(result.err)")
    return (requestPath, statePath)
  }
}

@Suite("dcwallet binary", .serialized)
struct DCWalletBinaryTests {
  @Test("demo runs and every check passes")
  func demo() throws {
    let result = try DCWallet().run(["demo"])
    #expect(result.code == 0, "\(result.err)")
    #expect(result.out.contains("Every check passed."))
    #expect(result.out.contains("refused as expected"))
  }

  @Test("import, list, show, log, remove")
  func credentialCommands() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let list = try cli.run(["list"])
    #expect(
      list.code == 0 && list.out.contains("mdl") && list.out.contains("org.iso.18013.5.1.mDL"))
    let json = try JSONValue(parsing: try cli.run(["list", "--json"]).out)
    #expect(json.array?.first?["id"]?.string == "mdl")
    let show = try cli.run(["show", "mdl"])
    #expect(show.out.contains("org.iso.18013.5.1/family_name: Mustermann"))
    #expect(try cli.run(["trust", "list"]).out.contains("issuer"))
    #expect(try cli.run(["remove", "mdl"]).code == 0)
    #expect(try cli.run(["list"]).out == "no credentials")
    let missing = try cli.run(["show", "mdl"])
    #expect(missing.code == 1 && missing.out.isEmpty && missing.err.contains("no credential mdl"))
  }

  @Test("A tampered mdoc is rejected on import and nothing is written")
  func tamperedImport() throws {
    let fixture = try CLIFixture(importMDL: false)
    let cli = fixture.cli
    let device = try ECPrivateKey(curve: .p256)
    var bytes = try fixture.pki.issue(deviceKey: device.publicKey).bytes
    // Change one byte of an element value (inside the first IssuerSignedItem): its digest breaks.
    let marker = Array("Mustermann".utf8)
    if let at = (0..<(bytes.count - marker.count)).first(where: {
      Array(bytes[$0..<$0 + marker.count]) == marker
    }) {
      bytes[at] ^= 0x01
    }
    let result = try cli.run([
      "import", "--mdoc", try cli.file("tampered.cbor", bytes), "--device-key",
      try cli.file("d.pem", device.pemRepresentation),
    ])
    #expect(result.code == 1)
    #expect(result.out.isEmpty)
    #expect(result.err.contains("digest"))
    #expect(try cli.run(["list"]).out == "no credentials")
    // A device key that is not the MSO's is refused too.
    let other = try ECPrivateKey(curve: .p256)
    let good = try fixture.pki.issue(deviceKey: device.publicKey).bytes
    let wrongKey = try cli.run([
      "import", "--mdoc", try cli.file("good.cbor", good), "--device-key",
      try cli.file("o.pem", other.pemRepresentation),
    ])
    #expect(wrongKey.code == 1 && wrongKey.err.contains("device key"))
    #expect(try cli.run(["list"]).out == "no credentials")
  }

  @Test("verifier request -> respond -> verifier verify, with selective disclosure")
  func fullFlow() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, state) = try fixture.request()
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--disclose",
      "org.iso.18013.5.1/age_over_18",
      "--require-trusted-reader",
    ])
    #expect(response.code == 0, "\(response.err)")
    let responseJSON = try JSONValue(parsing: response.out)
    #expect(responseJSON["protocol"]?.string == "org-iso-mdoc")
    let verify = try cli.run(
      [
        "verifier", "verify", "--state", state, "--origin", "https://shop.example",
        "--issuer-anchor", fixture.iacaPath, "--json",
      ], stdin: response.out)
    #expect(verify.code == 0, "\(verify.err)")
    let result = try JSONValue(parsing: verify.out)
    #expect(result["documents"]?[0]?["elements"]?.keys == ["org.iso.18013.5.1/age_over_18"])
    // The log records the sharing.
    let log = try cli.run(["log"])
    #expect(
      log.out.contains("shared") && log.out.contains("org.iso.18013.5.1/age_over_18")
        && log.out.contains("https://shop.example"))
  }

  @Test("verifier verify names each requested element not returned; a policy can require them")
  func requestedButNotReturned() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, state) = try fixture.request()
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request, "--disclose",
      "org.iso.18013.5.1/age_over_18",
    ])
    #expect(response.code == 0, "\(response.err)")
    let verify = [
      "verifier", "verify", "--state", state, "--origin", "https://shop.example",
      "--issuer-anchor", fixture.iacaPath, "--no-status-check",
    ]
    let text = try cli.run(verify, stdin: response.out)
    #expect(text.code == 0, "\(text.err)")
    let lines = text.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("  org.iso.18013.5.1/family_name: not returned (requested)"))
    #expect(
      lines.contains(
        "ok  disclosure org.iso.18013.5.1.mDL: 1 element(s), all requested; "
          + "not returned: org.iso.18013.5.1/family_name"), "\(text.out)")
    let json = try cli.run(verify + ["--json"], stdin: response.out)
    let result = try JSONValue(parsing: json.out)
    #expect(result["documents"]?[0]?["notReturned"] == ["org.iso.18013.5.1/family_name"])
    let required = try cli.run(verify + ["--require-all-elements"], stdin: response.out)
    #expect(required.code == 1)
    #expect(required.out.isEmpty)
    #expect(
      required.err
        == "dcwallet verifier: verification failed: requested but not returned: "
        + "org.iso.18013.5.1.mDL org.iso.18013.5.1/family_name\n")
    // Everything returned: an empty notReturned, and the policy is met.
    let full = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    let all = try cli.run(verify + ["--json", "--require-all-elements"], stdin: full.out)
    #expect(all.code == 0, "\(all.err)")
    #expect(try JSONValue(parsing: all.out)["documents"]?[0]?["notReturned"] == [])
  }

  @Test(
    "respond takes data as an object or a JSON string, and the requests list with an unknown protocol first"
  )
  func requestForms() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (requestPath, state) = try fixture.request(reader: false)
    let request = try JSONValue(parsing: try Files.text(requestPath))
    let data = try #require(request["data"])
    let asString = JSONValue.object([
      ("protocol", .string("org-iso-mdoc")), ("data", .string(data.serialized())),
    ]).serialized()
    let list = JSONValue.object([
      (
        "requests",
        .array([
          .object([("protocol", .string("com.example.unknown")), ("data", .object([]))]), request,
        ])
      )
    ]).serialized()
    for body in [request.serialized(), asString, list] {
      let response = try cli.run(["respond", "--origin", "https://shop.example"], stdin: body)
      #expect(response.code == 0, "\(response.err)")
      let verify = try cli.run(
        [
          "verifier", "verify", "--state", state, "--origin", "https://shop.example",
          "--issuer-anchor", fixture.iacaPath,
        ], stdin: response.out)
      #expect(verify.code == 0, "\(verify.err)")
    }
  }

  @Test("Refusals exit 1 with a reason and nothing on standard output; the refusal is logged")
  func refusals() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (unsigned, _) = try fixture.request(reader: false)
    let (signed, _) = try fixture.request()
    let cases: [([String], String, String)] = [
      (
        [
          "respond", "--origin", "https://shop.example", "--request", unsigned,
          "--require-trusted-reader",
        ], "", "not signed"
      ),
      (["respond", "--origin", "https://evil.example", "--request", signed], "", "readerAuth"),
      (
        [
          "respond", "--origin", "https://shop.example", "--request", unsigned, "--credential",
          "nope",
        ], "", "no credential nope (see 'dcwallet list')"
      ),
      (
        [
          "respond", "--origin", "https://shop.example", "--request", unsigned, "--disclose",
          "org.iso.18013.5.1/portrait",
        ], "",
        "the request asks for none of the claims given with --disclose "
          + "(org.iso.18013.5.1/portrait)"
      ),
      (
        ["respond", "--origin", "https://shop.example"],
        #"{"protocol": "com.example.unknown", "data": {}}"#, "unsupported protocol"
      ),
      (["respond", "--origin", "https://shop.example"], "not json", "cannot be read"),
      (
        ["respond", "--origin", "https://shop.example/path", "--request", unsigned], "",
        "not a web origin"
      ),
    ]
    for (arguments, stdin, reason) in cases {
      let result = try cli.run(arguments, stdin: stdin)
      #expect(result.code == 1, "\(arguments)")
      #expect(result.out.isEmpty, "\(arguments)")
      #expect(result.err.contains(reason), "\(arguments): \(result.err)")
      #expect(result.err.split(separator: "\n").count == 1, "\(arguments)")
    }
    let log = try cli.run(["log", "--json"])
    let entries = try JSONValue(parsing: log.out).array ?? []
    #expect(entries.contains { $0["outcome"]?.string == "refused" })
    #expect(!entries.contains { $0["outcome"]?.string == "shared" })
  }

  @Test("--interactive shows a consent screen on standard error and shares only on yes")
  func interactive() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let (request, _) = try fixture.request()
    let declined = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "n\n")
    #expect(declined.code == 1 && declined.out.isEmpty)
    #expect(declined.err.contains("Test Reader (trusted)"))
    #expect(declined.err.contains("org.iso.18013.5.1/family_name (not retained): Mustermann"))
    #expect(declined.err.contains("declined"))
    let accepted = try cli.run(
      ["respond", "--origin", "https://shop.example", "--request", request, "--interactive"],
      stdin: "y\n")
    #expect(accepted.code == 0, "\(accepted.err)")
    #expect(try JSONValue(parsing: accepted.out)["protocol"]?.string == "org-iso-mdoc")
    let log = try JSONValue(parsing: try cli.run(["log", "--json"]).out).array ?? []
    #expect(log.map { $0["outcome"]?.string } == ["shared", "refused"])
  }

  @Test(
    "registry android writes matcher data; registry ios prints the plan; inspect reads them back")
  func registryAndInspect() throws {
    let fixture = try CLIFixture()
    let cli = fixture.cli
    let out = cli.home + "-files/registry.cbor"
    let android = try cli.run(["registry", "android", "--out", out])
    #expect(android.code == 0, "\(android.err)")
    let inspected = try cli.run(["inspect", out])
    #expect(inspected.out.contains("multipaz matcher registry database"))
    #expect(inspected.out.contains("\"documentId\": \"mdl\""))
    let gated = try cli.run([
      "registry", "android", "--matcher", "cmwallet", "--reader-gate", "AQID", "--out", out,
    ])
    #expect(gated.code == 1 && gated.err.contains("gate"))
    let ios = try cli.run([
      "registry", "ios", "--mdoc-types", "org.iso.18013.5.1.mDL", "--registered", "stale", "--json",
    ])
    #expect(ios.code == 0, "\(ios.err)")
    let plan = try JSONValue(parsing: ios.out)
    #expect(plan.serialized().contains("mdl") && plan.serialized().contains("stale"))
    let notEntitled = try cli.run(["registry", "ios"])
    #expect(notEntitled.out.contains("skip") && notEntitled.out.contains("mdl"))
    #expect(try cli.run(["registry", "ios", "--os-version", "25.0"]).code == 2)
    // inspect a request, a response and a credential.
    let (request, _) = try fixture.request()
    #expect(try cli.run(["inspect", request]).out.contains("deviceRequest"))
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    let responsePath = try cli.file("response.json", response.out)
    #expect(try cli.run(["inspect", responsePath]).out.contains("EncryptedResponse"))
    #expect(
      try cli.run(["inspect", cli.home + "-files/mdl.cbor"]).out.contains(
        "IssuerSigned: org.iso.18013.5.1.mDL"))
    #expect(
      try cli.run(["inspect", try cli.file("junk.bin", [0xff, 0x00, 0x13])]).out.contains(
        "not recognised"))
  }

  @Test("Usage errors exit 2; --help exits 0 for every command")
  func usage() throws {
    let cli = try DCWallet()
    for arguments in [
      ["bogus"], ["import"], ["import", "--mdoc", "x", "--sd-jwt", "y", "--device-key", "k"],
      ["respond"], ["respond", "--origin"],
      ["list", "--bogus"], ["trust"], ["trust", "add"], ["verifier"],
      ["verifier", "request", "--protocol", "org-iso-mdoc"], ["log", "--limit", "x"],
      [],
    ] {
      let result = try cli.run(arguments)
      #expect(result.code == 2, "\(arguments): \(result.err)")
      #expect(result.out.isEmpty, "\(arguments)")
    }
    for command in [
      "import", "list", "show", "remove", "trust", "respond", "log", "verifier", "demo",
    ] {
      let result = try cli.run([command, "--help"])
      #expect(result.code == 0, "\(command)")
      #expect(result.out.contains("usage: dcwallet"), "\(command)")
    }
  }
}

enum Files {
  static func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }
}
