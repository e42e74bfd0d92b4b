/// The Digital Credentials API protocol identifiers of OpenID4VP (OpenID4VP 1.0 Appendix A.1).
public enum OpenID4VPProtocol: String, Sendable, Hashable, CaseIterable {
  /// `openid4vp-v1-unsigned`: `data` is the request parameters (OpenID4VP 1.0 Appendix A.3.1).
  case unsigned = "openid4vp-v1-unsigned"
  /// `openid4vp-v1-signed`: `data` is `{"request": <compact JWS>}` (OpenID4VP 1.0 Appendix A.3.2).
  case signed = "openid4vp-v1-signed"
  /// `openid4vp-v1-multisigned`: `data` is `{"request": <JWS JSON serialization object>}`,
  /// general form (OpenID4VP 1.0 Appendix A.3.2).
  case multisigned = "openid4vp-v1-multisigned"
  /// `openid4vp`, the identifier of the drafts before 1.0. Recognised so that it can be named,
  /// never answered: `AuthorizationRequest` refuses it with
  /// ``OpenID4VPErrorCode/unsupportedProtocol``, because the drafts bound the response
  /// (audience, mdoc handover) differently from each other and from 1.0.
  case draft = "openid4vp"
}

/// How the wallet returns the response over the DC API (OpenID4VP 1.0 Appendix A.2, §8.3).
public enum ResponseMode: String, Sendable, Hashable, CaseIterable {
  /// `dc_api`: `{"vp_token": {...}}` in the clear (OpenID4VP 1.0 Appendix A.2).
  case dcAPI = "dc_api"
  /// `dc_api.jwt`: `{"response": <JWE>}` encrypted to the verifier (OpenID4VP 1.0 Appendix A.2,
  /// §8.3).
  case dcAPIJWT = "dc_api.jwt"
}
