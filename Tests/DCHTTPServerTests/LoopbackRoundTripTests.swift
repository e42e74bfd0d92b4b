// The development server exists where libmicrohttpd is linked (Linux, Android).
#if os(Linux) || os(Android)
  import Foundation
  import DCHTTP
  import DCHTTPServer
  import Testing

  /// URLSessionHTTPClient against DevelopmentHTTPServer over 127.0.0.1.
  @Suite struct LoopbackRoundTripTests {
    static let client = URLSessionHTTPClient(
      configuration: .init(policy: .development, timeout: 10, maxResponseBytes: 1 << 20))

    /// Starts a server for `handler`, runs `body` with its base URL, and stops it.
    static func withServer<T>(
      _ handler: any HTTPHandler,
      _ configuration: DevelopmentHTTPServer.Configuration = .init(),
      _ body: (DevelopmentHTTPServer, String) async throws -> T
    ) async throws -> T {
      let server = DevelopmentHTTPServer(handler: handler, configuration: configuration)
      let port = try server.start()
      defer { server.stop() }
      return try await body(server, "http://127.0.0.1:\(port)")
    }

    @Test func getKeepsThePathQueryAndHeaders() async throws {
      try await offPool {
        let handler = ClosureHandler { request in
          var headers = HTTPFields()
          headers.append(name: "Content-Type", value: "text/plain")
          headers.append(name: "X-Repeated", value: "one")
          headers.append(name: "X-Repeated", value: "two")
          return HTTPResponse(
            status: 200, headers: headers, body: Array((request.url.query ?? "").utf8))
        }
        try await Self.withServer(handler) { server, base in
          var headers = HTTPFields()
          headers.append(name: "Accept", value: "application/json")
          headers.append(name: "X-Multi", value: "a")
          headers.append(name: "X-Multi", value: "b")
          let url = try #require(URL(string: base + "/path/to%20x?a=1&b=%2F&c"))
          let response = try await Self.client.send(
            HTTPRequest(method: .get, url: url, headers: headers))
          #expect(response.status == 200)
          #expect(response.body == Array("a=1&b=%2F&c".utf8))
          #expect(response.headers["content-type"] == "text/plain")
          // Foundation joins a repeated response field with ", " (RFC 9110 §5.3).
          #expect(response.headers.values("X-Repeated").joined(separator: ", ") == "one, two")

          let seen = try #require(handler.requests.first)
          #expect(seen.method == .get)
          #expect(seen.url.absoluteString == base + "/path/to%20x?a=1&b=%2F&c")
          #expect(seen.headers["accept"] == "application/json")
          // Foundation joins a repeated request field into one line ("a,b").
          let multi = seen.headers.values("x-multi").flatMap { $0.split(separator: ",") }
          #expect(multi.map { $0.trimmingCharacters(in: .whitespaces) } == ["a", "b"])
          #expect(seen.headers["Host"] == "127.0.0.1:\(server.port ?? 0)")
          #expect(seen.body.isEmpty)
        }
      }
    }

    @Test func postCarriesABinaryBodyBothWays() async throws {
      try await offPool {
        let handler = ClosureHandler { request in
          HTTPResponse(
            status: 201, headers: ["Content-Type": "application/octet-stream"],
            body: request.body.reversed())
        }
        try await Self.withServer(handler) { _, base in
          let body =
            (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0, 0, 0xFF, 0x0D, 0x0A]
          let url = try #require(URL(string: base + "/credential"))
          let response = try await Self.client.send(
            HTTPRequest(
              method: .post, url: url, headers: ["Content-Type": "application/octet-stream"],
              body: body))
          #expect(response.status == 201)
          #expect(response.body == body.reversed())
          let seen = try #require(handler.requests.first)
          #expect(seen.method == .post)
          #expect(seen.body == body)
          #expect(seen.headers["content-type"] == "application/octet-stream")
        }
      }
    }

    @Test func everyHeaderLineReachesTheHandlerInOrder() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 204) }
        try await Self.withServer(handler) { server, _ in
          let port = try #require(server.port)
          let request =
            "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\r\nX-B: 2\r\nx-a: 3\r\nConnection: close\r\n\r\n"
          let answer = try await RawSocket.exchange(port: port, sending: Array(request.utf8))
          #expect(RawSocket.status(answer) == 204)
          let seen = try #require(handler.requests.first)
          #expect(seen.headers.values("X-A") == ["1", "3"])
          #expect(seen.headers.map(\.name) == ["Host", "X-A", "X-B", "x-a", "Connection"])
        }
      }
    }

    @Test func aRedirectIsReturnedAndNotFollowed() async throws {
      try await offPool {
        // The redirect target is a second loopback server that counts its requests: following the
        // redirect would reach it.
        let target = ClosureHandler { _ in HTTPResponse(status: 200, body: Array("followed".utf8)) }
        try await Self.withServer(target) { _, targetBase in
          for location in [targetBase + "/landing", "http://example.com/", "https://example.com/"] {
            let handler = ClosureHandler { _ in
              HTTPResponse(status: 302, headers: ["Location": location], body: Array("moved".utf8))
            }
            try await Self.withServer(handler) { _, base in
              let url = try #require(URL(string: base + "/authorize"))
              let response = try await Self.client.send(HTTPRequest(method: .get, url: url))
              #expect(response.status == 302)
              #expect(response.headers["location"] == location)
              #expect(response.body == Array("moved".utf8))
            }
          }
          #expect(target.requests.isEmpty)
        }
      }
    }

    @Test(arguments: [301, 303, 307, 308])
    func otherRedirectStatusesAreReturnedToo(_ status: Int) async throws {
      try await offPool {
        let target = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Self.withServer(target) { _, targetBase in
          let handler = ClosureHandler { _ in
            HTTPResponse(status: status, headers: ["Location": targetBase + "/x"])
          }
          try await Self.withServer(handler) { _, base in
            let url = try #require(URL(string: base + "/"))
            let response = try await Self.client.send(
              HTTPRequest(method: .post, url: url, body: [1, 2, 3]))
            #expect(response.status == status)
          }
          #expect(target.requests.isEmpty)
        }
      }
    }

    @Test func manyConcurrentRequestsAreEachAnswered() async throws {
      try await offPool {
        let handler = ClosureHandler { request in
          try? await Task.sleep(for: .milliseconds(20))
          return HTTPResponse(status: 200, body: request.body)
        }
        // 20 at once from one address: above the default per-client cap of 16.
        try await Self.withServer(handler, .init(maxConnectionsPerClient: 32)) { _, base in
          let url = try #require(URL(string: base + "/echo"))
          let answers = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<20 {
              group.addTask {
                let response = try await Self.client.send(
                  HTTPRequest(method: .post, url: url, body: Array("request \(index)".utf8)))
                return (index, response.body)
              }
            }
            var answers: [Int: [UInt8]] = [:]
            for try await (index, body) in group { answers[index] = body }
            return answers
          }
          #expect(answers.count == 20)
          for (index, body) in answers { #expect(body == Array("request \(index)".utf8)) }
          #expect(handler.requests.count == 20)
        }
      }
    }
  }
#endif
