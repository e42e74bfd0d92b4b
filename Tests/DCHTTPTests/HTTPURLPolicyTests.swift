import DCHTTP
import Foundation
import Testing

@Suite struct HTTPURLPolicyTests {
  @Test func httpsIsAllowedByBothPolicies() throws {
    for policy in [HTTPURLPolicy.standard, .development] {
      try policy.check(URL(string: "https://issuer.example.com/credential")!)
      try policy.check(URL(string: "https://127.0.0.1:8443/")!)
    }
  }

  @Test(arguments: [
    "http://127.0.0.1/", "http://127.0.0.1:8080/token?x=1", "http://127.255.3.4/",
    "http://localhost:9000/", "http://LOCALHOST/", "http://[::1]:8080/",
  ])
  func loopbackHTTPNeedsTheDevelopmentPolicy(_ text: String) throws {
    let url = try #require(URL(string: text))
    try HTTPURLPolicy.development.check(url)
    #expect(
      throws: HTTPError(
        .urlNotAllowed, "plain http to a loopback host needs the development policy")
    ) {
      try HTTPURLPolicy.standard.check(url)
    }
  }

  @Test(arguments: [
    "http://example.com/", "http://10.0.0.1/", "http://127.1/", "http://0x7f.0.0.1/",
    "http://0177.0.0.1/", "http://127.0.0.1.example.com/", "http://localhost.example/",
    "http://127.0.0.256/", "http://1127.0.0.1/", "http://[::ffff:127.0.0.1]/",
    "http://128.0.0.1/", "http://127.0.0.+1/",
  ])
  func plainHTTPToAnotherHostIsRefusedEvenInDevelopment(_ text: String) throws {
    let url = try #require(URL(string: text))
    for policy in [HTTPURLPolicy.standard, .development] {
      let urlNotAllowedError = #expect(throws: HTTPError.self) { try policy.check(url) }
      #expect(urlNotAllowedError?.code == .urlNotAllowed)
      do {
        try policy.check(url)
      } catch {
        #expect(error.code == .urlNotAllowed)
      }
    }
  }

  @Test(arguments: [
    "ftp://127.0.0.1/", "file:///etc/passwd", "data:text/plain,x", "/relative", "https:///no-host",
    "https:no-host",
  ])
  func otherSchemesRelativeURLsAndMissingHostsAreRefused(_ text: String) throws {
    let url = try #require(URL(string: text))
    do {
      try HTTPURLPolicy.development.check(url)
      Issue.record("\(text) was allowed")
    } catch {
      #expect(error.code == .urlNotAllowed)
    }
  }

  @Test func loopbackHostSpellings() {
    #expect(HTTPURLPolicy.isLoopbackHost("127.0.0.1"))
    #expect(HTTPURLPolicy.isLoopbackHost("127.10.20.30"))
    #expect(HTTPURLPolicy.isLoopbackHost("::1"))
    #expect(HTTPURLPolicy.isLoopbackHost("[::1]"))
    #expect(HTTPURLPolicy.isLoopbackHost("localhost"))
    #expect(!HTTPURLPolicy.isLoopbackHost("127.0.0.01"))
    #expect(!HTTPURLPolicy.isLoopbackHost("127.0.0"))
    #expect(!HTTPURLPolicy.isLoopbackHost("127.0.0.1."))
    #expect(!HTTPURLPolicy.isLoopbackHost("::2"))
    #expect(!HTTPURLPolicy.isLoopbackHost(""))
  }
}
