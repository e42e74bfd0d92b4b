import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCTrust
import DCVerifier
import DCWallet
import DCX509
import Foundation

enum VerifierCommand {
  static let requestSpec = CommandSpec(
    path: "dcwallet verifier request",
    summary: "Make a DC API request as a relying party, and the state to verify its answer.",
    options: [
      .value(
        "protocol", "P", required: true,
        "org-iso-mdoc, openid4vp-v1-unsigned, openid4vp-v1-signed or openid4vp-v1-multisigned"),
      .value("dcql", "FILE", "OpenID4VP: the DCQL query (JSON)"),
      .value("response-mode", "MODE", "OpenID4VP: dc_api or dc_api.jwt (default dc_api.jwt)"),
      .value(
        "signer-key", "FILE", repeating: true,
        "OpenID4VP signed/multisigned: a request signing key (PEM)"),
      .value(
        "signer-cert", "FILE", repeating: true,
        "OpenID4VP: the PEM chain of the --signer-key at the same position"),
      .value("doctype", "T", repeating: true, "a document type to request (once per document)"),
      .value(
        "element", "NS/EL", repeating: true, "an element to request, for the most recent --doctype"),
      .value("retain", "NS/EL", repeating: true, "mark a requested element as to be retained"),
      .value("origin", "ORIGIN", "the verifier's own origin (default https://verifier.example)"),
      .value("reader-key", "FILE", "reader authentication key (PEM)"),
      .value(
        "reader-cert", "FILE", repeating: true, "reader certificate chain, leaf first (PEM or DER)"),
      RegistrationCertificateFile.option,
      .value(
        "out-request", "FILE", required: true, "where to write the request JSON for the wallet"),
      .value(
        "out-state", "FILE", required: true,
        "where to write the verifier state (holds a private key; mode 0600)"),
      .value(
        "out-key", "FILE",
        "also write the response decryption private key alone, as a JWK (mode 0600)"),
      .value(
        "zk", "EL", repeating: true,
        "ask for a zero-knowledge proof of this element instead of its disclosure (EL in org.iso.18013.5.1, or NS/EL), e.g. age_over_18"
      ),
      .value(
        "zk-circuit", "FILE", repeating: true,
        "with --zk: a Longfellow circuit file (zstd-compressed, as published) the verifier verifies with"
      ),
    ])
  static let verifySpec = CommandSpec(
    path: "dcwallet verifier verify", summary: "Open and verify a wallet's response.",
    options: [
      .value("state", "FILE", "the state written by 'verifier request'"),
      .value(
        "request", "FILE",
        "without --state: the request that was sent (any shape 'respond' reads)"),
      .value(
        "recipient-key", "FILE",
        "without --state: the verifier's private key for the response (P-256 JWK or PEM; not needed for an unencrypted dc_api response)"
      ),
      .value(
        "origin", "ORIGIN",
        "the verifier's origin as the wallet's platform reported it (compared exactly; required unless --zk-capture)"
      ),
      .value("response", "FILE", "the response JSON (default: standard input)"),
      .value("at", "RFC3339", "verify as of this time (default: now), e.g. 2025-06-01T12:00:00Z"),
      .value(
        "issuer-anchor", "FILE", repeating: true,
        "a trusted mdoc issuer: an IACA, or a document signer certificate itself (PEM or DER)"),
      .value(
        "sd-jwt-issuer-anchor", "FILE", repeating: true,
        "a trusted SD-JWT VC issuer anchor (PEM or DER)"),
      .value(
        "trusted-list", "KIND:FILE", repeating: true,
        "a trusted list (lote, tsl, lotl, vical, rical) whose issuers are trusted, e.g. lote:pid-providers.jws"
      ),
      .value(
        "list-operator-cert", "PEM", repeating: true,
        "the certificate the --trusted-list operators sign with (PEM or DER)"),
      .value(
        "status-list", "FILE", repeating: true,
        "a status list token (JWT or CWT) to use instead of fetching it, matched by its sub"),
      .flag("no-status-check", "do not check credential status (the report says it was skipped)"),
      .flag(
        "require-all-elements",
        "org-iso-mdoc: fail when a requested element was not returned (default: report it)"),
      .value(
        "zk-circuit", "FILE", repeating: true,
        "a Longfellow circuit file to verify zero-knowledge proofs with"
      ),
      .value(
        "zk-capture", "FILE",
        "verify a zero-knowledge answer captured as Google's verifier service takes it (Transcript, ZKDeviceResponseCBOR)"
      ),
      .flag("json", "print JSON"),
    ] + RevocationOptions.options,
    discussion: """
      A request made with --zk is answered with a zero-knowledge proof: give the same --zk-circuit
      files; the report names what was proven, by which issuer anchor, and that nothing else was
      disclosed. The document signer chain is checked against --issuer-anchor outside the proof.
      Give --state (written by 'verifier request'), or --request and --recipient-key for an exchange
      captured without a state (the request as sent and the verifier's private key). The origin is
      used exactly as given: it must be the one the platform reported to the wallet.
      A credential that references a status list (IETF Token Status List) has its status checked:
      the list is fetched from its uri (https, or http on loopback) unless --status-list gives it,
      and verified with the same issuer anchors as the credential. A revoked (invalid) or
      suspended credential fails the verification; an unknown status is reported and does not.
      A requested element the holder did not return is reported (not returned: NS/EL; --json:
      each document's notReturned) and fails the verification only with --require-all-elements.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard let sub = arguments.first else {
      throw UsageError(
        "verifier needs a subcommand: request, verify, serve or transaction",
        command: "dcwallet verifier")
    }
    let rest = Array(arguments.dropFirst())
    switch sub {
    case "request": try request(try context.parse(requestSpec, rest), raw: rest, context)
    case "verify": try await verify(try context.parse(verifySpec, rest), context)
    // Issue 16: the OpenID4VP redirect-flow verifier and its frontend.
    case "serve":
      try await VerifierServeCommand.serve(
        try context.parse(VerifierServeCommand.serveSpec, rest), context)
    case "transaction":
      try await VerifierServeCommand.transaction(
        try context.parse(VerifierServeCommand.transactionSpec, rest), context)
    case "--help", "-h":
      throw HelpShown(
        text: [
          requestSpec.help, verifySpec.help, VerifierServeCommand.serveSpec.help,
          VerifierServeCommand.transactionSpec.help,
        ].joined(separator: "\n\n"))
    default: throw UsageError("unknown verifier subcommand '\(sub)'", command: "dcwallet verifier")
    }
  }

  /// Pairs each --element with the --doctype before it, keeping the command-line order.
  static func itemsRequests(_ arguments: [String]) throws -> [ItemsRequest] {
    var requests: [(docType: String, elements: [(String, String)])] = []
    var retain = Set<String>()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      func value() -> String? {
        if let equals = argument.firstIndex(of: "=") {
          return String(argument[argument.index(after: equals)...])
        }
        index += 1
        return index < arguments.count ? arguments[index] : nil
      }
      if argument == "--doctype" || argument.hasPrefix("--doctype=") {
        requests.append((value() ?? "", []))
      } else if argument == "--element" || argument.hasPrefix("--element=") {
        let element = value() ?? ""
        let parts = element.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
          throw UsageError(
            "--element takes NAMESPACE/ELEMENT, not \"\(element)\"", command: requestSpec.path)
        }
        guard !requests.isEmpty else {
          throw UsageError("--element must follow a --doctype", command: requestSpec.path)
        }
        requests[requests.count - 1].elements.append((parts[0], parts[1]))
      } else if argument == "--retain" || argument.hasPrefix("--retain=") {
        retain.insert(value() ?? "")
      }
      index += 1
    }
    guard !requests.isEmpty else {
      throw UsageError("request at least one --doctype", command: requestSpec.path)
    }
    return try requests.map { request in
      try itemsRequest(request.docType, elements: request.elements, retain: retain)
    }
  }

  /// One doc request: its elements grouped by namespace in command-line order, each marked
  /// for retention when `--retain` named it.
  private static func itemsRequest(
    _ docType: String, elements: [(String, String)], retain: Set<String>
  ) throws -> ItemsRequest {
    guard !elements.isEmpty else {
      throw UsageError("--doctype \(docType) has no --element", command: requestSpec.path)
    }
    var nameSpaces: [(nameSpace: String, elements: [ItemsRequest.Element])] = []
    for (ns, element) in elements {
      let item = ItemsRequest.Element(
        element, intentToRetain: retain.contains("\(ns)/\(element)"))
      if let at = nameSpaces.firstIndex(where: { $0.nameSpace == ns }) {
        nameSpaces[at].elements.append(item)
      } else {
        nameSpaces.append((ns, [item]))
      }
    }
    return ItemsRequest(docType: docType, nameSpaces: nameSpaces)
  }

  static func request(_ args: ParsedArguments, raw: [String], _ context: CommandContext) throws {
    if !args.all("zk").isEmpty {
      try ZeroKnowledgeCommands.request(args, context)
      return
    }
    if let openID4VP = OpenID4VPProtocol(rawValue: args.value("protocol") ?? ""),
      openID4VP != .draft
    {
      try OpenID4VPVerifierCommands.request(args, protocol: openID4VP, context)
      return
    }
    guard args.value("protocol") == DigitalCredentialProtocol.orgIsoMdoc.rawValue else {
      throw UsageError(
        "--protocol must be org-iso-mdoc, openid4vp-v1-unsigned, openid4vp-v1-signed or openid4vp-v1-multisigned",
        command: requestSpec.path)
    }
    try annexCRequest(args, items: try itemsRequests(raw), context)
  }

  /// Writes an org-iso-mdoc request for `items` and its state.
  static func annexCRequest(
    _ args: ParsedArguments, items: [ItemsRequest], _ context: CommandContext
  ) throws {
    let origin = try WebOrigin(args.value("origin") ?? "https://verifier.example")
    var reader: AnnexCVerifier.ReaderCredentials?
    let registration = try RegistrationCertificateFile.read(args)
    if let keyPath = args.value("reader-key") {
      let chain = try Inputs.certificates(args.all("reader-cert"))
      guard !chain.isEmpty else {
        throw UsageError("--reader-key needs --reader-cert", command: requestSpec.path)
      }
      // ETSI TS 119 475 / ISO 18013-5: euWrprc rides in the ItemsRequest readerAuth signs.
      reader = .init(
        signer: try Inputs.privateKey(keyPath), chain: chain,
        registrationCertificate: registration)
    } else if registration != nil {
      throw UsageError(
        "--registration-cert needs --reader-key (readerAuth signs it)", command: requestSpec.path)
    }
    let state = try AnnexCVerifier.makeRequest(itemsRequests: items, origin: origin, reader: reader)
    let request = ProtocolRequest(
      protocolIdentifier: DigitalCredentialProtocol.orgIsoMdoc.rawValue, data: state.request.data)
    try Files.write(
      Array(
        JSONValue.object([
          ("protocol", .string(request.protocolIdentifier)), ("data", request.data),
        ]).serialized().utf8), to: args.value("out-request") ?? "")
    try SecretFile.create(Array(state.json.serialized().utf8), to: args.value("out-state") ?? "")
    if let keyPath = args.value("out-key") {
      try SecretFile.create(
        Array(JWK(privateKey: state.recipientPrivateKey).json.serialized().utf8), to: keyPath)
    }
    context.console.out(
      "wrote \(args.value("out-request") ?? "") and \(args.value("out-state") ?? "")")
  }

  /// The verification time: `--at`, else now.
  static func verificationTime(_ args: ParsedArguments) throws -> Date {
    guard let text = args.value("at") else { return Date() }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    throw UsageError(
      "--at takes an RFC 3339 date-time such as 2025-06-01T12:00:00Z, not \"\(text)\"",
      command: verifySpec.path)
  }

  static func verify(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let now = try verificationTime(args)
    let status = try VerifierStatusCheck.checking(args)
    // Issue 29: the issuer anchors and the issuers of every verified --trusted-list; the
    // report then names which one trusted each credential.
    let sources = try VerifierTrustLists.sources(args, at: now)
    // Only the lists' issuers go to both formats: each hand-given anchor stays with its format.
    var listsOnly = sources
    listsOnly.anchors = []
    let listed = listsOnly.anchorCertificates(for: .credentialIssuer, at: now)
    let mdocAnchors = try Inputs.certificates(args.all("issuer-anchor")) + listed
    if let capture = args.value("zk-capture") {
      try ZeroKnowledgeCommands.verifyCapture(
        capture, args: args, anchors: mdocAnchors, now: now, context)
      return
    }
    // The origin is used exactly as given (issue 10 §4): no normalisation on the verifier side.
    guard let origin = args.value("origin") else {
      throw UsageError("--origin is required", command: verifySpec.path)
    }
    guard !origin.isEmpty else {
      throw UsageError("--origin must not be empty", command: verifySpec.path)
    }
    let sdJWTAnchors = try Inputs.certificates(args.all("sd-jwt-issuer-anchor")) + listed
    guard let statePath = args.value("state") else {
      try await verifyCaptured(
        args, origin: origin, now: now, mdocAnchors: mdocAnchors, sdJWTAnchors: sdJWTAnchors,
        status: status, context)
      return
    }
    guard args.value("request") == nil, args.value("recipient-key") == nil else {
      throw UsageError(
        "give --state, or --request and --recipient-key, not both", command: verifySpec.path)
    }
    let stateJSON: JSONValue
    do {
      stateJSON = try JSONValue(parsing: try Files.read(statePath))
    } catch let error as JSONError {
      throw CommandFailure("verifier state is not JSON: \(error.reason)")
    }
    let response = try responseJSON(args, context)
    if let protocolID = stateJSON["protocol"]?.string,
      OpenID4VPProtocol(rawValue: protocolID) != nil
    {
      if (try? VerifierState(json: stateJSON))?.asksZeroKnowledge == true {
        try verifyOpenID4VPZeroKnowledge(
          response, savedState: stateJSON, origin: origin, args, anchors: mdocAnchors, now: now,
          context)
        return
      }
      let verified = try await verifyOpenID4VP(
        response, savedState: stateJSON, origin: origin, now: now, mdocAnchors: mdocAnchors,
        sdJWTAnchors: sdJWTAnchors, status: status, revocation: context.revocation)
      OpenID4VPVerifierCommands.print(verified, json: args.flag("json"), context)
      VerifierTrustLists.print(verified.issuerTrustDecisions(sources, at: now), args, context)
      return
    }
    let saved: AnnexCVerifier.State
    do {
      saved = try AnnexCVerifier.State(json: stateJSON)
    } catch {
      throw CommandFailure("verifier state: \(error.reason)")
    }
    // The response opens only under the transcript of the origin the wallet saw.
    let state = AnnexCVerifier.State(
      origin: origin, request: saved.request, recipientPrivateKey: saved.recipientPrivateKey)
    if ZeroKnowledgeCommands.asksZeroKnowledge(state.request.deviceRequest) {
      try verifyAnnexCZeroKnowledge(
        response, state: state, args, anchors: mdocAnchors, now: now, context)
      return
    }
    let result = try await verifyAnnexC(
      response: response, state: state, anchors: mdocAnchors, now: now, status: status,
      requireAllElements: args.flag("require-all-elements"), revocation: context.revocation)
    printAnnexC(result, json: args.flag("json"), context)
    VerifierTrustLists.print(
      ["documents": result.issuerTrustDecisions(sources, at: now)], args, context)
  }

  /// Verifies a zero-knowledge answer to an org-iso-mdoc request.
  private static func verifyAnnexCZeroKnowledge(
    _ response: JSONValue, state: AnnexCVerifier.State, _ args: ParsedArguments,
    anchors: [Certificate], now: Date, _ context: CommandContext
  ) throws {
    let verifier = try ZeroKnowledgeCommands.verifier(args, anchors: anchors)
    do {
      let (deviceResponse, transcript) = try AnnexCVerifier.openDeviceResponse(
        responseData: response["data"] ?? response, state: state)
      let prepared = try verifier.prepare(
        deviceResponse,
        requested: try RequestedZeroKnowledge.all(in: state.request.deviceRequest),
        sessionTranscript: transcript, now: now)
      try ZeroKnowledgeCommands.finish(
        (prepared.proofs, [.responseOpened(transcriptOrigin: state.origin)] + prepared.checks),
        verifier: verifier, json: args.flag("json"), context)
    } catch let error as VerifierError {
      throw CommandFailure("verification failed: \(error.reason)")
    }
  }

  /// Verifies a zero-knowledge answer to an OpenID4VP `mso_mdoc_zk` request.
  private static func verifyOpenID4VPZeroKnowledge(
    _ response: JSONValue, savedState stateJSON: JSONValue, origin: String,
    _ args: ParsedArguments, anchors: [Certificate], now: Date, _ context: CommandContext
  ) throws {
    let state: VerifierState
    do {
      state = try VerifierState(json: stateJSON)
    } catch {
      throw CommandFailure("verifier state: \(error.reason)")
    }
    guard origin == state.origin else {
      throw CommandFailure("the request was made for \(state.origin), not \(origin)")
    }
    let verifier = try ZeroKnowledgeCommands.verifier(args, anchors: anchors)
    do {
      let prepared = try state.prepareZeroKnowledge(
        response["data"] ?? response, verifier: verifier, now: now)
      try ZeroKnowledgeCommands.finish(
        prepared, verifier: verifier, json: args.flag("json"), context)
    } catch let error as VerifierError {
      throw CommandFailure("verification failed: \(error.reason)")
    }
  }

  /// Verifies an OpenID4VP response against a saved state made for `origin`.
  private static func verifyOpenID4VP(
    _ response: JSONValue, savedState stateJSON: JSONValue, origin: String, now: Date,
    mdocAnchors: [Certificate], sdJWTAnchors: [Certificate], status: StatusChecking,
    revocation: RevocationSettings?
  ) async throws -> VerifiedAuthorizationResponse {
    let state: VerifierState
    do {
      state = try VerifierState(json: stateJSON)
    } catch {
      throw CommandFailure("verifier state: \(error.reason)")
    }
    guard origin == state.origin else {
      throw CommandFailure("the request was made for \(state.origin), not \(origin)")
    }
    return try await OpenID4VPVerifierCommands.verify(
      response: response, state: state, mdocAnchors: mdocAnchors, sdJWTAnchors: sdJWTAnchors,
      now: now, status: status, revocation: revocation)
  }

  /// Reads the response JSON (`--response`, else standard input); `{"protocol", "data"}` or its
  /// data alone.
  static func responseJSON(_ args: ParsedArguments, _ context: CommandContext) throws -> JSONValue {
    let responseBytes =
      try args.value("response").map { try Files.read($0, limit: .response) }
      ?? context.console.readAll(limit: .response)
    do {
      return try JSONValue(parsing: responseBytes)
    } catch {
      throw CommandFailure("the response is not JSON: \(error.reason)")
    }
  }

  /// A private key for the response: a JWK (with `d`) or PEM; P-256.
  static func recipientKey(_ path: String) throws -> ECPrivateKey {
    let text = try Files.text(path).trimmingCharacters(in: .whitespacesAndNewlines)
    let key: ECPrivateKey
    if text.hasPrefix("{") {
      let json: JSONValue
      do {
        json = try JSONValue(parsing: text)
      } catch {
        throw CommandFailure("\(path) is not a private JWK: \(error.reason)")
      }
      do {
        key = try JWK(json: json).privateKey()
      } catch {
        throw CommandFailure("\(path) is not a private JWK: \(error.reason)")
      }
    } else {
      key = try Inputs.privateKey(path)
    }
    guard key.curve == .p256 else {
      throw CommandFailure("\(path): the response key must be on P-256, not \(key.curve.rawValue)")
    }
    return key
  }

  /// `verifier verify --request --recipient-key`: a captured exchange without a state.
  static func verifyCaptured(
    _ args: ParsedArguments, origin: String, now: Date, mdocAnchors: [Certificate],
    sdJWTAnchors: [Certificate], status: StatusChecking, _ context: CommandContext
  ) async throws {
    guard let requestPath = args.value("request") else {
      throw UsageError(
        "give --state, or --request and --recipient-key", command: verifySpec.path)
    }
    let envelope: RequestEnvelope
    do {
      envelope = try RequestEnvelope(json: try Files.read(requestPath, limit: .request))
    } catch let error as DigitalCredentialsError {
      throw CommandFailure("the request cannot be read: \(error.reason)")
    }
    // Optional only for an unencrypted (dc_api) OpenID4VP response.
    let key = try args.value("recipient-key").map(recipientKey)
    let response = try responseJSON(args, context)
    // The response envelope names the protocol it answers; without it, every entry we can
    // verify is a candidate.
    let answered = response["protocol"]?.string
    let candidates = envelope.requests.filter { request in
      request.knownProtocol != nil && (answered == nil || request.protocolIdentifier == answered)
    }
    guard !candidates.isEmpty else {
      if let answered {
        throw CommandFailure("the response answers \(answered), which the request does not ask")
      }
      throw CommandFailure("the request holds no org-iso-mdoc or OpenID4VP entry to verify")
    }
    var firstFailure: CommandFailure?
    for request in candidates {
      do {
        let verified = try await verifyCaptured(
          request, response: response, key: key, args, origin: origin, now: now,
          mdocAnchors: mdocAnchors, sdJWTAnchors: sdJWTAnchors, status: status, context)
        if verified { return }
      } catch let failure as CommandFailure {
        firstFailure = firstFailure ?? failure
      }
    }
    throw firstFailure ?? CommandFailure("nothing to verify")
  }

  /// Verifies the response against one captured request entry and prints the result; false
  /// when the entry's protocol is not one this command verifies.
  private static func verifyCaptured(
    _ request: ProtocolRequest, response: JSONValue, key: ECPrivateKey?, _ args: ParsedArguments,
    origin: String, now: Date, mdocAnchors: [Certificate], sdJWTAnchors: [Certificate],
    status: StatusChecking, _ context: CommandContext
  ) async throws -> Bool {
    if request.knownProtocol == .orgIsoMdoc {
      guard let key else {
        throw CommandFailure(
          "an org-iso-mdoc response is sealed to the verifier: give --recipient-key")
      }
      let state: AnnexCVerifier.State
      do {
        state = try AnnexCVerifier.State(
          sentRequest: request.data, origin: origin, recipientPrivateKey: key)
      } catch {
        throw CommandFailure("the org-iso-mdoc request: \(error.reason)")
      }
      let result = try await verifyAnnexC(
        response: response, state: state, anchors: mdocAnchors, now: now, status: status,
        requireAllElements: args.flag("require-all-elements"), revocation: context.revocation)
      printAnnexC(result, json: args.flag("json"), context)
      return true
    }
    guard let protocolID = OpenID4VPProtocol(rawValue: request.protocolIdentifier) else {
      return false
    }
    let state: VerifierState
    do {
      state = try VerifierState(
        sentRequest: request.data, protocolID: protocolID, origin: origin,
        recipientPrivateKey: key)
    } catch {
      throw CommandFailure("the \(protocolID.rawValue) request: \(error.reason)")
    }
    let verified = try await OpenID4VPVerifierCommands.verify(
      response: response, state: state, mdocAnchors: mdocAnchors,
      sdJWTAnchors: sdJWTAnchors, now: now, status: status, revocation: context.revocation)
    OpenID4VPVerifierCommands.print(verified, json: args.flag("json"), context)
    return true
  }

  static func verifyAnnexC(
    response: JSONValue, state: AnnexCVerifier.State, anchors: [Certificate], now: Date,
    status: StatusChecking, requireAllElements: Bool, revocation: RevocationSettings?
  ) async throws -> AnnexCVerifier.Result {
    let data = response["data"] ?? response
    // Issue 29: with --crl-fetch, the presented chains' distribution points are fetched first.
    let presented = revocation?.fetcher == nil ? [] : state.presentedCertificates(data)
    do {
      let result = try await revocation.inEffect(for: presented, issuers: anchors) {
        () async throws(VerifierError) in
        try await AnnexCVerifier.verify(
          responseData: data, state: state, issuerTrustAnchors: anchors, now: now,
          status: status)
      }
      return requireAllElements ? try result.requiringEveryRequestedElement() : result
    } catch {
      throw CommandFailure("verification failed: \(error.reason)")
    }
  }

  static func printAnnexC(_ result: AnnexCVerifier.Result, json: Bool, _ context: CommandContext) {
    if json {
      context.console.out(VerifierOutput.json(result).serialized())
    } else {
      for line in VerifierOutput.text(result) { context.console.out(line) }
    }
  }
}

enum VerifierOutput {
  static func json(_ result: AnnexCVerifier.Result) -> JSONValue {
    .object([
      ("verified", .bool(true)),
      (
        "documents",
        .array(
          result.documents.map { document in
            .object([
              ("docType", .string(document.docType)),
              ("issuer", .string(document.issuer.documentSigner.subject.description)),
              (
                "trust",
                .string(
                  {
                    switch document.trustBasis {
                    case .chain: "chain to a trusted IACA"
                    case .pinnedDocumentSigner: "pinned document signer (direct trust)"
                    }
                  }())
              ),
              (
                "elements",
                .object(
                  document.elements.map {
                    ("\($0.nameSpace)/\($0.identifier)", .string(ValueText.describe($0.value)))
                  })
              ),
              ("notReturned", .array(notReturned(document).map(JSONValue.string))),
            ])
          })
      ),
      (
        "checks",
        .array(
          result.report.checks.map {
            let text = VerificationCheckText.nameAndDetail($0)
            var fields: [(String, JSONValue)] = [
              ("check", .string(text.name)), ("passed", .bool(true)),
              ("detail", .string(detail(text.detail, of: $0, in: result))),
            ]
            if case .credentialStatus(_, let outcome) = $0 {
              fields.append(("status", VerifierStatusText.json(outcome)))
            }
            return .object(fields)
          })
      ),
    ])
  }

  static func text(_ result: AnnexCVerifier.Result) -> [String] {
    var lines: [String] = []
    for document in result.documents {
      lines.append("\(document.docType) from \(document.issuer.documentSigner.subject)")
      for element in document.elements {
        lines.append(
          "  \(element.nameSpace)/\(element.identifier): \(ValueText.describe(element.value))")
      }
      for name in notReturned(document) { lines.append("  \(name): not returned (requested)") }
    }
    // A failing check throws, so every check in the report passed.
    for check in result.report.checks {
      let text = VerificationCheckText.nameAndDetail(check)
      lines.append("ok  \(text.name): \(detail(text.detail, of: check, in: result))")
    }
    return lines
  }

  /// `NS/EL` of each element the document's request asked for and it does not hold.
  static func notReturned(_ document: AnnexCVerifier.VerifiedDocument) -> [String] {
    document.absentElements.map { "\($0.nameSpace)/\($0.identifier)" }
  }

  /// A check's detail; the disclosure check also names the requested elements not returned.
  static func detail(
    _ detail: String, of check: VerificationCheck, in result: AnnexCVerifier.Result
  ) -> String {
    guard case .onlyRequestedElements(let docType, _) = check,
      let document = result.documents.first(where: { $0.docType == docType }),
      !document.absentElements.isEmpty
    else { return detail }
    return detail + "; not returned: " + notReturned(document).joined(separator: ", ")
  }
}
