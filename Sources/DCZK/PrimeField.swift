/// The modulus of a prime field of at most 256 bits, with its Montgomery constants (R = 2^256).
package protocol PrimeModulus: Sendable {
  /// The prime, four little-endian 64-bit limbs.
  static var p: (UInt64, UInt64, UInt64, UInt64) { get }
  /// -p^-1 mod 2^64.
  static var n0: UInt64 { get }
  /// R^2 mod p.
  static var r2: (UInt64, UInt64, UInt64, UInt64) { get }
  /// R mod p (one in Montgomery form).
  static var rModP: (UInt64, UInt64, UInt64, UInt64) { get }
  /// Bytes of a serialized element.
  static var byteCount: Int { get }
  /// The draft's FieldID.
  static var fieldID: Int { get }
}

/// P-256's base field, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (draft, FieldID 0x01).
package enum P256BaseModulus: PrimeModulus {
  package static var p: (UInt64, UInt64, UInt64, UInt64) {
    (0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_ffff, 0, 0xffff_ffff_0000_0001)
  }
  package static var n0: UInt64 { 1 }
  package static var r2: (UInt64, UInt64, UInt64, UInt64) {
    (3, 0xffff_fffb_ffff_ffff, 0xffff_ffff_ffff_fffe, 0x0000_0004_ffff_fffd)
  }
  package static var rModP: (UInt64, UInt64, UInt64, UInt64) {
    (1, 0xffff_ffff_0000_0000, 0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_fffe)
  }
  package static var byteCount: Int { 32 }
  package static var fieldID: Int { 1 }
}

/// secp256k1's base field, p = 2^256 - 2^32 - 977 (draft, FieldID 0x0a; the draft's
/// Fiat–Shamir test vectors use it).
package enum Secp256k1BaseModulus: PrimeModulus {
  package static var p: (UInt64, UInt64, UInt64, UInt64) {
    (0xffff_fffe_ffff_fc2f, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff)
  }
  package static var n0: UInt64 { 0xd838_091d_d225_3531 }
  package static var r2: (UInt64, UInt64, UInt64, UInt64) { (0x7a2_000e_90a1, 1, 0, 0) }
  package static var rModP: (UInt64, UInt64, UInt64, UInt64) { (0x1_0000_03d1, 0, 0, 0) }
  package static var byteCount: Int { 32 }
  package static var fieldID: Int { 10 }
}

/// The field of p = 2^128 - 2^108 + 1 (draft, FieldID 0x06; the draft's circuit and sumcheck
/// test vectors use it).
package enum Fp128Modulus: PrimeModulus {
  package static var p: (UInt64, UInt64, UInt64, UInt64) { (1, 0xffff_f000_0000_0000, 0, 0) }
  package static var n0: UInt64 { 0xffff_ffff_ffff_ffff }
  package static var r2: (UInt64, UInt64, UInt64, UInt64) {
    (0x0af0_f0be_af0c_e3f2, 0x2240_af08_f9f0_9f5f, 0, 0)
  }
  package static var rModP: (UInt64, UInt64, UInt64, UInt64) {
    (0xfffe_ffff_efff_ff01, 0x000f_dfff_feff_ffef, 0, 0)
  }
  package static var byteCount: Int { 16 }
  package static var fieldID: Int { 6 }
}

/// An element of the prime field of `M`, in Montgomery form over four 64-bit limbs.
package struct PrimeField<M: PrimeModulus>: ZKField, Hashable {
  // Montgomery form a * R mod p, little-endian limbs.
  @usableFromInline var v0: UInt64
  @usableFromInline var v1: UInt64
  @usableFromInline var v2: UInt64
  @usableFromInline var v3: UInt64

  @inline(__always) init(_ v0: UInt64, _ v1: UInt64, _ v2: UInt64, _ v3: UInt64) {
    self.v0 = v0
    self.v1 = v1
    self.v2 = v2
    self.v3 = v3
  }

  package static var zero: Self { Self(0, 0, 0, 0) }
  package static var one: Self {
    let r = M.rModP
    return Self(r.0, r.1, r.2, r.3)
  }
  package static var fieldID: Int { M.fieldID }
  package static var byteCount: Int { M.byteCount }
  package static var subfieldByteCount: Int { M.byteCount }
  /// P2 = 2 (draft, sumcheck "Representation of polynomials").
  package static var sumcheckP2: Self { one + one }

  package var isZero: Bool { (v0 | v1 | v2 | v3) == 0 }

  /// The element `value` (reduced modulo p).
  package init(_ value: UInt64) {
    self = Self(value, 0, 0, 0).reducedOnce * Self.r2Value
  }

  @inline(__always) static var r2Value: Self {
    let r = M.r2
    return Self(r.0, r.1, r.2, r.3)
  }

  /// Subtracts p once when the limbs are at least p (inputs below 2p).
  @inline(__always) var reducedOnce: Self {
    let p = M.p
    let (d0, b0) = v0.subtractingReportingOverflow(p.0)
    let (d1, b1) = Self.sub3(v1, p.1, b0)
    let (d2, b2) = Self.sub3(v2, p.2, b1)
    let (d3, b3) = Self.sub3(v3, p.3, b2)
    return b3 ? self : Self(d0, d1, d2, d3)
  }

  @inline(__always) package static func + (lhs: Self, rhs: Self) -> Self {
    let (s0, c0) = lhs.v0.addingReportingOverflow(rhs.v0)
    let (s1, c1) = add3(lhs.v1, rhs.v1, c0)
    let (s2, c2) = add3(lhs.v2, rhs.v2, c1)
    let (s3, c3) = add3(lhs.v3, rhs.v3, c2)
    if c3 {
      // The sum is 2^256 + s; subtracting p wraps back below 2^256.
      let p = M.p
      let (d0, b0) = s0.subtractingReportingOverflow(p.0)
      let (d1, b1) = sub3(s1, p.1, b0)
      let (d2, b2) = sub3(s2, p.2, b1)
      let (d3, _) = sub3(s3, p.3, b2)
      return Self(d0, d1, d2, d3)
    }
    return Self(s0, s1, s2, s3).reducedOnce
  }

  @inline(__always) package static func - (lhs: Self, rhs: Self) -> Self {
    let (d0, b0) = lhs.v0.subtractingReportingOverflow(rhs.v0)
    let (d1, b1) = sub3(lhs.v1, rhs.v1, b0)
    let (d2, b2) = sub3(lhs.v2, rhs.v2, b1)
    let (d3, b3) = sub3(lhs.v3, rhs.v3, b2)
    guard b3 else { return Self(d0, d1, d2, d3) }
    let p = M.p
    let (s0, c0) = d0.addingReportingOverflow(p.0)
    let (s1, c1) = add3(d1, p.1, c0)
    let (s2, c2) = add3(d2, p.2, c1)
    let (s3, _) = add3(d3, p.3, c2)
    return Self(s0, s1, s2, s3)
  }

  @inline(__always) package static prefix func - (value: Self) -> Self { zero - value }

  @inline(__always) static func add3(_ a: UInt64, _ b: UInt64, _ c: Bool) -> (UInt64, Bool) {
    let (s, o1) = a.addingReportingOverflow(b)
    let (t, o2) = s.addingReportingOverflow(c ? 1 : 0)
    return (t, o1 || o2)
  }

  @inline(__always) static func sub3(_ a: UInt64, _ b: UInt64, _ c: Bool) -> (UInt64, Bool) {
    let (s, o1) = a.subtractingReportingOverflow(b)
    let (t, o2) = s.subtractingReportingOverflow(c ? 1 : 0)
    return (t, o1 || o2)
  }

  /// a * b + c + carry: low word returned, high word in carry (cannot overflow 128 bits).
  @inline(__always) static func mac(
    _ a: UInt64, _ b: UInt64, _ c: UInt64, _ carry: inout UInt64
  ) -> UInt64 {
    let (hi, lo) = a.multipliedFullWidth(by: b)
    let (s1, o1) = lo.addingReportingOverflow(c)
    let (s2, o2) = s1.addingReportingOverflow(carry)
    carry = hi &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return s2
  }

  /// One CIOS round: t += a * b, then t = (t + m p) / 2^64 with m = t0 * n0 mod 2^64.
  @inline(__always) static func round(
    _ a: Self, _ b: UInt64,
    _ t0: inout UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64,
    _ t4: inout UInt64
  ) {
    let p = M.p
    var carry: UInt64 = 0
    let s0 = mac(a.v0, b, t0, &carry)
    let s1 = mac(a.v1, b, t1, &carry)
    let s2 = mac(a.v2, b, t2, &carry)
    let s3 = mac(a.v3, b, t3, &carry)
    let (s4, o4) = t4.addingReportingOverflow(carry)
    let m = s0 &* M.n0
    var c: UInt64 = 0
    _ = mac(m, p.0, s0, &c)
    t0 = mac(m, p.1, s1, &c)
    t1 = mac(m, p.2, s2, &c)
    t2 = mac(m, p.3, s3, &c)
    let (s, o) = s4.addingReportingOverflow(c)
    t3 = s
    t4 = (o4 ? 1 : 0) &+ (o ? 1 : 0)
  }

  /// Montgomery product (CIOS, unrolled): a * b * R^-1 mod p.
  @inline(__always) package static func * (lhs: Self, rhs: Self) -> Self {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    var t2: UInt64 = 0
    var t3: UInt64 = 0
    var t4: UInt64 = 0
    round(lhs, rhs.v0, &t0, &t1, &t2, &t3, &t4)
    round(lhs, rhs.v1, &t0, &t1, &t2, &t3, &t4)
    round(lhs, rhs.v2, &t0, &t1, &t2, &t3, &t4)
    round(lhs, rhs.v3, &t0, &t1, &t2, &t3, &t4)
    if t4 != 0 {
      let p = M.p
      let (d0, b0) = t0.subtractingReportingOverflow(p.0)
      let (d1, b1) = sub3(t1, p.1, b0)
      let (d2, b2) = sub3(t2, p.2, b1)
      let (d3, _) = sub3(t3, p.3, b2)
      return Self(d0, d1, d2, d3)
    }
    return Self(t0, t1, t2, t3).reducedOnce
  }

  /// a^(p - 2) (Fermat).
  package var inverse: Self {
    let p = M.p
    // p - 2, borrowing across limbs (p = 2^128 - 2^108 + 1 ends in ...0001).
    let (e0, b0) = p.0.subtractingReportingOverflow(2)
    let (e1, b1) = Self.sub3(p.1, 0, b0)
    let (e2, b2) = Self.sub3(p.2, 0, b1)
    let (e3, _) = Self.sub3(p.3, 0, b2)
    let e = [e0, e1, e2, e3]
    var result = Self.one
    var base = self
    for limb in e {
      var bits = limb
      for _ in 0..<64 {
        if bits & 1 == 1 { result = result * base }
        base = base * base
        bits >>= 1
      }
    }
    return result
  }

  /// The canonical (non-Montgomery) limbs.
  var canonical: (UInt64, UInt64, UInt64, UInt64) {
    let r = self * Self(1, 0, 0, 0)
    return (r.v0, r.v1, r.v2, r.v3)
  }

  package static func read(_ bytes: [UInt8], at offset: Int) -> Self? {
    let wide = M.byteCount == 32
    let raw = Self(
      loadLE64(bytes, offset), loadLE64(bytes, offset + 8),
      wide ? loadLE64(bytes, offset + 16) : 0, wide ? loadLE64(bytes, offset + 24) : 0)
    guard isBelowModulus(raw) else { return nil }
    return raw * r2Value
  }

  /// Whether the raw limbs are below p.
  static func isBelowModulus(_ raw: Self) -> Bool {
    let p = M.p
    if raw.v3 != p.3 { return raw.v3 < p.3 }
    if raw.v2 != p.2 { return raw.v2 < p.2 }
    if raw.v1 != p.1 { return raw.v1 < p.1 }
    return raw.v0 < p.0
  }

  package static func readSubfield(_ bytes: [UInt8], at offset: Int) -> Self? {
    read(bytes, at: offset)
  }

  package func write(to bytes: inout [UInt8]) {
    let c = canonical
    storeLE64(c.0, &bytes)
    storeLE64(c.1, &bytes)
    if M.byteCount == 32 {
      storeLE64(c.2, &bytes)
      storeLE64(c.3, &bytes)
    }
  }

  package static func evaluationPoint(_ i: Int) -> Self { Self(UInt64(i)) }

  /// Rejection sampling: `byteCount` bytes, little-endian, until below p (draft §"Generating
  /// challenges"; the same as generate_nat(p) for these primes).
  package static func sample(_ stream: inout FiatShamirStream) -> Self {
    var buffer = [UInt8](repeating: 0, count: M.byteCount)
    while true {
      stream.fill(&buffer, count: M.byteCount)
      if let value = read(buffer, at: 0) { return value }
    }
  }

  /// For the points 0, 1, ..., k-1: w_i = (-1)^(k-1-i) / (i! (k-1-i)!), in O(k).
  package static func barycentricWeights(_ xs: [Self]) -> [Self] {
    let k = xs.count
    guard k > 0 else { return [] }
    var factorial = [Self](repeating: .one, count: k)
    for i in 1..<max(k, 1) { factorial[i] = factorial[i - 1] * Self(UInt64(i)) }
    var weights = [Self](repeating: .one, count: k)
    for i in 0..<k {
      let w = factorial[i] * factorial[k - 1 - i]
      weights[i] = (k - 1 - i) % 2 == 0 ? w : -w
    }
    batchInvert(&weights)
    return weights
  }

  package static var circuitIDPrefix: [UInt8] {
    var out: [UInt8] = []
    storeLE64(1, &out)
    (zero - one).write(to: &out)
    return out
  }
}

/// P-256's base field.
package typealias FieldP256 = PrimeField<P256BaseModulus>
