import DCJSON
import DCQL
import DCTrust
import DCWallet
import DCX509

/// `--refuse-over-asking` and `--registrar-cert` (issue 29): which registration-certificate
/// providers (ETSI TS 119 475) the wallet trusts for this answer, and whether a request that asks
/// beyond its registration is refused.
enum RegistrationOptions {
  static let options: [CommandSpec.Option] = [
    .flag(
      "refuse-over-asking",
      "refuse a request whose registration certificate shows claims beyond the registration, names another relying party, or does not verify"
    ),
    registrarCertOption,
  ]

  /// `--registrar-cert PEM`, also on `issue`.
  static let registrarCertOption = CommandSpec.Option.value(
    "registrar-cert", "PEM", repeating: true,
    "trust this registration-certificate provider root for the relying party's registration certificate"
  )

  /// Sets the policy's providers and over-asking refusal from the arguments.
  static func apply(_ args: ParsedArguments, to policy: inout WalletPolicy) throws {
    policy.refusesOverAsking = args.flag("refuse-over-asking")
    policy.registrationCertificateProviders.anchors += try providerAnchors(args)
  }

  /// The `--registrar-cert` certificates as registration-certificate provider anchors.
  static func providerAnchors(_ args: ParsedArguments) throws -> [TrustAnchor] {
    var anchors: [TrustAnchor] = []
    for (index, path) in args.all("registrar-cert").enumerated() {
      for certificate in try Certificate.chain(fromPEM: try Files.text(path)) {
        anchors.append(
          TrustAnchor(
            id: "registrar-cert-\(index + 1)", certificate: certificate,
            purposes: [.registrationCertificateProvider]))
      }
    }
    return anchors
  }
}

extension ConsentScreen {
  /// The registration's lines: the registered name, intermediary, purpose, privacy policy and
  /// each over-asked claim, or why the certificate is not used.
  func registrationLines() -> [String] {
    switch registration {
    case .absent: return []
    case .invalid(let error):
      return ["- registration certificate INVALID (\(error.code)): \(error.reason)"]
    case .verified(let certificate, let binding, let comparison):
      var lines = [
        "- registered as: \(certificate.name)" + (certificate.legalName.map { " (\($0))" } ?? "")
      ]
      switch binding {
      case .bound: break
      case .boundThroughIntermediary(let intermediary, _):
        lines.append("  through the intermediary \(certificate.intermediary?.name ?? intermediary)")
      case .mismatch(let registered, let presented):
        lines.append(
          "  NOT the requester's registration: registered to \(registered), the requester is \(presented ?? "unidentified")"
        )
      case .noAccessCertificate:
        lines.append("  NOT bound: the requester has no trusted access certificate")
      }
      if let purpose = certificate.purpose.first(where: { $0.language.hasPrefix("en") })
        ?? certificate.purpose.first
      {
        lines.append("  purpose: \(purpose.value)")
      }
      if let privacyPolicy = certificate.privacyPolicy {
        lines.append("  privacy policy: \(privacyPolicy)")
      }
      for claim in comparison.overAsked {
        lines.append("  OVER-ASKING (not registered): \(Self.name(claim))")
      }
      return lines
    }
  }

  /// Whether a requested claim of a document is over-asked.
  func isOverAsked(_ path: ClaimPath, format: String) -> Bool {
    registration.overAsked.contains { claim in
      claim.path.components.map { component -> ClaimPath.Component? in
        switch component {
        case .key(let key): .key(key)
        case .index(let index): .index(index)
        case .allElements: nil
        }
      } == path.components.map { Optional($0) }
    }
  }

  static func name(_ claim: RegistrationRequestedClaim) -> String {
    let path: [ClaimPathComponent] = claim.path.components.map {
      switch $0 {
      case .key(let key): .key(key)
      case .index(let index): .index(index)
      case .allElements: .allElements
      }
    }
    switch claim.credential {
    case .mdoc(let docType):
      return path.isEmpty
        ? "all of \(docType)" : ClaimName.of(requested: path, format: DCQLFormat.msoMdoc)
    case .sdJWT(let types):
      return path.isEmpty
        ? "all of \(types.joined(separator: ", "))"
        : ClaimName.of(requested: path, format: DCQLFormat.sdJWTVC)
    }
  }
}
