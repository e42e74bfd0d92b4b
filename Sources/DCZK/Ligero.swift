import DCCrypto

/// Ligero's layout of the tableau (draft-google-cfrg-libzk §"Common parameters"; the C++
/// `LigeroParam` with a given BLOCK_ENC): rows of BLOCK_ENC elements, the first BLOCK the
/// message, NREQ random then W witnesses per row.
package struct LigeroParameters: Sendable, Equatable {
  /// Witnesses (private inputs and pads).
  package let nw: Int
  /// Quadratic constraints.
  package let nq: Int
  /// Opened columns.
  package let nreq: Int
  /// Row length.
  package let blockEnc: Int
  /// Message length (BLOCK).
  package let block: Int
  /// 2 * BLOCK - 1.
  package let dblock: Int
  /// Random elements per witness row (= NREQ).
  package let r: Int
  /// Witnesses per row.
  package let w: Int
  /// Witness rows.
  package let nwrow: Int
  /// Triples of quadratic rows.
  package let nqtriples: Int
  /// Witness and quadratic rows.
  package let nwqrow: Int
  /// All rows (three blinding rows first).
  package let nrow: Int
  /// Longest Merkle path over the BLOCK_ENC - DBLOCK leaves.
  package let pathLength: Int

  /// The layout for `nw` witnesses and `nq` quadratic constraints; nil when the parameters
  /// admit no layout (the C++ `layout` returning SIZE_MAX) or exceed ZKLimits.
  package init?(nw: Int, nq: Int, rateInverse: Int, nreq: Int, blockEnc: Int, subfieldBits: Int) {
    let maxSize = 1 << 28
    guard blockEnc > 0, blockEnc <= ZKLimits.blockEnc, rateInverse > 0, rateInverse <= maxSize,
      nreq > 0, subfieldBits > 28 || blockEnc < 1 << subfieldBits, blockEnc + 1 >= 2 + rateInverse
    else { return nil }
    let block = (blockEnc + 1) / (2 + rateInverse)
    guard block >= nreq, block - nreq >= nreq, blockEnc >= 2 * block - 1 else { return nil }
    let w = block - nreq
    let nwrow = (nw + w - 1) / w
    let nqtriples = (nq + w - 1) / w
    let nrow = nwrow + 3 * nqtriples + 3
    guard nrow < maxSize / blockEnc, blockEnc - (2 * block - 1) >= nreq, blockEnc > block else {
      return nil
    }
    self.nw = nw
    self.nq = nq
    self.nreq = nreq
    self.blockEnc = blockEnc
    self.block = block
    dblock = 2 * block - 1
    r = nreq
    self.w = w
    self.nwrow = nwrow
    self.nqtriples = nqtriples
    nwqrow = nwrow + 3 * nqtriples
    self.nrow = nrow
    pathLength = MerkleTree.pathLength(blockEnc - (2 * block - 1))
  }

  /// Leaves of the column tree.
  var leafCount: Int { blockEnc - dblock }
  /// First witness row.
  var iw: Int { 3 }
  /// First quadratic row.
  var iq: Int { 3 + nwrow }
}

/// A Ligero proof (draft §"Serializing a Ligero Proof"; the C++ `write_com_proof` layout).
package struct LigeroProof<F: ZKField>: Sendable {
  package var yLdt: [F]
  package var yDot: [F]
  package var yQuad0: [F]
  package var yQuad2: [F]
  package var nonces: [[UInt8]]
  /// Opened columns, row-major: req[row * nreq + j].
  package var req: [F]
  package var path: [[UInt8]]

  /// Most elements in a run of the opened columns (the C++ kMaxRunLen).
  static var maxRun: Int { 1 << 25 }

  init(reading reader: inout ByteReader, parameters p: LigeroParameters) throws(ZKError) {
    func elements(_ n: Int) throws(ZKError) -> [F] {
      guard reader.have(n * F.byteCount) else { throw Self.truncated }
      var out: [F] = []
      out.reserveCapacity(n)
      for _ in 0..<n {
        guard let e: F = reader.element() else {
          throw ZKError(.proofMalformed, "a Ligero proof element is not canonical")
        }
        out.append(e)
      }
      return out
    }
    yLdt = try elements(p.block)
    yDot = try elements(p.dblock)
    yQuad0 = try elements(p.r)
    yQuad2 = try elements(p.dblock - p.block)
    guard reader.have(32 * p.nreq) else { throw Self.truncated }
    nonces = (0..<p.nreq).map { _ in reader.take(32)! }
    req = try Self.readRuns(&reader, count: p.nrow * p.nreq)
    guard let count = reader.uint(4) else { throw Self.truncated }
    // At most NREQ full paths (the C++ reader's bound; its lower bound of NREQ digests is not
    // needed: the Merkle check uses every digest exactly once).
    guard count <= p.nreq * p.pathLength else {
      throw ZKError(.proofMalformed, "the Merkle proof has \(count) digests")
    }
    guard reader.have(32 * count) else { throw Self.truncated }
    path = (0..<count).map { _ in reader.take(32)! }
  }

  static var truncated: ZKError { ZKError(.proofTruncated, "the Ligero proof ends early") }

  /// Alternating runs (4-byte length, then elements), full-field runs first, subfield runs
  /// second (draft §"Serializing a Ligero Proof", `write_runs`).
  static func readRuns(_ reader: inout ByteReader, count total: Int) throws(ZKError) -> [F] {
    var out: [F] = []
    out.reserveCapacity(total)
    var subfield = false
    while out.count < total {
      guard let run = reader.uint(4) else { throw truncated }
      guard run < maxRun, out.count + run <= total else {
        throw ZKError(.proofMalformed, "a run of \(run) opened elements does not fit")
      }
      let size = subfield ? F.subfieldByteCount : F.byteCount
      guard reader.have(run * size) else { throw truncated }
      for _ in 0..<run {
        let e: F? = subfield ? reader.subfieldElement() : reader.element()
        guard let e else { throw ZKError(.proofMalformed, "an opened element is not canonical") }
        out.append(e)
      }
      subfield.toggle()
    }
    return out
  }
}
