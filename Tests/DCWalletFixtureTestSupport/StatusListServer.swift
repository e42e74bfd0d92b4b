#if os(Linux) || os(Android)
  package import DCHTTP
  package import DCHTTPServer
  import Foundation

  /// Serves one status list token at `/lists/1` from 127.0.0.1 and counts the fetches (the wallet's
  /// status refresh tests and the end-to-end ones share it).
  package final class StatusListServer: HTTPHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var status = 200
    private var served = 0
    package private(set) var server: DevelopmentHTTPServer?
    package private(set) var uri = ""

    package init() throws {
      let server = DevelopmentHTTPServer(handler: self)
      let port = try server.start()
      self.server = server
      uri = "http://127.0.0.1:\(port)/lists/1"
    }

    package func stop() { server?.stop() }

    /// Serves these bytes (or an error status) from now on.
    package func serve(_ bytes: [UInt8], status: Int = 200) {
      lock.withLock {
        body = bytes
        self.status = status
      }
    }

    package var fetches: Int { lock.withLock { served } }

    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
      lock.withLock {
        served += 1
        guard request.url.path == "/lists/1" else { return HTTPResponse(status: 404) }
        return HTTPResponse(
          status: status, headers: ["Content-Type": "application/statuslist+jwt"], body: body)
      }
    }
  }
#endif
