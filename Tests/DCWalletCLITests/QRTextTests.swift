import Testing

@testable import DCWalletCLI

/// `present --qr`: the terminal drawing of libqrencode's matrix.
@Suite("QR code of the mdoc: URI")
struct QRTextTests {
  static let uri =
    "mdoc:owBjMS4wAYIB2BhYS6QBAiABIVggWk7j9xV9BhUQBPJMQbbH8UKTIOK1cRc1LUOdvrPrH0MiWCCqczPRwTMbhf4Y7EB5oH1DCxLw4vyKEBHTf4bPTCOp5wKBgwIBowD1AfQKUA"

  /// The 7×7 finder pattern of ISO/IEC 18004 §6.3.3 at (row, column): dark ring, light ring,
  /// dark 3×3 centre.
  func hasFinder(_ m: [[Bool]], _ row: Int, _ column: Int) -> Bool {
    for r in 0..<7 {
      for c in 0..<7 {
        let ring = max(abs(r - 3), abs(c - 3))
        if m[row + r][column + c] != (ring != 2) { return false }
      }
    }
    return true
  }

  @Test("the matrix has a QR size (17 + 4·version) and the three finder patterns")
  func matrixShape() throws {
    let m = try QRText.matrix(Self.uri)
    let size = m.count
    #expect((size - 17) % 4 == 0 && size >= 21 && size <= 177)
    #expect(m.allSatisfy { $0.count == size })
    #expect(hasFinder(m, 0, 0))
    #expect(hasFinder(m, 0, size - 7))
    #expect(hasFinder(m, size - 7, 0))
    #expect(!hasFinder(m, size - 7, size - 7))
    // Timing pattern (§6.3.5): row 6 alternates between the finders, dark first.
    #expect((8..<(size - 8)).allSatisfy { m[6][$0] == ($0 % 2 == 0) })
  }

  @Test("the drawing reads back as the matrix inside a 4-module light quiet zone")
  func rendering() throws {
    let m = try QRText.matrix(Self.uri)
    let drawn = QRText.modules(fromRendered: try QRText.render(Self.uri))
    let size = m.count + 8
    #expect(drawn.count == size + 1)  // an odd size leaves half a line
    for r in 0..<size {
      for c in 0..<size {
        let inner = r >= 4 && c >= 4 && r < size - 4 && c < size - 4
        #expect(drawn[r][c] == (inner ? m[r - 4][c - 4] : false))
      }
    }
  }

  @Test("a longer text takes a larger version")
  func versions() throws {
    let small = try QRText.matrix("mdoc:AA").count
    let large = try QRText.matrix(Self.uri + String(repeating: "A", count: 300)).count
    #expect(large > small)
  }
}
