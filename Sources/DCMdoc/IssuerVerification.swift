import DCCBOR
import DCCOSE
public import DCCrypto
public import DCX509
public import Foundation

/// Whether a certificate chain reached a configured anchor: the security decision travels as a
/// value, and the caller's policy decides what an untrusted result means.
public enum ChainTrust: Sendable, Hashable {
  /// The chain reaches a configured anchor and meets the policy.
  case trusted(TrustedChain)
  /// The signature is valid, but the chain does not reach a configured anchor or fails the
  /// policy; the reason says why.
  case untrusted(reason: String)

  /// Whether this is `trusted`.
  public var isTrusted: Bool {
    if case .trusted = self { return true }
    return false
  }
}

/// What issuer verification established about an mdoc (ISO 18013-5 §9.3.1).
public struct IssuerVerification: Sendable {
  /// The document signer certificate (the x5chain leaf).
  public let documentSigner: Certificate
  /// Whether the document signer chains to a trusted IACA.
  public let trust: ChainTrust
  /// The device key the MSO binds the mdoc to.
  public let deviceKey: ECPublicKey
}

extension IssuerSigned {
  /// Verifies an mdoc as issued (ISO 18013-5 §9.3.1): the MSO signature by the document signer,
  /// the signer's chain to a trusted IACA under the document-signer profile (Annex B), the
  /// docType, the validity window at `now`, and the digest of every item present.
  ///
  /// - Parameters:
  ///   - expectedDocType: the docType the document claims or was requested as.
  ///   - trustAnchors: trusted IACA certificates.
  ///   - now: the time at which the chain and the MSO's validity window are checked.
  ///   - requireTrustedIssuer: when true (the default) an untrusted chain throws
  ///     `untrustedIssuer`; when false it is reported in the result.
  public func verify(
    expectedDocType: String? = nil, trustAnchors: [Certificate], at now: Date,
    requireTrustedIssuer: Bool = true
  ) throws(MdocError) -> IssuerVerification {
    try verify(
      expectedDocType: expectedDocType, trustAnchors: trustAnchors, at: now,
      requireTrustedIssuer: requireTrustedIssuer, documentSignerChain: try documentSignerChain())
  }

  /// As ``verify(expectedDocType:trustAnchors:at:requireTrustedIssuer:)``, with the document
  /// signer chain already parsed from this document's x5chain (by ``documentSignerChain()`` or
  /// the package's `DocumentSignerChainMemo`, which parses the chain a batch shares once).
  ///
  /// - Parameters:
  ///   - expectedDocType: the docType the document claims or was requested as.
  ///   - trustAnchors: trusted IACA certificates.
  ///   - now: the time at which the chain and the MSO's validity window are checked.
  ///   - requireTrustedIssuer: when true (the default) an untrusted chain throws
  ///     `untrustedIssuer`; when false it is reported in the result.
  ///   - chain: the certificates of this document's x5chain, leaf first.
  ///   - expectedDeviceKey: the key the caller expects the MSO to bind (a wallet storing what it
  ///     was issued knows its own key). When the MSO's COSE_Key has that key's curve and point
  ///     bytes, the result's `deviceKey` is that key, without importing the COSE_Key again
  ///     (equal bytes are that valid point); otherwise the COSE_Key is imported and checked as
  ///     without it. The result is the same either way.
  package func verify(
    expectedDocType: String? = nil, trustAnchors: [Certificate], at now: Date,
    requireTrustedIssuer: Bool = true, documentSignerChain chain: [Certificate],
    expectedDeviceKey: ECPublicKey? = nil
  ) throws(MdocError) -> IssuerVerification {
    guard let leaf = chain.first else {
      throw MdocError(.malformed, "issuerAuth has no x5chain (ISO 18013-5 §9.1.2.4)")
    }
    guard let signerKey = leaf.publicKey.ecPublicKey else {
      throw MdocError(
        .invalidIssuerSignature, "document signer key is \(chain[0].publicKey), not EC")
    }
    // §9.1.2.4: the algorithm is in the protected header.
    guard issuerAuth.headers.protected[key: 1] != nil else {
      throw MdocError(.invalidIssuerSignature, "issuerAuth alg is not in the protected header")
    }
    do {
      try issuerAuth.verify(publicKey: signerKey)
    } catch {
      throw MdocError(.invalidIssuerSignature, "issuerAuth: \(error.reason)", underlying: error)
    }
    let validator = CertificateValidator(
      trustAnchors: trustAnchors, policy: .mdocDocumentSigner, revocation: .current)
    let trust: ChainTrust
    switch validator.validate(chain: chain, at: now) {
    case .trusted(let path): trust = .trusted(path)
    case .untrusted(let reason), .malformed(let reason): trust = .untrusted(reason: reason)
    }
    if requireTrustedIssuer, case .untrusted(let reason) = trust {
      throw MdocError(
        .untrustedIssuer, "document signer \(chain[0].subject) is not trusted: \(reason)")
    }
    if let expectedDocType, expectedDocType != mso.docType {
      throw MdocError(
        .docTypeMismatch, "document is \(expectedDocType) but its MSO is for \(mso.docType)")
    }
    try mso.checkValidity(at: now)
    try checkDigests()
    let deviceKey: ECPublicKey
    if let expectedDeviceKey, mso.deviceKey.isEncoding(of: expectedDeviceKey) {
      deviceKey = expectedDeviceKey
    } else {
      do {
        deviceKey = try mso.deviceKey.publicKey()
      } catch {
        throw MdocError(.malformed, "MSO deviceKey: \(error.reason)", underlying: error)
      }
    }
    return IssuerVerification(documentSigner: chain[0], trust: trust, deviceKey: deviceKey)
  }

  /// Checks every present item's digest against the MSO (§9.3.1 step 3), and that no element
  /// identifier appears twice in a namespace.
  ///
  /// An element identifier names one data element of its namespace (ISO 18013-5 §7.2.1,
  /// §8.3.2.1.2.2): a namespace carrying the same identifier twice, each with its own valid
  /// digest, would let a holder show one value and disclose another (or a reader keep the last
  /// one), so it is refused however both items verify.
  package func checkDigests() throws(MdocError) {
    let algorithm = try mso.digest
    for (nameSpace, items) in nameSpaces {
      guard let digests = mso.valueDigests[nameSpace] else {
        throw MdocError(.digestMismatch, "the MSO has no digests for namespace \(nameSpace)")
      }
      var seen = Set<UInt64>()
      var identifiers = Set<String>()
      for item in items {
        guard seen.insert(item.digestID).inserted else {
          throw MdocError(.malformed, "digestID \(item.digestID) appears twice in \(nameSpace)")
        }
        guard identifiers.insert(item.elementIdentifier).inserted else {
          throw MdocError(
            .malformed,
            "element \(nameSpace)/\(item.elementIdentifier) appears more than once in its namespace"
          )
        }
        guard let expected = digests[item.digestID] else {
          throw MdocError(
            .digestMismatch,
            "\(nameSpace)/\(item.elementIdentifier): digestID \(item.digestID) is not in the MSO")
        }
        guard constantTimeEquals(item.digest(algorithm), expected) else {
          throw MdocError(
            .digestMismatch, "\(nameSpace)/\(item.elementIdentifier): digest does not match the MSO"
          )
        }
      }
    }
  }
}
