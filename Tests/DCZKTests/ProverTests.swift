import DCCrypto
import Testing

@testable import DCZK

/// A seeded source for reproducible proofs in tests (never in use: provers take SecureRandom).
struct SeededRandom: RandomSource {
  let seed: UInt8
  func bytes(count: Int) -> [UInt8] {
    // SHA-256 in counter mode over the seed: deterministic and well spread.
    var out: [UInt8] = []
    var counter: UInt32 = 0
    while out.count < count {
      out += SHA256.hash(data: [seed] + withUnsafeBytes(of: counter.littleEndian, Array.init))
      counter += 1
    }
    return Array(out[0..<count])
  }
}

/// The DCZK prover on small circuits built here: its proofs are accepted by the DCZK verifier,
/// and a false statement is either refused at commitment or by the verifier.
@Suite struct ProverTests {
  /// Inputs [1, a | b, c, d] (public | private); layer 1 computes a*b, c*1, 1*1 and asserts
  /// b*d = 0; layer 0 outputs a*b*1 - c*1, which must be zero.
  static func circuit<F: ZKField>(_: F.Type) -> ZKCircuit<F> {
    let one = F.one
    let layer1 = CircuitLayer(
      logw: 3, nw: 5, quads: [0, 1, 2, 0, 1, 3, 0, 0, 2, 0, 0, 0, 0, 2, 4, 2])
    let layer0 = CircuitLayer(logw: 2, nw: 3, quads: [0, 0, 2, 0, 0, 1, 2, 1])
    return ZKCircuit(
      nv: 1, logv: 0, npubIn: 2, subfieldBoundary: 0, ninputs: 5,
      constants: [one, -one, .zero], layers: [layer0, layer1],
      id: [UInt8](repeating: 7, count: 32))
  }

  static let settings = LigeroSettings(rateInverse: 4, nreq: 4, blockEnc: 64)

  func roundTrip<F: ZKField>(_: F.Type, a: F, b: F) throws {
    let circuit = Self.circuit(F.self)
    let prover = try ZKProver(circuit: circuit, settings: Self.settings)
    var random = ZKRandom(SeededRandom(seed: 1))
    let inputs: [F] = [.one, a, b, a * b, .zero]
    let proof = try prover.prove(inputs: inputs, sessionID: [1, 2, 3], random: &random)
    let verifier = try ZKVerifier(circuit: circuit, settings: Self.settings)
    var transcript = ZKTranscript(sessionID: [1, 2, 3])
    try verifier.verify(proof: proof, publicInputs: [.one, a], transcript: &transcript)
    // Another public input, another session: refused.
    var other = ZKTranscript(sessionID: [1, 2, 3])
    #expect(throws: ZKError.self) {
      try verifier.verify(proof: proof, publicInputs: [.one, a + .one], transcript: &other)
    }
    var session = ZKTranscript(sessionID: [1, 2, 4])
    #expect(throws: ZKError.self) {
      try verifier.verify(proof: proof, publicInputs: [.one, a], transcript: &session)
    }
    // A witness that does not satisfy the circuit is refused before any proof.
    #expect(throws: ZKError.self) {
      let wrong: [F] = [.one, a, b, a * b + .one, .zero]
      _ = try prover.prove(inputs: wrong, sessionID: [1], random: &random)
    }
    #expect(throws: ZKError.self) {
      _ = try prover.prove(inputs: [.one, a, b, a * b, .one], sessionID: [1], random: &random)
    }
  }

  @Test func p256() throws {
    let three = FieldP256.one + .one + .one
    try roundTrip(FieldP256.self, a: three, b: three * three + .one)
  }

  @Test func gf2128() throws {
    try roundTrip(GF2128.self, a: GF2128(lo: 0x1234, hi: 99), b: GF2128(lo: 5, hi: 0x77))
  }

  @Test func subfieldCoordinates() {
    for j in [0, 1, 2, 0x8000, 0xffff, 0x1234] {
      #expect(GF2128.injection(j).subfieldCoordinates == UInt16(j))
    }
    // GF(2^16) is closed under products; an element outside it (2^16 of 2^128 are inside).
    let product = GF2128.injection(0x1234) * GF2128.injection(0x0f0f)
    #expect(product.subfieldCoordinates.map { GF2128.injection(Int($0)) } == product)
    #expect(GF2128(lo: 0x0123_4567_89ab_cdef, hi: 0xfedc_ba98_7654_3210).subfieldCoordinates == nil)
  }
}
