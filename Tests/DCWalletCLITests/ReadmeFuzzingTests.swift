import Foundation
import Testing

/// Issue 12 §3: the README's "Fuzzing" section stays true to `fuzz/run.sh`. Its commands name only
/// targets that `fuzz/run.sh --list` prints (which needs no build), and every target has a
/// committed corpus.
@Suite("README fuzzing")
struct ReadmeFuzzingTests {
  static let repository = ReadmeTourTests.repository

  static func list() throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [repository.appendingPathComponent("fuzz/run.sh").path, "--list"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test("Every target has a corpus, and the README runs only listed targets")
  func readmeMatchesTargets() throws {
    let targets = try Self.list()
    #expect(targets.count >= 18)
    for target in targets {
      let corpus = Self.repository.appendingPathComponent("fuzz/corpus/\(target)").path
      let inputs = (try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []
      #expect(!inputs.isEmpty, "fuzz/corpus/\(target) is empty")
    }
    let readme = try ReadmeTourTests.readme()
    let start = try #require(readme.range(of: "## Fuzzing\n"))
    let rest = readme[start.upperBound...]
    let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
    var commands = 0
    for line in section.split(separator: "\n") {
      guard let range = line.range(of: "fuzz/run.sh ") else { continue }
      let words = line[range.upperBound...].split(separator: " ")
      guard let first = words.first, !first.hasPrefix("-") else { continue }
      commands += 1
      #expect(first == "all" || targets.contains(String(first)), "README runs \(first)")
    }
    #expect(commands >= 3)
  }
}
