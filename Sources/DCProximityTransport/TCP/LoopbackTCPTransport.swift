import DCErrors
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loopback TCP development transport: session messages between two processes on one
/// machine, each framed as a 4-byte big-endian length followed by the message
/// (``LengthPrefixedFrame``).
///
/// **Not part of ISO/IEC 18013-5.** It exists for the command line and tests; the
/// DeviceEngagement a holder shows stays the standard one with its BLE option.
///
/// Made by ``LoopbackTCPListener/accept(timeout:)`` or ``LoopbackTCPConnector/connect(to:port:configuration:)``.
/// Blocking POSIX socket calls, each bounded by `poll(2)` with the configured timeout, run on
/// two serial dispatch queues of the connection (one reading, one writing), never on Swift's
/// concurrency pool.
package final class LoopbackTCPTransport: SessionTransport, @unchecked Sendable {
  /// Limits and waits of a connection.
  package struct Configuration: Sendable, Hashable {
    /// The bounds on messages (only `maxMessageBytes` applies to TCP).
    package var limits: TransportLimits
    /// How long one ``receive()`` waits for a whole message; nil waits until the peer closes.
    package var receiveTimeout: Duration?
    /// How long one ``send(_:)`` may take to hand its frame to the socket.
    package var sendTimeout: Duration
    /// How long connecting may take.
    package var connectTimeout: Duration

    /// Creates a configuration.
    package init(
      limits: TransportLimits = .standard, receiveTimeout: Duration? = .seconds(300),
      sendTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10)
    ) {
      self.limits = limits
      self.receiveTimeout = receiveTimeout
      self.sendTimeout = sendTimeout
      self.connectTimeout = connectTimeout
    }
  }

  /// The connection's configuration.
  package let configuration: Configuration

  private let fd: Int32
  private let readQueue = DispatchQueue(label: "LoopbackTCPTransport.read")
  private let writeQueue = DispatchQueue(label: "LoopbackTCPTransport.write")
  private let lock = NSLock()
  private var ended: TransportError?
  private var closing = false
  /// Touched only on `readQueue`.
  private var decoder: LengthPrefixedFrameDecoder
  private var pending: ArraySlice<UInt8> = []
  private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

  init(fd: Int32, configuration: Configuration) {
    self.fd = fd
    self.configuration = configuration
    self.decoder = LengthPrefixedFrameDecoder(
      maxMessageBytes: configuration.limits.maxMessageBytes)
    Socket.preventSIGPIPE(fd)
  }

  deinit {
    if !closing { _ = Socket.close(fd) }
  }

  // MARK: SessionTransport

  /// Sends one framed message.
  package func send(_ message: [UInt8]) async throws(TransportError) {
    let frame = try LengthPrefixedFrame.encode(
      message, maxMessageBytes: configuration.limits.maxMessageBytes)
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, TransportError>, Never>) in
      writeQueue.async {
        continuation.resume(
          returning: Result { () throws(TransportError) in try self.write(frame) })
      }
    }
    try result.get()
  }

  /// Reads the next whole frame.
  package func receive() async throws(TransportError) -> [UInt8] {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<[UInt8], TransportError>, Never>) in
      readQueue.async {
        continuation.resume(returning: Result { () throws(TransportError) in try self.read() })
      }
    }
    return try result.get()
  }

  /// Shuts the socket down (waking a waiting receive or send, which then end with `closed`) and
  /// closes it once neither queue uses it.
  package func close() async {
    let first = lock.withLock { () -> Bool in
      guard !closing else { return false }
      closing = true
      if ended == nil { ended = TransportError(.closed, "the transport was closed on this side") }
      return true
    }
    guard first else { return }
    _ = Socket.shutdown(fd)
    let fd = self.fd
    let writeQueue = self.writeQueue
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      readQueue.async {
        writeQueue.async {
          _ = Socket.close(fd)
          continuation.resume()
        }
      }
    }
  }

  // MARK: Blocking work (on the queues)

  private var endedError: TransportError? { lock.withLock { ended } }

  private func end(_ error: TransportError) -> TransportError {
    lock.withLock {
      if let ended { return ended }
      ended = error
      return error
    }
  }

  private func read() throws(TransportError) -> [UInt8] {
    if let error = endedError { throw error }
    let deadline = configuration.receiveTimeout.map { ContinuousClock.now + $0 }
    while true {
      do throws(TransportError) {
        if let message = try decoder.next(from: &pending) { return message }
      } catch {
        throw end(error)
      }
      // `pending` is used up: wait for more bytes.
      switch Socket.wait(fd, forReading: true, until: deadline) {
      case .ready: break
      case .timedOut:
        if let error = endedError { throw error }
        throw TransportError(
          .timedOut, "no whole message arrived within \(configuration.receiveTimeout ?? .zero)")
      case .failed(let code):
        throw end(Self.failure(code, midFrame: decoder.isMidFrame))
      }
      let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
      if let error = endedError { throw error }
      if count > 0 {
        pending = scratch[0..<count]
        continue
      }
      if count == 0 {
        throw end(
          decoder.isMidFrame
            ? TransportError(
              .truncatedMessage, "the peer closed the connection in the middle of a frame")
            : TransportError(.peerClosed, "the peer closed the connection"))
      }
      let code = errno
      if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
      throw end(Self.failure(code, midFrame: decoder.isMidFrame))
    }
  }

  private func write(_ frame: [UInt8]) throws(TransportError) {
    if let error = endedError { throw error }
    let deadline = ContinuousClock.now + configuration.sendTimeout
    var offset = 0
    while offset < frame.count {
      switch Socket.wait(fd, forReading: false, until: deadline) {
      case .ready: break
      case .timedOut:
        // Part of the frame may be out: the stream has lost its framing.
        throw end(
          TransportError(
            .timedOut, "the frame could not be sent within \(configuration.sendTimeout)"))
      case .failed(let code):
        throw end(Self.failure(code, midFrame: false))
      }
      let sent = frame.withUnsafeBytes { bytes in
        Socket.send(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      }
      if let error = endedError { throw error }
      if sent > 0 {
        offset += sent
        continue
      }
      let code = errno
      if sent < 0, code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
      throw end(Self.failure(code, midFrame: false))
    }
  }

  private static func failure(_ code: Int32, midFrame: Bool) -> TransportError {
    let cause = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
    if code == ECONNRESET || code == EPIPE || code == 0 {
      return midFrame
        ? TransportError(
          .truncatedMessage, "the peer reset the connection in the middle of a frame",
          underlying: cause)
        : TransportError(.peerClosed, "the peer reset the connection", underlying: cause)
    }
    return TransportError(.connectionFailed, "the socket failed (errno \(code))", underlying: cause)
  }
}

/// A listening socket on a loopback address that accepts one peer.
package final class LoopbackTCPListener: @unchecked Sendable {
  /// The port it listens on (the one the system picked when 0 was asked for).
  package let port: UInt16
  /// The address it listens on.
  package let host: String
  /// What the accepted connection gets.
  package let configuration: LoopbackTCPTransport.Configuration

  private let fd: Int32
  private let queue = DispatchQueue(label: "LoopbackTCPListener.accept")
  private let lock = NSLock()
  private var closed = false

  /// Listens on `host`:`port` (port 0 picks a free one, see ``port``).
  ///
  /// - Parameter host: an IPv4 address in 127.0.0.0/8 (never every interface).
  /// - Throws: `connectionFailed` for another address, or when the socket cannot be bound.
  package init(
    host: String = "127.0.0.1", port: UInt16 = 0,
    configuration: LoopbackTCPTransport.Configuration = .init()
  ) throws(TransportError) {
    var address = try Socket.loopbackAddress(host, port: port)
    let fd = Socket.stream()
    guard fd >= 0 else {
      throw TransportError(.connectionFailed, "no socket could be made (errno \(errno))")
    }
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 1) == 0 else {
      let code = errno
      _ = Socket.close(fd)
      throw TransportError(
        .connectionFailed, "could not listen on \(host):\(port) (errno \(code))",
        underlying: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    self.host = host
    self.port = UInt16(bigEndian: address.sin_port)
    self.configuration = configuration
  }

  deinit { close() }

  /// Waits for one peer, at most `timeout` (nil: until ``close()``), then stops listening.
  ///
  /// - Throws: `timedOut`, `closed` after ``close()``, `connectionFailed`.
  package func accept(timeout: Duration? = nil) async throws(TransportError)
    -> LoopbackTCPTransport
  {
    let fd = self.fd
    let configuration = self.configuration
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Int32, TransportError>, Never>) in
      queue.async {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        continuation.resume(
          returning: Result { () throws(TransportError) -> Int32 in
            while true {
              if self.isClosed { throw TransportError(.closed, "the listener was closed") }
              switch Socket.wait(fd, forReading: true, until: deadline) {
              case .ready: break
              case .timedOut:
                throw TransportError(.timedOut, "no peer connected within \(timeout ?? .zero)")
              case .failed(let code):
                throw TransportError(.connectionFailed, "waiting for a peer failed (errno \(code))")
              }
              if self.isClosed { throw TransportError(.closed, "the listener was closed") }
              let peer = posixAccept(fd)
              if peer >= 0 { return peer }
              let code = errno
              if code == EINTR || code == EAGAIN || code == EWOULDBLOCK || code == ECONNABORTED {
                continue
              }
              throw TransportError(.connectionFailed, "accepting a peer failed (errno \(code))")
            }
          })
      }
    }
    let peer = try result.get()
    close()
    return LoopbackTCPTransport(fd: peer, configuration: configuration)
  }

  private var isClosed: Bool { lock.withLock { closed } }

  /// Stops listening; a waiting ``accept(timeout:)`` ends with `closed`.
  package func close() {
    let first = lock.withLock { () -> Bool in
      guard !closed else { return false }
      closed = true
      return true
    }
    guard first else { return }
    _ = Socket.shutdown(fd)
    let fd = self.fd
    queue.async { _ = Socket.close(fd) }
  }
}

/// Connects to a ``LoopbackTCPListener``.
package enum LoopbackTCPConnector {
  /// Connects to `host`:`port`, at most `configuration.connectTimeout`.
  ///
  /// - Parameter host: an IPv4 address in 127.0.0.0/8.
  /// - Throws: `connectionFailed` (refused, another address), `timedOut`.
  package static func connect(
    to host: String = "127.0.0.1", port: UInt16,
    configuration: LoopbackTCPTransport.Configuration = .init()
  ) async throws(TransportError) -> LoopbackTCPTransport {
    let address = try Socket.loopbackAddress(host, port: port)
    let queue = DispatchQueue(label: "LoopbackTCPConnector.connect")
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Int32, TransportError>, Never>) in
      queue.async {
        continuation.resume(
          returning: Result { () throws(TransportError) -> Int32 in
            var address = address
            return try Socket.connect(
              &address, timeout: configuration.connectTimeout, name: "\(host):\(port)")
          })
      }
    }
    return LoopbackTCPTransport(fd: try result.get(), configuration: configuration)
  }
}

/// `accept(2)` without the peer's address (a free function: the listener has an `accept`).
private func posixAccept(_ fd: Int32) -> Int32 {
  accept(fd, nil, nil)
}

/// The POSIX calls, with the constants that differ between Glibc and Darwin in one place.
enum Socket {
  enum Wait {
    case ready, timedOut
    case failed(Int32)
  }

  static func stream() -> Int32 {
    #if canImport(Darwin)
      socket(AF_INET, SOCK_STREAM, 0)
    #else
      socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
  }

  static func preventSIGPIPE(_ fd: Int32) {
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// `send(2)` that never blocks (`MSG_DONTWAIT`): it takes what fits in the socket buffer, and
  /// the caller polls for the rest within its deadline.
  static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Darwin)
      Darwin.send(fd, bytes.baseAddress, bytes.count, MSG_DONTWAIT)
    #else
      Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    #endif
  }

  /// `recv(2)` that never blocks (`MSG_DONTWAIT`).
  static func receive(_ fd: Int32, into bytes: UnsafeMutableRawBufferPointer) -> Int {
    #if canImport(Darwin)
      recv(fd, bytes.baseAddress, bytes.count, MSG_DONTWAIT)
    #else
      recv(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
    #endif
  }

  static func shutdown(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      Darwin.shutdown(fd, SHUT_RDWR)
    #else
      Glibc.shutdown(fd, Int32(SHUT_RDWR))
    #endif
  }

  static func close(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      Darwin.close(fd)
    #else
      Glibc.close(fd)
    #endif
  }

  /// Waits until `fd` can be read (or written), `deadline` passes, or poll fails.
  static func wait(_ fd: Int32, forReading: Bool, until deadline: ContinuousClock.Instant?)
    -> Wait
  {
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        if left <= .zero { return .timedOut }
        let (seconds, attoseconds) = left.components
        milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      }
      var entry = pollfd(
        fd: fd, events: Int16(forReading ? POLLIN : POLLOUT), revents: 0)
      let count = poll(&entry, 1, milliseconds)
      if count > 0 { return .ready }  // POLLHUP / POLLERR: the next read or write reports it
      if count == 0 { continue }  // the loop ends at the deadline
      let code = errno
      if code == EINTR { continue }
      return .failed(code)
    }
  }

  /// A socket address for an IPv4 address in 127.0.0.0/8.
  static func loopbackAddress(_ host: String, port: UInt16) throws(TransportError) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1,
      UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
    else {
      throw TransportError(
        .connectionFailed,
        "\(host) is not an IPv4 loopback address; the development transport stays on this machine")
    }
    return address
  }

  /// A non-blocking connect bounded by `timeout`; the socket is blocking again afterwards.
  static func connect(_ address: inout sockaddr_in, timeout: Duration, name: String)
    throws(TransportError) -> Int32
  {
    let fd = stream()
    guard fd >= 0 else {
      throw TransportError(.connectionFailed, "no socket could be made (errno \(errno))")
    }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    let started = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        posixConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    var code: Int32 = started == 0 ? 0 : errno
    if started != 0, code == EINPROGRESS {
      switch wait(fd, forReading: false, until: ContinuousClock.now + timeout) {
      case .ready:
        var length = socklen_t(MemoryLayout<Int32>.size)
        code = 0
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
      case .timedOut:
        _ = close(fd)
        throw TransportError(.timedOut, "connecting to \(name) took longer than \(timeout)")
      case .failed(let failed):
        code = failed
      }
    }
    guard code == 0 else {
      _ = close(fd)
      throw TransportError(
        .connectionFailed, "could not connect to \(name) (errno \(code))",
        underlying: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
    }
    _ = fcntl(fd, F_SETFL, flags)
    return fd
  }
}

/// `connect(2)` (a free function: `Socket` has a `connect`).
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
  -> Int32
{
  connect(fd, address, length)
}
