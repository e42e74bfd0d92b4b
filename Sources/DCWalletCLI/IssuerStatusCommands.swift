import DCIssuer
import DCJSON
import DCOpenID4VCI
import Foundation

/// `dcwallet issuer credentials|revoke|suspend|reinstate` (issue 15): the credentials the
/// development issuer issued, each with its place in a Token Status List, and the changes of
/// status that the next published status list token shows.
enum IssuerStatusCommands {
  static let credentialsSpec = CommandSpec(
    path: "dcwallet issuer credentials",
    summary:
      "List the credentials this issuer issued with their ids, status list entries and status.",
    options: [
      .value("config", "FILE", "the same --config the server was started with"),
      StoreLocation.option(defaultFile: "state.sqlite in the state directory"),
      .flag("json", "print JSON"),
    ],
    discussion: """
      One line per credential: ID  CONFIGURATION  STATUS  URI#INDEX. The wallet's copy carries
      the same status list URI and index (SD-JWT VC claim status.status_list, mdoc MSO status),
      which is how a credential in a wallet is matched with its id here.
      """)

  static func changeSpec(_ change: CredentialStatusChange) -> CommandSpec {
    let summary =
      switch change {
      case .revoke: "Revoke an issued credential: its status becomes INVALID, for good."
      case .suspend: "Suspend an issued credential: its status becomes SUSPENDED."
      case .reinstate: "Reinstate a suspended credential: its status becomes VALID again."
      }
    return CommandSpec(
      path: "dcwallet issuer \(change.rawValue)", summary: summary,
      options: [
        .value("config", "FILE", "the same --config the server was started with"),
        StoreLocation.option(defaultFile: "state.sqlite in the state directory"),
      ],
      positionals: ["CREDENTIAL_ID"],
      discussion: """
        CREDENTIAL_ID is an id from 'dcwallet issuer credentials'. The change is written to the
        issuer's state at once; the status list token the running 'dcwallet issuer serve' signs
        for the next request shows it. A revoked credential stays revoked: reinstate undoes a
        suspension only.
        """)
  }

  static func credentials(_ args: ParsedArguments, _ context: CommandContext) throws {
    let state = try StateDirectory(args, context: context)
    let store = try state.store()
    let records: [IssuedCredentialStatus]
    do {
      records = try store.issuedCredentialStatuses()
    } catch {
      throw CommandFailure(error.reason)
    }
    let endpoints = state.recordedURL().flatMap { try? IssuerIdentifier($0, policy: .development) }
      .map(IssuerEndpoints.init(issuer:))
    if args.flag("json") {
      context.console.out(
        JSONValue.array(records.map { json($0, endpoints: endpoints) }).serialized())
      return
    }
    if records.isEmpty {
      context.console.out("no credentials issued")
      return
    }
    for record in records {
      context.console.outLine(
        "\(record.credentialID)  \(record.configurationID)  \(word(record.status))  \(place(record, endpoints))"
      )
    }
  }

  static func change(
    _ change: CredentialStatusChange, _ args: ParsedArguments, _ context: CommandContext
  ) throws {
    let id = args.positionals[0]
    let state = try StateDirectory(args, context: context)
    let store = try state.store()
    let record: IssuedCredentialStatus
    do {
      record = try store.changeStatus(credentialID: id, change)
    } catch  where error.code == .unknownCredential {
      throw CommandFailure("no issued credential \(id) (see 'dcwallet issuer credentials')")
    } catch  where error.code == .transitionNotAllowed {
      throw CommandFailure("cannot \(change.rawValue) \(id): \(error.reason)")
    } catch {
      throw CommandFailure(error.reason)
    }
    let endpoints = state.recordedURL().flatMap { try? IssuerIdentifier($0, policy: .development) }
      .map(IssuerEndpoints.init(issuer:))
    context.console.outLine("\(id): \(word(record.status))  \(place(record, endpoints))")
  }

  /// The status in the draft's words; an application-specific value as its number.
  static func word(_ status: UInt8) -> String {
    switch status {
    case IssuerStatusValue.valid: "valid"
    case IssuerStatusValue.invalid: "invalid"
    case IssuerStatusValue.suspended: "suspended"
    default: String(status)
    }
  }

  static func place(_ record: IssuedCredentialStatus, _ endpoints: IssuerEndpoints?) -> String {
    let list =
      endpoints?.statusListURL(id: record.listID).absoluteString
      ?? "status list \(record.listID)"
    return "\(list)#\(record.index)"
  }

  static func json(_ record: IssuedCredentialStatus, endpoints: IssuerEndpoints?) -> JSONValue {
    var statusList: [(key: String, value: JSONValue)] = [
      ("id", .integer(Int64(record.listID))), ("idx", .integer(Int64(record.index))),
    ]
    if let endpoints {
      statusList.append(("uri", .string(endpoints.statusListURL(id: record.listID).absoluteString)))
    }
    let status: JSONValue =
      [IssuerStatusValue.valid, IssuerStatusValue.invalid, IssuerStatusValue.suspended]
        .contains(record.status)
      ? .string(word(record.status)) : .integer(Int64(record.status))
    return .object([
      ("id", .string(record.credentialID)),
      ("configuration_id", .string(record.configurationID)),
      ("status", status),
      ("status_list", .object(statusList)),
      ("issued_at", .string(ISO8601DateFormatter().string(from: record.issuedAt))),
    ])
  }
}

extension StateDirectory {
  /// The issuer's state, shared with a running `serve`: `--store`, or the SQLite file
  /// `state.sqlite` of the directory.
  func store() throws -> any IssuerStateStore {
    try StoreLocation(storeURL, defaultPath: path("state.sqlite"), command: "dcwallet issuer")
      .issuerStore()
  }
}
