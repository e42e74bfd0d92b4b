/// A seeded generator for reproducible fuzzing and mutation loops (SplitMix64, Steele, Lea and
/// Flood 2014), shared by the test targets.
public struct SplitMix64: RandomNumberGenerator {
  public var state: UInt64

  /// Starts from `state`.
  public init(state: UInt64) {
    self.state = state
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
