// The development server exists where libmicrohttpd is linked (Linux, Android).
#if os(Linux) || os(Android)
  import Foundation
  import DCHTTP
  import DCHTTPServer
  import Testing

  /// Each limit of the client and the server, hit over loopback.
  @Suite struct LoopbackLimitTests {
    typealias Server = LoopbackRoundTripTests

    private static func code(
      _ client: URLSessionHTTPClient, _ request: HTTPRequest
    ) async -> HTTPErrorCode? {
      do {
        _ = try await client.send(request)
        return nil
      } catch {
        return error.code
      }
    }

    // MARK: Client

    @Test func aDeclaredOversizeResponseIsRefused() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          HTTPResponse(status: 200, body: [UInt8](repeating: 7, count: 64 * 1024))
        }
        try await Server.withServer(handler) { _, base in
          let client = URLSessionHTTPClient(
            configuration: .init(policy: .development, timeout: 10, maxResponseBytes: 64 * 1024 - 1)
          )
          let url = try #require(URL(string: base + "/big"))
          #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .responseTooLarge)

          let roomy = URLSessionHTTPClient(
            configuration: .init(policy: .development, timeout: 10, maxResponseBytes: 64 * 1024))
          #expect(try await roomy.send(HTTPRequest(method: .get, url: url)).body.count == 64 * 1024)
        }
      }
    }

    @Test func aDeclaredLengthPastTheLimitEndsTheExchangeBeforeTheBody() async throws {
      try await offPool {
        // The head declares 10 MiB and no body byte follows for 3 s: only the declared length can
        // end the exchange before the timeout.
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\n".utf8)
        let server = try CannedServer(steps: [head], pause: 3)
        defer { server.stop() }
        let client = URLSessionHTTPClient(
          configuration: .init(policy: .development, timeout: 2, maxResponseBytes: 1 << 20))
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/declared"))
        #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .responseTooLarge)
      }
    }

    @Test func anUndeclaredOversizeResponseIsAbortedWhileArriving() async throws {
      try await offPool {
        // No Content-Length: the body runs until the server closes; 64 steps of 64 KiB (4 MiB).
        let head = Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)
        let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
        let server = try CannedServer(
          steps: [head] + Array(repeating: chunk, count: 64), pause: 0.05)
        defer { server.stop() }
        let client = URLSessionHTTPClient(
          configuration: .init(policy: .development, timeout: 20, maxResponseBytes: 256 * 1024))
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/stream"))
        let started = Date()
        #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .responseTooLarge)
        // Aborted once past 256 KiB, not after the whole 4 MiB (64 pauses of 50 ms, 3.2 s).
        #expect(Date().timeIntervalSince(started) < 2)
      }
    }

    @Test func aSlowHandlerTimesOut() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          try? await Task.sleep(for: .seconds(6))
          return HTTPResponse(status: 200)
        }
        try await Server.withServer(handler) { _, base in
          let client = URLSessionHTTPClient(
            configuration: .init(policy: .development, timeout: 0.5))
          let url = try #require(URL(string: base + "/slow"))
          let started = Date()
          #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .timedOut)
          #expect(Date().timeIntervalSince(started) < 4)
        }
      }
    }

    @Test func aDrippedResponseTimesOutOnTheWholeExchange() async throws {
      try await offPool {
        // A byte every 200 ms never leaves the connection idle for the timeout, but the exchange as a
        // whole takes 8 s.
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 40\r\nConnection: close\r\n\r\n".utf8)
        let server = try CannedServer(
          steps: [head] + Array(repeating: [0x42], count: 40), pause: 0.2)
        defer { server.stop() }
        let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 1))
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/drip"))
        let started = Date()
        #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .timedOut)
        #expect(Date().timeIntervalSince(started) < 4)
      }
    }

    @Test func unboundedOrInvalidTimeoutsAreClamped() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(handlerTimeout: .infinity)) { _, base in
          let url = try #require(URL(string: base + "/"))
          let unbounded = URLSessionHTTPClient(
            configuration: .init(policy: .development, timeout: .infinity))
          #expect(try await unbounded.send(HTTPRequest(method: .get, url: url)).status == 200)
          for invalid in [TimeInterval.nan, -1] {
            let client = URLSessionHTTPClient(
              configuration: .init(policy: .development, timeout: invalid))
            #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .timedOut)
          }
        }
      }
    }

    @Test func cancellingTheSendingTaskEndsTheExchange() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          try? await Task.sleep(for: .seconds(6))
          return HTTPResponse(status: 200)
        }
        try await Server.withServer(handler) { _, base in
          let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 10))
          let url = try #require(URL(string: base + "/slow"))
          let started = Date()
          let task = Task(executorPreference: TestExecutor.shared) {
            await Self.code(client, HTTPRequest(method: .get, url: url))
          }
          try await Task.sleep(for: .milliseconds(200))
          task.cancel()
          #expect(await task.value == .cancelled)
          #expect(Date().timeIntervalSince(started) < 4)
        }
      }
    }

    // MARK: Server

    @Test func anOversizeRequestBodyGets413() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(maxRequestBodyBytes: 1000)) { _, base in
          let url = try #require(URL(string: base + "/token"))
          let ok = try await Server.client.send(
            HTTPRequest(method: .post, url: url, body: [UInt8](repeating: 1, count: 1000)))
          #expect(ok.status == 200)
          let refused = try await Server.client.send(
            HTTPRequest(method: .post, url: url, body: [UInt8](repeating: 1, count: 1001)))
          #expect(refused.status == 413)
          #expect(handler.requests.count == 1)
        }
      }
    }

    @Test func aChunkedBodyPastTheLimitIsCutOff() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(maxRequestBodyBytes: 1000)) { server, _ in
          let port = try #require(server.port)
          var request = Array(
            "POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
          for _ in 0..<4 {
            request += Array("200\r\n".utf8) + [UInt8](repeating: 0x61, count: 512) + [0x0D, 0x0A]
          }
          request += Array("0\r\n\r\n".utf8)
          let answer = try await RawSocket.exchange(port: port, sending: request)
          // 413 when libmicrohttpd still takes a response mid-body, else the connection is closed.
          #expect(RawSocket.status(answer) == 413 || answer.isEmpty)
          #expect(handler.requests.isEmpty)
        }
      }
    }

    @Test func tooManyHeaderFieldsGet431() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(maxHeaderCount: 10)) { server, _ in
          let port = try #require(server.port)
          func request(_ extra: Int) -> [UInt8] {
            var text = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            for index in 0..<extra { text += "X-\(index): v\r\n" }
            return Array((text + "\r\n").utf8)
          }
          let allowed = try await RawSocket.exchange(port: port, sending: request(8))
          #expect(RawSocket.status(allowed) == 200)
          let refused = try await RawSocket.exchange(port: port, sending: request(9))
          #expect(RawSocket.status(refused) == 431)
          #expect(handler.requests.count == 1)
        }
      }
    }

    @Test func headerFieldsPastTheConnectionMemoryAreRefusedByLibmicrohttpd() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(connectionMemoryLimit: 8192)) { server, _ in
          let port = try #require(server.port)
          let big = String(repeating: "v", count: 16 * 1024)
          let text =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(big)\r\nConnection: close\r\n\r\n"
          let answer = try await RawSocket.exchange(port: port, sending: Array(text.utf8))
          #expect(RawSocket.status(answer) == 431 || answer.isEmpty)
          #expect(handler.requests.isEmpty)
        }
      }
    }

    @Test func connectionsPastTheLimitAreRefused() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(maxConnections: 2)) { server, base in
          let port = try #require(server.port)
          // Two idle connections hold both places (half a request head each, kept open); the
          // listen queue is accepted in order, so the third connection comes after them.
          let holders = try (0..<2).map { _ in
            try RawSocket.open(port: port, sending: Array("GET / HTTP/1.1\r\n".utf8))
          }
          let url = try #require(URL(string: base + "/third"))
          let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 2))
          #expect(await Self.code(client, HTTPRequest(method: .get, url: url)) == .connectionFailed)
          #expect(handler.requests.isEmpty)
          for holder in holders { close(holder) }
          try await Task.sleep(for: .milliseconds(200))
          // The places are free again.
          #expect(try await client.send(HTTPRequest(method: .get, url: url)).status == 200)
        }
      }
    }

    @Test func aHandlerThatDoesNotAnswerInTimeGets503() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in
          try? await Task.sleep(for: .seconds(5))
          return HTTPResponse(status: 200)
        }
        try await Server.withServer(handler, .init(handlerTimeout: 0.3)) { _, base in
          let url = try #require(URL(string: base + "/slow"))
          let started = Date()
          let response = try await Server.client.send(HTTPRequest(method: .get, url: url))
          #expect(response.status == 503)
          #expect(Date().timeIntervalSince(started) < 4)
        }
      }
    }

    @Test func anIdleConnectionIsClosed() async throws {
      try await offPool {
        let handler = ClosureHandler { _ in HTTPResponse(status: 200) }
        try await Server.withServer(handler, .init(connectionTimeout: 1)) { server, _ in
          let port = try #require(server.port)
          let started = Date()
          // Half a request head, then silence: the server closes after its connection timeout.
          let answer = try await RawSocket.exchange(
            port: port, sending: Array("GET / HTTP/1.1\r\nHost: 127".utf8), timeout: 10,
            halfClose: false)
          #expect(answer.isEmpty || RawSocket.status(answer) == 408)
          #expect(Date().timeIntervalSince(started) < 5)
        }
      }
    }
  }
#endif
