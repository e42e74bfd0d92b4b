/// The protocol identifiers of the W3C Digital Credentials API registry that this SDK answers.
public enum DigitalCredentialProtocol: String, Sendable, Hashable, CaseIterable {
  /// ISO/IEC TS 18013-7:2025 Annex C.
  case orgIsoMdoc = "org-iso-mdoc"
  /// OpenID4VP 1.0 Appendix A, unsigned request.
  case openID4VPUnsigned = "openid4vp-v1-unsigned"
  /// OpenID4VP 1.0 Appendix A, signed request (compact JWS).
  case openID4VPSigned = "openid4vp-v1-signed"
  /// OpenID4VP 1.0 Appendix A, multi-signed request (JWS JSON serialization).
  case openID4VPMultisigned = "openid4vp-v1-multisigned"
  /// The identifier of the OpenID4VP drafts. Recognised so it can be named; the OpenID4VP module
  /// refuses to answer it (`OpenID4VPError.Code.unsupportedProtocol`): the drafts bound the
  /// response differently from OpenID4VP 1.0 and from one another.
  case openID4VPDraft = "openid4vp"
}
