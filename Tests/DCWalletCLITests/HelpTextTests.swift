import DCWalletCLI
import Foundation
import Testing

/// Issue 28: `dcwallet --help` and every command's help are laid out in two columns wide enough
/// for every name, no line is wider than 100 columns, and every command that runs is listed;
/// `dcwallet --version` and `dcwallet version` print the package's release.
@Suite("Help text and version")
struct HelpTextTests {
  /// Runs the command line in process and returns the exit code and standard output.
  static func run(_ arguments: [String]) async -> (code: Int32, out: String, err: String) {
    let console = Console.capturing()
    let code = await DCWalletCLI.run(arguments, console: console, environment: [:])
    return (code, console.capturedOut, console.capturedErr)
  }

  /// The lines of a section: from the line after `header` up to the next empty line.
  static func section(_ text: String, after header: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: Substring(header)) else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
  }

  /// Checks two-column rows: each row is two spaces, its name, at least two spaces, then its
  /// description, all descriptions in one column; a longer description continues on lines
  /// indented to that column. Returns the names.
  static func checkRows(_ lines: [Substring], name: String, in command: String) -> [String] {
    var names: [String] = []
    var column: Int?
    for line in lines {
      let indent = line.prefix { $0 == " " }.count
      if indent == 2 {
        let body = line.dropFirst(2)
        // The name is one word, or an option with its value (`--name VALUE`, `-h, --help`).
        let match = body.firstRange(of: "  ")
        #expect(match != nil, "\(command): \(name) row without two spaces: '\(line)'")
        guard let match else { continue }
        let rowName = String(body[..<match.lowerBound])
        let gap = body[match.lowerBound...].prefix { $0 == " " }.count
        let start = 2 + rowName.count + gap
        #expect(!rowName.isEmpty && !rowName.hasSuffix(" "), "\(command): '\(line)'")
        #expect(start < line.count, "\(command): \(name) row without a description: '\(line)'")
        #expect(column == nil || column == start, "\(command): '\(line)' is out of its column")
        column = column ?? start
        names.append(rowName)
      } else {
        #expect(
          column != nil && indent == column,
          "\(command): continuation '\(line)' is not under its description")
      }
    }
    return names
  }

  /// Every line of a help text is at most 100 columns wide.
  static func checkWidth(_ text: String, _ command: String) {
    for line in text.split(separator: "\n") {
      #expect(line.count <= 100, "\(command): \(line.count) columns: '\(line)'")
    }
  }

  @Test("dcwallet --help lists every command in two columns and describes the whole tool")
  func topLevel() async throws {
    for flag in ["--help", "-h", "help"] {
      let result = await Self.run([flag])
      #expect(result.code == 0)
      #expect(result.err.isEmpty)
      Self.checkWidth(result.out, "dcwallet \(flag)")
      let listed = Self.checkRows(
        Self.section(result.out, after: "commands:"), name: "command", in: "dcwallet \(flag)")
      // Dispatch reads the same table; each listed command runs (its --help exits 0).
      #expect(listed == DCWalletCLI.commands.map(\.name))
      #expect(Set(listed).count == listed.count)
      for word in [
        "wallet", "verifier", "issuer", "Digital Credentials API", "OpenID4VP", "OpenID4VCI",
        "ISO 18013-5", "Status Lists", "Annex C", "--version",
      ] {
        #expect(result.out.contains(word), "the introduction does not mention \(word)")
      }
    }
    let missing = await Self.run([])
    #expect(missing.code == 2)
    #expect(missing.err.contains("commands:"))
    let unknown = await Self.run(["bogus"])
    #expect(unknown.code == 2)
    #expect(unknown.err.contains("unknown command 'bogus'"))
  }

  @Test("Every command's help: usage first, options in two columns, no line over 100 columns")
  func commands() async throws {
    for command in DCWalletCLI.commands.map(\.name) {
      for flag in ["--help", "-h"] {
        let result = await Self.run([command, flag])
        #expect(result.code == 0, "\(command) \(flag): \(result.err)")
        #expect(result.out.hasPrefix("usage: dcwallet \(command)"), "\(command) \(flag)")
        Self.checkWidth(result.out, "dcwallet \(command) \(flag)")
        // Commands with subcommands print one help per subcommand, each with its options.
        let helps = result.out.components(separatedBy: "\n\nusage: ")
        for help in helps {
          let options = Self.section(help, after: "options:")
          guard !options.isEmpty else { continue }
          let names = Self.checkRows(options, name: "option", in: "dcwallet \(command)")
          #expect(names.last == "-h, --help", "\(command): \(names)")
          for name in names.dropLast() {
            #expect(name.hasPrefix("--"), "\(command): option row '\(name)'")
          }
        }
      }
    }
  }

  @Test("dcwallet --version and dcwallet version print the release, exit 0")
  func version() async throws {
    for arguments in [["--version"], ["version"], ["--home", "/tmp/unused", "--version"]] {
      let result = await Self.run(arguments)
      #expect(result.code == 0, "\(arguments)")
      #expect(result.out == "dcwallet 0.1.0", "\(arguments)")
      #expect(result.err.isEmpty, "\(arguments)")
    }
    #expect(DCWalletCLI.version == "0.1.0")
    let extra = await Self.run(["version", "extra"])
    #expect(extra.code == 2)
  }

  @Test("The version is the newest release in CHANGELOG.md")
  func versionMatchesChangelog() throws {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let changelog = try String(
      contentsOf: repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let releases = changelog.split(separator: "\n").filter {
      $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
    }
    #expect(releases.first?.hasPrefix("## [\(DCWalletCLI.version)] - ") == true)
  }
}
