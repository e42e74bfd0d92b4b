import CBOR
import CredentialVerifier
import CredentialWallet
import CryptoPrimitives
import DigitalCredentialsAPI
import Foundation
import JOSE
import Mdoc
import OpenID4VP
import X509Certificates

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
      .value(
        "out-request", "FILE", required: true, "where to write the request JSON for the wallet"),
      .value(
        "out-state", "FILE", required: true,
        "where to write the verifier state (holds a private key; mode 0600)"),
    ])
  static let verifySpec = CommandSpec(
    path: "dcwallet verifier verify", summary: "Open and verify a wallet's response.",
    options: [
      .value("state", "FILE", required: true, "the state written by 'verifier request'"),
      .value(
        "origin", "ORIGIN", required: true, "the verifier's origin, as the wallet's platform saw it"
      ),
      .value("response", "FILE", "the response JSON (default: standard input)"),
      .value("issuer-anchor", "FILE", repeating: true, "a trusted issuer IACA (PEM or DER)"),
      .flag("json", "print JSON"),
    ])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard let sub = arguments.first else {
      throw UsageError(
        "verifier needs a subcommand: request or verify", command: "dcwallet verifier")
    }
    let rest = Array(arguments.dropFirst())
    switch sub {
    case "request": try request(try context.parse(requestSpec, rest), raw: rest, context)
    case "verify": try verify(try context.parse(verifySpec, rest), context)
    case "--help", "-h": throw HelpShown(text: requestSpec.help + "\n\n" + verifySpec.help)
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
      guard !request.elements.isEmpty else {
        throw UsageError("--doctype \(request.docType) has no --element", command: requestSpec.path)
      }
      var nameSpaces: [(nameSpace: String, elements: [ItemsRequest.Element])] = []
      for (ns, element) in request.elements {
        let item = ItemsRequest.Element(
          element, intentToRetain: retain.contains("\(ns)/\(element)"))
        if let at = nameSpaces.firstIndex(where: { $0.nameSpace == ns }) {
          nameSpaces[at].elements.append(item)
        } else {
          nameSpaces.append((ns, [item]))
        }
      }
      return ItemsRequest(docType: request.docType, nameSpaces: nameSpaces)
    }
  }

  static func request(_ args: ParsedArguments, raw: [String], _ context: CommandContext) throws {
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
    let items = try itemsRequests(raw)
    let origin = try WebOrigin(args.value("origin") ?? "https://verifier.example")
    var reader: AnnexCVerifier.ReaderCredentials?
    if let keyPath = args.value("reader-key") {
      let chain = try Inputs.certificates(args.all("reader-cert"))
      guard !chain.isEmpty else {
        throw UsageError("--reader-key needs --reader-cert", command: requestSpec.path)
      }
      reader = .init(signer: try Inputs.privateKey(keyPath), chain: chain)
    }
    let state = try AnnexCVerifier.makeRequest(itemsRequests: items, origin: origin, reader: reader)
    let request = ProtocolRequest(
      protocolIdentifier: DigitalCredentialProtocol.orgIsoMdoc.rawValue, data: state.request.data)
    try Files.write(
      Array(
        JSONValue.object([
          ("protocol", .string(request.protocolIdentifier)), ("data", request.data),
        ]).serialized().utf8), to: args.value("out-request") ?? "")
    try Files.write(
      Array(state.json.serialized().utf8), to: args.value("out-state") ?? "", mode: 0o600)
    context.console.out(
      "wrote \(args.value("out-request") ?? "") and \(args.value("out-state") ?? "")")
  }

  static func verify(_ args: ParsedArguments, _ context: CommandContext) throws {
    let stateJSON: JSONValue
    do {
      stateJSON = try JSONValue(parsing: try Files.read(args.value("state") ?? ""))
    } catch let error as JOSEError {
      throw CommandFailure("verifier state is not JSON: \(error.reason)")
    }
    if let protocolID = stateJSON["protocol"]?.string,
      OpenID4VPProtocol(rawValue: protocolID) != nil
    {
      try OpenID4VPVerifierCommands.verify(args, stateJSON: stateJSON, context)
      return
    }
    let state: AnnexCVerifier.State
    do {
      state = try AnnexCVerifier.State(json: stateJSON)
    } catch {
      throw CommandFailure("verifier state: \(error.reason)")
    }
    let origin = try WebOrigin(args.value("origin") ?? "")
    let responseBytes = try args.value("response").map(Files.read) ?? context.console.readAll()
    let response: JSONValue
    do {
      response = try JSONValue(parsing: responseBytes)
    } catch {
      throw CommandFailure("the response is not JSON: \(error.reason)")
    }
    let data = response["data"] ?? response
    let anchors = try Inputs.certificates(args.all("issuer-anchor"))
    let stateForOrigin = AnnexCVerifier.State(
      origin: origin, request: state.request, recipientPrivateKey: state.recipientPrivateKey)
    let result: AnnexCVerifier.Result
    do {
      result = try AnnexCVerifier.verify(
        responseData: data, state: stateForOrigin, issuerTrustAnchors: anchors, now: Date())
    } catch {
      throw CommandFailure("verification failed: \(error.reason)")
    }
    if args.flag("json") {
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
          result.checks.map {
            .object([
              ("check", .string($0.name)), ("passed", .bool($0.passed)),
              ("detail", .string($0.detail)),
            ])
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
    }
    for check in result.checks {
      lines.append("\(check.passed ? "ok" : "FAILED")  \(check.name): \(check.detail)")
    }
    return lines
  }
}
