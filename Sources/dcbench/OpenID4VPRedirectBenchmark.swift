import DCCrypto
import DCHTTP
import DCHTTPServer
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCQL
import DCSDJWT
import DCX509
import Foundation

/// The loopback verifier of the redirect benchmark: a fixed signed request object at
/// `/request`, and `{}` at once for whatever is posted to `/response`.
private struct RedirectBenchVerifier: HTTPHandler {
  let requestObject: [UInt8]

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    if request.method == .get && request.url.path == "/request" {
      return HTTPResponse(
        status: 200, headers: ["Content-Type": RequestObjectFetch.acceptedType],
        body: requestObject)
    }
    if request.method == .post && request.url.path == "/response" {
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
    }
    return HTTPResponse(status: 404)
  }
}

extension Harness {
  /// ``measurePair`` with an async body: baseline and body in alternating slices, the median of
  /// the per-pair ratios (see there).
  mutating func measurePairAsync(
    _ baselineName: String, _ baseline: () throws -> Void, _ name: String,
    iterations: Int, batches: Int = 7, slices: Int = 5, _ body: () async throws -> Void
  ) async rethrows -> (baseline: Double, body: Double, ratio: Double) {
    for _ in 0..<max(1, iterations / 10) {
      try baseline()
      try await body()
    }
    let pairs = batches * max(1, slices)
    let perPair = max(1, iterations / max(1, slices))
    var baselineMeans = [Double]()
    var bodyMeans = [Double]()
    var ratios = [Double]()
    for pair in 0..<pairs {
      var sides = [Double](repeating: 0, count: 2)
      for side in pair.isMultiple(of: 2) ? [0, 1] : [1, 0] {
        let start = Harness.now()
        if side == 0 {
          for _ in 0..<perPair { try baseline() }
        } else {
          for _ in 0..<perPair { try await body() }
        }
        sides[side] = Double(Harness.now() - start) / Double(perPair)
      }
      baselineMeans.append(sides[0])
      bodyMeans.append(sides[1])
      ratios.append(sides[1] / max(sides[0], 1))
    }
    let result = (
      baseline: Harness.median(baselineMeans), body: Harness.median(bodyMeans),
      ratio: Harness.median(ratios)
    )
    for (label, value) in [(baselineName, result.baseline), (name, result.body)] {
      results.append((label, value))
      print(
        "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0)
          + String(format: "%12.2f µs", value / 1000))
    }
    let sorted = ratios.sorted()
    print(
      String(
        format: "  (%d pairs of %d calls; pair ratios: quartiles %.3f-%.3f, median %.3f)",
        pairs, perPair, sorted[sorted.count / 4], sorted[(sorted.count * 3) / 4], result.ratio))
    return result
  }
}

/// Issue 16: the wallet's time to answer a signed `direct_post.jwt` request outside the DC API
/// from a loopback `DevelopmentHTTPServer`: read the `openid4vp://` URI, fetch the request
/// object at `request_uri` (GET, `URLSessionHTTPClient`), check it (x5c chain to the verifier
/// anchor, signature, `typ`, `client_id`, `aud`, `iat`/`exp`, `response_uri` host), evaluate the
/// DCQL query, present the SD-JWT VC (10 disclosures) with a KB-JWT, encrypt the response (JWE,
/// ECDH-ES + A128GCM) and POST it to `response_uri`, which answers at once. Against its crypto
/// floor in the same process: 2 ES256 verifies (request signature, leaf certificate), 1 ES256
/// sign (KB-JWT), P-256 keygen + ECDH + AES-GCM (the JWE); and the share of the loopback HTTP.
func openID4VPRedirectBenchmark(_ h: inout Harness) async throws {
  let now = Date()
  let issuerKey = try ECPrivateKey(curve: .p256)
  let holderKey = try ECPrivateKey(curve: .p256)
  var members: [(key: String, value: JSONValue)] = []
  for i in 0..<10 { members.append(("claim_\(i)", .string("value \(i)"))) }
  let sdJWT = try SDJWTIssuer.issue(
    claims: .object(members),
    selectivelyDisclosable: (0..<10).map { ClaimPath(dotted: "claim_\($0)") },
    holderKey: holderKey.publicKey, vct: "urn:example:bench", issuer: "https://issuer.example",
    issuedAt: now, signer: issuerKey, random: SecureRandom())
  let credential = try SDJWTCredential(id: "sd", sdJWT: sdJWT)
  let claims: [JSONValue] = (0..<10).map { .object([("path", .array([.string("claim_\($0)")]))]) }
  let query: JSONValue = .object([
    (
      "credentials",
      .array([
        .object([
          ("id", "q"), ("format", "dc+sd-jwt"),
          ("meta", .object([("vct_values", .array(["urn:example:bench"]))])),
          ("claims", .array(claims)),
        ])
      ])
    )
  ])
  let rootKey = try ECPrivateKey(curve: .p256)
  let root = try CertificateBuilder.readerRoot(
    commonName: "Bench Verifier CA", publicKey: rootKey.publicKey,
    notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(86_400)
  ).selfSigned(signer: rootKey)
  let leafKey = try ECPrivateKey(curve: .p256)
  let leaf = try CertificateBuilder.openID4VPVerifier(
    dnsName: "localhost", publicKey: leafKey.publicKey,
    notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(86_400)
  ).issued(by: root, signer: rootKey)
  let encryptionKey = try ECPrivateKey(curve: .p256)
  let clientID = "x509_san_dns:localhost"

  // The server first, for its port; then the request object naming its response_uri.
  let handlerBox = RequestObjectBox()
  let server = DevelopmentHTTPServer(handler: handlerBox)
  let port = try server.start()
  defer { server.stop() }
  let base = "http://127.0.0.1:\(port)"
  let payload: JSONValue = .object([
    ("client_id", .string(clientID)), ("response_type", "vp_token"),
    ("response_mode", "direct_post.jwt"), ("response_uri", .string(base + "/response")),
    ("nonce", "n-0S6_WzA2Mj-bench"), ("state", "bench-state"), ("dcql_query", query),
    (
      "client_metadata",
      .object([
        (
          "jwks",
          .object([
            (
              "keys",
              .array([
                JWK(publicKey: encryptionKey.publicKey, kid: "enc", use: "enc", alg: "ECDH-ES")
                  .json
              ])
            )
          ])
        ),
        ("encrypted_response_enc_values_supported", ["A128GCM"]),
      ])
    ),
    ("aud", .string(RedirectAuthorizationRequest.staticDiscoveryAudience)),
    ("iat", .integer(Int64(now.timeIntervalSince1970))),
    ("exp", .integer(Int64(now.timeIntervalSince1970) + 300)),
  ])
  let requestObject = try JWS.sign(
    payload: payload.serializedBytes(),
    protectedHeader: .object([
      ("typ", "oauth-authz-req+jwt"), ("x5c", JWS.x5c([leaf.derBytes])),
    ]), signer: leafKey)
  handlerBox.set(RedirectBenchVerifier(requestObject: Array(requestObject.utf8)))
  let uriText =
    "openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=http%3A%2F%2F127.0.0.1%3A\(port)%2Frequest"
  let client = URLSessionHTTPClient(configuration: .init(policy: .development))

  @Sendable func answer() async throws -> HTTPRequest {
    let uri = try AuthorizationRequestURI(uriText)
    guard let fetch = uri.requestObjectFetch() else { throw BenchError("not by reference") }
    let fetched = try await client.send(fetch.request)
    guard fetched.status == 200 else { throw BenchError("request_uri: \(fetched.status)") }
    let request = try RedirectAuthorizationRequest(
      uri: uri, requestObject: String(decoding: fetched.body, as: UTF8.self),
      verifierTrustAnchors: [root], walletNonce: fetch.walletNonce, now: now,
      // The server listens on 127.0.0.1 for the localhost signer: development only.
      policy: RedirectRequestPolicy(allowsLoopbackAliases: true))
    let evaluation = request.dcqlQuery.evaluate([credential])
    guard let candidate = evaluation.defaultSelection()["q"]?.first else {
      throw BenchError("the query is not satisfied")
    }
    let response = try request.respond(
      presentations: [
        "q": [credential.presentation(disclosing: candidate.disclosed, holderKey: holderKey)]
      ], now: now)
    let posted = try await client.send(response.post.request)
    guard posted.status == 200 else { throw BenchError("response_uri: \(posted.status)") }
    return response.post.request
  }
  let samplePost = try await answer()
  guard samplePost.body.count > 1000 else { throw BenchError("the response is too small") }
  if let loop = ProcessInfo.processInfo.environment["DCBENCH_PROFILE_LOOP"], let n = Int(loop) {
    for _ in 0..<n { blackHole(try await answer()) }
    return
  }

  // The floor: the crypto this answer cannot avoid.
  let message = [UInt8](repeating: 1, count: 400)
  let signature = try holderKey.signature(for: message)
  let plaintext = [UInt8](repeating: 2, count: samplePost.body.count * 3 / 4)
  let floor: () throws -> Void = {
    blackHole(holderKey.publicKey.isValidSignature(signature, for: message))  // request JWS
    blackHole(holderKey.publicKey.isValidSignature(signature, for: message))  // leaf by root
    blackHole(try holderKey.signature(for: message))  // KB-JWT
    let ephemeral = try ECPrivateKey(curve: .p256)  // JWE: ECDH-ES + A128GCM
    blackHole(try ephemeral.sharedSecret(with: encryptionKey.publicKey))
    blackHole(
      try AES.GCM.seal(
        plaintext, key: [UInt8](repeating: 3, count: 16), nonce: [UInt8](repeating: 4, count: 12)))
  }
  let (floorTime, answerTime, ratio) = try await h.measurePairAsync(
    "floor: 2 verify + sign + keygen + ECDH + AES-GCM", floor,
    "redirect answer (fetch, check, present, JWE, POST)", iterations: 100
  ) {
    blackHole(try await answer())
  }
  // The two loopback exchanges alone, the same bytes as an answer's.
  guard let fetchRequest = try AuthorizationRequestURI(uriText).requestObjectFetch()?.request else {
    throw BenchError("not by reference")
  }
  let http = try await h.measureAsync("of which loopback HTTP: GET + POST alone", iterations: 100) {
    blackHole(try await client.send(fetchRequest))
    blackHole(try await client.send(samplePost))
  }
  Harness.ratio("redirect answer / its crypto, ratio of the medians", answerTime, over: floorTime)
  Harness.ratio("redirect answer / its crypto", ratio)
  Harness.ratio("redirect answer without the HTTP / its crypto", answerTime - http, over: floorTime)
  print(String(format: "  loopback HTTP share of the answer: %.0f%%", 100 * http / answerTime))
}

/// The server's handler, set once the request object (which names the server's port) is made.
private final class RequestObjectBox: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var handler: RedirectBenchVerifier? = nil

  func set(_ handler: RedirectBenchVerifier) { lock.withLock { self.handler = handler } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    guard let handler = lock.withLock({ handler }) else { return HTTPResponse(status: 503) }
    return await handler.handle(request)
  }
}
