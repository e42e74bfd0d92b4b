import DCCrypto

/// A Longfellow circuit pair as the mdoc circuits are distributed: one zstd-compressed file
/// holding the signature circuit over P-256's base field, then the hash circuit over GF(2^128)
/// (LFC1 each, with its id); identified by SHA-256(signature id || hash id), the ZkSpec's
/// `circuit_hash` / zkSystemId.
public struct LongfellowCircuit: Sendable {
  /// The circuit pair's id: SHA-256 over the two circuits' ids.
  public let id: [UInt8]
  /// The signature circuit (over P-256's base field).
  package let signature: ZKCircuit<FieldP256>
  /// The hash circuit (over GF(2^128)).
  package let hash: ZKCircuit<GF2128>

  /// Reads the compressed file. Each circuit's id is recomputed and must match the one stored
  /// after it.
  ///
  /// - Throws: `ZKError` with `circuitTooLarge` past ``ZKLimits`` and `circuitUnreadable` for
  ///   anything that is not a circuit pair, or when a stored id does not match the circuit.
  public init(compressed: [UInt8]) throws(ZKError) {
    try self.init(compressed: compressed, checkingIDs: true)
  }

  /// Reads the compressed file, optionally without recomputing the circuits' ids (a cache that
  /// checked them once).
  package init(compressed: [UInt8], checkingIDs: Bool) throws(ZKError) {
    guard compressed.count <= ZKLimits.compressedCircuitBytes else {
      throw ZKError(.circuitTooLarge, "the circuit file is larger than its limit")
    }
    let (signature, hash) = try Self.readPair(compressed)
    if checkingIDs {
      guard signature.computedID() == signature.id, hash.computedID() == hash.id else {
        throw ZKError(.circuitUnreadable, "a circuit does not have the id stored with it")
      }
    }
    self.signature = signature
    self.hash = hash
    id = SHA256.hash(data: signature.id + hash.id)
  }

  /// Decompresses and reads the pair: parsed as it decompresses (peak memory: the parsed
  /// circuits plus a window, not also the ~105 MB of decompressed bytes), unless the file does
  /// not state its size.
  private static func readPair(_ compressed: [UInt8]) throws(ZKError) -> (
    ZKCircuit<FieldP256>, ZKCircuit<GF2128>
  ) {
    #if canImport(CDCZstd)
      if let stream = try Zstd.input(compressed, maximumSize: ZKLimits.circuitBytes) {
        var input = stream
        let pair = try read(&input)
        try stream.finish()
        return pair
      }
    #endif
    var input = ByteReader(try Zstd.decompress(compressed, maximumSize: ZKLimits.circuitBytes))
    return try read(&input)
  }

  /// The two circuits and nothing after them.
  private static func read(_ input: inout some CircuitInput) throws(ZKError) -> (
    ZKCircuit<FieldP256>, ZKCircuit<GF2128>
  ) {
    guard let signature = ZKCircuit<FieldP256>(reading: &input) else {
      throw input.failure
        ?? ZKError(.circuitUnreadable, "the signature circuit is not a circuit (LFC1)")
    }
    guard let hash = ZKCircuit<GF2128>(reading: &input) else {
      throw input.failure ?? ZKError(.circuitUnreadable, "the hash circuit is not a circuit (LFC1)")
    }
    guard input.remaining == 0 else {
      throw ZKError(.circuitUnreadable, "\(input.remaining) bytes follow the circuits")
    }
    return (signature, hash)
  }
}
