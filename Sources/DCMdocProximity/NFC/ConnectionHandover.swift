import DCErrors

/// The Alternative Carrier record (`ac`, NFC Forum Connection Handover 1.5 §6.3): a carrier's
/// power state, the id of its carrier configuration record, and the ids of auxiliary records
/// (ISO 18013-5 §8.2.2.1: the DeviceEngagement record, id `mdoc`).
package struct AlternativeCarrier: Sendable, Hashable {
  /// The Carrier Power State (Connection Handover §6.3.1).
  package enum PowerState: UInt8, Sendable, Hashable {
    /// Inactive.
    case inactive = 0
    /// Active.
    case active = 1
    /// Activating.
    case activating = 2
    /// Unknown.
    case unknown = 3
  }

  /// The well-known type `ac`.
  package static let recordType = "ac"

  /// The carrier's power state.
  package let powerState: PowerState
  /// The id of the carrier configuration record (1 to 255 bytes).
  package let carrierDataReference: [UInt8]
  /// The ids of the auxiliary data records (each 1 to 255 bytes, at most 255 of them).
  package let auxiliaryDataReferences: [[UInt8]]

  /// An alternative carrier.
  package init(
    powerState: PowerState = .active, carrierDataReference: String,
    auxiliaryDataReferences: [String] = []
  ) throws(MdocProximityError) {
    try self.init(
      powerState: powerState, carrierDataReference: Array(carrierDataReference.utf8),
      auxiliaryDataReferences: auxiliaryDataReferences.map { Array($0.utf8) })
  }

  init(powerState: PowerState, carrierDataReference: [UInt8], auxiliaryDataReferences: [[UInt8]])
    throws(MdocProximityError)
  {
    let references = [carrierDataReference] + auxiliaryDataReferences
    guard references.allSatisfy({ (1...255).contains($0.count) }),
      auxiliaryDataReferences.count <= 255
    else {
      throw ndefError(
        "an ac record's references are 1 to 255 bytes, at most 255 auxiliary ones (Connection Handover §6.3)"
      )
    }
    self.powerState = powerState
    self.carrierDataReference = carrierDataReference
    self.auxiliaryDataReferences = auxiliaryDataReferences
  }

  /// Reads the payload of an `ac` record (Connection Handover §6.3).
  package init(payload: [UInt8]) throws(MdocProximityError) {
    var reader = ByteReader(payload, "ac record")
    let cps = try reader.byte()
    // §6.3.1: the upper six bits are reserved.
    guard let state = PowerState(rawValue: cps & 0x03) else {
      throw ndefError("unreachable power state")
    }
    let reference = try reader.bytes(Int(try reader.byte()))
    var auxiliary: [[UInt8]] = []
    let count = Int(try reader.byte())
    for _ in 0..<count { auxiliary.append(try reader.bytes(Int(try reader.byte()))) }
    try reader.finish()
    try self.init(
      powerState: state, carrierDataReference: reference, auxiliaryDataReferences: auxiliary)
  }

  /// The record's payload.
  package var payload: [UInt8] {
    var out: [UInt8] = [powerState.rawValue, UInt8(carrierDataReference.count)]
    out += carrierDataReference
    out.append(UInt8(auxiliaryDataReferences.count))
    for reference in auxiliaryDataReferences {
      out.append(UInt8(reference.count))
      out += reference
    }
    return out
  }

  /// The `ac` record.
  package var record: NDEFRecord {
    get throws(MdocProximityError) {
      try NDEFRecord(.wellKnown, type: Self.recordType, payload: payload)
    }
  }
}

/// The Connection Handover version byte (§6.1): major version in the upper nibble, minor in the
/// lower; this library writes 1.5 (0x15) and reads any 1.x.
package enum ConnectionHandoverVersion {
  /// Version 1.5, which ISO 18013-5 §8.2.2.1 uses.
  package static let current: UInt8 = 0x15

  static func check(_ version: UInt8, _ name: String) throws(MdocProximityError) {
    guard version >> 4 == 1 else {
      throw ndefError(
        "\(name) version \(version >> 4).\(version & 0x0f) is not 1.x (Connection Handover §6.1)")
    }
  }
}

/// A Handover Select message (Connection Handover 1.5 §6.2): the `Hs` record, holding its version
/// and alternative carriers, then the carrier configuration and auxiliary records. ISO 18013-5
/// §8.2.2.1 puts the DeviceEngagement in an auxiliary record (external type
/// `iso.org:18013:deviceengagement`, id `mdoc`).
///
/// The message keeps its bytes: they are the first member of the NFC Handover of the
/// SessionTranscript (§9.1.5.1).
public struct HandoverSelect: Sendable, Hashable {
  /// The well-known type `Hs`.
  package static let recordType = "Hs"
  /// The external type of the DeviceEngagement record (ISO 18013-5 §8.2.2.1).
  package static let deviceEngagementType = "iso.org:18013:deviceengagement"
  /// The id of the DeviceEngagement record (ISO 18013-5 §8.2.2.1).
  package static let deviceEngagementID = "mdoc"

  /// The Connection Handover version of the `Hs` record.
  package let version: UInt8
  /// The alternative carriers, in order of the mdoc's preference.
  package let alternativeCarriers: [AlternativeCarrier]
  /// The local records of the `Hs` record that are not `ac` records (such as `err`), kept.
  package let otherLocalRecords: [NDEFRecord]
  /// The records after the `Hs` record: carrier configurations and auxiliary data.
  package let records: [NDEFRecord]
  /// The whole message.
  package let message: NDEFMessage

  /// Writes a Handover Select message.
  package init(
    alternativeCarriers: [AlternativeCarrier], records: [NDEFRecord],
    version: UInt8 = ConnectionHandoverVersion.current
  ) throws(MdocProximityError) {
    var payload = [version]
    if !alternativeCarriers.isEmpty {
      var local: [NDEFRecord] = []
      for carrier in alternativeCarriers { local.append(try carrier.record) }
      payload += try NDEFMessage(records: local).bytes
    }
    let hs = try NDEFRecord(.wellKnown, type: Self.recordType, payload: payload)
    self.version = version
    self.alternativeCarriers = alternativeCarriers
    self.otherLocalRecords = []
    self.records = records
    self.message = try NDEFMessage(records: [hs] + records)
  }

  /// The static handover of ISO 18013-5 §8.2.2.1 for one BLE carrier: an `Hs` record with one
  /// active alternative carrier (carrier data reference `0`, auxiliary reference `mdoc`), the BLE
  /// carrier configuration record (id `0`) and the DeviceEngagement record (id `mdoc`).
  public static func staticHandover(
    deviceEngagement: DeviceEngagement, ble: BLECarrierConfiguration
  ) throws(MdocProximityError) -> HandoverSelect {
    let carrier = try AlternativeCarrier(
      carrierDataReference: "0", auxiliaryDataReferences: [deviceEngagementID])
    return try HandoverSelect(
      alternativeCarriers: [carrier],
      records: [
        ble.record(id: "0"),
        NDEFRecord(
          .external, type: deviceEngagementType, id: deviceEngagementID,
          payload: deviceEngagement.bytes),
      ])
  }

  /// Reads a Handover Select message.
  public init(bytes: [UInt8]) throws(MdocProximityError) {
    let message = try NDEFMessage(bytes: bytes)
    guard message.records[0].hasType(.wellKnown, Self.recordType) else {
      throw ndefError(
        "a Handover Select message starts with an Hs record (Connection Handover §6.2)")
    }
    let payload = message.records[0].payload
    guard let version = payload.first else { throw ndefError("the Hs record has no version") }
    try ConnectionHandoverVersion.check(version, "Hs")
    let local = try NDEFMessage(bytes: Array(payload.dropFirst()), allowEmpty: true)
    var carriers: [AlternativeCarrier] = []
    var others: [NDEFRecord] = []
    for record in local.records {
      if record.hasType(.wellKnown, AlternativeCarrier.recordType) {
        carriers.append(try AlternativeCarrier(payload: record.payload))
      } else {
        others.append(record)
      }
    }
    self.version = version
    self.alternativeCarriers = carriers
    self.otherLocalRecords = others
    self.records = Array(message.records.dropFirst())
    self.message = message
  }

  /// The message's bytes (the SessionTranscript's `HandoverSelect`).
  public var bytes: [UInt8] { message.bytes }

  /// The record after the `Hs` record with this id.
  package func record(id: [UInt8]) -> NDEFRecord? { records.first { $0.id == id } }

  /// The DeviceEngagement of the record ISO 18013-5 §8.2.2.1 names (external type
  /// `iso.org:18013:deviceengagement`), read with its bytes.
  ///
  /// - Throws: `malformedNDEF` when there is none, or the engagement's own errors.
  public func deviceEngagement() throws(MdocProximityError) -> DeviceEngagement {
    guard let record = records.first(where: { $0.hasType(.external, Self.deviceEngagementType) })
    else {
      throw ndefError(
        "the Handover Select message has no \(Self.deviceEngagementType) record (ISO 18013-5 §8.2.2.1)"
      )
    }
    return try DeviceEngagement(bytes: record.payload)
  }

  /// The BLE carrier configuration of the first alternative carrier that references a BLE
  /// record, if any.
  public func bleConfiguration() throws(MdocProximityError) -> BLECarrierConfiguration? {
    try firstBLE(alternativeCarriers, records)
  }
}

/// A Handover Request message (Connection Handover 1.5 §6.1): the `Hr` record, holding its version,
/// the collision resolution number and the alternative carriers the reader offers, then their
/// configuration records (ISO 18013-5 §8.2.2.1, negotiated handover).
public struct HandoverRequest: Sendable, Hashable {
  /// The well-known type `Hr`.
  package static let recordType = "Hr"
  /// The well-known type `cr` of the collision resolution record (§6.4).
  package static let collisionResolutionType = "cr"

  /// The Connection Handover version of the `Hr` record.
  package let version: UInt8
  /// The 16-bit random number of the `cr` record.
  package let collisionResolution: UInt16
  /// The alternative carriers offered, in order of the reader's preference.
  package let alternativeCarriers: [AlternativeCarrier]
  /// The records after the `Hr` record: carrier configurations and auxiliary data.
  package let records: [NDEFRecord]
  /// The whole message.
  package let message: NDEFMessage

  /// Writes a Handover Request message.
  package init(
    collisionResolution: UInt16, alternativeCarriers: [AlternativeCarrier],
    records: [NDEFRecord], version: UInt8 = ConnectionHandoverVersion.current
  ) throws(MdocProximityError) {
    guard !alternativeCarriers.isEmpty else {
      throw ndefError("a Handover Request offers at least one carrier (Connection Handover §6.1)")
    }
    var local = [
      try NDEFRecord(
        .wellKnown, type: Self.collisionResolutionType,
        payload: [UInt8(collisionResolution >> 8), UInt8(truncatingIfNeeded: collisionResolution)])
    ]
    for carrier in alternativeCarriers { local.append(try carrier.record) }
    let hr = try NDEFRecord(
      .wellKnown, type: Self.recordType, payload: [version] + NDEFMessage(records: local).bytes)
    self.version = version
    self.collisionResolution = collisionResolution
    self.alternativeCarriers = alternativeCarriers
    self.records = records
    self.message = try NDEFMessage(records: [hr] + records)
  }

  /// Reads a Handover Request message.
  public init(bytes: [UInt8]) throws(MdocProximityError) {
    let message = try NDEFMessage(bytes: bytes)
    guard message.records[0].hasType(.wellKnown, Self.recordType) else {
      throw ndefError(
        "a Handover Request message starts with an Hr record (Connection Handover §6.1)")
    }
    let payload = message.records[0].payload
    guard let version = payload.first else { throw ndefError("the Hr record has no version") }
    try ConnectionHandoverVersion.check(version, "Hr")
    let local = try NDEFMessage(bytes: Array(payload.dropFirst()))
    var collision: UInt16?
    var carriers: [AlternativeCarrier] = []
    for record in local.records {
      if record.hasType(.wellKnown, Self.collisionResolutionType) {
        guard collision == nil, record.payload.count == 2 else {
          throw ndefError("an Hr record has one cr record of 2 bytes (Connection Handover §6.4)")
        }
        collision = UInt16(record.payload[0]) << 8 | UInt16(record.payload[1])
      } else if record.hasType(.wellKnown, AlternativeCarrier.recordType) {
        carriers.append(try AlternativeCarrier(payload: record.payload))
      }
    }
    guard let collision else {
      throw ndefError("the Hr record has no cr record (Connection Handover §6.1)")
    }
    guard !carriers.isEmpty else {
      throw ndefError("the Hr record offers no alternative carrier (Connection Handover §6.1)")
    }
    self.version = version
    self.collisionResolution = collision
    self.alternativeCarriers = carriers
    self.records = Array(message.records.dropFirst())
    self.message = message
  }

  /// The message's bytes (the SessionTranscript's `HandoverRequest`).
  public var bytes: [UInt8] { message.bytes }

  /// The BLE carrier configuration of the first alternative carrier that references a BLE
  /// record, if any.
  public func bleConfiguration() throws(MdocProximityError) -> BLECarrierConfiguration? {
    try firstBLE(alternativeCarriers, records)
  }
}

private func firstBLE(_ carriers: [AlternativeCarrier], _ records: [NDEFRecord])
  throws(MdocProximityError) -> BLECarrierConfiguration?
{
  for carrier in carriers {
    guard let record = records.first(where: { $0.id == carrier.carrierDataReference }),
      record.hasType(.media, BLECarrierConfiguration.mediaType)
    else { continue }
    return try BLECarrierConfiguration(payload: record.payload)
  }
  return nil
}

/// A bounded cursor over a record payload.
struct ByteReader {
  let bytes: [UInt8]
  let name: String
  var offset = 0

  init(_ bytes: [UInt8], _ name: String) {
    self.bytes = bytes
    self.name = name
  }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func byte() throws(MdocProximityError) -> UInt8 {
    guard offset < bytes.count else { throw ndefError("the \(name) ends early") }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func bytes(_ count: Int) throws(MdocProximityError) -> [UInt8] {
    guard count <= bytes.count - offset else { throw ndefError("the \(name) ends early") }
    defer { offset += count }
    return Array(bytes[offset..<(offset + count)])
  }

  func finish() throws(MdocProximityError) {
    guard isAtEnd else { throw ndefError("\(bytes.count - offset) bytes follow the \(name)") }
  }
}
