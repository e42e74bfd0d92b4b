import DCTestSupport
import Testing

@testable import DCZK

/// An element from its big-endian hex (how the draft's vectors print them).
func element<F: ZKField>(_ hex: String, _: F.Type = F.self) -> F? {
  var digits = hex.hasPrefix("0x") ? String(hex.dropFirst(2)) : hex
  digits = String(repeating: "0", count: max(0, 2 * F.byteCount - digits.count)) + digits
  return F.read(Array(hexBytes(digits).reversed()), at: 0)
}

/// Big-endian hex of an element.
func hexBE<F: ZKField>(_ value: F) -> String { hexString(value.bytes.reversed()) }

@Suite struct FieldTests {
  // Python big integers (pow, %) computed these products, sums, differences and inverses.
  static let p256Cases: [(String, String, String, String, String, String)] = [
    (
      "d23f0824128b2f330c5c7fd0a6a3a4506513270e269e0d37f2a74de452e6b438",
      "36f675cc81e74ef5e8e25d940ed904759531985d5d9dc9f81818e811892f902b",
      "8a0738a0a9cc1a6bdc2ec5cad956023880c2fafb38567705e3a79ea958be0737",
      "09357df194727e27f53edd64b57ca8c5fa44bf6a843bd7300ac035f5dc164464",
      "9b48925790a3e03d237a223c97ca9fdacfe18eb0c900433fda8e65d2c9b7240d",
      "ff263e96a649b617c39d465ae2d88c3a989bc2de4a108cd4fd58c4edcad4bd30"
    ),
    (
      "8d116ece1738f7d93d9c172411e20b8f6b0d549b6f03675a1600a35a099950d8",
      "a170b33839263059f28c105d1fb17c2390c192cfd3ac94af0f21ddb66cad4a26",
      "b885da50d1e04695e4053c5c68703ecc40618f4687dadeaab26a8b8aaa2077f2",
      "2e822207505f283230282781319387b2fbcee76a42affc092522811076469aff",
      "eba0bb94de12c7804b1006c6f2308f6bda4bc1cc9b56d2ab06dec5a39cec06b1",
      "9e3bde91dc04bd8357ad747c814c18bec6dd8fc7e15d56417c6b5f80591dccb6"
    ),
  ]

  @Test func p256Arithmetic() throws {
    for (a, b, product, sum, difference, inverse) in Self.p256Cases {
      let x = try #require(element(a, FieldP256.self))
      let y = try #require(element(b, FieldP256.self))
      #expect(hexBE(x) == a)
      #expect(hexBE(x * y) == product)
      #expect(hexBE(x + y) == sum)
      #expect(hexBE(x - y) == difference)
      #expect(hexBE(x.inverse) == inverse)
      #expect(x * x.inverse == .one)
    }
  }

  @Test func primeFieldRejectsNonCanonicalElements() {
    // p itself and 2^256 - 1 are not canonical encodings (draft §"Serializing a single field
    // element"); p - 1 is.
    let p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
    #expect(element(p, FieldP256.self) == nil)
    #expect(element(String(repeating: "f", count: 64), FieldP256.self) == nil)
    let pMinusOne = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe"
    #expect(element(pMinusOne, FieldP256.self) == FieldP256.zero - .one)
    let p128 = "fffff000000000000000000000000001"
    #expect(element(p128, PrimeField<Fp128Modulus>.self) == nil)
  }

  @Test func smallPrimeFieldsAgreeWithIntegers() {
    typealias F = PrimeField<Fp128Modulus>
    #expect(F(6) * F(7) == F(42))
    #expect(F(3) - F(5) + F(2) == .zero)
    #expect(F(9) * F(9).inverse == .one)
    typealias K = PrimeField<Secp256k1BaseModulus>
    #expect(K(1 << 40) * K(1 << 40) == K(1 << 50) * K(1 << 30))
    #expect(hexBE(K(7)) == String(repeating: "0", count: 63) + "7")
  }

  @Test func gf2128SubfieldBasisMatchesTheReference() {
    // beta_1 = g = x^((2^128-1)/(2^16-1)); the Rust reference verifier lists the same basis.
    #expect(hexBE(GF2128.subfieldBasis[1]) == "5c5971877501d4b8f1871e01b64fda4c")
    #expect(hexBE(GF2128.subfieldBasis[15]) == "18d4bbb6833c5ae8b683012350e55753")
    // g generates GF(2^16): g^(2^16 - 1) = 1.
    var power = GF2128.one
    for _ in 0..<65535 { power = power * GF2128.subfieldBasis[1] }
    #expect(power == .one)
  }

  @Test func gf2128Arithmetic() {
    let x = GF2128(lo: 2, hi: 0)
    // x^128 = x^7 + x^2 + x + 1.
    var power = GF2128.one
    for _ in 0..<128 { power = power * x }
    #expect(power == GF2128(lo: 0x87, hi: 0))
    let a = GF2128(lo: 0x0123_4567_89ab_cdef, hi: 0xfedc_ba98_7654_3210)
    #expect(a * a.inverse == .one)
    #expect(a + a == .zero)
    #expect(GF2128.injection(3) == GF2128.subfieldBasis[0] + GF2128.subfieldBasis[1])
  }
}
