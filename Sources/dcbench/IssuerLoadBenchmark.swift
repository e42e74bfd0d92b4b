import DCCBOR
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCIssuer
import DCJSON
import DCOpenID4VCI
import DCX509
import Foundation

/// Issue 31: issuer servers under load on loopback. Each issuance: a pre-authorized offer made
/// on instance A (what `issuer offer` does), the token from B (DPoP), a `c_nonce` from A, one mDL
/// from A (key proof, DPoP with `ath`). 8 clients for `DCBENCH_LOAD_SECONDS` (default 5), one and
/// two instances, SQLite and (with `DCWALLET_POSTGRESQL_URL`) PostgreSQL.
func issuerLoadBenchmark(_ h: inout Harness) async throws {
  let environment = ProcessInfo.processInfo.environment
  let seconds = environment["DCBENCH_LOAD_SECONDS"].flatMap(Double.init) ?? 5
  let clients = environment["DCBENCH_LOAD_CLIENTS"].flatMap(Int.init) ?? 8
  let configuration = try issuerLoadConfiguration()
  let directory = NSTemporaryDirectory() + "dcbench-issuer-load-\(getpid())"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  var backends: [(String, @Sendable () throws -> any IssuerStateStore)] = [
    ("SQLite", { try SQLiteIssuerStateStore(path: directory + "/state.sqlite") })
  ]
  if let url = environment["DCWALLET_POSTGRESQL_URL"], !url.isEmpty {
    backends.append(("PostgreSQL", { try PostgreSQLIssuerStateStore(url: url, connections: 8) }))
  } else {
    print("  PostgreSQL: skipped (set DCWALLET_POSTGRESQL_URL)")
  }
  print(String(format: "  %d clients, %.0f s per run", clients, seconds))
  for (name, makeStore) in backends {
    for count in [1, 2] {
      let instances = try (0..<count).map { _ in
        try IssuerLoadInstance(configuration, store: makeStore())
      }
      defer { for instance in instances { instance.server.stop() } }
      let run = try await IssuerLoadRun.run(instances, clients: clients, seconds: seconds)
      let label = "\(name), \(count) instance\(count == 1 ? "" : "s")"
      print(
        "  " + label.padding(toLength: 26, withPad: " ", startingAt: 0)
          + String(
            format: "%7.1f issued credentials/s  p50 %6.1f ms  p99 %6.1f ms  errors %d of %d",
            Double(run.latencies.count) / run.elapsed, run.percentile(0.5) * 1000,
            run.percentile(0.99) * 1000, run.errors, run.latencies.count + run.errors))
    }
  }
}

/// An mDL issuer on the public URL every instance shares (as behind a load balancer).
func issuerLoadConfiguration() throws -> IssuerConfiguration {
  let now = Date()
  let (from, until) = (now.addingTimeInterval(-86_400), now.addingTimeInterval(86_400))
  let iacaKey = try ECPrivateKey(curve: .p256)
  let iaca = try CertificateBuilder.iaca(
    commonName: "Load IACA", country: "UT", publicKey: iacaKey.publicKey, notBefore: from,
    notAfter: until
  ).selfSigned(signer: iacaKey)
  let dsKey = try ECPrivateKey(curve: .p256)
  let ds = try CertificateBuilder.documentSigner(
    commonName: "Load DS", country: "UT", publicKey: dsKey.publicKey, notBefore: from,
    notAfter: until
  ).issued(by: iaca, signer: iacaKey)
  return IssuerConfiguration(
    credentialIssuer: try IssuerIdentifier("http://127.0.0.1:8080", policy: .development),
    display: [IssuerDisplay(name: "Utopia DMV", locale: "en")],
    credentials: [
      IssuableCredential(
        id: "mDL",
        content: .mdoc(
          doctype: "org.iso.18013.5.1.mDL",
          nameSpaces: [
            ("org.iso.18013.5.1", [("family_name", "Mustermann"), ("given_name", "Erika")])
          ]),
        display: [CredentialDisplay(name: "Mobile Driving Licence", locale: "en")])
    ],
    batchSize: 1, signer: dsKey, certificateChain: [ds], iacas: [iaca], autoApprove: true)
}

/// One `issuer serve` instance in this process: a loopback server over its own store handle.
final class IssuerLoadInstance: @unchecked Sendable {
  let server: DevelopmentHTTPServer
  let base: String
  let service: CredentialIssuerService

  init(_ configuration: IssuerConfiguration, store: any IssuerStateStore) throws {
    service = CredentialIssuerService(configuration: configuration, store: store)
    server = DevelopmentHTTPServer(
      handler: IssuerHTTPHandler(service: service),
      configuration: DevelopmentHTTPServer.Configuration(maxConnections: 256))
    base = "http://127.0.0.1:\(try server.start())"
  }
}

/// One load run of issuances, as ``LoadRun`` is for presentations.
enum IssuerLoadRun {
  static func run(_ instances: [IssuerLoadInstance], clients: Int, seconds: Double) async throws
    -> LoadRun
  {
    let start = Date()
    let deadline = start.addingTimeInterval(seconds)
    var total = await withTaskGroup(of: LoadRun.self) { group in
      for worker in 0..<clients {
        group.addTask {
          var run = LoadRun()
          guard let wallet = try? IssuerLoadWallet() else { return run }
          var k = worker
          while Date() < deadline {
            let began = Date()
            let a = instances[k % instances.count]
            let b = instances[(k + 1) % instances.count]
            k += 1
            if (try? await wallet.issue(offerOn: a, tokenFrom: b)) == true {
              run.latencies.append(Date().timeIntervalSince(began))
            } else {
              run.errors += 1
            }
          }
          return run
        }
      }
      return await group.reduce(into: LoadRun()) {
        $0.latencies += $1.latencies
        $0.errors += $1.errors
      }
    }
    total.elapsed = Date().timeIntervalSince(start)
    return total
  }
}

/// A wallet of one DPoP key that keeps the latest DPoP nonce (shared by the instances' store).
final class IssuerLoadWallet: @unchecked Sendable {
  let dpopKey = try? ECPrivateKey(curve: .p256)
  let client = URLSessionHTTPClient(configuration: .init(policy: .development))
  var nonce: String?
  static let issuer = "http://127.0.0.1:8080"

  init() throws {}

  /// Sends `body` to `endpoint` of `instance` with a DPoP proof, once more with the server's
  /// nonce when asked (RFC 9449 §8, §9).
  func send(
    _ instance: IssuerLoadInstance, _ path: String, body: [UInt8], contentType: String,
    token: String? = nil
  ) async throws -> HTTPResponse {
    guard let dpopKey else { throw BenchError("no DPoP key") }
    for _ in 0..<2 {
      var headers: HTTPFields = ["Content-Type": contentType]
      headers["DPoP"] = try DPoP.proof(
        signer: dpopKey, method: "POST", uri: Self.issuer + path, nonce: nonce,
        accessToken: token)
      if let token { headers["Authorization"] = "DPoP \(token)" }
      let response = try await client.send(
        HTTPRequest(
          method: .post, url: try LoadRun.url(instance.base + path), headers: headers, body: body))
      if let fresh = response.headers["DPoP-Nonce"] { nonce = fresh }
      let retry =
        response.headers["WWW-Authenticate"]?.contains("use_dpop_nonce") == true
        || (response.status == 400
          && String(decoding: response.body, as: UTF8.self).contains("use_dpop_nonce"))
      if !retry { return response }
    }
    throw BenchError("\(path): the DPoP nonce was refused twice")
  }

  /// One mDL: offer on `a`, token from `b`, nonce and credential from `a`.
  func issue(offerOn a: IssuerLoadInstance, tokenFrom b: IssuerLoadInstance) async throws -> Bool {
    let offer = try a.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    guard let code = offer.offer.preAuthorizedCode?.preAuthorizedCode else { return false }
    let tokenResponse = try await send(
      b, "/token", body: TokenRequest(grant: .preAuthorizedCode(code: code, txCode: nil)).body,
      contentType: "application/x-www-form-urlencoded")
    guard tokenResponse.status == 200 else { throw BenchError("token: \(tokenResponse.status)") }
    let token = try TokenResponse(jsonBytes: tokenResponse.body).accessToken
    let nonceResponse = try await client.send(
      HTTPRequest(method: .post, url: try LoadRun.url(a.base + "/nonce")))
    let cNonce = try NonceResponse(jsonBytes: nonceResponse.body).cNonce
    let key = try ECPrivateKey(curve: .p256)
    let request = CredentialRequest(
      target: .credentialConfigurationID("mDL"),
      proofs: .jwt([
        try KeyProof.proof(signer: key, credentialIssuer: Self.issuer, nonce: cNonce, clientID: nil)
      ]))
    let credential = try await send(
      a, "/credential", body: request.json.serializedBytes(), contentType: "application/json",
      token: token)
    return credential.status == 200
  }
}
