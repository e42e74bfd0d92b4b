import DCTestSupport
import Testing

@testable import DCZK

// zstd is Linux-only here (CDCZstd, Debian libzstd): on Apple platforms no circuit is read.
#if canImport(CDCZstd)
  /// Circuit files are parsed as they decompress, a window at a time (LongfellowCircuit): the
  /// result is the circuit the whole bytes give, and a file that ends early, holds more than its
  /// frames state or does not state its size is handled as before.
  @Suite("Longfellow circuit files read as they decompress")
  struct CircuitStreamTests {
    /// Quads per layer of the hash side: 2.4 MB of quads, read across several decompression steps
    /// (1 MiB each) and decoding chunks (65,536 quads).
    static let quads = 200_000

    /// Quad i of a test layer: (g, h0, h1, v) spread over 1,024 wires.
    static func quad(_ i: Int) -> [Int] { [i % 1024, (i * 7) % 1024, (i * 13 + 5) % 1024, i % 2] }

    /// An LFC1 circuit over `F` with one layer of `count` quads (1,024 outputs and wires, two
    /// constants), delta-coded as the C++ writer does, and a zero id.
    static func lfc1<F: ZKField>(_: F.Type, count: Int) -> [UInt8] {
      var out: [UInt8] = [1]
      func size(_ n: Int) { out += [UInt8(n & 0xff), UInt8((n >> 8) & 0xff), UInt8(n >> 16)] }
      // field, nv, nc, npub_in, subfield_boundary, ninputs, nl, nconst
      for n in [F.fieldID, 1024, 1, 0, 0, 1, 1, 2] { size(n) }
      F.zero.write(to: &out)
      F.one.write(to: &out)
      size(10)
      size(1024)
      size(count)
      var previous = [0, 0, 0]
      for i in 0..<count {
        let q = quad(i)
        for j in 0..<3 {
          let d = q[j] - previous[j]
          size(d >= 0 ? 2 * d : 2 * -d + 1)
          previous[j] = q[j]
        }
        size(q[3])
      }
      return out + [UInt8](repeating: 0, count: 32)
    }

    static let pair = lfc1(FieldP256.self, count: 3) + lfc1(GF2128.self, count: quads)

    static func expectTestPair(_ circuit: LongfellowCircuit) {
      #expect(circuit.signature.layers.map(\.count) == [3])
      let hash = circuit.hash.layers
      #expect(hash.map(\.count) == [quads])
      #expect(hash.first?.quads == (0..<quads).flatMap { quad($0).map(UInt32.init) })
    }

    @Test("A file stating its size: parsed as it decompresses, the same circuit as its bytes")
    func streamed() throws {
      let compressed = Zstd.compress(Self.pair)
      #expect(try Zstd.input(compressed, maximumSize: ZKLimits.circuitBytes) != nil)
      Self.expectTestPair(try LongfellowCircuit(compressed: compressed, checkingIDs: false))
    }

    @Test("A file not stating its size is decompressed whole first, as before")
    func sizeNotStated() throws {
      let compressed = Zstd.compress(Self.pair, statingSize: false)
      #expect(try Zstd.input(compressed, maximumSize: ZKLimits.circuitBytes) == nil)
      Self.expectTestPair(try LongfellowCircuit(compressed: compressed, checkingIDs: false))
    }

    @Test("A file cut short, or with bytes after the circuits, is refused")
    func cutOrExtended() {
      let compressed = Zstd.compress(Self.pair)
      for bad in [
        Array(compressed.dropLast(3)), Array(compressed.prefix(compressed.count / 2)),
        compressed + Zstd.compress([0]),
      ] {
        #expect(throws: ZKError(.circuitUnreadable, "")) {
          try LongfellowCircuit(compressed: bad, checkingIDs: false)
        }
      }
    }

    @Test("A file whose content does not match its checksum is refused, found while streaming")
    func corrupted() throws {
      var compressed = Zstd.compress(Self.pair, checksum: true)
      #expect(try Zstd.input(compressed, maximumSize: ZKLimits.circuitBytes) != nil)
      compressed[compressed.count / 2] ^= 0x55
      #expect(throws: ZKError(.circuitUnreadable, "")) {
        try LongfellowCircuit(compressed: compressed, checkingIDs: false)
      }
    }
  }
#endif
