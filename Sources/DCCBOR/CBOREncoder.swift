/// Encodes CBOR values to bytes.
///
/// RFC 8949 §4.2.1 (core deterministic encoding) or, with `.preserved`, the preferred
/// serialization of §4.1 with maps in stored order. `.encoded` items are spliced verbatim.
public struct CBOREncoder: Sendable {
  /// How map pairs are ordered on the wire (RFC 8949 §4.2.1).
  public enum MapOrder: Sendable, Hashable {
    /// Keys sorted by the bytewise order of their deterministic encodings (RFC 8949 §4.2.1).
    case deterministic
    /// Pairs written in the order the `CBORMap` holds them (RFC 8949 §4.1).
    case preserved
  }

  /// The map ordering this encoder applies (RFC 8949 §4.2.1).
  public var mapOrder: MapOrder

  /// Creates an encoder (RFC 8949 §4.2.1).
  public init(mapOrder: MapOrder = .deterministic) {
    self.mapOrder = mapOrder
  }

  /// Encodes a value with shortest heads, definite lengths and preferred floats (RFC 8949 §4.1, §4.2.1).
  public func encode(_ value: CBOR) -> [UInt8] {
    var out: [UInt8] = []
    encode(value, into: &out)
    return out
  }

  func encode(_ value: CBOR, into out: inout [UInt8]) {
    switch value {
    case .unsigned(let n):
      Self.appendHead(major: 0, argument: n, to: &out)
    case .negative(let n):
      Self.appendHead(major: 1, argument: n, to: &out)
    case .byteString(let bytes):
      Self.appendHead(major: 2, argument: UInt64(bytes.count), to: &out)
      out.append(contentsOf: bytes)
    case .textString(let string):
      Self.appendHead(major: 3, argument: UInt64(string.utf8.count), to: &out)
      out.append(contentsOf: string.utf8)
    case .array(let items):
      Self.appendHead(major: 4, argument: UInt64(items.count), to: &out)
      for item in items { encode(item, into: &out) }
    case .map(let map):
      Self.appendHead(major: 5, argument: UInt64(map.count), to: &out)
      switch mapOrder {
      case .preserved:
        for (key, value) in map {
          encode(key, into: &out)
          encode(value, into: &out)
        }
      case .deterministic:
        // RFC 8949 §4.2.1: sort by the bytewise lexicographic order of the encoded keys.
        var encodedPairs: [(key: [UInt8], value: CBOR)] = []
        encodedPairs.reserveCapacity(map.count)
        for (key, value) in map { encodedPairs.append((encode(key), value)) }
        encodedPairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for pair in encodedPairs {
          out.append(contentsOf: pair.key)
          encode(pair.value, into: &out)
        }
      }
    case .tagged(let tag, let content):
      Self.appendHead(major: 6, argument: tag, to: &out)
      encode(content, into: &out)
    case .simple(let simple):
      Self.appendHead(major: 7, argument: UInt64(simple), to: &out)
    case .boolean(let flag):
      out.append(flag ? 0xf5 : 0xf4)
    case .null:
      out.append(0xf6)
    case .undefined:
      out.append(0xf7)
    case .half(let bits):
      Self.appendFloat(Half.double(fromBits: bits), to: &out)
    case .float(let single):
      Self.appendFloat(Double(single), to: &out)
    case .double(let double):
      Self.appendFloat(double, to: &out)
    case .encoded(let encoded):
      out.append(contentsOf: encoded.bytes)
    }
  }

  /// RFC 8949 §4.2.1: the argument goes in the shortest head that holds it.
  static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
    let type = major << 5
    switch argument {
    case 0..<24:
      out.append(type | UInt8(argument))
    case 24...0xff:
      out.append(type | 24)
      out.append(UInt8(argument))
    case 0x100...0xffff:
      out.append(type | 25)
      appendBigEndian(argument, byteCount: 2, to: &out)
    case 0x1_0000...0xffff_ffff:
      out.append(type | 26)
      appendBigEndian(argument, byteCount: 4, to: &out)
    default:
      out.append(type | 27)
      appendBigEndian(argument, byteCount: 8, to: &out)
    }
  }

  private static func appendBigEndian(_ value: UInt64, byteCount: Int, to out: inout [UInt8]) {
    for index in stride(from: byteCount - 1, through: 0, by: -1) {
      out.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
    }
  }

  /// RFC 8949 §4.1: floats use the shortest width that keeps the value exactly.
  private static func appendFloat(_ value: Double, to out: inout [UInt8]) {
    switch PreferredFloat(value) {
    case .half(let bits):
      out.append(0xf9)
      appendBigEndian(UInt64(bits), byteCount: 2, to: &out)
    case .single(let single):
      out.append(0xfa)
      appendBigEndian(UInt64(single.bitPattern), byteCount: 4, to: &out)
    case .double(let double):
      out.append(0xfb)
      appendBigEndian(double.bitPattern, byteCount: 8, to: &out)
    }
  }
}

extension CBOR {
  /// The core deterministic encoding of this value (RFC 8949 §4.2.1).
  public func encoded() -> [UInt8] {
    CBOREncoder().encode(self)
  }
}
