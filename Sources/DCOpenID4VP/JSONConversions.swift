package import DCCBOR
import DCEncoding
import DCJOSE
package import DCJSON
import DCQL

extension JSONValue {
  /// A JSON view of an mdoc element value (OpenID4VP 1.0 Appendix B.2.4): text, numbers,
  /// booleans and null as themselves, byte strings as base64url, `full-date` and `tdate` as
  /// their text, maps with text or integer keys as objects.
  package init(cbor: CBOR) {
    switch cbor {
    case .unsigned(let n): self = n <= UInt64(Int64.max) ? .integer(Int64(n)) : .number(Double(n))
    case .negative(let n):
      // RFC 8949 §3.1: the value is -1 - n.
      self = n < UInt64(Int64.max) ? .integer(-1 - Int64(n)) : .number(-1 - Double(n))
    case .byteString(let b): self = .string(Base64URL.encode(b))
    case .textString(let s): self = .string(s)
    case .array(let items): self = .array(items.map { JSONValue(cbor: $0) })
    case .map(let map):
      self = .object(
        map.pairs.map { pair in
          let key = pair.key.text ?? pair.key.int.map(String.init) ?? "\(pair.key)"
          return (key, JSONValue(cbor: pair.value))
        })
    case .tagged(_, let inner): self = JSONValue(cbor: inner)
    case .boolean(let b): self = .bool(b)
    case .null, .undefined, .simple: self = .null
    case .half, .float, .double: self = CBOR.doubleValue(cbor).map { .number($0) } ?? .null
    case .encoded(let encoded): self = JSONValue(cbor: encoded.value)
    }
  }
}

extension CBOR {
  static func doubleValue(_ value: CBOR) -> Double? {
    switch value {
    case .float(let f): return Double(f)
    case .double(let d): return d
    case .half(let bits): return Double(Float16Bits.decode(bits))
    default: return nil
    }
  }
}

/// IEEE 754 binary16 to Float (RFC 8949 Appendix D), for element values encoded as half floats.
enum Float16Bits {
  static func decode(_ bits: UInt16) -> Float {
    let sign: Float = bits & 0x8000 != 0 ? -1 : 1
    let exponent = Int((bits >> 10) & 0x1F)
    let fraction = Float(bits & 0x3FF)
    switch exponent {
    case 0: return sign * fraction * Float(pow2: -24)
    case 31: return fraction == 0 ? sign * .infinity : .nan
    default: return sign * (1 + fraction / 1024) * Float(pow2: exponent - 15)
    }
  }
}

extension Float {
  fileprivate init(pow2 exponent: Int) {
    self = Float(sign: .plus, exponent: exponent, significand: 1)
  }
}
