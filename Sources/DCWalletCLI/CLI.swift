import DCWallet
import Foundation

/// The `dcwallet` command line: a wallet and a verifier in one tool.
///
/// Exit codes: 0 success, 1 refused or failed (one line on standard error, nothing on standard
/// output), 2 usage error.
package enum DCWalletCLI {
  /// The top-level commands, for help and dispatch.
  static let commands: [(name: String, summary: String)] = [
    ("import", "import a credential (--mdoc or --sd-jwt) with its device key"),
    ("issue", "get credentials from an OpenID4VCI issuer (offer URI)"),
    ("list", "list stored credentials"),
    ("show", "show one credential"),
    ("status", "fetch and show a credential's status (Token Status List)"),
    ("remove", "remove a credential and its device key"),
    ("trust", "manage trust anchors: trust add|list|remove"),
    ("respond", "answer a DC API request for an origin"),
    ("present-uri", "answer an OpenID4VP request URI (openid4vp://), post to the verifier"),
    ("present", "present in person (ISO 18013-5): show an mdoc: URI, answer a reader"),
    ("log", "show the activity log"),
    ("verifier", "act as the relying party: verifier request|verify|serve|transaction"),
    ("read", "read in person (ISO 18013-5) from a presenting wallet and verify"),
    ("registry", "what the stored credentials register with Android and iOS"),
    ("inspect", "print a request, response, credential or registry blob readably"),
    ("demo", "run the whole flow in a temporary wallet"),
    (
      "issuer",
      "a development OpenID4VCI issuer: issuer serve|offer|credentials|revoke|suspend|reinstate"
    ),
    ("dev", "dev files: a development PKI, keys and credentials for the README's tour"),
  ]

  static var usage: String {
    var lines = [
      "usage: dcwallet [--home DIR] COMMAND [OPTIONS]", "",
      "A Digital Credentials API wallet and verifier (ISO 18013-5 mdoc, ISO/IEC TS 18013-7 Annex C).",
      "",
      "The wallet home holds the store: --home, else $DCWALLET_HOME, else ~/.dcwallet.",
      "A relative home is under the current directory and ~ is $HOME; / is refused.", "",
      "commands:",
    ]
    for command in commands {
      lines.append(
        "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary)
    }
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
    var args = arguments
    var home: String?
    while let first = args.first, first.hasPrefix("--home") {
      if first == "--home" {
        guard args.count >= 2 else {
          console.err(UsageError("--home needs a directory", command: "dcwallet").description)
          return 2
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
    guard let command = args.first else {
      console.err(usage)
      return 2
    }
    if command == "--help" || command == "-h" || command == "help" {
      console.out(usage)
      return 0
    }
    let rest = Array(args.dropFirst())
    let context = CommandContext(console: console, homeOverride: home, environment: environment)
    do {
      switch command {
      case "import": try await ImportCommand.run(rest, context)
      case "issue": try await IssueCommand.run(rest, context)
      case "issuer": try await IssuerCommand.run(rest, context)
      case "list": try await ListCommand.run(rest, context)
      case "show": try await ShowCommand.run(rest, context)
      case "status": try await StatusCommand.run(rest, context)
      case "remove": try await RemoveCommand.run(rest, context)
      case "trust": try await TrustCommand.run(rest, context)
      case "respond": try await RespondCommand.run(rest, context)
      case "present-uri": try await PresentURICommand.run(rest, context)
      case "present": try await PresentCommand.run(rest, context)
      case "read": try await ReadCommand.run(rest, context)
      case "log": try await LogCommand.run(rest, context)
      case "verifier": try await VerifierCommand.run(rest, context)
      case "registry": try await RegistryCommand.run(rest, context)
      case "inspect": try await InspectCommand.run(rest, context)
      case "demo": try await DemoCommand.run(rest, context)
      case "dev": try await DevCommand.run(rest, context)
      default:
        throw UsageError("unknown command '\(command)'", command: "dcwallet")
      }
      return 0
    } catch let error as UsageError {
      console.err(error.description)
      return 2
    } catch let error as HelpShown {
      console.out(error.text)
      return 0
    } catch let error as CommandFailure {
      console.errLine("dcwallet \(command): \(error.message)")
      return 1
    } catch let error as WalletError {
      console.errLine("dcwallet \(command): \(error.reason)")
      return 1
    } catch {
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

  func home() throws -> WalletHome {
    do {
      return try WalletHome.resolve(explicit: homeOverride, environment: environment)
    } catch {
      throw CommandFailure("wallet home: \(error.reason)")
    }
  }

  func wallet() throws -> Wallet {
    try Wallet(home: home(), documentTitles: MdocDisplay.titles)
  }

  /// Parses a command's arguments; `--help` prints the command's help.
  func parse(_ spec: CommandSpec, _ arguments: [String]) throws -> ParsedArguments {
    let parsed = try spec.parse(arguments)
    if parsed.wantsHelp { throw HelpShown(text: spec.help) }
    return parsed
  }
}
