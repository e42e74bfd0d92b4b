import Foundation

/// A tiny benchmark harness: runs a body in batches and reports the median time per call.
///
/// Ratios against a baseline measured in the same process are what the notes report, so the
/// machine's speed cancels out.
struct Harness {
  var results: [(name: String, nanoseconds: Double)] = []

  /// Measures `body`, returning the median of `batches` batch means in nanoseconds per call.
  @discardableResult
  mutating func measure(
    _ name: String, iterations: Int, batches: Int = 7, _ body: () throws -> Void
  ) rethrows -> Double {
    // One warm-up batch: caches, lazy initialisation and the allocator settle first.
    for _ in 0..<max(1, iterations / 10) { try body() }
    var means = [Double]()
    for _ in 0..<batches {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<iterations { try body() }
      let end = DispatchTime.now().uptimeNanoseconds
      means.append(Double(end - start) / Double(iterations))
    }
    means.sort()
    let median = means[means.count / 2]
    results.append((name, median))
    print(
      "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.2f µs", median / 1000))
    return median
  }

  /// `measure` for async bodies.
  @discardableResult
  mutating func measureAsync(
    _ name: String, iterations: Int, batches: Int = 5, _ body: () async throws -> Void
  ) async rethrows -> Double {
    for _ in 0..<max(1, iterations / 10) { try await body() }
    var means = [Double]()
    for _ in 0..<batches {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<iterations { try await body() }
      let end = DispatchTime.now().uptimeNanoseconds
      means.append(Double(end - start) / Double(iterations))
    }
    means.sort()
    let median = means[means.count / 2]
    results.append((name, median))
    print(
      "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.2f µs", median / 1000))
    return median
  }

  static func ratio(_ label: String, _ value: Double, over baseline: Double, aim: Double? = nil) {
    let r = value / baseline
    var line =
      "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0) + String(format: "%12.2fx", r)
    if let aim {
      line += String(format: "   (aim ≤ %.2fx: ", aim) + (r <= aim ? "met)" : "NOT met)")
    }
    print(line)
  }
}

/// Keeps a value alive so the optimiser cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
