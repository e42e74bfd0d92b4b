// Issue 30, part 4: runs once the Chromium harness (DCBrowserTestSupport, parts 1-3) is a
// dependency of this test target; until then it compiles to nothing.
#if os(Linux) && canImport(DCBrowserTestSupport)
  import DCBrowserTestSupport
  import DCJSON
  import Foundation
  import Testing

  /// `dcwallet issuer serve`'s page at `/`, its module, the issuer and the origin
  /// (`http://127.0.0.1:PORT`) in Debian's headless Chromium. Only the browser's hand-off to a
  /// wallet is replaced: the page's `navigator.credentials.create` goes to a ``WalletBridge``
  /// that runs `dcwallet respond` with the page's origin.
  @Suite(
    "the issuer page in Chromium", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: ChromiumSession.shouldRun, "chromium and chromium-driver are not installed"))
  struct IssuerPageBrowserTests {
    final class Setup: @unchecked Sendable {
      let cli: DCWallet
      let server: BackgroundDCWallet
      let base: String

      init() async throws {
        cli = try DCWallet()
        server = try BackgroundDCWallet(
          cli, ["issuer", "serve", "--port", "0", "--auto-approve"])
        base = try await server.firstLine()
      }

      /// The wallet: `dcwallet respond` on the create request for `origin` (default the page's,
      /// as the browser reports it), or the user declining.
      func wallet(origin: String? = nil, decline: Bool = false) throws -> WalletBridge {
        let cli = cli
        return try WalletBridge { call in
          if decline { return .exception(name: "NotAllowedError", message: "the user declined") }
          let answered = try? await runDCWalletOffPool(
            cli,
            ["respond", "--origin", origin ?? call.origin, "--trust-issuer-iacas"],
            stdin: call.digital.serialized())
          guard let answered, answered.code == 0,
            let credential = try? JSONValue(parsing: Array(answered.out.utf8))
          else {
            return .exception(name: "NotAllowedError", message: answered?.err ?? "no answer")
          }
          return .credential(credential)
        }
      }

      func stored() async throws -> Int {
        let list = try await runDCWalletOffPool(cli, ["list", "--json"])
        return try JSONValue(parsing: Array(list.out.utf8)).array?.count ?? -1
      }
    }

    /// Picks `configuration`, presses the button, waits for the outcome on the page.
    static func offer(_ browser: ChromiumSession, _ configuration: String) async throws -> String {
      try await browser.waitUntil("document.readyState === 'complete'")
      _ = try await browser.evaluate(
        "document.getElementById('configuration').value = '\(configuration)'; "
          + "document.getElementById('offer').click(); return true;")
      try await browser.waitUntil(
        "!['idle', 'pending'].includes(document.getElementById('status').dataset.outcome)",
        timeout: 60)
      return try await browser.evaluate(
        "return document.getElementById('status').dataset.outcome;"
      ).string ?? ""
    }

    @Test("create with openid4vci-v1: the wallet stores the credential, the page says accepted")
    func accepted() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let bridge = try setup.wallet()
      defer { bridge.stop() }
      let browser = try await ChromiumSession(
        url: setup.base + "/", initScripts: [bridge.initScript],
        bypassingContentSecurityPolicy: true)
      let outcome = try await Self.offer(browser, "pid")
      await browser.close()
      #expect(outcome == "accepted")
      let call = try #require(bridge.calls.first)
      #expect(call.kind == "create")
      #expect(call.origin == setup.base)
      #expect(call.digital["requests"]?.array?.first?["protocol"]?.string == "openid4vci-v1")
      #expect(try await setup.stored() == 1)
    }

    @Test("the holder declines: NotAllowedError, the page says cancelled, nothing stored")
    func declined() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let bridge = try setup.wallet(decline: true)
      defer { bridge.stop() }
      let browser = try await ChromiumSession(
        url: setup.base + "/", initScripts: [bridge.initScript],
        bypassingContentSecurityPolicy: true)
      let outcome = try await Self.offer(browser, "mDL")
      await browser.close()
      #expect(outcome == "cancelled")
      #expect(try await setup.stored() == 0)
    }

    @Test("a wallet told another origin refuses the offer; the page does not say accepted")
    func otherOrigin() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let bridge = try setup.wallet(origin: "https://evil.example")
      defer { bridge.stop() }
      let browser = try await ChromiumSession(
        url: setup.base + "/", initScripts: [bridge.initScript],
        bypassingContentSecurityPolicy: true)
      let outcome = try await Self.offer(browser, "pid")
      await browser.close()
      #expect(outcome == "cancelled")
      #expect(try await setup.stored() == 0)
    }

    @Test("a browser without the Digital Credentials API: the page says so, nothing is asked")
    func unsupported() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let bridge = try setup.wallet()
      defer { bridge.stop() }
      let browser = try await ChromiumSession(
        url: setup.base + "/",
        initScripts: [bridge.initScript, WalletBridge.withoutDigitalCredentials])
      let outcome = try await Self.offer(browser, "pid")
      await browser.close()
      #expect(outcome == "unsupported")
      #expect(bridge.calls.isEmpty)
    }
  }
#endif
