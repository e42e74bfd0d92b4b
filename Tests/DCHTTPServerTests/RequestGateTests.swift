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

  /// RFC 7239 `Forwarded` from the trusted proxy: its last element says who the client was and
  /// which origin it asked for; X-Forwarded-* are then not read.
  @Test func forwardedFromTheTrustedProxy() throws {
    let url = try #require(URL(string: "https://rp.example"))
    let origin = try #require(HTTPOrigin(url: url))
    let gate = RequestGate(publicOrigin: origin, trustedProxies: [.loopbackIPv4], policies: nil)
    func decide(_ forwarded: [String], extra: HTTPFields = [:]) -> GateDecision {
      var headers: HTTPFields = ["Host": "127.0.0.1:8080"]
      for line in forwarded { headers.append(name: "Forwarded", value: line) }
      for field in extra { headers.append(name: field.name, value: field.value) }
      return gate.decide(
        RequestHead(method: .get, path: "/", headers: headers, peer: .loopbackIPv4))
    }
    func proceeds(_ client: String?) -> GateDecision {
      .proceed(
        forwardedClient: client.flatMap(IPAddress.init(numeric:)), origin: origin, corsOrigin: nil)
    }
    #expect(decide(["for=192.0.2.60;proto=https;host=rp.example"]) == proceeds("192.0.2.60"))
    // Case-insensitive names, a quoted host with its port, OWS around the separators.
    #expect(
      decide([#"For="[2001:db8:cafe::17]:4711" ; Proto=https; HOST="rp.example:443""#])
        == proceeds("2001:db8:cafe::17"))
    // The client's own element (first line, or before the comma) is not the proxy's word.
    #expect(
      decide(["for=198.51.100.9;host=evil.example", "for=192.0.2.1;proto=https;host=rp.example"])
        == proceeds("192.0.2.1"))
    #expect(
      decide(["host=evil.example;proto=http, for=192.0.2.1;proto=https;host=rp.example"])
        == proceeds("192.0.2.1"))
    // unknown and obfuscated clients are no address: the peer is counted.
    #expect(decide(["for=unknown;proto=https;host=rp.example"]) == proceeds(nil))
    #expect(decide([#"for="_hidden:_port";proto=https;host=rp.example"#]) == proceeds(nil))
    // With Forwarded, X-Forwarded-* are not read (a proxy writing Forwarded may pass a
    // client's X-Forwarded-Host through).
    #expect(
      decide(
        ["for=192.0.2.1;proto=https;host=rp.example"],
        extra: ["X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"])
        == proceeds("192.0.2.1"))
    #expect(
      decide(
        ["for=192.0.2.1"], extra: ["X-Forwarded-Host": "rp.example", "X-Forwarded-Proto": "https"])
        == .refuse(.misdirected))
    // What the proxy's element names is still checked against the public origin.
    #expect(decide(["for=192.0.2.1;proto=https;host=evil.example"]) == .refuse(.misdirected))
    #expect(decide(["for=192.0.2.1;proto=https;host=\"rp.example/x\""]) == .refuse(.badHost))
  }

  /// A `Forwarded` from the trusted proxy that does not parse is refused (400), never half
  /// believed; the same header from any other peer is never read, so it cannot spoof the
  /// client, the host or the scheme.
  @Test func malformedOrSpoofedForwarded() throws {
    let url = try #require(URL(string: "https://rp.example"))
    let origin = try #require(HTTPOrigin(url: url))
    let gate = RequestGate(publicOrigin: origin, trustedProxies: [.loopbackIPv4], policies: nil)
    func decide(_ forwarded: String, peer: IPAddress?, host: String = "127.0.0.1:8080")
      -> GateDecision
    {
      gate.decide(
        RequestHead(
          method: .get, path: "/", headers: ["Host": host, "Forwarded": forwarded], peer: peer))
    }
    for malformed in [
      "", ",", "for", "for=", "=x", "for=192.0.2.1;for=192.0.2.2", "for=192.0.2.1:80",
      #"for="[2001:db8::1"#, #"for="[2001:db8::1]x""#, #"for="192.0.2.1:123456""#,
      "for=example.com", "proto=ht/tp;host=rp.example", "proto=1https", "host=rp.example x",
      #"host="rp.example"#, "host = rp.example", "for=192.0.2.1;;proto=https;host=rp.example\u{1}",
      #"for="[192.0.2.1]""#,
    ] {
      #expect(
        decide(malformed, peer: .loopbackIPv4) == .refuse(.malformedForwarded), "\(malformed)")
    }
    // From a peer that is not the trusted proxy: never read. A client on the public origin's
    // host gets no forwarded client; one spoofing host and proto is judged on its own Host.
    let stranger = IPAddress(numeric: "192.0.2.50")
    #expect(
      decide("for=198.51.100.1;proto=https;host=rp.example", peer: stranger)
        == .refuse(.misdirected))
    #expect(decide("for=", peer: stranger) == .refuse(.misdirected))
    let plainURL = try #require(URL(string: "http://rp.example"))
    let plainOrigin = try #require(HTTPOrigin(url: plainURL))
    let plainGate = RequestGate(
      publicOrigin: plainOrigin, trustedProxies: [.loopbackIPv4], policies: nil)
    let spoofed = plainGate.decide(
      RequestHead(
        method: .get, path: "/",
        headers: [
          "Host": "rp.example", "Forwarded": "for=198.51.100.1;proto=https;host=evil.example",
        ],
        peer: stranger))
    #expect(
      spoofed
        == .proceed(forwardedClient: nil, origin: plainOrigin, corsOrigin: nil))
    #expect(HTTPRefusal.malformedForwarded.status == 400)
  }
}
