import DCErrors

/// A data item kept as its exact bytes next to its decoded value.
///
/// RFC 8949 §3.4.5.1 (tag 24, encoded CBOR data item): anything that is hashed or signed keeps
/// the encoding it arrived in. Equality and hashing use the bytes only.
public struct EncodedCBOR: Sendable, Hashable {
  /// The exact encoding (RFC 8949 §3.4.5.1).
  public let bytes: [UInt8]
  /// The decoded value of `bytes` (RFC 8949 §3.4.5.1).
  public let value: CBOR

  /// Decodes bytes and keeps them exactly (RFC 8949 §3.4.5.1).
  public init(bytes: [UInt8], limits: CBORDecoder.Limits = .default) throws(CBORError) {
    self.value = try CBORDecoder(limits: limits).decode(bytes)
    self.bytes = bytes
  }

  /// Encodes a value with the core deterministic encoding and keeps both (RFC 8949 §4.2.1).
  public init(encoding value: CBOR) {
    self.bytes = CBOREncoder().encode(value)
    self.value = value.unwrapped
  }

  /// Encodes a value with the given encoder and keeps both, for protocols whose maps keep the
  /// order they were built in rather than the deterministic order (ISO 18013-5 structures).
  package init(encoding value: CBOR, with encoder: CBOREncoder) {
    self.bytes = encoder.encode(value)
    self.value = value.unwrapped
  }

  /// Reads the content of a tag 24 item, keeping the embedded bytes exactly (RFC 8949 §3.4.5.1).
  public init(tag24 item: CBOR, limits: CBORDecoder.Limits = .default) throws(CBORError) {
    guard case .tagged(24, let content) = item.unwrapped else {
      throw CBORError(.typeMismatch, reason: "expected tag 24 (encoded CBOR data item)")
    }
    guard case .byteString(let embedded) = content.unwrapped else {
      throw CBORError(.invalidTagContent, reason: "tag 24 content must be a byte string")
    }
    do {
      self.value = try CBORDecoder(limits: limits).decode(embedded)
    } catch {
      throw error.inContext("tag 24 content")
    }
    self.bytes = embedded
  }

  /// The tag 24 item that wraps these bytes, `24(h'...')` (RFC 8949 §3.4.5.1).
  public var tag24: CBOR {
    .tagged(24, .byteString(bytes))
  }

  /// Compares the bytes (RFC 8949 §3.4.5.1).
  public static func == (lhs: EncodedCBOR, rhs: EncodedCBOR) -> Bool {
    lhs.bytes == rhs.bytes
  }

  /// Hashes the bytes (RFC 8949 §3.4.5.1).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(bytes)
  }
}
