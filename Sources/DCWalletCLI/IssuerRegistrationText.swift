import DCOpenID4VCI
import DCTrust
import DCWallet

/// `dcwallet issue`: the issuer's registration (issue 29, ETSI TS 119 475 v1.2.1) shown on
/// standard error before anything is requested or stored, and `--refuse-unregistered-issuer`.
enum IssuerRegistrationText {
  /// Reads and checks the issuer's `issuer_info`, prints what it established, and refuses
  /// under `--refuse-unregistered-issuer` when the registration is missing, invalid or does not
  /// register an offered credential. Without the flag a metadata fetch that fails is left to the
  /// issuance, which reports it.
  static func check(
    _ offer: CredentialOffer, _ issuance: WalletIssuance, configurations: [String],
    _ args: ParsedArguments, _ context: CommandContext
  ) async throws {
    let refuses = args.flag("refuse-unregistered-issuer")
    let metadata: IssuerContext
    do {
      metadata = try await issuance.client.issuerMetadata(offer.credentialIssuer)
    } catch {
      guard refuses else { return }
      throw CommandFailure("refused the issuer: its metadata: \(error.reason)")
    }
    let check = try await issuance.issuerRegistration(
      metadata, configurationIDs: configurations,
      extraProviders: try RegistrationOptions.providerAnchors(args))
    for line in lines(check) { context.console.errLine(line) }
    if refuses, let reason = check.refusalReason {
      throw CommandFailure("refused the issuer: \(reason)")
    }
  }

  static func lines(_ check: IssuerRegistrationCheck) -> [String] {
    switch check {
    case .absent:
      // Most issuers publish none yet: say nothing (the authorization URL stays the first line
      // on standard error); --refuse-unregistered-issuer says it when it refuses.
      return []
    case .invalid(let error):
      return ["issuer registration INVALID (\(error.code)): \(error.reason)"]
    case .verified(let certificate, let binding, let unregistered):
      var lines = [
        "issuer registered as: \(certificate.name)"
          + (certificate.legalName.map { " (\($0))" } ?? "")
      ]
      if let purpose = certificate.purpose.first(where: { $0.language.hasPrefix("en") })
        ?? certificate.purpose.first
      {
        lines.append("  purpose: \(purpose.value)")
      }
      if let privacyPolicy = certificate.privacyPolicy {
        lines.append("  privacy policy: \(privacyPolicy)")
      }
      if case .mismatch(let registered, let presented) = binding {
        lines.append(
          "  NOT the issuer's registration: registered to \(registered), the metadata is signed by \(presented ?? "an unidentified certificate")"
        )
      }
      for type in unregistered { lines.append("  NOT registered to issue: \(type)") }
      return lines
    }
  }
}
