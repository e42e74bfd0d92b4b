import DCErrors

// The CoreBluetooth edge of the BLE transport (Apple platforms only).
//
// THIN ON PURPOSE: everything the session needs decided (chunking,
// reassembly and its bounds, the State values and their order, the Ident check, timeouts,
// errors) lives in `BLEGATTTransport` and `BLEMessageChunker`, which the Linux tests drive
// through an in-memory link pair. These two classes only move characteristic values between
// CoreBluetooth and `BLEGATTTransport.linkDidReceive(_:)` / `BLELink`, and wait for
// CoreBluetooth's callbacks. They are written against Apple's documented CoreBluetooth API
// (CBPeripheralManager, CBMutableService, CBMutableCharacteristic,
// updateValue(_:for:onSubscribedCentrals:), CBCentralManager, CBPeripheral
// writeValue(_:for:type:) / setNotifyValue(_:for:) / maximumWriteValueLength(for:)). On Linux they
// are type-checked against the Apple shadow SDK's CoreBluetooth (Tests/AppleShadow, issue 17,
// `DCWALLET_APPLE_SHADOW=1`), never run against a radio.
#if canImport(CoreBluetooth)
  public import CoreBluetooth
  public import Foundation

  extension BLEUUID {
    /// The UUID as CoreBluetooth's `CBUUID`.
    var cbUUID: CBUUID { CBUUID(data: Data(bytes)) }

    /// The UUID of a `CBUUID` (nil for a 16- or 32-bit one).
    init?(_ uuid: CBUUID) { self.init(bytes: [UInt8](uuid.data)) }
  }

  /// Waiters for CoreBluetooth callbacks, one per kind, resumed with a result.
  final class CallbackWaiters: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [String: CheckedContinuation<Result<[UInt8], TransportError>, Never>] = [:]

    /// Runs `start` (which makes the CoreBluetooth call) and waits for `resume(_:with:)`.
    func wait(_ key: String, _ start: @escaping @Sendable () -> Void) async throws(TransportError)
      -> [UInt8]
    {
      let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<[UInt8], TransportError>, Never>) in
        let busy = lock.withLock { () -> Bool in
          if waiting[key] != nil { return true }
          waiting[key] = continuation
          return false
        }
        if busy {
          continuation.resume(
            returning: .failure(TransportError(.closed, "already waiting for \(key)")))
        } else {
          start()
        }
      }
      return try result.get()
    }

    func resume(_ key: String, with result: Result<[UInt8], TransportError>) {
      let continuation = lock.withLock { waiting.removeValue(forKey: key) }
      continuation?.resume(returning: result)
    }

    func failAll(_ error: TransportError) {
      let all = lock.withLock {
        () -> [CheckedContinuation<Result<[UInt8], TransportError>, Never>] in
        defer { waiting = [:] }
        return Array(waiting.values)
      }
      for continuation in all { continuation.resume(returning: .failure(error)) }
    }
  }

  /// A CoreBluetooth failure, its error described in the reason (CoreBluetooth's errors are
  /// not `Sendable` values to keep).
  func linkError(_ what: String, _ error: (any Error)?) -> TransportError {
    TransportError(
      .connectionFailed, error.map { "\(what): \($0.localizedDescription)" } ?? what)
  }

  /// The GATT server side over `CBPeripheralManager`: the mdoc in peripheral server mode, the
  /// mdoc reader in central client mode. It publishes the mode's service (ISO/IEC 18013-5
  /// Tables 11 and 12: State notify + write without response, Client2Server write without
  /// response, Server2Client notify, and in central client mode Ident, read, with its value) and
  /// advertises the service UUID.
  public final class CoreBluetoothPeripheralLink: NSObject, BLELink, CBPeripheralManagerDelegate,
    @unchecked Sendable
  {
    /// The mode, whose characteristic UUIDs are used.
    public let mode: BLEMode
    /// The service UUID from the DeviceEngagement (option 10 or 11).
    public let serviceUUID: BLEUUID
    private var identValue: [UInt8]? { attached?.identValue }
    private let queue = DispatchQueue(label: "CoreBluetoothPeripheralLink")
    private let lock = NSLock()
    private let waiters = CallbackWaiters()
    private var manager: CBPeripheralManager?
    private var characteristics: [BLECharacteristic: CBMutableCharacteristic] = [:]
    private var central: CBCentral?
    private var service: CBMutableService?
    private weak var transport: BLEGATTTransport?

    /// A link publishing the service of `mode` (the transport's) under `serviceUUID`; make the
    /// ``BLEGATTTransport`` over it, then call ``start()`` before ``BLEGATTTransport/open()``.
    public init(mode: BLEMode, serviceUUID: BLEUUID) {
      self.mode = mode
      self.serviceUUID = serviceUUID
      super.init()
    }

    /// Reports to `transport` from now on (``BLELink/attach(_:)``).
    public func attach(_ transport: BLEGATTTransport) {
      lock.withLock { self.transport = transport }
    }

    /// The transport reported to.
    private var attached: BLEGATTTransport? { lock.withLock { transport } }

    /// Waits for Bluetooth to be powered on, publishes the service and starts advertising.
    public func start() async throws(TransportError) {
      _ = try await waiters.wait("state") { [self] in
        queue.async { self.manager = CBPeripheralManager(delegate: self, queue: self.queue) }
      }
      let service = CBMutableService(type: serviceUUID.cbUUID, primary: true)
      var made: [BLECharacteristic: CBMutableCharacteristic] = [:]
      for characteristic in mode.characteristics {
        guard let uuid = mode.uuid(of: characteristic)?.cbUUID else { continue }
        made[characteristic] =
          switch characteristic {
          case .state:
            CBMutableCharacteristic(
              type: uuid, properties: [.notify, .writeWithoutResponse], value: nil,
              permissions: [.writeable])
          case .client2Server:
            CBMutableCharacteristic(
              type: uuid, properties: [.writeWithoutResponse], value: nil, permissions: [.writeable]
            )
          case .server2Client:
            CBMutableCharacteristic(
              type: uuid, properties: [.notify], value: nil, permissions: [.readable])
          case .ident:
            // A static value: CoreBluetooth answers reads itself.
            CBMutableCharacteristic(
              type: uuid, properties: [.read], value: identValue.map { Data($0) },
              permissions: [.readable])
          }
      }
      service.characteristics = mode.characteristics.compactMap { made[$0] }
      lock.withLock {
        characteristics = made
        self.service = service
      }
      _ = try await waiters.wait("add") { [self] in
        queue.async {
          if let service = self.lock.withLock({ self.service }) { self.manager?.add(service) }
        }
      }
      _ = try await waiters.wait("advertise") { [self] in
        queue.async {
          self.manager?.startAdvertising([
            CBAdvertisementDataServiceUUIDsKey: [self.serviceUUID.cbUUID]
          ])
        }
      }
    }

    // MARK: BLELink

    /// Notifies `value` on State or Server2Client to the subscribed central, waiting while
    /// CoreBluetooth's transmit queue is full.
    public func send(_ value: [UInt8], on characteristic: BLECharacteristic)
      async throws(TransportError)
    {
      guard lock.withLock({ characteristics[characteristic] }) != nil else {
        throw TransportError(.protocolViolation, "the service has no \(characteristic)")
      }
      let data = Data(value)
      // Each round registers the waiter, then tries on CoreBluetooth's queue: a value taken
      // resumes it at once ([1]); a full queue leaves it to
      // peripheralManagerIsReady(toUpdateSubscribers:), which runs later on the same queue ([]).
      for _ in 0..<10_000 {
        let outcome = try await waiters.wait("ready") { [self] in
          queue.async {
            guard let target = self.lock.withLock({ self.characteristics[characteristic] }),
              let manager = self.manager
            else {
              self.waiters.resume("ready", with: .failure(linkError("the service is gone", nil)))
              return
            }
            if manager.updateValue(data, for: target, onSubscribedCentrals: nil) {
              self.waiters.resume("ready", with: .success([1]))
            }
          }
        }
        if outcome == [1] { return }
      }
      throw TransportError(.timedOut, "CoreBluetooth's transmit queue stayed full")
    }

    /// Not used by a GATT server.
    public func read(_ characteristic: BLECharacteristic) async throws(TransportError) -> [UInt8] {
      throw TransportError(.protocolViolation, "the GATT server does not read characteristics")
    }

    /// Not used by a GATT server.
    public func subscribe(to characteristic: BLECharacteristic) async throws(TransportError) {
      throw TransportError(.protocolViolation, "the GATT server does not subscribe")
    }

    /// The subscribed central's `maximumUpdateValueLength` (ATT_MTU − 3), 20 before one subscribed.
    public var maximumValueLength: Int {
      lock.withLock { central?.maximumUpdateValueLength ?? 20 }
    }

    /// Stops advertising and removes the service.
    public func disconnect() async {
      queue.async {
        self.manager?.stopAdvertising()
        self.manager?.removeAllServices()
      }
      waiters.failAll(TransportError(.closed, "the link was disconnected"))
    }

    // MARK: CBPeripheralManagerDelegate

    public func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
      switch peripheral.state {
      case .poweredOn: waiters.resume("state", with: .success([]))
      case .unknown, .resetting: break
      default:
        waiters.resume("state", with: .failure(linkError("Bluetooth is not available", nil)))
        attached?.linkDidReceive(.disconnected)
      }
    }

    public func peripheralManager(
      _ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?
    ) {
      waiters.resume(
        "add",
        with: error.map { .failure(linkError("the service was not added", $0)) } ?? .success([]))
    }

    public func peripheralManagerDidStartAdvertising(
      _ peripheral: CBPeripheralManager, error: (any Error)?
    ) {
      waiters.resume(
        "advertise",
        with: error.map { .failure(linkError("advertising did not start", $0)) } ?? .success([]))
    }

    public func peripheralManager(
      _ peripheral: CBPeripheralManager, central: CBCentral,
      didSubscribeTo characteristic: CBCharacteristic
    ) {
      lock.withLock { self.central = central }
    }

    public func peripheralManager(
      _ peripheral: CBPeripheralManager, central: CBCentral,
      didUnsubscribeFrom characteristic: CBCharacteristic
    ) {
      // A peripheral manager is not told of disconnections; the central unsubscribing from
      // Server2Client is the end of the link.
      if BLEUUID(characteristic.uuid).flatMap(mode.characteristic(for:)) == .server2Client {
        attached?.linkDidReceive(.disconnected)
      }
    }

    public func peripheralManager(
      _ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]
    ) {
      for request in requests {
        guard
          let characteristic = BLEUUID(request.characteristic.uuid).flatMap(
            mode.characteristic(for:))
        else { continue }
        attached?.linkDidReceive(.value([UInt8](request.value ?? Data()), on: characteristic))
      }
      if let first = requests.first { peripheral.respond(to: first, withResult: .success) }
    }

    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
      waiters.resume("ready", with: .success([]))
    }
  }

  /// The GATT client side over `CBCentralManager` and `CBPeripheral`: the mdoc reader in
  /// peripheral server mode, the mdoc in central client mode. It scans for the service UUID,
  /// connects and discovers the mode's characteristics; ``BLEGATTTransport/open()`` then reads
  /// Ident, subscribes and writes Start through it.
  public final class CoreBluetoothCentralLink: NSObject, BLELink, CBCentralManagerDelegate,
    CBPeripheralDelegate, @unchecked Sendable
  {
    /// The mode, whose characteristic UUIDs are used.
    public let mode: BLEMode
    /// The service UUID from the DeviceEngagement (option 10 or 11).
    public let serviceUUID: BLEUUID
    private let queue = DispatchQueue(label: "CoreBluetoothCentralLink")
    private let lock = NSLock()
    private let waiters = CallbackWaiters()
    private var manager: CBCentralManager?
    private var peripheral: CBPeripheral?
    private var characteristics: [BLECharacteristic: CBCharacteristic] = [:]
    private weak var transport: BLEGATTTransport?

    /// A link for the service of `mode` (the transport's) under `serviceUUID`; make the
    /// ``BLEGATTTransport`` over it, then call ``connect()`` before ``BLEGATTTransport/open()``.
    public init(mode: BLEMode, serviceUUID: BLEUUID) {
      self.mode = mode
      self.serviceUUID = serviceUUID
      super.init()
    }

    /// Reports to `transport` from now on (``BLELink/attach(_:)``).
    public func attach(_ transport: BLEGATTTransport) {
      lock.withLock { self.transport = transport }
    }

    /// The transport reported to.
    private var attached: BLEGATTTransport? { lock.withLock { transport } }

    /// Waits for Bluetooth, scans for the service, connects, and discovers its characteristics.
    public func connect() async throws(TransportError) {
      _ = try await waiters.wait("state") { [self] in
        queue.async { self.manager = CBCentralManager(delegate: self, queue: self.queue) }
      }
      _ = try await waiters.wait("connect") { [self] in
        queue.async {
          self.manager?.scanForPeripherals(withServices: [self.serviceUUID.cbUUID], options: nil)
        }
      }
      _ = try await waiters.wait("services") { [self] in
        queue.async {
          self.peripheral?.discoverServices([self.serviceUUID.cbUUID])
        }
      }
      _ = try await waiters.wait("characteristics") { [self] in
        queue.async {
          guard
            let service = self.peripheral?.services?.first(where: {
              BLEUUID($0.uuid) == self.serviceUUID
            })
          else {
            self.waiters.resume(
              "characteristics", with: .failure(linkError("the service was not found", nil)))
            return
          }
          self.peripheral?.discoverCharacteristics(
            self.mode.characteristics.compactMap { self.mode.uuid(of: $0)?.cbUUID }, for: service)
        }
      }
    }

    private func has(_ which: BLECharacteristic) throws(TransportError) {
      guard lock.withLock({ characteristics[which] }) != nil else {
        throw TransportError(.protocolViolation, "the peer's service has no \(which)")
      }
    }

    /// Runs `body` on CoreBluetooth's queue with the peripheral and the characteristic, or
    /// resumes `key` with a failure when the connection is gone.
    private func onQueue(
      _ key: String, _ which: BLECharacteristic,
      _ body: @escaping @Sendable (CBPeripheral, CBCharacteristic) -> Void
    ) -> @Sendable () -> Void {
      { [self] in
        queue.async {
          let found = self.lock.withLock { () -> (CBPeripheral, CBCharacteristic)? in
            guard let peripheral = self.peripheral, let target = self.characteristics[which]
            else { return nil }
            return (peripheral, target)
          }
          guard let found else {
            self.waiters.resume(key, with: .failure(linkError("the connection is gone", nil)))
            return
          }
          body(found.0, found.1)
        }
      }
    }

    // MARK: BLELink

    /// Writes `value` without response, waiting while CoreBluetooth cannot take more (the
    /// waiter is registered before trying, and peripheralIsReady(toSendWriteWithoutResponse:)
    /// runs later on the same queue).
    public func send(_ value: [UInt8], on which: BLECharacteristic) async throws(TransportError) {
      try has(which)
      let data = Data(value)
      for _ in 0..<10_000 {
        let outcome = try await waiters.wait(
          "ready",
          onQueue("ready", which) { [self] peripheral, target in
            guard peripheral.canSendWriteWithoutResponse else { return }
            peripheral.writeValue(data, for: target, type: .withoutResponse)
            waiters.resume("ready", with: .success([1]))
          })
        if outcome == [1] { return }
      }
      throw TransportError(.timedOut, "CoreBluetooth could not take the write")
    }

    /// Reads the characteristic's value (the Ident).
    public func read(_ which: BLECharacteristic) async throws(TransportError) -> [UInt8] {
      try has(which)
      return try await waiters.wait(
        "read", onQueue("read", which) { peripheral, target in peripheral.readValue(for: target) })
    }

    /// Enables notifications and waits for the server's confirmation.
    public func subscribe(to which: BLECharacteristic) async throws(TransportError) {
      try has(which)
      _ = try await waiters.wait(
        "notify",
        onQueue("notify", which) { peripheral, target in
          peripheral.setNotifyValue(true, for: target)
        }
      )
    }

    /// `maximumWriteValueLength(for: .withoutResponse)`: ATT_MTU − 3.
    public var maximumValueLength: Int {
      lock.withLock { peripheral?.maximumWriteValueLength(for: .withoutResponse) ?? 20 }
    }

    /// Cancels the connection.
    public func disconnect() async {
      queue.async {
        self.manager?.stopScan()
        if let peripheral = self.lock.withLock({ self.peripheral }) {
          self.manager?.cancelPeripheralConnection(peripheral)
        }
      }
      waiters.failAll(TransportError(.closed, "the link was disconnected"))
    }

    // MARK: CBCentralManagerDelegate

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
      switch central.state {
      case .poweredOn: waiters.resume("state", with: .success([]))
      case .unknown, .resetting: break
      default:
        waiters.resume("state", with: .failure(linkError("Bluetooth is not available", nil)))
        attached?.linkDidReceive(.disconnected)
      }
    }

    public func centralManager(
      _ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
      advertisementData: [String: Any], rssi: NSNumber
    ) {
      central.stopScan()
      lock.withLock { self.peripheral = peripheral }
      peripheral.delegate = self
      central.connect(peripheral, options: nil)
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
      waiters.resume("connect", with: .success([]))
    }

    public func centralManager(
      _ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?
    ) {
      waiters.resume("connect", with: .failure(linkError("the connection failed", error)))
    }

    public func centralManager(
      _ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
      error: (any Error)?
    ) {
      waiters.failAll(linkError("the peripheral disconnected", error))
      attached?.linkDidReceive(.disconnected)
    }

    // MARK: CBPeripheralDelegate

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
      waiters.resume(
        "services",
        with: error.map { .failure(linkError("service discovery failed", $0)) } ?? .success([]))
    }

    public func peripheral(
      _ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService,
      error: (any Error)?
    ) {
      var found: [BLECharacteristic: CBCharacteristic] = [:]
      for characteristic in service.characteristics ?? [] {
        if let which = BLEUUID(characteristic.uuid).flatMap(mode.characteristic(for:)) {
          found[which] = characteristic
        }
      }
      lock.withLock { characteristics = found }
      let complete = mode.characteristics.allSatisfy { found[$0] != nil }
      waiters.resume(
        "characteristics",
        with: error == nil && complete
          ? .success([]) : .failure(linkError("the service lacks a characteristic", error)))
    }

    public func peripheral(
      _ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic,
      error: (any Error)?
    ) {
      guard let which = BLEUUID(characteristic.uuid).flatMap(mode.characteristic(for:)) else {
        return
      }
      let value = [UInt8](characteristic.value ?? Data())
      if which == .ident {
        waiters.resume(
          "read",
          with: error.map { .failure(linkError("reading Ident failed", $0)) } ?? .success(value))
      } else if error == nil {
        attached?.linkDidReceive(.value(value, on: which))
      }
    }

    public func peripheral(
      _ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic,
      error: (any Error)?
    ) {
      waiters.resume(
        "notify", with: error.map { .failure(linkError("subscribing failed", $0)) } ?? .success([]))
    }

    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
      waiters.resume("ready", with: .success([]))
    }
  }
#endif
