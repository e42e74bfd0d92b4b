import DCTestSupport
import Testing

@testable import DCZK

/// docs/LIMITS.md, "Longfellow circuits and proofs": each bound at and just past its value.
@Suite struct LimitTests {
  /// An LFC1 circuit over P-256's base field: `layers` layers of one quad each (0 <- 0 * 0,
  /// constant 1), each with `logw` and `nw` wires (nw = logw by default).
  static func lfc1(layers: Int, logw: Int = 1, nw: Int? = nil) -> [UInt8] {
    var out: [UInt8] = [1]
    func size(_ n: Int) { out += [UInt8(n & 0xff), UInt8((n >> 8) & 0xff), UInt8(n >> 16)] }
    // field, nv, nc, npub_in, subfield_boundary, ninputs, nl, nconst
    for n in [1, 1, 1, 0, 0, 1, layers, 1] { size(n) }
    FieldP256.one.write(to: &out)
    for _ in 0..<layers {
      size(logw)
      size(nw ?? logw)
      size(1)
      for n in [0, 0, 0, 0] { size(n) }
    }
    return out + [UInt8](repeating: 0, count: 32)
  }

  @Test func layersAtAndPastTheLimit() {
    var reader = ByteReader(Self.lfc1(layers: ZKLimits.layers))
    #expect(ZKCircuit<FieldP256>(reading: &reader)?.layers.count == ZKLimits.layers)
    reader = ByteReader(Self.lfc1(layers: ZKLimits.layers + 1))
    #expect(ZKCircuit<FieldP256>(reading: &reader) == nil)
  }

  @Test func logWiresAtAndPastTheLimit() {
    var reader = ByteReader(Self.lfc1(layers: 1, logw: ZKLimits.logWires))
    #expect(ZKCircuit<FieldP256>(reading: &reader)?.layers[0].logw == ZKLimits.logWires)
    reader = ByteReader(Self.lfc1(layers: 1, logw: ZKLimits.logWires + 1))
    #expect(ZKCircuit<FieldP256>(reading: &reader) == nil)
  }

  @Test func wiresPerLayerAtAndPastTheLimit() {
    let limit = ZKLimits.wiresPerLayer
    var reader = ByteReader(Self.lfc1(layers: 1, logw: 22, nw: limit))
    #expect(ZKCircuit<FieldP256>(reading: &reader)?.layers[0].nw == limit)
    reader = ByteReader(Self.lfc1(layers: 1, logw: 23, nw: limit + 1))
    #expect(ZKCircuit<FieldP256>(reading: &reader) == nil)
  }

  @Test func totalWiresAtAndPastTheLimit() {
    let layers = ZKLimits.totalWires / ZKLimits.wiresPerLayer
    var reader = ByteReader(Self.lfc1(layers: layers, logw: 22, nw: ZKLimits.wiresPerLayer))
    #expect(ZKCircuit<FieldP256>(reading: &reader)?.layers.count == layers)
    reader = ByteReader(Self.lfc1(layers: layers + 1, logw: 22, nw: ZKLimits.wiresPerLayer))
    #expect(ZKCircuit<FieldP256>(reading: &reader) == nil)
  }

  @Test func compressedFileAtAndPastTheLimit() {
    let atLimit = [UInt8](repeating: 0, count: ZKLimits.compressedCircuitBytes)
    #expect(throws: ZKError(.circuitUnreadable, "")) {
      try LongfellowCircuit(compressed: atLimit)
    }
    #expect(throws: ZKError(.circuitTooLarge, "")) {
      try LongfellowCircuit(compressed: atLimit + [0])
    }
  }

  @Test func decompressedSizeAtAndPastTheLimit() throws {
    // Zeros are no circuit: at the limit the file is read whole and refused as unreadable,
    // one byte past it decompression stops.
    let atLimit = Zstd.compress([UInt8](repeating: 0, count: ZKLimits.circuitBytes))
    #expect(throws: ZKError(.circuitUnreadable, "")) {
      try LongfellowCircuit(compressed: atLimit)
    }
    let past = Zstd.compress([UInt8](repeating: 0, count: ZKLimits.circuitBytes + 1))
    #expect(throws: ZKError(.circuitTooLarge, "")) { try LongfellowCircuit(compressed: past) }
    #expect(throws: ZKError(.circuitUnreadable, "")) {
      try LongfellowCircuit(compressed: Array("not zstd".utf8))
    }
  }

  @Test func blockEncAtAndPastTheLimit() {
    // GF(2^128) rows live in GF(2^16): BLOCK_ENC < 2^16; other fields: at most ZKLimits.
    #expect(
      LigeroParameters(
        nw: 1000, nq: 3, rateInverse: 7, nreq: 132, blockEnc: ZKLimits.blockEnc - 1,
        subfieldBits: 16) != nil)
    #expect(
      LigeroParameters(
        nw: 1000, nq: 3, rateInverse: 7, nreq: 132, blockEnc: ZKLimits.blockEnc,
        subfieldBits: 16) == nil)
    #expect(
      LigeroParameters(
        nw: 1000, nq: 3, rateInverse: 7, nreq: 132, blockEnc: ZKLimits.blockEnc,
        subfieldBits: 256) != nil)
    #expect(
      LigeroParameters(
        nw: 1000, nq: 3, rateInverse: 7, nreq: 132, blockEnc: ZKLimits.blockEnc + 1,
        subfieldBits: 256) == nil)
  }

  @Test func proofSizeAtAndPastTheLimit() throws {
    let sha = try ReferenceProofTests.sha256()
    let atLimit = sha.proof + [UInt8](repeating: 0, count: ZKLimits.proofBytes - sha.proof.count)
    #expect(throws: ZKError(.proofTrailingBytes, "")) { try sha.verify(atLimit) }
    #expect(throws: ZKError(.proofTooLarge, "")) { try sha.verify(atLimit + [0]) }
  }

  @Test func merklePathCountAtAndPastTheLimit() throws {
    let sha = try ReferenceProofTests.sha256()
    let p = sha.verifier.parameters
    // The digest count is the 4 bytes before the last count * 32 bytes.
    let count = try #require(
      (1...(p.nreq * p.pathLength)).first { n in
        let at = sha.proof.count - 32 * n - 4
        return at >= 0
          && Int(sha.proof[at]) | Int(sha.proof[at + 1]) << 8 | Int(sha.proof[at + 2]) << 16
            | Int(sha.proof[at + 3]) << 24 == n
      })
    let at = sha.proof.count - 32 * count - 4
    func withCount(_ n: Int) -> [UInt8] {
      var altered = sha.proof
      for i in 0..<4 { altered[at + i] = UInt8((n >> (8 * i)) & 0xff) }
      return altered
    }
    // At the limit the count is accepted and the digests run out; past it, refused at once.
    #expect(throws: ZKError(.proofTruncated, "")) {
      try sha.verify(withCount(p.nreq * p.pathLength))
    }
    #expect(throws: ZKError(.proofMalformed, "")) {
      try sha.verify(withCount(p.nreq * p.pathLength + 1))
    }
  }

  @Test func runLengthPastTheOpenedColumns() throws {
    let sha = try ReferenceProofTests.sha256()
    let p = sha.verifier.parameters
    var offset = 0
    _ = try sha.verifier.readProof(sha.proof, offset: &offset)
    // The first run starts after root, sumcheck and the Ligero rows and nonces.
    let sumcheck = sha.circuit.layers.reduce(0) { $0 + (4 * $1.logw + 2) * 16 }
    let runAt = 32 + sumcheck + (p.block + p.dblock + p.r + p.dblock - p.block) * 16 + 32 * p.nreq
    var altered = sha.proof
    let tooLong = p.nrow * p.nreq + 1
    for i in 0..<4 { altered[runAt + i] = UInt8((tooLong >> (8 * i)) & 0xff) }
    #expect(throws: ZKError(.proofMalformed, "")) { try sha.verify(altered) }
  }
}
