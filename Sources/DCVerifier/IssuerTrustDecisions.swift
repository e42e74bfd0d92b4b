import DCMdoc
public import DCTrust
public import Foundation

// Issue 29: what trusted each verified credential's issuer (a configured anchor, or the trusted
// list, entity and service type), as decisions the report carries beside its checks. The
// verification itself ran against `TrustSources.anchorCertificates(for: .credentialIssuer)`,
// the same chains `decide` trusts.

extension VerifiedAuthorizationResponse {
  /// Per Credential Query id, the issuer trust decision of each verified presentation, in
  /// order, made with `sources` at `time`: the anchor or list entry its issuer chains to.
  public func issuerTrustDecisions(_ sources: TrustSources, at time: Date)
    -> [String: [TrustDecision]]
  {
    credentials.mapValues { presentations in
      presentations.map { credential in
        guard let certificate = credential.issuerCertificate else {
          return .untrusted([.chainNotValidated(reason: "the presentation names no issuer")])
        }
        return sources.decide(chain: [certificate], for: .credentialIssuer, at: time)
      }
    }
  }
}

extension AnnexCVerifier.Result {
  /// The issuer trust decision of each verified document, in order, made with `sources` at
  /// `time`: the anchor or list entry its document signer chains to.
  public func issuerTrustDecisions(_ sources: TrustSources, at time: Date) -> [TrustDecision] {
    documents.map {
      sources.decide(chain: [$0.issuer.documentSigner], for: .credentialIssuer, at: time)
    }
  }
}
