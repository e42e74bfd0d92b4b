import DCHTTP
import Foundation
import Testing

@testable import DCHTTPServer

/// The gate's pure parts: addresses, origins and authorities as the `Host` check compares them,
/// framing, and which forwarded headers are believed.
@Suite struct RequestGateTests {
  @Test func numericAddresses() throws {
    #expect(IPAddress(numeric: "127.0.0.1") == .loopbackIPv4)
    #expect(IPAddress(numeric: "::1") == .loopbackIPv6)
    #expect(IPAddress(numeric: "127.8.9.10")?.isLoopback == true)
    // An IPv4-mapped IPv6 address is its IPv4 address.
    #expect(IPAddress(numeric: "::ffff:192.0.2.1") == IPAddress(numeric: "192.0.2.1"))
    #expect(IPAddress(numeric: "2001:db8::7")?.description == "2001:db8::7")
    for text in ["localhost", "1.2.3", "192.0.2.1 ", "", "[::1]", "::1%lo"] {
      #expect(IPAddress(numeric: text) == nil, "\(text)")
    }
  }

  @Test func originsOfURLs() throws {
    let url = try #require(URL(string: "https://RP.example/verifier"))
    let origin = try #require(HTTPOrigin(url: url))
    #expect(origin.description == "https://rp.example")
    #expect(origin.port == 443)
    let other = try #require(URL(string: "http://[::1]:8080"))
    #expect(HTTPOrigin(url: other)?.description == "http://[::1]:8080")
    for text in ["ftp://rp.example", "https://user@rp.example", "file:///x", "rp.example"] {
      let url = try #require(URL(string: text))
      #expect(HTTPOrigin(url: url) == nil, "\(text)")
    }
  }

  @Test func hostHeadersAgainstTheOrigin() throws {
    let url = try #require(URL(string: "https://rp.example"))
    let origin = try #require(HTTPOrigin(url: url))
    for same in ["rp.example", "RP.EXAMPLE", "rp.example:443"] {
      #expect(HTTPOrigin(scheme: "https", authority: same) == origin, "\(same)")
    }
    for other in ["rp.example:8443", "rp.example.evil", "evil.example"] {
      #expect(HTTPOrigin(scheme: "https", authority: other) != origin, "\(other)")
    }
    for malformed in [
      "", "rp.example:", "rp.example:99999", "rp.example:80x", "a@rp.example",
      "rp.example/x", "[::1", "[::1]x",
    ] {
      #expect(HTTPOrigin(scheme: "https", authority: malformed) == nil, "\(malformed)")
    }
    #expect(HTTPOrigin(serialized: "null") == nil)
    #expect(HTTPOrigin(serialized: "https://rp.example") == origin)
  }

  @Test func framing() {
    func ambiguous(_ fields: [(String, String)]) -> Bool {
      RequestGate.ambiguousFraming(HTTPFields(fields.map { HTTPFields.Field(name: $0, value: $1) }))
    }
    #expect(!ambiguous([("Content-Length", "3")]))
    #expect(!ambiguous([("Content-Length", "3"), ("content-length", "3")]))
    #expect(!ambiguous([("Content-Length", "3, 3")]))
    #expect(!ambiguous([("Transfer-Encoding", "chunked")]))
    #expect(ambiguous([("Content-Length", "3"), ("Content-Length", "4")]))
    #expect(ambiguous([("Content-Length", "3, 4")]))
    #expect(ambiguous([("Content-Length", "3"), ("Transfer-Encoding", "chunked")]))
  }

  @Test func forwardedHeadersFromTheTrustedProxyOnly() throws {
    let url = try #require(URL(string: "https://rp.example"))
    let origin = try #require(HTTPOrigin(url: url))
    let gate = RequestGate(publicOrigin: origin, trustedProxies: [.loopbackIPv4], policies: nil)
    var head = RequestHead(
      method: .get, path: "/",
      headers: [
        "Host": "127.0.0.1:8080", "X-Forwarded-Host": "rp.example",
        "X-Forwarded-Proto": "https",
        // The client may send its own X-Forwarded-For; the proxy's element is the last one.
        "X-Forwarded-For": "198.51.100.9, 192.0.2.1",
      ],
      peer: .loopbackIPv4)
    #expect(
      gate.decide(head)
        == .proceed(
          forwardedClient: IPAddress(numeric: "192.0.2.1"), origin: origin, corsOrigin: nil))
    head.peer = IPAddress(numeric: "192.0.2.50")
    #expect(gate.decide(head) == .refuse(.misdirected))
  }
}
