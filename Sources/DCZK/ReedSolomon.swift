/// Reed–Solomon "extend" evaluated only where a verifier looks (draft-google-cfrg-libzk
/// §"Polynomial operations"): the polynomial of degree < k through (x_i, y_i), x_i the field's
/// evaluation point i (i in 0..<k), evaluated at the points of the requested columns.
///
/// The verifier never needs a whole extended row: it needs P(x_t) for the NREQ opened columns t.
/// With the barycentric weights w_i = 1 / prod_{m != i} (x_i - x_m) and l(x) = prod_m (x - x_m),
/// P(x_t) = sum_i y_i * l(x_t) * w_i / (x_t - x_i); the coefficients are precomputed once per
/// (k, columns) as an NREQ x k matrix, so each row costs NREQ * k multiplications.
package struct ReedSolomonEvaluator<F: ZKField>: Sendable {
  /// Message length.
  package let k: Int
  /// Number of target points.
  package let targetCount: Int
  /// Row-major [target][i] coefficients.
  package let coefficients: [F]

  /// The evaluator for degree < `k` at the evaluation points of indices `targets` (each ≥ k).
  /// `weights` are `F.barycentricWeights` of the first k points, when the caller keeps them.
  package init(k: Int, targets: [Int], weights known: [F]? = nil) {
    self.k = k
    targetCount = targets.count
    let xs = (0..<k).map { F.evaluationPoint($0) }
    let weights = known ?? F.barycentricWeights(xs)
    var differences = [F](repeating: .zero, count: targets.count * k)
    var scale = [F](repeating: .one, count: targets.count)
    for (t, target) in targets.enumerated() {
      let x = F.evaluationPoint(target)
      var l = F.one
      for i in 0..<k {
        let d = x - xs[i]
        differences[t * k + i] = d
        l = l * d
      }
      scale[t] = l
    }
    F.batchInvert(&differences)
    for t in 0..<targets.count {
      for i in 0..<k {
        differences[t * k + i] = differences[t * k + i] * weights[i] * scale[t]
      }
    }
    coefficients = differences
  }

  /// P at every target for the message `y[start ..< start + count]` (count ≤ k; the rest of
  /// the message is zero).
  package func evaluate(_ y: [F], from start: Int = 0, count: Int? = nil) -> [F] {
    evaluateShifted(y, start: start, offset: 0, n: count ?? k)
  }

  /// P at every target for a message that is zero outside positions `offset ..< offset + n`,
  /// whose values are `y[start ..< start + n]`.
  package func evaluateShifted(_ y: [F], start: Int, offset: Int, n: Int) -> [F] {
    var out = [F](repeating: .zero, count: targetCount)
    y.withUnsafeBufferPointer { yp in
      coefficients.withUnsafeBufferPointer { cp in
        let ys = UnsafeBufferPointer(rebasing: yp[start..<(start + n)])
        for t in 0..<targetCount {
          let row = UnsafeBufferPointer(rebasing: cp[(t * k + offset)..<(t * k + offset + n)])
          out[t] = F.dot(row, ys, count: n)
        }
      }
    }
    return out
  }
}

extension ZKField {
  /// The barycentric weights of the evaluation points 0..<k.
  package static func barycentricWeights(count k: Int) -> [Self] {
    barycentricWeights((0..<k).map { evaluationPoint($0) })
  }

  /// w_i = 1 / prod_{m != i} (x_i - x_m), by O(k^2) products and one batch inversion (any
  /// distinct points).
  package static func barycentricWeights(_ xs: [Self]) -> [Self] {
    var weights = [Self](repeating: .one, count: xs.count)
    for i in xs.indices {
      var d = Self.one
      for m in xs.indices where m != i { d = d * (xs[i] - xs[m]) }
      weights[i] = d
    }
    batchInvert(&weights)
    return weights
  }
}
