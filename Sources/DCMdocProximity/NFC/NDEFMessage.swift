import DCErrors

/// One NDEF record (NFC Forum NDEF 1.0 §3.2): a type name format, a type, an optional id and a
/// payload.
package struct NDEFRecord: Sendable, Hashable {
  /// The TNF field (NDEF §3.2.6). 6 (unchanged, for chunks) and 7 (reserved) are refused.
  package enum TypeNameFormat: UInt8, Sendable, Hashable {
    /// No type, id or payload.
    case empty = 0
    /// An NFC Forum well-known type (RTD), such as `Hs`, `Hr`, `ac`, `cr`.
    case wellKnown = 1
    /// A media type (RFC 2046), such as `application/vnd.bluetooth.le.oob`.
    case media = 2
    /// An absolute URI (RFC 3986).
    case absoluteURI = 3
    /// An NFC Forum external type, such as `iso.org:18013:deviceengagement`.
    case external = 4
    /// An unknown type (no type field).
    case unknown = 5
  }

  /// The type name format.
  package let typeNameFormat: TypeNameFormat
  /// The type, at most 255 bytes.
  package let type: [UInt8]
  /// The id, at most 255 bytes (empty when absent).
  package let id: [UInt8]
  /// The payload.
  package let payload: [UInt8]

  /// A record.
  ///
  /// - Throws: `malformedNDEF` for a type or id over 255 bytes, an empty record with any field, or
  ///   an unknown-type record with a type (NDEF §3.2.6).
  package init(
    typeNameFormat: TypeNameFormat, type: [UInt8], id: [UInt8] = [], payload: [UInt8] = []
  ) throws(MdocProximityError) {
    guard type.count <= 255, id.count <= 255 else {
      throw ndefError("a record's type and id are at most 255 bytes (NDEF §3.2)")
    }
    if typeNameFormat == .empty, !(type.isEmpty && id.isEmpty && payload.isEmpty) {
      throw ndefError("an empty record (TNF 0) has no type, id or payload (NDEF §3.2.6)")
    }
    if typeNameFormat == .unknown, !type.isEmpty {
      throw ndefError("an unknown-type record (TNF 5) has no type (NDEF §3.2.6)")
    }
    self.typeNameFormat = typeNameFormat
    self.type = type
    self.id = id
    self.payload = payload
  }

  /// A record whose type and id are ASCII text.
  package init(
    _ typeNameFormat: TypeNameFormat, type: String, id: String = "", payload: [UInt8] = []
  ) throws(MdocProximityError) {
    try self.init(
      typeNameFormat: typeNameFormat, type: Array(type.utf8), id: Array(id.utf8),
      payload: payload)
  }

  /// Whether the record has this type name format and type.
  package func hasType(_ typeNameFormat: TypeNameFormat, _ type: String) -> Bool {
    self.typeNameFormat == typeNameFormat && self.type == Array(type.utf8)
  }

  /// Appends the record (NDEF §3.2): a short record (SR) when the payload fits in 255 bytes, the
  /// IL flag and id only with an id.
  func write(to out: inout [UInt8], first: Bool, last: Bool) {
    var header = typeNameFormat.rawValue
    if first { header |= NDEFMessage.Flag.messageBegin }
    if last { header |= NDEFMessage.Flag.messageEnd }
    let short = payload.count <= 255
    if short { header |= NDEFMessage.Flag.shortRecord }
    if !id.isEmpty { header |= NDEFMessage.Flag.idLength }
    out.append(header)
    out.append(UInt8(type.count))
    if short {
      out.append(UInt8(payload.count))
    } else {
      let length = UInt32(truncatingIfNeeded: payload.count)
      out += [
        UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16),
        UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
      ]
    }
    if !id.isEmpty { out.append(UInt8(id.count)) }
    out += type
    out += id
    out += payload
  }
}

/// An NDEF message (NFC Forum NDEF 1.0 §3): records from the one flagged MB to the one flagged ME,
/// kept with its exact bytes (the NFC handover messages enter the SessionTranscript as they are).
///
/// Reading is strict and bounded: chunked records (CF) are refused, as are TNF 6 and 7, a missing
/// or misplaced MB/ME, lengths past the input, trailing bytes, and messages over
/// 65,535 bytes or 64 records.
package struct NDEFMessage: Sendable, Hashable {
  enum Flag {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let idLength: UInt8 = 0x08
    static let typeNameFormat: UInt8 = 0x07
  }

  /// The most bytes a message may have: an NFC Forum Type 4 Tag's NDEF file holds at most
  /// 65,534 bytes (its 2-byte NLEN), and a handover message is a few hundred.
  package static let maxByteCount = 65_535
  /// The most records a message may have.
  package static let maxRecordCount = 64

  /// The records, in order.
  package let records: [NDEFRecord]
  /// The message's bytes.
  package let bytes: [UInt8]

  /// Writes a message of one or more records.
  package init(records: [NDEFRecord]) throws(MdocProximityError) {
    guard !records.isEmpty else { throw ndefError("an NDEF message has at least one record") }
    var out: [UInt8] = []
    for (index, record) in records.enumerated() {
      record.write(to: &out, first: index == 0, last: index == records.count - 1)
    }
    guard out.count <= Self.maxByteCount else {
      throw MdocProximityError(
        .tooLarge, "NDEF message of \(out.count) bytes exceeds the limit of \(Self.maxByteCount)")
    }
    self.records = records
    self.bytes = out
  }

  /// Reads a message.
  package init(bytes: [UInt8]) throws(MdocProximityError) {
    try self.init(bytes: bytes, allowEmpty: false)
  }

  /// Reads a message; `allowEmpty` accepts no bytes as no records (the local records of a
  /// Handover Select record may be absent, Connection Handover 1.5 §6.2).
  init(bytes: [UInt8], allowEmpty: Bool) throws(MdocProximityError) {
    guard bytes.count <= Self.maxByteCount else {
      throw MdocProximityError(
        .tooLarge,
        "NDEF message of \(bytes.count) bytes exceeds the limit of \(Self.maxByteCount)")
    }
    if bytes.isEmpty, allowEmpty {
      self.records = []
      self.bytes = bytes
      return
    }
    var records: [NDEFRecord] = []
    var offset = 0
    var ended = false
    while !ended {
      guard offset < bytes.count else {
        throw ndefError("the message ends without a record flagged ME (NDEF §3.2.1)")
      }
      guard records.count < Self.maxRecordCount else {
        throw MdocProximityError(
          .tooLarge, "NDEF message has more than \(Self.maxRecordCount) records")
      }
      let (record, isLast) = try Self.readRecord(bytes, at: &offset, isFirst: records.isEmpty)
      records.append(record)
      ended = isLast
    }
    guard offset == bytes.count else {
      throw ndefError("\(bytes.count - offset) bytes follow the record flagged ME (NDEF §3.2.1)")
    }
    self.records = records
    self.bytes = bytes
  }

  /// The record at `offset`, `offset` moved past it, and whether it is flagged ME: MB only on
  /// the first record, no chunks, no TNF 6 or 7, every length within the message.
  private static func readRecord(_ bytes: [UInt8], at offset: inout Int, isFirst: Bool)
    throws(MdocProximityError) -> (NDEFRecord, Bool)
  {
    func take(_ count: Int, _ what: String) throws(MdocProximityError) -> ArraySlice<UInt8> {
      guard count <= bytes.count - offset else {
        throw ndefError("the message ends inside a record's \(what) (NDEF §3.2)")
      }
      defer { offset += count }
      return bytes[offset..<(offset + count)]
    }
    let header = try take(1, "header")[offset - 1]
    guard (header & Flag.messageBegin != 0) == isFirst else {
      throw ndefError(
        isFirst
          ? "the first record is not flagged MB (NDEF §3.2.1)"
          : "a record after the first is flagged MB (NDEF §3.2.1)")
    }
    guard header & Flag.chunk == 0 else {
      throw ndefError("chunked records (CF) are not accepted (NDEF §3.2.3)")
    }
    let tnfValue = header & Flag.typeNameFormat
    guard let tnf = NDEFRecord.TypeNameFormat(rawValue: tnfValue) else {
      throw ndefError(
        "TNF \(tnfValue) is \(tnfValue == 6 ? "only for chunks" : "reserved") (NDEF §3.2.6)")
    }
    let typeLength = Int(try take(1, "type length")[offset - 1])
    let payloadLength: Int
    if header & Flag.shortRecord != 0 {
      payloadLength = Int(try take(1, "payload length")[offset - 1])
    } else {
      payloadLength = try take(4, "payload length").reduce(0) { $0 << 8 | Int($1) }
    }
    var idLength = 0
    if header & Flag.idLength != 0 { idLength = Int(try take(1, "id length")[offset - 1]) }
    let type = Array(try take(typeLength, "type"))
    let id = Array(try take(idLength, "id"))
    let payload = Array(try take(payloadLength, "payload"))
    let record = try NDEFRecord(typeNameFormat: tnf, type: type, id: id, payload: payload)
    return (record, header & Flag.messageEnd != 0)
  }

  /// The first record with this id.
  package func record(id: String) -> NDEFRecord? {
    records.first { $0.id == Array(id.utf8) }
  }
}

/// A `malformedNDEF` error.
func ndefError(_ message: String) -> MdocProximityError {
  MdocProximityError(.malformedNDEF, message)
}
