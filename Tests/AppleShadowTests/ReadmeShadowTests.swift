import Foundation
import Testing

/// The README's Apple shadow commands are the ones `.ci/run` runs (without CI's flags).
@Suite("README: Apple shadow SDK commands")
struct ReadmeShadowTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("Each README command is run by .ci/run")
  func commands() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let ci = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    let commands = readme.split(separator: "\n").filter {
      $0.hasPrefix("DCWALLET_APPLE_SHADOW=1 swift ")
    }
    #expect(commands.count == 2)
    for command in commands {
      #expect(ci.contains(command + " \"${flags[@]}\""), "not in .ci/run: \(command)")
    }
  }
}
