package import DCAPI
package import DCX509

/// Who is asking, as far as the wallet could establish: the facts travel with the request to
/// the UI (OpenID4VP 1.0 Appendix A.3).
package enum VerifierIdentity: Sendable, Hashable {
  /// An unsigned request: the verifier is known only by the origin the platform asserted
  /// (OpenID4VP 1.0 Appendix A.3.1).
  case origin(WebOrigin)
  /// A signed request whose client identifier was authenticated with a trusted certificate
  /// (OpenID4VP 1.0 Appendix A.3.2, §5.9.3).
  case authenticated(AuthenticatedVerifier)

  /// The origin the platform asserted.
  package var origin: WebOrigin {
    switch self {
    case .origin(let origin): origin
    case .authenticated(let verifier): verifier.origin
    }
  }

  /// The authenticated client identifier, nil for an unsigned request.
  package var clientID: ClientIdentifier? {
    if case .authenticated(let verifier) = self { return verifier.clientID }
    return nil
  }
}

/// A verifier authenticated through a signed request (OpenID4VP 1.0 §5.9.3, Appendix A.3.2).
package struct AuthenticatedVerifier: Sendable, Hashable {
  /// The origin the platform asserted, found in `expected_origins`.
  package let origin: WebOrigin
  /// The client identifier that the certificate was checked against.
  package let clientID: ClientIdentifier
  /// The `x5c` leaf certificate.
  package let leafCertificate: Certificate
  /// The validated path from the leaf to a configured verifier trust anchor.
  package let trustedChain: TrustedChain
  /// For a multisigned request, the index of the signature that authenticated the verifier
  /// (OpenID4VP 1.0 Appendix A.3.2); nil for a compact signed request.
  package let signatureIndex: Int?
}
