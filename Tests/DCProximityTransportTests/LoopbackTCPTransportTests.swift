import DCProximityTransport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loopback TCP development transport (not part of ISO/IEC 18013-5): framing, the socket
/// calls, and each refusal, over real sockets on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct LoopbackTCPTransportTests {
  /// Hang guards (not what is tested), generous for a suite sharing two cores.
  static let quick = LoopbackTCPTransport.Configuration(
    receiveTimeout: .seconds(60), sendTimeout: .seconds(60), connectTimeout: .seconds(60))

  static func connected(
    _ configuration: LoopbackTCPTransport.Configuration = quick
  ) async throws -> (holder: LoopbackTCPTransport, reader: LoopbackTCPTransport) {
    let listener = try LoopbackTCPListener(configuration: configuration)
    #expect(listener.port != 0)
    async let accepted = listener.accept(timeout: .seconds(60))
    let reader = try await LoopbackTCPConnector.connect(
      port: listener.port, configuration: configuration)
    return (try await accepted, reader)
  }

  static func code(_ body: () async throws -> some Any) async -> TransportErrorCode? {
    do {
      _ = try await body()
      return nil
    } catch {
      guard let error = error as? TransportError else {
        Issue.record("not a TransportError: \(error)")
        return nil
      }
      return error.code
    }
  }

  static func message(_ size: Int, _ seed: UInt8) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed }
  }

  // MARK: Round trips

  @Test func messagesBothWays() async throws {
    let (holder, reader) = try await Self.connected()
    for round in 0..<4 {
      let request = Self.message(200 + round, UInt8(round))
      try await reader.send(request)
      #expect(try await holder.receive() == request)
      let response = Self.message(round == 3 ? 1_500_000 : 3000, UInt8(round + 50))
      try await holder.send(response)
      #expect(try await reader.receive() == response)
    }
    // Several sent before any is read arrive in order.
    for index in 1...5 { try await reader.send([UInt8](repeating: UInt8(index), count: index)) }
    for index in 1...5 {
      #expect(try await holder.receive() == [UInt8](repeating: UInt8(index), count: index))
    }
    await holder.close()
    await reader.close()
  }

  @Test func theFrameIsALengthThenTheMessage() async throws {
    #expect(
      try LengthPrefixedFrame.encode([9, 8, 7], maxMessageBytes: 10) == [0, 0, 0, 3, 9, 8, 7])
    #expect(try LengthPrefixedFrame.encode([9, 8, 7], maxMessageBytes: 3).count == 7)
    let messageTooLargeError = #expect(throws: TransportError.self) {
      try LengthPrefixedFrame.encode([9, 8, 7], maxMessageBytes: 2)
    }
    #expect(messageTooLargeError?.code == .messageTooLarge)
    #expect(
      try LengthPrefixedFrame.encode(
        [UInt8](repeating: 1, count: 0x01_02_03), maxMessageBytes: 1 << 20
      )
      .prefix(4) == [0, 1, 2, 3])
    let peer = try await RawPeer.connected(Self.quick)
    try await peer.transport.send([0xA1, 0x01, 0x02])
    #expect(peer.read(7) == [0, 0, 0, 3, 0xA1, 0x01, 0x02])
  }

  @Test func framesSplitAnywhereOrSharingAWriteAreRead() async throws {
    let peer = try await RawPeer.connected(Self.quick)
    let frame = try LengthPrefixedFrame.encode(Self.message(300, 1), maxMessageBytes: 1000)
    // One byte per write, with pauses: partial reads.
    for byte in frame.prefix(6) {
      peer.write([byte])
      usleep(20_000)
    }
    peer.write(Array(frame.dropFirst(6)))
    #expect(try await peer.transport.receive() == Self.message(300, 1))
    // Two frames and half a third in one write.
    let second = try LengthPrefixedFrame.encode([2], maxMessageBytes: 10)
    let third = try LengthPrefixedFrame.encode([3, 3, 3], maxMessageBytes: 10)
    peer.write(frame + second + Array(third.prefix(5)))
    #expect(try await peer.transport.receive() == Self.message(300, 1))
    #expect(try await peer.transport.receive() == [2])
    peer.write(Array(third.dropFirst(5)))
    #expect(try await peer.transport.receive() == [3, 3, 3])
  }

  // MARK: Refusals

  @Test func anOversizeFrameIsRefusedOnItsHeaderAlone() async throws {
    let limits = TransportLimits(
      maxMessageBytes: 1000, maxChunksPerMessage: 10, maxQueuedMessages: 1)
    // A receive that waited for the body would end only at this (never reached) timeout, and as
    // timedOut: the code alone shows the refusal came from the header, under any load.
    let configuration = LoopbackTCPTransport.Configuration(
      limits: limits, receiveTimeout: .seconds(3600), sendTimeout: .seconds(5))
    let peer = try await RawPeer.connected(configuration)
    // Only the header arrives: the refusal cannot wait for (or allocate) the body.
    peer.write([0xFF, 0xFF, 0xFF, 0xFF])
    #expect(await Self.code { try await peer.transport.receive() } == .messageTooLarge)
    // The limit itself is accepted; one past it is not.
    let atLimit = try await RawPeer.connected(configuration)
    atLimit.write([0, 0, 0x03, 0xE8] + [UInt8](repeating: 5, count: 1000))
    #expect(try await atLimit.transport.receive().count == 1000)
    let past = try await RawPeer.connected(configuration)
    past.write([0, 0, 0x03, 0xE9])
    #expect(await Self.code { try await past.transport.receive() } == .messageTooLarge)
    // Sending past the limit is refused before anything is written (on a transport still open).
    #expect(
      await Self.code { try await atLimit.transport.send([UInt8](repeating: 1, count: 1001)) }
        == .messageTooLarge)
    try await atLimit.transport.send([UInt8](repeating: 1, count: 1000))
    #expect(atLimit.read(1004).count == 1004)
  }

  @Test func anEmptyFrameIsAViolation() async throws {
    let peer = try await RawPeer.connected(Self.quick)
    peer.write([0, 0, 0, 0])
    #expect(await Self.code { try await peer.transport.receive() } == .protocolViolation)
    #expect(await Self.code { try await peer.transport.send([]) } == .messageTooLarge)
  }

  @Test(arguments: [[UInt8]([0, 0]), [0, 0, 0, 10, 1, 2, 3]])
  func aPeerClosingInsideAFrameIsTruncation(_ partial: [UInt8]) async throws {
    let peer = try await RawPeer.connected(Self.quick)
    peer.write(partial)
    peer.closeSocket()
    #expect(await Self.code { try await peer.transport.receive() } == .truncatedMessage)
  }

  @Test func aPeerClosingBetweenFramesIsPeerClosed() async throws {
    let (holder, reader) = try await Self.connected()
    try await reader.send([1])
    await reader.close()
    #expect(try await holder.receive() == [1])
    #expect(await Self.code { try await holder.receive() } == .peerClosed)
    #expect(await Self.code { try await holder.receive() } == .peerClosed)
  }

  @Test func receiveTimesOutAndStaysUsable() async throws {
    let configuration = LoopbackTCPTransport.Configuration(
      receiveTimeout: .milliseconds(300), sendTimeout: .seconds(5))
    let peer = try await RawPeer.connected(configuration)
    // Half a frame, then silence.
    peer.write([0, 0, 0, 2, 7])
    let started = ContinuousClock.now
    #expect(await Self.code { try await peer.transport.receive() } == .timedOut)
    #expect(ContinuousClock.now - started >= .milliseconds(250))
    peer.write([8])
    #expect(try await peer.transport.receive() == [7, 8])
  }

  @Test func aPeerThatDoesNotReadEndsASendAtItsDeadline() async throws {
    // 64 MiB cannot fit the loopback socket buffers of a peer that reads nothing.
    let limits = TransportLimits(
      maxMessageBytes: 64 << 20, maxChunksPerMessage: 1, maxQueuedMessages: 1)
    let configuration = LoopbackTCPTransport.Configuration(
      limits: limits, receiveTimeout: .seconds(5), sendTimeout: .milliseconds(300))
    let peer = try await RawPeer.connected(configuration)
    // The peer never reads, so only the deadline ends the send: timedOut is the event to wait
    // for (no wall-clock bound, which a loaded machine breaks; the suite's time limit catches a
    // send that never ends).
    #expect(
      await Self.code { try await peer.transport.send([UInt8](repeating: 1, count: 64 << 20)) }
        == .timedOut)
    // Part of the frame may be out: the transport is over.
    #expect(await Self.code { try await peer.transport.send([1]) } == .timedOut)
  }

  @Test func closeWakesAWaitingReceive() async throws {
    let (holder, reader) = try await Self.connected()
    async let waiting = Self.code { try await holder.receive() }
    try await Task.sleep(for: .milliseconds(100))
    await holder.close()
    #expect(await waiting == .closed)
    #expect(await Self.code { try await holder.send([1]) } == .closed)
    await reader.close()
  }

  @Test func connectingWhereNobodyListensIsRefused() async throws {
    let listener = try LoopbackTCPListener()
    let port = listener.port
    listener.close()
    #expect(
      await Self.code {
        try await LoopbackTCPConnector.connect(port: port, configuration: Self.quick)
      }
        == .connectionFailed)
  }

  @Test func onlyLoopbackAddresses() async throws {
    let connectionFailedError = #expect(throws: TransportError.self) {
      try LoopbackTCPListener(host: "0.0.0.0")
    }
    #expect(connectionFailedError?.code == .connectionFailed)
    let connectionFailedError2 = #expect(throws: TransportError.self) {
      try LoopbackTCPListener(host: "localhost")
    }
    #expect(connectionFailedError2?.code == .connectionFailed)
    #expect(
      await Self.code { try await LoopbackTCPConnector.connect(to: "10.0.0.1", port: 9) }
        == .connectionFailed)
    let other = try LoopbackTCPListener(host: "127.0.0.2")
    #expect(other.port != 0)
  }

  @Test func acceptWaitsAtMostItsTimeout() async throws {
    let listener = try LoopbackTCPListener()
    #expect(await Self.code { try await listener.accept(timeout: .milliseconds(200)) } == .timedOut)
    listener.close()
    #expect(await Self.code { try await listener.accept(timeout: .seconds(5)) } == .closed)
  }
}

/// A peer that writes raw bytes to an accepted ``LoopbackTCPTransport``.
final class RawPeer: @unchecked Sendable {
  let transport: LoopbackTCPTransport
  private let fd: Int32

  private init(transport: LoopbackTCPTransport, fd: Int32) {
    self.transport = transport
    self.fd = fd
  }

  deinit { close(fd) }

  static func connected(_ configuration: LoopbackTCPTransport.Configuration) async throws -> RawPeer
  {
    let listener = try LoopbackTCPListener(configuration: configuration)
    async let accepted = listener.accept(timeout: .seconds(60))
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = listener.port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    #expect(result == 0)
    return RawPeer(transport: try await accepted, fd: fd)
  }

  func write(_ bytes: [UInt8]) {
    let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    #expect(sent == bytes.count)
  }

  /// Reads exactly `count` bytes (or what arrives before the peer closes).
  func read(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: count)
    for _ in 0..<count {
      let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - bytes.count, 0) }
      if got <= 0 { break }
      bytes += buffer.prefix(got)
      if bytes.count == count { break }
    }
    return bytes
  }

  func closeSocket() { shutdown(fd, Int32(SHUT_RDWR)) }
}
