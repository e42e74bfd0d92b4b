package import DCMdoc

/// How presentations are bound to the verifier outside the DC API, in the redirect-based flows
/// (`direct_post`, `direct_post.jwt`): the same rules for the wallet that builds them and the
/// verifier that checks them.
package enum RedirectBinding {
  /// `aud` of SD-JWT Key Binding JWTs outside the DC API: the full Client Identifier, prefix
  /// included, such as `x509_san_dns:verifier.example` (OpenID4VP 1.0 Appendix B.3.6, §5.9.1:
  /// the prefix is part of the identifier).
  package static func keyBindingAudience(clientID: ClientIdentifier) -> String {
    clientID.rawValue
  }

  /// `SessionTranscript = [null, null, OpenID4VPHandover]` with `OpenID4VPHandover =
  /// ["OpenID4VPHandover", SHA-256(CBOR(OpenID4VPHandoverInfo))]` and `OpenID4VPHandoverInfo =
  /// [clientId, nonce, jwkThumbprint, responseUri]` (OpenID4VP 1.0 Appendix B.2.6.1).
  ///
  /// - Parameters:
  ///   - clientID: the full Client Identifier, prefix included.
  ///   - nonce: the request's `nonce`.
  ///   - jwkThumbprint: the RFC 7638 SHA-256 thumbprint of the verifier's encryption key for
  ///     `direct_post.jwt`; nil (CBOR null) when the response is not encrypted.
  ///   - responseURI: the `response_uri` exactly as in the request.
  package static func sessionTranscript(
    clientID: ClientIdentifier, nonce: String, jwkThumbprint: [UInt8]?, responseURI: String
  ) -> SessionTranscript {
    SessionTranscript(
      handover: Handover.openID4VP(
        clientID: clientID.rawValue, nonce: nonce, jwkThumbprint: jwkThumbprint,
        responseURI: responseURI))
  }
}
