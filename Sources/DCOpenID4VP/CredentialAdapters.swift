import DCCBOR
package import DCCrypto
import DCJOSE
package import DCJSON
package import DCMdoc
package import DCQL
package import DCSDJWT
import DCX509

/// An SD-JWT VC as DCQL sees it: its processed claims, `vct`, issuer AKIs and holder binding
/// (OpenID4VP 1.0 §6.4, Appendix B.3).
package struct SDJWTCredential: DCQLCredential, Sendable {
  /// The wallet's identifier for the credential.
  package let id: String
  /// The credential with all its Disclosures.
  package let sdJWT: SDJWT
  /// `dc+sd-jwt` (OpenID4VP 1.0 Appendix B.3.1).
  package var format: String { DCQLFormat.sdJWTVC }
  /// Always nil: SD-JWT VCs have no doctype.
  package var docType: String? { nil }
  /// `vct` (OpenID4VP 1.0 Appendix B.3.5).
  package let vct: String?
  /// The Processed SD-JWT Payload with every Disclosure applied (RFC 9901 §7.1).
  package let claims: ClaimValue
  /// The AKIs of the `x5c` certificates (OpenID4VP 1.0 §6.1.1.1).
  package let authorityKeyIdentifiers: [[UInt8]]
  /// True when the credential has `cnf` (OpenID4VP 1.0 §6.1).
  package let supportsHolderBinding: Bool
  /// ``sdJWT`` processed once (RFC 9901 §7.1), reused by every presentation of it.
  let processed: ProcessedSDJWT
  /// `cnf.jwk` converted once; nil when absent or invalid (then each presentation reports it).
  let holderPublicKey: ECPublicKey?

  /// Describes a stored SD-JWT VC (OpenID4VP 1.0 §6.4).
  ///
  /// - Throws: `malformed` when its Disclosures do not process.
  package init(id: String, sdJWT: SDJWT) throws(OpenID4VPError) {
    let processed: ProcessedSDJWT
    do {
      processed = try sdJWT.process()
    } catch {
      throw OpenID4VPError(.malformed, "SD-JWT \(id): \(error.reason)", underlying: error)
    }
    self.id = id
    self.sdJWT = sdJWT
    self.processed = processed
    holderPublicKey = try? sdJWT.holderKey()
    vct = processed.payload["vct"]?.string
    claims = ClaimValue(processed.payload)
    authorityKeyIdentifiers = (sdJWT.issuerSignedJWT.x5c ?? []).compactMap {
      (try? Certificate(derEncoded: $0))?.authorityKeyIdentifier
    }
    supportsHolderBinding = processed.payload["cnf"] != nil
  }

  /// The SD-JWT claim paths for the claims DCQL selected (OpenID4VP 1.0 §7, Appendix B.3).
  package static func claimPaths(for disclosed: [ClaimPath]) -> [ClaimPath] { disclosed }

  /// A presentation of the claims DCQL selected, bound to `holderKey` (OpenID4VP 1.0 B.3.6).
  ///
  /// With no claims (a Credential Query without `claims`), only what is mandatory to present:
  /// the issuer-signed JWT and the Key Binding JWT, no Disclosure (OpenID4VP 1.0 §6.4.1).
  package func presentation(disclosing disclosed: [ClaimPath], holderKey: any Signer)
    -> CredentialPresentation
  {
    .sdJWT(
      sdJWT, processed: processed, cnfKey: holderPublicKey,
      disclosing: Self.claimPaths(for: disclosed), holderKey: holderKey)
  }
}

/// An mdoc as DCQL sees it: its doctype, namespaces, issuer AKIs; always holder-bound
/// (OpenID4VP 1.0 §6.4, Appendix B.2).
package struct MdocCredential: DCQLCredential, Sendable {
  /// The wallet's identifier for the credential.
  package let id: String
  /// The mdoc as issued.
  package let issuerSigned: IssuerSigned
  /// `mso_mdoc` (OpenID4VP 1.0 Appendix B.2.1).
  package var format: String { DCQLFormat.msoMdoc }
  /// The MSO's docType (OpenID4VP 1.0 Appendix B.2.3).
  package var docType: String? { issuerSigned.docType }
  /// Always nil: mdocs have no `vct`.
  package var vct: String? { nil }
  /// `{namespace: {element: value}}` (OpenID4VP 1.0 Appendix B.2.4).
  package let claims: ClaimValue
  /// The AKIs of the document signer chain (OpenID4VP 1.0 §6.1.1.1).
  package let authorityKeyIdentifiers: [[UInt8]]
  /// True: the MSO binds every mdoc to its device key (ISO 18013-5 §9.1.3).
  package var supportsHolderBinding: Bool { true }

  /// Describes a stored mdoc (OpenID4VP 1.0 §6.4).
  package init(id: String, issuerSigned: IssuerSigned) {
    self.id = id
    self.issuerSigned = issuerSigned
    claims = Self.claims(of: issuerSigned.nameSpaces)
    authorityKeyIdentifiers = ((try? issuerSigned.documentSignerChain()) ?? []).compactMap {
      $0.authorityKeyIdentifier
    }
  }

  package static func claims(of nameSpaces: [(nameSpace: String, items: [IssuerSignedItem])])
    -> ClaimValue
  {
    var result: [String: ClaimValue] = [:]
    for (nameSpace, items) in nameSpaces {
      var elements: [String: ClaimValue] = [:]
      for item in items {
        elements[item.elementIdentifier] = ClaimValue(JSONValue(cbor: item.elementValue))
      }
      result[nameSpace] = .object(elements)
    }
    return .object(result)
  }

  /// The elements, by namespace, for the claims DCQL selected: paths `[namespace, element]`
  /// (OpenID4VP 1.0 Appendix B.2.4).
  package static func elements(for disclosed: [ClaimPath]) -> [String: Set<String>] {
    var elements: [String: Set<String>] = [:]
    for path in disclosed {
      guard path.components.count == 2, case .key(let nameSpace) = path.components[0],
        case .key(let element) = path.components[1]
      else { continue }
      elements[nameSpace, default: []].insert(element)
    }
    return elements
  }

  /// A presentation of the elements DCQL selected, device-signed with `deviceKey`
  /// (OpenID4VP 1.0 Appendix B.2.6).
  ///
  /// With no claims (a Credential Query without `claims`), no data element is selectively
  /// disclosable on request, so none is presented (OpenID4VP 1.0 §6.4.1): `IssuerSigned` carries
  /// no `nameSpaces` (optional, and non-empty when present, ISO 18013-5 §8.3.2.1.2.2) and the
  /// MSO, issuer signature and device signature still prove the document.
  package func presentation(disclosing disclosed: [ClaimPath], deviceKey: any Signer)
    -> CredentialPresentation
  {
    .mdoc(issuerSigned, disclosing: Self.elements(for: disclosed), deviceKey: deviceKey)
  }
}
