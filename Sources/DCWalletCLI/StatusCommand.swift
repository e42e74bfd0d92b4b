import DCHTTP
import DCJSON
import DCStatusList
import DCWallet
import Foundation

enum StatusCommand {
  static let spec = CommandSpec(
    path: "dcwallet status",
    summary: "Fetch and show a stored credential's status from its issuer's Token Status List.",
    options: [
      .flag(
        "json",
        #"print one object: {"id", "status": "valid"|"invalid"|"suspended"|"unknown"|NUMBER, "reason" (unknown only), "detail", "checkedAt", "freshUntil", "cached", "issuerTrust"}"#
      ),
      .flag("force", "fetch the list even when the last known status is still fresh"),
    ] + RevocationOptions.options,
    positionals: ["ID"],
    discussion: """
      The credential's status_list reference (SD-JWT VC status claim, mdoc MSO status) names the
      list; it is fetched over https (http only for a loopback host) and must be signed under
      the credential's own anchor: a wallet issuer anchor or, for a credential stored through
      --trust-issuer-iacas, the IACA the issuer published (the status is then labelled
      issuer-vouched, like the credential). A status younger than the list token's ttl and exp
      is shown without fetching (cached: true) unless --force. The status is stored: list and
      show show it, and respond refuses a credential whose status is invalid or suspended. Every
      status, unknown included, exits 0; a missing credential exits 1.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let id = args.positionals[0]
    let wallet = try context.wallet()
    let before = try await wallet.lastKnownStatus(credentialID: id)
    let record = try await wallet.refreshStatus(
      credentialID: id, checker: checker(for: wallet), force: args.flag("force"))
    let cached = before != nil && before == record
    // The list was checked under the credential's own anchor: its trust level is the
    // credential's (issue 32).
    let trust = try await wallet.credentials().first { $0.id == id }?.issuerTrust
    if args.flag("json") {
      context.console.out(
        JSONValue.object(
          [("id", .string(id))] + StatusText.members(record) + [("cached", .bool(cached))]
            + (trust.map { [("issuerTrust", JSONValue.string($0.rawValue))] } ?? [])
        ).serialized())
      return
    }
    let label: String
    switch trust {
    case .issuerVouched?: label = " [issuer-vouched]"
    case .unverified?: label = " [issuer unverified]"
    case .trusted?, nil: label = ""
    }
    context.console.outLine("\(id): \(StatusText.describe(record))\(label)")
    if cached { context.console.outLine("(cached; --force fetches the list again)") }
  }
}

extension StatusCommand {
  /// A checker that trusts the wallet's issuer anchors and fetches over https, or plain http to
  /// a loopback host (the development issuer).
  static func checker(for wallet: Wallet) async throws -> StatusListChecker {
    try await wallet.statusListChecker(
      httpClient: URLSessionHTTPClient(
        configuration: URLSessionHTTPClient.Configuration(policy: .development)),
      urlPolicy: .development)
  }

  /// Refreshes every readable credential's status (a fresh one is not fetched again); one
  /// checker for all, so a list several credentials share is fetched once.
  static func refreshAll(_ wallet: Wallet, _ context: CommandContext) async throws {
    let checker = try await checker(for: wallet)
    for credential in try await wallet.credentials() {
      try await wallet.refreshStatus(credentialID: credential.id, checker: checker)
    }
  }
}

/// The words and JSON of a credential's status.
enum StatusText {
  /// The JSON name of an outcome: `valid`, `invalid`, `suspended`, `unknown`, or the number of an
  /// application-specific status value.
  static func value(_ outcome: CredentialStatusOutcome) -> JSONValue {
    switch outcome {
    case .valid: .string("valid")
    case .invalid: .string("invalid")
    case .suspended: .string("suspended")
    case .applicationSpecific(let value): .integer(Int64(value))
    case .unknown: .string("unknown")
    }
  }

  /// `status`, `reason` and `detail` (unknown only), `checkedAt`, `freshUntil`.
  static func members(_ record: CredentialStatusRecord) -> [(key: String, value: JSONValue)] {
    var members: [(key: String, value: JSONValue)] = [("status", value(record.outcome))]
    if case .unknown(let reason) = record.outcome {
      members.append(("reason", .string(reason.code.rawValue)))
      if !reason.detail.isEmpty { members.append(("detail", .string(reason.detail))) }
    }
    members.append(("checkedAt", .string(Describe.date(record.checkedAt))))
    if let fresh = record.freshUntil {
      members.append(("freshUntil", .string(Describe.date(fresh))))
    }
    return members
  }

  /// One short phrase: "valid", "REVOKED (invalid)", "SUSPENDED", "status 3
  /// (application-specific)", "unknown: the list cannot be fetched (…)".
  static func short(_ outcome: CredentialStatusOutcome) -> String {
    switch outcome {
    case .valid: "valid"
    case .invalid: "REVOKED (invalid)"
    case .suspended: "SUSPENDED"
    case .applicationSpecific(let value): "status \(value) (application-specific)"
    case .unknown(let reason):
      "unknown: \(words(reason.code))" + (reason.detail.isEmpty ? "" : " (\(reason.detail))")
    }
  }

  /// The phrase with when it was checked.
  static func describe(_ record: CredentialStatusRecord) -> String {
    short(record.outcome) + ", checked \(Describe.date(record.checkedAt))"
      + (record.freshUntil.map { ", fresh until \(Describe.date($0))" } ?? "")
  }

  /// Why a status is unknown, in words.
  static func words(_ code: CredentialStatusUnknownReason.Code) -> String {
    switch code {
    case .notReferenced: "the credential references no status list"
    case .unsupported: "the credential's status mechanism is not a status list"
    case .unreachable: "the status list cannot be fetched"
    case .urlNotAllowed: "the status list's URI is not https"
    case .badSignature: "the status list's signature does not verify"
    case .untrusted: "the status list is not signed under a trusted issuer anchor"
    case .issuerMismatch:
      "the status list is signed under another anchor than the credential's own issuer"
    case .subjectMismatch: "the status list is for another URI (sub)"
    case .expired: "the status list has expired"
    case .indexOutOfRange: "the credential's index is beyond the end of the list"
    case .tooLarge: "the status list is too large"
    case .malformed: "the status list cannot be read"
    case .unreadableCredential: "the stored credential cannot be read"
    case .unauthenticated: "the stored status was changed without this wallet's key"
    default: code.rawValue
    }
  }
}
