@_exported public import DCErrors

/// An error of this module: an opaque, extensible code and a human reason (OpenID4VP 1.0).
///
/// Clients match on ``code``; new codes break nobody. ``errorResponse`` says what, if anything,
/// the wallet reports to the verifier for the failure (OpenID4VP 1.0 §8.5).
public typealias OpenID4VPError = DCError<OpenID4VPErrorCode>

/// What went wrong, as an extensible set of names.
public struct OpenID4VPErrorCode: DCErrorCode {
  let name: String
  package init(_ name: String) { self.name = name }

  /// The name of the code.
  public var description: String { name }

  /// The input cannot be read at all (not JSON, not a JWS, wrong shape); nothing is reported.
  public static let malformed = Self("malformed")
  /// A request parameter is missing, has the wrong type or an unsupported value
  /// (OpenID4VP 1.0 §5, §8.5 `invalid_request`).
  public static let invalidRequest = Self("invalidRequest")
  /// `response_mode` is not `dc_api` or `dc_api.jwt` (OpenID4VP 1.0 Appendix A.2).
  package static let unsupportedResponseMode = Self("unsupportedResponseMode")
  /// The client identifier prefix is not one this wallet supports (OpenID4VP 1.0 §5.9).
  package static let unsupportedClientIDPrefix = Self("unsupportedClientIDPrefix")
  /// The request signature, its `typ` or its algorithm is not acceptable (OpenID4VP 1.0 §5,
  /// RFC 9101 §6.1).
  public static let invalidRequestSignature = Self("invalidRequestSignature")
  /// The verifier certificate does not match the client identifier or does not chain to a
  /// trusted anchor (OpenID4VP 1.0 §5.9.3).
  public static let untrustedVerifier = Self("untrustedVerifier")
  /// The platform origin is not in `expected_origins` (OpenID4VP 1.0 Appendix A.2).
  package static let originMismatch = Self("originMismatch")
  /// `client_metadata.jwks` has no key usable for response encryption (OpenID4VP 1.0 §8.3).
  package static let noEncryptionKey = Self("noEncryptionKey")
  /// None of `encrypted_response_enc_values_supported` is supported (OpenID4VP 1.0 §8.3).
  package static let unsupportedEncryption = Self("unsupportedEncryption")
  /// A transaction data entry is malformed or of an unsupported type (OpenID4VP 1.0 §5.1).
  package static let unsupportedTransactionData = Self("unsupportedTransactionData")
  /// None of the verifier's `vp_formats_supported` is supported (OpenID4VP 1.0 §8.5).
  package static let vpFormatsNotSupported = Self("vpFormatsNotSupported")
  /// The wallet could not build a presentation (OpenID4VP 1.0 §8.1).
  package static let presentationFailed = Self("presentationFailed")
  /// The response is not a valid authorization response for the request (OpenID4VP 1.0 §8.1).
  public static let invalidResponse = Self("invalidResponse")
  /// The verifier received an error response from the wallet (OpenID4VP 1.0 §8.5).
  public static let errorResponse = Self("errorResponse")
  /// An encrypted response does not decrypt with the verifier's key (OpenID4VP 1.0 §8.3).
  public static let decryptionFailed = Self("decryptionFailed")
  /// A presentation failed verification: issuer signature, disclosures, holder binding,
  /// session binding (OpenID4VP 1.0 §8.6, Appendix B).
  public static let invalidPresentation = Self("invalidPresentation")
  /// The presentations do not satisfy the DCQL query (OpenID4VP 1.0 §6.4).
  public static let queryNotSatisfied = Self("queryNotSatisfied")
  /// A key or value could not be generated or encoded.
  public static let internalFailure = Self("internalFailure")
  /// The DC API protocol identifier is one this module does not answer, such as the drafts'
  /// `openid4vp` (OpenID4VP 1.0 Appendix A.1); nothing is reported, the protocol is not spoken.
  public static let unsupportedProtocol = Self("unsupportedProtocol")
}

extension DCError where Code == OpenID4VPErrorCode {
  /// The error response the wallet returns to the verifier for this failure, or nil when the
  /// input could not be read at all or the failure is the verifier's own (OpenID4VP 1.0 §8.5,
  /// Appendix A.2: protocol errors are a fulfilled response).
  public var errorResponse: OpenID4VPErrorResponse? {
    let error: OpenID4VPErrorResponse.ErrorCode
    switch code {
    case .invalidRequest, .unsupportedResponseMode, .unsupportedClientIDPrefix,
      .noEncryptionKey, .unsupportedEncryption, .originMismatch:
      error = .invalidRequest
    case .unsupportedTransactionData:
      error = .invalidTransactionData
    case .invalidRequestSignature, .untrustedVerifier:
      error = .invalidClient
    case .vpFormatsNotSupported:
      error = .vpFormatsNotSupported
    default:
      return nil
    }
    return OpenID4VPErrorResponse(error: error, errorDescription: reason)
  }
}
