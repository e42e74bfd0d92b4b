import DCHTTP
import DCJSON
import DCTrust
import DCWallet
import DCX509
import Foundation

/// `dcwallet trust import-list | lists | refresh | remove-list | list-policy` (issue 29).
enum TrustListCommands {
  static let importSpec = CommandSpec(
    path: "dcwallet trust import-list",
    summary:
      "Verify a trusted list (a file or an https URL) against its operator's certificate and keep it.",
    options: [
      .value("kind", "KIND", "the list's kind: lote, tsl, lotl, vical or rical"),
      .value(
        "operator-cert", "PEM", repeating: true,
        "the list operator's signing certificate(s), PEM or DER"),
      .flag("development", "allow http:// URLs to a loopback host"),
    ],
    positionals: ["FILE|URL"],
    discussion:
      "The list's entries are used only after its signature verifies against --operator-cert. From then on, each entry whose service serves a purpose (PID providers and mdoc issuing authorities: issuers; access-certificate CAs: readers and verifiers; reader CAs: readers) is trusted for it, and decisions name the list and entry. A list imported from a URL is fetched again by dcwallet trust refresh."
  )
  static let listsSpec = CommandSpec(
    path: "dcwallet trust lists",
    summary:
      "List the trusted lists: kind, operator, issue date, next update, entries, stale or not.",
    options: [.flag("json", "print JSON")])
  static let refreshSpec = CommandSpec(
    path: "dcwallet trust refresh",
    summary:
      "Fetch each list imported from a URL again; keep the old one when the new one fails, and say why.",
    options: [.flag("development", "allow http:// URLs to a loopback host")])
  static let removeSpec = CommandSpec(
    path: "dcwallet trust remove-list", summary: "Remove a trusted list.", positionals: ["ID"])
  static let policySpec = CommandSpec(
    path: "dcwallet trust list-policy",
    summary: "Show or set which list kinds are consulted and whether stale lists are used.",
    options: [
      .value("disable", "KINDS", "turn these kinds off (comma-separated; 'none' for none)"),
      .value("stale", "refuse|accept", "whether a list past its next update is used"),
    ])

  static var help: [String] {
    [importSpec.help, listsSpec.help, refreshSpec.help, removeSpec.help, policySpec.help]
  }

  /// Runs a list subcommand; false when `sub` is not one.
  static func run(_ sub: String, _ rest: [String], _ context: CommandContext) async throws
    -> Bool
  {
    switch sub {
    case "import-list": try await importList(try context.parse(importSpec, rest), context)
    case "lists": try await lists(try context.parse(listsSpec, rest), context)
    case "refresh": try await refresh(try context.parse(refreshSpec, rest), context)
    case "remove-list":
      let args = try context.parse(removeSpec, rest)
      do {
        try await context.wallet().removeTrustedList(id: args.positionals[0])
      } catch let error as WalletError where error.code == .notFound {
        throw CommandFailure("no trusted list \(args.positionals[0])")
      }
      context.console.out("removed \(args.positionals[0])")
    case "list-policy": try await policy(try context.parse(policySpec, rest), context)
    default: return false
    }
    return true
  }

  private static func importList(_ args: ParsedArguments, _ context: CommandContext) async throws {
    guard let kindName = args.value("kind") else {
      throw UsageError("--kind is required", command: importSpec.path)
    }
    guard let kind = TrustedListKind(rawValue: kindName) else {
      throw UsageError(
        "--kind is one of lote, tsl, lotl, vical, rical, not \(kindName)", command: importSpec.path)
    }
    let operators = try Inputs.certificates(args.all("operator-cert"))
    guard !operators.isEmpty else {
      throw UsageError("--operator-cert is required", command: importSpec.path)
    }
    let source = args.positionals[0]
    var location: URL?
    let bytes: [UInt8]
    if source.hasPrefix("https://") || source.hasPrefix("http://") {
      guard let url = URL(string: source) else { throw CommandFailure("\(source) is not a URL") }
      location = url
      bytes = try await fetch(url, development: args.flag("development"))
    } else {
      bytes = try Files.read(source, limit: .trustedList)
    }
    let stored: StoredTrustedList
    do {
      stored = try await context.wallet().importTrustedList(
        bytes, kind: kind, operatorCertificates: operators, location: location)
    } catch let error as WalletError where error.code == .importRejected {
      throw CommandFailure("the list is refused: \(error.reason)")
    }
    context.console.outLine(line(stored, now: try context.wallet().clock()))
  }

  private static func fetch(_ url: URL, development: Bool) async throws -> [UInt8] {
    let client = client(development: development)
    do {
      try (development ? HTTPURLPolicy.development : .standard).check(url)
      let response = try await client.send(HTTPRequest(method: .get, url: url))
      guard response.status == 200 else {
        throw CommandFailure("\(url.absoluteString) answered HTTP \(response.status)")
      }
      return response.body
    } catch let error as HTTPError {
      throw CommandFailure("cannot fetch \(url.absoluteString): \(error.reason)")
    }
  }

  static func client(development: Bool) -> URLSessionHTTPClient {
    URLSessionHTTPClient(
      configuration: URLSessionHTTPClient.Configuration(
        policy: development ? .development : .standard,
        maxResponseBytes: InputLimit.trustedList.bytes))
  }

  private static func lists(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let wallet = try context.wallet()
    let listing = try await wallet.trustedListListing()
    Describe.warn(listing.problems, context.console)
    let now = wallet.clock()
    if args.flag("json") {
      context.console.out(JSONValue.array(listing.lists.map { json($0, now: now) }).serialized())
    } else if listing.lists.isEmpty {
      context.console.out("no trusted lists")
    } else {
      for stored in listing.lists { context.console.outLine(line(stored, now: now)) }
    }
    let policy = try await wallet.trustedListPolicyStatus()
    if let problem = policy.problem { Describe.warn([problem], context.console) }
  }

  /// `ID  KIND  OPERATOR  issued DATE  next update DATE  N entries  [stale]`.
  static func line(_ stored: StoredTrustedList, now: Date) -> String {
    let list = stored.list
    let next = list.nextUpdate.map(TrustDecisionText.date) ?? "none"
    return "\(stored.id)  \(list.kind.rawValue)  \(list.operatorName)  issued "
      + "\(TrustDecisionText.date(list.issued))  next update \(next)  "
      + "\(list.entities.count) \(list.entities.count == 1 ? "entry" : "entries")"
      + (list.isStale(at: now) ? "  STALE" : "")
      + (stored.location.map { "  \($0.absoluteString)" } ?? "")
  }

  private static func json(_ stored: StoredTrustedList, now: Date) -> JSONValue {
    let list = stored.list
    var fields: [(key: String, value: JSONValue)] = [
      ("id", .string(stored.id)), ("kind", .string(list.kind.rawValue)),
      ("operator", .string(list.operatorName)),
      ("issued", .string(TrustDecisionText.date(list.issued))),
      ("stale", .bool(list.isStale(at: now))),
      (
        "entries",
        .array(
          list.entities.map {
            .object([
              ("name", .string($0.name)),
              ("service", .string(TrustDecisionText.service($0.serviceType))),
              ("granted", .bool($0.isGranted)),
            ])
          })
      ),
    ]
    if let next = list.nextUpdate {
      fields.append(("nextUpdate", .string(TrustDecisionText.date(next))))
    }
    if let location = stored.location {
      fields.append(("location", .string(location.absoluteString)))
    }
    return .object(fields)
  }

  private static func refresh(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let wallet = try context.wallet()
    let development = args.flag("development")
    let outcomes = try await wallet.refreshTrustedLists(
      httpClient: client(development: development),
      urlPolicy: development ? .development : .standard)
    var failed = false
    for outcome in outcomes {
      switch outcome {
      case .refreshed(let stored):
        context.console.outLine("refreshed " + line(stored, now: wallet.clock()))
      case .kept(let stored, let failure):
        failed = true
        context.console.outLine("kept " + line(stored, now: wallet.clock()))
        context.console.errLine("warning: list \(stored.id) not refreshed: \(failure.reason)")
      case .notRefreshable(let stored):
        context.console.outLine("imported from a file, not refreshed: \(stored.id)")
      }
    }
    if outcomes.isEmpty { context.console.out("no trusted lists") }
    if failed { throw CommandFailure("some lists were not refreshed (the old ones are kept)") }
  }

  private static func policy(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let wallet = try context.wallet()
    var policy = try await wallet.trustedListPolicy()
    if let disable = args.value("disable") {
      var kinds = Set<TrustedListKind>()
      for name in disable.split(separator: ",") where name != "none" {
        guard let kind = TrustedListKind(rawValue: String(name)) else {
          throw UsageError("unknown list kind \(name)", command: policySpec.path)
        }
        kinds.insert(kind)
      }
      policy.disabledKinds = kinds
    }
    if let stale = args.value("stale") {
      guard stale == "refuse" || stale == "accept" else {
        throw UsageError("--stale is refuse or accept", command: policySpec.path)
      }
      policy.staleLists = stale == "accept" ? .accept : .refuse
    }
    if args.value("disable") != nil || args.value("stale") != nil {
      try await wallet.setTrustedListPolicy(policy)
    }
    let disabled = TrustedListKind.allCases.filter(policy.disabledKinds.contains).map(\.rawValue)
    context.console.outLine(
      "disabled kinds: \(disabled.isEmpty ? "none" : disabled.joined(separator: ","))  stale lists: "
        + (policy.staleLists == .accept ? "accepted" : "refused"))
  }
}
