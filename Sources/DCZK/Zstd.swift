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

  #if canImport(CDCZstd)
    /// The decompressed bytes of `input` as a reader pulls them, when its frames state their
    /// sizes (files written by the zstd tool and library do); nil when they do not or the file
    /// is not zstd (then ``decompress(_:maximumSize:)`` decides). Throws `circuitTooLarge` when
    /// the stated sizes add up past `maximumSize`.
    static func input(_ input: [UInt8], maximumSize: Int) throws(ZKError) -> ZstdInput? {
      guard let stated = statedSize(input) else { return nil }
      guard stated <= maximumSize else {
        throw ZKError(
          .circuitTooLarge, "the circuit decompresses to more than \(maximumSize) bytes")
      }
      guard let context = ZSTD_createDCtx() else {
        throw ZKError(.circuitUnreadable, "zstd: cannot allocate a context")
      }
      return ZstdInput(input, total: stated, context: context)
    }

    /// The decompressed size every frame of `input` states, added up (stopping past 2^40); nil
    /// when a frame does not state it or is not a zstd frame.
    private static func statedSize(_ input: [UInt8]) -> Int? {
      input.withUnsafeBytes { raw -> Int? in
        guard let base = raw.baseAddress else { return nil }
        var offset = 0
        var total = 0
        while offset < raw.count && total <= 1 << 40 {
          let left = raw.count - offset
          let size = ZSTD_getFrameContentSize(base + offset, left)
          let length = ZSTD_findFrameCompressedSize(base + offset, left)
          // ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR are the two largest values.
          guard size < UInt64.max - 1, size <= 1 << 40, ZSTD_isError(length) == 0, length > 0
          else { return nil }
          total += Int(size)
          offset += length
        }
        return total
      }
    }
  #endif

  /// Compresses `input` (level 3), for tests and tools that make circuit files; the frame states
  /// the decompressed size unless `statingSize` is false, and ends with a checksum if asked.
  static func compress(_ input: [UInt8], statingSize: Bool = true, checksum: Bool = false)
    -> [UInt8]
  {
    #if canImport(CDCZstd)
      let context = ZSTD_createCCtx()
      defer { ZSTD_freeCCtx(context) }
      _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3)
      _ = ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, statingSize ? 1 : 0)
      _ = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, checksum ? 1 : 0)
      var out = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
      let n = input.withUnsafeBytes { src in
        out.withUnsafeMutableBytes { dst in
          ZSTD_compress2(context, dst.baseAddress, dst.count, src.baseAddress, src.count)
        }
      }
      precondition(ZSTD_isError(n) == 0, "ZSTD_compress2 failed")
      return Array(out[0..<n])
    #else
      preconditionFailure("zstd is not available on this platform")
    #endif
  }
}

#if canImport(CDCZstd)
  /// A zstd file's decompressed bytes, produced a window at a time as the reader asks for them:
  /// a circuit pair decompresses to ~105 MB, which reading it whole first would hold beside the
  /// parsed circuit. Used by one reader on one thread, then dropped.
  final class ZstdInput: CircuitInput {
    private let context: OpaquePointer
    private let input: [UInt8]
    private var inputOffset = 0
    /// ZSTD_decompressStream's last result: 0 at the end of a frame.
    private var frameLeft = 0
    /// The bytes decompressed so far from `dropped` on.
    private(set) var bytes: [UInt8] = []
    var offset = 0
    /// Bytes already read and dropped from the window's front.
    private var dropped = 0
    /// The decompressed size the frames state.
    private let total: Int
    private(set) var failure: ZKError?
    private var scratch = [UInt8](repeating: 0, count: 1 << 20)

    fileprivate init(_ input: [UInt8], total: Int, context: OpaquePointer) {
      self.input = input
      self.total = total
      self.context = context
    }

    deinit { ZSTD_freeDCtx(context) }

    var remaining: Int { total - dropped - offset }

    func ensure(_ n: Int) -> Bool {
      if bytes.count - offset >= n { return true }
      guard failure == nil, n <= remaining else { return false }
      // Drop what was read (the window keeps its capacity), then decompress until n are there.
      bytes.removeSubrange(0..<offset)
      dropped += offset
      offset = 0
      while bytes.count < n {
        guard let produced = pull(), produced > 0 else {
          if failure == nil { fail("the circuit file ends before its stated size") }
          return false
        }
      }
      return true
    }

    /// Checks that the file ends where its stated content does (the frames' checksums and
    /// ends): throws `circuitUnreadable` otherwise, or the failure met while reading.
    func finish() throws(ZKError) {
      while failure == nil && (inputOffset < input.count || frameLeft > 0) {
        guard let produced = pull() else { break }
        if produced > 0 { fail("the circuit file holds more than its stated size") }
      }
      if let failure { throw failure }
    }

    /// One step of decompression appended to the window: the bytes it produced, or nil (and
    /// `failure` set) when the stream is not valid zstd or ends inside a frame.
    private func pull() -> Int? {
      let before = inputOffset
      var produced = 0
      let result = input.withUnsafeBytes { src in
        scratch.withUnsafeMutableBytes { dst in
          var inBuffer = ZSTD_inBuffer(src: src.baseAddress, size: src.count, pos: inputOffset)
          var outBuffer = ZSTD_outBuffer(dst: dst.baseAddress, size: dst.count, pos: 0)
          let r = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
          inputOffset = inBuffer.pos
          produced = outBuffer.pos
          return r
        }
      }
      if ZSTD_isError(result) != 0 {
        fail("the circuit file is not a valid zstd stream")
        return nil
      }
      guard dropped + bytes.count + produced <= total else {
        fail("the circuit file holds more than its stated size")
        return nil
      }
      frameLeft = result
      if produced == 0 && inputOffset == before && (inputOffset < input.count || result > 0) {
        fail("the circuit file ends inside a zstd frame")
        return nil
      }
      bytes.append(contentsOf: scratch[0..<produced])
      return produced
    }

    private func fail(_ reason: String) {
      if failure == nil { failure = ZKError(.circuitUnreadable, reason) }
    }
  }
#endif
