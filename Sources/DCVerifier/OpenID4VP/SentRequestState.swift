public import DCCrypto
import DCJOSE
public import DCJSON
public import DCOpenID4VP

extension VerifierState {
  /// The state of an OpenID4VP request that was sent and captured, for verifying its response
  /// without a saved state: the DC API `data` as sent, the origin the platform reported (taken
  /// exactly as given) and, for `dc_api.jwt`, the verifier's response decryption private key.
  ///
  /// The request parameters are read from `data` (unsigned, Appendix A.3.1), from the payload
  /// of `data.request` (signed, a compact JWS) or from the JWS JSON serialization in `data` or
  /// `data.request` (multisigned, Appendix A.3.2). The request's signatures are not checked:
  /// this is the verifier's own request, and the response is checked against what it asked.
  ///
  /// - Throws: `unsupportedProtocol`-like `invalidRequest` for the pre-1.0 `openid4vp`
  ///   identifier, `malformed` for unreadable data, `invalidRequest` for a missing `nonce`,
  ///   `response_mode` or `dcql_query`, and for a `dc_api.jwt` request without the key or whose
  ///   `client_metadata.jwks` does not hold its public key.
  public init(
    sentRequest data: JSONValue, protocolID: OpenID4VPProtocol, origin: String,
    recipientPrivateKey: ECPrivateKey?
  ) throws(OpenID4VPError) {
    if protocolID == .draft {
      throw OpenID4VPError(
        .invalidRequest,
        "openid4vp (pre-1.0 drafts) responses cannot be verified with OpenID4VP 1.0 semantics")
    }
    let parameters = try protocolID.unverifiedRequestParameters(of: data)
    guard let nonce = parameters["nonce"]?.string else {
      throw OpenID4VPError(.invalidRequest, "the request has no string nonce")
    }
    guard let modeText = parameters["response_mode"]?.string,
      let mode = ResponseMode(rawValue: modeText)
    else {
      throw OpenID4VPError(
        .invalidRequest, "the request's response_mode is not dc_api or dc_api.jwt")
    }
    guard let query = parameters["dcql_query"] else {
      throw OpenID4VPError(.invalidRequest, "the request has no dcql_query")
    }
    var transactionData: [String] = []
    if let entries = parameters["transaction_data"] {
      guard let list = entries.array, list.allSatisfy({ $0.string != nil }) else {
        throw OpenID4VPError(.invalidRequest, "transaction_data must be an array of strings")
      }
      transactionData = list.compactMap(\.string)
    }
    var encryptionKey: JWK? = nil
    if mode == .dcAPIJWT {
      encryptionKey = try Self.publishedKey(recipientPrivateKey, parameters: parameters)
    }
    self.init(
      protocolID: protocolID, origin: origin, nonce: nonce, responseMode: mode,
      encryptionKey: encryptionKey, dcqlQuery: query, transactionData: transactionData)
  }

  /// The response decryption key of a `dc_api.jwt` request, which must be one the request
  /// published in `client_metadata.jwks`, with that JWK's `kid`, `use` and `alg`.
  private static func publishedKey(_ recipientPrivateKey: ECPrivateKey?, parameters: JSONValue)
    throws(OpenID4VPError) -> JWK
  {
    guard let recipientPrivateKey else {
      throw OpenID4VPError(
        .invalidRequest, "the request asks for an encrypted response: give its private key")
    }
    // §8.3: the wallet encrypts to a key of client_metadata.jwks; the handover binds the
    // thumbprint of that key (B.2.6.2), so the key given must be one the request published.
    let published = parameters["client_metadata"]?["jwks"]?["keys"]?.array ?? []
    let candidate = JWK(privateKey: recipientPrivateKey)
    guard
      let match = published.compactMap({ try? JWK(json: $0) }).first(where: {
        $0.thumbprint() == candidate.thumbprint()
      })
    else {
      throw OpenID4VPError(
        .invalidRequest, "the recipient key is not in the request's client_metadata.jwks")
    }
    return JWK(
      privateKey: recipientPrivateKey, kid: match.kid, use: match.use, alg: match.alg)
  }

}
