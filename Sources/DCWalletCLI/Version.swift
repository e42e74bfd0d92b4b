extension DCWalletCLI {
  /// The release of the DigitalCredentials package this build belongs to: the newest version
  /// heading of CHANGELOG.md (a test keeps the two equal).
  ///
  /// `package`, not `public`: only `dcwallet --version` prints it. An app knows the version it
  /// builds with from SwiftPM (`Package.resolved`), and no library module reads it; if one ever
  /// needs it (an HTTP `User-Agent`, say), it moves down to the lowest module that does.
  package static let version = "0.1.0"
}

/// `dcwallet version` (and `dcwallet --version`): prints `dcwallet 0.1.0`.
enum VersionCommand {
  static let spec = CommandSpec(
    path: "dcwallet version",
    summary: "Print the version of dcwallet, which is the DigitalCredentials package's release.")

  /// The one line both forms print.
  static var line: String { "dcwallet \(DCWalletCLI.version)" }

  static func run(_ arguments: [String], _ context: CommandContext) throws {
    _ = try context.parse(spec, arguments)
    context.console.out(line)
  }
}
