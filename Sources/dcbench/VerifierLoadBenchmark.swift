import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJOSE
import DCJSON
import DCSDJWT
import DCVerifier
import DCX509
import Foundation

/// Issue 31: verifier servers under load on loopback. Each presentation is the whole redirect
/// flow as a wallet and a frontend drive it: `POST /transactions` on instance A, the request
/// object fetched from B, the SD-JWT VC presented (KB-JWT) and the `direct_post.jwt` response
/// encrypted and posted to A, the verified result read on B (one instance: A is B). Clients run
/// for `DCBENCH_LOAD_SECONDS` (default 5; the published figures: 60) on SQLite and, when
/// `DCWALLET_POSTGRESQL_URL` names a server, PostgreSQL. Every loop is bounded by that deadline.
func verifierLoadBenchmark(_ h: inout Harness) async throws {
  let environment = ProcessInfo.processInfo.environment
  let seconds = environment["DCBENCH_LOAD_SECONDS"].flatMap(Double.init) ?? 5
  let clients = environment["DCBENCH_LOAD_CLIENTS"].flatMap(Int.init) ?? 8
  let setup = try LoadSetup()
  try await serverCostRatio(setup)
  var backends: [(String, @Sendable () throws -> any PresentationTransactionStore)] = []
  let directory = NSTemporaryDirectory() + "dcbench-load-\(getpid())"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  backends.append(
    (
      "SQLite",
      {
        try SQLitePresentationTransactionStore(path: directory + "/t.sqlite", capacity: 10_000_000)
      }
    ))
  if let url = environment["DCWALLET_POSTGRESQL_URL"], !url.isEmpty {
    backends.append(
      (
        "PostgreSQL",
        {
          try PostgreSQLPresentationTransactionStore(url: url, capacity: 10_000_000, connections: 8)
        }
      ))
  } else {
    print("  PostgreSQL: skipped (set DCWALLET_POSTGRESQL_URL)")
  }
  print(String(format: "  %d clients, %.0f s per run", clients, seconds))
  for (name, makeStore) in backends {
    for count in [1, 2] {
      let instances = try (0..<count).map { _ in try LoadInstance(setup, store: makeStore()) }
      defer { for instance in instances { instance.server.stop() } }
      let run = try await LoadRun.run(setup, instances, clients: clients, seconds: seconds)
      print(
        "  "
          + "\(name), \(count) instance\(count == 1 ? "" : "s")".padding(
            toLength: 26, withPad: " ", startingAt: 0)
          + String(
            format: "%7.1f verified presentations/s  p50 %6.1f ms  p99 %6.1f ms  errors %d of %d",
            Double(run.latencies.count) / run.elapsed, run.percentile(0.5) * 1000,
            run.percentile(0.99) * 1000, run.errors, run.latencies.count + run.errors))
    }
  }
}

/// The verifier's signing material, its trust in the PID issuer, and the wallet's PID.
struct LoadSetup: @unchecked Sendable {
  let configuration: PresentationVerifierConfiguration
  let pid: SDJWT
  let holderKey: ECPrivateKey
  static let query: JSONValue = [
    "credentials": [
      [
        "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:eudi:pid:1"]],
        "claims": [["path": ["given_name"]]],
      ]
    ]
  ]

  init() throws {
    let now = Date()
    let (from, until) = (now.addingTimeInterval(-3600), now.addingTimeInterval(86_400))
    let rootKey = try ECPrivateKey(curve: .p256)
    let root = try CertificateBuilder.readerRoot(
      commonName: "Load Verifier CA", publicKey: rootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: rootKey)
    let leafKey = try ECPrivateKey(curve: .p256)
    let leaf = try CertificateBuilder.openID4VPVerifier(
      dnsName: "localhost", publicKey: leafKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: root, signer: rootKey)
    let issuerRootKey = try ECPrivateKey(curve: .p256)
    let issuerRoot = try CertificateBuilder.iaca(
      commonName: "Load PID Root", country: "UT", publicKey: issuerRootKey.publicKey,
      notBefore: from, notAfter: until
    ).selfSigned(signer: issuerRootKey)
    let issuerKey = try ECPrivateKey(curve: .p256)
    let issuer = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Load PID Issuer", country: "UT"),
      publicKey: issuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("pid.example")]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: issuerKey.publicKey)),
      ]
    ).issued(by: issuerRoot, signer: issuerRootKey)
    holderKey = try ECPrivateKey(curve: .p256)
    pid = try SDJWTIssuer.issue(
      claims: ["given_name": "Erika", "family_name": "Mustermann"],
      selectivelyDisclosable: ["given_name", "family_name"], decoys: 0,
      holderKey: holderKey.publicKey, vct: "urn:eudi:pid:1", issuer: "https://pid.example",
      issuedAt: from, expiresAt: until, signer: issuerKey, x5c: [issuer], random: SecureRandom())
    configuration = PresentationVerifierConfiguration(
      baseURL: "",
      x509SANDNS: .x509SANDNS(
        dnsName: "localhost", certificateChain: [leaf, root], signer: leafKey),
      sdJWTIssuerAnchors: [issuerRoot])
  }

  /// The wallet's `direct_post.jwt` body for a request object's payload.
  func responseBody(_ request: JSONValue) throws -> [UInt8] {
    let presentation = try pid.present(
      disclosing: [ClaimPath([.key("given_name")])],
      keyBinding: KeyBinding(
        signer: holderKey, audience: request["client_id"]?.string ?? "",
        nonce: request["nonce"]?.string ?? "", issuedAt: Date()))
    let payload = JSONValue.object([
      ("vp_token", .object([("pid", .array([.string(presentation)]))])),
      ("state", .string(request["state"]?.string ?? "")),
    ])
    guard let keyJSON = request["client_metadata"]?["jwks"]?["keys"]?.array?.first else {
      throw BenchError("the request has no encryption key")
    }
    let key = try JWK(json: keyJSON)
    let jwe = try JWE.encrypt(
      plaintext: payload.serializedBytes(), recipient: try key.publicKey(), enc: .a128gcm,
      kid: key.kid)
    return Array(("response=" + LoadSetup.formEncode(jwe)).utf8)
  }

  static func formEncode(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
  }
}

/// One `verifier serve` instance in this process: a loopback server over its own store handle.
final class LoadInstance: @unchecked Sendable {
  let server: DevelopmentHTTPServer
  let base: String

  init(_ setup: LoadSetup, store: any PresentationTransactionStore) throws {
    let box = LoadHandlerBox()
    server = DevelopmentHTTPServer(
      handler: box, configuration: DevelopmentHTTPServer.Configuration(maxConnections: 256))
    base = "http://localhost:\(try server.start())"
    var configuration = setup.configuration
    configuration.baseURL = base
    box.set(
      PresentationVerifierHTTPHandler(
        verifier: PresentationVerifier(configuration: configuration, store: store)))
  }
}

private final class LoadHandlerBox: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var handler: (any HTTPHandler)?
  func set(_ handler: any HTTPHandler) { lock.withLock { self.handler = handler } }
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    guard let handler = lock.withLock({ handler }) else { return HTTPResponse(status: 503) }
    return await handler.handle(request)
  }
}
