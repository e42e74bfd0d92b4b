import DCTrust
import DCWallet
import DCX509
import Foundation

/// The `dcwallet` command line: a wallet, a verifier and a development issuer in one tool.
///
/// Exit codes: 0 success, 1 refused or failed (one line on standard error, nothing on standard
/// output), 2 usage error.
package enum DCWalletCLI {
  /// One top-level command: its name, one line for the help, and what runs it.
  package struct Command: Sendable {
    /// The word that selects it.
    package let name: String
    /// What the help says of it.
    package let summary: String
    /// Runs it with the arguments after its name.
    let run: @Sendable ([String], CommandContext) async throws -> Void
  }

  /// The top-level commands in the order the help lists them; dispatch reads the same table, so
  /// every command that runs is listed.
  package static let commands: [Command] = [
    Command(
      name: "import", summary: "import a credential (--mdoc or --sd-jwt) with its device key",
      run: { try await ImportCommand.run($0, $1) }),
    Command(
      name: "issue", summary: "get credentials from an OpenID4VCI issuer (offer URI)",
      run: { try await IssueCommand.run($0, $1) }),
    Command(
      name: "list", summary: "list stored credentials", run: { try await ListCommand.run($0, $1) }),
    Command(
      name: "show", summary: "show one credential", run: { try await ShowCommand.run($0, $1) }),
    Command(
      name: "status", summary: "fetch and show a credential's status (Token Status List)",
      run: { try await StatusCommand.run($0, $1) }),
    Command(
      name: "remove", summary: "remove a credential and its device key",
      run: { try await RemoveCommand.run($0, $1) }),
    Command(
      name: "trust",
      summary:
        "manage trust anchors and trusted lists: trust add|list|remove|import-list|lists|refresh",
      run: { try await TrustCommand.run($0, $1) }),
    Command(
      name: "respond", summary: "answer a DC API request for an origin",
      run: { try await RespondCommand.run($0, $1) }),
    Command(
      name: "present-uri",
      summary: "answer an OpenID4VP request URI (openid4vp://), post to the verifier",
      run: { try await PresentURICommand.run($0, $1) }),
    Command(
      name: "present",
      summary: "present in person (ISO 18013-5): show an mdoc: URI, answer a reader",
      run: { try await PresentCommand.run($0, $1) }),
    Command(
      name: "log", summary: "show the activity log", run: { try await LogCommand.run($0, $1) }),
    Command(
      name: "verifier",
      summary: "act as the relying party: verifier request|verify|serve|transaction",
      run: { try await VerifierCommand.run($0, $1) }),
    Command(
      name: "read", summary: "read in person (ISO 18013-5) from a presenting wallet and verify",
      run: { try await ReadCommand.run($0, $1) }),
    Command(
      name: "registry", summary: "what the stored credentials register with Android and iOS",
      run: { try await RegistryCommand.run($0, $1) }),
    Command(
      name: "inspect", summary: "print a request, response, credential or registry blob readably",
      run: { try await InspectCommand.run($0, $1) }),
    Command(
      name: "demo", summary: "run the whole flow in a temporary wallet",
      run: { try await DemoCommand.run($0, $1) }),
    Command(
      name: "issuer",
      summary:
        "a development OpenID4VCI issuer: serve|offer|credentials|revoke|suspend|reinstate",
      run: { try await IssuerCommand.run($0, $1) }),
    Command(
      name: "dev",
      summary: "dev files: a development PKI, keys and credentials for the README's tour",
      run: { try await DevCommand.run($0, $1) }),
    Command(
      name: "version", summary: "print the version (also: dcwallet --version)",
      run: { try VersionCommand.run($0, $1) }),
  ]

  static var usage: String {
    var lines = [
      "usage: dcwallet [--home DIR] COMMAND [OPTIONS]",
      "       dcwallet --version", "",
    ]
    lines += HelpLayout.wrap(
      "dcwallet is a Digital Credentials wallet, relying party (verifier) and development "
        + "issuer. It answers and checks W3C Digital Credentials API requests (org-iso-mdoc, "
        + "ISO/IEC TS 18013-7 Annex C, and OpenID4VP 1.0 over the DC API), OpenID4VP requests "
        + "from openid4vp:// links, gets and issues credentials over OpenID4VCI 1.0, presents "
        + "and reads mdocs in person (ISO 18013-5), and checks and publishes IETF Token Status "
        + "Lists. Credentials: ISO 18013-5 mdocs and SD-JWT VCs.")
    lines += [
      "",
      "The wallet home holds the store: --home, else $DCWALLET_HOME, else ~/.dcwallet.",
      "A relative home is under the current directory and ~ is $HOME; / is refused.", "",
      "commands:",
    ]
    lines += HelpLayout.rows(commands.map { ($0.name, $0.summary) })
    lines.append("")
    lines.append("Run 'dcwallet COMMAND --help' for a command's options.")
    return lines.joined(separator: "\n")
  }

  /// Runs the command line with the process's standard streams and environment; returns the
  /// exit code. The `dcwallet` executable's only entry point into this module.
  package static func run(_ arguments: [String]) async -> Int32 {
    await run(arguments, console: .standard(), environment: ProcessInfo.processInfo.environment)
  }

  /// Runs the command line on `console` with `environment`; returns the exit code.
  package static func run(
    _ arguments: [String], console: Console,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async -> Int32 {
    let (home, args): (String?, [String])
    do {
      (home, args) = try leadingHome(arguments)
    } catch {
      console.err(error.description)
      return 2
    }
    guard let command = args.first else {
      console.err(usage)
      return 2
    }
    if command == "--help" || command == "-h" || command == "help" {
      console.out(usage)
      return 0
    }
    if command == "--version" {
      console.out(VersionCommand.line)
      return 0
    }
    let rest = Array(args.dropFirst())
    var context = CommandContext(console: console, homeOverride: home, environment: environment)
    do {
      guard let entry = commands.first(where: { $0.name == command }) else {
        throw UsageError("unknown command '\(command)'", command: "dcwallet")
      }
      // Issue 29: `--crl`/`--crl-fetch` on a chain-checking command become the revocation
      // setting the command gives its role (a command whose spec lacks the options refuses
      // them when parsing).
      context.revocation = try await RevocationOptions.settings(rest)
      try await entry.run(rest, context)
      return 0
    } catch {
      return exitCode(for: error, command: command, console)
    }
  }

  /// The leading `--home DIR` or `--home=DIR` options (the last one wins), and the arguments
  /// after them.
  private static func leadingHome(_ arguments: [String]) throws(UsageError) -> (
    home: String?, rest: [String]
  ) {
    var args = arguments
    var home: String?
    while let first = args.first, first.hasPrefix("--home") {
      if first == "--home" {
        guard args.count >= 2 else {
          throw UsageError("--home needs a directory", command: "dcwallet")
        }
        home = args[1]
        args.removeFirst(2)
      } else if first.hasPrefix("--home=") {
        home = String(first.dropFirst("--home=".count))
        args.removeFirst()
      } else {
        break
      }
    }
    return (home, args)
  }

  /// Reports a command's error on `console` and returns its exit code: 2 for usage, 0 for
  /// help, 1 for a failure.
  private static func exitCode(for error: any Error, command: String, _ console: Console)
    -> Int32
  {
    switch error {
    case let error as UsageError:
      console.err(error.description)
      return 2
    case let error as HelpShown:
      console.out(error.text)
      return 0
    case let error as CommandFailure:
      console.errLine("dcwallet \(command): \(error.message)")
      return 1
    case let error as WalletError:
      console.errLine("dcwallet \(command): \(error.reason)")
      return 1
    default:
      console.errLine("dcwallet \(command): \(reason(of: error))")
      return 1
    }
  }
}

/// A module error's `reason` (every module's error has one), else its description: a person reads
/// no Swift type name (`SDJWTError.untrustedIssuer: ...`).
func reason(of error: any Error) -> String {
  let reason = Mirror(reflecting: error).children.first { $0.label == "reason" }?.value
  return reason as? String ?? "\(error)"
}

/// Thrown to end a command after printing its help.
struct HelpShown: Error {
  let text: String
}

/// What every command gets: the console and the wallet home.
struct CommandContext: Sendable {
  let console: Console
  let homeOverride: String?
  let environment: [String: String]
  /// The revocation setting of `--crl`, `--crl-fetch`, `--crl-fail-closed`; nil without them.
  var revocation: RevocationSettings? = nil

  func home() throws -> WalletHome {
    do {
      return try WalletHome.resolve(explicit: homeOverride, environment: environment)
    } catch {
      throw CommandFailure("wallet home: \(error.reason)")
    }
  }

  func wallet(zeroKnowledgeCircuits: [ZeroKnowledgeProverCircuit] = []) throws -> Wallet {
    try Wallet(
      home: home(), policy: WalletPolicy(revocation: revocation),
      documentTitles: MdocDisplay.titles, zeroKnowledgeCircuits: zeroKnowledgeCircuits)
  }

  /// Parses a command's arguments; `--help` prints the command's help.
  func parse(_ spec: CommandSpec, _ arguments: [String]) throws -> ParsedArguments {
    let parsed = try spec.parse(arguments)
    if parsed.wantsHelp { throw HelpShown(text: spec.help) }
    return parsed
  }
}
