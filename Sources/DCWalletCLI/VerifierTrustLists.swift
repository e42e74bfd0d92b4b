import DCTrust
import DCX509
import Foundation

/// `verifier verify --trusted-list KIND:FILE --list-operator-cert PEM` (issue 29): lists
/// verified against their operators, whose issuers the verification trusts, and the report's
/// line naming what trusted each credential's issuer.
enum VerifierTrustLists {
  /// The anchors given (`--issuer-anchor`, `--sd-jwt-issuer-anchor`) and the verified lists.
  static func sources(_ args: ParsedArguments, at now: Date) throws -> TrustSources {
    var anchors: [TrustAnchor] = []
    for (index, certificate) in try Inputs.certificates(
      args.all("issuer-anchor") + args.all("sd-jwt-issuer-anchor")
    ).enumerated() {
      anchors.append(
        TrustAnchor(
          id: "issuer anchor \(index + 1)", certificate: certificate,
          purposes: [.credentialIssuer]))
    }
    let specs = args.all("trusted-list")
    guard !specs.isEmpty else { return TrustSources(anchors: anchors) }
    let operators = try Inputs.certificates(args.all("list-operator-cert"))
    guard !operators.isEmpty else {
      throw UsageError(
        "--trusted-list needs --list-operator-cert", command: VerifierCommand.verifySpec.path)
    }
    var lists: [TrustedList] = []
    for spec in specs {
      guard let colon = spec.firstIndex(of: ":"),
        let kind = TrustedListKind(rawValue: String(spec[..<colon]))
      else {
        throw UsageError(
          "--trusted-list is KIND:FILE with KIND lote, tsl, lotl, vical or rical, not \(spec)",
          command: VerifierCommand.verifySpec.path)
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
    return TrustSources(anchors: anchors, lists: lists)
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
