import DCCBOR

/// `SessionData = {? "data": bstr, ? "status": uint}`: every message after the
/// SessionEstablishment, in both directions (ISO 18013-5 §9.1.1.4).
package struct SessionData: Sendable, Hashable {
  enum Keys {
    static let data = "data"
    static let status = "status"
    static let clause = "ISO 18013-5 §9.1.1.4"
  }

  /// The encrypted DeviceRequest or DeviceResponse (§9.1.1.5), if any.
  package let data: [UInt8]?
  /// The status (Table 20), if any; each one ends the session.
  package let status: SessionStatus?
  /// The message's bytes.
  package let bytes: [UInt8]

  /// An encrypted message, with a status when the same message ends the session.
  package init(data: [UInt8], status: SessionStatus? = nil) {
    self.init(data: .some(data), status: status)
  }

  /// A status alone, not encrypted (§9.1.1.4): `{"status": 20}` ends the session.
  package init(status: SessionStatus) {
    self.init(data: nil, status: .some(status))
  }

  private init(data: [UInt8]?, status: SessionStatus?) {
    self.data = data
    self.status = status
    self.bytes = Self.encode(data: data, status: status)
  }

  /// `{? "data": bstr, ? "status": uint}` (§9.1.1.4), "data" first as the map holds it (and as
  /// the deterministic order puts it), written straight into one buffer sized for the data: the
  /// encrypted DeviceResponse (a portrait and all) is copied once, not through a `CBOR` value.
  static func encode(data: [UInt8]?, status: SessionStatus?) -> [UInt8] {
    // Map head 1 byte; "data" 5; its byte string head at most 9; "status" 7; the uint at most 9.
    var writer = CBORWriter(capacity: (data?.count ?? 0) + 32)
    writer.mapHead(count: (data == nil ? 0 : 1) + (status == nil ? 0 : 1))
    if let data {
      writer.text(Keys.data)
      writer.byteString(data)
    }
    if let status {
      writer.text(Keys.status)
      writer.int(Int(status.rawValue))
    }
    return writer.bytes
  }

  /// Reads a received message. A message that is not the CDDL, or has neither `data` nor
  /// `status`, answers status 11; a status outside Table 20 is `unknownStatus` and is not answered
  /// (whatever it means, the sender has ended the session).
  package init(bytes: [UInt8], limits: SessionLimits = .default) throws(MdocProximityError) {
    guard bytes.count <= limits.maxMessageByteCount else {
      throw MdocProximityError(
        .tooLarge,
        "SessionData of \(bytes.count) bytes exceeds the limit of \(limits.maxMessageByteCount)",
        status: .cborDecodingError)
    }
    let item = try decodeMessage(
      bytes, "SessionData", limits: .sessionMessage(limits), status: .cborDecodingError)
    let data: [UInt8]?
    let code: UInt64?
    do {
      let reader = try CBORMapReader(
        item, structure: "SessionData", clause: Keys.clause, knownKeys: [Keys.data, Keys.status])
      data = try reader.optional(Keys.data, as: ByteString.self)?.bytes
      code = try reader.optional(Keys.status, as: UInt64.self)
    } catch {
      throw MdocProximityError(
        .malformed, error.reason, status: .cborDecodingError, underlying: error)
    }
    guard data != nil || code != nil else {
      throw MdocProximityError(
        .malformed, "SessionData has neither data nor status (\(Keys.clause))",
        status: .cborDecodingError)
    }
    var status: SessionStatus? = nil
    if let code {
      guard let known = SessionStatus(rawValue: code) else {
        throw MdocProximityError(
          .unknownStatus, "SessionData.status \(code) is not in ISO 18013-5 Table 20")
      }
      status = known
    }
    self.data = data
    self.status = status
    self.bytes = bytes
  }
}

extension CBORDecoder.Limits {
  /// Bounds for a session message: its byte strings up to the message limit, a few levels of
  /// nesting (the structures are a map holding a tag 24 item at most; unknown keys may nest a
  /// little), and few items.
  static func sessionMessage(_ limits: SessionLimits) -> CBORDecoder.Limits {
    CBORDecoder.Limits(
      maxDepth: 16, maxItemLength: limits.maxMessageByteCount, maxTotalItems: 4096)
  }
}
