import Foundation
import Testing

/// What the shadow SDK declares beyond Apple's documentation is named `shadow…` / `Shadow…`
/// (Tests/AppleShadow/README.md); the package's own sources never name it, so the production
/// code compiles against Apple's SDK, where those names do not exist.
@Suite("Apple shadow: sources name no shadow-only declaration")
struct ShadowNamesTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  @Test("No file under Sources/ names a shadow… or Shadow… declaration")
  func noShadowNames() throws {
    let pattern = try Regex(#"\b[Ss]hadow[A-Z][A-Za-z]*"#)
    var found: [String] = []
    let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated() where line.contains(pattern)
      {
        found.append("\(file.lastPathComponent):\(index + 1): \(line)")
      }
    }
    #expect(found.isEmpty, "shadow-only names in Sources/: \(found)")
  }
}
