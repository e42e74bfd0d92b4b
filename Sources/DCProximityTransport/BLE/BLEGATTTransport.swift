import DCCrypto
import Foundation

/// The ISO/IEC 18013-5 §8.3.3.1.1 GATT message layer for either device in either mode, over any
/// ``BLELink``: the State characteristic, Client2Server / Server2Client chunking and reassembly,
/// the Ident characteristic, and the transport-specific termination.
///
/// The sequence (§8.3.3.1.1.4): the GATT client subscribes to State and Server2Client, then
/// writes Start (0x01) to State; in central client mode it first reads Ident from the mdoc
/// reader and ends the connection when it is not `HKDF(EDeviceKeyBytes, "BLEIdent")`. The GATT
/// server takes no message before Start. Messages from the client are written to Client2Server,
/// from the server notified on Server2Client, each in chunks of at most ATT_MTU − 3 bytes whose
/// first byte is 0x01 when more follow and 0x00 on the last (§8.3.3.1.1.6). End (0x02) on State,
/// written by the client or notified by the server, ends the session (§8.3.3.1.1.5).
///
/// Call ``open()`` once the link is connected, then ``send(_:)`` and ``receive()``; the link
/// reports what arrives through ``linkDidReceive(_:)``, from any thread (``BLELink``).
public final class BLEGATTTransport: SessionTransport, @unchecked Sendable {
  /// The times the transport waits.
  public struct Timeouts: Sendable, Hashable {
    /// How long ``open()`` waits for the GATT client's Start (GATT server only); nil waits as long
    /// as the link stays up.
    package var start: Duration?
    /// How long one ``receive()`` waits for a whole message; nil waits as long as the link stays up.
    public var receive: Duration?

    /// Creates timeouts.
    public init(start: Duration? = .seconds(60), receive: Duration? = .seconds(300)) {
      self.start = start
      self.receive = receive
    }
  }

  /// Which device this is.
  package let side: BLESide
  /// Which device is the GATT server: the link's characteristics are this mode's.
  public let mode: BLEMode
  /// The bounds on what the peer sends.
  package let limits: TransportLimits
  /// The waits.
  package let timeouts: Timeouts
  /// In central client mode, the Ident: the value the mdoc reader serves on the Ident
  /// characteristic, and the value the mdoc expects to read there. Nil in peripheral server mode.
  public let identValue: [UInt8]?

  private let link: any BLELink
  private let lock = NSLock()
  private var phase = Phase.connecting
  private var reassembler: BLEMessageReassembler
  private var queue: [[UInt8]] = []
  private var waiter: Waiter?
  private var startWaiter: CheckedContinuation<Result<Void, TransportError>, Never>?
  private var nextWaiterID: UInt64 = 0
  private let sendGate = SerialGate()

  private enum Phase {
    case connecting, open
    case ended(TransportError)
  }

  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Result<[UInt8], TransportError>, Never>
  }

  /// The largest characteristic value accepted from the peer: an attribute value is at most 512
  /// bytes (Bluetooth Core 5.3, Vol 3, Part F, §3.2.9), whatever the ATT_MTU.
  package static let maximumAttributeValueLength = 512

  /// A transport for `side` in `mode` over `link`.
  ///
  /// - Parameters:
  ///   - side: whether this device is the mdoc or the mdoc reader.
  ///   - mode: which side is the GATT server: peripheral server mode (the mdoc) or central
  ///     client mode (the mdoc reader), as the DeviceEngagement offered (§8.3.3.1.1.1).
  ///   - link: the radio, which carries characteristic values both ways; the initialiser
  ///     attaches the transport to it (``BLELink/attach(_:)``).
  ///   - eDeviceKeyBytes: the DeviceEngagement's EDeviceKeyBytes (tag 24 and its byte string, as
  ///     shown); required in central client mode, where the Ident is derived from it.
  ///   - limits: the bounds on what the peer sends (message size, reassembly).
  ///   - timeouts: how long ``open()`` waits for Start and ``receive()`` for a message.
  /// - Throws: `protocolViolation` when central client mode is asked for without
  ///   `eDeviceKeyBytes`; `connectionFailed` when the Ident cannot be derived.
  public init(
    side: BLESide, mode: BLEMode, link: any BLELink, eDeviceKeyBytes: [UInt8]? = nil,
    limits: TransportLimits = .standard, timeouts: Timeouts = Timeouts()
  ) throws(TransportError) {
    self.side = side
    self.mode = mode
    self.link = link
    self.limits = limits
    self.timeouts = timeouts
    self.reassembler = BLEMessageReassembler(
      limits: limits, maximumValueLength: Self.maximumAttributeValueLength)
    switch mode {
    case .mdocPeripheralServer:
      identValue = nil
    case .mdocCentralClient:
      guard let eDeviceKeyBytes else {
        throw TransportError(
          .protocolViolation,
          "central client mode needs EDeviceKeyBytes for the Ident characteristic")
      }
      do {
        identValue = try BLEIdent.value(eDeviceKeyBytes: eDeviceKeyBytes)
      } catch {
        throw TransportError(.connectionFailed, "the Ident could not be derived", underlying: error)
      }
    }
    link.attach(self)
  }

  /// Whether this device is the GATT server.
  package var isGATTServer: Bool { mode.isGATTServer(side) }

  private var outgoing: BLECharacteristic { isGATTServer ? .server2Client : .client2Server }

  // MARK: Setting up

  /// Sets the session up on a connected link. The GATT client checks the Ident (central client
  /// mode, the mdoc), subscribes to State and Server2Client and writes Start; the GATT server
  /// waits for Start, at most the `start` of the ``Timeouts`` it was created with.
  ///
  /// - Throws: `identMismatch` (the connection is ended), `timedOut`, `protocolViolation`,
  ///   `peerClosed`, `closed`, or the link's error.
  public func open() async throws(TransportError) {
    if isGATTServer {
      try await waitForStart()
      return
    }
    do throws(TransportError) {
      if let expected = identValue {
        let ident = try await link.read(.ident)
        guard ident == expected else {
          throw TransportError(
            .identMismatch,
            "the mdoc reader's Ident is not the value derived from this engagement's EDeviceKeyBytes"
          )
        }
      }
      try await link.subscribe(to: .state)
      try await link.subscribe(to: .server2Client)
      try lock.locked { () throws(TransportError) in
        if case .ended(let error) = phase { throw error }
        phase = .open
      }
      try await link.send([BLEState.start.rawValue], on: .state)
    } catch {
      fail(error)
      await link.disconnect()
      throw currentError ?? error
    }
  }

  private func waitForStart() async throws(TransportError) {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, TransportError>, Never>) in
      lock.withLock {
        switch phase {
        case .open: continuation.resume(returning: .success(()))
        case .ended(let error): continuation.resume(returning: .failure(error))
        case .connecting:
          if startWaiter != nil {
            continuation.resume(
              returning: .failure(TransportError(.closed, "open() is already waiting for Start")))
          } else {
            startWaiter = continuation
          }
        }
      }
      if let start = timeouts.start {
        Task { [weak self] in
          try? await Task.sleep(for: start)
          self?.failIfConnecting(
            TransportError(.timedOut, "the GATT client did not write Start within \(start)"))
        }
      }
    }
    try result.get()
  }

  // MARK: SessionTransport

  /// Sends one message in chunks on Client2Server (GATT client) or Server2Client (GATT server).
  public func send(_ message: [UInt8]) async throws(TransportError) {
    await sendGate.enter()
    defer { sendGate.leave() }
    try lock.locked { () throws(TransportError) in
      switch phase {
      case .open: break
      case .connecting: throw TransportError(.closed, "send before the session was opened")
      case .ended(let error): throw error
      }
    }
    let valueLength = min(link.maximumValueLength, Self.maximumAttributeValueLength)
    let chunks = try BLEMessageChunker.chunks(
      message, maximumValueLength: valueLength, limits: limits)
    for chunk in chunks {
      if let error = currentError { throw error }
      do throws(TransportError) {
        try await link.send(chunk, on: outgoing)
      } catch {
        fail(error)
        throw error
      }
    }
  }

  /// The next whole message, or the error that ended the transport once the messages that
  /// arrived before it are taken.
  public func receive() async throws(TransportError) -> [UInt8] {
    let id = lock.withLock { () -> UInt64 in
      nextWaiterID += 1
      return nextWaiterID
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<[UInt8], TransportError>, Never>) in
        let immediate: Result<[UInt8], TransportError>? = lock.withLock {
          if Task.isCancelled {
            return .failure(TransportError(.closed, "the receiving task was cancelled"))
          }
          if !queue.isEmpty { return .success(queue.removeFirst()) }
          if case .ended(let error) = phase { return .failure(error) }
          if waiter != nil {
            return .failure(TransportError(.closed, "a receive is already waiting"))
          }
          waiter = Waiter(id: id, continuation: continuation)
          return nil
        }
        if let immediate {
          continuation.resume(returning: immediate)
        } else if let limit = timeouts.receive {
          Task { [weak self] in
            try? await Task.sleep(for: limit)
            self?.resumeWaiter(
              id, .failure(TransportError(.timedOut, "no whole message arrived within \(limit)")))
          }
        }
      }
    } onCancel: {
      resumeWaiter(id, .failure(TransportError(.closed, "the receiving task was cancelled")))
    }
    return try result.get()
  }

  /// Sends End on State (§8.3.3.1.1.5) unless the session has already ended, then disconnects.
  public func close() async {
    let wasOpen = lock.withLock { () -> Bool in
      if case .ended = phase { return false }
      let open = if case .open = phase { true } else { false }
      end(TransportError(.closed, "the transport was closed on this side"), keepQueue: false)
      return open
    }
    if wasOpen { try? await link.send([BLEState.end.rawValue], on: .state) }
    await link.disconnect()
  }

  // MARK: What the link reports

  /// Takes one event from the link: call it, in the order they happen, from any thread.
  public func linkDidReceive(_ event: BLELinkEvent) {
    let disconnect = lock.withLock { () -> Bool in
      if case .ended = phase { return false }
      do throws(TransportError) {
        try handle(event)
        if case .ended = phase { return true }
        return false
      } catch {
        end(error, keepQueue: false)
        return true
      }
    }
    if disconnect, event != .disconnected {
      let link = self.link
      Task { await link.disconnect() }
    }
  }

  /// Called with the lock held.
  private func handle(_ event: BLELinkEvent) throws(TransportError) {
    guard case .value(let value, let characteristic) = event else {
      end(
        reassembler.isMidMessage
          ? TransportError(.truncatedMessage, "the link went down in the middle of a message")
          : TransportError(.peerClosed, "the link went down"), keepQueue: true)
      return
    }
    switch (isGATTServer, characteristic) {
    case (true, .state):
      try handleStateWrite(value)
    case (false, .state):
      guard value == [BLEState.end.rawValue] else {
        throw TransportError(
          .protocolViolation, "the GATT server notified a State value other than End")
      }
      end(TransportError(.peerClosed, "the GATT server notified End on State"), keepQueue: true)
    case (true, .client2Server), (false, .server2Client):
      try receiveChunk(value)
    default:
      throw TransportError(
        .protocolViolation,
        "a value arrived on \(characteristic), which does not carry values this way")
    }
  }

  /// A value the GATT client wrote to State: Start once, while connecting, or End. Called with
  /// the lock held.
  private func handleStateWrite(_ value: [UInt8]) throws(TransportError) {
    if value == [BLEState.start.rawValue] {
      guard case .connecting = phase else {
        throw TransportError(.protocolViolation, "the GATT client wrote Start a second time")
      }
      phase = .open
      startWaiter?.resume(returning: .success(()))
      startWaiter = nil
    } else if value == [BLEState.end.rawValue] {
      end(TransportError(.peerClosed, "the GATT client wrote End on State"), keepQueue: true)
    } else {
      throw TransportError(
        .protocolViolation,
        "the GATT client wrote \(value.count) bytes to State that are neither Start nor End")
    }
  }

  /// A message chunk, once Start has been seen: a completed message goes to the waiting
  /// receiver or, within the limit, to the queue. Called with the lock held.
  private func receiveChunk(_ value: [UInt8]) throws(TransportError) {
    guard case .open = phase else {
      throw TransportError(.protocolViolation, "a message chunk arrived before Start")
    }
    guard let message = try reassembler.append(value) else { return }
    if let waiter {
      self.waiter = nil
      waiter.continuation.resume(returning: .success(message))
    } else {
      guard queue.count < limits.maxQueuedMessages else {
        throw TransportError(
          .protocolViolation,
          "more than \(limits.maxQueuedMessages) messages arrived that were not taken")
      }
      queue.append(message)
    }
  }

  // MARK: Ending

  private var currentError: TransportError? {
    lock.withLock {
      if case .ended(let error) = phase { return error }
      return nil
    }
  }

  private func failIfConnecting(_ error: TransportError) {
    lock.withLock {
      guard case .connecting = phase else { return }
      end(error, keepQueue: false)
    }
  }

  private func fail(_ error: TransportError) {
    lock.withLock {
      if case .ended = phase { return }
      end(error, keepQueue: false)
    }
  }

  /// Called with the lock held: ends the transport and wakes whoever waits.
  private func end(_ error: TransportError, keepQueue: Bool) {
    phase = .ended(error)
    if !keepQueue { queue = [] }
    startWaiter?.resume(returning: .failure(error))
    startWaiter = nil
    waiter?.continuation.resume(returning: .failure(error))
    waiter = nil
  }

  private func resumeWaiter(_ id: UInt64, _ result: Result<[UInt8], TransportError>) {
    lock.withLock {
      guard let waiter, waiter.id == id else { return }
      self.waiter = nil
      waiter.continuation.resume(returning: result)
    }
  }
}

extension NSLock {
  /// `withLock` keeping the body's typed error.
  func locked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// Lets one task at a time through, in arrival order.
final class SerialGate: @unchecked Sendable {
  private let lock = NSLock()
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func enter() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = lock.withLock { () -> Bool in
        if busy {
          waiting.append(continuation)
          return false
        }
        busy = true
        return true
      }
      if now { continuation.resume() }
    }
  }

  func leave() {
    let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      if waiting.isEmpty {
        busy = false
        return nil
      }
      return waiting.removeFirst()
    }
    next?.resume()
  }
}
