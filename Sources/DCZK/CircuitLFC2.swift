/// The LFC2 circuit representation of the draft's Rust reference (not yet deployed; the
/// reference's test circuits use it): "LFC2", then unsigned LEB128 numbers, the constants, and
/// per layer a table of zigzag-coded quad deltas, segments of delta indices and the tokens
/// naming segments, then the 32-byte id. DCZK reads it to check its verifier against the
/// reference's proofs.
extension ZKCircuit {
  /// Reads an LFC2 circuit; nil for anything malformed or past ``ZKLimits``.
  package init?(lfc2 bytes: [UInt8]) {
    var reader = LEBReader(bytes: bytes)
    guard reader.take(4) == Array("LFC2".utf8), let fid = reader.number(), fid == F.fieldID,
      let nv = reader.number(), reader.number() != nil, let npub = reader.number(),
      let sfb = reader.number(), let nin = reader.number(), let nl = reader.number(),
      let nconst = reader.number(), nv > 0, nl > 0, nl <= ZKLimits.layers, npub <= nin,
      sfb <= nin, reader.have(nconst * F.byteCount)
    else { return nil }
    var constants: [F] = []
    for _ in 0..<nconst {
      guard let c = F.read(bytes, at: reader.offset) else { return nil }
      reader.offset += F.byteCount
      constants.append(c)
    }
    var layers: [CircuitLayer] = []
    var maxG = nv
    var budget = ZKLimits.circuitBytes / 12  // as many quads as an LFC1 file may hold
    for _ in 0..<nl {
      guard let layer = Self.readLFC2Layer(&reader, maxG: maxG, nconst: nconst, budget: &budget)
      else { return nil }
      layers.append(layer)
      maxG = layer.nw
    }
    guard let last = layers.last, nin <= 1 << last.logw, Self.withinWireLimits(layers),
      let id = reader.take(32),
      reader.offset == bytes.count
    else { return nil }
    self.init(
      nv: nv, logv: ceilLog2(nv), npubIn: npub, subfieldBoundary: sfb, ninputs: nin,
      constants: constants, layers: layers, id: id)
  }

  private static func readLFC2Layer(
    _ reader: inout LEBReader, maxG: Int, nconst: Int, budget: inout Int
  ) -> CircuitLayer? {
    guard let lw = reader.number(), let nw = reader.number(), lw > 0, lw <= ZKLimits.logWires,
      nw > 0, nw <= 1 << lw, let ndelta = reader.number(), reader.have(4 * ndelta)
    else { return nil }
    var deltas: [(Int, Int, Int, Int)] = []
    for _ in 0..<ndelta {
      guard let g = reader.zigzag(), let h0 = reader.zigzag(), let h1 = reader.zigzag(),
        let k = reader.number(), k < nconst
      else { return nil }
      deltas.append((g, h0, h1, k))
    }
    guard let nseg = reader.number(), reader.have(nseg) else { return nil }
    var segments: [[Int]] = []
    for _ in 0..<nseg {
      guard let n = reader.number(), reader.have(n) else { return nil }
      var segment: [Int] = []
      for _ in 0..<n {
        guard let d = reader.number(), d < ndelta else { return nil }
        segment.append(d)
      }
      segments.append(segment)
    }
    guard let ntok = reader.number(), reader.have(ntok) else { return nil }
    var quads: [UInt32] = []
    var (pg, p0, p1) = (0, 0, 0)
    for _ in 0..<ntok {
      guard let t = reader.number(), t < nseg else { return nil }
      budget -= segments[t].count
      guard budget >= 0 else { return nil }
      for d in segments[t] {
        pg += deltas[d].0
        p0 += deltas[d].1
        p1 += deltas[d].2
        guard pg >= 0, pg < maxG, p0 >= 0, p0 < nw, p1 >= 0, p1 < nw else { return nil }
        quads += [UInt32(pg), UInt32(p0), UInt32(p1), UInt32(deltas[d].3)]
      }
    }
    guard !quads.isEmpty else { return nil }
    return CircuitLayer(logw: lw, nw: nw, quads: quads)
  }
}

/// Unsigned LEB128 numbers (at most 2^40, far beyond any count DCZK accepts).
struct LEBReader {
  let bytes: [UInt8]
  var offset = 0

  func have(_ n: Int) -> Bool { n >= 0 && n <= bytes.count - offset }

  mutating func take(_ n: Int) -> [UInt8]? {
    guard have(n) else { return nil }
    defer { offset += n }
    return Array(bytes[offset..<offset + n])
  }

  mutating func number() -> Int? {
    var value = 0
    var shift = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      value |= Int(byte & 0x7f) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
      if shift > 35 { return nil }
    }
    return nil
  }

  /// Zigzag: an even value v is v / 2, an odd one -(v >> 1) - 1.
  mutating func zigzag() -> Int? {
    guard let v = number() else { return nil }
    return v & 1 == 0 ? v >> 1 : -(v >> 1) - 1
  }
}
