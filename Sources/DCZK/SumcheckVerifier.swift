/// Turns a padded sumcheck proof into the constraints Ligero checks (draft-google-cfrg-libzk
/// sumcheck §"Generate constraints from the public inputs and the padded proof"; the C++
/// `ZkCommon::verifier_constraints`).
///
/// The witness layout (sumcheck §"Transcript encryption and deferred verification"): the
/// private inputs, then per layer 4 * logw round pads (round r, hand h: P0 at 4r + 2h, P2 at
/// 4r + 2h + 1), then the claim pads c0, c1 and their product c0 * c1.
package enum SumcheckVerifier<F: ZKField> {
  /// Challenges drawn and discarded before the first layer, then drawn for the output binding
  /// (the reference's MAX_BINDINGS).
  static var maxBindings: Int { 40 }

  /// Lagrange basis of the points 0, 1, P2 at r.
  struct Lagrange {
    let p2: F
    let inv0: F  // 1 / ((0 - 1)(0 - P2)) = 1 / P2
    let inv1: F  // 1 / ((1 - 0)(1 - P2))
    let inv2: F  // 1 / ((P2 - 0)(P2 - 1))

    init() {
      p2 = F.sumcheckP2
      inv0 = p2.inverse
      inv1 = (F.one - p2).inverse
      inv2 = (p2 * (p2 - F.one)).inverse
    }

    func basis(_ r: F) -> (F, F, F) {
      let r1 = r - F.one
      let rp = r - p2
      return (r1 * rp * inv0, r * rp * inv1, r * r1 * inv2)
    }
  }

  struct Claims {
    var logv: Int
    var claim0: WindowExpression<F>?
    var claim1: WindowExpression<F>?
    var wc: (F, F)
    /// Outputs of the next layer to bind (nv, then the previous layer's nw).
    var width: Int
    var g0: [F]
    var g1: [F]
    /// EQ tables of g0 and g1 when already computed (the previous layer's round challenges).
    var eq0: [F] = []
    var eq1: [F] = []

    /// The EQ tables of g0 and g1, covering at least `count` indices, handed over: the claims
    /// keep no reference, so the caller can change and release them without copies (the widest
    /// hash-circuit layer's tables are 16 MB each).
    mutating func takeTables(count: Int) -> ([F], [F]) {
      defer { (eq0, eq1) = ([], []) }
      if eq0.count >= count && eq1.count >= count { return (eq0, eq1) }
      return (bindEq(g0, count: count), bindEq(g1, count: count))
    }
  }

  /// The constraints for `proof` of `circuit` with `publicInputs`, drawing challenges from
  /// `transcript` as the prover did.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package static func constraints(
    circuit: ZKCircuit<F>, publicInputs: [F], proof: SumcheckProof<F>,
    transcript: inout ZKTranscript
  ) -> DeferredConstraints<F> {
    var out = DeferredConstraints<F>()
    _ = transcript.elements(maxBindings, F.self)
    let g: [F] = transcript.elements(maxBindings)
    var claims = Claims(
      logv: circuit.logv, claim0: nil, claim1: nil, wc: (.zero, .zero), width: circuit.nv,
      g0: Array(g[0..<circuit.logv]), g1: Array(g[0..<circuit.logv]))
    let lagrange = Lagrange()
    var base = circuit.nwitness
    for (ly, layer) in circuit.layers.enumerated() {
      layerConstraint(
        layer: layer, index: ly, circuit: circuit, proof: proof, base: base, claims: &claims,
        lagrange: lagrange, transcript: &transcript, out: &out)
      let c0 = base + 4 * layer.logw
      out.quadratic.append((c0, c0 + 1, c0 + 2))
      base += 4 * layer.logw + 3
    }
    inputConstraint(
      circuit: circuit, publicInputs: publicInputs, claims: claims, lastPad: base - 3,
      transcript: &transcript, out: &out)
    return out
  }

  private static func layerConstraint(
    layer: CircuitLayer, index ly: Int, circuit: ZKCircuit<F>, proof: SumcheckProof<F>,
    base: Int, claims: inout Claims, lagrange: Lagrange, transcript: inout ZKTranscript,
    out: inout DeferredConstraints<F>
  ) {
    let alpha: F = transcript.element()
    let beta: F = transcript.element()
    // The window: the previous layer's claim pads (base - 3, base - 2) and this layer's pads.
    let start = max(0, base - 3)
    var claim = WindowExpression<F>(start: start, count: base - start + 4 * layer.logw + 3)
    if ly > 0 {
      // claim = (c0' + wc0') + alpha (c1' + wc1') from the previous layer.
      claim.known = claims.wc.0 + alpha * claims.wc.1
      claim.add(variable: base - 3, .one)
      claim.add(variable: base - 2, alpha)
    }
    var challenges: [[F]] = [[], []]
    let values = proof.rounds[ly]
    for round in 0..<layer.logw {
      for hand in 0..<2 {
        let p0 = values[4 * round + hand]
        let p2 = values[4 * round + 2 + hand]
        transcript.write(element: p0)
        transcript.write(element: p2)
        let r: F = transcript.element()
        challenges[hand].append(r)
        let (l0, l1, l2) = lagrange.basis(r)
        // claim' = l0 (V0 + p0) + l1 (claim - V0 - p0) + l2 (V2 + p2).
        claim.scale(l1)
        let d = l0 - l1
        claim.known = claim.known + d * p0 + l2 * p2
        claim.add(variable: base + 4 * round + 2 * hand, d)
        claim.add(variable: base + 4 * round + 2 * hand + 1, l2)
      }
    }
    let eqq = boundQuad(
      layer: layer, constants: circuit.constants, claims: &claims, challenges: challenges,
      alpha: alpha, beta: beta)
    let (wc0, wc1) = proof.claims[ly]
    // claim - eqq * ((c0 + wc0)(c1 + wc1)), with c0 * c1 replaced by its pad variable.
    let c0 = base + 4 * layer.logw
    let q = eqq.value
    claim.known = claim.known - q * wc0 * wc1
    claim.add(variable: c0, -(q * wc1))
    claim.add(variable: c0 + 1, -(q * wc0))
    claim.add(variable: c0 + 2, -q)
    emit(claim, into: &out)
    transcript.write(elements: [wc0, wc1])
    claims = Claims(
      logv: layer.logw, claim0: nil, claim1: nil, wc: (wc0, wc1), width: layer.nw,
      g0: challenges[0], g1: challenges[1], eq0: eqq.eql, eq1: eqq.eqr)
  }

  /// QZ bound at the output challenges (g), then at the round challenges (l, r): the sum over
  /// quads of v * EQ_g[g] * EQ_l[h0] * EQ_r[h1], with v = beta for an assertion (v = 0). Also
  /// returns EQ_l and EQ_r, the next layer's EQ_g tables.
  private static func boundQuad(
    layer: CircuitLayer, constants: [F], claims: inout Claims, challenges: [[F]], alpha: F,
    beta: F
  ) -> (value: F, eql: [F], eqr: [F]) {
    // EQ_g = EQ(g0) + alpha EQ(g1) over the layer's outputs, in the first table's storage; the
    // second is released before EQ_l and EQ_r are made (peak: three tables, not six).
    var (eqg, eq1) = claims.takeTables(count: claims.width)
    eqg.removeSubrange(claims.width...)
    F.axpy(&eqg, alpha, eq1)
    eq1 = []
    let eql = bindEq(challenges[0], count: layer.nw)
    let eqr = bindEq(challenges[1], count: layer.nw)
    let k = constants.map { $0.isZero ? beta : $0 }
    return (F.quadSum(layer: layer, k: k, eqg: eqg, eql: eql, eqr: eqr), eql, eqr)
  }

  /// <eq0 + alpha eq1, inputs> = (wc0 + c0) + alpha (wc1 + c1) over the last layer's claims,
  /// with the public inputs known and the private ones witnesses 0..<nwitness.
  private static func inputConstraint(
    circuit: ZKCircuit<F>, publicInputs: [F], claims: Claims, lastPad: Int,
    transcript: inout ZKTranscript, out: inout DeferredConstraints<F>
  ) {
    let alpha: F = transcript.element()
    var claims = claims
    let (eq0, eq1) = claims.takeTables(count: circuit.ninputs)
    let c = out.b.count
    var known = F.zero
    for i in 0..<circuit.npubIn { known = known + (eq0[i] + alpha * eq1[i]) * publicInputs[i] }
    known = known - claims.wc.0 - alpha * claims.wc.1
    for w in 0..<circuit.nwitness {
      let i = circuit.npubIn + w
      out.terms.append(LinearTerm(c: c, w: w, k: eq0[i] + alpha * eq1[i]))
    }
    // The last layer's claim pads c0, c1 (lastPad, lastPad + 1) enter with -1 and -alpha.
    out.terms.append(LinearTerm(c: c, w: lastPad, k: -F.one))
    out.terms.append(LinearTerm(c: c, w: lastPad + 1, k: -alpha))
    out.b.append(-known)
  }

  /// Records `expression = 0` as sum of terms = -known.
  private static func emit(
    _ expression: WindowExpression<F>, into out: inout DeferredConstraints<F>
  ) {
    let c = out.b.count
    for (i, k) in expression.coefficients.enumerated() where !k.isZero {
      out.terms.append(LinearTerm(c: c, w: expression.start + i, k: k))
    }
    out.b.append(-expression.known)
  }
}

extension ZKField {
  /// Sum over the layer's quads of k[v] * eqg[g] * eql[h0] * eqr[h1].
  package static func quadSum(layer: CircuitLayer, k: [Self], eqg: [Self], eql: [Self], eqr: [Self])
    -> Self
  {
    // Quads come grouped by g: sum k * eql * eqr per group, then multiply by eqg[g] once.
    var acc = Self.zero
    layer.quads.withUnsafeBufferPointer { q in
      var i = 0
      let n = layer.count
      while i < n {
        let g = q[4 * i]
        var group = Self.zero
        repeat {
          let kv = k[Int(q[4 * i + 3])]
          let l = eql[Int(q[4 * i + 1])]
          group = group + (kv == .one ? l : kv * l) * eqr[Int(q[4 * i + 2])]
          i += 1
        } while i < n && q[4 * i] == g
        acc = acc + group * eqg[Int(g)]
      }
    }
    return acc
  }
}
