import DCAPI
import DCCBOR
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCVerifier
import DCX509
import Foundation

/// `dcwallet verifier request --zk` and `verifier verify` of a zero-knowledge answer (ISO 18013-5
/// 2nd edition `ZkRequest` / `ZkDocument`, Longfellow).
enum ZeroKnowledgeCommands {
  static let defaultNameSpace = "org.iso.18013.5.1"
  static let defaultDocType = "org.iso.18013.5.1.mDL"

  /// The circuits of `--zk-circuit`, each named by the id its content has.
  static func circuits(_ paths: [String], command: String) throws -> [ZeroKnowledgeCircuit] {
    guard !paths.isEmpty else {
      throw UsageError("--zk needs at least one --zk-circuit file", command: command)
    }
    return try paths.map { path in
      do {
        return try ZeroKnowledgeCircuit(compressed: try Files.read(path, limit: .circuit))
      } catch let error as VerifierError {
        throw CommandFailure("\(path): \(error.reason)")
      }
    }
  }

  /// The `--zk` elements: `EL` (in org.iso.18013.5.1) or `NS/EL`, all in one namespace.
  static func elements(_ values: [String], command: String) throws -> (String, [String]) {
    var nameSpace: String?
    var elements: [String] = []
    for value in values {
      let parts = value.split(separator: "/", maxSplits: 1).map(String.init)
      let (ns, element) = parts.count == 2 ? (parts[0], parts[1]) : (defaultNameSpace, value)
      guard !element.isEmpty, nameSpace == nil || nameSpace == ns else {
        throw UsageError(
          "--zk elements must share one namespace (a Longfellow proof takes one)",
          command: command)
      }
      nameSpace = ns
      elements.append(element)
    }
    return (nameSpace ?? defaultNameSpace, elements)
  }

  /// `verifier request --zk`: an org-iso-mdoc DeviceRequest whose ItemsRequest carries
  /// `zkRequest`, or an OpenID4VP request with an `mso_mdoc_zk` Credential Query.
  static func request(_ args: ParsedArguments, _ context: CommandContext) throws {
    let path = VerifierCommand.requestSpec.path
    let (nameSpace, elements) = try elements(args.all("zk"), command: path)
    let docTypes = args.all("doctype")
    guard docTypes.count <= 1, args.all("element").isEmpty else {
      throw UsageError(
        "--zk takes at most one --doctype and no --element: the proof discloses the --zk elements",
        command: path)
    }
    let docType = docTypes.first ?? defaultDocType
    let verifier = ZeroKnowledgeVerifier(
      circuits: try circuits(args.all("zk-circuit"), command: path), issuerTrustAnchors: [])
    if let openID4VP = OpenID4VPProtocol(rawValue: args.value("protocol") ?? ""),
      openID4VP != .draft
    {
      let query: JSONValue
      do {
        query = .object([
          (
            "credentials",
            .array([
              try verifier.dcqlCredentialQuery(
                id: "zk", docType: docType, nameSpace: nameSpace, elements: elements)
            ])
          )
        ])
      } catch {
        throw CommandFailure(error.reason)
      }
      try OpenID4VPVerifierCommands.request(args, protocol: openID4VP, dcqlQuery: query, context)
      return
    }
    let items: ItemsRequest
    do {
      items = try verifier.itemsRequest(docType: docType, nameSpace: nameSpace, elements: elements)
    } catch {
      throw CommandFailure(error.reason)
    }
    try VerifierCommand.annexCRequest(args, items: [items], context)
  }

  /// Whether an Annex C request asks for a zero-knowledge proof.
  static func asksZeroKnowledge(_ request: DeviceRequest) -> Bool {
    request.docRequests.contains { (try? $0.itemsRequest.zkRequest) != nil }
  }

  /// The verifier of `verifier verify`: `--zk-circuit` and the mdoc issuer anchors.
  static func verifier(_ args: ParsedArguments, anchors: [Certificate]) throws
    -> ZeroKnowledgeVerifier
  {
    ZeroKnowledgeVerifier(
      circuits: try circuits(args.all("zk-circuit"), command: VerifierCommand.verifySpec.path),
      issuerTrustAnchors: anchors)
  }

  /// Verifies prepared proofs and prints the outcome: every check outside the proof, then the
  /// proof's; when the proof cannot be checked here, the checks that passed and why nothing is
  /// verified.
  static func finish(
    _ prepared: (proofs: [PreparedProof], checks: [VerificationCheck]),
    verifier: ZeroKnowledgeVerifier, json: Bool, _ context: CommandContext
  ) throws {
    let result: ZeroKnowledgeVerifier.Result
    do {
      result = try verifier.checkProofs(prepared)
    } catch {
      guard error.code == .proofSystemUnavailable else {
        throw CommandFailure("verification failed: \(error.reason)")
      }
      for check in prepared.checks {
        let text = VerificationCheckText.nameAndDetail(check)
        context.console.out("ok  \(text.name): \(text.detail)")
      }
      throw CommandFailure(
        "not verified: every check outside the zero-knowledge proof passed, but this build has "
          + "no Longfellow verifier, so the proof was not checked")
    }
    if json {
      context.console.out(ZeroKnowledgeOutput.json(result).serialized())
    } else {
      for line in ZeroKnowledgeOutput.text(result) { context.console.out(line) }
    }
  }

  /// `verifier verify --zk-capture`: a ZK answer captured as Google's verifier service takes it
  /// (`{"Transcript": base64 SessionTranscript, "ZKDeviceResponseCBOR": base64 DeviceResponse}`),
  /// without the request: every configured circuit and the disclosed elements count as asked.
  static func verifyCapture(
    _ path: String, args: ParsedArguments, anchors: [Certificate], now: Date,
    _ context: CommandContext
  ) throws {
    let (transcript, response) = try readCapture(path)
    let verifier = try verifier(args, anchors: anchors)
    let requested = response.zkDocuments.map { document in
      RequestedZeroKnowledge(
        docType: document.documentData.docType,
        zkSystemIds: verifier.circuits.map(\.spec.zkSystemId),
        elements: document.documentData.disclosedElements.map {
          ($0.nameSpace, $0.item.elementIdentifier)
        })
    }
    do {
      let prepared = try verifier.prepare(
        response, requested: requested, sessionTranscript: transcript, now: now)
      try finish(prepared, verifier: verifier, json: args.flag("json"), context)
    } catch let error as VerifierError {
      throw CommandFailure("verification failed: \(error.reason)")
    }
  }

  /// The SessionTranscript and DeviceResponse of a verifier-service capture.
  static func readCapture(_ path: String) throws -> (SessionTranscript, DeviceResponse) {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: try Files.read(path, limit: .response))
    } catch let error as JSONError {
      throw CommandFailure("\(path) is not JSON: \(error.reason)")
    }
    guard let transcriptText = json["Transcript"]?.string,
      let responseText = json["ZKDeviceResponseCBOR"]?.string,
      let transcriptBytes = Data(base64Encoded: transcriptText),
      let responseBytes = Data(base64Encoded: responseText)
    else {
      throw CommandFailure(
        "\(path) must hold Transcript and ZKDeviceResponseCBOR, both base64")
    }
    do {
      return (
        try SessionTranscript(bytes: Array(transcriptBytes)),
        try DeviceResponse(bytes: Array(responseBytes))
      )
    } catch {
      throw CommandFailure("\(path): \(error.reason)")
    }
  }
}

/// The words and JSON of a zero-knowledge verification.
enum ZeroKnowledgeOutput {
  static func issuerText(_ document: ZeroKnowledgeVerifier.ProvenDocument) -> String {
    switch document.trust {
    case .chain(let path): "an issuer under anchor \(path.anchor.subject)"
    case .pinnedDocumentSigner: "the pinned document signer \(document.documentSigner.subject)"
    }
  }

  static func text(_ result: ZeroKnowledgeVerifier.Result) -> [String] {
    var lines: [String] = []
    for document in result.documents {
      lines.append(
        "\(document.docType): proven in zero knowledge by \(issuerText(document)) "
          + "(valid at \(document.timestamp), circuit \(document.zkSystemId))")
      for element in document.elements {
        lines.append("  \(element.identifier) = \(ValueText.describe(element.value))")
      }
      lines.append("  nothing else disclosed: no other element, no issuer signature")
    }
    for check in result.report.checks {
      let text = VerificationCheckText.nameAndDetail(check)
      lines.append("ok  \(text.name): \(text.detail)")
    }
    return lines
  }

  static func json(_ result: ZeroKnowledgeVerifier.Result) -> JSONValue {
    .object([
      ("verified", .bool(true)), ("zeroKnowledge", .bool(true)),
      (
        "documents",
        .array(
          result.documents.map { document in
            .object([
              ("docType", .string(document.docType)),
              ("issuer", .string(document.documentSigner.subject.description)),
              ("trust", .string(issuerText(document))),
              ("zkSystemId", .string(document.zkSystemId)),
              ("timestamp", .string(document.timestamp)),
              (
                "elements",
                .object(
                  document.elements.map {
                    ("\($0.nameSpace)/\($0.identifier)", .string(ValueText.describe($0.value)))
                  })
              ),
            ])
          })
      ),
      (
        "checks",
        .array(
          result.report.checks.map {
            let text = VerificationCheckText.nameAndDetail($0)
            return .object([("check", .string(text.name)), ("detail", .string(text.detail))])
          })
      ),
    ])
  }
}
