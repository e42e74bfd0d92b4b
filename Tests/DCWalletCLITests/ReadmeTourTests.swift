import DCJSON
import DCTestSupport
import Foundation
import Testing

/// Issue 10 §5: the README's tour runs as written. The test takes the ```sh blocks of the
/// "A five-minute tour of the CLI" section, exactly as they are, and runs them with bash -e in a
/// fresh directory with the built dcwallet first on PATH, bounded in time.
@Suite("README")
struct ReadmeTourTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let tourHeading = "## A five-minute tour of the CLI"
  static let timeLimit: TimeInterval = 120

  static func readme() throws -> String {
    try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The first ```sh block of the README section under `heading` (up to the next `## `).
  static func shellBlock(under heading: String) throws -> String {
    let readme = try readme()
    let start = try #require(readme.range(of: heading))
    let rest = readme[start.upperBound...]
    let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
    let open = try #require(section.range(of: "```sh\n"))
    let close = try #require(section[open.upperBound...].range(of: "\n```"))
    return String(section[open.upperBound..<close.lowerBound])
  }

  /// The ```sh blocks between the tour's heading and the next second-level heading.
  static func tourBlocks(_ readme: String) throws -> [String] {
    let start = try #require(readme.range(of: tourHeading))
    let rest = readme[start.upperBound...]
    let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
    var blocks: [String] = []
    var current: [Substring]?
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```sh" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append((current ?? []).joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    #expect(current == nil, "an unclosed ```sh block in the tour")
    return blocks
  }

  @Test("The tour's shell blocks run as written in a fresh directory, within the time limit")
  func tourRuns() throws {
    let blocks = try Self.tourBlocks(try Self.readme())
    #expect(blocks.count >= 3)
    let started = Date()
    let (status, out, err) = try Self.runScript(
      blocks.joined(separator: "\n"), named: "tour", timeLimit: Int(Self.timeLimit))
    let elapsed = Date().timeIntervalSince(started)

    #expect(status == 0, "the tour failed:\n\(err)\n\(out.suffix(2000))")
    #expect(elapsed < Self.timeLimit)
    // What each part of the tour shows.
    #expect(out.contains("wrote iaca.pem, mdl.cbor, device.pem"))
    #expect(out.contains("org.iso.18013.5.1/age_over_21: yes"))
    // The tour requests portrait too and discloses only age_over_21 (issue 32, item 15).
    #expect(
      out.contains(
        "disclosure org.iso.18013.5.1.mDL: 1 element(s), all requested; "
          + "not returned: org.iso.18013.5.1/portrait"))
    #expect(out.contains("  org.iso.18013.5.1/portrait: not returned (requested)"))
    #expect(out.contains("DeviceResponse 1.0, status 0 (OK), 1 document(s)"))
    #expect(out.contains(#"given_name: "Erika""#))
    #expect(out.contains("OpenID4VP response (JWE opened with the given key)"))
    #expect(out.contains("protocol: openid4vp-v1-signed"))
  }

  /// Runs README shell text as written: `bash -e` in a fresh directory (also `HOME`, so nothing
  /// reaches the developer's own ~/.dcwallet), the built dcwallet first on PATH, standard input
  /// empty, under `timeout`. Returns the exit status and both outputs.
  static func runScript(
    _ text: String, named name: String, timeLimit: Int, pathPrefix: String? = nil
  ) throws -> (
    status: Int32, out: String, err: String
  ) {
    let directory = TestScratch.url("readme-\(name)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("\(name).sh")
    try (text + "\n").write(to: script, atomically: true, encoding: .utf8)
    let stdout = directory.appendingPathComponent("\(name).out")
    let stderr = directory.appendingPathComponent("\(name).err")
    #expect(FileManager.default.createFile(atPath: stdout.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: stderr.path, contents: nil))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["\(timeLimit)", "/bin/bash", "-e", script.path]
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DCWALLET_HOME")
    environment["HOME"] = directory.path
    let binaries = URL(fileURLWithPath: DCWallet.binary).deletingLastPathComponent().path
    environment["PATH"] =
      (pathPrefix.map { $0 + ":" } ?? "") + binaries + ":"
      + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    process.standardError = try FileHandle(forWritingTo: stderr)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus,
      try String(contentsOf: stdout, encoding: .utf8),
      try String(contentsOf: stderr, encoding: .utf8)
    )
  }

  @Test("The README keeps a newcomer's two commands and points nowhere outside the repository")
  func readmeLinks() throws {
    let readme = try Self.readme()
    #expect(readme.contains("swift run dcwallet demo"))
    #expect(readme.contains("bash .ci/run"))
    // No link leaves the repository (the example manifest's `../DigitalCredentials` is a path in
    // an app's checkout, not a link).
    #expect(!readme.contains("](../"))
    #expect(readme.contains("(docs/ARCHITECTURE.md)"))
    #expect(
      FileManager.default.fileExists(
        atPath: Self.repository.appendingPathComponent("docs/ARCHITECTURE.md").path))
  }

  @Test("dev files refuses to overwrite and writes private keys 0600")
  func devFiles() throws {
    let cli = try DCWallet()
    let out = cli.home + "-dev"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let first = try cli.run(["dev", "files", "--out", out])
    #expect(first.code == 0, "\(first.err)")
    for key in ["device.pem", "reader-key.pem", "holder.pem", "verifier.pem"] {
      let mode = try FileManager.default.attributesOfItem(atPath: out + "/" + key)[
        .posixPermissions]
      #expect(mode as? Int == 0o600, "\(key)")
    }
    let again = try cli.run(["dev", "files", "--out", out])
    #expect(again.code == 1 && again.out.isEmpty && again.err.contains("never overwrites"))
  }
}
