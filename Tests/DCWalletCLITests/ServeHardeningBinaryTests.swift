#if os(Linux)
  import DCWalletTestSupport
  import Foundation
  import Testing

  /// Issue 31's review findings against the real `dcwallet verifier serve` and `issuer serve`:
  /// a cross-site `text/plain` POST (foreign `Host`, foreign `Origin`) creates no transaction and
  /// no issuance, the serve flags are checked, and every file the issuer's state directory gets
  /// is 0600 even in a shared directory. Raw requests go through `curl` (any `Host` header).
  @Suite("dcwallet serve hardening", .timeLimit(.minutes(3)))
  struct ServeHardeningBinaryTests {
    static let curl = "/usr/bin/curl"

    /// The status `curl` got for a POST of `body` to `url` with `headers`.
    static func post(_ url: String, _ headers: [String], body: String) throws -> String {
      let arguments =
        ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--data-binary", body]
        + headers.flatMap { ["-H", $0] } + [url]
      let process = Process()
      process.executableURL = URL(fileURLWithPath: curl)
      process.arguments = arguments
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }

    @Test(
      "verifier serve: a cross-site text/plain POST creates no transaction",
      .enabled(if: FileManager.default.isExecutableFile(atPath: curl)))
    func verifierCrossSite() async throws {
      let cli = try DCWallet()
      let files = cli.home + "-dev"
      let made = try await runDCWalletOffPool(
        cli, ["dev", "files", "--out", files, "--origin-host", "localhost"])
      #expect(made.code == 0, "\(made.err)")
      let server = try BackgroundDCWallet(
        cli,
        [
          "verifier", "serve", "--listen", "127.0.0.1:0", "--signer-key", files + "/verifier.pem",
          "--sd-jwt-issuer-anchor", files + "/iaca.pem", "--no-status-check",
        ])
      defer { server.stop() }
      let base = try await server.firstLine()
      let port = try #require(base.split(separator: ":").last)
      let query = try String(contentsOfFile: files + "/query.json", encoding: .utf8)
      let body = #"{"dcql_query": \#(query)}"#
      let url = base + "/transactions"
      // DNS rebinding: the attacker's name in Host, a text/plain body (no preflight).
      #expect(
        try Self.post(
          url,
          [
            "Host: rebind.example:\(port)", "Origin: http://rebind.example:\(port)",
            "Content-Type: text/plain",
          ],
          body: body) == "421")
      #expect(
        try Self.post(
          url, ["Origin: https://evil.example", "Content-Type: application/json"], body: body)
          == "403")
      #expect(try Self.post(url, ["Content-Type: text/plain"], body: body) == "415")
      #expect(try Self.post(url, ["Content-Type: application/json"], body: body) == "201")
      // The URL it records for 'verifier transaction' is the owner's alone.
      let recorded = try FileManager.default.attributesOfItem(
        atPath: cli.home + "/verifier/verifier.json")
      #expect((recorded[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test(
      "issuer serve --auto-approve: a cross-site form POST to /authorize is refused",
      .enabled(if: FileManager.default.isExecutableFile(atPath: curl)))
    func issuerCrossSite() async throws {
      let cli = try DCWallet()
      let server = try BackgroundDCWallet(
        cli, ["issuer", "serve", "--port", "0", "--auto-approve"])
      defer { server.stop() }
      let base = try await server.firstLine()
      let port = try #require(base.split(separator: ":").last)
      let form = "response_type=code&client_id=x&redirect_uri=https%3A%2F%2Fevil.example%2Fcb"
      let url = base + "/authorize"
      #expect(
        try Self.post(
          url, ["Host: rebind.example:\(port)", "Content-Type: application/x-www-form-urlencoded"],
          body: form) == "421")
      #expect(
        try Self.post(
          url, ["Origin: https://evil.example", "Content-Type: application/x-www-form-urlencoded"],
          body: form) == "403")
      #expect(try Self.post(url, ["Content-Type: text/plain"], body: form) == "415")
    }

    @Test(
      "serve refuses bad listen options",
      arguments: [
        (["--listen", "0.0.0.0:0"], "--public-url"),
        (["--listen", "localhost:80"], "--listen"),
        (["--listen", "127.0.0.1:0", "--port", "0"], "not both"),
        (["--port", "0", "--public-url", "ftp://x"], "--public-url"),
        (["--port", "0", "--trusted-proxy", "proxy.example"], "--trusted-proxy"),
        (["--port", "0", "--head-timeout", "0"], "--head-timeout"),
        (["--port", "0", "--max-connections-per-client", "x"], "--max-connections-per-client"),
      ])
    func badListenOptions(arguments: [String], named: String) async throws {
      let cli = try DCWallet()
      let result = try await runDCWalletOffPool(cli, ["issuer", "serve"] + arguments)
      #expect(result.code == 2, "\(result.err)")
      #expect(result.err.contains(named), "\(result.err)")
    }

    @Test("issuer serve in a shared directory: every state file is 0600")
    func stateFilesAreOwnerOnly() async throws {
      let cli = try DCWallet()
      let shared = cli.home + "-shared"
      try FileManager.default.createDirectory(
        atPath: shared, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
      let config = shared + "/issuer.json.config"
      try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
      let server = try BackgroundDCWallet(
        cli, ["issuer", "serve", "--port", "0", "--config", config])
      defer { server.stop() }
      _ = try await server.firstLine()
      let offer = try await runDCWalletOffPool(
        cli, ["issuer", "offer", "--config", config, "--configuration", "mDL", "--pre-authorized"])
      #expect(offer.code == 0, "\(offer.err)")
      server.stop()
      let names = try FileManager.default.contentsOfDirectory(atPath: shared)
        .filter { $0 != "issuer.json.config" }
      #expect(names.contains("state.sqlite"))
      #expect(names.contains("issuer.json"))
      #expect(names.contains("ds-key.pem"))
      for name in names {
        let attributes = try FileManager.default.attributesOfItem(atPath: shared + "/" + name)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
        #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8))")
      }
    }
  }
#endif
