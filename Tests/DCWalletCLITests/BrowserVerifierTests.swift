#if os(Linux)
  import DCBrowserTestSupport
  import DCJSON
  import Foundation
  import Testing

  /// Issue 30: `dcwallet verifier serve`'s page, its browser module, the server and the origin
  /// (`http://127.0.0.1:PORT`), in Debian's headless Chromium. Only the browser's hand-off to a
  /// wallet is replaced: an init script sends `navigator.credentials.get` to a ``WalletBridge``
  /// that runs `dcwallet respond` (the real wallet, a development home) with the page's origin.
  @Suite(
    "the verifier page in Chromium", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: ChromiumSession.shouldRun, "chromium and chromium-driver are not installed"))
  struct BrowserVerifierTests {
    /// A wallet home holding the dev files' mDL and PID, trusting their issuer, reader and
    /// verifier CAs; and `verifier serve` on port 0 with the dev files' signer and reader.
    final class Setup: @unchecked Sendable {
      let cli: DCWallet
      let files: String
      let server: BackgroundDCWallet
      /// `http://127.0.0.1:PORT/`, the page (`--open`).
      let page: String
      var origin: String { String(page.dropLast()) }

      init(_ extra: [String] = []) async throws {
        cli = try DCWallet()
        files = cli.home + "-dev"
        let made = try await runDCWalletOffPool(
          cli, ["dev", "files", "--out", files, "--origin-host", "localhost"])
        #expect(made.code == 0, "\(made.err)")
        for step in [
          ["trust", "add", "--issuer", files + "/iaca.pem"],
          ["trust", "add", "--reader", files + "/reader-root.pem"],
          ["trust", "add", "--verifier", files + "/verifier-ca.pem"],
          [
            "import", "--mdoc", files + "/mdl.cbor", "--device-key", files + "/device.pem",
            "--id", "mdl",
          ],
          [
            "import", "--sd-jwt", files + "/pid.txt", "--device-key", files + "/holder.pem",
            "--id", "pid",
          ],
        ] {
          let done = try await runDCWalletOffPool(cli, step)
          #expect(done.code == 0, "\(step): \(done.err)")
        }
        server = try BackgroundDCWallet(
          cli,
          [
            "verifier", "serve", "--port", "0", "--signer-key", files + "/verifier.pem",
            "--signer-cert", files + "/verifier-chain.pem", "--issuer-anchor",
            files + "/iaca.pem", "--sd-jwt-issuer-anchor", files + "/iaca.pem",
            "--no-status-check", "--open",
          ] + extra)
        _ = try await server.firstLine()
        page = try await server.line(1)
      }

      /// The wallet: `dcwallet respond` on what the page asked, for `origin` (default the
      /// page's own, as a browser reports it), or the user declining.
      func wallet(origin: String? = nil, decline: Bool = false, requireTrusted: Bool = false)
        throws -> WalletBridge
      {
        let cli = cli
        return try WalletBridge { call in
          if decline { return .exception(name: "NotAllowedError", message: "the user declined") }
          let answered = try? await runDCWalletOffPool(
            cli,
            ["respond", "--origin", origin ?? call.origin]
              + (requireTrusted ? ["--require-trusted-reader"] : []),
            stdin: call.digital.serialized())
          guard let answered, answered.code == 0,
            let credential = try? JSONValue(parsing: Array(answered.out.utf8))
          else {
            return .exception(name: "NotAllowedError", message: answered?.err ?? "no answer")
          }
          return .credential(credential)
        }
      }

      func stop() { server.stop() }
    }

    /// Opens the page, picks `ask`, presses the button and waits for the outcome; returns the
    /// seconds from the press to the outcome on the page.
    static func press(_ browser: ChromiumSession, ask: String) async throws -> TimeInterval {
      try await browser.waitUntil(
        "document.readyState === 'complete' && document.getElementById('support').textContent")
      _ = try await browser.evaluate(
        "document.querySelector('input[value=\"\(ask)\"]').checked = true; "
          + "document.getElementById('go').click(); return true;")
      let pressed = Date()
      try await browser.waitUntil("document.getElementById('result').dataset.outcome", timeout: 60)
      return Date().timeIntervalSince(pressed)
    }

    static func outcome(_ browser: ChromiumSession) async throws -> String {
      try await browser.evaluate("return document.getElementById('result').dataset.outcome;")
        .string ?? ""
    }

    static func text(_ browser: ChromiumSession, _ selector: String) async throws -> String {
      try await browser.evaluate(
        "const e = document.querySelector('\(selector)'); return e ? e.textContent : '';"
      ).string ?? ""
    }

    /// The claims the page shows, by name.
    static func claims(_ browser: ChromiumSession) async throws -> [String: String] {
      let shown = try await browser.evaluate(
        "return [...document.querySelectorAll('dd[data-claim]')]"
          + ".map((d) => [d.dataset.claim, d.textContent]);")
      var claims: [String: String] = [:]
      for pair in shown.array ?? [] {
        if let name = pair.array?.first?.string { claims[name] = pair.array?.last?.string }
      }
      return claims
    }

    /// The mDL's verified page: its claims, a decoded portrait, the trust and the status.
    static func expectMDL(_ browser: ChromiumSession, protocolName: String) async throws {
      let shown = try await text(browser, "#result")
      #expect(try await outcome(browser) == "verified", "\(shown)")
      #expect(try await text(browser, ".protocol") == "Answered with " + protocolName)
      let claims = try await claims(browser)
      #expect(claims["given_name"] == "Erika")
      #expect(claims["family_name"] == "Mustermann")
      #expect(claims["document_number"] == "D1234567")
      try await browser.waitUntil(
        "document.querySelector('img.portrait') && document.querySelector('img.portrait').naturalWidth > 0",
        timeout: 10)
      let size = try await browser.evaluate(
        "const i = document.querySelector('img.portrait'); return [i.naturalWidth, i.naturalHeight];"
      )
      #expect(size == [60, 80])
      #expect(try await text(browser, ".trust").hasPrefix("Trust: "))
      #expect(try await text(browser, ".status").contains("skipped"))
    }

    @Test(
      "each protocol alone: the page asks for an mDL, the wallet answers, the page shows it",
      arguments: [
        "org-iso-mdoc", "openid4vp-v1-signed", "openid4vp-v1-multisigned", "openid4vp-v1-unsigned",
      ])
    func eachProtocol(protocolName: String) async throws {
      let setup = try await Setup(["--dc-api-protocol", protocolName])
      defer { setup.stop() }
      // Annex C's readerAuth and signed requests are authenticated: the wallet insists on it.
      let bridge = try setup.wallet(requireTrusted: protocolName != "openid4vp-v1-unsigned")
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      let seconds = try await Self.press(browser, ask: "mdl")
      try await Self.expectMDL(browser, protocolName: protocolName)
      let requests = bridge.calls.first?.digital["requests"]?.array ?? []
      #expect(requests.map { $0["protocol"]?.string } == [protocolName])
      #expect(bridge.calls.first?.origin == setup.origin)
      print("browser: \(protocolName) mDL verified in \(Int(seconds * 1000)) ms")
      await browser.close()
    }

    @Test("all protocols in one call: the wallet picks; PID and age over 18 too; a screenshot")
    func allTogether() async throws {
      let setup = try await Setup()
      defer { setup.stop() }
      let bridge = try setup.wallet(requireTrusted: true)
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      let seconds = try await Self.press(browser, ask: "mdl")
      let offered = bridge.calls.first?.digital["requests"]?.array?.compactMap {
        $0["protocol"]?.string
      }
      #expect(
        offered == [
          "org-iso-mdoc", "openid4vp-v1-signed", "openid4vp-v1-multisigned",
          "openid4vp-v1-unsigned",
        ])
      let picked = try await Self.text(browser, ".protocol").replacingOccurrences(
        of: "Answered with ", with: "")
      try await Self.expectMDL(browser, protocolName: picked)
      print("browser: all protocols, mDL verified (\(picked)) in \(Int(seconds * 1000)) ms")
      // The screenshot of the result page: a PNG, with the claims and the portrait drawn.
      _ = try await browser.evaluate(
        "document.getElementById('result').scrollIntoView(); return true;")
      let png = try await browser.screenshot()
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      #expect(png.count > 10_000)
      // DCWALLET_BROWSER_SCREENSHOTS=DIR keeps it for a person to look at.
      let directory = ProcessInfo.processInfo.environment["DCWALLET_BROWSER_SCREENSHOTS"]
      try Data(png).write(
        to: URL(fileURLWithPath: (directory ?? setup.cli.home) + "/verifier-result.png"))
      // A PID has no mdoc: no org-iso-mdoc request; age over 18 from either credential.
      for (ask, claim) in [("pid", "given_name"), ("age", "age_over_18")] {
        _ = try await browser.evaluate("location.reload(); return true;")
        _ = try await Self.press(browser, ask: ask)
        #expect(try await Self.outcome(browser) == "verified", "\(ask)")
        #expect(try await Self.claims(browser)[claim] != nil, "\(ask)")
      }
      #expect(
        bridge.calls.dropFirst().first?.digital["requests"]?.array?.first?["protocol"]?.string
          == "openid4vp-v1-signed")
      await browser.close()
    }

    @Test("the user declines: NotAllowedError, the page says cancelled and posts nothing")
    func declined() async throws {
      let setup = try await Setup()
      defer { setup.stop() }
      let bridge = try setup.wallet(decline: true)
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      _ = try await Self.press(browser, ask: "mdl")
      #expect(try await Self.outcome(browser) == "cancelled")
      #expect(try await Self.text(browser, ".reason") == "the user declined")
      #expect(bridge.calls.count == 1)
      await browser.close()
    }

    @Test(
      "a wallet answering for another origin: the server refuses it",
      arguments: [["org-iso-mdoc", "--no-reader-auth"], ["openid4vp-v1-unsigned"]])
    func otherOrigin(options: [String]) async throws {
      let setup = try await Setup(["--dc-api-protocol"] + options)
      defer { setup.stop() }
      let bridge = try setup.wallet(origin: "http://127.0.0.1:1")
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      _ = try await Self.press(browser, ask: "mdl")
      let reason = try await Self.text(browser, ".reason")
      #expect(try await Self.outcome(browser) == "refused", "\(reason)")
      #expect(!reason.isEmpty)
      #expect(try await Self.claims(browser).isEmpty)
      await browser.close()
    }

    @Test("another origin under readerAuth: the wallet itself refuses, the page says cancelled")
    func otherOriginReaderAuth() async throws {
      let setup = try await Setup(["--dc-api-protocol", "org-iso-mdoc"])
      defer { setup.stop() }
      let bridge = try setup.wallet(origin: "http://127.0.0.1:1")
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      _ = try await Self.press(browser, ask: "mdl")
      #expect(try await Self.outcome(browser) == "cancelled")
      #expect(try await Self.text(browser, ".reason").contains("readerAuth"))
      await browser.close()
    }

    @Test("a browser without the API: the QR code is shown, present-uri on its link completes")
    func withoutTheAPI() async throws {
      let setup = try await Setup()
      defer { setup.stop() }
      let browser = try await ChromiumSession(
        url: setup.page, initScripts: [WalletBridge.withoutDigitalCredentials])
      try await browser.waitUntil("document.getElementById('support').textContent")
      #expect(try await Self.text(browser, "#support").hasPrefix("No Digital Credentials API"))
      _ = try await browser.evaluate(
        "document.querySelector('input[value=\"pid\"]').checked = true; "
          + "document.getElementById('go').click(); return true;")
      try await browser.waitUntil(
        "document.querySelector('img.dc-qr') && document.querySelector('img.dc-qr').naturalWidth > 0",
        timeout: 30)
      let uri =
        try await browser.evaluate(
          "return document.querySelector('figure.dc-fallback').dataset.uri;"
        ).string ?? ""
      #expect(uri.hasPrefix("openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri="))
      let presented = try await runDCWalletOffPool(setup.cli, ["present-uri", uri])
      #expect(presented.code == 0, "\(presented.err)")
      try await browser.waitUntil("document.getElementById('result').dataset.outcome", timeout: 30)
      #expect(try await Self.outcome(browser) == "verified")
      #expect(try await Self.claims(browser)["given_name"] == "Erika")
      #expect(
        try await browser.evaluate("return document.getElementById('fallback').hidden;") == true)
      await browser.close()
    }

    @Test("the README's snippet for a relying party's own page works as written")
    func readmeSnippet() async throws {
      let readme = try ReadmeTourTests.readme()
      let start = try #require(readme.range(of: "## Verifying from a web page"))
      let section = readme[start.upperBound...]
      let open = try #require(section.range(of: "```html\n"))
      let close = try #require(section[open.upperBound...].range(of: "\n```"))
      let snippet = String(section[open.upperBound..<close.lowerBound])
      let pagePath = try DCWallet().file("page.html", snippet)
      let setup = try await Setup(["--page", pagePath])
      defer { setup.stop() }
      let bridge = try setup.wallet()
      defer { bridge.stop() }
      let browser = try await ChromiumSession(url: setup.page, initScripts: [bridge.initScript])
      try await browser.waitUntil("document.readyState === 'complete'")
      _ = try await browser.evaluate("document.getElementById('verify').click(); return true;")
      try await browser.waitUntil("document.getElementById('outcome').textContent", timeout: 60)
      #expect(try await Self.text(browser, "#outcome") == "Over 18: true")
      await browser.close()
    }
  }
#endif
