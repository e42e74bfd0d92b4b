import DCAPI
import DCCBOR
import DCJSON
import DCMdoc
import DCQL
import DCWallet

// The English a consent screen, a credential listing and a log line show: the library hands
// out values (`ConsentScreen`, `ClaimReference`, CBOR and JSON claim values), the command line
// words them.

extension PresentationRequest {
  /// A readable consent screen: who asks, whether they are verified, the credential sets and
  /// their options, and each requested item with intent to retain and the value that would be
  /// shared. `issuerTrust` (the stored credentials' trust levels, by id) marks each presented
  /// credential whose issuer no wallet anchor vouched for.
  func consentScreen(
    for consent: PresentationConsent, issuerTrust: [String: IssuerTrust] = [:]
  ) -> String {
    let text = screen(for: consent).text(issuerTrust: issuerTrust)
    guard let decision = requesterTrust else { return text }
    // Issue 29: what trusted the requester's chain (anchor, or list and entry), or why nothing
    // did, right below the requester line.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.insert(
      CBOR.terminalSafe(
        "- requester trust: " + TrustDecisionText.describe(decision, chainReasons: false)),
      at: min(2, lines.count))
    return lines.joined(separator: "\n")
  }
}

extension ConsentScreen {
  /// The screen as lines of text, in time linear in its size.
  var text: String { text(issuerTrust: [:]) }

  /// The screen as lines of text, each presented credential marked with its issuer's trust level
  /// when it is not `trusted` (issue 32).
  func text(issuerTrust: [String: IssuerTrust]) -> String {
    // In person (ISO 18013-5) there is no origin: the requester is a reader in radio range.
    // From an authorization request URI (issue 16) it is the client identifier.
    let asker = origin?.serialized ?? clientID ?? "a reader in person"
    var lines = ["\(asker) asks for credentials (\(protocolIdentifier))"]
    switch requester {
    case .verified(let name, _): lines.append("- requester: \(name) (verified)")
    case .unverified:
      if case .invalid = requesterAuthentication {
        lines.append("- requester: \(asker) (unverified: its signature does NOT verify)")
      } else {
        lines.append("- requester: \(asker) (unverified: no trusted identity)")
      }
    }
    lines += registrationLines()
    lines += credentialSetLines()
    for document in documents {
      lines += documentLines(for: document, issuerTrust: issuerTrust)
    }
    if !transactionDataTypes.isEmpty {
      lines.append("- transaction data: " + transactionDataTypes.joined(separator: ", "))
    }
    // Each entry is one line: a line feed inside a requester's or issuer's string is escaped, so
    // it cannot forge a line of the screen (issue 10 §7.3).
    return lines.map { CBOR.terminalSafe($0) }.joined(separator: "\n")
  }

  /// One line per credential set: its options, the answered one marked.
  private func credentialSetLines() -> [String] {
    credentialSets.enumerated().map { index, set in
      let options = set.options.enumerated().map { number, ids in
        let mark = set.answeredOption == number ? " <- answered" : ""
        return "option \(number + 1) [\(ids.joined(separator: ", "))]\(mark)"
      }
      return "- credential set \(index + 1) (\(set.required ? "required" : "optional")): "
        + options.joined(separator: " or ")
        + (set.answeredOption == nil ? " (not answered)" : "")
    }
  }

  /// A requested document: its types and reader authentication, then each presentation with
  /// its claims.
  private func documentLines(for document: Document, issuerTrust: [String: IssuerTrust])
    -> [String]
  {
    let isMdoc = document.format == DCQLFormat.msoMdoc
    let types =
      isMdoc
      ? document.types.map { "\(MdocDisplay.title(for: $0)) [\($0)]" } : document.types
    var lines = [
      "- \(document.id): \(document.format) \(types.joined(separator: ", "))"
        + Self.readerMark(document.authentication)
    ]
    if document.presentations.isEmpty { lines.append("  not shared") }
    if document.provenInZeroKnowledge, !document.presentations.isEmpty {
      lines.append(
        "  proven in zero knowledge: only the values below are disclosed; nothing else of the "
          + "credential (not the issuer's signature, other elements or the device key)")
    }
    for presentation in document.presentations {
      lines.append(
        "  from credential \(presentation.credentialID)"
          + Self.trustMark(issuerTrust[presentation.credentialID]))
      if presentation.claims.isEmpty {
        lines.append("    only what is always presented (no claims requested)")
      }
      for claim in presentation.claims {
        let format = isMdoc ? DCQLFormat.msoMdoc : DCQLFormat.sdJWTVC
        lines.append(
          Self.line(for: claim, format: format)
            + (isOverAsked(claim.path, format: format) ? " [OVER-ASKING: not registered]" : ""))
      }
    }
    return lines
  }

  /// How a document header shows its reader authentication.
  private static func readerMark(_ authentication: Authentication?) -> String {
    switch authentication {
    case .trusted(let name)?: ", reader \(name) (trusted)"
    case .untrusted?:
      // The chain's reason names the certificate's subject: an unestablished name stays off
      // the screen (the model keeps the reason for diagnostics).
      ", reader certificate NOT trusted (its name is not shown)"
    case .invalid?: ", reader signature INVALID (its name is not shown)"
    case .unsigned?: ", no reader authentication"
    case nil: ""
    }
  }

  /// A claim: its name, intent to retain, and the value shared.
  private static func line(for claim: Claim, format: String) -> String {
    let name = ClaimName.of(claim.path, format: format)
    let retain =
      claim.intentToRetain.map { $0 ? " (will be retained)" : " (not retained)" } ?? ""
    let shown: String
    switch (claim.shared, claim.value) {
    case (false, _): shown = "not shared"
    case (true, nil): shown = "-"
    case (true, .cbor(let value)?): shown = ValueText.describe(value)
    case (true, .json(let value)?): shown = ValueText.describe(value)
    }
    return "  \(name)\(retain): \(shown)"
  }
}

extension ConsentScreen {
  /// How a consent screen marks a credential's issuer trust: nothing when trusted (or unknown).
  static func trustMark(_ trust: IssuerTrust?) -> String {
    switch trust {
    case .issuerVouched?:
      " (issuer-vouched: only the issuer's own published IACAs or keys vouch for it)"
    case .unverified?: " (issuer unverified: no anchor vouches for it)"
    case .trusted?, nil: ""
    }
  }
}

extension Wallet {
  /// The stored credentials' issuer trust levels by id, for a consent screen.
  func issuerTrustByID() async throws -> [String: IssuerTrust] {
    var levels: [String: IssuerTrust] = [:]
    for credential in try await credentials() { levels[credential.id] = credential.issuerTrust }
    return levels
  }
}

/// Readable names of claims, as `--disclose` takes them: `NAMESPACE/ELEMENT` for mdoc claims,
/// dotted paths (`address.locality`, `nationalities.0`) for SD-JWT claims.
enum ClaimName {
  /// The name of a requested claims path (DCQL) for a credential format; `*` for all elements.
  static func of(requested path: [ClaimPathComponent], format: String) -> String {
    let parts = path.map { component -> String in
      switch component {
      case .key(let key): key
      case .index(let index): String(index)
      case .allElements: "*"
      }
    }
    return format == DCQLFormat.msoMdoc
      ? parts.joined(separator: "/") : parts.joined(separator: ".")
  }

  /// The name of a path for a credential format.
  static func of(_ path: ClaimPath, format: String) -> String {
    let parts = path.components.map { component -> String in
      switch component {
      case .key(let key): key
      case .index(let index): String(index)
      }
    }
    return format == DCQLFormat.msoMdoc
      ? parts.joined(separator: "/") : parts.joined(separator: ".")
  }

  /// The name of a claim reference.
  static func of(_ reference: ClaimReference) -> String {
    switch reference {
    case .mdoc(let nameSpace, let element): "\(nameSpace)/\(element)"
    case .json(let path): of(path, format: DCQLFormat.sdJWTVC)
    }
  }

  /// The claims the names denote among those the request can disclose; names that denote none
  /// are ignored (the wallet then refuses when nothing is left to share).
  static func references(_ names: [String], in request: PresentationRequest) -> Set<ClaimReference>
  {
    let wanted = Set(names)
    return Set(request.disclosableClaims.filter { wanted.contains(of($0)) })
  }
}

/// Short readable forms of claim values for screens and logs.
enum ValueText {
  /// A one-line description of a CBOR value; long byte strings are summarised.
  static func describe(_ value: CBOR) -> String {
    switch value.unwrapped {
    case .textString(let text): return text
    case .byteString(let bytes):
      return bytes.count > 32 ? "<\(bytes.count) bytes>" : value.diagnosticNotation
    case .boolean(let b): return b ? "yes" : "no"
    default:
      if let date = value.fullDate { return date.description }
      let text = value.diagnosticNotation
      return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
  }

  /// A one-line description of a JSON claim value.
  static func describe(_ value: ClaimValue) -> String {
    switch value {
    case .string(let text): return text
    case .bool(let b): return b ? "yes" : "no"
    default:
      let text = value.description
      return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }
  }
}

/// Display names for the document types this SDK knows.
enum MdocDisplay {
  /// The document titles by docType, for the wallet to store with an imported mdoc.
  static let titles = [
    "org.iso.18013.5.1.mDL": "Mobile driving licence",
    "eu.europa.ec.eudi.pid.1": "Person identification data",
    "eu.europa.ec.av.1": "Proof of age",
  ]

  static func title(for docType: String) -> String { titles[docType] ?? docType }
}

/// The English of the wallet's typed refusals.
enum RefusalText {
  /// Why no request of an envelope was answered: each request's protocol and reason, in order.
  static func describe(_ refusals: [Refusal]) -> String {
    "no request can be answered ("
      + refusals.map { refusal in
        guard refusal.code == .zeroKnowledgeProofUnsupported else {
          return "\(refusal.protocolIdentifier): \(refusal.reason)"
        }
        return "\(refusal.protocolIdentifier): refused: the verifier asks for a zero-knowledge "
          + "proof this wallet cannot make (no circuit for it: respond --zk-circuit FILE; or one "
          + "that does not prove these elements); "
          + "it does not answer with a disclosure instead [\(refusal.reason)]"
      }.joined(separator: "; ") + ")"
  }
}

/// The English of a holder-authentication prompt (the library passes the context as values).
enum HolderPromptText {
  /// "Share 1 document(s) with Test Reader": how many credentials, and the requester's verified
  /// name, or its origin (a redirect request: its client identifier) marked unverified.
  static func describe(_ context: HolderAuthenticationContext) -> String {
    let noun = context.protocolIdentifier == "org-iso-mdoc" ? "document(s)" : "credential(s)"
    let requester =
      switch context.requester {
      case .verified(let name, _): name
      case .unverified(let origin?): "\(origin.serialized) (unverified)"
      case .unverified(nil):
        context.clientID.map { "\($0) (unverified)" } ?? "a reader in person (unverified)"
      }
    return CBOR.terminalSafe("Share \(context.credentials.count) \(noun) with \(requester)")
  }
}
