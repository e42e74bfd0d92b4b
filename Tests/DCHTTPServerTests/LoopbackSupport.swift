// The development server exists where libmicrohttpd is linked (Linux, Android).
#if os(Linux) || os(Android)
  import Foundation
  import DCHTTP

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Runs `body` with its tasks on threads of their own rather than Swift's concurrency pool:
  /// other suites block pool threads (subprocesses, long computations) and the timings here
  /// would measure their waits.
  func offPool<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(TestExecutor.shared) { try await body() }
  }

  final class TestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = TestExecutor()
    private let queue = DispatchQueue(label: "HTTPServerTests", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let executor = asUnownedTaskExecutor()
      queue.async { job.runSynchronously(on: executor) }
    }
  }

  /// A thread-safe counter.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  /// A handler built from a closure, counting the requests it saw.
  final class ClosureHandler: HTTPHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [HTTPRequest] = []
    private let body: @Sendable (HTTPRequest) async -> HTTPResponse

    init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      lock.withLock { seen.append(request) }
      return await body(request)
    }

    var requests: [HTTPRequest] {
      lock.lock()
      defer { lock.unlock() }
      return seen
    }
  }

  /// A loopback TCP socket for the tests that must send bytes no HTTP client would (repeated header
  /// lines, a body past the limit without a declared length, garbage) or answer in a way the
  /// development server never does (a body with no length, dripped slowly).
  enum RawSocket {
    struct Failure: Error { let what: String }

    /// Connects to 127.0.0.1:`port`, writes `bytes`, and reads until the peer closes or
    /// `timeout` seconds pass without data; returns what was read. With `halfClose` the write side
    /// is shut after sending, so the server sees the end of the input at once. The blocking socket calls run on
    /// a thread of their own, never on Swift's concurrency pool (which the server's handlers need).
    static func exchange(
      port: UInt16, sending bytes: [UInt8], timeout: Int = 5, halfClose: Bool = true
    ) async throws
      -> [UInt8]
    {
      try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
          continuation.resume(
            with: Result {
              try blockingExchange(
                port: port, sending: bytes, timeout: timeout, halfClose: halfClose)
            })
        }
      }
    }

    private static func blockingExchange(
      port: UInt16, sending bytes: [UInt8], timeout: Int, halfClose: Bool
    ) throws
      -> [UInt8]
    {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw Failure(what: "socket") }
      defer { close(fd) }
      var tv = timeval(tv_sec: timeout, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
      var address = loopback(port)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw Failure(what: "connect") }
      var offset = 0
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes {
          send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if sent <= 0 { break }  // the server may close early (413); read what it answered
        offset += sent
      }
      if halfClose { shutdown(fd, Int32(SHUT_WR)) }
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      for _ in 0..<10_000 {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[0..<count]
      }
      return received
    }

    /// Connects to 127.0.0.1:`port` and writes `bytes`, leaving the connection open; the caller
    /// closes the returned descriptor.
    static func open(port: UInt16, sending bytes: [UInt8]) throws -> Int32 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw Failure(what: "socket") }
      var address = loopback(port)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard connected == 0, sent == bytes.count else {
        close(fd)
        throw Failure(what: "connect")
      }
      return fd
    }

    static func loopback(_ port: UInt16) -> sockaddr_in {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
      return address
    }

    /// Whether a TCP socket can be bound to 127.0.0.1:`port` (without SO_REUSEADDR).
    static func canBind(_ port: UInt16) -> Bool {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { return false }
      defer { close(fd) }
      var one: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
      var address = loopback(port)
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
    }

    /// The status code of a raw HTTP/1.1 response, or nil.
    static func status(_ response: [UInt8]) -> Int? {
      let text = String(decoding: response.prefix(12), as: UTF8.self)
      guard text.hasPrefix("HTTP/1."), text.count >= 12 else { return nil }
      return Int(text.dropFirst(9).prefix(3))
    }
  }

  /// A one-connection-at-a-time loopback server that answers every connection with canned bytes,
  /// written in steps with a pause between them, then closes: for responses the development server
  /// never sends (no length, slow drip).
  final class CannedServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let thread: Thread

    /// Listens on 127.0.0.1 (ephemeral port) and answers up to `connections` connections.
    init(steps: [[UInt8]], pause: TimeInterval, connections: Int = 1) throws {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw RawSocket.Failure(what: "socket") }
      var address = RawSocket.loopback(0)
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0, listen(fd, 4) == 0 else {
        close(fd)
        throw RawSocket.Failure(what: "bind")
      }
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
      }
      self.fd = fd
      self.port = UInt16(bigEndian: address.sin_port)
      thread = Thread {
        for _ in 0..<connections {
          let client = accept(fd, nil, nil)
          guard client >= 0 else { return }
          // Read the request head (up to 64 KiB) before answering.
          var buffer = [UInt8](repeating: 0, count: 65536)
          _ = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
          for step in steps {
            let sent = step.withUnsafeBytes {
              send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 { break }
            Thread.sleep(forTimeInterval: pause)
          }
          close(client)
        }
      }
      thread.start()
    }

    func stop() {
      shutdown(fd, Int32(SHUT_RDWR))
      close(fd)
    }
  }
#endif
