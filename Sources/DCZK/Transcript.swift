import DCCrypto

/// The Fiat–Shamir pseudo-random stream of one round (draft-google-cfrg-libzk §"The FSPRF
/// object"): block i is AES-256(seed, i as 16 little-endian bytes), read byte by byte.
package struct FiatShamirStream: Sendable {
  private let key: [UInt8]
  private var nextBlock: UInt64 = 0
  private var buffer: [UInt8] = []
  private var position = 0
  /// Blocks encrypted at a time (a verifier reads a few kilobytes per round at most).
  private static let batchBlocks = 32

  init(seed: [UInt8]) { key = seed }

  /// Writes the next `count` bytes of the stream into `out[0..<count]`.
  package mutating func fill(_ out: inout [UInt8], count: Int) {
    for i in 0..<count {
      if position == buffer.count { refill() }
      out[i] = buffer[position]
      position += 1
    }
  }

  private mutating func refill() {
    var counters = [UInt8](repeating: 0, count: 16 * Self.batchBlocks)
    for b in 0..<Self.batchBlocks {
      let n = nextBlock + UInt64(b)
      for i in 0..<8 { counters[16 * b + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt64(i))) }
    }
    nextBlock += UInt64(Self.batchBlocks)
    buffer = AES.encryptBlocks256(key: key, blocks: counters)
    position = 0
  }

  /// A natural below `n` (n > 0) by rejection sampling (draft §"Generating challenges",
  /// `generate_nat`; as the C++ and Rust references: as many bytes as `n` has, masked to the
  /// smallest all-ones mask covering `n`).
  package mutating func nat(_ n: Int) -> Int {
    precondition(n > 0)
    var byteCount = 0
    var rest = n
    while rest != 0 {
      rest >>= 8
      byteCount += 1
    }
    var mask = 0
    while n & mask != n { mask = (mask << 1) | 1 }
    var bytes = [UInt8](repeating: 0, count: byteCount)
    while true {
      fill(&bytes, count: byteCount)
      var r = 0
      for i in (0..<byteCount).reversed() { r = (r << 8) | Int(bytes[i]) }
      r &= mask
      if r < n { return r }
    }
  }
}

/// The Fiat–Shamir transcript (draft-google-cfrg-libzk §"Implementation of a random oracle"),
/// as the reference implementations tag messages: 0 = bytes, 1 = one field element,
/// 2 = an array of field elements (the tags the deployed proofs use; the draft's text says
/// 1, 2, 3). Every write ends the current pseudo-random stream; the next challenge starts a new
/// one seeded with SHA-256 of everything written so far.
package struct ZKTranscript: ~Copyable {
  private var hash = HashFunction(.sha256)
  private var stream: FiatShamirStream?

  /// Starts a transcript with the session identifier (written as bytes).
  package init(sessionID: [UInt8]) { write(bytes: sessionID) }

  private init(hash: consuming HashFunction, stream: FiatShamirStream?) {
    self.hash = hash
    self.stream = stream
  }

  /// An independent transcript in the same state: what it draws next and what this one draws
  /// next are the same until either is written to (a prover replays the verifier on a copy).
  package func copy() -> ZKTranscript { ZKTranscript(hash: hash.copy(), stream: stream) }

  private mutating func writeUntyped(_ data: [UInt8]) {
    stream = nil
    hash.update(data)
  }

  private static func length(_ n: Int) -> [UInt8] {
    var out: [UInt8] = []
    storeLE64(UInt64(n), &out)
    return out
  }

  /// Tag 0, the length (8 bytes little-endian), the bytes.
  package mutating func write(bytes: [UInt8]) {
    writeUntyped([0] + Self.length(bytes.count))
    writeUntyped(bytes)
  }

  /// Tag 0, the length, then `count` zero bytes (draft §"Special rules for the first message").
  package mutating func writeZeros(_ count: Int) {
    writeUntyped([0] + Self.length(count))
    let chunk = [UInt8](repeating: 0, count: 1 << 16)
    var left = count
    while left > 0 {
      let n = min(left, chunk.count)
      writeUntyped(n == chunk.count ? chunk : Array(chunk[0..<n]))
      left -= n
    }
  }

  /// Tag 1 and the element.
  package mutating func write<F: ZKField>(element: F) {
    var data: [UInt8] = [1]
    element.write(to: &data)
    writeUntyped(data)
  }

  /// Tag 2, the count, and the elements.
  package mutating func write<F: ZKField>(elements: some Collection<F>) {
    var data: [UInt8] = [2] + Self.length(elements.count)
    data.reserveCapacity(9 + elements.count * F.byteCount)
    for e in elements { e.write(to: &data) }
    writeUntyped(data)
  }

  private mutating func withStream<R>(_ body: (inout FiatShamirStream) -> R) -> R {
    var s = stream ?? FiatShamirStream(seed: hash.currentDigest())
    let result = body(&s)
    stream = s
    return result
  }

  /// The next `count` bytes of the stream.
  package mutating func bytes(_ count: Int) -> [UInt8] {
    withStream { s in
      var out = [UInt8](repeating: 0, count: count)
      s.fill(&out, count: count)
      return out
    }
  }

  /// A field element challenge.
  package mutating func element<F: ZKField>(_: F.Type = F.self) -> F {
    withStream { F.sample(&$0) }
  }

  /// `count` field element challenges.
  package mutating func elements<F: ZKField>(_ count: Int, _: F.Type = F.self) -> [F] {
    withStream { s in (0..<count).map { _ in F.sample(&s) } }
  }

  /// A natural below `n`.
  package mutating func nat(_ n: Int) -> Int { withStream { $0.nat(n) } }

  /// `k` distinct naturals below `n` (k ≤ n), as `generate_nats_wo_replacement`.
  package mutating func choose(_ n: Int, _ k: Int) -> [Int] {
    precondition(k <= n)
    var a = Array(0..<n)
    var result: [Int] = []
    result.reserveCapacity(k)
    for i in 0..<k {
      let j = i + nat(n - i)
      a.swapAt(i, j)
      result.append(a[i])
    }
    return result
  }
}
