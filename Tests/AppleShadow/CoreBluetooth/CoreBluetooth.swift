// swift-format-ignore-file: AlwaysUseLowerCamelCase

public import Dispatch
// Shadow of Apple's CoreBluetooth (test only; see Tests/AppleShadow/README.md): the central and
// peripheral roles ProximityTransport's CoreBluetoothLinks use, declared as
// https://developer.apple.com/documentation/corebluetooth documents them.
//
// Judgement calls: the classes are `NSObject` subclasses Apple does not mark `Sendable`, so they
// are non-Sendable (strictest). Objective-C `optional` delegate methods cannot be declared on
// Linux (no `@objc`): they are requirements with empty default implementations, which a
// conforming class's same-signature methods satisfy as on Apple platforms.
public import Foundation

// MARK: UUIDs and attributes

/// https://developer.apple.com/documentation/corebluetooth/cbuuid
open class CBUUID: NSObject {
  /// https://developer.apple.com/documentation/corebluetooth/cbuuid/data
  public let data: Data
  /// https://developer.apple.com/documentation/corebluetooth/cbuuid/init(data:)
  public init(data: Data) { self.data = data }
  /// https://developer.apple.com/documentation/corebluetooth/cbuuid/init(nsuuid:)
  public convenience init(nsuuid: UUID) {
    self.init(data: withUnsafeBytes(of: nsuuid.uuid) { Data($0) })
  }
  /// https://developer.apple.com/documentation/corebluetooth/cbuuid/uuidstring
  open var uuidString: String { data.map { String(format: "%02X", $0) }.joined() }
  open override func isEqual(_ object: Any?) -> Bool { (object as? CBUUID)?.data == data }
  open override var hash: Int { data.hashValue }
}

/// https://developer.apple.com/documentation/corebluetooth/cbattribute
open class CBAttribute: NSObject {
  /// https://developer.apple.com/documentation/corebluetooth/cbattribute/uuid
  open var uuid: CBUUID { attributeUUID }
  let attributeUUID: CBUUID
  init(uuid: CBUUID) { attributeUUID = uuid }
}

/// https://developer.apple.com/documentation/corebluetooth/cbservice
open class CBService: CBAttribute {
  /// https://developer.apple.com/documentation/corebluetooth/cbservice/isprimary
  open var isPrimary: Bool { primary }
  /// https://developer.apple.com/documentation/corebluetooth/cbservice/characteristics
  open var characteristics: [CBCharacteristic]? { storedCharacteristics }
  var storedCharacteristics: [CBCharacteristic]?
  let primary: Bool
  init(uuid: CBUUID, primary: Bool) {
    self.primary = primary
    super.init(uuid: uuid)
  }
}

/// https://developer.apple.com/documentation/corebluetooth/cbmutableservice
open class CBMutableService: CBService {
  /// https://developer.apple.com/documentation/corebluetooth/cbmutableservice/init(type:primary:)
  public init(type UUID: CBUUID, primary isPrimary: Bool) {
    super.init(uuid: UUID, primary: isPrimary)
  }
  /// https://developer.apple.com/documentation/corebluetooth/cbmutableservice/characteristics
  open override var characteristics: [CBCharacteristic]? {
    get { storedCharacteristics }
    set { storedCharacteristics = newValue }
  }
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties
public struct CBCharacteristicProperties: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)
  public static let read = CBCharacteristicProperties(rawValue: 0x02)
  public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)
  public static let write = CBCharacteristicProperties(rawValue: 0x08)
  public static let notify = CBCharacteristicProperties(rawValue: 0x10)
  public static let indicate = CBCharacteristicProperties(rawValue: 0x20)
  public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)
  public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)
}

/// https://developer.apple.com/documentation/corebluetooth/cbattributepermissions
public struct CBAttributePermissions: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let readable = CBAttributePermissions(rawValue: 0x01)
  public static let writeable = CBAttributePermissions(rawValue: 0x02)
  public static let readEncryptionRequired = CBAttributePermissions(rawValue: 0x04)
  public static let writeEncryptionRequired = CBAttributePermissions(rawValue: 0x08)
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic
open class CBCharacteristic: CBAttribute {
  /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/properties
  open var properties: CBCharacteristicProperties { storedProperties }
  /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/value
  open var value: Data? { storedValue }
  /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/service
  open weak var service: CBService?
  /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/isnotifying
  open var isNotifying: Bool { false }
  var storedProperties: CBCharacteristicProperties
  var storedValue: Data?
  init(uuid: CBUUID, properties: CBCharacteristicProperties, value: Data?) {
    storedProperties = properties
    storedValue = value
    super.init(uuid: uuid)
  }
}

/// https://developer.apple.com/documentation/corebluetooth/cbmutablecharacteristic
open class CBMutableCharacteristic: CBCharacteristic {
  /// https://developer.apple.com/documentation/corebluetooth/cbmutablecharacteristic/permissions
  open var permissions: CBAttributePermissions
  /// https://developer.apple.com/documentation/corebluetooth/cbmutablecharacteristic/init(type:properties:value:permissions:)
  public init(
    type UUID: CBUUID, properties: CBCharacteristicProperties, value: Data?,
    permissions: CBAttributePermissions
  ) {
    self.permissions = permissions
    super.init(uuid: UUID, properties: properties, value: value)
  }
  /// https://developer.apple.com/documentation/corebluetooth/cbmutablecharacteristic/value
  open override var value: Data? {
    get { storedValue }
    set { storedValue = newValue }
  }
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicwritetype
public enum CBCharacteristicWriteType: Int, Sendable {
  case withResponse = 0
  case withoutResponse = 1
}

// MARK: Managers and peers

/// https://developer.apple.com/documentation/corebluetooth/cbmanagerstate
public enum CBManagerState: Int, Sendable {
  case unknown = 0
  case resetting = 1
  case unsupported = 2
  case unauthorized = 3
  case poweredOff = 4
  case poweredOn = 5
}

/// https://developer.apple.com/documentation/corebluetooth/cbmanager
open class CBManager: NSObject {
  /// https://developer.apple.com/documentation/corebluetooth/cbmanager/state
  open var state: CBManagerState { .unknown }
}

/// https://developer.apple.com/documentation/corebluetooth/cbpeer
open class CBPeer: NSObject {
  /// https://developer.apple.com/documentation/corebluetooth/cbpeer/identifier
  open var identifier: UUID { storedIdentifier }
  let storedIdentifier = UUID()
}

/// https://developer.apple.com/documentation/corebluetooth/cbcentral
open class CBCentral: CBPeer {
  /// https://developer.apple.com/documentation/corebluetooth/cbcentral/maximumupdatevaluelength
  open var maximumUpdateValueLength: Int { 20 }
}

/// https://developer.apple.com/documentation/corebluetooth/cbattrequest
open class CBATTRequest: NSObject {
  /// https://developer.apple.com/documentation/corebluetooth/cbattrequest/central
  open var central: CBCentral { storedCentral }
  /// https://developer.apple.com/documentation/corebluetooth/cbattrequest/characteristic
  open var characteristic: CBCharacteristic { storedCharacteristic }
  /// https://developer.apple.com/documentation/corebluetooth/cbattrequest/offset
  open var offset: Int { 0 }
  /// https://developer.apple.com/documentation/corebluetooth/cbattrequest/value
  open var value: Data?
  let storedCentral: CBCentral
  let storedCharacteristic: CBCharacteristic
  init(central: CBCentral, characteristic: CBCharacteristic, value: Data?) {
    storedCentral = central
    storedCharacteristic = characteristic
    self.value = value
  }
}

/// https://developer.apple.com/documentation/corebluetooth/cbatterror
public struct CBATTError: Error, Sendable {
  /// https://developer.apple.com/documentation/corebluetooth/cbatterror/code
  public enum Code: Int, Sendable {
    case success = 0
    case invalidHandle = 1
    case readNotPermitted = 2
    case writeNotPermitted = 3
    case invalidPdu = 4
    case insufficientAuthentication = 5
    case requestNotSupported = 6
    case invalidOffset = 7
    case insufficientAuthorization = 8
    case prepareQueueFull = 9
    case attributeNotFound = 10
    case attributeNotLong = 11
    case insufficientEncryptionKeySize = 12
    case invalidAttributeValueLength = 13
    case unlikelyError = 14
    case insufficientEncryption = 15
    case unsupportedGroupType = 16
    case insufficientResources = 17
  }
  public let code: Code
}

/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdataserviceuuidskey
public let CBAdvertisementDataServiceUUIDsKey: String = "kCBAdvDataServiceUUIDs"

/// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanagerdelegate
public protocol CBPeripheralManagerDelegate: NSObjectProtocol {
  func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager)
  func peripheralManager(
    _ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?)
  func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?)
  func peripheralManager(
    _ peripheral: CBPeripheralManager, central: CBCentral,
    didSubscribeTo characteristic: CBCharacteristic)
  func peripheralManager(
    _ peripheral: CBPeripheralManager, central: CBCentral,
    didUnsubscribeFrom characteristic: CBCharacteristic)
  func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest)
  func peripheralManager(
    _ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest])
  func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager)
}

/// The optional methods (Objective-C `@optional`).
extension CBPeripheralManagerDelegate {
  public func peripheralManager(
    _ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?
  ) {}
  public func peripheralManagerDidStartAdvertising(
    _ peripheral: CBPeripheralManager, error: (any Error)?
  ) {}
  public func peripheralManager(
    _ peripheral: CBPeripheralManager, central: CBCentral,
    didSubscribeTo characteristic: CBCharacteristic
  ) {}
  public func peripheralManager(
    _ peripheral: CBPeripheralManager, central: CBCentral,
    didUnsubscribeFrom characteristic: CBCharacteristic
  ) {}
  public func peripheralManager(
    _ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest
  ) {}
  public func peripheralManager(
    _ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]
  ) {}
  public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {}
}

/// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager
open class CBPeripheralManager: CBManager {
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/delegate
  open weak var delegate: (any CBPeripheralManagerDelegate)?
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/init(delegate:queue:)
  public init(delegate: (any CBPeripheralManagerDelegate)?, queue: DispatchQueue?) {
    self.delegate = delegate
  }
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/add(_:)
  open func add(_ service: CBMutableService) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/removeallservices()
  open func removeAllServices() {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/startadvertising(_:)
  open func startAdvertising(_ advertisementData: [String: Any]?) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/stopadvertising()
  open func stopAdvertising() {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/updatevalue(_:for:onsubscribedcentrals:)
  open func updateValue(
    _ value: Data, for characteristic: CBMutableCharacteristic,
    onSubscribedCentrals centrals: [CBCentral]?
  ) -> Bool { false }
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheralmanager/respond(to:withresult:)
  open func respond(to request: CBATTRequest, withResult result: CBATTError.Code) {}
}

/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanagerdelegate
public protocol CBCentralManagerDelegate: NSObjectProtocol {
  func centralManagerDidUpdateState(_ central: CBCentralManager)
  func centralManager(
    _ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
    advertisementData: [String: Any], rssi RSSI: NSNumber)
  func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral)
  func centralManager(
    _ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?)
  func centralManager(
    _ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
    error: (any Error)?)
}

/// The optional methods (Objective-C `@optional`).
extension CBCentralManagerDelegate {
  public func centralManager(
    _ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
    advertisementData: [String: Any], rssi RSSI: NSNumber
  ) {}
  public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {}
  public func centralManager(
    _ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?
  ) {}
  public func centralManager(
    _ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
    error: (any Error)?
  ) {}
}

/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager
open class CBCentralManager: CBManager {
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/delegate
  open weak var delegate: (any CBCentralManagerDelegate)?
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/init(delegate:queue:)
  public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?) {
    self.delegate = delegate
  }
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/scanforperipherals(withservices:options:)
  open func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil)
  {}
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/stopscan()
  open func stopScan() {}
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/connect(_:options:)
  open func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/cancelperipheralconnection(_:)
  open func cancelPeripheralConnection(_ peripheral: CBPeripheral) {}
}

/// https://developer.apple.com/documentation/corebluetooth/cbperipheraldelegate
public protocol CBPeripheralDelegate: NSObjectProtocol {
  func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?)
  func peripheral(
    _ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService,
    error: (any Error)?)
  func peripheral(
    _ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic,
    error: (any Error)?)
  func peripheral(
    _ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic,
    error: (any Error)?)
  func peripheral(
    _ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic,
    error: (any Error)?)
  func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral)
}

/// The optional methods (Objective-C `@optional`).
extension CBPeripheralDelegate {
  public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {}
  public func peripheral(
    _ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService,
    error: (any Error)?
  ) {}
  public func peripheral(
    _ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic,
    error: (any Error)?
  ) {}
  public func peripheral(
    _ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic,
    error: (any Error)?
  ) {}
  public func peripheral(
    _ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic,
    error: (any Error)?
  ) {}
  public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {}
}

/// https://developer.apple.com/documentation/corebluetooth/cbperipheral
open class CBPeripheral: CBPeer {
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/delegate
  open weak var delegate: (any CBPeripheralDelegate)?
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/services
  open var services: [CBService]? { nil }
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/cansendwritewithoutresponse
  open var canSendWriteWithoutResponse: Bool { false }
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/discoverservices(_:)
  open func discoverServices(_ serviceUUIDs: [CBUUID]?) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/discovercharacteristics(_:for:)
  open func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: CBService) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/readvalue(for:)-*
  open func readValue(for characteristic: CBCharacteristic) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/writevalue(_:for:type:)
  open func writeValue(
    _ data: Data, for characteristic: CBCharacteristic, type: CBCharacteristicWriteType
  ) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/setnotifyvalue(_:for:)
  open func setNotifyValue(_ enabled: Bool, for characteristic: CBCharacteristic) {}
  /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/maximumwritevaluelength(for:)
  open func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int { 20 }
}
