/// A source of random bytes; injected wherever randomness must be reproducible in tests.
public protocol RandomSource: Sendable {
  /// Returns `count` random bytes.
  func bytes(count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator (OpenSSL `RAND_bytes` or `SecRandomCopyBytes`).
public struct SecureRandom: RandomSource {
  /// The system generator.
  public init() {}

  /// Returns `count` random bytes.
  public func bytes(count: Int) -> [UInt8] { Backend.randomBytes(count: count) }

  /// Returns `count` random bytes from the system generator.
  public static func bytes(count: Int) -> [UInt8] { Backend.randomBytes(count: count) }
}
