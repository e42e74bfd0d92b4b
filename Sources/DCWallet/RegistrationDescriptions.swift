import DCCBOR
import DCJOSE
import DCJSON
import DCMdoc
public import DCRegistration
import DCSDJWT
import Foundation

extension Wallet {
  /// Describes every stored credential for OS registration (iOS IdentityDocumentServices and
  /// Android Credential Manager): display, the claims with their values (values that cannot be
  /// compared register as null), the issuer's authority key identifiers, and the validity end
  /// as iOS's invalidation date. Expired credentials are left out.
  ///
  /// - Parameter readerGate: authority key identifiers of reader roots to gate on (empty: any).
  public func registrationDescriptions(readerGate: [KeyIdentifier] = []) async throws(WalletError)
    -> [CredentialDescription]
  {
    var descriptions: [CredentialDescription] = []
    let now = clock()
    // An expired credential is not registered (and iOS refuses a past invalidation date).
    for stored in try await credentials() where (stored.validUntil ?? .distantFuture) > now {
      let issuerKeys = stored.issuerAuthorityKeyIdentifiers.filter { !$0.isEmpty }.map(
        KeyIdentifier.init)
      let display = CredentialDisplayInfo(
        title: stored.display.title, subtitle: stored.display.subtitle ?? "")
      let credential: RegisteredCredential
      switch stored.format {
      case .msoMdoc:
        guard let issuerSigned = stored.decodedMdoc else { continue }
        var nameSpaces: [String: [String: RegisteredClaim]] = [:]
        for (ns, items) in issuerSigned.nameSpaces {
          for item in items {
            nameSpaces[ns, default: [:]][item.elementIdentifier] = RegisteredClaim(
              cbor: item.elementValue,
              displayName: stored.display.claimNames["\(ns)/\(item.elementIdentifier)"])
          }
        }
        credential = .mdoc(docType: stored.type, nameSpaces: nameSpaces)
      case .sdJWT:
        guard let sdJWT = stored.decodedSDJWT,
          let processed = try? sdJWT.process()
        else { continue }
        // Claims about the token itself are not the holder's claims.
        var payload = processed.payload
        for reserved in ["iss", "iat", "nbf", "exp", "cnf", "vct", "status", "sub"] {
          payload = payload.removing(reserved)
        }
        credential = .sdJWT(vct: stored.type, claims: RegisteredClaim.flattening(payload))
      }
      descriptions.append(
        CredentialDescription(
          id: stored.id, display: display, credential: credential,
          ios: IOSRegistrationOptions(
            supportedAuthorityKeyIdentifiers: readerGate, supportedIssuerKeyIdentifiers: issuerKeys,
            invalidationDate: stored.validUntil),
          android: AndroidRegistrationOptions(
            issuerAuthorityKeyIdentifiers: issuerKeys, supportedAuthorityKeyIdentifiers: readerGate)
        ))
    }
    return descriptions
  }
}
