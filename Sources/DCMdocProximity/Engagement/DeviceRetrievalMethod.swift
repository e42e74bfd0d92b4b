public import DCCBOR

/// `DeviceRetrievalMethod = [type: uint, version: uint, RetrievalOptions]` (ISO 18013-5
/// §8.2.1.1): how a reader reaches the mdoc after engagement.
public enum DeviceRetrievalMethod: Sendable, Hashable {
  /// Type 2, version 1: Bluetooth Low Energy.
  case ble(BLEOptions)
  /// Type 1, version 1: NFC.
  case nfc(NFCOptions)
  /// Any other type or version (Wi-Fi Aware is type 3), kept as received and not interpreted.
  case other(type: UInt64, version: UInt64, options: CBOR)

  /// The type numbers of §8.2.1.1.
  package enum MethodType {
    /// NFC.
    package static let nfc: UInt64 = 1
    /// Bluetooth Low Energy.
    package static let ble: UInt64 = 2
    /// Wi-Fi Aware.
    package static let wifiAware: UInt64 = 3
  }

  /// The version of the BLE and NFC options this library reads and writes.
  package static let version: UInt64 = 1

  /// The method as CBOR.
  package var cbor: CBOR {
    switch self {
    case .ble(let options): [.unsigned(MethodType.ble), .unsigned(Self.version), options.cbor]
    case .nfc(let options): [.unsigned(MethodType.nfc), .unsigned(Self.version), options.cbor]
    case .other(let type, let version, let options):
      [.unsigned(type), .unsigned(version), options]
    }
  }

  init(cbor: CBOR, index: Int) throws(MdocProximityError) {
    let name = "DeviceRetrievalMethods[\(index)]"
    guard let members = cbor.array, members.count == 3 else {
      throw malformed("\(name) must be an array [type, version, options]")
    }
    guard let type = members[0].uint64, let version = members[1].uint64 else {
      throw malformed("\(name): type and version must be unsigned integers")
    }
    switch (type, version) {
    case (MethodType.ble, Self.version):
      self = .ble(try BLEOptions(cbor: members[2], name: "\(name).BleOptions"))
    case (MethodType.nfc, Self.version):
      self = .nfc(try NFCOptions(cbor: members[2], name: "\(name).NfcOptions"))
    default:
      guard members[2].map != nil else {
        throw malformed("\(name): RetrievalOptions must be a map")
      }
      self = .other(type: type, version: version, options: members[2])
    }
  }
}

/// `BleOptions` (ISO 18013-5 §8.2.1.1): which BLE modes the mdoc supports, the service UUID of
/// each, and optionally its device address.
///
/// ```
/// BleOptions = {
///   0: bool,      ; mdoc peripheral server mode supported
///   1: bool,      ; mdoc central client mode supported
///   ? 10: bstr,   ; UUID for mdoc peripheral server mode
///   ? 11: bstr,   ; UUID for mdoc central client mode
///   ? 20: bstr,   ; mdoc BLE device address (peripheral server mode)
///   * int => any
/// }
/// ```
public struct BLEOptions: Sendable, Hashable {
  enum Keys {
    static let peripheralServerMode = 0
    static let centralClientMode = 1
    static let peripheralServerUUID = 10
    static let centralClientUUID = 11
    static let peripheralServerDeviceAddress = 20
  }

  /// Whether mdoc peripheral server mode is supported.
  public let supportsPeripheralServerMode: Bool
  /// Whether mdoc central client mode is supported.
  public let supportsCentralClientMode: Bool
  /// The service UUID for peripheral server mode, 16 bytes in network (big-endian) order.
  public let peripheralServerUUID: [UInt8]?
  /// The service UUID for central client mode, 16 bytes in network order.
  public let centralClientUUID: [UInt8]?
  /// The mdoc's BLE device address for peripheral server mode, 6 bytes.
  package let peripheralServerDeviceAddress: [UInt8]?

  /// Options with the given modes.
  ///
  /// - Throws: `malformed` when no mode is supported, a supported mode has no UUID (§8.2.1.1: the
  ///   UUID of each supported mode is present), a UUID is not 16 bytes or the address not 6.
  public init(
    peripheralServerUUID: [UInt8]? = nil, centralClientUUID: [UInt8]? = nil,
    peripheralServerDeviceAddress: [UInt8]? = nil
  ) throws(MdocProximityError) {
    try self.init(
      supportsPeripheralServerMode: peripheralServerUUID != nil,
      supportsCentralClientMode: centralClientUUID != nil,
      peripheralServerUUID: peripheralServerUUID, centralClientUUID: centralClientUUID,
      peripheralServerDeviceAddress: peripheralServerDeviceAddress, name: "BleOptions")
  }

  private init(
    supportsPeripheralServerMode: Bool, supportsCentralClientMode: Bool,
    peripheralServerUUID: [UInt8]?, centralClientUUID: [UInt8]?,
    peripheralServerDeviceAddress: [UInt8]?, name: String
  ) throws(MdocProximityError) {
    guard supportsPeripheralServerMode || supportsCentralClientMode else {
      throw malformed("\(name) supports neither peripheral server nor central client mode")
    }
    if supportsPeripheralServerMode, peripheralServerUUID == nil {
      throw malformed("\(name): peripheral server mode is supported but 10 (its UUID) is missing")
    }
    if supportsCentralClientMode, centralClientUUID == nil {
      throw malformed("\(name): central client mode is supported but 11 (its UUID) is missing")
    }
    for uuid in [peripheralServerUUID, centralClientUUID] {
      if let uuid, uuid.count != 16 {
        throw malformed("\(name): a UUID must be 16 bytes, got \(uuid.count)")
      }
    }
    if let address = peripheralServerDeviceAddress, address.count != 6 {
      throw malformed("\(name): 20 (device address) must be 6 bytes, got \(address.count)")
    }
    self.supportsPeripheralServerMode = supportsPeripheralServerMode
    self.supportsCentralClientMode = supportsCentralClientMode
    self.peripheralServerUUID = peripheralServerUUID
    self.centralClientUUID = centralClientUUID
    self.peripheralServerDeviceAddress = peripheralServerDeviceAddress
  }

  init(cbor: CBOR, name: String) throws(MdocProximityError) {
    guard let map = cbor.map else { throw malformed("\(name) must be a map") }
    for key in map.keys where key.int == nil {
      throw malformed("\(name): key \(key.diagnosticNotation) is not an integer")
    }
    func flag(_ key: Int) throws(MdocProximityError) -> Bool {
      guard let value = map[key]?.bool else {
        throw malformed("\(name): \(key) must be present and a boolean")
      }
      return value
    }
    func bytes(_ key: Int) throws(MdocProximityError) -> [UInt8]? {
      guard let item = map[key] else { return nil }
      guard let value = item.bytes else {
        throw malformed("\(name): \(key) must be a byte string, got \(item.kindName)")
      }
      return value
    }
    try self.init(
      supportsPeripheralServerMode: flag(Keys.peripheralServerMode),
      supportsCentralClientMode: flag(Keys.centralClientMode),
      peripheralServerUUID: bytes(Keys.peripheralServerUUID),
      centralClientUUID: bytes(Keys.centralClientUUID),
      peripheralServerDeviceAddress: bytes(Keys.peripheralServerDeviceAddress), name: name)
  }

  /// The options as CBOR, keys in ascending order.
  package var cbor: CBOR {
    var map: CBORMap = [
      CBOR(Keys.peripheralServerMode): .boolean(supportsPeripheralServerMode),
      CBOR(Keys.centralClientMode): .boolean(supportsCentralClientMode),
    ]
    if let peripheralServerUUID {
      map[key: CBOR(Keys.peripheralServerUUID)] = .byteString(peripheralServerUUID)
    }
    if let centralClientUUID {
      map[key: CBOR(Keys.centralClientUUID)] = .byteString(centralClientUUID)
    }
    if let peripheralServerDeviceAddress {
      map[key: CBOR(Keys.peripheralServerDeviceAddress)] = .byteString(
        peripheralServerDeviceAddress)
    }
    return .map(map)
  }
}

/// `NfcOptions = {0: uint, 1: uint}`: the largest command and response data fields the mdoc
/// handles (ISO 18013-5 §8.2.1.1).
public struct NFCOptions: Sendable, Hashable {
  /// The maximum command data field length.
  public let maxCommandDataLength: UInt64
  /// The maximum response data field length.
  public let maxResponseDataLength: UInt64

  /// Options with the two lengths.
  public init(maxCommandDataLength: UInt64, maxResponseDataLength: UInt64) {
    self.maxCommandDataLength = maxCommandDataLength
    self.maxResponseDataLength = maxResponseDataLength
  }

  init(cbor: CBOR, name: String) throws(MdocProximityError) {
    guard let map = cbor.map, let command = map[0]?.uint64, let response = map[1]?.uint64 else {
      throw malformed("\(name) must be a map with unsigned integers at 0 and 1")
    }
    self.init(maxCommandDataLength: command, maxResponseDataLength: response)
  }

  /// The options as CBOR.
  package var cbor: CBOR {
    [0: .unsigned(maxCommandDataLength), 1: .unsigned(maxResponseDataLength)]
  }
}
