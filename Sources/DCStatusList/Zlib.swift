import CDCZlib
import DCErrors

/// The ZLIB data format (RFC 1950) around DEFLATE (RFC 1951), through the system zlib, as the
/// draft requires for the Status List's byte array (draft-ietf-oauth-status-list §4.1: "compressed
/// using DEFLATE with the ZLIB data format").
public enum Zlib {
  /// Compresses `bytes` into a zlib stream at the best compression level (draft §4.1 recommends
  /// the highest level).
  ///
  /// - Throws: `StatusListErrorCode.compressionFailed` when zlib reports an error.
  public static func compress(_ bytes: [UInt8]) throws(StatusListError) -> [UInt8] {
    var stream = z_stream()
    guard dc_zlib_deflate_init(&stream, Z_BEST_COMPRESSION) == Z_OK else {
      throw StatusListError(.compressionFailed, "zlib deflateInit failed")
    }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
    let result: Int32 = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard result == Z_STREAM_END else {
      throw StatusListError(.compressionFailed, "zlib deflate returned \(result)")
    }
    output.removeSubrange(Int(stream.total_out)...)
    return output
  }

  /// Decompresses one complete zlib stream, stopping as soon as the output would exceed
  /// `maximumSize` bytes.
  ///
  /// The input is inflated in chunks into an output that never grows past `maximumSize + 1`
  /// bytes, so a decompression bomb costs at most that much memory and the time to inflate
  /// that many bytes, whatever it claims to expand to.
  ///
  /// - Throws: ``StatusListErrorCode/tooLarge`` past `maximumSize`;
  ///   `StatusListErrorCode.decompressionFailed` for input that is not one complete zlib
  ///   stream (a bad header or checksum, a preset dictionary, truncation, trailing bytes).
  public static func decompress(_ bytes: [UInt8], maximumSize: Int) throws(StatusListError)
    -> [UInt8]
  {
    var stream = z_stream()
    guard dc_zlib_inflate_init(&stream) == Z_OK else {
      throw StatusListError(.decompressionFailed, "zlib inflateInit failed")
    }
    defer { inflateEnd(&stream) }
    let chunk = 256 << 10
    var output = [UInt8]()
    output.reserveCapacity(min(maximumSize + 1, max(chunk, bytes.count * 4)))
    var buffer = [UInt8](repeating: 0, count: chunk)
    var status: Int32 = Z_OK
    try bytes.withUnsafeBufferPointer { (input) throws(StatusListError) in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      while true {
        let room = min(chunk, maximumSize + 1 - output.count)
        let produced: Int = buffer.withUnsafeMutableBufferPointer { out in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(room)
          status = inflate(&stream, Z_NO_FLUSH)
          return room - Int(stream.avail_out)
        }
        output.append(contentsOf: buffer[0..<produced])
        if output.count > maximumSize {
          throw StatusListError(
            .tooLarge, "the decompressed list exceeds \(maximumSize) bytes")
        }
        if try streamEnded(status: status, produced: produced, stream: stream) { return }
      }
    }
    return output
  }

  /// Whether `inflate`'s `status` ends the stream (only with no bytes after it); false to go
  /// on inflating, an error for a truncated, dictionary-bound or corrupt stream.
  private static func streamEnded(status: Int32, produced: Int, stream: z_stream)
    throws(StatusListError) -> Bool
  {
    switch status {
    case Z_STREAM_END:
      guard stream.avail_in == 0 else {
        throw StatusListError(
          .decompressionFailed, "\(stream.avail_in) bytes follow the end of the zlib stream")
      }
      return true
    case Z_OK:
      return false
    case Z_BUF_ERROR where produced == 0:
      throw StatusListError(.decompressionFailed, "the zlib stream is truncated")
    case Z_BUF_ERROR:
      return false
    case Z_NEED_DICT:
      throw StatusListError(.decompressionFailed, "the zlib stream needs a preset dictionary")
    default:
      let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
      throw StatusListError(.decompressionFailed, "zlib: \(message)")
    }
  }
}
