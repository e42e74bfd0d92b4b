import DCAPI
import DCHTTP
import DCOpenID4VP
import DCWallet
import Foundation

enum PresentURICommand {
  static let spec = CommandSpec(
    path: "dcwallet present-uri",
    summary:
      "Answer an OpenID4VP authorization request URI (openid4vp://, haip-vp://, eudi-openid4vp://, eu-eaap://); prints the verifier's redirect_uri, if any.",
    options: [
      .value(
        "credential", "ID", repeating: true,
        "use these credentials; each credential set answers the first option they satisfy (default: the minimum)"
      ),
      .value(
        "disclose", "CLAIM", repeating: true,
        "disclose only these among the requested claims; others are ignored (mdoc: NAMESPACE/ELEMENT)"
      ),
      .flag(
        "require-trusted-verifier",
        "answer only verifiers authenticated through a trusted chain (refuses the redirect_uri prefix and posts nothing to it)"
      ),
      .flag(
        "loopback-aliases",
        "development only: an x509_san_dns:localhost verifier may take the answer at 127.0.0.1 or [::1] (default: the response_uri host must be the DNS name)"
      ),
      .flag("interactive", "show the request like a consent screen and ask before answering"),
    ] + RegistrationOptions.options + [
      .flag(
        "decline",
        "decline: post access_denied (with state) to the verifier's response_uri instead of answering"
      )
    ],
    positionals: ["URI"],
    discussion: """
      URI is the authorization request URI, as scanned from a QR code or opened. The request object is fetched from the URI's request_uri (GET, or POST with wallet_metadata
      and a fresh wallet_nonce when request_uri_method=post) and verified against the wallet's
      verifier trust anchors ('dcwallet trust add --verifier'); the answer is posted to its
      response_uri (direct_post, or direct_post.jwt encrypted to the verifier). https is required,
      except plain http to localhost, 127.0.0.1 and [::1]. An x509_san_dns verifier's
      response_uri host must be its DNS name exactly (localhost is not 127.0.0.1 unless
      --loopback-aliases is given), and a signed request object must be issued at most five
      minutes ago and valid for at most ten. Under --require-trusted-verifier nothing is posted
      to a verifier that is refused as unauthenticated.

      On success standard output holds only the verifier's redirect_uri, which is never opened
      (nothing for a cross-device request); standard error says what was sent to whom. A refusal,
      a failure or a declined request exits 1 with the reason on standard error. With --decline,
      or when the holder says no with --interactive, access_denied is posted: exit 0 (and the
      redirect_uri, if any) when the verifier accepted it, 1 with the reason otherwise.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let uri = args.positionals[0]
    let wallet = try context.wallet()
    var policy = wallet.policy
    policy.requireAuthenticatedRequester = args.flag("require-trusted-verifier")
    try RegistrationOptions.apply(args, to: &policy)
    let http = URLSessionHTTPClient(
      configuration: URLSessionHTTPClient.Configuration(policy: .development))
    let configuration = RedirectFlowConfiguration(
      requestPolicy: RedirectRequestPolicy(allowsLoopbackAliases: args.flag("loopback-aliases")))
    let request = try await resolve(
      uri, policy: policy, configuration: configuration, http: http, in: wallet)
    if args.flag("decline") {
      try await decline(request, wallet: wallet, http: http, context: context)
      return
    }
    let consent = try await RespondCommand.consent(args, for: request, in: wallet)
    if args.flag("interactive") {
      context.console.err(
        request.consentScreen(for: consent, issuerTrust: try await wallet.issuerTrustByID()))
      context.console.err("Share? [y/N] ")
      // The URI came as an argument, so the answer is read from standard input.
      let answer = Prompt.readAnswer(fromStandardInput: true)
      guard answer == "y" || answer == "yes" else {
        try await decline(request, wallet: wallet, http: http, context: context)
        return
      }
    }
    let outcome = try await wallet.respond(to: request, consent: consent, httpClient: http)
    // Standard output keeps only the redirect_uri; what was sent is for the person.
    context.console.errLine(sentSummary(request.screen(for: consent)))
    if let redirect = outcome.redirectURI { context.console.out(redirect.absoluteString) }
  }

  /// `sent to CLIENT_ID: pid (given_name, family_name)`: each credential presented and the claims
  /// it disclosed.
  static func sentSummary(_ screen: ConsentScreen) -> String {
    let presented = screen.documents.flatMap { document in
      document.presentations.map { presentation in
        let names = presentation.claims.filter(\.shared).map {
          ClaimName.of($0.path, format: document.format)
        }
        return presentation.credentialID
          + (names.isEmpty ? "" : " (" + names.joined(separator: ", ") + ")")
      }
    }
    let verifier = screen.clientID ?? screen.origin?.serialized ?? "the verifier"
    return "sent to \(verifier): " + presented.joined(separator: "; ")
  }

  /// Posts access_denied; exit 0 (printing the redirect_uri, if any) when the verifier accepted
  /// it, 1 otherwise.
  static func decline(
    _ request: PresentationRequest, wallet: Wallet, http: any HTTPClient, context: CommandContext
  ) async throws {
    let outcome: RedirectResponseOutcome
    do {
      outcome = try await wallet.decline(
        request, reason: "the holder declined", httpClient: http)
    } catch {
      throw CommandFailure("declined; the verifier did not accept access_denied: \(error.reason)")
    }
    if let redirect = outcome.redirectURI { context.console.out(redirect.absoluteString) }
  }

  /// Resolves the URI; a refusal is worded here.
  static func resolve(
    _ uri: String, policy: WalletPolicy, configuration: RedirectFlowConfiguration,
    http: any HTTPClient, in wallet: Wallet
  ) async throws -> PresentationRequest {
    do {
      return try await wallet.resolve(
        authorizationRequestURI: uri, httpClient: http, policy: policy,
        configuration: configuration)
    } catch {
      guard let refusal = error.refusals.first else { throw error }
      throw CommandFailure("the request cannot be answered: \(refusal.reason)")
    }
  }
}
