import CDCZKShim

/// GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1) (draft-google-cfrg-libzk §"Extend method
/// in Field GF 2^k"): bit i of the element is the coefficient of x^i; serialized as 16 bytes,
/// little-endian. Multiplication is the carry-less product from CDCZKShim (PCLMULQDQ).
package struct GF2128: ZKField, Hashable {
  /// Coefficients of x^0 ... x^63.
  package var lo: UInt64
  /// Coefficients of x^64 ... x^127.
  package var hi: UInt64

  @inline(__always) package init(lo: UInt64, hi: UInt64) {
    self.lo = lo
    self.hi = hi
  }

  package static let zero = GF2128(lo: 0, hi: 0)
  package static let one = GF2128(lo: 1, hi: 0)
  package static var fieldID: Int { 4 }
  package static var byteCount: Int { 16 }
  package static var subfieldByteCount: Int { 2 }
  /// P2 = inj(2) = beta_1 (draft, sumcheck "Representation of polynomials").
  package static var sumcheckP2: GF2128 { subfieldBasis[1] }

  @inline(__always) package static func + (lhs: GF2128, rhs: GF2128) -> GF2128 {
    GF2128(lo: lhs.lo ^ rhs.lo, hi: lhs.hi ^ rhs.hi)
  }
  @inline(__always) package static func - (lhs: GF2128, rhs: GF2128) -> GF2128 {
    GF2128(lo: lhs.lo ^ rhs.lo, hi: lhs.hi ^ rhs.hi)
  }
  @inline(__always) package static prefix func - (value: GF2128) -> GF2128 { value }
  @inline(__always) package static func * (lhs: GF2128, rhs: GF2128) -> GF2128 {
    var high: UInt64 = 0
    let low = dc_zk_gf128_mul2(lhs.lo, lhs.hi, rhs.lo, rhs.hi, &high)
    return GF2128(lo: low, hi: high)
  }

  package var isZero: Bool { lo == 0 && hi == 0 }

  /// x^(2^128 - 2) by square-and-multiply (126 squarings and multiplications).
  package var inverse: GF2128 {
    // 2^128 - 2 = 0b111...10: the product of x^(2^i) for i in 1..<128.
    var result = GF2128.one
    var power = self * self
    for _ in 1..<128 {
      result = result * power
      power = power * power
    }
    return result
  }

  package static func read(_ bytes: [UInt8], at offset: Int) -> GF2128? {
    GF2128(lo: loadLE64(bytes, offset), hi: loadLE64(bytes, offset + 8))
  }

  /// A GF(2^16) element as its 16 coordinates over the basis beta_i (draft §"Serializing an
  /// element of a subfield"; little-endian 2 bytes).
  package static func readSubfield(_ bytes: [UInt8], at offset: Int) -> GF2128? {
    injection(Int(bytes[offset]) | Int(bytes[offset + 1]) << 8)
  }

  package func write(to bytes: inout [UInt8]) {
    storeLE64(lo, &bytes)
    storeLE64(hi, &bytes)
  }

  package static func evaluationPoint(_ i: Int) -> GF2128 { injection(i) }

  /// inj(j) = sum of beta_i over the set bits i of j (draft §"Extend method in Field GF 2^k").
  package static func injection(_ j: Int) -> GF2128 {
    var t = GF2128.zero
    var u = j
    var i = 0
    while u != 0 && i < 16 {
      if u & 1 == 1 { t = t + subfieldBasis[i] }
      u >>= 1
      i += 1
    }
    return t
  }

  /// 16 bytes of the stream, little-endian (draft §"Generating challenges").
  package static func sample(_ stream: inout FiatShamirStream) -> GF2128 {
    var buffer = [UInt8](repeating: 0, count: 16)
    stream.fill(&buffer, count: 16)
    return GF2128(lo: loadLE64(buffer, 0), hi: loadLE64(buffer, 8))
  }

  package static var circuitIDPrefix: [UInt8] {
    var out: [UInt8] = []
    storeLE64(2, &out)
    storeLE64(128, &out)
    return out
  }

  /// beta_i = g^i for the generator g = x^((2^128 - 1) / (2^16 - 1)) of GF(2^16) (draft
  /// §"Extend method in Field GF 2^k").
  package static let subfieldBasis: [GF2128] = {
    // (2^128 - 1) / (2^16 - 1) = sum of 2^(16k) for k in 0..<8.
    let exponentLimb: UInt64 = 0x0001_0001_0001_0001
    var g = GF2128.one
    var base = GF2128(lo: 2, hi: 0)  // x
    for limb in [exponentLimb, exponentLimb] {
      var e = limb
      for _ in 0..<64 {
        if e & 1 == 1 { g = g * base }
        base = base * base
        e >>= 1
      }
    }
    var basis: [GF2128] = [.one]
    for _ in 1..<16 { basis.append(basis[basis.count - 1] * g) }
    return basis
  }()

  /// The bound quad with the carry-less products in C (the verifier's hottest loop).
  package static func quadSum(
    layer: CircuitLayer, k: [GF2128], eqg: [GF2128], eql: [GF2128], eqr: [GF2128]
  ) -> GF2128 {
    var out: (UInt64, UInt64) = (0, 0)
    layer.quads.withUnsafeBufferPointer { q in
      k.withUnsafeBytes { kb in
        eqg.withUnsafeBytes { gb in
          eql.withUnsafeBytes { lb in
            eqr.withUnsafeBytes { rb in
              withUnsafeMutableBytes(of: &out) { ob in
                dc_zk_gf128_quad_sum(
                  layer.count, q.baseAddress,
                  kb.baseAddress?.assumingMemoryBound(to: UInt64.self),
                  gb.baseAddress?.assumingMemoryBound(to: UInt64.self),
                  lb.baseAddress?.assumingMemoryBound(to: UInt64.self),
                  rb.baseAddress?.assumingMemoryBound(to: UInt64.self),
                  ob.baseAddress?.assumingMemoryBound(to: UInt64.self))
              }
            }
          }
        }
      }
    }
    return GF2128(lo: out.0, hi: out.1)
  }

  package static func eqTable(_ r: [GF2128], bits: Int) -> [GF2128] {
    precondition(bits <= r.count)
    var eq = [GF2128](repeating: .zero, count: 1 << bits)
    r.withUnsafeBytes { rb in
      eq.withUnsafeMutableBytes { ob in
        dc_zk_gf128_bindeq(
          rb.baseAddress?.assumingMemoryBound(to: UInt64.self), bits,
          ob.baseAddress?.assumingMemoryBound(to: UInt64.self))
      }
    }
    return eq
  }

  package static func axpy(_ y: inout [GF2128], _ a: GF2128, _ x: [GF2128]) {
    let n = min(y.count, x.count)
    var scalar = a
    withUnsafeBytes(of: &scalar) { ab in
      x.withUnsafeBytes { xb in
        y.withUnsafeMutableBytes { yb in
          dc_zk_gf128_axpy(
            n, yb.baseAddress?.assumingMemoryBound(to: UInt64.self),
            ab.baseAddress?.assumingMemoryBound(to: UInt64.self),
            xb.baseAddress?.assumingMemoryBound(to: UInt64.self))
        }
      }
    }
  }

  package static func dot(
    _ a: UnsafeBufferPointer<GF2128>, _ b: UnsafeBufferPointer<GF2128>, count: Int
  ) -> GF2128 {
    var out: (UInt64, UInt64) = (0, 0)
    UnsafeRawBufferPointer(a).withMemoryRebound(to: UInt64.self) { ap in
      UnsafeRawBufferPointer(b).withMemoryRebound(to: UInt64.self) { bp in
        withUnsafeMutableBytes(of: &out) { ob in
          dc_zk_gf128_dot(
            ap.baseAddress, bp.baseAddress, count,
            ob.baseAddress?.assumingMemoryBound(to: UInt64.self))
        }
      }
    }
    return GF2128(lo: out.0, hi: out.1)
  }

  /// The weights' denominators with the carry-less products in C (O(k^2) products).
  package static func barycentricWeights(_ xs: [GF2128]) -> [GF2128] {
    var weights = [GF2128](repeating: .zero, count: xs.count)
    xs.withUnsafeBytes { xb in
      weights.withUnsafeMutableBytes { wb in
        dc_zk_gf128_barycentric_denominators(
          xb.baseAddress?.assumingMemoryBound(to: UInt64.self), xs.count,
          wb.baseAddress?.assumingMemoryBound(to: UInt64.self))
      }
    }
    batchInvert(&weights)
    return weights
  }
}
