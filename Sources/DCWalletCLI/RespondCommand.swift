import DCAPI
import DCJOSE
import DCJSON
import DCWallet
import Foundation

enum RespondCommand {
  static let spec = CommandSpec(
    path: "dcwallet respond",
    summary: "Answer a DC API request; prints {\"protocol\", \"data\"} on standard output.",
    options: [
      .value(
        "origin", "ORIGIN", required: true, "the origin the platform reported (https://host[:port])"
      ),
      .value("request", "FILE", "the request JSON (default: standard input)"),
      .value(
        "credential", "ID", repeating: true,
        "use these credentials; each credential set answers the first option they satisfy (default: the minimum)"
      ),
      .value(
        "disclose", "CLAIM", repeating: true,
        "disclose only these among the requested claims; others are ignored (mdoc: NAMESPACE/ELEMENT)"
      ),
      .flag(
        "require-trusted-reader",
        "answer only requesters authenticated through a trusted chain: Annex C readers, signed OpenID4VP verifiers"
      ),
      .flag("interactive", "show the request like a consent screen and ask before answering"),
      .value(
        "zk-circuit", "FILE", repeating: true,
        "a Longfellow circuit (zstd, as published) to answer a zero-knowledge request with a proof"
      ),
    ] + RegistrationOptions.options + [
      .flag(
        "error-response",
        "when the holder declines an OpenID4VP request, print its access_denied response (still exit 1)"
      ),
      .value(
        "tx-code", "CODE",
        "an offer (create request): the transaction code of its pre-authorized grant"),
      .value(
        "browser", "CMD",
        "an offer: run CMD with the authorization URL; its last output line is the redirect URL"),
      .flag(
        "any-origin",
        "an offer: accept it from a page at another origin than its credential issuer"),
      .flag(
        "trust-issuer-iacas",
        "an offer: trust the IACAs the issuer publishes, this issuance only (issuer-vouched)"),
    ] + RevocationOptions.options,
    discussion: """
      The request is one protocol request {"protocol": P, "data": D} or the list a website passes,
      {"requests": [...]}, where D is an object or a JSON string. The first request the wallet can
      satisfy is answered. A refusal exits 1 with a reason on standard error and nothing on standard
      output; only the activity log records it.
      A create request (navigator.credentials.create with openid4vci-v1, or a historical alias)
      carries a credential offer: the issuance runs (pre-authorized code, or authorization code
      through --browser), what verifies is stored (listed on standard error), and the protocol's
      response {"protocol", "data": {"status": "offer_accepted"}} is printed. By default the
      offer's credential issuer must be at ORIGIN.
      An org-iso-mdoc request that asks for a zero-knowledge proof (zkRequest) is answered with a
      Longfellow proof when a --zk-circuit file is the circuit it names and proves the requested
      elements: the DeviceResponse then holds a ZkDocument with those elements' values and the
      proof, nothing else of the mdoc. Otherwise it is refused, never answered with a disclosure.
      Proving takes seconds (a release build: about 6 s for one attribute).
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let origin = args.value("origin") ?? ""
    let interactive = args.flag("interactive")
    let requestBytes: [UInt8]
    if let path = args.value("request") {
      requestBytes = try Files.read(path, limit: .request)
    } else {
      requestBytes = try context.console.readAll(limit: .request)
    }
    let envelope: RequestEnvelope
    do {
      envelope = try RequestEnvelope(json: requestBytes)
    } catch {
      throw CommandFailure("the request cannot be read: \(error.reason)")
    }
    if RespondIssuance.isIssuance(envelope) {
      try await RespondIssuance.run(
        envelope, origin: origin, args, stdinUsed: args.value("request") == nil, context)
      return
    }
    let wallet = try context.wallet(
      zeroKnowledgeCircuits: try proverCircuits(args.all("zk-circuit")))
    var policy = wallet.policy
    policy.requireAuthenticatedRequester = args.flag("require-trusted-reader")
    try RegistrationOptions.apply(args, to: &policy)
    let request = try await resolve(envelope, origin: origin, policy: policy, in: wallet)
    let consent = try await RespondCommand.consent(args, for: request, in: wallet)
    if interactive {
      context.console.err(
        request.consentScreen(for: consent, issuerTrust: try await wallet.issuerTrustByID()))
      context.console.err("Share? [y/N] ")
      let answer = Prompt.readAnswer(fromStandardInput: args.value("request") != nil)
      guard answer == "y" || answer == "yes" else {
        await wallet.logRefusal(request, reason: "declined by the user")
        if args.flag("error-response"),
          let declined = request.declinedResponse(reason: "the holder declined")
        {
          context.console.out(declined.json.serialized())
        }
        throw CommandFailure("declined")
      }
    }
    let response = try await wallet.respond(to: request, consent: consent)
    context.console.out(response.json.serialized())
  }
}

extension RespondCommand {
  /// The circuits of `--zk-circuit`.
  static func proverCircuits(_ paths: [String]) throws -> [ZeroKnowledgeProverCircuit] {
    try paths.map { path in
      do {
        return try ZeroKnowledgeProverCircuit(compressed: try Files.read(path, limit: .circuit))
      } catch let error as WalletError {
        throw CommandFailure("\(path): \(error.reason)")
      }
    }
  }

  /// The consent `--credential` and `--disclose` choose (the request's minimum when absent);
  /// a choice the request does not allow is logged as a refusal and thrown. `respond` and
  /// `present-uri` share it.
  static func consent(
    _ args: ParsedArguments, for request: PresentationRequest, in wallet: Wallet
  ) async throws -> PresentationConsent {
    let names = args.all("disclose")
    do {
      return try request.consent(
        ConsentSelection(
          credentialIDs: args.all("credential"),
          claims: names.isEmpty ? nil : ClaimName.references(names, in: request)))
    } catch {
      let reason =
        await SelectionRefusalText.explain(
          credentialIDs: args.all("credential"), disclose: names, request: request,
          wallet: wallet) ?? error.reason
      await wallet.logRefusal(request, reason: reason)
      throw CommandFailure(reason)
    }
  }

  /// Resolves the envelope; when every request was refused, the refusals are worded here.
  static func resolve(
    _ envelope: RequestEnvelope, origin: String, policy: WalletPolicy, in wallet: Wallet
  ) async throws -> PresentationRequest {
    do {
      return try await wallet.resolve(envelope, origin: origin, policy: policy)
    } catch {
      guard error.refusals.isEmpty else {
        throw CommandFailure(RefusalText.describe(error.refusals))
      }
      throw error
    }
  }
}

enum Prompt {
  /// Reads one answer line: from standard input when the request came from a file, else from the
  /// terminal, since standard input held the request.
  static func readAnswer(fromStandardInput: Bool) -> String {
    if fromStandardInput {
      return (readLine() ?? "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
    guard let tty = FileHandle(forReadingAtPath: "/dev/tty") else { return "" }
    defer { try? tty.close() }
    var line = [UInt8]()
    while let chunk = try? tty.read(upToCount: 1), let byte = chunk.first, byte != 0x0a {
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      .lowercased()
  }
}
