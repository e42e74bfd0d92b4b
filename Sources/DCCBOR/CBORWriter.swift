/// Writes one CBOR data item straight into bytes, head by head, with kept encodings spliced in.
///
/// For structures whose members are mostly already-encoded bytes (signed items, certificates):
/// writing them directly avoids building a `CBOR` tree only to encode it. Heads use the
/// shortest form (RFC 8949 §4.1, preferred serialization); the caller writes a container's
/// members in the order it wants on the wire and in the number its head declares.
public struct CBORWriter: Sendable {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8]

  /// Creates an empty writer with room for `capacity` bytes.
  public init(capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The head of a map of `count` pairs (RFC 8949 §3.1, major type 5).
  package mutating func mapHead(count: Int) {
    CBOREncoder.appendHead(major: 5, argument: UInt64(count), to: &bytes)
  }

  /// The head of an array of `count` items (RFC 8949 §3.1, major type 4).
  package mutating func arrayHead(count: Int) {
    CBOREncoder.appendHead(major: 4, argument: UInt64(count), to: &bytes)
  }

  /// The head of a tag; its content follows (RFC 8949 §3.4, major type 6).
  package mutating func tagHead(_ tag: UInt64) {
    CBOREncoder.appendHead(major: 6, argument: tag, to: &bytes)
  }

  /// A text string (RFC 8949 §3.1, major type 3).
  public mutating func text(_ string: String) {
    CBOREncoder.appendHead(major: 3, argument: UInt64(string.utf8.count), to: &bytes)
    bytes.append(contentsOf: string.utf8)
  }

  /// A byte string (RFC 8949 §3.1, major type 2).
  package mutating func byteString(_ content: [UInt8]) {
    CBOREncoder.appendHead(major: 2, argument: UInt64(content.count), to: &bytes)
    bytes.append(contentsOf: content)
  }

  /// An integer (RFC 8949 §3.1, major types 0 and 1).
  package mutating func int(_ value: Int) {
    if value >= 0 {
      CBOREncoder.appendHead(major: 0, argument: UInt64(value), to: &bytes)
    } else {
      CBOREncoder.appendHead(major: 1, argument: UInt64(~value), to: &bytes)
    }
  }

  /// `#6.24(bstr .cbor item)`: an embedded data item given by its exact encoding
  /// (RFC 8949 §3.4.5.1).
  public mutating func tag24(_ encoded: [UInt8]) {
    tagHead(24)
    byteString(encoded)
  }

  /// A whole data item given by its exact encoding, spliced verbatim (RFC 8949 §3.4.5.1 idea).
  public mutating func encoded(_ item: [UInt8]) {
    bytes.append(contentsOf: item)
  }

  /// A value encoded with `encoder` (its map order applies).
  public mutating func value(_ value: CBOR, encoder: CBOREncoder) {
    encoder.encode(value, into: &bytes)
  }
}
