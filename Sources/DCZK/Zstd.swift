#if canImport(CDCZstd)
  import CDCZstd
#endif

/// Zstandard decompression (RFC 8878) with an output cap, for circuit files.
enum Zstd {
  /// The decompressed bytes of one or more complete zstd frames; throws `circuitUnreadable`
  /// for anything else and `circuitTooLarge` past `maximumSize`.
  static func decompress(_ input: [UInt8], maximumSize: Int) throws(ZKError) -> [UInt8] {
    #if canImport(CDCZstd)
      guard let ctx = ZSTD_createDCtx() else {
        throw ZKError(.circuitUnreadable, "zstd: cannot allocate a context")
      }
      defer { ZSTD_freeDCtx(ctx) }
      var output: [UInt8] = []
      // The frame header usually states the size: reserve it once (within the cap).
      let stated = input.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
      if stated < UInt64(maximumSize) { output.reserveCapacity(Int(stated)) }
      let chunk = 1 << 20
      var scratch = [UInt8](repeating: 0, count: chunk)
      var lastResult = 0
      var inPos = 0
      while inPos < input.count || lastResult > 0 {
        let before = inPos
        var produced = 0
        let result = input.withUnsafeBytes { src in
          scratch.withUnsafeMutableBytes { dst in
            var inBuffer = ZSTD_inBuffer(src: src.baseAddress, size: src.count, pos: inPos)
            var outBuffer = ZSTD_outBuffer(dst: dst.baseAddress, size: dst.count, pos: 0)
            let r = ZSTD_decompressStream(ctx, &outBuffer, &inBuffer)
            inPos = inBuffer.pos
            produced = outBuffer.pos
            return r
          }
        }
        if ZSTD_isError(result) != 0 {
          throw ZKError(.circuitUnreadable, "the circuit file is not a valid zstd stream")
        }
        guard output.count + produced <= maximumSize else {
          throw ZKError(
            .circuitTooLarge, "the circuit decompresses to more than \(maximumSize) bytes")
        }
        output.append(contentsOf: scratch[0..<produced])
        lastResult = result
        if inPos == before && produced == 0 {
          throw ZKError(.circuitUnreadable, "the circuit file ends inside a zstd frame")
        }
      }
      return output
    #else
      throw ZKError(.circuitUnreadable, "zstd is not available on this platform")
    #endif
  }

  /// Compresses `input` (level 3), for tests and tools that make circuit files.
  static func compress(_ input: [UInt8]) -> [UInt8] {
    #if canImport(CDCZstd)
      var out = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
      let n = input.withUnsafeBytes { src in
        out.withUnsafeMutableBytes { dst in
          ZSTD_compress(dst.baseAddress, dst.count, src.baseAddress, src.count, 3)
        }
      }
      precondition(ZSTD_isError(n) == 0, "ZSTD_compress failed")
      return Array(out[0..<n])
    #else
      preconditionFailure("zstd is not available on this platform")
    #endif
  }
}
