import Foundation
import HTTP
import JSON
import OpenID4VCI
import Testing

@testable import CredentialWallet

/// The HTTP layer of the redirect flow (issue 16): fetching request objects and posting answers.
@Suite struct RedirectTransportTests {
  let requestURL = URL(string: "https://verifier.example/request")!
  let responseURL = URL(string: "https://verifier.example/response")!

  func transport(_ verifier: RedirectTestVerifier, policy: HTTPURLPolicy = .development)
    -> RedirectTransport
  {
    RedirectTransport(client: InProcessHTTPClient(handler: verifier), urlPolicy: policy)
  }

  func verifier(_ object: String = "a.b.c") -> RedirectTestVerifier {
    RedirectTestVerifier(.init(requestObject: { _ in object }))
  }

  @Test func getAsksForARequestObject() async throws {
    let verifier = verifier()
    let text = try await transport(verifier).fetchRequestObject(at: requestURL, post: nil)
    #expect(text == "a.b.c")
    let sent = try #require(verifier.received.first)
    #expect(sent.method == .get)
    #expect(sent.headers["Accept"] == "application/oauth-authz-req+jwt")
    #expect(sent.body.isEmpty)
  }

  @Test func postSendsTheForm() async throws {
    let verifier = verifier()
    _ = try await transport(verifier).fetchRequestObject(
      at: requestURL, post: [("wallet_metadata", #"{"a":1}"#), ("wallet_nonce", "n 1")])
    let sent = try #require(verifier.received.first)
    #expect(sent.method == .post)
    #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    let form = try FormParameters(body: sent.body)
    #expect(form["wallet_metadata"] == #"{"a":1}"#)
    #expect(form["wallet_nonce"] == "n 1")
  }

  @Test func aMediaTypeParameterAndCaseAreAccepted() async throws {
    let verifier = verifier()
    verifier.settings.contentType = "Application/OAuth-Authz-Req+JWT; charset=utf-8"
    #expect(try await transport(verifier).fetchRequestObject(at: requestURL, post: nil) == "a.b.c")
  }

  @Test func anotherMediaTypeIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.contentType = "application/json"
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(at: requestURL, post: nil)
    }
    #expect(error?.code == .transport)
    #expect(error?.reason.contains("application/json") == true)
  }

  @Test func anErrorStatusAtTheRequestURIIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.requestStatus = 404
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(at: requestURL, post: nil)
    }
    #expect(error?.reason.contains("HTTP 404") == true)
  }

  @Test func anOversizedRequestObjectIsRefused() async throws {
    let verifier = verifier(
      String(repeating: "a", count: RedirectTransport.maximumRequestObjectBytes + 1))
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(at: requestURL, post: nil)
    }
    #expect(error?.reason.contains("larger than") == true)
  }

  @Test func plainHTTPOnlyToLoopback() async throws {
    let verifier = verifier()
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).fetchRequestObject(
        at: URL(string: "http://verifier.example/request")!, post: nil)
    }
    #expect(error?.code == .transport)
    #expect(verifier.received.isEmpty)
    _ = try await transport(verifier).fetchRequestObject(
      at: URL(string: "http://127.0.0.1:8080/request")!, post: nil)
    // The standard policy refuses loopback http too, whatever the client allows.
    await #expect(throws: WalletError.self) {
      try await transport(verifier, policy: .standard).fetchRequestObject(
        at: URL(string: "http://127.0.0.1:8080/request")!, post: nil)
    }
  }

  @Test func theRedirectURIIsHandedBack() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["redirect_uri": "https://verifier.example/done?code=1"]
    let outcome = try await transport(verifier).post(
      [("vp_token", "{}"), ("state", "s")], to: responseURL, posted: .presentation)
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
    let outcome = try await transport(verifier).post([], to: responseURL, posted: .error("x"))
    #expect(outcome.redirectURI == nil)
  }

  @Test func aRedirectURIThePolicyRefusesIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["redirect_uri": "http://verifier.example/done"]
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post([], to: responseURL, posted: .presentation)
    }
    #expect(error?.reason.contains("redirect_uri is not allowed") == true)
    verifier.settings.answer = ["redirect_uri": "javascript:alert(1)"]
    await #expect(throws: WalletError.self) {
      try await transport(verifier).post([], to: responseURL, posted: .presentation)
    }
  }

  @Test func aVerifierErrorNamesItsCode() async throws {
    let verifier = verifier()
    verifier.settings.responseStatus = 400
    verifier.settings.answer = ["error": "invalid_request"]
    let error = await #expect(throws: WalletError.self) {
      try await transport(verifier).post([], to: responseURL, posted: .presentation)
    }
    #expect(error?.reason == "the response_uri answered HTTP 400 (invalid_request)")
  }

  @Test func anAnswerThatIsNotAnObjectIsRefused() async throws {
    let verifier = verifier()
    verifier.settings.answer = ["a"]
    await #expect(throws: WalletError.self) {
      try await transport(verifier).post([], to: responseURL, posted: .presentation)
    }
  }
}
