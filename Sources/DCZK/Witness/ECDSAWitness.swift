/// The order n of P-256's group (SEC 2 §2.4.2), as a field for the witness's scalar arithmetic
/// (s⁻¹, e/s, r/s, −s); Montgomery constants for R = 2^256.
package enum P256ScalarModulus: PrimeModulus {
  package static var p: (UInt64, UInt64, UInt64, UInt64) {
    (0xf3b9_cac2_fc63_2551, 0xbce6_faad_a717_9e84, 0xffff_ffff_ffff_ffff, 0xffff_ffff_0000_0000)
  }
  package static var n0: UInt64 { 0xccd1_c8aa_ee00_bc4f }
  package static var r2: (UInt64, UInt64, UInt64, UInt64) {
    (0x8324_4c95_be79_eea2, 0x4699_799c_49bd_6fa6, 0x2845_b239_2b6b_ec59, 0x66e1_2d94_f3d9_5620)
  }
  package static var rModP: (UInt64, UInt64, UInt64, UInt64) {
    (0x0c46_353d_039c_daaf, 0x4319_0552_58e8_617b, 0, 0x0000_0000_ffff_ffff)
  }
  package static var byteCount: Int { 32 }
  package static var fieldID: Int { 0 }
}

typealias FieldP256Scalar = PrimeField<P256ScalarModulus>

extension PrimeField {
  /// A 256-bit big-endian integer reduced modulo the field's prime (one subtraction: every
  /// prime here is above 2^255).
  static func reducing(bigEndian bytes: [UInt8]) -> Self {
    let limbs = (0..<4).map { limb in
      (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[(3 - limb) * 8 + $1]) }
    }
    return Self(limbs[0], limbs[1], limbs[2], limbs[3]).reducedOnce * r2Value
  }

  /// The canonical value as 32 big-endian bytes.
  var bigEndian: [UInt8] {
    let c = canonical
    return [c.3, c.2, c.1, c.0].flatMap { limb in
      (0..<8).map { UInt8(truncatingIfNeeded: limb >> (56 - 8 * $0)) }
    }
  }

  /// The same integer in another field (the value must be below both primes).
  func converted<Other: PrimeModulus>(to: PrimeField<Other>.Type) -> PrimeField<Other> {
    PrimeField<Other>.reducing(bigEndian: bigEndian)
  }
}

/// P-256 points in projective coordinates with the complete addition and doubling formulas of
/// Renes, Costello and Batina, "Complete addition formulas for prime order elliptic curves"
/// (eprint 2015/1060), Algorithms 1 and 3 (general a; a = −3). The signature circuit checks
/// every intermediate point of its 256-step multi-scalar loop in exactly these projective
/// coordinates (longfellow-zk `lib/ec/elliptic_curve.h` addE / doubleE), so the witness must
/// compute them with the same formulas: no backend exposes projective intermediates.
struct P256Projective {
  var x: FieldP256
  var y: FieldP256
  var z: FieldP256

  static let a = -(FieldP256(3))
  /// 3b, b from SEC 2 §2.4.2.
  static let threeB: FieldP256 = {
    let b = FieldP256.reducing(
      bigEndian: hex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b"))
    return b + b + b
  }()
  static let generator = P256Projective(
    x: .reducing(
      bigEndian: hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")),
    y: .reducing(
      bigEndian: hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")),
    z: .one)
  static let identity = P256Projective(x: .zero, y: .one, z: .zero)

  static func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
  }

  /// Algorithm 1 of eprint 2015/1060.
  func adding(_ q: P256Projective) -> P256Projective {
    let a = Self.a
    let b3 = Self.threeB
    var t0 = x * q.x
    var t1 = y * q.y
    var t2 = z * q.z
    var t3 = (x + y) * (q.x + q.y)
    var t4 = t0 + t1
    t3 = t3 - t4
    t4 = (x + z) * (q.x + q.z)
    var t5 = t0 + t2
    t4 = t4 - t5
    t5 = (y + z) * (q.y + q.z)
    var x3 = t1 + t2
    t5 = t5 - x3
    var z3 = a * t4
    x3 = b3 * t2
    z3 = x3 + z3
    x3 = t1 - z3
    z3 = t1 + z3
    var y3 = x3 * z3
    t1 = t0 + t0 + t0
    t2 = a * t2
    t4 = b3 * t4
    t1 = t1 + t2
    t2 = a * (t0 - t2)
    t4 = t4 + t2
    t0 = t1 * t4
    y3 = y3 + t0
    t0 = t5 * t4
    x3 = t3 * x3 - t0
    t0 = t3 * t1
    z3 = t5 * z3 + t0
    return P256Projective(x: x3, y: y3, z: z3)
  }

  /// Algorithm 3 of eprint 2015/1060.
  func doubled() -> P256Projective {
    let a = Self.a
    let b3 = Self.threeB
    var t0 = x * x
    let t1 = y * y
    var t2 = z * z
    var t3 = x * y
    t3 = t3 + t3
    var z3 = x * z
    z3 = z3 + z3
    var x3 = a * z3
    var y3 = b3 * t2 + x3
    x3 = t1 - y3
    y3 = t1 + y3
    y3 = x3 * y3
    x3 = t3 * x3
    z3 = b3 * z3
    t2 = a * t2
    t3 = a * (t0 - t2) + z3
    z3 = t0 + t0
    t0 = (z3 + t0 + t2) * t3
    y3 = y3 + t0
    t2 = y * z
    t2 = t2 + t2
    t0 = t2 * t3
    x3 = x3 - t0
    z3 = t2 * t1
    z3 = z3 + z3
    z3 = z3 + z3
    return P256Projective(x: x3, y: y3, z: z3)
  }

  /// The affine point (z = 1), or self for the identity.
  var normalized: P256Projective {
    guard !z.isZero else { return self }
    let inverse = z.inverse
    return P256Projective(x: x * inverse, y: y * inverse, z: .one)
  }

  /// u·P + v·Q by a joint double-and-add (bits most significant first).
  static func combination(_ u: [UInt8], _ p: P256Projective, _ v: [UInt8], _ q: P256Projective)
    -> P256Projective
  {
    let sum = p.adding(q)
    var accumulator = identity
    for bit in (0..<256).reversed() {
      accumulator = accumulator.doubled()
      switch (ECDSAWitness.bit(u, bit), ECDSAWitness.bit(v, bit)) {
      case (1, 1): accumulator = accumulator.adding(sum)
      case (1, 0): accumulator = accumulator.adding(p)
      case (0, 1): accumulator = accumulator.adding(q)
      default: break
      }
    }
    return accumulator
  }
}

/// The witness of one ECDSA P-256 verification in the signature circuit (longfellow-zk
/// `lib/circuits/ecdsa/verify_witness.h`, VerifyWitness3): the circuit checks
/// e·G + r·PK − s·R = identity (FIPS 186-5 §6.4.2 rearranged, R the signature's point with
/// x = r) by a 256-step loop over the 3-bit digits (e, r, −s), with a table of the 7 non-zero
/// sums of G, PK and R.
struct ECDSAWitness {
  var rx = FieldP256.zero
  var ry = FieldP256.zero
  var rxInverse = FieldP256.zero
  var sInverse = FieldP256.zero
  var publicKeyInverse = FieldP256.zero
  /// G+PK, G+R, PK+R, G+R+PK (affine x, y each).
  var table = [FieldP256](repeating: .zero, count: 8)
  var digits = [FieldP256](repeating: .zero, count: 256)
  var intermediates = [P256Projective](repeating: .identity, count: 256)

  static func bit(_ bigEndian: [UInt8], _ index: Int) -> Int {
    Int(bigEndian[31 - index / 8] >> (index % 8)) & 1
  }

  /// - Parameters: the public key (affine), the digest e and r, s (32 bytes big-endian each).
  /// - Returns: nil when the signature does not verify (the loop does not end at the identity).
  init?(publicKey: (x: FieldP256, y: FieldP256), e: [UInt8], r: [UInt8], s: [UInt8]) {
    let sScalar = FieldP256Scalar.reducing(bigEndian: s)
    guard !sScalar.isZero else { return nil }
    let sInverseScalar = sScalar.inverse
    let eOverS = (FieldP256Scalar.reducing(bigEndian: e) * sInverseScalar).bigEndian
    let rOverS = (FieldP256Scalar.reducing(bigEndian: r) * sInverseScalar).bigEndian
    let pk = P256Projective(x: publicKey.x, y: publicKey.y, z: .one)
    let g = P256Projective.generator
    let point = P256Projective.combination(eOverS, g, rOverS, pk).normalized
    rx = FieldP256.reducing(bigEndian: r)
    ry = point.y
    if !rx.isZero { rxInverse = rx.inverse }
    let minusS = (-sScalar).bigEndian
    let minusSInBase = FieldP256.reducing(bigEndian: minusS)
    if !minusSInBase.isZero { sInverse = minusSInBase.inverse }
    if !publicKey.x.isZero { publicKeyInverse = publicKey.x.inverse }
    let rPoint = P256Projective(x: rx, y: ry, z: .one)
    let sums = [g.adding(pk).normalized, g.adding(rPoint).normalized, pk.adding(rPoint).normalized]
    let all = sums[1].adding(pk).normalized
    table = [sums[0].x, sums[0].y, sums[1].x, sums[1].y, sums[2].x, sums[2].y, all.x, all.y]
    // Digit b = e_i + 2 r_i + 4 (−s)_i → addend 1:G 2:PK 3:G+PK 4:R 5:R+G 6:R+PK 7:G+R+PK.
    let addends = [P256Projective.identity, g, pk, sums[0], rPoint, sums[1], sums[2], all]
    var accumulator = P256Projective.identity
    let seven = FieldP256(7)
    for step in 0..<256 {
      let index = 255 - step
      let digit = Self.bit(e, index) + 2 * Self.bit(r, index) + 4 * Self.bit(minusS, index)
      digits[step] = FieldP256(UInt64(2 * digit)) - seven
      if step > 0 { accumulator = accumulator.doubled() }
      accumulator = accumulator.adding(addends[digit])
      intermediates[step] = accumulator
    }
    guard accumulator.x.isZero, accumulator.z.isZero else { return nil }
  }

  /// VerifyWitness3::fill_witness order: rx, ry, rx⁻¹, (−s)⁻¹, pkx⁻¹, the table, then per step
  /// its digit and (all but the last step) the projective intermediate point.
  func append(to inputs: inout [FieldP256]) {
    inputs += [rx, ry, rxInverse, sInverse, publicKeyInverse]
    inputs += table
    for step in 0..<256 {
      inputs.append(digits[step])
      if step < 255 {
        inputs += [intermediates[step].x, intermediates[step].y, intermediates[step].z]
      }
    }
  }
}
