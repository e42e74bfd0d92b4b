import CBOR
import CredentialWallet
import CryptoPrimitives
import Foundation
import JOSE
import Mdoc
import SDJWT
import X509Certificates

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
    do {
      if bytes.starts(with: Array("-----BEGIN".utf8))
        || String(decoding: bytes.prefix(64), as: UTF8.self).contains("-----BEGIN")
      {
        return try Certificate(pemEncoded: String(decoding: bytes, as: UTF8.self))
      }
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

  /// An mdoc file: CBOR bytes, or base64url (or hex) text of them.
  static func mdocBytes(_ path: String) throws -> [UInt8] {
    let bytes = try Files.read(path)
    if let first = bytes.first, first >= 0xa0 && first <= 0xbf { return bytes }
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    if let decoded = try? Base64URL.decode(text) { return decoded }
    if text.count % 2 == 0, text.allSatisfy(\.isHexDigit) {
      var out = [UInt8]()
      var index = text.startIndex
      while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        guard let byte = UInt8(text[index..<next], radix: 16) else { break }
        out.append(byte)
        index = next
      }
      return out
    }
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
    ],
    discussion:
      "The issuer chain is checked against the issuer anchors when any are configured (dcwallet trust add --issuer)."
  )

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let mdoc = args.value("mdoc")
    let sdJWT = args.value("sd-jwt")
    guard (mdoc == nil) != (sdJWT == nil) else {
      throw UsageError("give exactly one of --mdoc or --sd-jwt", command: spec.path)
    }
    let key = try Inputs.privateKey(args.value("device-key") ?? "")
    let wallet = try context.wallet()
    let credential: StoredCredential
    if let mdoc {
      credential = try await wallet.importMdoc(
        try Inputs.mdocBytes(mdoc), deviceKey: key, id: args.value("id"))
    } else {
      credential = try await wallet.importSDJWT(
        try Files.text(sdJWT ?? ""), deviceKey: key, id: args.value("id"))
    }
    context.console.out(credential.id)
  }
}

enum ListCommand {
  static let spec = CommandSpec(
    path: "dcwallet list", summary: "List the stored credentials.",
    options: [.flag("json", "print JSON")])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let credentials = try await context.wallet().credentials()
    if args.flag("json") {
      context.console.out(JSONValue.array(credentials.map(Describe.summary)).serialized())
      return
    }
    if credentials.isEmpty {
      context.console.out("no credentials")
      return
    }
    for credential in credentials {
      let until = credential.validUntil.map { " valid until \(Describe.date($0))" } ?? ""
      context.console.out(
        "\(credential.id)  \(credential.format.rawValue)  \(credential.type)  \(credential.display.title)\(credential.display.subtitle.map { " — \($0)" } ?? "")\(until)"
      )
    }
  }
}

enum ShowCommand {
  static let spec = CommandSpec(
    path: "dcwallet show", summary: "Show one credential and its claims.",
    options: [.flag("json", "print JSON")],
    positionals: ["ID"])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let id = args.positionals[0]
    guard let credential = try await context.wallet().credentials().first(where: { $0.id == id })
    else {
      throw CommandFailure("no credential \(id)")
    }
    let claims = Describe.claims(credential)
    if args.flag("json") {
      var summary = Describe.summary(credential)
      summary = summary.setting("claims", to: .object(claims.map { ($0.0, .string($0.1)) }))
      context.console.out(summary.serialized())
      return
    }
    context.console.out(
      "\(credential.display.title) (\(credential.format.rawValue), \(credential.type))")
    context.console.out("id: \(credential.id)")
    if let issuer = credential.display.issuerName { context.console.out("issuer: \(issuer)") }
    if let from = credential.validFrom, let until = credential.validUntil {
      context.console.out("valid: \(Describe.date(from)) to \(Describe.date(until))")
    }
    for (name, value) in claims { context.console.out("  \(name): \(value)") }
  }
}

enum RemoveCommand {
  static let spec = CommandSpec(
    path: "dcwallet remove", summary: "Remove a credential and its device key.", positionals: ["ID"]
  )

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    try await context.wallet().removeCredential(id: args.positionals[0])
    context.console.out("removed \(args.positionals[0])")
  }
}

enum TrustCommand {
  static let addSpec = CommandSpec(
    path: "dcwallet trust add", summary: "Trust a certificate (PEM or DER) for one role.",
    options: [
      .value("issuer", "FILE", "an issuer IACA (mdoc) or SD-JWT issuer root"),
      .value("reader", "FILE", "an mdoc reader root"),
      .value("verifier", "FILE", "an OpenID4VP verifier root"),
    ])
  static let listSpec = CommandSpec(
    path: "dcwallet trust list", summary: "List trust anchors.",
    options: [.flag("json", "print JSON")])
  static let removeSpec = CommandSpec(
    path: "dcwallet trust remove", summary: "Remove a trust anchor.", positionals: ["ID"])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard let sub = arguments.first else {
      throw UsageError("trust needs a subcommand: add, list or remove", command: "dcwallet trust")
    }
    let rest = Array(arguments.dropFirst())
    switch sub {
    case "add":
      let args = try context.parse(addSpec, rest)
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
      context.console.out(record.id)
    case "list":
      let args = try context.parse(listSpec, rest)
      let records = try await context.wallet().store.trustAnchors(role: nil)
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
          context.console.out("\(record.id)  \(record.role.rawValue)  \(record.subject)")
        }
      }
    case "remove":
      let args = try context.parse(removeSpec, rest)
      guard try await context.wallet().store.removeTrustAnchor(id: args.positionals[0]) else {
        throw CommandFailure("no trust anchor \(args.positionals[0])")
      }
      context.console.out("removed \(args.positionals[0])")
    case "--help", "-h":
      throw HelpShown(
        text: [addSpec.help, listSpec.help, removeSpec.help].joined(separator: "\n\n"))
    default:
      throw UsageError("unknown trust subcommand '\(sub)'", command: "dcwallet trust")
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
    let records = try await context.wallet().activity(limit: limit)
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
      context.console.out(line)
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

  static func summary(_ credential: StoredCredential) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .string(credential.id)), ("format", .string(credential.format.rawValue)),
      ("type", .string(credential.type)),
      ("title", .string(credential.display.title)),
    ]
    if let subtitle = credential.display.subtitle {
      members.append(("subtitle", .string(subtitle)))
    }
    if let from = credential.validFrom { members.append(("validFrom", .string(date(from)))) }
    if let until = credential.validUntil { members.append(("validUntil", .string(date(until)))) }
    return .object(members)
  }

  /// Each claim as (name, readable value): mdoc claims as NAMESPACE/ELEMENT, SD-JWT as paths.
  static func claims(_ credential: StoredCredential) -> [(String, String)] {
    switch credential.format {
    case .msoMdoc:
      guard let mdoc = try? IssuerSigned(bytes: credential.issued) else { return [] }
      return mdoc.nameSpaces.flatMap { ns in
        ns.items.map {
          ("\(ns.nameSpace)/\($0.elementIdentifier)", ValueText.describe($0.elementValue))
        }
      }
    case .sdJWT:
      guard let sdJWT = try? SDJWT(serialized: String(decoding: credential.issued, as: UTF8.self)),
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
