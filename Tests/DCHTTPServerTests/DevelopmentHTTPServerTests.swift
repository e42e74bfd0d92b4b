// The development server exists where libmicrohttpd is linked (Linux, Android).
#if os(Linux) || os(Android)
  import Foundation
  import DCHTTP
  @testable import DCHTTPServer
  import Testing

  /// The server's own behaviour: where it listens, its lifecycle, its answers to odd requests and
  /// odd handler responses.
  @Suite struct DevelopmentHTTPServerTests {
    typealias Server = LoopbackRoundTripTests

    @Test func itListensOnLoopbackOnly() throws {
      let server = DevelopmentHTTPServer(handler: ClosureHandler { _ in HTTPResponse(status: 200) })
      let port = try server.start()
      defer { server.stop() }
      #expect(server.baseURL?.absoluteString == "http://127.0.0.1:\(port)")
      // /proc/net/tcp: "local_address" is hex IPv4:port; state 0A is LISTEN.
      // Read to the end: the table spans several pages when many sockets are open.
      let file = try #require(FileHandle(forReadingAtPath: "/proc/net/tcp"))
      defer { try? file.close() }
      let table = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
      let hex = String(port, radix: 16, uppercase: true)
      let suffix = ":" + String(repeating: "0", count: 4 - hex.count) + hex
      let listening = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
        let columns = line.split(separator: " ")
        guard columns.count > 3, columns[1].hasSuffix(suffix), columns[3] == "0A" else {
          return nil
        }
        return String(columns[1].dropLast(suffix.count))
      }
      #expect(listening == ["0100007F"])
    }

    @Test func stopFreesThePortAndRefusesConnections() async throws {
      try await offPool {
        let server = DevelopmentHTTPServer(
          handler: ClosureHandler { _ in HTTPResponse(status: 200) })
        let port = try server.start()
        #expect(!RawSocket.canBind(port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        #expect(try await Server.client.send(HTTPRequest(method: .get, url: url)).status == 200)
        server.stop()
        #expect(server.port == nil)
        #expect(RawSocket.canBind(port))
        do {
          _ = try await Server.client.send(HTTPRequest(method: .get, url: url))
          Issue.record("the stopped server answered")
        } catch {
          #expect((error as? HTTPError)?.code == .connectionFailed)
        }
        // The same port again, by number.
        let again = DevelopmentHTTPServer(
          handler: ClosureHandler { _ in HTTPResponse(status: 204) },
          configuration: .init(port: port))
        #expect(try again.start() == port)
        defer { again.stop() }
        #expect(try await Server.client.send(HTTPRequest(method: .get, url: url)).status == 204)
      }
    }

    @Test func handlersRunWhileTheConcurrencyPoolIsBlocked() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler) { _, base in
          // Block every thread of Swift's concurrency pool (its width is the processor count)
          // for up to 3 s; a handler on the pool could not run until they are released.
          let width = ProcessInfo.processInfo.activeProcessorCount
          let release = DispatchSemaphore(value: 0)
          let started = Counter()
          let blockers = (0..<width).map { _ in
            Task.detached {
              started.increment()
              _ = release.wait(timeout: .now() + 3)
            }
          }
          for _ in 0..<100 where started.value < width {
            try await Task.sleep(for: .milliseconds(10))
          }
          let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 2))
          let url = try #require(URL(string: base + "/busy-pool"))
          let status = try? await client.send(HTTPRequest(method: .get, url: url)).status
          for _ in 0..<width { release.signal() }
          for blocker in blockers { await blocker.value }
          #expect(started.value == width)
          #expect(status == 200)
        }
      }
    }

    @Test func everyRequestContextIsReleased() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 204) }
        let server = DevelopmentHTTPServer(
          handler: handler,
          configuration: .init(maxRequestBodyBytes: 100, maxHeaderCount: 12))
        let port = try server.start()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        for _ in 0..<5 {
          let ok = try await Server.client.send(HTTPRequest(method: .get, url: url))
          #expect(ok.status == 204)
          let refused = try await Server.client.send(
            HTTPRequest(method: .post, url: url, body: [UInt8](repeating: 1, count: 101)))
          #expect(refused.status == 413)
        }
        let raw = [
          "GET @x HTTP/1.1\r\nHost: localhost\r\n\r\n",
          "GET / HTTP/1.1\r\nHost: localhost\r\n"
            + (0..<12).map { "X-\($0): 1\r\n" }.joined() + "\r\n",
          "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n"
            + String(repeating: "a", count: 512) + "\r\n0\r\n\r\n",
          "GET / HTTP/1.1\r\nHost: localhost\r\n\r\nGET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
          "GET / HTTP/1.1\r\nHost",
        ]
        for text in raw {
          _ = try await RawSocket.exchange(port: port, sending: Array(text.utf8), timeout: 2)
        }
        server.stop()
        #expect(server.liveRequestCount == 0)
        #expect(handler.requests.count >= 6)
      }
    }

    @Test func aPortInUseFailsToStart() throws {
      let first = DevelopmentHTTPServer(handler: ClosureHandler { _ in HTTPResponse(status: 200) })
      let port = try first.start()
      defer { first.stop() }
      let second = DevelopmentHTTPServer(
        handler: ClosureHandler { _ in HTTPResponse(status: 200) }, configuration: .init(port: port)
      )
      do {
        try second.start()
        Issue.record("two servers on one port")
      } catch {
        #expect(error.code == .serverStartFailed)
      }
    }

    @Test func stopAnswersWaitingRequestsAtOnce() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          try? await Task.sleep(for: .seconds(20))
          return HTTPResponse(status: 200)
        }
        let server = DevelopmentHTTPServer(
          handler: handler, configuration: .init(handlerTimeout: 30))
        let port = try server.start()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/slow"))
        let pending = Task(executorPreference: TestExecutor.shared) {
          try? await Server.client.send(HTTPRequest(method: .get, url: url))
        }
        for _ in 0..<100 where handler.requests.isEmpty {
          try await Task.sleep(for: .milliseconds(20))
        }
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        let response = await pending.value
        #expect(response == nil || response?.status == 503)
      }
    }

    @Test(arguments: [
      "GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      // Appended to the origin, these would name another host or no path.
      "GET @evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "GET ?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "GET /caf\u{e9} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    ])
    func aTargetThatIsNotOriginFormGets400(_ request: String) async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler) { server, _ in
          let port = try #require(server.port)
          let answer = try await RawSocket.exchange(port: port, sending: Array(request.utf8))
          #expect(RawSocket.status(answer) == 400)
          #expect(handler.requests.isEmpty)
        }
      }
    }

    @Test func garbageNeverReachesTheHandlerAndTheServerStaysUp() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler) { server, base in
          let port = try #require(server.port)
          var generator = SplitMix64(seed: 13)
          let inputs: [[UInt8]] =
            [
              [], Array("\r\n\r\n".utf8), Array("GET\r\n\r\n".utf8),
              Array("GET / HTTP/9.9\r\n\r\n".utf8),
              Array("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n".utf8),
              Array(
                "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n".utf8),
              Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n".utf8),
              Array("GET / HTTP/1.1\r\nHost: a\r\n folded: x\r\n\r\n".utf8),
              Array("GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n".utf8),
              [0x00, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A],
            ]
            + (0..<20).map { _ in (0..<256).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            }
          for input in inputs {
            let answer = try await RawSocket.exchange(port: port, sending: input, timeout: 2)
            if let status = RawSocket.status(answer) { #expect((400..<600).contains(status)) }
          }
          #expect(handler.requests.isEmpty)
          let url = try #require(URL(string: base + "/still-up"))
          #expect(try await Server.client.send(HTTPRequest(method: .get, url: url)).status == 200)
        }
      }
    }

    @Test func aResponseTheServerCannotSendBecomes500() async throws {
      try await offPool {
        let responses: [HTTPResponse] = [
          HTTPResponse(status: 42), HTTPResponse(status: 600),
          HTTPResponse(status: 200, headers: ["X-Evil": "a\r\nInjected: yes"]),
          HTTPResponse(status: 200, headers: ["Bad Name": "v"]),
          HTTPResponse(status: 200, headers: ["Bad:Name": "v"]),
          HTTPResponse(status: 200, headers: ["X-Nul": "a\u{0}Injected: yes"]),
        ]
        for bad in responses {
          let handler = ClosureHandler { _ in bad }
          try await Server.withServer(handler) { _, base in
            let url = try #require(URL(string: base + "/"))
            let response = try await Server.client.send(HTTPRequest(method: .get, url: url))
            #expect(response.status == 500)
            #expect(response.headers["Injected"] == nil)
            #expect(response.headers["Bad"] == nil)
          }
        }
      }
    }

    @Test func frameHeadersFromTheHandlerAreLeftToLibmicrohttpd() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          HTTPResponse(
            status: 200, headers: ["Content-Length": "999", "Transfer-Encoding": "gzip"],
            body: Array("four".utf8))
        }
        try await Server.withServer(handler) { _, base in
          let url = try #require(URL(string: base + "/"))
          let response = try await Server.client.send(HTTPRequest(method: .get, url: url))
          #expect(response.status == 200)
          #expect(response.body == Array("four".utf8))
        }
      }
    }
  }

  /// SplitMix64 (Steele, Lea, Flood 2014): a seeded generator, so a failing input repeats.
  struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
#endif
