import DCCrypto
import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCSDJWT
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

#if os(Linux)
  import DCHTTPServer

  /// A verifier on 127.0.0.1 for `dcwallet present-uri`: it serves a request object at
  /// `/request` (signed `x509_san_dns:localhost`) and records what is posted to `/response`.
  final class LoopbackRedirectVerifier: HTTPHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var posted: [FormParameters] = []
    private var _requestObject: @Sendable (FormParameters?) -> String = { _ in "" }
    private var _status = 200
    private var _answer: JSONValue = .object([])
    private var server: DevelopmentHTTPServer?
    private(set) var base = ""

    init() throws {
      let server = DevelopmentHTTPServer(
        handler: self,
        configuration: DevelopmentHTTPServer.Configuration(
          port: 0, connectionTimeout: 10, handlerTimeout: 10))
      base = "http://127.0.0.1:\(try server.start())"
      self.server = server
    }

    func stop() { server?.stop() }

    func configure(
      status: Int = 200, answer: JSONValue = .object([]),
      requestObject: @escaping @Sendable (FormParameters?) -> String = { _ in "" }
    ) {
      lock.withLock {
        _status = status
        _answer = answer
        _requestObject = requestObject
      }
    }

    var responses: [FormParameters] { lock.withLock { posted } }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      let form = request.method == .post ? try? FormParameters(body: request.body) : nil
      return lock.withLock {
        switch request.url.path {
        case "/request":
          return HTTPResponse(
            status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"],
            body: Array(_requestObject(form).utf8))
        case "/response":
          if let form { posted.append(form) }
          return HTTPResponse(
            status: _status, headers: ["Content-Type": "application/json"],
            body: _answer.serializedBytes())
        default:
          return HTTPResponse(status: 404)
        }
      }
    }
  }

  /// A wallet holding an SD-JWT PID that trusts a verifier root, and a loopback verifier whose
  /// `x509_san_dns:localhost` certificate chains to it.
  struct PresentURIFixture {
    let cli: DCWallet
    let verifier: LoopbackRedirectVerifier
    let verifierKey: ECPrivateKey
    let verifierCertificate: Certificate

    static let query: JSONValue = [
      "credentials": [
        [
          "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:eudi:pid:1"]],
          "claims": [["path": ["given_name"]], ["path": ["age_over_18"]]],
        ]
      ]
    ]

    init() throws {
      let base = try CLIFixture(importMDL: false)
      cli = base.cli
      let pki = base.pki
      let now = pki.clock
      let issuerKey = try ECPrivateKey(curve: .p256)
      let issuerCert = try CertificateBuilder(
        subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
        publicKey: issuerKey.publicKey,
        notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400),
        extensions: [
          .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("issuer.example")]),
        ]
      ).issued(by: pki.iaca, signer: pki.iacaKey)
      let holder = try ECPrivateKey(curve: .p256)
      let sdJWT = try SDJWTIssuer.issue(
        claims: .object([("given_name", "Erika"), ("age_over_18", true)]),
        selectivelyDisclosable: ["given_name", "age_over_18"], holderKey: holder.publicKey,
        vct: "urn:eudi:pid:1", issuer: "https://issuer.example", issuedAt: now,
        expiresAt: now.addingTimeInterval(86_400), signer: issuerKey, x5c: [issuerCert],
        random: SecureRandom())
      let imported = try cli.run([
        "import", "--sd-jwt", try cli.file("pid.sdjwt", sdJWT.serialized), "--device-key",
        try cli.file("holder.pem", holder.pemRepresentation), "--id", "pid",
      ])
      #expect(imported.code == 0, "\(imported.err)")
      let rootKey = try ECPrivateKey(curve: .p256)
      let root = try CertificateBuilder.readerRoot(
        commonName: "Verifier CA", publicKey: rootKey.publicKey,
        notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
      ).selfSigned(signer: rootKey)
      #expect(
        try cli.run(["trust", "add", "--verifier", try cli.file("vroot.pem", root.pemString)])
          .code == 0)
      verifierKey = try ECPrivateKey(curve: .p256)
      verifierCertificate = try CertificateBuilder.openID4VPVerifier(
        dnsName: "localhost", publicKey: verifierKey.publicKey,
        notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400)
      ).issued(by: root, signer: rootKey)
      verifier = try LoopbackRedirectVerifier()
    }

    /// Serves a signed request object answered at `http://localhost:PORT/response`, and answers
    /// posts with `answer`.
    func serveSigned(status: Int = 200, answer: JSONValue = .object([])) {
      let key = verifierKey
      let certificate = verifierCertificate
      let responseURI =
        verifier.base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        + "/response"
      verifier.configure(status: status, answer: answer) { form in
        let now = Int64(Date().timeIntervalSince1970)
        var payload: [(key: String, value: JSONValue)] = [
          ("client_id", "x509_san_dns:localhost"), ("response_type", "vp_token"),
          ("response_mode", "direct_post"), ("response_uri", .string(responseURI)),
          ("nonce", "cli-nonce"), ("state", "cli-state"), ("dcql_query", Self.query),
          ("aud", "https://self-issued.me/v2"), ("iat", .integer(now)),
          ("exp", .integer(now + 300)),
        ]
        if let nonce = form?["wallet_nonce"] { payload.append(("wallet_nonce", .string(nonce))) }
        return
          (try? JWS.sign(
            payload: JSONValue.object(payload).serializedBytes(),
            protectedHeader: [
              "typ": "oauth-authz-req+jwt", "x5c": JWS.x5c([certificate.derBytes]),
            ], signer: key)) ?? ""
      }
    }

    var signedURI: String {
      "openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri="
        + (verifier.base + "/request").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
  }

  @Suite("dcwallet present-uri (issue 16)", .serialized)
  struct PresentURIBinaryTests {
    @Test("answers a signed request and prints only the verifier's redirect_uri")
    func answers() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned(answer: ["redirect_uri": "http://127.0.0.1:9/done#ok"])
      let result = try fixture.cli.run(["present-uri", fixture.signedURI])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out == "http://127.0.0.1:9/done#ok")
      let form = try #require(fixture.verifier.responses.first)
      #expect(form["state"] == "cli-state")
      #expect(form["vp_token"] != nil)
    }

    @Test("an eu-eaap:// URI (ETSI TS 119 472-2 §6.4.1) is answered like openid4vp://")
    func euEAAPScheme() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned(answer: ["redirect_uri": "http://127.0.0.1:9/eaap"])
      let uri = "eu-eaap" + fixture.signedURI.dropFirst("openid4vp".count)
      let result = try fixture.cli.run(["present-uri", uri])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out == "http://127.0.0.1:9/eaap")
      #expect(fixture.verifier.responses.first?["vp_token"] != nil)
    }

    @Test("a cross-device verifier sends no redirect_uri: nothing is printed")
    func crossDevice() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned()
      let result = try fixture.cli.run([
        "present-uri", fixture.signedURI, "--disclose", "given_name",
      ])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out.isEmpty)
      let token = try JSONValue(
        parsing: try #require(fixture.verifier.responses.first?["vp_token"]))
      let presentation = try #require(token["pid"]?[0]?.string)
      // given_name disclosed, age_over_18 withheld: one disclosure between issuer JWT and KB-JWT.
      #expect(presentation.split(separator: "~", omittingEmptySubsequences: false).count == 3)
    }

    @Test("--decline posts access_denied with state: exit 0 when the verifier accepts it")
    func declineAccepted() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned(answer: ["redirect_uri": "http://127.0.0.1:9/declined"])
      let result = try fixture.cli.run(["present-uri", fixture.signedURI, "--decline"])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out == "http://127.0.0.1:9/declined")
      let form = try #require(fixture.verifier.responses.first)
      #expect(form["error"] == "access_denied")
      #expect(form["state"] == "cli-state")
    }

    @Test("--decline exits 1 with the reason when the verifier does not accept the error response")
    func declineRefused() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned(status: 400, answer: ["error": "invalid_request"])
      let result = try fixture.cli.run(["present-uri", fixture.signedURI, "--decline"])
      #expect(result.code == 1)
      #expect(result.out.isEmpty)
      #expect(result.err.contains("HTTP 400"))
    }

    @Test(
      "an untrusted verifier is refused: exit 1, reason on standard error, nothing on standard output"
    )
    func untrusted() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned()
      let other = try DCWallet()
      let result = try other.run(["present-uri", fixture.signedURI])
      #expect(result.code == 1)
      #expect(result.out.isEmpty)
      #expect(result.err.hasPrefix("dcwallet present-uri: "))
    }

    @Test("--interactive shows the consent screen; y answers, anything else declines")
    func interactive() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned(answer: ["redirect_uri": "http://127.0.0.1:9/next"])
      let yes = try fixture.cli.run(
        ["present-uri", fixture.signedURI, "--interactive"], stdin: "y\n")
      #expect(yes.code == 0, "\(yes.err)")
      #expect(yes.out == "http://127.0.0.1:9/next")
      #expect(yes.err.contains("x509_san_dns:localhost"))
      #expect(yes.err.contains("Share? [y/N]"))
      #expect(fixture.verifier.responses.last?["vp_token"] != nil)
      let no = try fixture.cli.run(
        ["present-uri", fixture.signedURI, "--interactive"], stdin: "n\n")
      #expect(no.code == 0, "\(no.err)")
      #expect(fixture.verifier.responses.last?["error"] == "access_denied")
      #expect(fixture.verifier.responses.count == 2)
    }

    @Test(
      "--require-trusted-verifier refuses a redirect_uri request (exit 1) and posts nothing to it"
    )
    func requireTrustedVerifier() throws {
      let fixture = try PresentURIFixture()
      defer { fixture.verifier.stop() }
      fixture.serveSigned()
      let responseURI = fixture.verifier.base + "/response"
      let query = PresentURIFixture.query.serialized()
      let uri =
        "openid4vp://?"
        + FormParameters([
          ("client_id", "redirect_uri:" + responseURI), ("response_type", "vp_token"),
          ("response_mode", "direct_post"), ("response_uri", responseURI),
          ("nonce", "by-value"), ("state", "s-1"), ("dcql_query", query),
        ]).encoded
      let refused = try fixture.cli.run(["present-uri", uri, "--require-trusted-verifier"])
      #expect(refused.code == 1)
      #expect(refused.out.isEmpty)
      #expect(refused.err.contains("not authenticated"))
      #expect(fixture.verifier.responses.isEmpty)
      let answered = try fixture.cli.run(["present-uri", uri])
      #expect(answered.code == 0, "\(answered.err)")
      #expect(fixture.verifier.responses.last?["vp_token"] != nil)
    }

    @Test("usage: a missing URI exits 2; --help documents the contract")
    func usage() throws {
      let cli = try DCWallet()
      #expect(try cli.run(["present-uri"]).code == 2)
      let help = try cli.run(["present-uri", "--help"])
      #expect(help.code == 0)
      #expect(help.out.contains("--decline"))
      #expect(help.out.contains("redirect_uri"))
    }

    @Test("http to a host that is not loopback is refused before anything is sent")
    func plainHTTP() throws {
      let cli = try DCWallet()
      let result = try cli.run([
        "present-uri",
        "openid4vp://?client_id=x509_san_dns%3Averifier.example&request_uri=http%3A%2F%2Fverifier.example%2Frequest",
      ])
      #expect(result.code == 1)
      #expect(result.err.contains("request_uri"))
    }
  }
#endif
