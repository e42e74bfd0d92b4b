import DCMdoc
import DCOpenID4VP
import DCQL
public import DCTrust
import DCX509
import Foundation

/// What the wallet established about the relying party's registration (ETSI TS 119 475 v1.2.1):
/// no certificate, one that failed, or a verified one with its binding to the requester and the
/// request compared with it. Recorded and never thrown; ``WalletPolicy/refusesOverAsking``
/// decides whether it refuses, a consent screen shows it.
public enum RelyingPartyRegistration: Sendable, Hashable {
  /// The request carries no registration certificate.
  case absent
  /// The request carries a registration certificate that does not verify (signature, provider,
  /// validity, structure), with why.
  case invalid(TrustError)
  /// A verified registration certificate, whether it belongs to the requester, and each
  /// requested claim within it or over-asked.
  case verified(
    RegistrationCertificate, binding: RegistrationBinding, comparison: RegistrationComparison)

  /// The verified certificate, nil otherwise.
  public var certificate: RegistrationCertificate? {
    if case .verified(let certificate, _, _) = self { return certificate }
    return nil
  }

  /// The claims requested beyond the registration (empty unless verified).
  public var overAsked: [RegistrationRequestedClaim] {
    if case .verified(_, _, let comparison) = self { return comparison.overAsked }
    return []
  }

  /// Why ``WalletPolicy/refusesOverAsking`` refuses the request, nil when it does not: a
  /// verified certificate that over-asks, belongs to someone else, or cannot be bound; a
  /// certificate that does not verify. A request without one is not refused for it.
  package var refusalReason: String? {
    switch self {
    case .absent: return nil
    case .invalid(let error): return "the registration certificate is invalid: \(error.reason)"
    case .verified(_, let binding, let comparison):
      guard binding.isBound else {
        return "the registration certificate does not belong to the requester (\(binding))"
      }
      guard comparison.isWithinRegistration else {
        return "the request asks for \(comparison.overAsked.count) claim(s) beyond the registration"
      }
      return nil
    }
  }
}

extension PresentationRequest {
  /// Reads, verifies, binds and compares the registration certificate a request carries:
  /// OpenID4VP `verifier_info` (DC API and redirect), or the DeviceRequest's `euWrprc` (Annex C,
  /// in person).
  static func resolveRegistration(
    of kind: Kind, requesterCertificates: [Certificate], documents: [ConsentScreen.Document],
    providers: TrustSources, at time: Date
  ) -> RelyingPartyRegistration {
    let bytes: [UInt8]?
    do {
      bytes = try registrationCertificateBytes(of: kind)
    } catch {
      return .invalid(TrustError(.malformed, "\(error)", underlying: error))
    }
    guard let bytes else { return .absent }
    let certificate: RegistrationCertificate
    do {
      certificate = try RegistrationCertificate.verifying(bytes, sources: providers, at: time)
    } catch {
      return .invalid(error)
    }
    return .verified(
      certificate, binding: certificate.binding(to: requesterCertificates.first),
      comparison: certificate.compare(documents.flatMap(requestedClaims)))
  }

  private static func registrationCertificateBytes(of kind: Kind) throws -> [UInt8]? {
    switch kind {
    case .mdoc(let presentation):
      return try presentation.resolved.deviceRequest.registrationCertificate()
    case .inPerson(let presentation):
      return try presentation.resolved.deviceRequest.registrationCertificate()
    case .openID4VP(let presentation):
      let info =
        presentation.request.redirect?.verifierInfo ?? presentation.request.dcAPI?.verifierInfo
      // More than one registration certificate: the first is the relying party's.
      return try VerifierInfo.registrationCertificates(in: info).first
    }
  }

  /// A document's requested claims as a registration names them; a Credential Query without
  /// claims asks for the whole credential.
  private static func requestedClaims(_ document: ConsentScreen.Document)
    -> [RegistrationRequestedClaim]
  {
    let credential: RegistrationRequestedClaim.Credential
    if document.format == RegistrationCertificate.mdocFormat {
      credential = .mdoc(docType: document.types.first ?? "")
    } else {
      credential = .sdJWT(vctValues: document.types)
    }
    guard !document.requestedClaims.isEmpty else {
      return [RegistrationRequestedClaim(credential: credential, path: RegistrationClaimPath([]))]
    }
    return document.requestedClaims.map {
      RegistrationRequestedClaim(
        credential: credential,
        path: RegistrationClaimPath(
          $0.path.map {
            switch $0 {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            case .allElements: .allElements
            }
          }))
    }
  }
}
