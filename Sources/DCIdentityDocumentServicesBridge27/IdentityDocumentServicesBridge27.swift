// IdentityDocumentServicesBridge27: the iOS 27.0 additions, in a target of their own because an
// `#available` check guards only at run time: a symbol the SDK lacks fails the build of the
// whole target. Build this product only with the iOS 27.0 SDK or later; the app may still run on
// iOS 26 (each use is behind `#available(iOS 27.0, *)` and falls back to the 26.0 API).
//
// Symbols used (shared/reference/apple-identity-document-services.md):
// - `ISO18013MobileDocumentRequest.DocumentRequest.issuerKeyIdentifiers: [Data]` (27.0)
// - `MobileDocumentRegistration.init(mobileDocumentType:supportedIssuerKeyIdentifiers:
//   supportedAuthorityKeyIdentifiers:documentIdentifier:invalidationDate:)` (27.0)
#if ((os(iOS) && !targetEnvironment(macCatalyst)) || DCWALLET_APPLE_SHADOW) && canImport(IdentityDocumentServices) && canImport(IdentityDocumentServicesUI) && canImport(Security)
  internal import DCRegistration
  public import DCAPI
  internal import Foundation
  internal import IdentityDocumentServices
  public import DCIdentityDocumentServicesBridge
  public import IdentityDocumentServicesUI

  @available(iOS 26.0, *)
  extension MobileDocumentRequestAdapter {
    /// Reads a request context with the issuer key identifiers of each document request
    /// (iOS 27.0; none on iOS 26, where the OS does not pass them).
    ///
    /// - Throws: `invalidOrigin`, as `init(context:)`.
    public static func iOS27(context: ISO18013MobileDocumentRequestContext)
      throws(DigitalCredentialsError) -> MobileDocumentRequestAdapter
    {
      try MobileDocumentRequestAdapter(context: context) { document in
        guard #available(iOS 27.0, *) else { return [] }
        return document.issuerKeyIdentifiers
      }
    }
  }

  @available(iOS 26.0, *)
  extension RegistrationBuilder {
    /// The iOS 27.0 registration API: mdoc registrations with issuer key identifiers on 27.0
    /// and later, the 26.0 initializer before. Verifiable credentials are not planned (they need
    /// `.iOS27Point3`).
    public static let iOS27 = RegistrationBuilder(sdkFloor: .iOS27) { planned in
      guard case .mobileDocument(let mdoc) = planned else {
        return try RegistrationBuilder.iOS26.make(planned)
      }
      guard #available(iOS 27.0, *) else { return try RegistrationBuilder.iOS26.make(planned) }
      return MobileDocumentRegistration(
        mobileDocumentType: mdoc.mobileDocumentType,
        supportedIssuerKeyIdentifiers: mdoc.supportedIssuerKeyIdentifiers.map { Data($0.bytes) },
        supportedAuthorityKeyIdentifiers: mdoc.supportedAuthorityKeyIdentifiers.map {
          Data($0.bytes)
        },
        documentIdentifier: mdoc.documentIdentifier, invalidationDate: mdoc.invalidationDate)
    }
  }
#endif
