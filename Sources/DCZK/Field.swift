/// A finite field the Longfellow proof system runs over (draft-google-cfrg-libzk §"Serializing
/// Field elements"): GF(2^128) and prime fields of at most 256 bits.
///
/// Elements are plain values (no allocation); arrays of them are contiguous.
package protocol ZKField: Sendable, Equatable {
  /// The additive identity.
  static var zero: Self { get }
  /// The multiplicative identity.
  static var one: Self { get }
  /// The draft's FieldID (1 = P-256's base field, 4 = GF(2^128), ...).
  static var fieldID: Int { get }
  /// Bytes of a serialized element (little-endian).
  static var byteCount: Int { get }
  /// Bytes of a serialized element of the subfield used in proofs (GF(2^16) in GF(2^128); the
  /// field itself for prime fields).
  static var subfieldByteCount: Int { get }
  /// The third sumcheck evaluation point P2 (draft, sumcheck "Representation of polynomials").
  static var sumcheckP2: Self { get }

  static func + (lhs: Self, rhs: Self) -> Self
  static func - (lhs: Self, rhs: Self) -> Self
  static func * (lhs: Self, rhs: Self) -> Self
  static prefix func - (value: Self) -> Self

  /// The inverse of a non-zero element (the caller never asks for zero's).
  var inverse: Self { get }
  /// Whether this is zero.
  var isZero: Bool { get }

  /// Reads a canonical element at `offset` (`byteCount` bytes there); nil when not canonical.
  static func read(_ bytes: [UInt8], at offset: Int) -> Self?
  /// Reads a subfield element at `offset` (`subfieldByteCount` bytes there).
  static func readSubfield(_ bytes: [UInt8], at offset: Int) -> Self?
  /// Appends the canonical little-endian serialization.
  func write(to bytes: inout [UInt8])
  /// The Reed–Solomon evaluation point of index `i` (draft §"Extend method"): `i` in a prime
  /// field, `inj(i)` in GF(2^128).
  static func evaluationPoint(_ i: Int) -> Self
  /// Draws an element from the Fiat–Shamir stream (draft §"Generating challenges").
  static func sample(_ stream: inout FiatShamirStream) -> Self
  /// What the circuit id hashes to name the field (draft; C++ `circuit_id`): (2, bits) for a
  /// binary field, (1, serialized -1) for a prime field.
  static var circuitIDPrefix: [UInt8] { get }
  /// Sum over the layer's quads of k[v] * eqg[g] * eql[h0] * eqr[h1] (the bound quad).
  static func quadSum(layer: CircuitLayer, k: [Self], eqg: [Self], eql: [Self], eqr: [Self])
    -> Self
  /// The EQ table of the first `bits` challenges of `r` (2^bits elements; see `bindEq`).
  static func eqTable(_ r: [Self], bits: Int) -> [Self]
  /// y[i] += a * x[i] for i in 0..<min(y.count, x.count).
  static func axpy(_ y: inout [Self], _ a: Self, _ x: [Self])
  /// The sum of a[i] * b[i] for i in 0..<count (buffers of at least `count` elements).
  static func dot(_ a: UnsafeBufferPointer<Self>, _ b: UnsafeBufferPointer<Self>, count: Int)
    -> Self
  /// The barycentric weights w_i = 1 / prod_{m != i} (x_i - x_m) of the points `xs`.
  static func barycentricWeights(_ xs: [Self]) -> [Self]
}

extension ZKField {
  package static func eqTable(_ r: [Self], bits: Int) -> [Self] {
    var eq = [Self](repeating: .zero, count: 1 << bits)
    eq[0] = .one
    for b in 0..<bits {
      let rb = r[b]
      let half = 1 << b
      for x in 0..<half {
        let v = eq[x]
        let hi = v * rb
        eq[x + half] = hi
        eq[x] = v - hi
      }
    }
    return eq
  }

  package static func axpy(_ y: inout [Self], _ a: Self, _ x: [Self]) {
    for i in 0..<min(y.count, x.count) { y[i] = y[i] + a * x[i] }
  }

  package static func dot(
    _ a: UnsafeBufferPointer<Self>, _ b: UnsafeBufferPointer<Self>, count: Int
  ) -> Self {
    var acc = Self.zero
    for i in 0..<count { acc = acc + a[i] * b[i] }
    return acc
  }

  /// `self * self`.
  @inline(__always) var squared: Self { self * self }

  /// The serialized bytes of the element.
  var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(Self.byteCount)
    write(to: &out)
    return out
  }

  /// Inverts every element of `values` (all non-zero) with one field inversion (Montgomery's
  /// trick).
  static func batchInvert(_ values: inout [Self]) {
    guard !values.isEmpty else { return }
    var prefix = [Self](repeating: .one, count: values.count)
    var acc = Self.one
    for i in values.indices {
      prefix[i] = acc
      acc = acc * values[i]
    }
    var inv = acc.inverse
    for i in values.indices.reversed() {
      let v = values[i]
      values[i] = inv * prefix[i]
      inv = inv * v
    }
  }
}

/// Little-endian 64-bit limbs of bytes at an offset (no bounds check beyond the caller's).
@inline(__always)
func loadLE64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
  var v: UInt64 = 0
  for i in (0..<8).reversed() { v = (v << 8) | UInt64(bytes[offset + i]) }
  return v
}

/// Appends `value`'s 8 little-endian bytes.
@inline(__always)
func storeLE64(_ value: UInt64, _ out: inout [UInt8]) {
  for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
}
