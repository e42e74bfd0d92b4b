import DCCrypto

/// The barycentric weights of BLOCK and DBLOCK points, which depend only on the layout: a
/// verifier computes them once.
package struct LigeroWeights<F: ZKField>: Sendable {
  package let block: [F]
  package let dblock: [F]

  package init(_ p: LigeroParameters) {
    block = F.barycentricWeights(count: p.block)
    dblock = F.barycentricWeights(count: p.dblock)
  }
}

/// The Ligero verifier (draft-google-cfrg-libzk §"Ligero verification procedure"; the C++
/// `LigeroVerifier::verify`, whose transcript order and checks deployed proofs follow).
package enum LigeroVerifier<F: ZKField> {
  /// The 32-byte "hash of A" the C++ verifier writes first: de ad be ef, then zeros.
  static var hashOfA: [UInt8] { [0xde, 0xad, 0xbe, 0xef] + [UInt8](repeating: 0, count: 28) }

  struct Challenges {
    var uLdt: [F]
    var alphaL: [F]
    var alphaQ: [F]  // 3 per quadratic constraint
    var uQuad: [F]
    var idx: [Int]
  }

  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  static func verify(
    parameters p: LigeroParameters, weights: LigeroWeights<F>, root: [UInt8],
    proof: LigeroProof<F>, constraints: DeferredConstraints<F>, transcript: inout ZKTranscript
  ) throws(ZKError) {
    transcript.write(bytes: hashOfA)
    var ch = Challenges(
      uLdt: transcript.elements(p.nwqrow), alphaL: transcript.elements(constraints.b.count),
      alphaQ: transcript.elements(3 * p.nq), uQuad: transcript.elements(p.nqtriples), idx: [])
    transcript.write(elements: proof.yLdt)
    transcript.write(elements: proof.yDot)
    transcript.write(elements: proof.yQuad0)
    transcript.write(elements: proof.yQuad2)
    ch.idx = transcript.choose(p.leafCount, p.nreq)

    guard merkleCheck(p, root: root, proof: proof, idx: ch.idx) else {
      throw ZKError(.merkleMismatch, "the opened columns do not lead to the commitment")
    }
    let targets = ch.idx.map { p.dblock + $0 }
    let rsBlock = ReedSolomonEvaluator<F>(k: p.block, targets: targets, weights: weights.block)
    let rsDouble = ReedSolomonEvaluator<F>(k: p.dblock, targets: targets, weights: weights.dblock)
    guard lowDegreeCheck(p, proof: proof, u: ch.uLdt, rs: rsBlock) else {
      throw ZKError(.ligeroCheckFailed, "the low-degree test fails")
    }
    let a = try innerProductVector(p, constraints: constraints, ch: ch)
    guard dotCheck(p, proof: proof, a: a, rsBlock: rsBlock, rsDouble: rsDouble) else {
      throw ZKError(.ligeroCheckFailed, "the linear test fails")
    }
    var want = F.zero
    for (b, alpha) in zip(constraints.b, ch.alphaL) { want = want + b * alpha }
    var got = F.zero
    for i in p.r..<(p.r + p.w) { got = got + proof.yDot[i] }
    guard want == got else {
      throw ZKError(.ligeroCheckFailed, "the linear constraints do not hold")
    }
    guard quadraticCheck(p, proof: proof, u: ch.uQuad, rs: rsDouble) else {
      throw ZKError(.ligeroCheckFailed, "the quadratic test fails")
    }
  }

  /// Leaf j = SHA-256(nonce_j || column idx_j, row by row); the compressed path must lead to
  /// the root (draft §"Ligero commitment").
  static func merkleCheck(
    _ p: LigeroParameters, root: [UInt8], proof: LigeroProof<F>, idx: [Int]
  ) -> Bool {
    var leaves: [[UInt8]] = []
    var column: [UInt8] = []
    column.reserveCapacity(32 + p.nrow * F.byteCount)
    for j in 0..<p.nreq {
      column.removeAll(keepingCapacity: true)
      column.append(contentsOf: proof.nonces[j])
      for row in 0..<p.nrow { proof.req[row * p.nreq + j].write(to: &column) }
      leaves.append(SHA256.hash(data: column))
    }
    return MerkleTree.verify(
      n: p.leafCount, root: root, leaves: leaves, positions: idx, path: proof.path)
  }

  static func lowDegreeCheck(
    _ p: LigeroParameters, proof: LigeroProof<F>, u: [F], rs: ReedSolomonEvaluator<F>
  ) -> Bool {
    var yc = Array(proof.req[0..<p.nreq])
    for i in 0..<p.nwqrow {
      let row = (p.iw + i) * p.nreq
      for j in 0..<p.nreq { yc[j] = yc[j] + u[i] * proof.req[row + j] }
    }
    return rs.evaluate(proof.yLdt) == yc
  }

  /// The combined coefficients A[nwqrow * w] of the linear constraints (weighted by alphaL) and
  /// of the copies the quadratic rows hold (weighted by alphaQ) (draft `inner_product_vector`).
  static func innerProductVector(
    _ p: LigeroParameters, constraints: DeferredConstraints<F>, ch: Challenges
  ) throws(ZKError) -> [F] {
    var a = [F](repeating: .zero, count: p.nwqrow * p.w)
    for term in constraints.terms {
      guard term.w < p.nw, term.c < ch.alphaL.count else {
        throw ZKError(.proofMalformed, "a constraint names a witness outside the commitment")
      }
      a[term.w] = a[term.w] + term.k * ch.alphaL[term.c]
    }
    let ax = p.nwrow * p.w
    let ay = ax + p.nqtriples * p.w
    let az = ay + p.nqtriples * p.w
    for (i, q) in constraints.quadratic.enumerated() {
      guard q.x < p.nw, q.y < p.nw, q.z < p.nw else {
        throw ZKError(.proofMalformed, "a quadratic constraint names a witness outside")
      }
      a[ax + i] = a[ax + i] + ch.alphaQ[3 * i]
      a[q.x] = a[q.x] - ch.alphaQ[3 * i]
      a[ay + i] = a[ay + i] + ch.alphaQ[3 * i + 1]
      a[q.y] = a[q.y] - ch.alphaQ[3 * i + 1]
      a[az + i] = a[az + i] + ch.alphaQ[3 * i + 2]
      a[q.z] = a[q.z] - ch.alphaQ[3 * i + 2]
    }
    return a
  }

  static func dotCheck(
    _ p: LigeroParameters, proof: LigeroProof<F>, a: [F], rsBlock: ReedSolomonEvaluator<F>,
    rsDouble: ReedSolomonEvaluator<F>
  ) -> Bool {
    var yc = Array(proof.req[p.nreq..<(2 * p.nreq)])
    for i in 0..<p.nwqrow {
      let areq = rsBlock.evaluateShifted(a, start: i * p.w, offset: p.r, n: p.w)
      let row = (p.iw + i) * p.nreq
      for j in 0..<p.nreq { yc[j] = yc[j] + areq[j] * proof.req[row + j] }
    }
    return rsDouble.evaluate(proof.yDot) == yc
  }

  static func quadraticCheck(
    _ p: LigeroParameters, proof: LigeroProof<F>, u: [F], rs: ReedSolomonEvaluator<F>
  ) -> Bool {
    var yc = Array(proof.req[(2 * p.nreq)..<(3 * p.nreq)])
    let iqx = p.iq
    let iqy = iqx + p.nqtriples
    let iqz = iqy + p.nqtriples
    for i in 0..<p.nqtriples {
      for j in 0..<p.nreq {
        let x = proof.req[(iqx + i) * p.nreq + j]
        let y = proof.req[(iqy + i) * p.nreq + j]
        let z = proof.req[(iqz + i) * p.nreq + j]
        yc[j] = yc[j] + u[i] * (z - x * y)
      }
    }
    var yquad = [F](repeating: .zero, count: p.dblock)
    for i in 0..<p.r { yquad[i] = proof.yQuad0[i] }
    for i in 0..<(p.dblock - p.block) { yquad[p.block + i] = proof.yQuad2[i] }
    return rs.evaluate(yquad) == yc
  }

  /// Every check on the opened columns 0..<NREQ with challenges of one, whatever they give
  /// (the work `verify` does after the transcript; for benchmarks). Returns how many held.
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package static func timedChecks(
    _ p: LigeroParameters, weights: LigeroWeights<F>, proof: LigeroProof<F>,
    _ constraints: DeferredConstraints<F>
  ) -> Int {
    let idx = Array(0..<p.nreq)
    let ch = Challenges(
      uLdt: [F](repeating: .one, count: p.nwqrow),
      alphaL: [F](repeating: .one, count: constraints.b.count),
      alphaQ: [F](repeating: .one, count: 3 * p.nq),
      uQuad: [F](repeating: .one, count: p.nqtriples), idx: idx)
    let targets = idx.map { p.dblock + $0 }
    let rsBlock = ReedSolomonEvaluator<F>(k: p.block, targets: targets, weights: weights.block)
    let rsDouble = ReedSolomonEvaluator<F>(k: p.dblock, targets: targets, weights: weights.dblock)
    var held = merkleCheck(p, root: [], proof: proof, idx: idx) ? 1 : 0
    held += lowDegreeCheck(p, proof: proof, u: ch.uLdt, rs: rsBlock) ? 1 : 0
    if let a = try? innerProductVector(p, constraints: constraints, ch: ch) {
      held += dotCheck(p, proof: proof, a: a, rsBlock: rsBlock, rsDouble: rsDouble) ? 1 : 0
    }
    held += quadraticCheck(p, proof: proof, u: ch.uQuad, rs: rsDouble) ? 1 : 0
    return held
  }
}
