import DCCrypto

/// DCZK's bounds on what it reads (docs/LIMITS.md, "Longfellow circuits and proofs").
package enum ZKLimits {
  /// Largest compressed circuit file (the 1-attribute mdoc circuit is ~300 KB).
  package static let compressedCircuitBytes = 16 << 20
  /// Largest decompressed circuit pair (the C++ library's kCircuitSizeMax; the 1-attribute
  /// pair is ~105 MB).
  package static let circuitBytes = 130_000_000
  /// Most layers in a circuit (the C++ reader's kMaxLayers).
  package static let layers = 10_000
  /// Most sumcheck rounds per layer side, log2 of the widest layer (the C++ kMaxBindings).
  package static let logWires = 40
  /// Most wires of one layer (the 1-attribute hash circuit's widest layer has under 2^20): the
  /// verifier keeps a few tables of this many field elements.
  package static let wiresPerLayer = 1 << 22
  /// Most wires over all layers, each layer's count rounded up to a power of two (the
  /// 1-attribute hash circuit has under 2^23): bounds the verifier's work on EQ tables.
  package static let totalWires = 1 << 25
  /// Largest proof (the 1-attribute mdoc proof is ~360 KB).
  package static let proofBytes = 8 << 20
  /// Longest Ligero row, BLOCK_ENC (the GF(2^16) subfield numbers at most 2^16 points).
  package static let blockEnc = 1 << 16
}

/// What circuits and proofs are read from: bytes, made readable `n` at a time at `offset`
/// (a whole array, or a zstd stream decompressed a window at a time).
protocol CircuitInput {
  /// The bytes; those at `offset ..< offset + n` are valid once `ensure(n)` returned true.
  var bytes: [UInt8] { get }
  /// The position of the next byte in `bytes`.
  var offset: Int { get set }
  /// The bytes left in the whole input, known up front.
  var remaining: Int { get }
  /// Why the input failed (a stream that is not valid zstd), if it did.
  var failure: ZKError? { get }
  /// Makes the next `n` bytes (n ≤ `remaining`) readable at `offset`; false when the input fails.
  mutating func ensure(_ n: Int) -> Bool
}

extension CircuitInput {
  /// An n-byte little-endian unsigned integer (n ≤ 8).
  mutating func uint(_ n: Int) -> Int? {
    guard n >= 0, n <= remaining, ensure(n) else { return nil }
    var v = 0
    for i in (0..<n).reversed() { v = (v << 8) | Int(bytes[offset + i]) }
    offset += n
    return v
  }

  mutating func take(_ n: Int) -> [UInt8]? {
    guard n >= 0, n <= remaining, ensure(n) else { return nil }
    defer { offset += n }
    return Array(bytes[offset..<offset + n])
  }

  mutating func element<F: ZKField>(_: F.Type = F.self) -> F? {
    guard F.byteCount <= remaining, ensure(F.byteCount), let e = F.read(bytes, at: offset)
    else { return nil }
    offset += F.byteCount
    return e
  }

  mutating func subfieldElement<F: ZKField>(_: F.Type = F.self) -> F? {
    guard F.subfieldByteCount <= remaining, ensure(F.subfieldByteCount),
      let e = F.readSubfield(bytes, at: offset)
    else { return nil }
    offset += F.subfieldByteCount
    return e
  }
}

/// Reads the draft's little-endian integers and field elements from an array, with bounds
/// checks.
struct ByteReader: CircuitInput {
  let bytes: [UInt8]
  var offset: Int

  init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  var remaining: Int { bytes.count - offset }
  var failure: ZKError? { nil }
  func have(_ n: Int) -> Bool { n >= 0 && n <= remaining }
  func ensure(_ n: Int) -> Bool { have(n) }
}

/// One layer of a layered circuit (draft-google-cfrg-libzk §"Serializing a Circuit"): the
/// quads (g, h0, h1, v), v an index into the circuit's constants, four numbers per quad in one
/// contiguous array.
package struct CircuitLayer: Sendable {
  /// log2 bound on the layer's input wires (sumcheck rounds per hand).
  package let logw: Int
  /// Number of input wires.
  package let nw: Int
  /// g, h0, h1, v of quad i at 4i ..< 4i + 4.
  package let quads: [UInt32]

  /// Number of quads.
  package var count: Int { quads.count / 4 }
}

/// A layered circuit over `F` as the C++ library serializes it (LFC1: the draft's Circuit
/// struct with 3-byte sizes and delta-coded quads, then the 32-byte circuit id).
package struct ZKCircuit<F: ZKField>: Sendable {
  /// Number of outputs.
  package let nv: Int
  /// ceil(log2(nv)).
  package let logv: Int
  /// Number of public inputs (the first inputs).
  package let npubIn: Int
  /// Inputs below this index are in the subfield.
  package let subfieldBoundary: Int
  /// Number of inputs, public and private.
  package let ninputs: Int
  /// The constants the quads refer to.
  package let constants: [F]
  /// Layers from the output (0) to the input.
  package let layers: [CircuitLayer]
  /// The id stored after the circuit.
  package let id: [UInt8]

  /// Total quads over all layers.
  package var nterms: Int { layers.reduce(0) { $0 + $1.count } }
  /// Number of private inputs (witnesses before the pad).
  package var nwitness: Int { ninputs - npubIn }
}

/// ceil(log2(n)) for n ≥ 1.
func ceilLog2(_ n: Int) -> Int {
  var l = 0
  while (1 << l) < n { l += 1 }
  return l
}

extension ZKCircuit {
  /// Reads one circuit at `reader`'s position; nil for anything not as the C++ reader accepts
  /// (its checks, plus: one copy (nc = 1), and inputs within the last layer's 2^logw).
  init?(reading reader: inout some CircuitInput) {
    guard reader.remaining >= 25, reader.uint(1) == 1, let fid = reader.uint(3), fid == F.fieldID,
      let nv = reader.uint(3), let nc = reader.uint(3), let npub = reader.uint(3),
      let sfb = reader.uint(3), let nin = reader.uint(3), let nl = reader.uint(3),
      let nconst = reader.uint(3)
    else { return nil }
    guard nv > 0, nc == 1, nl > 0, nl <= ZKLimits.layers, npub <= nin, sfb <= nin,
      nconst * F.byteCount <= reader.remaining
    else { return nil }
    var constants: [F] = []
    constants.reserveCapacity(nconst)
    for _ in 0..<nconst {
      guard let c: F = reader.element() else { return nil }
      constants.append(c)
    }
    var layers: [CircuitLayer] = []
    var maxG = nv
    for _ in 0..<nl {
      guard let layer = Self.readLayer(&reader, maxG: maxG, nconst: nconst) else { return nil }
      layers.append(layer)
      maxG = layer.nw
    }
    guard let last = layers.last, nin <= 1 << last.logw, Self.withinWireLimits(layers),
      let id = reader.take(32)
    else { return nil }
    self.init(
      nv: nv, logv: ceilLog2(nv), npubIn: npub, subfieldBoundary: sfb, ninputs: nin,
      constants: constants, layers: layers, id: id)
  }

  /// Reads one layer, its quads decoded a chunk at a time as the input makes them readable.
  private static func readLayer(_ reader: inout some CircuitInput, maxG: Int, nconst: Int)
    -> CircuitLayer?
  {
    guard let lw = reader.uint(3), let nw = reader.uint(3), let nq = reader.uint(3),
      lw > 0, lw <= ZKLimits.logWires, nw > 0, nw >= lw, nw <= 1 << lw, nq > 0,
      nq * 12 <= reader.remaining
    else { return nil }
    var quads = [UInt32](repeating: 0, count: 4 * nq)  // g, h0, h1, v per quad
    var previous = (0, 0, 0)
    var done = 0
    while done < nq {
      let count = min(1 << 16, nq - done)
      guard reader.ensure(12 * count) else { return nil }
      let start = reader.offset
      let first = done
      let ok = reader.bytes.withUnsafeBufferPointer { b in
        quads.withUnsafeMutableBufferPointer { q in
          Self.decodeQuads(
            b, from: start, quads: first..<first + count, previous: &previous, maxG: maxG, nw: nw,
            nconst: nconst, into: q)
        }
      }
      guard ok else { return nil }
      reader.offset = start + 12 * count
      done += count
    }
    return CircuitLayer(logw: lw, nw: nw, quads: quads)
  }

  /// Quads start ..< start + count as the circuit id hashes them: g, h0, h1 as 8 bytes
  /// little-endian each, then the constant's bytes.
  private static func writeQuads(
    _ quads: [UInt32], from start: Int, count: Int, constants: [[UInt8]], into block: inout [UInt8]
  ) {
    let size = 24 + F.byteCount
    block.withUnsafeMutableBufferPointer { out in
      quads.withUnsafeBufferPointer { q in
        for i in 0..<count {
          let base = i * size
          let quad = 4 * (start + i)
          for j in 0..<3 {
            var v = UInt64(q[quad + j])
            for b in 0..<8 {
              out[base + 8 * j + b] = UInt8(truncatingIfNeeded: v)
              v >>= 8
            }
          }
          let c = constants[Int(q[quad + 3])]
          for b in 0..<c.count { out[base + 24 + b] = c[b] }
        }
      }
    }
  }

  /// Whether every layer, and all of them together (each rounded up to a power of two), stay
  /// within ZKLimits' wire counts.
  static func withinWireLimits(_ layers: [CircuitLayer]) -> Bool {
    var total = 0
    for layer in layers {
      guard layer.nw <= ZKLimits.wiresPerLayer else { return false }
      total += 1 << ceilLog2(layer.nw)
    }
    return total <= ZKLimits.totalWires
  }

  /// Decodes quads `quads` of 4 three-byte numbers at `offset` (the caller made the bytes
  /// readable): a delta-coded g, h0, h1 (an odd value d means previous - (d >> 1), an even one
  /// previous + (d >> 1)), then the constant index; false when an index is out of range.
  private static func decodeQuads(
    _ b: UnsafeBufferPointer<UInt8>, from offset: Int, quads: Range<Int>,
    previous: inout (Int, Int, Int), maxG: Int, nw: Int, nconst: Int,
    into q: UnsafeMutableBufferPointer<UInt32>
  ) -> Bool {
    var o = offset
    @inline(__always) func next() -> Int {
      let x = Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16
      o += 3
      return x
    }
    @inline(__always) func delta(_ prev: Int) -> Int {
      let d = next()
      return d & 1 == 1 ? prev - (d >> 1) : prev + (d >> 1)
    }
    for i in quads {
      previous.0 = delta(previous.0)
      previous.1 = delta(previous.1)
      previous.2 = delta(previous.2)
      let vi = next()
      let (pg, ph0, ph1) = previous
      guard pg >= 0, pg < maxG, ph0 >= 0, ph0 < nw, ph1 >= 0, ph1 < nw, vi < nconst else {
        return false
      }
      q[4 * i] = UInt32(pg)
      q[4 * i + 1] = UInt32(ph0)
      q[4 * i + 2] = UInt32(ph1)
      q[4 * i + 3] = UInt32(vi)
    }
    return true
  }

  /// The circuit id as the C++ `circuit_id` computes it: SHA-256 over the field, the sizes and
  /// every quad (each number as 8 bytes little-endian, each constant serialized).
  package func computedID() -> [UInt8] {
    var hash = HashFunction(.sha256)
    var buffer: [UInt8] = F.circuitIDPrefix
    for n in [nv, logv, 1, 0, layers.count, ninputs, npubIn, subfieldBoundary] {
      storeLE64(UInt64(n), &buffer)
    }
    let constantBytes = constants.map(\.bytes)
    let elementBytes = F.byteCount
    let chunk = 4096
    for layer in layers {
      for n in [layer.nw, layer.logw, layer.count] { storeLE64(UInt64(n), &buffer) }
      hash.update(buffer)
      buffer.removeAll(keepingCapacity: true)
      var start = 0
      while start < layer.count {
        let n = min(chunk, layer.count - start)
        var block = [UInt8](repeating: 0, count: n * (24 + elementBytes))
        Self.writeQuads(layer.quads, from: start, count: n, constants: constantBytes, into: &block)
        hash.update(block)
        start += n
      }
    }
    hash.update(buffer)
    return hash.finalize()
  }
}
