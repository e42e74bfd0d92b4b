#if canImport(CDCQRencode)
  import CDCQRencode
#endif

/// The QR code of a text for a terminal (`dcwallet present --qr`): the matrix comes from
/// libqrencode (Debian `libqrencode-dev`, through the `CQRencode` system library target), never
/// from an encoder of our own. Only the drawing is ours: two modules per character cell with the
/// Unicode half blocks, dark modules drawn dark on a light background, with the 4-module quiet
/// zone of ISO/IEC 18004 §6.3.8.
enum QRText {
  /// The modules, row by row (`true` dark), without the quiet zone: libqrencode's
  /// `QRcode_encodeString` in byte mode (case-sensitive) at error correction level L, the
  /// smallest version that fits.
  static func matrix(_ text: String) throws -> [[Bool]] {
    #if canImport(CDCQRencode)
      guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else {
        throw CommandFailure("the text does not fit in a QR code")
      }
      defer { QRcode_free(code) }
      let width = Int(code.pointee.width)
      // Bit 0 of each byte is the module's colour (1 = dark), qrencode.h "QRcode".
      return (0..<width).map { row in
        (0..<width).map { column in code.pointee.data[row * width + column] & 1 == 1 }
      }
    #else
      throw CommandFailure("--qr needs libqrencode, which this build does not have")
    #endif
  }

  /// The text's QR code as lines of half-block characters: each character cell draws two rows.
  static func render(_ text: String) throws -> String {
    let modules = try matrix(text)
    let quiet = 4
    let size = modules.count + 2 * quiet
    func dark(_ row: Int, _ column: Int) -> Bool {
      let (r, c) = (row - quiet, column - quiet)
      guard r >= 0, c >= 0, r < modules.count, c < modules.count else { return false }
      return modules[r][c]
    }
    var lines: [String] = []
    for row in stride(from: 0, to: size, by: 2) {
      var line = ""
      for column in 0..<size {
        // Light modules are drawn as full blocks, so the code reads on a dark terminal.
        switch (!dark(row, column), row + 1 < size && !dark(row + 1, column)) {
        case (true, true): line += "\u{2588}"
        case (true, false): line += "\u{2580}"
        case (false, true): line += "\u{2584}"
        case (false, false): line += " "
        }
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }

  /// Reads `render`'s lines back into modules (quiet zone included), for tests.
  static func modules(fromRendered text: String) -> [[Bool]] {
    var rows: [[Bool]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var top: [Bool] = []
      var bottom: [Bool] = []
      for character in line {
        switch character {
        case "\u{2588}":
          top.append(false)
          bottom.append(false)
        case "\u{2580}":
          top.append(false)
          bottom.append(true)
        case "\u{2584}":
          top.append(true)
          bottom.append(false)
        default:
          top.append(true)
          bottom.append(true)
        }
      }
      rows.append(top)
      rows.append(bottom)
    }
    return rows
  }
}
