import DCErrors

/// What the BLE GATT message layer needs of the radio: characteristic writes and notifications
/// out, and (through ``BLEGATTTransport/linkDidReceive(_:)``) writes and notifications in.
///
/// The platform adapter implements it (`CoreBluetoothPeripheralLink` and
/// `CoreBluetoothCentralLink` on Apple platforms); an app may write its own, and tests use an
/// in-memory pair. The contract: make the link, make the ``BLEGATTTransport`` over it (which
/// calls ``attach(_:)``), connect the radio, then ``BLEGATTTransport/open()``. A link finds its
/// characteristics with ``BLEMode/uuid(of:)`` for the transport's ``BLEGATTTransport/mode`` and,
/// as the GATT server in central client mode, serves ``BLEGATTTransport/identValue`` on Ident.
/// Everything the session needs decided (chunking, the State values, the Ident check, limits,
/// ordering) is decided in ``BLEGATTTransport``, never in a link.
public protocol BLELink: Sendable {
  /// Called once by the transport made over this link, from its initialiser: from then on,
  /// report every value that arrives and the link going down to the transport's
  /// ``BLEGATTTransport/linkDidReceive(_:)``, in order. Hold the transport weakly: it holds
  /// the link.
  func attach(_ transport: BLEGATTTransport)

  /// Sends one characteristic value: a Write Without Response from the GATT client, a
  /// notification (Handle Value Notification) from the GATT server. Returns once the value is
  /// handed to the radio; waits while the radio's queue is full.
  func send(_ value: [UInt8], on characteristic: BLECharacteristic) async throws(TransportError)

  /// GATT client only: reads the characteristic's value (the Ident, in central client mode).
  func read(_ characteristic: BLECharacteristic) async throws(TransportError) -> [UInt8]

  /// GATT client only: enables notifications of the characteristic (writes its Client
  /// Characteristic Configuration descriptor) and returns once the server has confirmed.
  func subscribe(to characteristic: BLECharacteristic) async throws(TransportError)

  /// The largest value one write or notification can carry now: ATT_MTU − 3.
  var maximumValueLength: Int { get }

  /// Ends the link: disconnects from the peer, or stops the service and advertising.
  func disconnect() async
}

/// What the link reports to ``BLEGATTTransport/linkDidReceive(_:)``.
public enum BLELinkEvent: Sendable, Hashable {
  /// A value arrived on the characteristic: a write from the GATT client (at the server), or a
  /// notification from the GATT server (at the client).
  case value([UInt8], on: BLECharacteristic)
  /// The peer disconnected, or the link failed.
  case disconnected
}
