import DCHTTP
import DCJSON
import Foundation
import Testing

#if os(Linux)
  /// `dcwallet issuer serve` offers a credential over the DC API (its page, its module, the
  /// `navigator.credentials.create` argument) and `dcwallet respond` answers that create request
  /// as the browser would hand it to the wallet, with the page's origin.
  @Suite("DC API issuance: issuer serve and respond", .timeLimit(.minutes(3)))
  struct DCAPIIssuanceBinaryTests {
    struct Setup {
      let cli: DCWallet
      let server: BackgroundDCWallet
      let base: String
      let http = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 10))

      init() async throws {
        cli = try DCWallet()
        server = try BackgroundDCWallet(
          cli, ["issuer", "serve", "--port", "0", "--auto-approve"])
        base = try await server.firstLine()
      }

      func get(_ path: String) async throws -> HTTPResponse {
        try await http.send(
          HTTPRequest(method: .get, url: try #require(URL(string: base + path))))
      }

      /// What the page gets from the issuer and passes to `navigator.credentials.create`.
      func creationOptions(_ configuration: String, grant: String = "pre-authorized")
        async throws -> JSONValue
      {
        let response = try await http.send(
          HTTPRequest(
            method: .post, url: try #require(URL(string: base + "/dc-api/offer")),
            headers: ["Content-Type": "application/json"],
            body: Array(#"{"configuration": "\#(configuration)", "grant": "\#(grant)"}"#.utf8)))
        #expect(response.status == 200)
        #expect(response.headers["Cache-Control"] == "no-store")
        return try JSONValue(parsing: response.body)
      }

      /// `dcwallet respond` with the request in a file and `arguments`.
      func respond(_ request: JSONValue, origin: String? = nil, _ arguments: [String] = [])
        async throws -> DCWallet.Result
      {
        let file = try cli.file("create-\(UUID().uuidString).json", request.serialized())
        return try await runDCWalletOffPool(
          cli,
          ["respond", "--origin", origin ?? base, "--request", file, "--trust-issuer-iacas"]
            + arguments)
      }

      func stored() async throws -> Int {
        let list = try await runDCWalletOffPool(cli, ["list", "--json"])
        return try JSONValue(parsing: Array(list.out.utf8)).array?.count ?? -1
      }

      /// The first request's data with `edit` applied, in the create argument's shape.
      func edited(
        _ options: JSONValue, protocol identifier: String? = nil,
        _ edit: (JSONValue) -> JSONValue = { $0 }
      ) throws -> JSONValue {
        let entry = try #require(options["digital"]?["requests"]?.array?.first)
        let data = edit(try #require(entry["data"]))
        return .object([
          (
            "digital",
            .object([
              (
                "requests",
                .array([
                  .object([
                    ("protocol", .string(identifier ?? entry["protocol"]?.string ?? "")),
                    ("data", data),
                  ])
                ])
              )
            ])
          )
        ])
      }
    }

    @Test("the page and its module are served with a CSP; the page calls create with openid4vci-v1")
    func page() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let page = try await setup.get("/")
      #expect(page.status == 200)
      #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
      #expect(page.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
      let html = String(decoding: page.body, as: UTF8.self)
      #expect(html.contains(#"<script type="module" src="issuer-page.js">"#))
      let module = try await setup.get("/issuer-page.js")
      #expect(module.headers["Content-Type"]?.hasPrefix("text/javascript") == true)
      let script = String(decoding: module.body, as: UTF8.self)
      #expect(script.contains("navigator.credentials.create"))
      #expect(script.contains(#""openid4vci-v1""#))
      // The issuer's own endpoints are still there.
      #expect(try await setup.get("/.well-known/openid-credential-issuer").status == 200)
    }

    @Test("respond takes the create request, stores the credential, prints offer_accepted")
    func preAuthorized() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let options = try await setup.creationOptions("pid")
      let request = try #require(options["digital"]?["requests"]?.array?.first)
      #expect(request["protocol"]?.string == "openid4vci-v1")
      #expect(request["data"]?["credential_issuer"]?.string == setup.base)
      let result = try await setup.respond(options)
      #expect(result.code == 0, "\(result.err)")
      #expect(
        result.out.trimmingCharacters(in: .whitespacesAndNewlines)
          == #"{"protocol":"openid4vci-v1","data":{"status":"offer_accepted"}}"#)
      #expect(result.err.contains("stored "), "\(result.err)")
      #expect(try await setup.stored() == 1)
    }

    @Test("an authorization code offer runs through --browser")
    func authorizationCode() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let browser = try setup.cli.file(
        "browser.sh",
        """
        #!/bin/sh
        curl -s -o /dev/null -w '%{redirect_url}' "$1"
        echo
        """)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser)
      let options = try await setup.creationOptions("mDL", grant: "authorization-code")
      let result = try await setup.respond(options, ["--browser", browser])
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out.contains("offer_accepted"))
      #expect(try await setup.stored() == 1)
    }

    @Test("a historical alias is answered under the identifier the page used")
    func alias() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let options = try setup.edited(
        try await setup.creationOptions("pid"), protocol: "openid4vci1.0")
      let result = try await setup.respond(options)
      #expect(result.code == 0, "\(result.err)")
      #expect(result.out.contains(#""protocol":"openid4vci1.0""#))
    }

    @Test("an offer from a page at another origin is refused unless --any-origin")
    func otherOrigin() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let options = try await setup.creationOptions("pid")
      let refused = try await setup.respond(options, origin: "https://evil.example")
      #expect(refused.code == 1)
      #expect(refused.out.isEmpty)
      #expect(refused.err.contains("not at the origin"), "\(refused.err)")
      #expect(try await setup.stored() == 0)
      let accepted = try await setup.respond(
        options, origin: "https://portal.example", ["--any-origin"])
      #expect(accepted.code == 0, "\(accepted.err)")
      #expect(try await setup.stored() == 1)
    }

    @Test("malformed offers and unusable requests are refused with nothing stored")
    func refusals() async throws {
      let setup = try await Setup()
      defer { setup.server.stop() }
      let options = try await setup.creationOptions("pid")
      let cases: [(JSONValue, String)] = [
        (
          try setup.edited(options) { $0.setting("credential_configuration_ids", to: .array([])) },
          "credential_configuration_ids"
        ),
        (
          try setup.edited(options) { _ in
            .object([("credential_offer_uri", .string(setup.base + "/offers/x"))])
          }, "by value"
        ),
        (
          try setup.edited(options) {
            $0.setting(
              "credential_issuer_metadata",
              to: .object([("credential_issuer", .string("https://other.example"))]))
          }, "another credential issuer"
        ),
      ]
      for (request, expected) in cases {
        let result = try await setup.respond(request)
        #expect(result.code == 1, "\(expected)")
        #expect(result.out.isEmpty, "\(expected)")
        #expect(result.err.contains(expected), "\(result.err)")
      }
      let badOrigin = try await setup.respond(options, origin: "null")
      #expect(badOrigin.code == 1)
      #expect(badOrigin.err.contains("not a web origin"), "\(badOrigin.err)")
      let unknown = try await setup.respond(
        try setup.edited(options, protocol: "openid4vci-v9"))
      #expect(unknown.code == 1)
      #expect(unknown.out.isEmpty)
      #expect(try await setup.stored() == 0)
    }
  }
#endif
