package import DCCrypto
package import DCJSON
package import DCMdoc
package import DCSDJWT

/// One credential the user chose to present, with what to disclose and the key that proves
/// possession (OpenID4VP 1.0 §8.1, Appendix B.2, B.3).
package struct CredentialPresentation: Sendable {
  enum Kind: Sendable {
    case sdJWT(
      SDJWT, paths: [ClaimPath], holderKey: any Signer, processed: ProcessedSDJWT?,
      cnfKey: ECPublicKey?)
    case mdoc(IssuerSigned, elements: [String: Set<String>], deviceKey: any Signer)
  }

  let kind: Kind

  /// An SD-JWT VC presenting the claims at `paths`, with a Key Binding JWT signed by
  /// `holderKey`, the credential's `cnf` key (OpenID4VP 1.0 Appendix B.3.6).
  package static func sdJWT(
    _ credential: SDJWT, disclosing paths: [ClaimPath], holderKey: any Signer
  ) -> CredentialPresentation {
    CredentialPresentation(
      kind: .sdJWT(
        credential, paths: paths, holderKey: holderKey, processed: nil, cnfKey: nil))
  }

  /// ``sdJWT(_:disclosing:holderKey:)`` with the credential's ``SDJWT/process()`` result, which
  /// the presentation reuses instead of processing every Disclosure again.
  static func sdJWT(
    _ credential: SDJWT, processed: ProcessedSDJWT, cnfKey: ECPublicKey?,
    disclosing paths: [ClaimPath], holderKey: any Signer
  ) -> CredentialPresentation {
    CredentialPresentation(
      kind: .sdJWT(
        credential, paths: paths, holderKey: holderKey, processed: processed, cnfKey: cnfKey))
  }

  /// An mdoc presenting `elements` (namespace to element identifiers), device-signed with
  /// `deviceKey`, the MSO's device key (OpenID4VP 1.0 Appendix B.2.6).
  package static func mdoc(
    _ issuerSigned: IssuerSigned, disclosing elements: [String: Set<String>],
    deviceKey: any Signer
  ) -> CredentialPresentation {
    CredentialPresentation(
      kind: .mdoc(issuerSigned, elements: elements, deviceKey: deviceKey))
  }

  /// The Credential format identifier (OpenID4VP 1.0 Appendix B).
  package var format: String {
    switch kind {
    case .sdJWT: "dc+sd-jwt"
    case .mdoc: "mso_mdoc"
    }
  }
}
