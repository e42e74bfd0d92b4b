package import DCCrypto

/// A 128-bit Bluetooth UUID, as the 16 bytes of its big-endian form.
public struct BLEUUID: Hashable, Sendable, CustomStringConvertible {
  /// The 16 bytes, most significant first (the order of the canonical text form).
  public let bytes: [UInt8]

  /// A UUID from its 16 bytes; nil for any other count.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    self.bytes = bytes
  }

  /// A UUID from its canonical text form (`8-4-4-4-12` hex digits, either case); nil otherwise.
  public init?(_ text: String) {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
    var bytes: [UInt8] = []
    let digits = Array(groups.joined().utf8)
    var index = 0
    while index < digits.count {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    self.bytes = bytes
  }

  /// The canonical text form in upper case, as ISO/IEC 18013-5 Tables 11 and 12 print them.
  public var description: String {
    let hex = bytes.map { byte in
      let digits = Array("0123456789ABCDEF")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
    return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Which device is the GATT server (ISO/IEC 18013-5 §8.3.3.1.1.1, the BLE options of the
/// DeviceEngagement: `0` peripheral server mode supported, `1` central client mode supported).
public enum BLEMode: Sendable, Hashable {
  /// mdoc peripheral server mode: the mdoc advertises and is the GATT server (Table 11); the
  /// service UUID is the DeviceEngagement's "peripheral server mode UUID" (option `10`).
  case mdocPeripheralServer
  /// mdoc central client mode: the mdoc reader advertises and is the GATT server (Table 12, with
  /// the Ident characteristic); the service UUID is the "central client mode UUID" (option `11`).
  case mdocCentralClient

  /// Whether `side` is the GATT server in this mode.
  package func isGATTServer(_ side: BLESide) -> Bool {
    switch (self, side) {
    case (.mdocPeripheralServer, .mdoc), (.mdocCentralClient, .mdocReader): true
    default: false
    }
  }

  /// The characteristics of the mode's service: State, Client2Server, Server2Client, and in
  /// central client mode Ident.
  package var characteristics: [BLECharacteristic] {
    switch self {
    case .mdocPeripheralServer: [.state, .client2Server, .server2Client]
    case .mdocCentralClient: [.state, .client2Server, .server2Client, .ident]
    }
  }

  /// The UUID of `characteristic` in this mode (ISO/IEC 18013-5 Table 11 for peripheral server
  /// mode, Table 12 for central client mode), or nil for Ident in peripheral server mode.
  public func uuid(of characteristic: BLECharacteristic) -> BLEUUID? {
    let first: UInt8
    switch (self, characteristic) {
    case (.mdocPeripheralServer, .state): first = 0x01
    case (.mdocPeripheralServer, .client2Server): first = 0x02
    case (.mdocPeripheralServer, .server2Client): first = 0x03
    case (.mdocPeripheralServer, .ident): return nil
    case (.mdocCentralClient, .state): first = 0x05
    case (.mdocCentralClient, .client2Server): first = 0x06
    case (.mdocCentralClient, .server2Client): first = 0x07
    case (.mdocCentralClient, .ident): first = 0x08
    }
    // 0000000N-A123-48CE-896B-4C76973373E6
    return BLEUUID(bytes: [
      0x00, 0x00, 0x00, first, 0xA1, 0x23, 0x48, 0xCE, 0x89, 0x6B, 0x4C, 0x76, 0x97, 0x33, 0x73,
      0xE6,
    ])
  }

  /// The characteristic `uuid` names in this mode, or nil.
  package func characteristic(for uuid: BLEUUID) -> BLECharacteristic? {
    characteristics.first { self.uuid(of: $0) == uuid }
  }
}

/// One of the two devices of an ISO/IEC 18013-5 session.
public enum BLESide: Sendable, Hashable {
  /// The mdoc (the holder's device).
  case mdoc
  /// The mdoc reader.
  case mdocReader
}

/// A characteristic of the 18013-5 GATT service (§8.3.3.1.1.4, Tables 11 and 12).
public enum BLECharacteristic: Sendable, Hashable, CaseIterable {
  /// State: notify and write without response; carries the State values: 0x01 Start, 0x02 End
  /// (§8.3.3.1.1.5).
  case state
  /// Client2Server: write without response; message chunks from the GATT client.
  case client2Server
  /// Server2Client: notify; message chunks from the GATT server.
  case server2Client
  /// Ident (central client mode only): read; the 16-byte Ident, HKDF-SHA256 of
  /// EDeviceKeyBytes with info "BLEIdent" (§8.3.3.1.1.4).
  case ident
}

/// The values of the State characteristic (ISO/IEC 18013-5 §8.3.3.1.1.4, §8.3.3.1.1.5).
package enum BLEState: UInt8, Sendable, Hashable {
  /// 0x01: the GATT client is subscribed and ready; the session may start.
  case start = 0x01
  /// 0x02: the session ends (transport-specific session termination, §8.3.3.1.1.5).
  case end = 0x02
}

/// The value of the Ident characteristic (ISO/IEC 18013-5 §8.3.3.1.1.4): HKDF-SHA256 (RFC 5869)
/// with IKM = EDeviceKeyBytes (the tag-24 bytes as they appear in the DeviceEngagement), an empty
/// salt, info = "BLEIdent", 16 bytes. The mdoc reader serves it in central client mode; the mdoc
/// reads it and ends the connection when it differs, so it does not talk to a reader that has
/// not seen its engagement.
package enum BLEIdent {
  /// The 16-byte Ident for `eDeviceKeyBytes`.
  package static func value(eDeviceKeyBytes: [UInt8]) throws(CryptoError) -> [UInt8] {
    try HKDF.deriveKey(
      .sha256, inputKeyMaterial: eDeviceKeyBytes, salt: [UInt8](), info: Array("BLEIdent".utf8),
      outputByteCount: 16)
  }
}
