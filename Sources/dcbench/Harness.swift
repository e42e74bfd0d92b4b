import Foundation

/// A tiny benchmark harness: runs a body in batches and reports the median time per call.
///
/// Ratios against a baseline measured in the same process are what the notes report, so the
/// machine's speed cancels out.
struct Harness {
  var results: [(name: String, nanoseconds: Double)] = []

  /// With `DCBENCH_CPUTIME` set, time is the process's CPU time instead of wall-clock time, so
  /// that other processes competing for the cores do not count against a benchmark (they still
  /// disturb its caches). Both sides of a ratio are measured the same way.
  static let usesCPUTime = ProcessInfo.processInfo.environment["DCBENCH_CPUTIME"] != nil

  /// The current time in nanoseconds on the chosen clock.
  static func now() -> UInt64 {
    guard usesCPUTime else { return DispatchTime.now().uptimeNanoseconds }
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Measures `body`, returning the median of `batches` batch means in nanoseconds per call.
  @discardableResult
  mutating func measure(
    _ name: String, iterations: Int, batches: Int = 7, _ body: () throws -> Void
  ) rethrows -> Double {
    // One warm-up batch: caches, lazy initialisation and the allocator settle first.
    for _ in 0..<max(1, iterations / 10) { try body() }
    var means = [Double]()
    for _ in 0..<batches {
      let start = Harness.now()
      for _ in 0..<iterations { try body() }
      let end = Harness.now()
      means.append(Double(end - start) / Double(iterations))
    }
    let median = Self.median(means)
    results.append((name, median))
    print(
      "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.2f µs", median / 1000))
    return median
  }

  /// Measures a baseline and a body in alternating batches, so that both see the same machine
  /// (other processes starting or stopping part-way through affect both sides of the ratio
  /// alike); returns the median per-call time of each, in nanoseconds, and the median of the
  /// per-pair ratios body / baseline.
  ///
  /// Each of the `batches` batches is run as `slices` shorter baseline/body pairs (same total
  /// work): a ratio is taken within each pair, a few milliseconds apart, so a change of load
  /// between pairs cancels out, and the median over many pairs is steadier than the ratio of
  /// two medians. The spread of the pair ratios (quartiles) is printed.
  mutating func measurePair(
    _ baselineName: String, _ baseline: () throws -> Void, _ name: String,
    iterations: Int, batches: Int = 7, slices: Int = 5, _ body: () throws -> Void
  ) rethrows -> (baseline: Double, body: Double, ratio: Double) {
    for _ in 0..<max(1, iterations / 10) {
      try baseline()
      try body()
    }
    let pairs = batches * max(1, slices)
    let perPair = max(1, iterations / max(1, slices))
    var baselineMeans = [Double]()
    var bodyMeans = [Double]()
    var ratios = [Double]()
    for pair in 0..<pairs {
      // Alternate which side runs first, so neither always follows the other.
      var sides = [Double](repeating: 0, count: 2)
      for side in pair.isMultiple(of: 2) ? [0, 1] : [1, 0] {
        let start = Harness.now()
        if side == 0 {
          for _ in 0..<perPair { try baseline() }
        } else {
          for _ in 0..<perPair { try body() }
        }
        let end = Harness.now()
        sides[side] = Double(end - start) / Double(perPair)
      }
      baselineMeans.append(sides[0])
      bodyMeans.append(sides[1])
      ratios.append(sides[1] / max(sides[0], 1))
    }
    let result = (
      baseline: Self.median(baselineMeans), body: Self.median(bodyMeans),
      ratio: Self.median(ratios)
    )
    for (label, value) in [(baselineName, result.baseline), (name, result.body)] {
      results.append((label, value))
      print(
        "  " + label.padding(toLength: 58, withPad: " ", startingAt: 0)
          + String(format: "%12.2f µs", value / 1000))
    }
    let sorted = ratios.sorted()
    print(
      String(
        format: "  (%d pairs of %d calls; pair ratios: quartiles %.3f-%.3f, median %.3f)",
        pairs, perPair, sorted[sorted.count / 4], sorted[(sorted.count * 3) / 4], result.ratio))
    return result
  }

  /// The middle value (the upper one of an even count).
  static func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }

  /// `measure` for async bodies.
  @discardableResult
  mutating func measureAsync(
    _ name: String, iterations: Int, batches: Int = 5, _ body: () async throws -> Void
  ) async rethrows -> Double {
    for _ in 0..<max(1, iterations / 10) { try await body() }
    var means = [Double]()
    for _ in 0..<batches {
      let start = Harness.now()
      for _ in 0..<iterations { try await body() }
      let end = Harness.now()
      means.append(Double(end - start) / Double(iterations))
    }
    let median = Self.median(means)
    results.append((name, median))
    print(
      "  " + name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%12.2f µs", median / 1000))
    return median
  }

  static func ratio(_ label: String, _ value: Double, over baseline: Double, aim: Double? = nil) {
    ratio(label, value / baseline, aim: aim)
  }

  /// Prints a ratio already computed (such as ``measurePair``'s median of pair ratios).
  static func ratio(_ label: String, _ r: Double, aim: Double? = nil) {
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
