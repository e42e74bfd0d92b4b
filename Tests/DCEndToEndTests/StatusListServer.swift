#if os(Linux) || os(Android)
  import DCHTTP
  import DCHTTPServer
  import Foundation

  /// Serves one status list token at `/lists/1` from 127.0.0.1 and counts the fetches. The same
  /// as DCWalletTests' (CredentialStatusRefreshTests.swift): a test-support target cannot hold it,
  /// as DCHTTPServer's C library is outside the wallet's modules (.ci/test-layering).
  final class StatusListServer: HTTPHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var status = 200
    private var served = 0
    private(set) var server: DevelopmentHTTPServer?
    private(set) var uri = ""

    init() throws {
      let server = DevelopmentHTTPServer(handler: self)
      let port = try server.start()
      self.server = server
      uri = "http://127.0.0.1:\(port)/lists/1"
    }

    func stop() { server?.stop() }

    /// Serves these bytes (or an error status) from now on.
    func serve(_ bytes: [UInt8], status: Int = 200) {
      lock.withLock {
        body = bytes
        self.status = status
      }
    }

    var fetches: Int { lock.withLock { served } }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      lock.withLock {
        served += 1
        guard request.url.path == "/lists/1" else { return HTTPResponse(status: 404) }
        return HTTPResponse(
          status: status, headers: ["Content-Type": "application/statuslist+jwt"], body: body)
      }
    }
  }
#endif
