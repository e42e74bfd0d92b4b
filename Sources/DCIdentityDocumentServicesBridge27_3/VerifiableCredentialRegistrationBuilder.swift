// IdentityDocumentServicesBridge27_3: the iOS 27.3 additions (OpenID4VP over the DC API and
// SD-JWT VC registration), in a target of their own because `#available` guards only at run
// time: a symbol the SDK lacks fails the build of the whole target. Build this product only
// with the iOS 27.3 SDK or later.
//
// Symbols used (shared/reference/apple-identity-document-services.md):
// - `VerifiableCredentialRegistration.init(verifiableCredentialTypes:supportedIssuerKeyIdentifiers:
//   supportedAuthorityKeyIdentifiers:documentIdentifier:invalidationDate:)` (27.3)
// - `OpenID4VPRawRequestContext`, `OpenID4VPRawRequestContext.Response(responseData:)` (27.3),
//   in OpenID4VPRequestAdapter.swift
#if ((os(iOS) && !targetEnvironment(macCatalyst)) || DCWALLET_APPLE_SHADOW) && canImport(IdentityDocumentServices) && canImport(IdentityDocumentServicesUI) && canImport(Security)
  internal import DCRegistration
  internal import DCAPI
  internal import Foundation
  internal import IdentityDocumentServices
  public import DCIdentityDocumentServicesBridge
  internal import DCIdentityDocumentServicesBridge27

  @available(iOS 26.0, *)
  extension RegistrationBuilder {
    /// The iOS 27.3 registration API: `.iOS27` for mdocs, and `VerifiableCredentialRegistration`
    /// for SD-JWT VCs on 27.3 and later (the plan holds none before).
    public static let iOS27Point3 = RegistrationBuilder(sdkFloor: .iOS27Point3) { planned in
      guard case .verifiableCredential(let vc) = planned else {
        return try RegistrationBuilder.iOS27.make(planned)
      }
      guard #available(iOS 27.3, *) else {
        throw RegistrationError(
          .unsupportedPlatformVersion, "VerifiableCredentialRegistration needs iOS 27.3",
          credentialID: vc.documentIdentifier)
      }
      // Apple's pages imply, but do not state, that VerifiableCredentialRegistration conforms
      // to IdentityDocumentRegistration: the cast compiles either way and fails loudly if not.
      let value: Any = VerifiableCredentialRegistration(
        verifiableCredentialTypes: vc.verifiableCredentialTypes,
        supportedIssuerKeyIdentifiers: vc.supportedIssuerKeyIdentifiers.map { Data($0.bytes) },
        supportedAuthorityKeyIdentifiers: vc.supportedAuthorityKeyIdentifiers.map {
          Data($0.bytes)
        },
        documentIdentifier: vc.documentIdentifier, invalidationDate: vc.invalidationDate)
      guard let registration = value as? any IdentityDocumentRegistration else {
        throw RegistrationError(
          .unsupportedPlatformVersion,
          "VerifiableCredentialRegistration is not an IdentityDocumentRegistration on this OS",
          credentialID: vc.documentIdentifier)
      }
      return registration
    }
  }
#endif
