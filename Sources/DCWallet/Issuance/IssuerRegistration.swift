import DCOpenID4VCI
public import DCTrust
public import Foundation

extension IssuerContext {
  /// The issuer's registration certificate from its metadata's `issuer_info` (ETSI TS 119 472-3
  /// §4.2.3, format `registration_cert`), verified (ETSI TS 119 475 clause 5.2) against the
  /// registration-certificate providers of `providers` at `time`; nil when the metadata carries
  /// none. The first one is the issuer's.
  ///
  /// - Throws: `TrustError` as `RegistrationCertificate.verifying` does.
  public func registrationCertificate(providers: TrustSources, at time: Date) throws(TrustError)
    -> RegistrationCertificate?
  {
    guard let bytes = metadata.registrationCertificates.first else { return nil }
    return try RegistrationCertificate.verifying(bytes, sources: providers, at: time)
  }
}

/// What the wallet established about an issuer's registration (ETSI TS 119 475 v1.2.1) before
/// it asks the issuer for credentials: none published, one that does not verify, or a verified
/// one with the offered credential types it does not register.
package enum IssuerRegistrationCheck: Sendable, Hashable {
  /// The issuer's metadata carries no `issuer_info` registration certificate.
  case absent
  /// The registration certificate does not verify (signature, provider, validity, structure).
  case invalid(TrustError)
  /// A verified registration certificate; its binding to the certificate that signed the
  /// issuer's metadata (nil when the metadata was not signed with a certificate chain); and the
  /// offered credential types (an mdoc doctype or an SD-JWT VC `vct`) that its
  /// `provides_attestations` (Table 8) does not name.
  case verified(RegistrationCertificate, binding: RegistrationBinding?, unregistered: [String])

  /// The verified certificate, nil otherwise.
  package var certificate: RegistrationCertificate? {
    if case .verified(let certificate, _, _) = self { return certificate }
    return nil
  }

  /// Why a wallet that refuses unregistered issuers refuses this one, nil when it does not.
  package var refusalReason: String? {
    switch self {
    case .absent: return "the issuer publishes no registration certificate"
    case .invalid(let error):
      return "the issuer's registration certificate is invalid: \(error.reason)"
    case .verified(let certificate, let binding, let unregistered):
      if let binding, !binding.isBound {
        return "the registration of \(certificate.name) does not belong to the issuer (\(binding))"
      }
      guard unregistered.isEmpty else {
        return "\(certificate.name) is not registered to issue "
          + unregistered.joined(separator: ", ")
      }
      return nil
    }
  }
}

extension WalletIssuance {
  /// Checks the registration certificate `context`'s issuer publishes in `issuer_info` (ETSI TS
  /// 119 472-3 §4.2.3) against the wallet's registration-certificate providers (its policy's,
  /// `extraProviders` and the providers its stored trusted lists name) at the wallet's time, and
  /// compares the credentials offered (`configurationIDs`) with the attestations it registers.
  ///
  /// The issuer is identified by the registration's `provides_attestations` (ETSI TS 119 475
  /// v1.2.1 Table 8: an attestation provider's registration names the attestations it issues):
  /// a registration that does not name an offered doctype or `vct` is another party's for this
  /// issuance. When the metadata was signed (OpenID4VCI §12.2.3) and verified with an `x5c`
  /// chain, `sub` is bound to that chain's leaf as to an access certificate (Table 7); unsigned
  /// metadata authenticates no certificate, and `sub` is then not compared.
  package func issuerRegistration(
    _ context: IssuerContext, configurationIDs: [String], extraProviders: [TrustAnchor] = []
  ) async throws(WalletError) -> IssuerRegistrationCheck {
    var providers = try await wallet.withStoredTrust(wallet.policy)
      .registrationCertificateProviders
    providers.anchors += extraProviders
    let certificate: RegistrationCertificate
    do {
      guard
        let verified = try context.registrationCertificate(
          providers: providers, at: wallet.clock())
      else { return .absent }
      certificate = verified
    } catch {
      return .invalid(error)
    }
    let offered = context.metadata.credentialConfigurations.filter {
      configurationIDs.contains($0.id)
    }
    let unregistered = offered.compactMap { configuration -> String? in
      switch configuration.format {
      case .msoMdoc(let doctype):
        let registered = certificate.providedAttestations.contains {
          $0.format == "mso_mdoc" && $0.docType == doctype
        }
        return registered ? nil : doctype
      case .sdJWTVC(let vct):
        let registered = certificate.providedAttestations.contains {
          $0.format == "dc+sd-jwt" && $0.vctValues.contains(vct)
        }
        return registered ? nil : vct
      case .other(let name): return "\(configuration.id) (\(name))"
      }
    }
    // ETSI TS 119 475 Table 7: `sub` is the semantic identifier of the party's access
    // certificate; the issuer's authenticated certificate here is its metadata signer.
    let binding = context.metadataSignerChain.first.map { certificate.binding(to: $0) }
    return .verified(certificate, binding: binding, unregistered: unregistered)
  }
}
