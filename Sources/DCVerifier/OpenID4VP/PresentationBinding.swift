import DCMdoc
import DCOpenID4VP

/// Whom a response's presentations must be bound to: the DC API origin, or the Client
/// Identifier and `response_uri` of a redirect-based flow (OpenID4VP 1.0 Appendix A.4, B.2.6,
/// B.3.6).
package enum PresentationBinding: Sendable, Hashable {
  /// Over the W3C Digital Credentials API: the origin the platform asserted.
  case dcAPI(origin: String)
  /// Outside the DC API (`direct_post`, `direct_post.jwt`): the full Client Identifier, prefix
  /// included, and the `response_uri` exactly as in the request.
  case redirect(clientID: String, responseURI: String)

  /// The `aud` a Key Binding JWT must carry: `origin:<origin>` over the DC API (Appendix A.4),
  /// the Client Identifier otherwise (Appendix B.3.6, RFC 9901 §4.3).
  var keyBindingAudience: String {
    switch self {
    case .dcAPI(let origin): AuthorizationRequest.keyBindingAudience(origin: origin)
    case .redirect(let clientID, _):
      RedirectBinding.keyBindingAudience(clientID: ClientIdentifier(clientID))
    }
  }

  /// The mdoc SessionTranscript: `[null, null, OpenID4VPDCAPIHandover]` (Appendix B.2.6.2) or
  /// `[null, null, OpenID4VPHandover]` over client_id, nonce, the encryption key's JWK
  /// thumbprint (null when not encrypted) and response_uri (Appendix B.2.6.1).
  func sessionTranscript(nonce: String, jwkThumbprint: [UInt8]?) -> SessionTranscript {
    switch self {
    case .dcAPI(let origin):
      SessionTranscript(
        handover: Handover.openID4VPDCAPI(
          origin: origin, nonce: nonce, jwkThumbprint: jwkThumbprint))
    case .redirect(let clientID, let responseURI):
      RedirectBinding.sessionTranscript(
        clientID: ClientIdentifier(clientID), nonce: nonce, jwkThumbprint: jwkThumbprint,
        responseURI: responseURI)
    }
  }

  var keyBindingCheck: VerificationCheck {
    switch self {
    case .dcAPI(let origin): .keyBinding(origin: origin)
    case .redirect(let clientID, _): .keyBindingToClient(clientID: clientID)
    }
  }

  var mdocDeviceSignatureCheck: VerificationCheck {
    switch self {
    case .dcAPI(let origin): .mdocHandoverDeviceSignature(origin: origin)
    case .redirect(let clientID, let responseURI):
      .mdocRedirectHandoverDeviceSignature(clientID: clientID, responseURI: responseURI)
    }
  }
}
