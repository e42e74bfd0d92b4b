import DCCrypto
import DCHTTP
import DCJOSE
import DCJSON
import DCSDJWT
import DCX509
import Foundation
import Testing

#if os(Linux)
  /// A `dcwallet` process running in the background, its standard output read line by line.
  final class BackgroundDCWallet: @unchecked Sendable {
    let process = Process()
    private let stdin = Pipe()
    private let lock = NSLock()
    private var outLines: [String] = []
    private var errText = Data()
    private var outDone = false
    private var errDone = false

    init(_ cli: DCWallet, _ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: DCWallet.binary)
      process.arguments = ["--home", cli.home] + arguments
      var environment = ProcessInfo.processInfo.environment
      environment.removeValue(forKey: "DCWALLET_HOME")
      process.environment = environment
      let stdout = Pipe()
      let stderr = Pipe()
      process.standardInput = stdin
      process.standardOutput = stdout
      process.standardError = stderr
      try process.run()
      Thread { [self] in
        var buffer = Data()
        while true {
          let chunk = stdout.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          buffer.append(chunk)
          while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer = Data(buffer[buffer.index(after: newline)...])
            lock.withLock { outLines.append(line) }
          }
        }
        if !buffer.isEmpty {
          let rest = String(decoding: buffer, as: UTF8.self)
          lock.withLock { outLines.append(rest) }
        }
        lock.withLock { outDone = true }
      }.start()
      Thread { [self] in
        let data = stderr.fileHandleForReading.readDataToEndOfFile()
        lock.withLock {
          errText = data
          errDone = true
        }
      }.start()
    }

    /// The first line of standard output, waiting at most `timeout` seconds.
    func firstLine(timeout: TimeInterval = 60) async throws -> String {
      let deadline = Date().addingTimeInterval(timeout)
      while Date() < deadline {
        if let line = lock.withLock({ outLines.first }) { return line }
        if lock.withLock({ outDone }) { break }
        try await Task.sleep(nanoseconds: 20_000_000)
      }
      throw CancellationError()
    }

    func writeLine(_ text: String) {
      stdin.fileHandleForWriting.write(Data((text + "\n").utf8))
    }

    /// Waits for the process to end (at most `timeout` seconds, then kills it): status, stdout
    /// lines, stderr.
    func finish(timeout: TimeInterval = 60) async throws -> (
      code: Int32, out: [String], err: String
    ) {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning, Date() < deadline {
        try await Task.sleep(nanoseconds: 20_000_000)
      }
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      while !lock.withLock({ outDone && errDone }) { try await Task.sleep(nanoseconds: 5_000_000) }
      return lock.withLock {
        (process.terminationStatus, outLines, String(decoding: errText, as: UTF8.self))
      }
    }

    func stop() {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
    }
  }

  /// `dcwallet verifier serve` on port 0 and `dcwallet verifier transaction` against it, with
  /// the wallet played by this test over loopback HTTP (the dev files' PID, presented by hand).
  @Suite("dcwallet verifier serve and transaction", .timeLimit(.minutes(3)))
  struct VerifierServeBinaryTests {
    struct Setup {
      let cli: DCWallet
      let files: String
      let server: BackgroundDCWallet
      let base: String

      init(_ extra: [String] = []) async throws {
        cli = try DCWallet()
        files = cli.home + "-dev"
        let made = try await runDCWalletOffPool(
          cli, ["dev", "files", "--out", files, "--origin-host", "localhost"])
        #expect(made.code == 0, "\(made.err)")
        server = try BackgroundDCWallet(
          cli,
          [
            "verifier", "serve", "--port", "0", "--signer-key", files + "/verifier.pem",
            "--signer-cert", files + "/verifier-chain.pem", "--sd-jwt-issuer-anchor",
            files + "/iaca.pem", "--issuer-anchor", files + "/iaca.pem", "--no-status-check",
          ] + extra)
        base = try await server.firstLine()
      }

      func transaction(_ arguments: [String]) throws -> BackgroundDCWallet {
        try BackgroundDCWallet(
          cli,
          ["verifier", "transaction", "--dcql", files + "/query.json", "--timeout", "30"]
            + arguments)
      }

      /// The wallet: fetches the request object, presents the dev PID bound to the request's
      /// client_id and nonce, posts it (or an error response); returns the verifier's answer.
      ///
      /// `route` maps each URL before it is reached (a load balancer's choice of instance);
      /// `beforePost` gets the response URI and body before they are posted.
      func answer(
        _ uri: String, method: HTTPMethod = .get, decline: Bool = false,
        check: (CompactJWS) throws -> Void = { _ in },
        route: (String) -> String = { $0 },
        beforePost: (_ responseURI: String, _ body: [UInt8]) async throws -> Void = { _, _ in }
      ) async throws -> JSONValue {
        let client = URLSessionHTTPClient(configuration: .init(policy: .development))
        let parameters = Dictionary(
          uniqueKeysWithValues: (URLComponents(string: uri)?.queryItems ?? []).map {
            ($0.name, $0.value ?? "")
          })
        let requestURI = route(try #require(parameters["request_uri"]))
        let fetched = try await client.send(
          HTTPRequest(
            method: method, url: try #require(URL(string: requestURI)),
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: method == .post ? Array("wallet_nonce=abc".utf8) : []))
        #expect(fetched.status == 200)
        let jws = try CompactJWS(String(decoding: fetched.body, as: UTF8.self))
        try check(jws)
        let request = try JSONValue(parsing: jws.payload)
        #expect(request["client_id"]?.string == parameters["client_id"])
        if method == .post { #expect(request["wallet_nonce"]?.string == "abc") }
        let state = try #require(request["state"]?.string)
        var body: String
        if decline {
          body = "error=access_denied&state=\(encode(state))"
        } else {
          let pid = try SDJWT(
            serialized: try String(contentsOfFile: files + "/pid.txt", encoding: .utf8)
              .trimmingCharacters(in: .whitespacesAndNewlines))
          let holder = try ECPrivateKey(
            pemRepresentation: try String(contentsOfFile: files + "/holder.pem", encoding: .utf8))
          let presentation = try pid.present(
            disclosing: [ClaimPath([.key("given_name")]), ClaimPath([.key("age_over_18")])],
            keyBinding: KeyBinding(
              signer: holder, audience: request["client_id"]?.string ?? "",
              nonce: request["nonce"]?.string ?? "", issuedAt: Date()))
          let payload = JSONValue.object([
            ("vp_token", .object([("pid", .array([.string(presentation)]))])),
            ("state", .string(state)),
          ])
          if request["response_mode"]?.string == "direct_post.jwt" {
            let key = try JWK(
              json: try #require(request["client_metadata"]?["jwks"]?["keys"]?.array?.first))
            let jwe = try JWE.encrypt(
              plaintext: payload.serializedBytes(), recipient: try key.publicKey(),
              enc: .a128gcm, kid: key.kid)
            body = "response=\(encode(jwe))"
          } else {
            body =
              "vp_token=\(encode(payload["vp_token"]?.serialized() ?? ""))&state=\(encode(state))"
          }
        }
        try await beforePost(try #require(request["response_uri"]?.string), Array(body.utf8))
        let responseURI = route(try #require(request["response_uri"]?.string))
        let posted = try await client.send(
          HTTPRequest(
            method: .post, url: try #require(URL(string: responseURI)),
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Array(body.utf8)))
        #expect(posted.status == 200, "\(String(decoding: posted.body, as: UTF8.self))")
        return try JSONValue(parsing: posted.body)
      }

      func encode(_ text: String) -> String {
        text.addingPercentEncoding(
          withAllowedCharacters: CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))
          ?? ""
      }
    }

    @Test(
      "cross-device: the URI first, then the verified presentation; exit 0",
      arguments: [("direct_post.jwt", "get"), ("direct_post", "post")])
    func crossDevice(mode: String, method: String) async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      #expect(setup.base.hasPrefix("http://localhost:"))
      // The URL is recorded for 'verifier transaction' without --verifier.
      let transaction = try setup.transaction([
        "--response-mode", mode, "--request-uri-method", method,
      ])
      let uri = try await transaction.firstLine()
      #expect(uri.hasPrefix("openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri="))
      #expect(uri.contains("request_uri_method=post") == (method == "post"))
      let answer = try await setup.answer(uri, method: method == "post" ? .post : .get)
      #expect(answer == .object([]))
      let result = try await transaction.finish()
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out.contains("pid: dc+sd-jwt urn:eudi:pid:1"))
      #expect(result.out.contains("  given_name: \"Erika\""))
      #expect(result.out.contains("ok  every Credential Query answered"))
      #expect(
        result.out.contains("ok  response JWE decrypted with the request's encryption key")
          == (mode == "direct_post.jwt"))
    }

    @Test("same-device: the redirect_uri on standard input releases the result")
    func sameDevice() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let transaction = try setup.transaction([
        "--same-device", "--verifier", setup.base, "--json",
      ])
      let uri = try await transaction.firstLine()
      let answer = try await setup.answer(uri)
      let redirect = try #require(answer["redirect_uri"]?.string)
      #expect(redirect.hasPrefix(setup.base + "/done?transaction_id="))
      #expect(redirect.contains("#response_code="))
      transaction.writeLine(redirect)
      let result = try await transaction.finish()
      #expect(result.code == 0, "\(result.err)")
      let json = try JSONValue(parsing: Array(try #require(result.out.last).utf8))
      #expect(json["verified"] == true)
    }

    @Test("a declined request: exit 1 with the wallet's error")
    func declined() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let transaction = try setup.transaction(["--qr"])
      let uri = try await transaction.firstLine()
      _ = try await setup.answer(uri, decline: true)
      let result = try await transaction.finish()
      #expect(result.code == 1)
      #expect(result.err.contains("the wallet answered access_denied"))
      // The QR code is on standard error, drawn with half blocks.
      #expect(result.err.contains("▀") || result.err.contains("▄") || result.err.contains("█"))
    }

    @Test("verifier_attestation: the request carries the attestation and verifies")
    func verifierAttestation() async throws {
      // An attestation issuer under a verifier CA of its own.
      let from = Date().addingTimeInterval(-3600)
      let until = Date().addingTimeInterval(86_400)
      let caKey = try ECPrivateKey(curve: .p256)
      let ca = try CertificateBuilder.readerRoot(
        commonName: "Attestation CA", publicKey: caKey.publicKey, notBefore: from,
        notAfter: until
      ).selfSigned(signer: caKey)
      let issuerKey = try ECPrivateKey(curve: .p256)
      let issuer = try CertificateBuilder.openID4VPVerifier(
        dnsName: "attestations.localhost", publicKey: issuerKey.publicKey, notBefore: from,
        notAfter: until
      ).issued(by: ca, signer: caKey)
      let cli = try DCWallet()
      let keyPath = try cli.file("attestation-issuer.pem", issuerKey.pemRepresentation)
      let certPath = try cli.file("attestation-issuer-chain.pem", issuer.pemString + ca.pemString)
      let setup = try await Setup([
        "--attestation-issuer-key", keyPath, "--attestation-issuer-cert", certPath,
      ])
      defer { setup.server.stop() }
      let transaction = try setup.transaction(["--client-id-prefix", "verifier_attestation"])
      let uri = try await transaction.firstLine()
      #expect(uri.hasPrefix("openid4vp://?client_id=verifier_attestation%3Alocalhost&"))
      let answer = try await setup.answer(uri) { jws in
        let attestation = try CompactJWS(try #require(jws.protectedHeader["jwt"]?.string))
        #expect(attestation.type == "verifier-attestation+jwt")
        try attestation.verifySignature(with: issuerKey.publicKey)
        let cnf = try JWK(
          json: try #require(JSONValue(parsing: attestation.payload)["cnf"]?["jwk"]))
        try jws.verifySignature(with: try cnf.publicKey())
      }
      #expect(answer == .object([]))
      let result = try await transaction.finish()
      #expect(result.code == 0, "\(result.err)")
    }

    @Test("no answer in time: exit 1; options checked; help")
    func timeoutsAndUsage() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let waiting = try BackgroundDCWallet(
        setup.cli,
        ["verifier", "transaction", "--dcql", setup.files + "/query.json", "--timeout", "1"])
      let result = try await waiting.finish()
      #expect(result.code == 1)
      #expect(result.err.contains("no response within 1 seconds"))
      let badPrefix = try await runDCWalletOffPool(
        setup.cli,
        [
          "verifier", "transaction", "--dcql", setup.files + "/query.json",
          "--client-id-prefix", "did",
        ])
      #expect(badPrefix.code == 2)
      #expect(badPrefix.err.contains("--client-id-prefix"))
      // verifier_attestation without an attestation issuer: the server refuses the transaction.
      let refused = try await runDCWalletOffPool(
        setup.cli,
        [
          "verifier", "transaction", "--dcql", setup.files + "/query.json",
          "--client-id-prefix", "verifier_attestation",
        ])
      #expect(refused.code == 1)
      #expect(refused.err.contains("no verifier attestation is configured"))
      for command in [["verifier", "serve", "--help"], ["verifier", "transaction", "--help"]] {
        let help = try await runDCWalletOffPool(setup.cli, command)
        #expect(help.code == 0)
        #expect(help.out.contains("dcwallet " + command.dropLast().joined(separator: " ")))
      }
    }
  }
#endif
