package import DCCrypto

/// Random bytes and field elements for a prover, drawn from a `RandomSource` (DCCrypto's
/// `SecureRandom` in use, a seeded source only in tests) in batches.
package struct ZKRandom {
  private let source: any RandomSource
  private var buffer: [UInt8] = []
  private var position = 0

  package init(_ source: any RandomSource = SecureRandom()) { self.source = source }

  /// The next `count` random bytes.
  package mutating func bytes(_ count: Int) -> [UInt8] {
    if position + count > buffer.count {
      buffer = Array(buffer[position...]) + source.bytes(count: max(count, 1 << 16))
      position = 0
    }
    defer { position += count }
    return Array(buffer[position..<(position + count)])
  }
}

extension ZKField {
  /// A uniformly random element (rejection sampling over canonical encodings).
  static func random(_ random: inout ZKRandom) -> Self {
    while true {
      if let e = read(random.bytes(byteCount), at: 0) { return e }
    }
  }

  /// A uniformly random element of the subfield proofs serialize compactly (GF(2^16) in
  /// GF(2^128); the field itself for prime fields).
  static func randomSubfield(_ random: inout ZKRandom) -> Self {
    guard subfieldByteCount < byteCount else { return Self.random(&random) }
    while true {
      if let e = readSubfield(random.bytes(subfieldByteCount), at: 0) { return e }
    }
  }
}

/// Reed–Solomon extension of whole rows (draft-google-cfrg-libzk §"Polynomial operations",
/// extend): the polynomial of degree < k through the row's first k values at the evaluation
/// points 0..<k, evaluated at the points k..<n.
struct RowExtender<F: ZKField> {
  let k: Int
  let n: Int
  let evaluator: ReedSolomonEvaluator<F>

  init(k: Int, n: Int) {
    self.k = k
    self.n = n
    evaluator = ReedSolomonEvaluator(k: k, targets: Array(k..<n))
  }

  /// Fills row[k ..< k + count] (count ≤ n - k, all by default) from row[0 ..< k].
  func extend(_ row: UnsafeMutableBufferPointer<F>, count: Int? = nil) {
    let m = count ?? (n - k)
    evaluator.coefficients.withUnsafeBufferPointer { c in
      let y = UnsafeBufferPointer(rebasing: row[0..<k])
      for t in 0..<m {
        row[k + t] = F.dot(UnsafeBufferPointer(rebasing: c[(t * k)..<((t + 1) * k)]), y, count: k)
      }
    }
  }
}

/// The Ligero prover (draft-google-cfrg-libzk §"Ligero commitment" and "Ligero proof"; the C++
/// `LigeroProver`): the tableau of three blinding rows, the witness rows and the quadratic
/// rows, each extended to BLOCK_ENC columns, committed column by column in a Merkle tree; then
/// the low-degree, linear and quadratic responses and the opened columns, in the transcript
/// order `LigeroVerifier` replays.
package struct LigeroProver<F: ZKField> {
  let p: LigeroParameters
  /// Row-major nrow x BLOCK_ENC.
  var tableau: [F]
  var nonces: [[UInt8]]
  var leaves: [[UInt8]]
  let block: RowExtender<F>
  /// The commitment.
  package let root: [UInt8]

  /// Lays out and commits to `witnesses` (W[i] in the subfield for i < `subfieldBoundary`),
  /// with the quadratic constraints W[x] * W[y] = W[z] of `quadratic`.
  package init(
    parameters p: LigeroParameters, witnesses w: [F], subfieldBoundary: Int,
    quadratic: [(x: Int, y: Int, z: Int)], random: inout ZKRandom
  ) {
    self.p = p
    block = RowExtender(k: p.block, n: p.blockEnc)
    tableau = [F](repeating: .zero, count: p.nrow * p.blockEnc)
    Self.layoutBlinding(&tableau, p, block: block, random: &random)
    Self.layoutWitnesses(
      &tableau, p, w, subfieldBoundary: subfieldBoundary, block: block, random: &random)
    Self.layoutQuadratic(&tableau, p, w, quadratic, block: block, random: &random)
    // Leaf j = SHA-256(nonce_j || column DBLOCK + j, row by row) (draft §"Ligero commitment").
    nonces = (0..<p.leafCount).map { _ in random.bytes(32) }
    var leaves: [[UInt8]] = []
    leaves.reserveCapacity(p.leafCount)
    var column: [UInt8] = []
    for j in 0..<p.leafCount {
      column.removeAll(keepingCapacity: true)
      column.append(contentsOf: nonces[j])
      for row in 0..<p.nrow { tableau[row * p.blockEnc + p.dblock + j].write(to: &column) }
      leaves.append(SHA256.hash(data: column))
    }
    self.leaves = leaves
    root = MerkleTree.root(leaves: leaves)
  }

  static func withRow(
    _ tableau: inout [F], _ p: LigeroParameters, _ row: Int,
    _ body: (UnsafeMutableBufferPointer<F>) -> Void
  ) {
    tableau.withUnsafeMutableBufferPointer { t in
      body(UnsafeMutableBufferPointer(rebasing: t[(row * p.blockEnc)..<((row + 1) * p.blockEnc)]))
    }
  }

  /// ILDT: random BLOCK; IDOT: random DBLOCK whose W part sums to zero; IQUAD: random DBLOCK
  /// with a zero W part (the C++ `layout_blinding_rows`).
  static func layoutBlinding(
    _ tableau: inout [F], _ p: LigeroParameters, block: RowExtender<F>, random: inout ZKRandom
  ) {
    var values = (0..<p.block).map { _ in F.random(&random) }
    withRow(&tableau, p, 0) { row in
      for i in 0..<p.block { row[i] = values[i] }
      block.extend(row)
    }
    values = (0..<p.dblock).map { _ in F.random(&random) }
    var sum = F.zero
    for i in p.r..<(p.r + p.w) { sum = sum + values[i] }
    values[p.r] = values[p.r] - sum
    withRow(&tableau, p, 1) { row in for i in 0..<p.dblock { row[i] = values[i] } }
    values = (0..<p.dblock).map { _ in F.random(&random) }
    for i in p.r..<(p.r + p.w) { values[i] = .zero }
    withRow(&tableau, p, 2) { row in for i in 0..<p.dblock { row[i] = values[i] } }
    extendDoubleRows(&tableau, p)
  }

  /// Extends rows 1 and 2 from DBLOCK values, computing each column's interpolation
  /// coefficients once for both rows and dropping them (two rows do not pay for a whole
  /// (BLOCK_ENC - DBLOCK) x DBLOCK matrix in memory).
  static func extendDoubleRows(_ tableau: inout [F], _ p: LigeroParameters) {
    let k = p.dblock
    let xs = (0..<k).map { F.evaluationPoint($0) }
    let weights = F.barycentricWeights(xs)
    var c = [F](repeating: .zero, count: k)
    tableau.withUnsafeMutableBufferPointer { t in
      let row1 = UnsafeBufferPointer(rebasing: t[p.blockEnc..<(p.blockEnc + k)])
      let row2 = UnsafeBufferPointer(rebasing: t[(2 * p.blockEnc)..<(2 * p.blockEnc + k)])
      for target in k..<p.blockEnc {
        let x = F.evaluationPoint(target)
        var l = F.one
        for i in 0..<k {
          c[i] = x - xs[i]
          l = l * c[i]
        }
        F.batchInvert(&c)
        for i in 0..<k { c[i] = c[i] * weights[i] * l }
        c.withUnsafeBufferPointer { cp in
          t[p.blockEnc + target] = F.dot(cp, row1, count: k)
          t[2 * p.blockEnc + target] = F.dot(cp, row2, count: k)
        }
      }
    }
  }

  /// Witness row i: R random elements (in the subfield when the whole row's witnesses are),
  /// then W[i * w ..< (i + 1) * w], zero past the end.
  static func layoutWitnesses(
    _ tableau: inout [F], _ p: LigeroParameters, _ w: [F], subfieldBoundary: Int,
    block: RowExtender<F>, random: inout ZKRandom
  ) {
    for i in 0..<p.nwrow {
      let subfield = (i + 1) * p.w <= subfieldBoundary
      let blinds = (0..<p.r).map { _ in subfield ? F.randomSubfield(&random) : F.random(&random) }
      withRow(&tableau, p, p.iw + i) { row in
        for j in 0..<p.r { row[j] = blinds[j] }
        for j in 0..<min(p.w, p.nw - i * p.w) { row[p.r + j] = w[i * p.w + j] }
        block.extend(row)
      }
    }
  }

  /// Triple i: rows x, y, z holding W[x], W[y], W[z] of constraints i * w ..< (i + 1) * w.
  static func layoutQuadratic(
    _ tableau: inout [F], _ p: LigeroParameters, _ w: [F], _ quadratic: [(x: Int, y: Int, z: Int)],
    block: RowExtender<F>, random: inout ZKRandom
  ) {
    for i in 0..<p.nqtriples {
      for part in 0..<3 {
        let blinds = (0..<p.r).map { _ in F.random(&random) }
        withRow(&tableau, p, p.iq + part * p.nqtriples + i) { row in
          for j in 0..<p.r { row[j] = blinds[j] }
          var j = 0
          while j < p.w && i * p.w + j < p.nq {
            let q = quadratic[i * p.w + j]
            row[p.r + j] = w[part == 0 ? q.x : part == 1 ? q.y : q.z]
            j += 1
          }
          block.extend(row)
        }
      }
    }
  }

  /// The Ligero proof for `constraints` on `transcript`, positioned after the sumcheck (draft
  /// §"Ligero proof"; the C++ `LigeroProver::prove`).
  @_specialize(where F == GF2128)
  @_specialize(where F == FieldP256)
  package func prove(constraints: DeferredConstraints<F>, transcript: inout ZKTranscript)
    throws(ZKError) -> LigeroProof<F>
  {
    transcript.write(bytes: LigeroVerifier<F>.hashOfA)
    var ch = LigeroVerifier<F>.Challenges(
      uLdt: transcript.elements(p.nwqrow), alphaL: transcript.elements(constraints.b.count),
      alphaQ: transcript.elements(3 * p.nq), uQuad: transcript.elements(p.nqtriples), idx: [])
    let yLdt = lowDegreeResponse(ch.uLdt)
    let a = try LigeroVerifier<F>.innerProductVector(p, constraints: constraints, ch: ch)
    let yDot = dotResponse(a)
    let yQuad = quadraticResponse(ch.uQuad)
    let yQuad0 = Array(yQuad[0..<p.r])
    let yQuad2 = Array(yQuad[p.block..<p.dblock])
    transcript.write(elements: yLdt)
    transcript.write(elements: yDot)
    transcript.write(elements: yQuad0)
    transcript.write(elements: yQuad2)
    ch.idx = transcript.choose(p.leafCount, p.nreq)
    var req = [F](repeating: .zero, count: p.nrow * p.nreq)
    for row in 0..<p.nrow {
      for (j, column) in ch.idx.enumerated() {
        req[row * p.nreq + j] = tableau[row * p.blockEnc + p.dblock + column]
      }
    }
    guard let path = MerkleTree.compressedProof(leaves: leaves, positions: ch.idx) else {
      throw ZKError(.proofMalformed, "the opened columns admit no Merkle proof")
    }
    return LigeroProof(
      yLdt: yLdt, yDot: yDot, yQuad0: yQuad0, yQuad2: yQuad2,
      nonces: ch.idx.map { nonces[$0] }, req: req, path: path)
  }

  /// ILDT + sum u[i] * row(IW + i), over the first BLOCK columns.
  func lowDegreeResponse(_ u: [F]) -> [F] {
    var y = Array(tableau[0..<p.block])
    for i in 0..<p.nwqrow {
      let base = (p.iw + i) * p.blockEnc
      for j in 0..<p.block { y[j] = y[j] + u[i] * tableau[base + j] }
    }
    return y
  }

  /// IDOT + sum over rows of extend(0^R || A_row, DBLOCK) * row, pointwise over DBLOCK.
  func dotResponse(_ a: [F]) -> [F] {
    var y = Array(tableau[p.blockEnc..<(p.blockEnc + p.dblock)])
    var aext = [F](repeating: .zero, count: p.dblock)
    for i in 0..<p.nwqrow {
      for j in 0..<p.r { aext[j] = .zero }
      for j in 0..<p.w { aext[p.r + j] = a[i * p.w + j] }
      aext.withUnsafeMutableBufferPointer { block.extend($0, count: p.dblock - p.block) }
      let base = (p.iw + i) * p.blockEnc
      for j in 0..<p.dblock { y[j] = y[j] + aext[j] * tableau[base + j] }
    }
    return y
  }

  /// IQUAD + sum u[i] * (z - x * y) over the triples, pointwise over DBLOCK; its W part is zero.
  func quadraticResponse(_ u: [F]) -> [F] {
    var y = Array(tableau[(2 * p.blockEnc)..<(2 * p.blockEnc + p.dblock)])
    for i in 0..<p.nqtriples {
      let x = (p.iq + i) * p.blockEnc
      let yy = (p.iq + p.nqtriples + i) * p.blockEnc
      let z = (p.iq + 2 * p.nqtriples + i) * p.blockEnc
      for j in 0..<p.dblock {
        y[j] = y[j] + u[i] * (tableau[z + j] - tableau[x + j] * tableau[yy + j])
      }
    }
    return y
  }
}

extension LigeroProof {
  init(
    yLdt: [F], yDot: [F], yQuad0: [F], yQuad2: [F], nonces: [[UInt8]], req: [F], path: [[UInt8]]
  ) {
    self.yLdt = yLdt
    self.yDot = yDot
    self.yQuad0 = yQuad0
    self.yQuad2 = yQuad2
    self.nonces = nonces
    self.req = req
    self.path = path
  }

  /// The draft §"Serializing a Ligero Proof" bytes (the C++ `write_com_proof`): the responses,
  /// the nonces, the opened columns as alternating runs (full field first, then subfield, a
  /// run ending where membership changes), the Merkle path.
  func write(to out: inout [UInt8]) {
    for e in yLdt + yDot + yQuad0 + yQuad2 { e.write(to: &out) }
    for n in nonces { out += n }
    var i = 0
    var subfield = false
    while i < req.count {
      var run = 0
      while i + run < req.count, run < Self.maxRun - 1,
        (req[i + run].subfieldBytes != nil) == subfield
      {
        run += 1
      }
      writeSize(run, &out)
      for e in req[i..<(i + run)] {
        if subfield { out += e.subfieldBytes! } else { e.write(to: &out) }
      }
      i += run
      subfield.toggle()
    }
    writeSize(path.count, &out)
    for d in path { out += d }
  }

  private func writeSize(_ n: Int, _ out: inout [UInt8]) {
    for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: n >> (8 * i))) }
  }
}

extension ZKField {
  /// The subfield serialization of the element, nil when it is not in the subfield (prime
  /// fields: every element, written whole).
  var subfieldBytes: [UInt8]? {
    if Self.subfieldByteCount == Self.byteCount { return bytes }
    guard let g = self as? GF2128, let c = g.subfieldCoordinates else { return nil }
    return [UInt8(c & 0xff), UInt8(c >> 8)]
  }
}

extension GF2128 {
  /// Whether coefficient b (of x^b) is set.
  static func bit(_ e: GF2128, _ b: Int) -> Bool {
    b < 64 ? (e.lo >> b) & 1 == 1 : (e.hi >> (b - 64)) & 1 == 1
  }

  /// Rows of the reduced echelon form of the subfield basis: (vector, coordinates, pivot bit).
  static let subfieldEchelon: [(GF2128, UInt16, Int)] = {
    var rows: [(GF2128, UInt16, Int)] = []
    for (i, beta) in subfieldBasis.enumerated() {
      var v = beta
      var c = UInt16(1) << i
      for (rv, rc, pivot) in rows where bit(v, pivot) {
        v = v + rv
        c ^= rc
      }
      guard let pivot = (0..<128).last(where: { bit(v, $0) }) else { continue }
      for j in rows.indices where bit(rows[j].0, pivot) {
        rows[j].0 = rows[j].0 + v
        rows[j].1 ^= c
      }
      rows.append((v, c, pivot))
    }
    return rows
  }()

  /// The 16 coordinates over beta_0 ... beta_15 (the inverse of `injection`), nil when the
  /// element is outside GF(2^16).
  var subfieldCoordinates: UInt16? {
    var v = self
    var c: UInt16 = 0
    for (rv, rc, pivot) in Self.subfieldEchelon where Self.bit(v, pivot) {
      v = v + rv
      c ^= rc
    }
    return v.isZero ? c : nil
  }
}
