public import DCX509
public import Foundation

/// How a verifier came to trust an mdoc's issuer.
public enum IssuerTrustBasis: Sendable, Hashable {
  /// The document signer chains to a configured IACA (ISO 18013-5 Annex B profile).
  case chain(TrustedChain)
  /// The document signer certificate itself is a configured anchor (direct trust, as verifiers
  /// that pin a signer do): it is trusted as it is, whatever its profile.
  case pinnedDocumentSigner(Certificate)
}

extension IssuerSigned {
  /// Verifies an mdoc as issued, like ``verify(expectedDocType:trustAnchors:at:requireTrustedIssuer:)``,
  /// where an anchor may also be the document signer certificate itself.
  ///
  /// A pinned document signer (an anchor byte-for-byte equal to the `x5chain` leaf) is trusted
  /// without a chain or profile check, but must be within its validity period at `now`; the MSO
  /// signature, docType, MSO validity and digests are checked as always.
  ///
  /// - Throws: `untrustedIssuer` when the signer neither chains to an anchor nor is one.
  public func verify(
    expectedDocType: String? = nil, issuerAnchors: [Certificate], at now: Date
  ) throws(MdocError) -> (verification: IssuerVerification, basis: IssuerTrustBasis) {
    let verification = try verify(
      expectedDocType: expectedDocType, trustAnchors: issuerAnchors, at: now,
      requireTrustedIssuer: false)
    switch verification.trust {
    case .trusted(let chain): return (verification, .chain(chain))
    case .untrusted(let reason):
      let signer = verification.documentSigner
      guard issuerAnchors.contains(where: { $0.derBytes == signer.derBytes }) else {
        throw MdocError(
          .untrustedIssuer, "document signer \(signer.subject) is not trusted: \(reason)")
      }
      guard signer.notBefore <= now, now <= signer.notAfter else {
        throw MdocError(
          .untrustedIssuer,
          "the pinned document signer \(signer.subject) is not valid at \(now) "
            + "(\(signer.notBefore) to \(signer.notAfter))")
      }
      return (verification, .pinnedDocumentSigner(signer))
    }
  }
}
