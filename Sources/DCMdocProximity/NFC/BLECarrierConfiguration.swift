import DCErrors

/// The BLE carrier configuration record (`application/vnd.bluetooth.le.oob`, Bluetooth Secure
/// Simple Pairing Using NFC 1.2 §3; ISO 18013-5 §8.2.2.1): a sequence of AD structures
/// (Bluetooth Core v5 Vol 3 Part C §11), `[length][AD type][data]`, kept in order.
public struct BLECarrierConfiguration: Sendable, Hashable {
  /// The media type of the record.
  package static let mediaType = "application/vnd.bluetooth.le.oob"

  /// One AD structure.
  package struct ADStructure: Sendable, Hashable {
    /// The AD type (Bluetooth Assigned Numbers).
    package let type: UInt8
    /// The data, at most 254 bytes.
    package let data: [UInt8]

    /// An AD structure.
    package init(type: UInt8, data: [UInt8]) throws(MdocProximityError) {
      guard data.count <= 254 else {
        throw ndefError("an AD structure holds at most 254 bytes of data")
      }
      self.type = type
      self.data = data
    }
  }

  /// The AD types read here (Bluetooth Assigned Numbers, "Common Data Types").
  package enum ADType {
    /// Complete List of 128-bit Service Class UUIDs.
    package static let completeServiceUUIDs128: UInt8 = 0x07
    /// LE Bluetooth Device Address (6 bytes little-endian, then the address type).
    package static let leDeviceAddress: UInt8 = 0x1B
    /// LE Role.
    package static let leRole: UInt8 = 0x1C
  }

  /// The LE Role values (Core Specification Supplement §1.17).
  public enum LERole: UInt8, Sendable, Hashable {
    /// Only the peripheral role: the mdoc in peripheral server mode.
    case peripheralOnly = 0
    /// Only the central role: the mdoc in central client mode.
    case centralOnly = 1
    /// Both roles, peripheral preferred.
    case peripheralPreferred = 2
    /// Both roles, central preferred.
    case centralPreferred = 3
  }

  /// The AD structures, in order.
  package let structures: [ADStructure]

  /// A configuration from AD structures.
  package init(structures: [ADStructure]) {
    self.structures = structures
  }

  /// The configuration an mdoc hands over for ISO 18013-5: its device address when given, its LE
  /// role, and the service UUID (written little-endian, as AD structures carry UUIDs).
  public init(leRole: LERole, serviceUUID: [UInt8]?, deviceAddress: [UInt8]? = nil)
    throws(MdocProximityError)
  {
    var structures: [ADStructure] = []
    if let deviceAddress {
      guard deviceAddress.count == 7 else {
        throw ndefError("an LE device address is 6 bytes and an address type byte")
      }
      structures.append(try ADStructure(type: ADType.leDeviceAddress, data: deviceAddress))
    }
    structures.append(try ADStructure(type: ADType.leRole, data: [leRole.rawValue]))
    if let serviceUUID {
      guard serviceUUID.count == 16 else { throw ndefError("a 128-bit UUID is 16 bytes") }
      structures.append(
        try ADStructure(type: ADType.completeServiceUUIDs128, data: serviceUUID.reversed()))
    }
    self.init(structures: structures)
  }

  /// Reads the record's payload; every structure must fit, and none may be empty.
  package init(payload: [UInt8]) throws(MdocProximityError) {
    var reader = ByteReader(payload, "BLE OOB data")
    var structures: [ADStructure] = []
    while !reader.isAtEnd {
      let length = Int(try reader.byte())
      guard length > 0 else { throw ndefError("an AD structure of length 0 in the BLE OOB data") }
      let type = try reader.byte()
      structures.append(try ADStructure(type: type, data: reader.bytes(length - 1)))
    }
    self.init(structures: structures)
  }

  /// The record's payload.
  package var payload: [UInt8] {
    structures.flatMap { [UInt8($0.data.count + 1), $0.type] + $0.data }
  }

  /// The carrier configuration record with this id.
  package func record(id: String) throws(MdocProximityError) -> NDEFRecord {
    try NDEFRecord(.media, type: Self.mediaType, id: id, payload: payload)
  }

  /// The LE Role, when present and defined.
  public var leRole: LERole? {
    structures.first { $0.type == ADType.leRole && $0.data.count == 1 }.flatMap {
      LERole(rawValue: $0.data[0])
    }
  }

  /// The 128-bit service UUIDs, in network (big-endian) order.
  public var serviceUUIDs: [[UInt8]] {
    structures.filter { $0.type == ADType.completeServiceUUIDs128 && $0.data.count % 16 == 0 }
      .flatMap { structure in
        stride(from: 0, to: structure.data.count, by: 16).map {
          Array(structure.data[$0..<($0 + 16)].reversed())
        }
      }
  }

  /// The LE device address structure's 7 bytes (address little-endian, then its type), if any.
  package var deviceAddress: [UInt8]? {
    structures.first { $0.type == ADType.leDeviceAddress && $0.data.count == 7 }?.data
  }
}
