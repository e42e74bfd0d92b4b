/// IEEE 754 binary16 conversions written by hand, since `Float16` is missing on some platforms.
///
/// RFC 8949 §3.3 and Appendix D (half-precision decoding).
enum Half {
  /// The canonical quiet NaN that preferred serialization emits (RFC 8949 §4.2.2).
  static let canonicalNaN: UInt16 = 0x7e00

  /// RFC 8949 Appendix D: decode a binary16 bit pattern.
  static func double(fromBits bits: UInt16) -> Double {
    let exponent = Int((bits >> 10) & 0x1f)
    let mantissa = Double(bits & 0x3ff)
    let magnitude: Double
    switch exponent {
    case 0: magnitude = mantissa * 0x1p-24
    case 31: magnitude = mantissa == 0 ? .infinity : .nan
    default:
      magnitude = (1024 + mantissa) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
    }
    return bits & 0x8000 != 0 ? -magnitude : magnitude
  }

  /// The binary16 pattern for a finite or infinite value when it is exactly representable.
  static func bits(exactly value: Double) -> UInt16? {
    let signBit: UInt16 = value.sign == .minus ? 0x8000 : 0
    if value.isNaN { return nil }
    if value.isInfinite { return signBit | 0x7c00 }
    if value == 0 { return signBit }
    let magnitude = value.magnitude
    let exponent = Int(magnitude.exponent)
    if exponent > 15 || exponent < -24 { return nil }
    if exponent >= -14 {
      let scaled = magnitude * Double(sign: .plus, exponent: 10 - exponent, significand: 1)
      guard scaled == scaled.rounded(.towardZero) else { return nil }
      return signBit | UInt16(exponent + 15) << 10 | (UInt16(scaled) - 1024)
    }
    let scaled = magnitude * 0x1p24
    guard scaled == scaled.rounded(.towardZero) else { return nil }
    return signBit | UInt16(scaled)
  }
}

/// The shortest float width that holds a value exactly (RFC 8949 §4.1 preferred serialization).
enum PreferredFloat: Equatable {
  case half(UInt16)
  case single(Float)
  case double(Double)

  init(_ value: Double) {
    // RFC 8949 §4.2.2: every NaN is written as the half-precision quiet NaN 0x7e00.
    if value.isNaN {
      self = .half(Half.canonicalNaN)
    } else if let bits = Half.bits(exactly: value) {
      self = .half(bits)
    } else if Double(Float(value)) == value {
      self = .single(Float(value))
    } else {
      self = .double(value)
    }
  }

  /// The number of argument bytes this width uses (RFC 8949 §3.3).
  var width: Int {
    switch self {
    case .half: return 2
    case .single: return 4
    case .double: return 8
    }
  }
}
