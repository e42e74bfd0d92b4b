import DCHTTP
import DCJSON
import DCOpenID4VCI
import DCOpenID4VP
import DCWalletFixtureTestSupport
import Foundation
import Testing

@testable import DCWallet

/// The HTTP layer of the redirect flow (issue 16): fetching request objects and posting answers.
@Suite struct RedirectTransportTests {
  let requestURL = URL(string: "https://verifier.example/request")!
  let responseURL = URL(string: "https://verifier.example/response")!

  func transport(_ verifier: RedirectTestVerifier, policy: HTTPURLPolicy = .development)
    -> RedirectTransport
  {
    RedirectTransport(client: InProcessHTTPClient(handler: verifier), urlPolicy: policy)
  }

  func get(_ url: URL) -> HTTPRequest {
    HTTPRequest(method: .get, url: url, headers: ["Accept": "application/oauth-authz-req+jwt"])
  }

  func post(_ fields: [(String, String)]) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: responseURL,
      headers: ["Content-Type": "application/x-www-form-urlencoded"],
      body: FormParameters(fields.map { ($0.0, Optional($0.1)) }).bodyBytes)
  }

  func verifier(_ object: String = "a.b.c") -> RedirectTestVerifier {
    RedirectTestVerifier(.init(requestObject: { _ in object }))
  }

  @Test func getAsksForARequestObject() async throws {
    let verifier = verifier()
    let text = try await transport(verifier).fetchRequestObject(get(requestURL))
    #expect(text == "a.b.c")
    let sent = try #require(verifier.received.first)
    #expect(sent.method == .get)
    #expect(sent.headers["Accept"] == "application/oauth-authz-req+jwt")
    #expect(sent.body.isEmpty)
  }

  @Test func postSendsTheForm() async throws {
    let verifier = verifier()
    let fetch = try #require(
      try AuthorizationRequestURI(
        "openid4vp://?client_id=x509_san_dns%3Averifier.example&request_uri=https%3A%2F%2Fverifier.example%2Frequest&request_uri_method=post"
      ).requestObjectFetch())
    _ = try await transport(verifier).fetchRequestObject(fetch.request)
    let sent = try #require(verifier.received.first)
    #expect(sent.method == .post)
    #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    let form = try FormParameters(body: sent.body)
    let metadata = try JSONValue(parsing: try #require(form["wallet_metadata"]))
    #expect(metadata["vp_formats_supported"] != nil)
    #expect(form["wallet_nonce"] == fetch.walletNonce)
    #expect(fetch.walletNonce?.isEmpty == false)
  }

  @Test func aMediaTypeParameterAndCaseAreAccepted() async throws {
    let verifier = verifier()
    verifier.settings.contentType = "Application/OAuth-Authz-Req+JWT; charset=utf-8"
    #expect(try await transport(verifier).fetchRequestObject(get(requestURL)) == "a.b.c")
  }

  @Test func anotherMediaTypeIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.contentType = "application/json"
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(get(requestURL))
    }
    #expect(error?.code == .transport)
    #expect(error?.reason.contains("application/json") == true)
  }

  @Test func anErrorStatusAtTheRequestURIIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.requestStatus = 404
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(get(requestURL))
    }
    #expect(error?.reason.contains("HTTP 404") == true)
  }

  @Test func anOversizedRequestObjectIsRefused() async throws {
    let verifier = verifier(
      String(repeating: "a", count: RedirectTransport.maximumRequestObjectBytes + 1))
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(get(requestURL))
    }
    #expect(error?.reason.contains("larger than") == true)
  }

  @Test func plainHTTPOnlyToLoopback() async throws {
    let verifier = verifier()
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(
        get(URL(string: "http://verifier.example/request")!))
    }
    #expect(error?.code == .transport)
    #expect(verifier.received.isEmpty)
    _ = try await transport(verifier).fetchRequestObject(
      get(URL(string: "http://127.0.0.1:8080/request")!))
    // The standard policy refuses loopback http too, whatever the client allows.
    let transportError = await #expect(throws: WalletError.self) {
      try await transport(verifier, policy: .standard).fetchRequestObject(
        get(URL(string: "http://127.0.0.1:8080/request")!))
    }
    #expect(transportError?.code == .transport)
  }

  @Test func theRedirectURIIsHandedBack() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["redirect_uri": "https://verifier.example/done?code=1"]
    let outcome = try await transport(verifier).post(
      post([("vp_token", "{}"), ("state", "s")]), posted: .presentation)
    #expect(outcome.redirectURI?.absoluteString == "https://verifier.example/done?code=1")
    #expect(outcome.posted == .presentation)
    // Posted once, and the redirect_uri never requested.
    #expect(verifier.received.map(\.url.path) == ["/response"])
    let sent = try #require(verifier.received.first)
    #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(try FormParameters(body: sent.body)["state"] == "s")
  }

  @Test func anEmptyAnswerHasNoRedirect() async throws {
    let verifier = verifier()
    let outcome = try await transport(verifier).post(post([]), posted: .error("x"))
    #expect(outcome.redirectURI == nil)
  }

  @Test func aRedirectURIThePolicyRefusesIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["redirect_uri": "http://verifier.example/done"]
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(error?.reason.contains("redirect_uri is not allowed") == true)
    verifier.settings.answer = ["redirect_uri": "javascript:alert(1)"]
    let transportError = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(transportError?.code == .transport)
  }

  @Test func aVerifierErrorNamesItsCode() async throws {
    let verifier = verifier()
    verifier.settings.responseStatus = 400
    verifier.settings.answer = ["error": "invalid_request"]
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(error?.reason == "the response_uri answered HTTP 400 (invalid_request)")
  }

  @Test func anAnswerThatIsNotAnObjectIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["a"]
    let transportError = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(transportError?.code == .transport)
  }

  @Test func aRequestObjectThatIsNotUTF8IsRefused() async throws {
    let verifier = verifier()
    verifier.settings.rawRequestObject = [0x61, 0xFF, 0x62]
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(get(requestURL))
    }
    #expect(error?.reason.contains("UTF-8") == true)
  }

  @Test func anOversizedAnswerIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.rawAnswer = Array(
      ("{\"a\":\"" + String(repeating: "x", count: RedirectTransport.maximumAnswerBytes) + "\"}")
        .utf8)
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(error?.reason.contains("larger than") == true)
  }

  @Test func anAnswerThatIsNotJSONIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.rawAnswer = Array("<html>".utf8)
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post(post([]), posted: .presentation)
    }
    #expect(error?.reason.contains("not JSON") == true)
  }
}
