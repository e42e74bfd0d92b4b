import DCHTTP
import DCJSON
import DCTestSupport
import Foundation
import Testing

#if os(Linux)
  /// Two `dcwallet verifier serve` processes on one PostgreSQL database (issue 31); one is
  /// killed with SIGKILL in the middle of a presentation and the other completes it: nothing
  /// lost (the result is there) and nothing doubled (a second response is refused).
  @Suite(
    "dcwallet verifier serve: an instance killed mid-flow", .timeLimit(.minutes(3)),
    .enabled(if: PostgreSQLTestServer.shouldRun))
  struct VerifierInstanceKillTests {
    /// The arguments of `verifier serve` for `setup`'s files on `store`.
    static func serve(_ setup: VerifierServeBinaryTests.Setup, store: String) -> [String] {
      [
        "verifier", "serve", "--port", "0", "--signer-key", setup.files + "/verifier.pem",
        "--signer-cert", setup.files + "/verifier-chain.pem", "--sd-jwt-issuer-anchor",
        setup.files + "/iaca.pem", "--no-status-check", "--store", store,
      ]
    }

    static func create(_ base: String, query: String) async throws -> (id: String, uri: String) {
      let client = URLSessionHTTPClient(configuration: .init(policy: .development))
      let dcql = try JSONValue(
        parsing: Array(try String(contentsOfFile: query, encoding: .utf8).utf8))
      let response = try await client.send(
        HTTPRequest(
          method: .post, url: try #require(URL(string: base + "/transactions")),
          headers: ["Content-Type": "application/json"],
          body: JSONValue.object([("dcql_query", dcql)]).serializedBytes()))
      #expect(response.status == 201)
      let json = try JSONValue(parsing: response.body)
      return (
        try #require(json["transaction_id"]?.string),
        try #require(json["authorization_request_uri"]?.string)
      )
    }

    static func result(_ base: String, _ id: String) async throws -> JSONValue {
      let client = URLSessionHTTPClient(configuration: .init(policy: .development))
      let response = try await client.send(
        HTTPRequest(method: .get, url: try #require(URL(string: base + "/transactions/" + id))))
      return try JSONValue(parsing: response.body)
    }

    @Test(
      "made on A, request fetched from A, A killed (SIGKILL), answered and read on B; a second answer refused"
    )
    func killedAfterFetch() async throws {
      let url = try PostgreSQLTestServer.freshDatabase()
      let setup = try await VerifierServeBinaryTests.Setup(["--store", url])
      let a = setup.server
      let b = try BackgroundDCWallet(setup.cli, Self.serve(setup, store: url))
      defer {
        a.stop()
        b.stop()
      }
      let baseB = try await b.firstLine()
      let created = try await Self.create(setup.base, query: setup.files + "/query.json")
      let target = Box(setup.base)
      let posted = Box<(String, [UInt8])>(("", []))
      let answer = try await setup.answer(
        created.uri, route: { $0.replacingOccurrences(of: setup.base, with: target.value) },
        beforePost: { uri, body in
          posted.value = (uri.replacingOccurrences(of: setup.base, with: baseB), body)
          kill(a.process.processIdentifier, SIGKILL)
          a.process.waitUntilExit()
          target.value = baseB
        })
      #expect(answer == .object([]))
      #expect(a.process.terminationReason == .uncaughtSignal)
      let result = try await Self.result(baseB, created.id)
      #expect(result["status"]?.string == "verified", "\(result)")
      #expect(
        result["result"]?["credentials"]?["pid"]?.array?.first?["type"]?.string
          == "urn:eudi:pid:1")
      // The same response posted again (to B) is refused: one response per transaction.
      let client = URLSessionHTTPClient(configuration: .init(policy: .development))
      let again = try await client.send(
        HTTPRequest(
          method: .post, url: try #require(URL(string: posted.value.0)),
          headers: ["Content-Type": "application/x-www-form-urlencoded"], body: posted.value.1))
      #expect(again.status == 400)
      #expect(try JSONValue(parsing: again.body)["failure"]?.string == "already_answered")
      #expect(try await Self.result(baseB, created.id)["status"]?.string == "verified")
    }
  }

  /// The web page's DC API transactions (issue 30) across two `dcwallet verifier serve`
  /// processes on one PostgreSQL database and one `--public-url` (issue 31): made on A, A killed
  /// (SIGKILL), the wallet's answer verified on B, once.
  @Suite(
    "dcwallet verifier serve: a DC API transaction outlives its instance", .timeLimit(.minutes(3)),
    .enabled(if: PostgreSQLTestServer.shouldRun))
  struct DCAPIInstanceKillTests {
    static let origin = "https://rp.example"

    /// A POST to the DC API on `base` as the page at ``origin`` sends it through a TLS proxy.
    static func post(_ base: String, _ path: String, _ body: JSONValue) async throws
      -> HTTPResponse
    {
      let client = URLSessionHTTPClient(configuration: .init(policy: .development))
      return try await client.send(
        HTTPRequest(
          method: .post, url: try #require(URL(string: base + path)),
          headers: [
            "Content-Type": "application/json", "Origin": origin,
            "Forwarded": "for=192.0.2.7;proto=https;host=rp.example",
          ],
          body: body.serializedBytes()))
    }

    @Test("made on A, A killed (SIGKILL), the answer verified on B; a second answer refused")
    func killedBeforeTheAnswer() async throws {
      let url = try PostgreSQLTestServer.freshDatabase()
      let setup = try await VerifierServeBinaryTests.Setup()
      setup.server.stop()
      for step in [
        ["trust", "add", "--issuer", setup.files + "/iaca.pem"],
        ["trust", "add", "--verifier", setup.files + "/verifier-ca.pem"],
        [
          "import", "--sd-jwt", setup.files + "/pid.txt", "--device-key",
          setup.files + "/holder.pem", "--id", "pid",
        ],
      ] {
        let done = try await runDCWalletOffPool(setup.cli, step)
        #expect(done.code == 0, "\(step): \(done.err)")
      }
      let ports = try (0..<2).map { _ in try IssuerInstanceKillTests.Pair.freePort() }
      let instances = try ports.map { port in
        try BackgroundDCWallet(
          setup.cli,
          VerifierInstanceKillTests.serve(setup, store: url).filter { $0 != "--port" && $0 != "0" }
            + [
              "--listen", "127.0.0.1:\(port)", "--public-url", Self.origin, "--trusted-proxy",
              "127.0.0.1", "--dc-api-protocol", "openid4vp-v1-unsigned",
            ])
      }
      defer { for instance in instances { instance.stop() } }
      for instance in instances { #expect(try await instance.firstLine() == Self.origin) }
      let (baseA, baseB) = ("http://127.0.0.1:\(ports[0])", "http://127.0.0.1:\(ports[1])")
      let query = try JSONValue(
        parsing: Array(
          try String(contentsOfFile: setup.files + "/query.json", encoding: .utf8).utf8))
      let made = try await Self.post(baseA, "/dc-api/transactions", ["dcql_query": query])
      #expect(made.status == 201)
      let created = try JSONValue(parsing: made.body)
      let id = try #require(created["transaction_id"]?.string)
      let digital = try #require(created["request"]?["digital"])
      // The wallet answers for the page's origin, as the browser reports it.
      let answered = try await runDCWalletOffPool(
        setup.cli, ["respond", "--origin", Self.origin], stdin: digital.serialized())
      #expect(answered.code == 0, "\(answered.err)")
      let credential = try JSONValue(parsing: Array(answered.out.utf8))
      kill(instances[0].process.processIdentifier, SIGKILL)
      instances[0].process.waitUntilExit()
      #expect(instances[0].process.terminationReason == .uncaughtSignal)
      let verified = try await Self.post(baseB, "/dc-api/transactions/\(id)/response", credential)
      #expect(verified.status == 200, "\(String(decoding: verified.body, as: UTF8.self))")
      #expect(try JSONValue(parsing: verified.body)["status"]?.string == "verified")
      let again = try await Self.post(baseB, "/dc-api/transactions/\(id)/response", credential)
      #expect(again.status == 409)
    }
  }

  final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
      get { lock.withLock { stored } }
      set { lock.withLock { stored = newValue } }
    }
  }
#endif
