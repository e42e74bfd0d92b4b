import Foundation
import JSON
import Testing

/// The README's "Issuance (OpenID4VCI)" commands run as written: its ```sh block, with bash -e
/// in a fresh directory, the built dcwallet first on PATH, bounded in time. The issuer it starts
/// listens on 127.0.0.1 only and is killed when the script ends.
@Suite("README issuance")
struct IssuanceReadmeTests {
  static let heading = "## Issuance (OpenID4VCI)"

  @Test("The issuance section's shell block runs as written and stores a batch of three")
  func issuanceRuns() throws {
    let readme = try ReadmeTourTests.readme()
    let start = try #require(readme.range(of: Self.heading))
    let rest = readme[start.upperBound...]
    let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
    let open = try #require(section.range(of: "```sh\n"))
    let close = try #require(section[open.upperBound...].range(of: "\n```"))
    let block = String(section[open.upperBound..<close.lowerBound])

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "readme-issuance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("issuance.sh")
    try (block + "\n").write(to: script, atomically: true, encoding: .utf8)
    let stdout = directory.appendingPathComponent("out")
    let stderr = directory.appendingPathComponent("err")
    #expect(FileManager.default.createFile(atPath: stdout.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: stderr.path, contents: nil))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["60", "/bin/bash", "-e", script.path]
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DCWALLET_HOME")
    environment["HOME"] = directory.path
    let binaries = URL(fileURLWithPath: DCWallet.binary).deletingLastPathComponent().path
    environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    process.standardError = try FileHandle(forWritingTo: stderr)
    try process.run()
    process.waitUntilExit()
    let out = try String(contentsOf: stdout, encoding: .utf8)
    let err = try String(contentsOf: stderr, encoding: .utf8)
    #expect(process.terminationStatus == 0, "the issuance block failed:\n\(err)\n\(out)")
    let jsonLine = try #require(out.split(separator: "\n").first { $0.hasPrefix("{") })
    let json = try JSONValue(parsing: Array(jsonLine.utf8))
    #expect(json["credentials"]?.array?.count == 3)
    #expect(out.contains("Mobile Driving Licence"))
  }
}
