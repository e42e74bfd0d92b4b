import DCMdoc
package import DCOpenID4VP
import DCQL
public import DCTrust
package import DCX509
public import Foundation

// Issue 29: the verifier roles decide each verified credential's issuer through
// `TrustSources.decide` — with the credential's format and, for an mdoc, its docType (a VICAL
// entry listed for other document types does not trust it, ISO/IEC 18013-5 Annex C.1.7.1) —
// refuse a credential no source trusts, and carry the source (the anchor, or the trusted list,
// entity and service type) in the result. The signature and chain checks run first against
// `anchorCertificates(for: .credentialIssuer, at:, format:)`, the same chains `decide` trusts
// without the docType.

extension VerifiedCredential {
  /// The credential format its issuer is trusted for.
  var issuerCredentialFormat: IssuerCredentialFormat {
    format == DCQLFormat.msoMdoc ? .mdoc : .sdJWTVC
  }

  /// The decision on its issuer with `sources` at `time`.
  func issuerTrustDecision(_ sources: TrustSources, at time: Date) -> TrustDecision {
    let chain = issuerChain.isEmpty ? issuerCertificate.map { [$0] } ?? [] : issuerChain
    guard !chain.isEmpty else {
      return .untrusted([.chainNotValidated(reason: "the presentation names no issuer")])
    }
    return sources.decide(
      chain: chain, for: .credentialIssuer, at: time, docType: docType,
      format: issuerCredentialFormat)
  }
}

extension VerifiedAuthorizationResponse {
  /// Per Credential Query id, the issuer trust decision of each verified presentation, in
  /// order, made with `sources` at `time` for the credential's format and docType: the anchor
  /// or list entry its issuer chains to, or every reason none did.
  public func issuerTrustDecisions(_ sources: TrustSources, at time: Date)
    -> [String: [TrustDecision]]
  {
    credentials.mapValues { presentations in
      presentations.map { $0.issuerTrustDecision(sources, at: time) }
    }
  }

  /// This response with each credential's ``VerifiedCredential/issuerTrust`` set from
  /// `sources` at `time`.
  ///
  /// - Throws: `invalidPresentation` for the first credential whose issuer no source trusts
  ///   for its format and docType (a list entry for other document types, a disabled or stale
  ///   list, a withdrawn service), naming the refusals.
  package func requiringIssuerTrust(_ sources: TrustSources, at time: Date)
    throws(OpenID4VPError) -> VerifiedAuthorizationResponse
  {
    var decided = credentials
    for id in credentials.keys.sorted() {
      guard let presentations = credentials[id] else { continue }
      var checked: [VerifiedCredential] = []
      for var credential in presentations {
        switch credential.issuerTrustDecision(sources, at: time) {
        case .trusted(_, let source): credential.issuerTrust = source
        case .untrusted(let refusals):
          throw OpenID4VPError(
            .invalidPresentation,
            "\(id): the issuer is not trusted: " + IssuerTrustRefusalText.describe(refusals))
        }
        checked.append(credential)
      }
      decided[id] = checked
    }
    return VerifiedAuthorizationResponse(vpToken: vpToken, credentials: decided, report: report)
  }
}

extension AnnexCVerifier.Result {
  /// The issuer trust decision of each verified document, in order, made with `sources` at
  /// `time` for its docType: the anchor or list entry its document signer chains to.
  public func issuerTrustDecisions(_ sources: TrustSources, at time: Date) -> [TrustDecision] {
    documents.map { $0.issuerTrustDecision(sources, at: time) }
  }

  /// This result with each document's ``AnnexCVerifier/VerifiedDocument/issuerTrust`` set
  /// from `sources` at `time`.
  ///
  /// - Throws: `verificationFailed` for the first document whose issuer no source trusts for
  ///   its docType (a VICAL entry listed for other document types, a disabled or stale list, a
  ///   withdrawn service), naming the refusals.
  package func requiringIssuerTrust(_ sources: TrustSources, at time: Date)
    throws(VerifierError) -> AnnexCVerifier.Result
  {
    var decided: [AnnexCVerifier.VerifiedDocument] = []
    for var document in documents {
      switch document.issuerTrustDecision(sources, at: time) {
      case .trusted(_, let source): document.issuerTrust = source
      case .untrusted(let refusals):
        throw VerifierError(
          .verificationFailed,
          "\(document.docType): the issuer is not trusted: "
            + IssuerTrustRefusalText.describe(refusals))
      }
      decided.append(document)
    }
    return AnnexCVerifier.Result(
      documents: decided, report: report, documentErrors: documentErrors)
  }
}

extension AnnexCVerifier.VerifiedDocument {
  func issuerTrustDecision(_ sources: TrustSources, at time: Date) -> TrustDecision {
    sources.decide(
      chain: issuerChain.isEmpty ? [issuer.documentSigner] : issuerChain, for: .credentialIssuer,
      at: time, docType: docType, format: .mdoc)
  }
}

extension TrustSources {
  /// The sources with `mdoc` and `sdJWT` hand-given anchors added, each for its format only
  /// (the verifiers' certificate-array parameters).
  package func adding(mdocAnchors mdoc: [Certificate], sdJWTAnchors sdJWT: [Certificate])
    -> TrustSources
  {
    var sources = self
    for (index, certificate) in mdoc.enumerated() {
      sources.anchors.append(
        TrustAnchor(
          id: "mdoc issuer anchor \(index + 1)", certificate: certificate,
          purposes: [.credentialIssuer], formats: [.mdoc]))
    }
    for (index, certificate) in sdJWT.enumerated() {
      sources.anchors.append(
        TrustAnchor(
          id: "SD-JWT VC issuer anchor \(index + 1)", certificate: certificate,
          purposes: [.credentialIssuer], formats: [.sdJWTVC]))
    }
    return sources
  }
}

/// The refusals of an issuer decision in the error's reason (the reason is diagnostic text;
/// the typed decision is ``VerifiedAuthorizationResponse/issuerTrustDecisions(_:at:)``).
enum IssuerTrustRefusalText {
  static func describe(_ refusals: [TrustRefusal]) -> String {
    refusals.map { refusal in
      switch refusal {
      case .noSourceForPurpose: "no anchor or list trusts credential issuers"
      case .listDisabled(let kind, let name): "the \(kind.rawValue) list of \(name) is disabled"
      case .listStale(let kind, let name, let next):
        "the \(kind.rawValue) list of \(name) is stale (next update \(next))"
      case .serviceNotGranted(let kind, let entity):
        "\(entity) in the \(kind.rawValue) list is not granted"
      case .docTypeNotListed(let kind, let entity, let docType):
        "\(entity) in the \(kind.rawValue) list is not listed for \(docType)"
      case .chainNotValidated(let reason): reason
      }
    }.joined(separator: "; ")
  }
}
