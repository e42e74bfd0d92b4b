import DCHTTP
import DCJSON
import DCOpenID4VCI
import DCWallet
import Foundation

/// `dcwallet issue`: get credentials by OpenID4VCI 1.0 and store what verifies.
///
/// Output contract (scripts depend on it): one line per stored credential, containing its id;
/// with `--json` one object `{"credentials": [...], "deferred": [...], "failed": [...]}` with
/// all three arrays. Exit 0 when everything was stored or deferred, 1 otherwise (standard output
/// then empty, or the JSON object listing exactly what stays stored), 2 for usage.
enum IssueCommand {
  static let spec = CommandSpec(
    path: "dcwallet issue",
    summary: "Get credentials from an OpenID4VCI issuer; each is verified before it is stored.",
    options: [
      .value("tx-code", "CODE", "the transaction code of a pre-authorized offer"),
      .value(
        "browser", "CMD",
        "run CMD with the authorization URL; its last output line is the redirect URL"),
      .value("configuration", "ID", repeating: true, "request only this configuration"),
      .value("batch", "N", "N credentials per configuration, each with its own device key"),
      .value("id", "ID", "store under ID (several credentials: ID-1, ID-2, ...)"),
      .flag(
        "trust-issuer-iacas",
        "trust the IACAs the issuer publishes (mdoc_iacas_uri) for its mdoc and SD-JWT VC "
          + "credentials, this issuance only; they are stored issuer-vouched"),
      .flag("deferred", "poll pending deferred issuances (all, or the one named) instead"),
      .value(
        "refresh", "ID",
        "re-issue stored credential ID with its refresh token; the old one goes once the new is stored"
      ),
      .flag("json", "print a JSON object"),
      .flag(
        "refuse-unregistered-issuer",
        "refuse an issuer whose registration certificate (issuer_info, ETSI TS 119 475) is missing, does not verify, or does not register the offered credentials"
      ),
      RegistrationOptions.registrarCertOption,
    ] + RevocationOptions.options,
    positionals: ["OFFER"], requiredPositionals: 0,
    discussion: """
      OFFER is an openid-credential-offer:// or haip-vci:// URI, a file holding one, or - for
      standard input. Plain http is accepted only for loopback issuers (development).
      Authorization code offers: without --browser the authorization URL is printed on a line of
      its own (on standard error with --json) and the redirect URL is read from standard input.
      A missing --tx-code is asked for on a terminal; otherwise it is an error (exit 1).
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let json = args.flag("json")
    if args.flag("deferred") {
      try await pollDeferred(args, json: json, context)
      return
    }
    if let id = args.value("refresh") {
      try await refresh(id, args, json: json, context)
      return
    }
    guard let source = args.positionals.first else {
      throw UsageError("missing OFFER", command: spec.path)
    }
    let batch = try batchSize(args) ?? 1
    let text = try offerText(source, context)
    // Development mode (plain http) only when the offer points at a loopback host.
    let development = isLoopbackOffer(text)
    let issuance = WalletIssuance(
      wallet: try context.wallet(), client: client(development: development))
    let offer: CredentialOffer
    do {
      offer = try await issuance.client.resolveOffer(text)
    } catch {
      throw CommandFailure(error.reason)
    }
    let selected = args.all("configuration")
    for id in selected where !offer.credentialConfigurationIDs.contains(id) {
      throw CommandFailure("the offer has no configuration '\(id)'")
    }
    let configurations = selected.isEmpty ? offer.credentialConfigurationIDs : selected
    try await IssuerRegistrationText.check(
      offer, issuance, configurations: configurations, args, context)
    let options = IssuanceClient.Options(
      configurationIDs: selected.isEmpty ? nil : selected, batchSize: batch)
    let storage = WalletIssuance.StorageOptions(
      trustIssuerPublishedIACAs: args.flag("trust-issuer-iacas"),
      ids: storageIDs(args, count: configurations.count * batch))
    let result: WalletIssuanceResult
    do {
      result = try await issue(
        offer, issuance, options: options, storage: storage, args, stdinUsed: source == "-",
        context)
    } catch let error as IssuanceError {
      try issuanceFailed(error, offer: offer, configurations: configurations, json: json, context)
    }
    try report(result, json: json, context)
  }

  /// `--id ID` as the ids `count` credentials are stored under: ID, or ID-1, ID-2, ...
  private static func storageIDs(_ args: ParsedArguments, count: @autoclosure () -> Int)
    -> [String]
  {
    guard let id = args.value("id") else { return [] }
    let count = count()
    return count == 1 ? [id] : (1...count).map { "\(id)-\($0)" }
  }

  /// Runs the offer's grant: pre-authorized with its transaction code, else authorization code
  /// through the browser or standard input.
  private static func issue(
    _ offer: CredentialOffer, _ issuance: WalletIssuance, options: IssuanceClient.Options,
    storage: WalletIssuance.StorageOptions, _ args: ParsedArguments, stdinUsed: Bool,
    _ context: CommandContext
  ) async throws -> WalletIssuanceResult {
    if let grant = offer.preAuthorizedCode {
      let code = try transactionCode(for: grant, args, stdinUsed: stdinUsed, context)
      return try await issuance.issuePreAuthorized(
        offer: offer, txCode: code, options: options, storage: storage)
    }
    let pending = try await issuance.beginAuthorization(offer: offer, options: options)
    let redirect = try redirectURL(
      pending.authorizationURL, browser: args.value("browser"), stdinUsed: stdinUsed,
      json: args.flag("json"), context)
    return try await issuance.completeAuthorization(
      pending, redirect: redirect, storage: storage)
  }

  /// `--deferred`: polls the pending deferred issuances (all, or the one named).
  private static func pollDeferred(
    _ args: ParsedArguments, json: Bool, _ context: CommandContext
  ) async throws {
    for option in ["tx-code", "browser", "configuration", "batch", "id", "refresh"]
    where args.values[option] != nil {
      throw UsageError("--\(option) does not go with --deferred", command: spec.path)
    }
    if args.flag("trust-issuer-iacas") {
      throw UsageError(
        "--trust-issuer-iacas is decided when issuing, not when polling", command: spec.path)
    }
    let wallet = try context.wallet()
    // Polls go to the issuers the pending entries name; loopback http only for loopback.
    let issuance = WalletIssuance(wallet: wallet, client: client(development: true))
    let result: WalletIssuanceResult
    do {
      result = try await issuance.pollDeferred(id: args.positionals.first)
    } catch {
      throw CommandFailure(error.reason)
    }
    try report(result, json: json, context)
  }

  /// `--batch N`, from 1 to 100; nil when not given.
  private static func batchSize(_ args: ParsedArguments) throws -> Int? {
    guard let text = args.value("batch") else { return nil }
    guard let value = Int(text), (1...100).contains(value) else {
      throw UsageError("--batch needs a number from 1 to 100", command: spec.path)
    }
    return value
  }

  /// `--tx-code`, else, when the grant asks for one, a line read from the terminal.
  static func transactionCode(
    for grant: PreAuthorizedCodeGrant, _ args: ParsedArguments, stdinUsed: Bool,
    _ context: CommandContext
  ) throws -> String? {
    var code = args.value("tx-code")
    if grant.txCode != nil, code == nil {
      guard isatty(STDIN_FILENO) == 1, !stdinUsed else {
        throw CommandFailure(
          "the offer requires a transaction code (tx_code): give --tx-code CODE")
      }
      context.console.err(
        "enter the transaction code (tx_code)"
          + (grant.txCode?.description.map { ", \($0)" } ?? "") + ":")
      code = readLine()?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return code
  }

  /// Fails the issuance: with `--json` every configuration is reported failed first; an invalid
  /// transaction code is explained by what the offer expected.
  private static func issuanceFailed(
    _ error: IssuanceError, offer: CredentialOffer, configurations: [String], json: Bool,
    _ context: CommandContext
  ) throws -> Never {
    let reason =
      error.code == .txCodeInvalid
      ? offer.preAuthorizedCode?.txCode.map(expectedTransactionCode) ?? error.reason
      : error.reason
    if json {
      let failure = IssuanceError(error.code, reason, underlying: error)
      try report(
        WalletIssuanceResult(
          failed: configurations.map {
            WalletIssuanceFailure(configurationID: $0, cause: .issuance(failure))
          }), json: true, context)
    }
    throw CommandFailure(reason)
  }

  /// `--refresh ID`: re-issues a stored credential with its refresh token (same output
  /// contract as an issuance).
  static func refresh(
    _ id: String, _ args: ParsedArguments, json: Bool, _ context: CommandContext
  ) async throws {
    for option in ["tx-code", "browser", "configuration", "id"] where args.values[option] != nil {
      throw UsageError("--\(option) does not go with --refresh", command: spec.path)
    }
    guard args.positionals.isEmpty else {
      throw UsageError("--refresh takes no OFFER", command: spec.path)
    }
    let batch = try batchSize(args)
    let wallet = try context.wallet()
    let old = try? await wallet.credentials().first { $0.id == id }
    let configuration = old?.issuance?.configurationID ?? ""
    // Development mode (plain http) only when the credential's issuer is a loopback host.
    let development =
      old?.issuance.flatMap { URL(string: $0.credentialIssuer)?.host }
      .map(HTTPURLPolicy.isLoopbackHost) ?? false
    let issuance = WalletIssuance(wallet: wallet, client: client(development: development))
    let result: WalletIssuanceResult
    do {
      result = try await issuance.reissue(
        credentialID: id, batchSize: batch,
        storage: WalletIssuance.StorageOptions(
          trustIssuerPublishedIACAs: args.flag("trust-issuer-iacas")))
    } catch {
      let reason: String
      switch error.code {
      case .unknownCredential: reason = "no credential \(id)"
      case .noRefreshToken:
        reason = "no refresh token is kept for \(id): issue it anew from an offer"
      case .refreshRefused:
        reason = "the issuer refused the refresh token for \(id) (\(error.reason)): issue it anew"
      default: reason = error.reason
      }
      if json {
        try report(
          WalletIssuanceResult(
            failed: [
              WalletIssuanceFailure(
                configurationID: configuration,
                cause: .issuance(IssuanceError(error.code, reason, underlying: error)))
            ]), json: true, context)
      }
      throw CommandFailure(reason)
    }
    for replaced in result.replaced { context.console.errLine("replaced \(replaced)") }
    try report(result, json: json, context)
  }

  /// What the offer's `tx_code` object asks for, in words (OpenID4VCI 1.0 §4.1.1).
  static func expectedTransactionCode(_ requirement: TransactionCodeRequirement) -> String {
    let kind = requirement.effectiveInputMode == .numeric ? "digits" : "characters"
    let expected =
      requirement.length.map { "\($0) \(kind)" } ?? (kind == "digits" ? "digits only" : kind)
    return "the transaction code (tx_code) does not fit the offer: expected \(expected)"
      + (requirement.inputMode == nil ? " (input_mode numeric by default)" : "")
  }

  static func client(development: Bool) -> IssuanceClient {
    let http = URLSessionHTTPClient(
      configuration: URLSessionHTTPClient.Configuration(
        policy: development ? .development : .standard))
    return IssuanceClient(
      http: http,
      configuration: IssuanceClient.Configuration(
        urlPolicy: development ? .development : .standard))
  }

  /// The offer: a URI or JSON given as is, `-` for standard input, else a file holding one.
  static func offerText(_ source: String, _ context: CommandContext) throws -> String {
    let bytes: [UInt8]
    if source == "-" {
      bytes = try context.console.readAll(limit: .file)
    } else if source.contains("://") || source.hasPrefix("{") {
      return source
    } else if FileManager.default.fileExists(atPath: source) {
      bytes = try Files.read(source)
    } else {
      return source
    }
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether the offer (by value, or its credential_offer_uri) names a loopback host.
  static func isLoopbackOffer(_ text: String) -> Bool {
    guard let source = try? CredentialOffer.parse(text, policy: .development) else { return false }
    let url: URL?
    switch source {
    case .value(let offer): url = URL(string: offer.credentialIssuer.string)
    case .reference(let reference, _): url = reference
    }
    return url?.host.map(HTTPURLPolicy.isLoopbackHost) ?? false
  }

  /// The redirect URL the authorization ended on: the last line `--browser CMD` printed, or a
  /// line read from standard input after printing the authorization URL (on standard error with
  /// `--json`: standard output holds the JSON value alone).
  static func redirectURL(
    _ authorizationURL: URL, browser: String?, stdinUsed: Bool, json: Bool,
    _ context: CommandContext
  ) throws -> URL {
    let line: String?
    if let browser {
      line = try runBrowser(browser, url: authorizationURL.absoluteString)
    } else {
      guard !stdinUsed else {
        throw CommandFailure("the offer came on standard input: give --browser CMD")
      }
      if json {
        context.console.errLine(authorizationURL.absoluteString)
      } else {
        context.console.outLine(authorizationURL.absoluteString)
      }
      line = readLine()
    }
    guard let text = line?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
      let url = URL(string: text)
    else { throw CommandFailure("no redirect URL came back from the authorization") }
    return url
  }

  static func runBrowser(_ command: String, url: String) throws -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command, url]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
      try process.run()
    } catch {
      throw CommandFailure("cannot run --browser \(command): \(error.localizedDescription)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandFailure("--browser \(command) exited with \(process.terminationStatus)")
    }
    return String(decoding: data.prefix(1 << 16), as: UTF8.self)
      .split(whereSeparator: \.isNewline).last.map(String.init)
  }

  /// Prints the result per the contract; throws (exit 1) when anything failed.
  static func report(_ result: WalletIssuanceResult, json: Bool, _ context: CommandContext) throws {
    let console = context.console
    if json {
      console.out(jsonObject(result).serialized())
    } else if result.isComplete {
      for credential in result.stored {
        console.outLine(
          "\(credential.id)  \(credential.issuance?.configurationID ?? "")  \(credential.type)")
      }
    } else {
      for credential in result.stored { console.errLine("stored \(credential.id)") }
    }
    for pending in result.deferred {
      console.errLine(
        "deferred \(pending.id) (\(pending.configurationID)): poll with 'dcwallet issue --deferred \(pending.id)'"
      )
    }
    for failure in result.notificationFailures {
      console.errLine("warning: the issuer was not notified: \(failure.reason)")
    }
    guard result.isComplete else {
      for failure in result.failed.dropLast() {
        console.errLine("\(failure.configurationID): \(failure.reason)")
      }
      let last = result.failed[result.failed.count - 1]
      throw CommandFailure("\(last.configurationID): \(last.reason)")
    }
  }

  static func jsonObject(_ result: WalletIssuanceResult) -> JSONValue {
    .object([
      (
        "credentials",
        .array(
          result.stored.map { credential in
            .object([
              ("id", .string(credential.id)),
              ("configuration", .string(credential.issuance?.configurationID ?? "")),
              ("format", .string(credential.format.rawValue)),
              (credential.format == .msoMdoc ? "doctype" : "vct", .string(credential.type)),
              ("issuerTrust", .string(credential.issuerTrust.rawValue)),
            ])
          })
      ),
      (
        "deferred",
        .array(
          result.deferred.map {
            .object([
              ("transaction_id", .string($0.transactionID)),
              ("configuration", .string($0.configurationID)), ("id", .string($0.id)),
            ])
          })
      ),
      (
        "failed",
        .array(
          result.failed.map {
            .object([
              ("configuration", .string($0.configurationID)), ("reason", .string($0.reason)),
            ])
          })
      ),
    ])
  }
}
