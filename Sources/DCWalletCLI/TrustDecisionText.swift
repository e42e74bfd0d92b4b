import DCJSON
import DCTrust
import Foundation

/// Trust decisions (issue 29) in words: what trusted a chain, or every reason nothing did.
enum TrustDecisionText {
  /// One line: `trusted by …` or `not trusted: …; …`. With `chainReasons` false (a requester's
  /// chain on a consent screen), a chain that validates to nothing is not explained: the reason
  /// names the chain's certificates, and an untrusted requester's self-chosen name must never be
  /// shown as if it identified the relying party.
  static func describe(_ decision: TrustDecision, chainReasons: Bool = true) -> String {
    switch decision {
    case .trusted(_, let source): "trusted by " + describe(source)
    case .untrusted(let refusals):
      "not trusted: "
        + refusals.map { describe($0, chainReasons: chainReasons) }.joined(separator: "; ")
    }
  }

  /// `("issuer_trust", "trusted by …")` for a verifier's JSON report, nothing when the issuer
  /// was not decided through trust sources.
  static func json(_ source: TrustSource?) -> [(key: String, value: JSONValue)] {
    source.map { [("issuer_trust", .string("trusted by " + describe($0)))] } ?? []
  }

  static func describe(_ source: TrustSource) -> String {
    switch source {
    case .anchor(let id, let subject): "the trust anchor \(id) (\(subject))"
    case .listEntry(let kind, let operatorName, let issued, let entity, let serviceType):
      "\(entity), \(article(service(serviceType))) in the \(kindName(kind)) of \(operatorName) "
        + "issued \(date(issued))"
    }
  }

  static func describe(_ refusal: TrustRefusal, chainReasons: Bool = true) -> String {
    switch refusal {
    case .noSourceForPurpose: "no anchor or trusted list covers this purpose"
    case .listDisabled(let kind, let operatorName):
      "the \(kindName(kind)) of \(operatorName) is not consulted (\(kind.rawValue) lists are disabled)"
    case .listStale(let kind, let operatorName, let nextUpdate):
      "the \(kindName(kind)) of \(operatorName) is stale (its next update was due \(date(nextUpdate)))"
    case .serviceNotGranted(let kind, let entity):
      "\(entity) is listed in the \(kindName(kind)) but its service is withdrawn"
    case .docTypeNotListed(let kind, let entity, let docType):
      "\(entity) is listed in the \(kindName(kind)) for other document types than \(docType)"
    case .chainNotValidated(let reason):
      chainReasons
        ? "the chain validates to no anchor or listed entity (\(reason))"
        : "the chain validates to no anchor or listed entity"
    }
  }

  /// `a` or `an` before a service's name.
  static func article(_ noun: String) -> String {
    ("aeiouAEIOU".contains(noun.first ?? "x") ? "an " : "a ") + noun
  }

  static func kindName(_ kind: TrustedListKind) -> String {
    switch kind {
    case .lote: "list of trusted entities"
    case .tsl: "trusted list"
    case .lotl: "list of trusted lists"
    case .vical: "VICAL"
    case .rical: "RICAL"
    }
  }

  static func service(_ type: TrustServiceType) -> String {
    switch type {
    case .pidProvider: "PID provider"
    case .walletProvider: "wallet provider"
    case .accessCertificateAuthority: "access certificate authority"
    case .registrationCertificateProvider: "registration certificate provider"
    case .mdocIssuingAuthority: "mdoc issuing authority"
    case .mdocReaderAuthority: "mdoc reader authority"
    case .attestationProvider: "attestation provider"
    case .other(let uri): "service of type \(uri)"
    }
  }

  static func date(_ date: Date) -> String {
    ISO8601DateFormatter.string(
      from: date, timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withInternetDateTime])
  }
}
