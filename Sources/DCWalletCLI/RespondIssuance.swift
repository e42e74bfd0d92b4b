import DCAPI
import DCHTTP
import DCJSON
import DCOpenID4VCI
import DCWallet
import Foundation

/// `dcwallet respond` given a create request (`navigator.credentials.create` with
/// `openid4vci-v1`): runs the issuance the offer carries, stores what verifies, and prints the
/// protocol's response on standard output; what was stored goes to standard error.
enum RespondIssuance {
  /// Whether the envelope is an issuance (create) request: it names an issuance protocol.
  static func isIssuance(_ envelope: RequestEnvelope) -> Bool {
    envelope.requests.contains { $0.issuanceProtocol != nil }
  }

  static func run(
    _ envelope: RequestEnvelope, origin: String, _ args: ParsedArguments, stdinUsed: Bool,
    _ context: CommandContext
  ) async throws {
    for option in ["credential", "disclose"] where args.values[option] != nil {
      throw UsageError(
        "--\(option) answers a presentation request, not an offer",
        command: RespondCommand.spec.path)
    }
    // Plain http only for an issuer on loopback (development), as `dcwallet issue` decides.
    let development = envelope.requests.contains {
      $0.issuanceProtocol != nil
        && ($0.data["credential_issuer"]?.string.flatMap(URL.init(string:))?.host)
          .map(HTTPURLPolicy.isLoopbackHost) ?? false
    }
    let request: DigitalCredentialOffer
    do {
      request = try DigitalCredentialOffer(
        envelope: envelope, origin: origin, urlPolicy: development ? .development : .standard,
        originPolicy: args.flag("any-origin") ? .anyOrigin : .sameOrigin)
    } catch {
      throw CommandFailure("the offer is refused: \(error.reason)")
    }
    let offer = request.offer
    if args.flag("interactive") {
      context.console.err(
        "\(request.origin.serialized) offers \(offer.credentialConfigurationIDs.joined(separator: ", "))"
          + " from \(offer.credentialIssuer.string).\nAdd to the wallet? [y/N] ")
      let answer = Prompt.readAnswer(fromStandardInput: !stdinUsed)
      guard answer == "y" || answer == "yes" else { throw CommandFailure("declined") }
    }
    let txCode = try offer.preAuthorizedCode.flatMap {
      try IssueCommand.transactionCode(for: $0, args, stdinUsed: stdinUsed, context)
    }
    let issuance = WalletIssuance(
      wallet: try context.wallet(), client: IssueCommand.client(development: development))
    let browser = args.value("browser")
    let result: WalletIssuanceResult
    do {
      result = try await issuance.issue(
        request, txCode: txCode,
        authorize: { url in
          // Standard output holds the response alone: the URL goes to standard error.
          try IssueCommand.redirectURL(
            url, browser: browser, stdinUsed: stdinUsed, json: true, context)
        },
        storage: WalletIssuance.StorageOptions(
          trustIssuerPublishedIACAs: args.flag("trust-issuer-iacas")))
    } catch {
      throw CommandFailure(error.reason)
    }
    for credential in result.stored {
      context.console.errLine(
        "stored \(credential.id)  \(credential.issuance?.configurationID ?? "")  \(credential.type)"
      )
    }
    for pending in result.deferred {
      context.console.errLine(
        "deferred \(pending.id) (\(pending.configurationID)): poll with 'dcwallet issue --deferred \(pending.id)'"
      )
    }
    for failure in result.failed {
      context.console.errLine("not stored: \(failure.configurationID): \(failure.reason)")
    }
    context.console.out(request.response.json.serialized())
  }
}
