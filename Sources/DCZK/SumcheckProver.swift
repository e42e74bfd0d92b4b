/// The random pads of one circuit's padded sumcheck (draft-google-cfrg-libzk sumcheck
/// §"Transcript encryption and deferred verification"): per layer, per round and hand, a pad
/// for the evaluations at P0 and P2 (the one at P1 is zero: P1 is implied), and the two claim
/// pads. The prover commits to them as witnesses in the order `SumcheckVerifier` names them.
package struct SumcheckPad<F: ZKField>: Sendable {
  /// Per layer: round r, hand h: the P0 pad at 4r + 2h, the P2 pad at 4r + 2h + 1.
  package var rounds: [[F]]
  /// Per layer: the claim pads.
  package var claims: [(F, F)]

  /// Fresh pads for `circuit` from `random`.
  package init(circuit: ZKCircuit<F>, random: inout ZKRandom) {
    rounds = circuit.layers.map { layer in (0..<(4 * layer.logw)).map { _ in F.random(&random) } }
    claims = circuit.layers.map { _ in (F.random(&random), F.random(&random)) }
  }

  /// The pads as witnesses after the private inputs: per layer the 4 * logw round pads, the
  /// two claim pads and their product (sumcheck §"Transcript encryption").
  package var witnesses: [F] {
    var out: [F] = []
    for (rounds, claims) in zip(rounds, claims) {
      out += rounds
      out += [claims.0, claims.1, claims.0 * claims.1]
    }
    return out
  }
}

/// The wires a layer's quads read, by hand, with their coefficients once the output wires are
/// bound (the C++ `HQuad`): entry i is coefficient v[i] on W[h0[i]] * W[h1[i]].
struct BoundQuad<F: ZKField> {
  var h0: [UInt32]
  var h1: [UInt32]
  var v: [F]

  /// Q(g, h0, h1) summed against EQ_g = eq(g0) + alpha eq(g1); an assertion (constant 0) gets
  /// beta (sumcheck §"in-circuit assertions"). Adjacent quads with the same hands are merged.
  init(layer: CircuitLayer, k: [F], eqg: [F]) {
    h0 = []
    h1 = []
    v = []
    h0.reserveCapacity(layer.count)
    h1.reserveCapacity(layer.count)
    v.reserveCapacity(layer.count)
    layer.quads.withUnsafeBufferPointer { q in
      for i in 0..<layer.count {
        let a = q[4 * i + 1]
        let b = q[4 * i + 2]
        let value = k[Int(q[4 * i + 3])] * eqg[Int(q[4 * i])]
        if let last = v.indices.last, h0[last] == a, h1[last] == b {
          v[last] = v[last] + value
        } else {
          h0.append(a)
          h1.append(b)
          v.append(value)
        }
      }
    }
  }

  /// Binds the low bit of `hand`'s index to r: Q'(x) = (1 - r) Q(2x) + r Q(2x + 1), merging
  /// an entry with its neighbour when they are the two halves.
  mutating func bind(hand: Int, _ r: F) {
    let oneMinusR = F.one - r
    var write = 0
    var read = 0
    let n = v.count
    while read < n {
      let mine = hand == 0 ? h0[read] : h1[read]
      let other = hand == 0 ? h1[read] : h0[read]
      var value: F
      if read + 1 < n, mine & 1 == 0, (hand == 0 ? h0[read + 1] : h1[read + 1]) == mine + 1,
        (hand == 0 ? h1[read + 1] : h0[read + 1]) == other
      {
        value = oneMinusR * v[read] + r * v[read + 1]
        read += 2
      } else {
        value = (mine & 1 == 0 ? oneMinusR : r) * v[read]
        read += 1
      }
      if hand == 0 {
        h0[write] = mine >> 1
        h1[write] = other
      } else {
        h1[write] = mine >> 1
        h0[write] = other
      }
      v[write] = value
      write += 1
    }
    h0.removeLast(n - write)
    h1.removeLast(n - write)
    v.removeLast(n - write)
  }
}

/// The sumcheck prover for layered circuits (draft-google-cfrg-libzk sumcheck §"The sumcheck
/// protocol for layered circuits"; the C++ `ProverLayers`), with the padding of the ZK
/// composition: each message is the true polynomial minus its pad, each claim the true value
/// minus its pad. Challenges are drawn exactly as `SumcheckVerifier` draws them.
package enum SumcheckProver<F: ZKField> {
  /// The wires of every layer: values[l] are layer l's inputs (values[nl - 1] the circuit's
  /// inputs); nil when an assertion (a quad with constant 0) fails or an output is not zero.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package static func evaluate(circuit: ZKCircuit<F>, inputs: [F]) -> [[F]]? {
    let nl = circuit.layers.count
    var wires = [[F]](repeating: [], count: nl)
    wires[nl - 1] = inputs
    for l in stride(from: nl - 1, through: 0, by: -1) {
      let width = l > 0 ? circuit.layers[l - 1].nw : circuit.nv
      let layer = circuit.layers[l]
      guard let out = evaluateLayer(layer, constants: circuit.constants, wires[l], width) else {
        return nil
      }
      if l > 0 {
        wires[l - 1] = out
      } else if out.contains(where: { !$0.isZero }) {
        return nil
      }
    }
    return wires
  }

  /// V[g] = sum of c * W[h0] * W[h1] over the quads; W[h0] * W[h1] must be 0 where c = 0.
  static func evaluateLayer(_ layer: CircuitLayer, constants: [F], _ w: [F], _ width: Int) -> [F]? {
    var out = [F](repeating: .zero, count: width)
    let ok = layer.quads.withUnsafeBufferPointer { q in
      for i in 0..<layer.count {
        let h0 = Int(q[4 * i + 1])
        let h1 = Int(q[4 * i + 2])
        guard h0 < w.count, h1 < w.count else { return false }
        let product = w[h0] * w[h1]
        let c = constants[Int(q[4 * i + 3])]
        if c.isZero {
          guard product.isZero else { return false }
        } else {
          let g = Int(q[4 * i])
          out[g] = out[g] + c * product
        }
      }
      return true
    }
    return ok ? out : nil
  }

  struct State {
    var g0: [F]
    var g1: [F]
    /// The unpadded claims on the previous layer's two hands.
    var wc: (F, F) = (.zero, .zero)
  }

  /// The padded proof for `wires` (from `evaluate`), on `transcript` positioned where the
  /// verifier starts its sumcheck (after the statement).
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package static func prove(
    circuit: ZKCircuit<F>, wires: [[F]], pad: SumcheckPad<F>, transcript: inout ZKTranscript
  ) -> SumcheckProof<F> {
    _ = transcript.elements(SumcheckVerifier<F>.maxBindings, F.self)
    let g: [F] = transcript.elements(SumcheckVerifier<F>.maxBindings)
    let first = Array(g[0..<circuit.logv])
    var state = State(g0: first, g1: first)
    var rounds: [[F]] = []
    var claims: [(F, F)] = []
    for (ly, layer) in circuit.layers.enumerated() {
      let (values, claim) = proveLayer(
        layer, index: ly, circuit: circuit, wires: wires[ly], pad: pad, state: &state,
        transcript: &transcript)
      rounds.append(values)
      claims.append(claim)
    }
    return SumcheckProof(rounds: rounds, claims: claims)
  }

  private static func proveLayer(
    _ layer: CircuitLayer, index ly: Int, circuit: ZKCircuit<F>, wires: [F], pad: SumcheckPad<F>,
    state: inout State, transcript: inout ZKTranscript
  ) -> (values: [F], claims: (F, F)) {
    let alpha: F = transcript.element()
    let beta: F = transcript.element()
    let width = ly > 0 ? circuit.layers[ly - 1].nw : circuit.nv
    var eqg = bindEq(state.g0, count: width)
    F.axpy(&eqg, alpha, bindEq(state.g1, count: width))
    let k = circuit.constants.map { $0.isZero ? beta : $0 }
    var quad = BoundQuad(layer: layer, k: k, eqg: eqg)
    var sum = state.wc.0 + alpha * state.wc.1
    var hands = [wires, wires]
    var challenges: [[F]] = [[], []]
    var values = [F](repeating: .zero, count: 4 * layer.logw)
    let lagrange = SumcheckVerifier<F>.Lagrange()
    for round in 0..<layer.logw {
      for hand in 0..<2 {
        let evals = roundPolynomial(quad: quad, hand: hand, hands: hands, sum: sum)
        // The padded message: P0 and P2 minus their pads (sumcheck §"Transcript encryption").
        let p0 = evals.0 - pad.rounds[ly][4 * round + 2 * hand]
        let p2 = evals.2 - pad.rounds[ly][4 * round + 2 * hand + 1]
        values[4 * round + hand] = p0
        values[4 * round + 2 + hand] = p2
        transcript.write(element: p0)
        transcript.write(element: p2)
        let r: F = transcript.element()
        challenges[hand].append(r)
        let (l0, l1, l2) = lagrange.basis(r)
        sum = l0 * evals.0 + l1 * evals.1 + l2 * evals.2
        bindDense(&hands[hand], r)
        quad.bind(hand: hand, r)
      }
    }
    let wc = (hands[0][0], hands[1][0])
    let padded = (wc.0 - pad.claims[ly].0, wc.1 - pad.claims[ly].1)
    transcript.write(elements: [padded.0, padded.1])
    state = State(g0: challenges[0], g1: challenges[1], wc: wc)
    return (values, padded)
  }

  /// The round polynomial p(t) = sum over x of QW(t, x) W(t, x) with the hand's low bit set to
  /// t, at 0, 1 and P2; p(0) + p(1) = sum.
  static func roundPolynomial(quad: BoundQuad<F>, hand: Int, hands: [[F]], sum: F) -> (F, F, F) {
    let w = hands[hand]
    let other = hands[1 - hand]
    var qw = [F](repeating: .zero, count: w.count)
    let mine = hand == 0 ? quad.h0 : quad.h1
    let theirs = hand == 0 ? quad.h1 : quad.h0
    for i in quad.v.indices {
      let h = Int(mine[i])
      qw[h] = qw[h] + quad.v[i] * other[Int(theirs[i])]
    }
    // p(t) = c0 + c1 t + c2 t^2 over pairs (w[2i], w[2i+1]) (a missing odd wire is zero).
    var c0 = F.zero
    var c2 = F.zero
    var i = 0
    while i < w.count {
      let q0 = qw[i]
      let w0 = w[i]
      let q1 = i + 1 < w.count ? qw[i + 1] : .zero
      let w1 = i + 1 < w.count ? w[i + 1] : .zero
      c0 = c0 + q0 * w0
      c2 = c2 + (q1 - q0) * (w1 - w0)
      i += 2
    }
    let c1 = sum - c0 - c0 - c2
    let p2 = F.sumcheckP2
    return (c0, c0 + c1 + c2, c0 + (c1 + c2 * p2) * p2)
  }

  /// W'[i] = W[2i] + r (W[2i+1] - W[2i]), a missing odd wire being zero.
  static func bindDense(_ w: inout [F], _ r: F) {
    let half = (w.count + 1) / 2
    for i in 0..<half {
      let a = w[2 * i]
      let b = 2 * i + 1 < w.count ? w[2 * i + 1] : .zero
      w[i] = a + r * (b - a)
    }
    w.removeLast(w.count - half)
  }
}

extension SumcheckProof {
  /// A proof from its parts (rounds in the serialized order, see `rounds`).
  init(rounds: [[F]], claims: [(F, F)]) {
    self.rounds = rounds
    self.claims = claims
  }

  /// The draft §"Serializing a Sumcheck Transcript" bytes: per layer the round values as
  /// `rounds` holds them, then the two claims.
  func write(to out: inout [UInt8]) {
    for (values, claim) in zip(rounds, claims) {
      for v in values { v.write(to: &out) }
      claim.0.write(to: &out)
      claim.1.write(to: &out)
    }
  }
}
