import DCHTTP
import DCJSON
import DCOpenID4VCI
import DCTestSupport
import DCWallet
import Foundation
import Testing

#if os(Linux)
  /// Two `dcwallet issuer serve` processes sharing one PostgreSQL store and one `--public-url`
  /// (issue 31), behind a stand-in for the load balancer that says `Forwarded` for them. One is
  /// killed with SIGKILL after a step of a pre-authorized issuance (the offer resolved, the
  /// token, the `c_nonce`) and the other completes the flow: nothing lost (the credential is
  /// stored and the issuer has it on record, accepted) and nothing doubled (one credential for
  /// the code; the token and credential requests replayed on the survivor are refused).
  @Suite(
    "dcwallet issuer serve: an instance killed mid-flow", .timeLimit(.minutes(5)),
    .enabled(if: PostgreSQLTestServer.shouldRun))
  struct IssuerInstanceKillTests {
    static let publicURL = "https://issuer.example"

    /// After which response instance A dies.
    enum Step: String, CaseIterable, CustomTestStringConvertible {
      /// The wallet resolved the offer: the issuer's metadata came from A.
      case offer = "/.well-known/openid-credential-issuer"
      case token = "/token"
      case nonce = "/nonce"
      var testDescription: String { rawValue }
    }

    /// Two issuers, one state directory (the PKI), one database, one public URL.
    struct Pair {
      let cli: DCWallet
      let arguments: [String]
      let a: BackgroundDCWallet
      let b: BackgroundDCWallet
      let baseA: String
      let baseB: String

      init() async throws {
        let cli = try DCWallet()
        let config = cli.home + "-issuer/issuer.json.config"
        try FileManager.default.createDirectory(
          atPath: cli.home + "-issuer", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        let arguments = ["--config", config, "--store", try PostgreSQLTestServer.freshDatabase()]
        let ports = try (0..<2).map { _ in try Self.freePort() }
        let serve = ports.map { port in
          [
            "issuer", "serve", "--listen", "127.0.0.1:\(port)", "--public-url",
            IssuerInstanceKillTests.publicURL, "--trusted-proxy", "127.0.0.1",
          ] + arguments
        }
        // A first: it makes the development PKI both then read from the state directory.
        let a = try BackgroundDCWallet(cli, serve[0])
        let firstA = try await a.firstLine()
        let b = try BackgroundDCWallet(cli, serve[1])
        let firstB = try await b.firstLine()
        #expect(
          [firstA, firstB] == [
            IssuerInstanceKillTests.publicURL, IssuerInstanceKillTests.publicURL,
          ])
        (self.cli, self.arguments, self.a, self.b) = (cli, arguments, a, b)
        (baseA, baseB) = ("http://127.0.0.1:\(ports[0])", "http://127.0.0.1:\(ports[1])")
      }

      /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
      static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
          }
        }
        try #require(bound)
        return UInt16(bigEndian: address.sin_port)
      }

      /// `dcwallet issuer ARGS` on the shared state.
      func issuer(_ command: [String]) async throws -> [String] {
        let result = try await runDCWalletOffPool(cli, ["issuer"] + command + arguments)
        #expect(result.code == 0, "\(result.err)")
        return result.out.split(separator: "\n").map(String.init)
      }
    }

    /// The load balancer, played by the wallet's HTTP client: every request to the public URL
    /// goes to the current instance, with the `Forwarded` a TLS proxy would add; after the
    /// response of `step` it kills A (SIGKILL) and sends everything on to B.
    final class Balancer: HTTPClient, @unchecked Sendable {
      let pair: Pair
      let step: Step
      let target: Box<String>
      let killed = Box(false)
      let sent = Box<[(path: String, request: HTTPRequest, status: Int)]>([])
      let inner = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 10))

      init(_ pair: Pair, killAfter step: Step) {
        self.pair = pair
        self.step = step
        target = Box(pair.baseA)
      }

      func routed(_ request: HTTPRequest, to base: String) -> HTTPRequest {
        var routed = request
        let text = request.url.absoluteString
        if text.hasPrefix(IssuerInstanceKillTests.publicURL),
          let url = URL(string: base + text.dropFirst(IssuerInstanceKillTests.publicURL.count))
        {
          routed.url = url
        }
        routed.headers["Forwarded"] = "for=192.0.2.7;proto=https;host=issuer.example"
        return routed
      }

      func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let response = try await inner.send(routed(request, to: target.value))
        sent.value.append((request.url.path, request, response.status))
        if !killed.value, request.url.path == step.rawValue, response.status == 200 {
          killed.value = true
          kill(pair.a.process.processIdentifier, SIGKILL)
          pair.a.process.waitUntilExit()
          target.value = pair.baseB
        }
        return response
      }
    }

    @Test(
      "A killed after a step of a pre-authorized issuance; B completes it, once",
      arguments: Step.allCases)
    func killedMidFlow(_ step: Step) async throws {
      let pair = try await Pair()
      defer {
        pair.a.stop()
        pair.b.stop()
      }
      let offer = try await pair.issuer(
        ["offer", "--configuration", "mDL", "--pre-authorized", "--tx-code"])
      try #require(offer.count == 2)
      guard
        case .value(let parsed) = try CredentialOffer.parse(offer[0], policy: .development)
      else {
        Issue.record("the offer is not by value: \(offer[0])")
        return
      }
      let balancer = Balancer(pair, killAfter: step)
      let home = TestScratch.path("dcwallet-wallet")
      try WalletHome(directory: home).create()
      let issuance = WalletIssuance(
        wallet: try Wallet(home: WalletHome(directory: home)),
        client: IssuanceClient(
          http: balancer, configuration: IssuanceClient.Configuration(urlPolicy: .development)))
      let result = try await issuance.issuePreAuthorized(
        offer: parsed, txCode: offer[1], options: IssuanceClient.Options(batchSize: 1),
        storage: WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true))
      #expect(balancer.killed.value, "A was never killed")
      #expect(pair.a.process.terminationReason == .uncaughtSignal)
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      #expect(result.stored.count == 1)
      // What B served after A died: the rest of the flow.
      let sent = balancer.sent.value
      let killedAt = try #require(sent.firstIndex { $0.path == step.rawValue && $0.status == 200 })
      let onB = sent[(killedAt + 1)...].filter { $0.status < 300 }.map(\.path)
      #expect(onB.contains("/credential"), "\(sent.map { ($0.path, $0.status) })")
      #expect(onB.contains("/notification"), "\(sent.map { ($0.path, $0.status) })")
      try await Self.replaysAreRefused(balancer)
      // One credential for the code, on record once, its acceptance heard.
      let issued = try JSONValue(
        parsing: Array(try await pair.issuer(["credentials", "--json"]).joined().utf8))
      #expect(issued.array?.count == 1, "\(issued)")
      #expect(issued.array?.first?["configuration_id"]?.string == "mDL")
    }

    /// The token and credential requests the wallet sent, sent again as they were to B: refused
    /// (the pre-authorized code, the `c_nonce` and the DPoP proofs are spent), nothing issued.
    static func replaysAreRefused(_ balancer: Balancer) async throws {
      for path in ["/token", "/credential"] {
        let sent = try #require(balancer.sent.value.last { $0.path == path }?.request)
        let again = try await balancer.inner.send(
          balancer.routed(sent, to: balancer.pair.baseB))
        #expect(again.status == 400 || again.status == 401, "\(path): \(again.status)")
        #expect(
          (try? JSONValue(parsing: again.body))?["access_token"] == nil
            && (try? JSONValue(parsing: again.body))?["credentials"] == nil, "\(path)")
      }
    }
  }
#endif
