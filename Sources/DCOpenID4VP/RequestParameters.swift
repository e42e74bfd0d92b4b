import DCJOSE
package import DCJSON

extension OpenID4VPProtocol {
  /// The authorization request parameters that a DC API `data` value carries under this
  /// protocol, read without checking any signature (OpenID4VP 1.0 Appendix A.3): `data` itself
  /// (unsigned, A.3.1), the payload of the compact JWS in `data.request` (signed, A.3.2) or the
  /// payload of the JWS JSON serialization in `data.request` or `data`, as an object or as its
  /// text (multisigned, A.3.2).
  ///
  /// For what a request asks, not whether it may ask: the wallet authenticates requests with
  /// `AuthorizationRequest`, and a verifier reads its own sent request with this.
  ///
  /// - Throws: `unsupportedProtocol` for the pre-1.0 `openid4vp` identifier, `malformed` when
  ///   the JWS or its payload cannot be read or the parameters are not a JSON object.
  package func unverifiedRequestParameters(of data: JSONValue) throws(OpenID4VPError) -> JSONValue {
    let parameters: JSONValue
    switch self {
    case .draft:
      throw OpenID4VPError(
        .unsupportedProtocol, "openid4vp (pre-1.0 drafts) requests are not read with 1.0 semantics")
    case .unsigned:
      parameters = data
    case .signed:
      guard let compact = data["request"]?.string else {
        throw OpenID4VPError(.malformed, "a signed request is {\"request\": <compact JWS>}")
      }
      parameters = try Self.payload { () throws(JOSEError) in try CompactJWS(compact).payload }
    case .multisigned:
      var serialization = data["request"] ?? data
      if case .string(let text) = serialization {
        do {
          serialization = try JSONValue(parsing: text)
        } catch {
          throw OpenID4VPError(.malformed, "the request JWS: \(error.reason)", underlying: error)
        }
      }
      let object = serialization
      parameters = try Self.payload { () throws(JOSEError) in try JWSJSON(json: object).payload }
    }
    guard case .object = parameters else {
      throw OpenID4VPError(.malformed, "the request parameters must be a JSON object")
    }
    return parameters
  }

  private static func payload(_ read: () throws(JOSEError) -> [UInt8]) throws(OpenID4VPError)
    -> JSONValue
  {
    let bytes: [UInt8]
    do {
      bytes = try read()
    } catch {
      throw OpenID4VPError(.malformed, "the request JWS: \(error.reason)", underlying: error)
    }
    do {
      return try JSONValue(parsing: bytes)
    } catch {
      throw OpenID4VPError(.malformed, "the request JWS: \(error.reason)", underlying: error)
    }
  }
}
