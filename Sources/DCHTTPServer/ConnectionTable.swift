#if canImport(CDCMicroHTTPD)
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// The server's open connections: how many each client address holds (the per-client cap, the
  /// trusted proxies exempt), and where each is in its request, so the head and body deadlines
  /// hold whatever the client sends (libmicrohttpd's own timeout counts idle time only: a client
  /// that sends a byte now and then would keep its connection, and its thread, for ever).
  final class ConnectionTable: @unchecked Sendable {
    /// One connection: its socket, its client, and since when it has been in its phase.
    final class Entry: @unchecked Sendable {
      let socket: Int32
      let peer: IPAddress?
      // Guarded by the table's lock.
      fileprivate var phase: Phase = .head
      fileprivate var since: ContinuousClock.Instant = .now
      fileprivate var cutOff = false

      init(socket: Int32, peer: IPAddress?) {
        self.socket = socket
        self.peer = peer
      }
    }

    /// Where a connection is: reading a request head (or waiting for the next one), reading a
    /// body, or answering (the handler's own timeout bounds that).
    enum Phase { case head, body, answering }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var perPeer: [IPAddress: Int] = [:]
    private var forwarded: [IPAddress: Int] = [:]
    private let perClient: Int
    private let trustedProxies: Set<IPAddress>
    private let headDeadline: Duration
    private let bodyDeadline: Duration

    init(
      perClient: UInt32, trustedProxies: Set<IPAddress>, headDeadline: TimeInterval,
      bodyDeadline: TimeInterval
    ) {
      self.perClient = Int(perClient)
      self.trustedProxies = trustedProxies
      self.headDeadline = .milliseconds(Int64(max(headDeadline, 0.001) * 1000))
      self.bodyDeadline = .milliseconds(Int64(max(bodyDeadline, 0.001) * 1000))
    }

    /// How often the deadlines are checked: a quarter of the shorter one, within 10 ms...1 s.
    var sweepInterval: TimeInterval {
      let shorter = min(headDeadline, bodyDeadline)
      let seconds =
        Double(shorter.components.seconds) + Double(shorter.components.attoseconds) / 1e18
      return min(max(seconds / 4, 0.01), 1)
    }

    /// Whether a new connection from `peer` may open: under the per-client cap, or from a
    /// trusted proxy (whose clients are counted per request, ``acquire(forwarded:)``).
    func admits(_ peer: IPAddress?) -> Bool {
      guard let peer, !trustedProxies.contains(peer) else { return true }
      return lock.withLock { perPeer[peer, default: 0] < perClient }
    }

    /// Records a new connection (libmicrohttpd accepted it), in its head phase.
    func opened(socket: Int32, peer: IPAddress?) -> Entry {
      let entry = Entry(socket: socket, peer: peer)
      lock.withLock {
        entries[ObjectIdentifier(entry)] = entry
        if let peer { perPeer[peer, default: 0] += 1 }
      }
      return entry
    }

    /// Forgets a closed connection. libmicrohttpd reports the close before it closes the socket,
    /// so the sweep (under the same lock) never shuts a socket number that was reused.
    func closed(_ entry: Entry) {
      lock.withLock {
        guard entries.removeValue(forKey: ObjectIdentifier(entry)) != nil else { return }
        if let peer = entry.peer {
          let left = perPeer[peer, default: 1] - 1
          perPeer[peer] = left > 0 ? left : nil
        }
      }
    }

    /// Moves `entry` to `phase`; its deadline counts from now.
    func enter(_ entry: Entry, _ phase: Phase) {
      lock.withLock {
        entry.phase = phase
        entry.since = .now
      }
    }

    /// Counts one request in flight from `client` behind a trusted proxy; false (nothing
    /// counted) when the client already has the per-client cap's worth.
    func acquire(forwarded client: IPAddress) -> Bool {
      lock.withLock {
        guard forwarded[client, default: 0] < perClient else { return false }
        forwarded[client, default: 0] += 1
        return true
      }
    }

    /// Ends one request counted by ``acquire(forwarded:)``.
    func release(forwarded client: IPAddress) {
      lock.withLock {
        let left = forwarded[client, default: 1] - 1
        forwarded[client] = left > 0 ? left : nil
      }
    }

    /// Shuts every connection past its phase's deadline: libmicrohttpd's thread for it then
    /// reads the end of the stream and closes it. Returns how many were cut off now.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
      lock.withLock {
        var cut = 0
        for entry in entries.values where !entry.cutOff {
          let limit: Duration
          switch entry.phase {
          case .head: limit = headDeadline
          case .body: limit = bodyDeadline
          case .answering: continue
          }
          guard now - entry.since > limit else { continue }
          entry.cutOff = true
          _ = shutdown(entry.socket, Int32(SHUT_RDWR))
          cut += 1
        }
        return cut
      }
    }
  }

  /// A thread that sweeps the table at its interval until stopped.
  final class DeadlineSweeper: @unchecked Sendable {
    private let stopSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(_ table: ConnectionTable) {
      let interval = table.sweepInterval
      let thread = Thread { [stopSignal, finished] in
        while stopSignal.wait(timeout: .now() + interval) == .timedOut {
          table.sweep()
        }
        finished.signal()
      }
      thread.name = "DevelopmentHTTPServer.deadlines"
      thread.start()
    }

    /// Stops the thread and waits for it to end.
    func stop() {
      stopSignal.signal()
      finished.wait()
    }
  }
#endif
