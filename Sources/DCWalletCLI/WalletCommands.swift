import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCTrust
import DCWallet
import DCX509
import Foundation

enum Inputs {
  /// A PEM EC private key (PKCS#8 or SEC1).
  static func privateKey(_ path: String) throws -> ECPrivateKey {
    do {
      return try ECPrivateKey(pemRepresentation: try Files.text(path))
    } catch let error as CryptoError {
      throw CommandFailure("\(path) is not a PEM EC private key: \(error.reason)")
    }
  }

  /// A certificate as PEM or DER.
  static func certificate(_ path: String) throws -> Certificate {
    let bytes = try Files.read(path)
    let pem =
      bytes.starts(with: Array("-----BEGIN".utf8))
      || String(decoding: bytes.prefix(64), as: UTF8.self).contains("-----BEGIN")
    // A DER certificate is a SEQUENCE (0x30); anything else gets no DER diagnosis (offsets).
    guard pem || bytes.first == 0x30 else {
      throw CommandFailure(
        "\(path) is not a certificate: neither PEM (-----BEGIN CERTIFICATE-----) nor DER")
    }
    do {
      if pem { return try Certificate(pemEncoded: String(decoding: bytes, as: UTF8.self)) }
      return try Certificate(derEncoded: bytes)
    } catch {
      throw CommandFailure("\(path) is not a certificate: \(error.reason)")
    }
  }

  /// Certificates from several files, each PEM (possibly a chain) or DER.
  static func certificates(_ paths: [String]) throws -> [Certificate] {
    var out: [Certificate] = []
    for path in paths {
      let text = try Files.text(path)
      if text.contains("-----BEGIN CERTIFICATE-----") {
        do {
          out.append(contentsOf: try Certificate.chain(fromPEM: text))
        } catch {
          throw CommandFailure("\(path): \(error.reason)")
        }
      } else {
        out.append(try certificate(path))
      }
    }
    return out
  }

  /// The issuer chain (leaf first) of an mdoc or SD-JWT VC file, for explaining a refusal.
  static func issuerChain(mdoc: String?, sdJWT: String?) throws -> [Certificate] {
    if let mdoc {
      return try IssuerSigned(bytes: try mdocBytes(mdoc)).documentSignerChain()
    }
    let text = try Files.text(sdJWT ?? "", limit: .credential)
    let parsed = try SDJWT(serialized: text.trimmingCharacters(in: .whitespacesAndNewlines))
    return try (parsed.issuerSignedJWT.x5c ?? []).map { try Certificate(derEncoded: $0) }
  }

  /// An mdoc file: CBOR bytes, or base64url (or hex) text of them.
  static func mdocBytes(_ path: String) throws -> [UInt8] {
    let bytes = try Files.read(path, limit: .credential)
    if let first = bytes.first, first >= 0xa0 && first <= 0xbf { return bytes }
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    if let decoded = try? Base64URL.decode(text) { return decoded }
    if let decoded = try? Hex.decode(text) { return decoded }
    return bytes
  }
}

enum ImportCommand {
  static let spec = CommandSpec(
    path: "dcwallet import",
    summary: "Verify and store a credential with its device key; prints the new id.",
    options: [
      .value("mdoc", "FILE", "an ISO 18013-5 IssuerSigned structure (CBOR, or base64url text)"),
      .value("sd-jwt", "FILE", "an SD-JWT VC as issued (compact serialization)"),
      .value(
        "device-key", "FILE", required: true,
        "the device key: a PEM EC private key (PKCS#8 or SEC1)"),
      .value("id", "ID", "the identifier to store it under (default: a new UUID)"),
    ] + RevocationOptions.options,
    discussion:
      "The issuer chain is checked against the issuer anchors when any are configured (dcwallet trust add --issuer). With none, the credential is imported with a warning on standard error and its issuer is recorded as unverified."
  )

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let mdoc = args.value("mdoc")
    let sdJWT = args.value("sd-jwt")
    guard (mdoc == nil) != (sdJWT == nil) else {
      throw UsageError("give exactly one of --mdoc or --sd-jwt", command: spec.path)
    }
    let key = try Inputs.privateKey(args.value("device-key") ?? "")
    // The command line opts in to unverified issuers explicitly (the library refuses them by
    // default) and warns on standard error whenever it uses that.
    let wallet = try Wallet(
      home: context.home(),
      policy: WalletPolicy(acceptsUnverifiedIssuers: true, revocation: context.revocation),
      documentTitles: MdocDisplay.titles)
    Describe.warn(try await wallet.trustAnchorListing(role: .issuer).problems, context.console)
    let credential: StoredCredential
    do {
      if let mdoc {
        credential = try await wallet.importMdoc(
          try Inputs.mdocBytes(mdoc), deviceKey: key, id: args.value("id"))
      } else {
        credential = try await wallet.importSDJWT(
          try Files.text(sdJWT ?? "", limit: .credential), deviceKey: key, id: args.value("id"))
      }
    } catch let error as WalletError where error.code == .importRejected {
      // Issue 29: why no anchor or trusted list vouches for the issuer, when that is the cause
      // (on the same one line: a refusal is one line of standard error).
      if let chain = try? Inputs.issuerChain(mdoc: mdoc, sdJWT: sdJWT), !chain.isEmpty,
        !(try await wallet.trustAnchors(role: .issuer)).isEmpty
      {
        let decision = try await wallet.trustDecision(chain: chain, for: .credentialIssuer)
        if decision.source == nil {
          throw CommandFailure(
            error.reason + "; issuer trust: " + TrustDecisionText.describe(decision))
        }
      }
      throw error
    }
    context.console.out(credential.id)
    if credential.issuerTrust == .unverified {
      context.console.errLine(
        "warning: no trusted issuer anchor is configured, so the issuer is unverified"
          + (credential.display.issuerName.map { " (it claims to be \($0))" } ?? "")
          + "; add one with dcwallet trust add --issuer FILE")
    }
  }
}

enum ListCommand {
  static let spec = CommandSpec(
    path: "dcwallet list",
    summary:
      "List the stored credentials, marking expired and not-yet-valid ones and their last known status.",
    options: [
      .flag(
        "json",
        "print JSON (with doctype or vct, validity, issuerTrust, status once checked, and issuance for issued credentials)"
      ),
      .flag(
        "refresh-status",
        "fetch each credential's status list first (a status still fresh is not fetched again)"),
    ],
    discussion:
      "A stored row that cannot be read is skipped with a warning on standard error. The status shown is the last one learned (dcwallet status ID, or --refresh-status); nothing is fetched without the flag."
  )

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let wallet = try context.wallet()
    if args.flag("refresh-status") {
      try await StatusCommand.refreshAll(wallet, context)
    }
    let listing = try await wallet.credentialListing()
    Describe.warn(listing.problems, context.console)
    let now = wallet.clock()
    let credentials = listing.credentials
    if args.flag("json") {
      context.console.out(
        JSONValue.array(credentials.map { Describe.summary($0, at: now) }).serialized())
      return
    }
    if credentials.isEmpty {
      context.console.out("no credentials")
      return
    }
    for credential in credentials {
      let until = credential.validUntil.map { " valid until \(Describe.date($0))" } ?? ""
      let state = credential.validity(at: now)
      let flag = state == .valid ? "" : "  [\(Describe.validity(state, credential))]"
      let status = credential.lastKnownStatus.map { "  [status: \(StatusText.short($0.outcome))]" }
      let vouched = credential.issuerTrust == .issuerVouched ? "  [issuer-vouched]" : ""
      context.console.outLine(
        "\(credential.id)  \(credential.format.rawValue)  \(credential.type)  \(credential.display.title)\(credential.display.subtitle.map { " — \($0)" } ?? "")\(until)\(flag)\(vouched)\(status ?? "")"
      )
    }
  }
}

enum ShowCommand {
  static let spec = CommandSpec(
    path: "dcwallet show",
    summary:
      "Show one credential: its issuer (trusted, issuer-vouched or unverified), validity state, last known status and claims.",
    options: [
      .flag(
        "json",
        "print JSON (with doctype or vct, validity, issuerTrust, status once checked, and issuance for issued credentials)"
      ),
      .flag(
        "refresh-status",
        "fetch the credential's status list first (a status still fresh is not fetched again)"),
    ],
    positionals: ["ID"])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let id = args.positionals[0]
    let wallet = try context.wallet()
    if args.flag("refresh-status") {
      try await wallet.refreshStatus(
        credentialID: id, checker: try await StatusCommand.checker(for: wallet))
    }
    let listing = try await wallet.credentialListing()
    guard let credential = listing.credentials.first(where: { $0.id == id }) else {
      if let problem = listing.problems.first(where: { $0.record == .credential(id: id) }) {
        throw CommandFailure("credential \(id) cannot be read: \(problem.error.reason)")
      }
      throw CommandFailure("no credential \(id)")
    }
    let now = wallet.clock()
    let claims = Describe.claims(credential)
    if args.flag("json") {
      var summary = Describe.summary(credential, at: now)
      summary = summary.setting("claims", to: .object(claims.map { ($0.0, .string($0.1)) }))
      context.console.out(summary.serialized())
      return
    }
    let console = context.console
    console.outLine(
      "\(credential.display.title) (\(credential.format.rawValue), \(credential.type))")
    console.outLine("id: \(credential.id)")
    console.outLine(issuerLine(credential))
    // Issue 29: what trusts the issuer now (anchor, or list and entry), or why nothing does.
    if let decision = try await wallet.issuerTrustDecision(for: credential) {
      console.outLine("issuer trust: " + TrustDecisionText.describe(decision))
    }
    for line in issuanceLines(credential) { console.outLine(line) }
    if let from = credential.validFrom, let until = credential.validUntil {
      console.outLine("valid: \(Describe.date(from)) to \(Describe.date(until))")
    }
    console.outLine("state: \(Describe.validity(credential.validity(at: now), credential))")
    console.outLine(
      "status: "
        + (credential.lastKnownStatus.map(StatusText.describe)
          ?? "never checked (dcwallet status \(credential.id) fetches it)"))
    for (name, value) in claims { console.outLine("  \(name): \(value)") }
  }

  /// The issuer's name and how far the wallet trusts it.
  private static func issuerLine(_ credential: StoredCredential) -> String {
    switch credential.issuerTrust {
    case .trusted:
      "issuer: \(credential.display.issuerName ?? "(unnamed)") (\(Describe.trustBasis(credential.issuance?.trustBasis)))"
    case .issuerVouched:
      "issuer: \(credential.display.issuerName ?? "(unnamed)") (issuer-vouched: "
        + "\(Describe.trustBasis(credential.issuance?.trustBasis)); no anchor of this wallet "
        + "vouches for it)"
    case .unverified:
      "issuer unverified"
        + (credential.display.issuerName.map { " (claims to be \($0))" } ?? "")
        + ": no issuer anchor vouched for it at import"
    }
  }

  /// For an issued credential: its issuer and configuration, its batch, and whether the issuer
  /// is notified of its removal.
  private static func issuanceLines(_ credential: StoredCredential) -> [String] {
    guard let issuance = credential.issuance else { return [] }
    let name = issuance.display.preferred()?.name
    var lines = [
      "issued by \(issuance.credentialIssuer)"
        + (name.map { " as \"\($0)\"" } ?? "") + " (configuration \(issuance.configurationID))"
    ]
    if let batch = issuance.batchID {
      lines.append("batch: \(batch) (presented \(credential.presentationCount) times)")
    }
    if issuance.notificationID != nil {
      lines.append("the issuer is notified when it is removed")
    }
    return lines
  }
}

enum RemoveCommand {
  static let spec = CommandSpec(
    path: "dcwallet remove", summary: "Remove a credential and its device key.", positionals: ["ID"]
  )

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    // An issued credential: the issuer is told credential_deleted (OpenID4VCI 1.0 §11) with the
    // stored notification_id, access token and DPoP key; a failure to tell it is a warning.
    let issuance = WalletIssuance(
      wallet: try context.wallet(), client: IssueCommand.client(development: true))
    let notified = try await issuance.removeCredential(id: args.positionals[0])
    context.console.out("removed \(args.positionals[0])")
    if case .failure(let error) = notified {
      context.console.errLine("warning: the issuer was not notified: \(error.reason)")
    }
  }
}

enum TrustCommand {
  /// A certificate's SHA-256 fingerprint as `openssl x509 -fingerprint -sha256` prints it.
  static func fingerprint(_ der: [UInt8]) -> String {
    SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
  }

  static let addSpec = CommandSpec(
    path: "dcwallet trust add",
    summary:
      "Trust a certificate (PEM or DER) for one role; prints its id, role, subject and SHA-256.",
    options: [
      .value("issuer", "FILE", "an issuer IACA (mdoc) or SD-JWT issuer root"),
      .value("reader", "FILE", "an mdoc reader root"),
      .value("verifier", "FILE", "an OpenID4VP verifier root"),
    ])
  static let listSpec = CommandSpec(
    path: "dcwallet trust list", summary: "List trust anchors.",
    options: [.flag("json", "print JSON")],
    discussion:
      "An anchor whose row was changed without the wallet's key (or added before anchors were authenticated) is not trusted: it is left out, with a warning on standard error."
  )
  static let removeSpec = CommandSpec(
    path: "dcwallet trust remove", summary: "Remove a trust anchor.", positionals: ["ID"])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard let sub = arguments.first else {
      throw UsageError(
        "trust needs a subcommand: add, list, remove, import-list, lists, refresh, remove-list or list-policy",
        command: "dcwallet trust")
    }
    let rest = Array(arguments.dropFirst())
    if try await TrustListCommands.run(sub, rest, context) { return }
    switch sub {
    case "add":
      try await add(try context.parse(addSpec, rest), context)
    case "list":
      try await list(try context.parse(listSpec, rest), context)
    case "remove":
      let args = try context.parse(removeSpec, rest)
      guard try await context.wallet().store.removeTrustAnchor(id: args.positionals[0]) else {
        throw CommandFailure("no trust anchor \(args.positionals[0])")
      }
      context.console.out("removed \(args.positionals[0])")
    case "--help", "-h":
      throw HelpShown(
        text: ([addSpec.help, listSpec.help, removeSpec.help] + TrustListCommands.help)
          .joined(separator: "\n\n"))
    default:
      throw UsageError("unknown trust subcommand '\(sub)'", command: "dcwallet trust")
    }
  }

  /// `trust add`: one certificate for the one role given.
  private static func add(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let given = [("issuer", TrustRole.issuer), ("reader", .reader), ("verifier", .verifier)]
      .compactMap { name, role in
        args.value(name).map { ($0, role) }
      }
    guard given.count == 1, let (path, role) = given.first else {
      throw UsageError(
        "give exactly one of --issuer, --reader or --verifier", command: addSpec.path)
    }
    let certificate = try Inputs.certificate(path)
    let record = try await context.wallet().addTrustAnchor(certificate, role: role)
    // The id first (scripts take it), then what was added: role, subject, fingerprint.
    context.console.outLine(
      "\(record.id)  \(record.role.rawValue)  \(record.subject)  SHA-256 "
        + fingerprint(record.certificateDER))
  }

  /// `trust list`: the anchors that verify, as lines or JSON.
  private static func list(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let listing = try await context.wallet().trustAnchorListing()
    Describe.warn(listing.problems, context.console)
    let records = listing.anchors
    if args.flag("json") {
      context.console.out(
        JSONValue.array(
          records.map {
            .object([
              ("id", .string($0.id)), ("role", .string($0.role.rawValue)),
              ("subject", .string($0.subject)),
            ])
          }
        ).serialized())
    } else if records.isEmpty {
      context.console.out("no trust anchors")
    } else {
      for record in records {
        context.console.outLine("\(record.id)  \(record.role.rawValue)  \(record.subject)")
      }
    }
  }
}

enum LogCommand {
  static let spec = CommandSpec(
    path: "dcwallet log", summary: "Show the activity log, newest first.",
    options: [
      .flag("json", "print JSON"), .value("limit", "N", "show at most N entries (default 100)"),
    ])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    var limit = 100
    if let text = args.value("limit") {
      guard let value = Int(text), value > 0 else {
        throw UsageError("--limit must be a positive number", command: spec.path)
      }
      limit = value
    }
    let listing = try await context.wallet().activityListing(limit: limit)
    Describe.warn(listing.problems, context.console)
    let records = listing.records
    if args.flag("json") {
      context.console.out(
        JSONValue.array(
          records.map {
            .object([
              ("time", .string(Describe.date($0.timestamp))),
              ("protocol", .string($0.protocolIdentifier)),
              ("origin", $0.origin.map(JSONValue.string) ?? .null),
              ("relyingParty", $0.relyingParty.map(JSONValue.string) ?? .null),
              ("outcome", .string($0.outcome.rawValue)),
              ("credentials", .array($0.credentialIDs.map(JSONValue.string))),
              ("shared", .array($0.sharedItems.map(JSONValue.string))),
              ("detail", .string($0.detail)),
            ])
          }
        ).serialized())
      return
    }
    if records.isEmpty { context.console.out("no activity") }
    for record in records {
      var line =
        "\(Describe.date(record.timestamp))  \(record.outcome.rawValue)  \(record.protocolIdentifier)  \(record.origin ?? "-")"
      if let party = record.relyingParty, party != record.origin { line += "  (\(party))" }
      if !record.sharedItems.isEmpty {
        line += "  shared: " + record.sharedItems.joined(separator: ", ")
      }
      if record.outcome != .shared, !record.detail.isEmpty { line += "  reason: \(record.detail)" }
      context.console.outLine(line)
    }
  }
}

/// Readable forms of stored credentials.
enum Describe {
  static func date(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  /// A credential for `--json`: `validity` is `valid`, `expired` or `not-yet-valid` at `now`,
  /// `issuerTrust` is `trusted`, `issuer-vouched` (only the issuer's own published IACAs or
  /// metadata keys vouched for it) or `unverified`.
  static func summary(_ credential: StoredCredential, at now: Date) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .string(credential.id)), ("format", .string(credential.format.rawValue)),
      ("type", .string(credential.type)),
      (credential.format == .msoMdoc ? "doctype" : "vct", .string(credential.type)),
      ("title", .string(credential.display.title)),
    ]
    if let subtitle = credential.display.subtitle {
      members.append(("subtitle", .string(subtitle)))
    }
    if let from = credential.validFrom { members.append(("validFrom", .string(date(from)))) }
    if let until = credential.validUntil { members.append(("validUntil", .string(date(until)))) }
    members.append(("validity", .string(validityName(credential.validity(at: now)))))
    members.append(("issuerTrust", .string(credential.issuerTrust.rawValue)))
    if let status = credential.lastKnownStatus {
      members.append(("status", .object(StatusText.members(status))))
    }
    if let issuer = credential.display.issuerName { members.append(("issuer", .string(issuer))) }
    if let issuance = credential.issuance {
      var issued: [(key: String, value: JSONValue)] = [
        ("credentialIssuer", .string(issuance.credentialIssuer)),
        ("configuration", .string(issuance.configurationID)),
      ]
      if let display = issuance.display.preferred() {
        issued.append(("name", .string(display.name)))
        if let locale = display.locale { issued.append(("locale", .string(locale))) }
        if let logo = display.logoURI { issued.append(("logo", .string(logo))) }
        if let color = display.backgroundColor {
          issued.append(("backgroundColor", .string(color)))
        }
        if let color = display.textColor { issued.append(("textColor", .string(color))) }
      }
      issued.append(("trust", .string(issuance.trustBasis.rawValue)))
      if let batch = issuance.batchID {
        issued.append(("batch", .string(batch)))
        issued.append(("presentations", .integer(Int64(credential.presentationCount))))
      }
      issued.append(("notifies", .bool(issuance.notificationID != nil)))
      members.append(("issuance", .object(issued)))
    }
    return .object(members)
  }

  /// Why an issuer counts as trusted, in words.
  static func trustBasis(_ basis: IssuanceTrustBasis?) -> String {
    switch basis {
    case nil, .walletAnchor?: "chains to a trusted issuer anchor"
    case .issuerPublishedIACA?:
      "chains to an IACA the issuer published, accepted by --trust-issuer-iacas at issuance"
    case .issuerMetadataKey?: "signed with a key from the issuer's JWT VC issuer metadata"
    }
  }

  /// The JSON name of a validity state.
  static func validityName(_ validity: CredentialValidity) -> String {
    switch validity {
    case .valid: "valid"
    case .expired: "expired"
    case .notYetValid: "not-yet-valid"
    }
  }

  /// A validity state in words, with the date that decides it.
  static func validity(_ validity: CredentialValidity, _ credential: StoredCredential) -> String {
    switch validity {
    case .valid: "valid"
    case .expired: "EXPIRED" + (credential.validUntil.map { " since \(date($0))" } ?? "")
    case .notYetValid: "NOT YET VALID" + (credential.validFrom.map { " until \(date($0))" } ?? "")
    }
  }

  /// One warning line on standard error per stored row that was skipped.
  static func warn(_ problems: [StoreProblem], _ console: Console) {
    for problem in problems {
      let what: String
      switch problem.record {
      case .credential(let id) where problem.error.code == .unauthenticatedRecord:
        // Issue 32: listed, but what the tag covers is not trusted.
        what = "credential \(id) was changed without this wallet's key"
      case .credential(let id): what = "credential \(id) skipped"
      case .trustAnchor(let id): what = "trust anchor \(id) not trusted"
      case .setting(let key): what = "setting \(key) ignored"
      case .activity(let id): what = "activity entry \(id) skipped"
      case .deferredIssuance(let id): what = "pending issuance \(id) skipped"
      case .trustedList(let id): what = "trusted list \(id) not used"
      }
      console.errLine("warning: \(what): \(problem.error.reason)")
    }
  }

  /// Each claim as (name, readable value): mdoc claims as NAMESPACE/ELEMENT, SD-JWT as paths.
  static func claims(_ credential: StoredCredential) -> [(String, String)] {
    switch credential.format {
    case .msoMdoc:
      guard case .mdoc(let mdoc)? = try? credential.decoded() else { return [] }
      return mdoc.nameSpaces.flatMap { ns in
        ns.items.map {
          ("\(ns.nameSpace)/\($0.elementIdentifier)", ValueText.describe($0.elementValue))
        }
      }
    case .sdJWT:
      guard case .sdJWT(let sdJWT)? = try? credential.decoded(),
        let processed = try? sdJWT.process()
      else { return [] }
      var out: [(String, String)] = []
      func walk(_ value: JSONValue, _ path: [String]) {
        switch value {
        case .object(let members) where !path.isEmpty || true:
          for (key, member) in members
          where
            !(path.isEmpty && ["cnf", "iss", "iat", "nbf", "exp", "vct", "status"].contains(key))
          {
            walk(member, path + [key])
          }
        case .array(let items):
          for (index, item) in items.enumerated() { walk(item, path + [String(index)]) }
        default:
          out.append((path.joined(separator: "."), value.string ?? value.serialized()))
        }
      }
      walk(processed.payload, [])
      return out
    }
  }
}
