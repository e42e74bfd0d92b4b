/// The padded sumcheck proof of one circuit (draft-google-cfrg-libzk §"Serializing a Sumcheck
/// Transcript"): per layer, per round, the evaluations at P0 and P2 of both hands, then the two
/// (padded) claims.
package struct SumcheckProof<F: ZKField>: Sendable {
  /// Per layer: for round r, [hand 0 at P0, hand 1 at P0, hand 0 at P2, hand 1 at P2] at 4r
  /// (the order the C++ library writes them).
  package var rounds: [[F]]
  /// Per layer: the claims wc0, wc1.
  package var claims: [(F, F)]

  /// Reads the proof of `circuit` (its layer sizes fix the length).
  init?(reading reader: inout ByteReader, circuit: ZKCircuit<F>) {
    rounds = []
    claims = []
    for layer in circuit.layers {
      let count = 4 * layer.logw
      guard reader.have((count + 2) * F.byteCount) else { return nil }
      var values: [F] = []
      values.reserveCapacity(count)
      for _ in 0..<count {
        guard let e: F = reader.element() else { return nil }
        values.append(e)
      }
      guard let c0: F = reader.element(), let c1: F = reader.element() else { return nil }
      rounds.append(values)
      claims.append((c0, c1))
    }
  }
}

/// A linear constraint term for Ligero: coefficient `k` of witness `w` in constraint `c`.
package struct LinearTerm<F: ZKField>: Sendable {
  package var c: Int
  package var w: Int
  package var k: F
}

/// The constraints the sumcheck verifier defers to Ligero (draft sumcheck §"Generate
/// constraints from the public inputs and the padded proof"): sum over terms of k * W[w] =
/// b[c] for each constraint c, and W[x] * W[y] = W[z] for each quadratic triple.
package struct DeferredConstraints<F: ZKField>: Sendable {
  package var terms: [LinearTerm<F>] = []
  package var b: [F] = []
  package var quadratic: [(x: Int, y: Int, z: Int)] = []
}

/// eq(x) = prod_b (bit b of x ? r_b : 1 - r_b) for x in 0..<n (draft sumcheck "The EQ[] array",
/// `bindeq`); bits at or above ceil(log2 n) are zero for such x and contribute prod (1 - r_b).
func bindEq<F: ZKField>(_ r: [F], count n: Int) -> [F] {
  let bits = ceilLog2(max(n, 1))
  precondition(bits <= r.count)
  var eq = F.eqTable(r, bits: bits)
  var tail = F.one
  for b in bits..<r.count { tail = tail * (F.one - r[b]) }
  if tail != .one { for i in eq.indices { eq[i] = eq[i] * tail } }
  return eq
}

/// An affine expression known + sum coefficient * W[var], over a window of witness indices.
struct WindowExpression<F: ZKField> {
  let start: Int
  var known: F = .zero
  var coefficients: [F]

  init(start: Int, count: Int) {
    self.start = start
    coefficients = [F](repeating: .zero, count: count)
  }

  mutating func scale(_ s: F) {
    known = known * s
    for i in coefficients.indices where !coefficients[i].isZero {
      coefficients[i] = coefficients[i] * s
    }
  }

  mutating func add(variable: Int, _ k: F) {
    coefficients[variable - start] = coefficients[variable - start] + k
  }
}
