/// The SHA-2 digests this library uses (FIPS 180-4).
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
  /// SHA-256: a 32-byte digest (FIPS 180-4 §6.2).
  case sha256 = "SHA-256"
  /// SHA-384: a 48-byte digest, SHA-512 truncated with its own initial value (FIPS 180-4 §6.5).
  case sha384 = "SHA-384"
  /// SHA-512: a 64-byte digest (FIPS 180-4 §6.4).
  case sha512 = "SHA-512"

  /// The digest length in bytes.
  public var byteCount: Int {
    switch self {
    case .sha256: 32
    case .sha384: 48
    case .sha512: 64
    }
  }

  /// The hash function's block size in bytes (HMAC, RFC 2104).
  package var blockByteCount: Int { self == .sha256 ? 64 : 128 }

  /// Hashes data in one shot.
  public func hash(_ data: some Collection<UInt8>) -> [UInt8] {
    Backend.digest(self, Array(data))
  }
}

/// SHA-256 (FIPS 180-4), shaped like CryptoKit's `SHA256`.
public enum SHA256 {
  /// Hashes data in one shot.
  public static func hash(data: some Collection<UInt8>) -> [UInt8] {
    DigestAlgorithm.sha256.hash(data)
  }
}

/// SHA-384 (FIPS 180-4), shaped like CryptoKit's `SHA384`.
public enum SHA384 {
  /// Hashes data in one shot.
  public static func hash(data: some Collection<UInt8>) -> [UInt8] {
    DigestAlgorithm.sha384.hash(data)
  }
}

/// SHA-512 (FIPS 180-4), shaped like CryptoKit's `SHA512`.
public enum SHA512 {
  /// Hashes data in one shot.
  public static func hash(data: some Collection<UInt8>) -> [UInt8] {
    DigestAlgorithm.sha512.hash(data)
  }
}

/// An incremental hash, for data that arrives in pieces.
package struct HashFunction: ~Copyable {
  private let state: Backend.DigestState

  /// Starts hashing with the given algorithm.
  package init(_ algorithm: DigestAlgorithm) { state = Backend.DigestState(algorithm) }

  /// Feeds more data.
  package mutating func update(_ data: some Collection<UInt8>) { state.update(Array(data)) }

  /// Returns the digest; the value cannot be used afterwards.
  package consuming func finalize() -> [UInt8] { state.finalize() }

  /// The digest of the data fed so far; hashing may go on afterwards (a Fiat–Shamir transcript
  /// takes a digest after every message).
  package func currentDigest() -> [UInt8] { state.peek() }

  private init(state: Backend.DigestState) { self.state = state }

  /// An independent hash in the same state (fed the same data so far): a prover forks its
  /// Fiat–Shamir transcript to replay the verifier's side.
  package func copy() -> HashFunction { HashFunction(state: Backend.DigestState(copying: state)) }
}
