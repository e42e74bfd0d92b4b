import DCTrust
import DCX509
import Foundation

/// `verifier verify --trusted-list KIND:FILE --list-operator-cert PEM` (issue 29): lists
/// verified against their operators, whose issuers the verification trusts, and the report's
/// line naming what trusted each credential's issuer.
enum VerifierTrustLists {
  /// `--trusted-list` and `--list-operator-cert`, on every verifier role's command.
  static let options: [CommandSpec.Option] = [
    .value(
      "trusted-list", "KIND:FILE", repeating: true,
      "a trusted list (lote, tsl, lotl, vical, rical) whose issuers are trusted, e.g. lote:pid-providers.jws"
    ),
    .value(
      "list-operator-cert", "PEM", repeating: true,
      "the certificate the --trusted-list operators sign with (PEM or DER)"),
  ]

  /// The anchors given, each for its credential format (`--issuer-anchor` for mdocs,
  /// `--sd-jwt-issuer-anchor` for SD-JWT VCs), and the verified lists.
  static func sources(_ args: ParsedArguments, command: String) throws -> TrustSources {
    var anchors: [TrustAnchor] = []
    let given: [(option: String, format: IssuerCredentialFormat)] = [
      ("issuer-anchor", .mdoc), ("sd-jwt-issuer-anchor", .sdJWTVC),
    ]
    for (option, format) in given {
      for (index, certificate) in try Inputs.certificates(args.all(option)).enumerated() {
        anchors.append(
          TrustAnchor(
            id: "--\(option) \(index + 1)", certificate: certificate,
            purposes: [.credentialIssuer], formats: [format]))
      }
    }
    return TrustSources(anchors: anchors, lists: try lists(args, command: command))
  }

  /// Each `--trusted-list KIND:FILE`, verified against the `--list-operator-cert`s.
  private static func lists(_ args: ParsedArguments, command: String) throws -> [TrustedList] {
    let specs = args.all("trusted-list")
    guard !specs.isEmpty else { return [] }
    let operators = try Inputs.certificates(args.all("list-operator-cert"))
    guard !operators.isEmpty else {
      throw UsageError("--trusted-list needs --list-operator-cert", command: command)
    }
    var lists: [TrustedList] = []
    for spec in specs {
      guard let colon = spec.firstIndex(of: ":"),
        let kind = TrustedListKind(rawValue: String(spec[..<colon]))
      else {
        throw UsageError(
          "--trusted-list is KIND:FILE with KIND lote, tsl, lotl, vical or rical, not \(spec)",
          command: command)
      }
      let path = String(spec[spec.index(after: colon)...])
      do {
        lists.append(
          try TrustedList.verifying(
            try Files.read(path, limit: .trustedList), kind: kind, operatorCertificates: operators))
      } catch let error as TrustError {
        throw CommandFailure("the trusted list \(path) is refused: \(error.reason)")
      }
    }
    return lists
  }

  /// `issuer trust  QUERY: trusted by …` per credential (text output only).
  static func print(
    _ decisions: [String: [TrustDecision]], _ args: ParsedArguments, _ context: CommandContext
  ) {
    guard !args.flag("json") else { return }
    for (query, list) in decisions.sorted(by: { $0.key < $1.key }) {
      for decision in list {
        context.console.out("issuer trust  \(query): " + TrustDecisionText.describe(decision))
      }
    }
  }
}
