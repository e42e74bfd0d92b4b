// The development server exists where libmicrohttpd is linked (Linux, Android).
#if os(Linux) || os(Android)
  import Foundation
  import DCHTTP
  import DCHTTPServer
  import Testing

  #if canImport(Glibc)
    import Glibc
  #endif

  /// Issue 31's review findings, each over loopback with raw bytes: the public origin (`Host`,
  /// forwarded headers from a trusted proxy only), `Origin` and `Content-Type` per endpoint, CORS
  /// where declared, ambiguous framing, the head and body deadlines, the per-client cap.
  @Suite struct HardeningTests {
    typealias Server = LoopbackRoundTripTests

    /// A handler declaring `POST /json` (JSON, no other origin), `POST /page` (JSON, callable
    /// from https://page.example) and `POST /form` (a form).
    final class PolicyHandler: HTTPHandler, HTTPEndpointPolicyProviding, @unchecked Sendable {
      let inner = ClosureHandler { _ in HTTPResponse(status: 200, body: Array("done".utf8)) }

      func handle(_ request: HTTPRequest) async -> HTTPResponse { await inner.handle(request) }

      func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
        switch (method, path) {
        case (.post, "/json"): .json
        case (.post, "/page"):
          HTTPEndpointPolicy(
            acceptedMediaTypes: ["application/json"],
            crossOrigins: .listed(["https://page.example"]))
        case (.post, "/form"): .form
        default: nil
        }
      }
    }

    /// One request's raw bytes: `head` lines then a body with its length.
    static func request(_ head: [String], body: String = "") -> [UInt8] {
      var lines = head
      if !body.isEmpty { lines.append("Content-Length: \(body.utf8.count)") }
      return Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n" + body).utf8)
    }

    static func status(_ port: UInt16, _ bytes: [UInt8]) async throws -> Int? {
      RawSocket.status(try await RawSocket.exchange(port: port, sending: bytes))
    }

    // MARK: Host

    @Test func aForeignHostIsMisdirected() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler) { server, _ in
          let port = try #require(server.port)
          // DNS rebinding: the page's own name in Host, our port.
          let foreign = Self.request(["GET / HTTP/1.1", "Host: rebind.example:\(port)"])
          #expect(try await Self.status(port, foreign) == 421)
          let twoHosts = Self.request(["GET / HTTP/1.1", "Host: 127.0.0.1", "Host: localhost"])
          #expect(try await Self.status(port, twoHosts) == 400)
          #expect(handler.requests.isEmpty)
          for name in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST"] {
            let own = Self.request(["GET / HTTP/1.1", "Host: \(name)"])
            #expect(try await Self.status(port, own) == 200, "\(name)")
          }
        }
      }
    }

    @Test func thePublicOriginIsTheOnlyOneAnswered() async throws {
      try await offPool {
        let handler = ClosureHandler { request in
          HTTPResponse(status: 200, body: Array(request.url.absoluteString.utf8))
        }
        let url = try #require(URL(string: "http://rp.example"))
        let origin = try #require(HTTPOrigin(url: url))
        try await Server.withServer(handler, .init(publicOrigin: origin)) { server, _ in
          let port = try #require(server.port)
          let answer = try await RawSocket.exchange(
            port: port, sending: Self.request(["GET /x?y=1 HTTP/1.1", "Host: rp.example"]))
          #expect(RawSocket.status(answer) == 200)
          // The handler sees the URL on the public origin.
          #expect(String(decoding: answer, as: UTF8.self).hasSuffix("http://rp.example/x?y=1"))
          for host in ["127.0.0.1:\(port)", "rp.example:8080", "other.example"] {
            let misdirected = Self.request(["GET / HTTP/1.1", "Host: \(host)"])
            #expect(try await Self.status(port, misdirected) == 421, "\(host)")
          }
        }
      }
    }

    @Test func forwardedHeadersAreBelievedFromTheTrustedProxyOnly() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        let url = try #require(URL(string: "https://rp.example"))
        let origin = try #require(HTTPOrigin(url: url))
        let forwarded = Self.request([
          "GET / HTTP/1.1", "Host: 127.0.0.1", "X-Forwarded-Host: rp.example",
          "X-Forwarded-Proto: https", "X-Forwarded-For: 192.0.2.7",
        ])
        // Not trusted: the forwarded headers are ignored, Host names another origin.
        try await Server.withServer(handler, .init(publicOrigin: origin)) { server, _ in
          let port = try #require(server.port)
          #expect(try await Self.status(port, forwarded) == 421)
        }
        let trusted = DevelopmentHTTPServer.Configuration(
          publicOrigin: origin, trustedProxies: [.loopbackIPv4])
        try await Server.withServer(handler, trusted) { server, _ in
          let port = try #require(server.port)
          #expect(try await Self.status(port, forwarded) == 200)
          // Through the proxy but for plain http: not the public origin.
          let plain = Self.request([
            "GET / HTTP/1.1", "Host: 127.0.0.1", "X-Forwarded-Host: rp.example",
            "X-Forwarded-Proto: http",
          ])
          #expect(try await Self.status(port, plain) == 421)
        }
      }
    }

    @Test func rfc7239ForwardedIsBelievedFromTheTrustedProxyOnly() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        let url = try #require(URL(string: "https://rp.example"))
        let origin = try #require(HTTPOrigin(url: url))
        let forwarded = Self.request([
          "GET / HTTP/1.1", "Host: 127.0.0.1",
          #"Forwarded: for="[2001:db8::7]:4711";proto=https;host=rp.example"#,
        ])
        let malformed = Self.request([
          "GET / HTTP/1.1", "Host: 127.0.0.1", "Forwarded: for=192.0.2.7:80;host=rp.example",
        ])
        // Not trusted: never read, so neither believed nor refused as malformed.
        try await Server.withServer(handler, .init(publicOrigin: origin)) { server, _ in
          let port = try #require(server.port)
          #expect(try await Self.status(port, forwarded) == 421)
          #expect(try await Self.status(port, malformed) == 421)
        }
        let trusted = DevelopmentHTTPServer.Configuration(
          publicOrigin: origin, trustedProxies: [.loopbackIPv4])
        try await Server.withServer(handler, trusted) { server, _ in
          let port = try #require(server.port)
          #expect(try await Self.status(port, forwarded) == 200)
          #expect(try await Self.status(port, malformed) == 400)
        }
      }
    }

    // MARK: Origin, Content-Type, CORS

    @Test func aCrossSitePostIsRefusedBeforeTheHandler() async throws {
      try await offPool {
        let handler = PolicyHandler()
        try await Server.withServer(handler) { server, _ in
          let port = try #require(server.port)
          let body = #"{"dcql_query":{}}"#
          let host = "Host: 127.0.0.1:\(port)"
          // A page elsewhere posting text/plain (a "simple" request: no preflight).
          let crossSite = Self.request(
            [
              "POST /json HTTP/1.1", host, "Origin: https://evil.example",
              "Content-Type: text/plain",
            ],
            body: body)
          #expect(try await Self.status(port, crossSite) == 403)
          let nullOrigin = Self.request(
            ["POST /json HTTP/1.1", host, "Origin: null", "Content-Type: application/json"],
            body: body)
          #expect(try await Self.status(port, nullOrigin) == 403)
          // Our own origin, but text/plain: 415 (RFC 9110 §15.5.16).
          let textPlain = Self.request(
            [
              "POST /json HTTP/1.1", host, "Origin: http://127.0.0.1:\(port)",
              "Content-Type: text/plain",
            ],
            body: body)
          #expect(try await Self.status(port, textPlain) == 415)
          let noType = Self.request(["POST /json HTTP/1.1", host], body: body)
          #expect(try await Self.status(port, noType) == 415)
          #expect(handler.inner.requests.isEmpty)
          // Same origin, the declared type (parameters and case ignored); a wallet sends no Origin.
          let good = Self.request(
            [
              "POST /json HTTP/1.1", host, "Origin: http://127.0.0.1:\(port)",
              "Content-Type: Application/JSON; charset=utf-8",
            ],
            body: body)
          #expect(try await Self.status(port, good) == 200)
          let form = Self.request(
            ["POST /form HTTP/1.1", host, "Content-Type: application/x-www-form-urlencoded"],
            body: "a=b")
          #expect(try await Self.status(port, form) == 200)
          #expect(handler.inner.requests.count == 2)
        }
      }
    }

    @Test func corsOnlyWhereAnEndpointDeclaresIt() async throws {
      try await offPool {
        let handler = PolicyHandler()
        try await Server.withServer(handler) { server, _ in
          let port = try #require(server.port)
          let host = "Host: 127.0.0.1:\(port)"
          func preflight(_ path: String, _ origin: String) -> [UInt8] {
            Self.request([
              "OPTIONS \(path) HTTP/1.1", host, "Origin: \(origin)",
              "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type",
            ])
          }
          let allowed = String(
            decoding: try await RawSocket.exchange(
              port: port, sending: preflight("/page", "https://page.example")), as: UTF8.self)
          #expect(allowed.hasPrefix("HTTP/1.1 204"))
          #expect(allowed.contains("Access-Control-Allow-Origin: https://page.example"))
          #expect(try await Self.status(port, preflight("/page", "https://evil.example")) == 403)
          #expect(try await Self.status(port, preflight("/json", "https://page.example")) == 403)

          let post = Self.request(
            [
              "POST /page HTTP/1.1", host, "Origin: https://page.example",
              "Content-Type: application/json",
            ],
            body: "{}")
          let answer = String(
            decoding: try await RawSocket.exchange(port: port, sending: post), as: UTF8.self)
          #expect(answer.hasPrefix("HTTP/1.1 200"))
          #expect(answer.contains("Access-Control-Allow-Origin: https://page.example"))
          // Our own page gets no CORS headers: it needs none.
          let own = Self.request(
            [
              "POST /page HTTP/1.1", host, "Origin: http://127.0.0.1:\(port)",
              "Content-Type: application/json",
            ],
            body: "{}")
          let ownAnswer = String(
            decoding: try await RawSocket.exchange(port: port, sending: own), as: UTF8.self)
          #expect(ownAnswer.hasPrefix("HTTP/1.1 200"))
          #expect(!ownAnswer.contains("Access-Control"))
        }
      }
    }

    // MARK: Framing

    @Test func ambiguousFramingIsRefusedBeforeTheBody() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler) { server, _ in
          let port = try #require(server.port)
          let twoLengths = Array(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 13\r\n\r\nabcGET / HTTP/1.1\r\n\r\n"
              .utf8)
          #expect(try await Self.status(port, twoLengths) == 400)
          let listed = Array(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3, 4\r\n\r\nabcd".utf8)
          #expect(try await Self.status(port, listed) == 400)
          let lengthAndChunked = Array(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
              .utf8)
          #expect(try await Self.status(port, lengthAndChunked) == 400)
          #expect(handler.requests.isEmpty)
          // The same length twice is one length (RFC 9110 §8.6).
          let same = Array(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
              .utf8)
          #expect(try await Self.status(port, same) == 200)
        }
      }
    }

    // MARK: Deadlines and caps

    /// Opens `count` connections that each send one header line every `interval` seconds, for at
    /// most `lines` lines or until the server closes them; returns when all ended, with how long
    /// each lasted.
    static func slowClients(
      port: UInt16, count: Int, interval: TimeInterval, lines: Int, body: Bool = false
    ) async -> [TimeInterval] {
      await withTaskGroup(of: TimeInterval.self) { group in
        for _ in 0..<count {
          group.addTask {
            await withCheckedContinuation { continuation in
              Thread.detachNewThread {
                continuation.resume(
                  returning: dripping(port: port, interval: interval, lines: lines, body: body))
              }
            }
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }

    /// One slow client: a head (or, with `body`, a whole head then a body) a few bytes at a time.
    private static func dripping(port: UInt16, interval: TimeInterval, lines: Int, body: Bool)
      -> TimeInterval
    {
      let started = Date()
      let first =
        body
        ? "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
        : "GET / HTTP/1.1\r\n"
      guard let fd = try? RawSocket.open(port: port, sending: Array(first.utf8)) else { return 0 }
      defer { close(fd) }
      for line in 0..<lines {
        Thread.sleep(forTimeInterval: interval)
        let bytes = Array((body ? "x" : "X-Slow-\(line): 1\r\n").utf8)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent <= 0 { break }
        var probe: UInt8 = 0
        if recv(fd, &probe, 1, Int32(MSG_DONTWAIT)) == 0 { break }  // closed by the server
      }
      return Date().timeIntervalSince(started)
    }

    @Test func slowHeadsDoNotKeepTheServerUnreachable() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        // Every place held by a client sending a header line every 100 ms (never idle): the
        // head deadline frees them.
        let configuration = DevelopmentHTTPServer.Configuration(
          connectionTimeout: 30, headDeadline: 0.5, maxConnections: 8,
          maxConnectionsPerClient: 64)
        try await Server.withServer(handler, configuration) { server, base in
          let port = try #require(server.port)
          async let durations = Self.slowClients(port: port, count: 8, interval: 0.1, lines: 100)
          try await Task.sleep(for: .milliseconds(200))
          let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 1))
          let url = try #require(URL(string: base + "/reachable"))
          // While the places are held, a new connection is closed at once; within 6 s (the
          // drippers would go on for 10 s; the margin is for a loaded machine) the deadline has
          // freed them.
          let started = Date()
          var answered: Int?
          for _ in 0..<60 where answered == nil && Date().timeIntervalSince(started) < 6 {
            answered = try? await client.send(HTTPRequest(method: .get, url: url)).status
            if answered == nil { try await Task.sleep(for: .milliseconds(100)) }
          }
          #expect(answered == 200)
          let lasted = await durations
          // Each was cut off near the deadline, not after its 10 s of lines.
          #expect(lasted.allSatisfy { $0 < 6 }, "\(lasted)")
        }
      }
    }

    @Test func aSlowBodyIsCutOffAtItsDeadline() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        let configuration = DevelopmentHTTPServer.Configuration(
          connectionTimeout: 30, bodyDeadline: 0.5)
        try await Server.withServer(handler, configuration) { server, _ in
          let port = try #require(server.port)
          let lasted = await Self.slowClients(
            port: port, count: 2, interval: 0.1, lines: 100, body: true)
          #expect(lasted.allSatisfy { $0 < 6 }, "\(lasted)")
          #expect(handler.requests.isEmpty)
        }
      }
    }

    @Test func oneClientAddressHoldsAtMostItsCap() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        let configuration = DevelopmentHTTPServer.Configuration(
          maxConnections: 16, maxConnectionsPerClient: 2)
        try await Server.withServer(handler, configuration) { server, base in
          let port = try #require(server.port)
          let holders = try (0..<2).map { _ in
            try RawSocket.open(port: port, sending: Array("GET / HTTP/1.1\r\n".utf8))
          }
          try await Task.sleep(for: .milliseconds(100))
          let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 2))
          let url = try #require(URL(string: base + "/third"))
          await #expect(throws: HTTPError.self) {
            _ = try await client.send(HTTPRequest(method: .get, url: url))
          }
          for holder in holders { close(holder) }
          try await Task.sleep(for: .milliseconds(200))
          #expect(try await client.send(HTTPRequest(method: .get, url: url)).status == 200)
        }
      }
    }

    @Test func behindTheProxyTheForwardedClientIsCapped() async throws {
      try await offPool {
        let release = DispatchSemaphore(value: 0)
        let handler = ClosureHandler { request in
          if request.url.path == "/hold" {
            await withCheckedContinuation { continuation in
              DispatchQueue.global().async {
                _ = release.wait(timeout: .now() + 5)
                continuation.resume()
              }
            }
          }
          return HTTPResponse(status: 200)
        }
        let configuration = DevelopmentHTTPServer.Configuration(
          trustedProxies: [.loopbackIPv4], maxConnectionsPerClient: 1)
        try await Server.withServer(handler, configuration) { server, _ in
          let port = try #require(server.port)
          func from(_ client: String, _ path: String) -> [UInt8] {
            Self.request(["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "X-Forwarded-For: \(client)"])
          }
          async let held = Self.status(port, from("192.0.2.1", "/hold"))
          try await Task.sleep(for: .milliseconds(300))
          // The proxy's own connections are not capped; its client 192.0.2.1 is.
          #expect(try await Self.status(port, from("192.0.2.1", "/other")) == 429)
          #expect(try await Self.status(port, from("192.0.2.2", "/other")) == 200)
          release.signal()
          let heldStatus = try await held
          #expect(heldStatus == 200)
          #expect(try await Self.status(port, from("192.0.2.1", "/other")) == 200)
        }
      }
    }
  }
#endif
