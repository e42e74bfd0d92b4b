import DCProximityTransport
import Foundation

/// One end of an in-memory BLE link pair: a value sent at one end reaches the other end's
/// transport at once, as a write (client to server) or a notification (server to client; only
/// on a characteristic the client subscribed to, as on a radio).
final class FakeBLELink: BLELink, @unchecked Sendable {
  enum Action: Equatable {
    case send([UInt8], BLECharacteristic)
    case read(BLECharacteristic)
    case subscribe(BLECharacteristic)
    case disconnect
  }

  let isServer: Bool
  private let lock = NSLock()
  private var peerEnd: FakeBLELink?
  private var owner: BLEGATTTransport?
  private var subscribed: Set<BLECharacteristic> = []
  private var log: [Action] = []
  private var down = false
  private var valueLength: Int
  /// What the server end serves on Ident instead of its transport's value.
  var servedIdent: [UInt8]?

  init(isServer: Bool, maximumValueLength: Int) {
    self.isServer = isServer
    self.valueLength = maximumValueLength
  }

  /// Connects two ends.
  static func pair(maximumValueLength: Int = 182) -> (server: FakeBLELink, client: FakeBLELink) {
    let server = FakeBLELink(isServer: true, maximumValueLength: maximumValueLength)
    let client = FakeBLELink(isServer: false, maximumValueLength: maximumValueLength)
    server.lock.withLock { server.peerEnd = client }
    client.lock.withLock { client.peerEnd = server }
    return (server, client)
  }

  /// The transport this end reports to.
  func attach(_ transport: BLEGATTTransport) { lock.withLock { owner = transport } }

  var transport: BLEGATTTransport? { lock.withLock { owner } }
  var actions: [Action] { lock.withLock { log } }
  var isDown: Bool { lock.withLock { down } }

  var maximumValueLength: Int {
    get { lock.withLock { valueLength } }
    set { lock.withLock { valueLength = newValue } }
  }

  /// Delivers an event to this end's transport as its radio would.
  func deliver(_ event: BLELinkEvent) { transport?.linkDidReceive(event) }

  func send(_ value: [UInt8], on characteristic: BLECharacteristic) async throws(TransportError) {
    let (peer, isDown) = lock.withLock { () -> (FakeBLELink?, Bool) in
      log.append(.send(value, characteristic))
      return (peerEnd, down)
    }
    guard !isDown, let peer else {
      throw TransportError(.connectionFailed, "the fake link is down")
    }
    if isServer, !peer.isSubscribed(characteristic) { return }
    peer.deliver(.value(value, on: characteristic))
  }

  func read(_ characteristic: BLECharacteristic) async throws(TransportError) -> [UInt8] {
    let peer = lock.withLock { () -> FakeBLELink? in
      log.append(.read(characteristic))
      return peerEnd
    }
    guard let peer, characteristic == .ident else {
      throw TransportError(.connectionFailed, "nothing to read")
    }
    if let served = peer.servedIdent { return served }
    guard let ident = peer.transport?.identValue else {
      throw TransportError(.connectionFailed, "the server has no Ident")
    }
    return ident
  }

  func subscribe(to characteristic: BLECharacteristic) async throws(TransportError) {
    lock.withLock {
      log.append(.subscribe(characteristic))
      subscribed.insert(characteristic)
    }
  }

  func isSubscribed(_ characteristic: BLECharacteristic) -> Bool {
    lock.withLock { subscribed.contains(characteristic) }
  }

  func disconnect() async {
    let peer = lock.withLock { () -> FakeBLELink? in
      log.append(.disconnect)
      guard !down else { return nil }
      down = true
      return peerEnd
    }
    peer?.goDown()
  }

  /// The other end disconnected.
  private func goDown() {
    let wasUp = lock.withLock { () -> Bool in
      defer { down = true }
      return !down
    }
    if wasUp { deliver(.disconnected) }
  }
}
