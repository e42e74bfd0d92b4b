public import DCJSON
import DCOpenID4VCI

extension CredentialIssuerService {
  /// The issuance protocol identifier of OpenID4VCI over the W3C Digital Credentials API (the
  /// DC API's table of supported protocols; openid/OpenID4VCI PR #476, "Protocol").
  package static let digitalCredentialProtocol = "openid4vci-v1"

  /// The argument a page passes to `navigator.credentials.create` to offer `created` to the
  /// holder's wallet through the browser: `{"digital": {"requests": [{"protocol":
  /// "openid4vci-v1", "data": <offer>}]}}` (W3C Digital Credentials API,
  /// `DigitalCredentialCreationOptions`). The data is the Credential Offer object (OpenID4VCI
  /// 1.0 §4.1.1) by value, with this issuer's `credential_issuer_metadata` and, since the issuer
  /// is its own authorization server and the offer names none, `authorization_server_metadata`
  /// (PR #476, "Credential Offer"): the platform's matcher decides offline which wallets can take
  /// it. The page hands it over as it is; it holds the offer's codes, nothing else secret.
  public func digitalCredentialCreationOptions(for created: CreatedOffer) -> JSONValue {
    let data = created.offer.json
      .setting("credential_issuer_metadata", to: issuerMetadata.json)
      .setting("authorization_server_metadata", to: authorizationServerMetadataJSON)
    let request = JSONValue.object([
      ("protocol", .string(Self.digitalCredentialProtocol)), ("data", data),
    ])
    return .object([("digital", .object([("requests", .array([request]))]))])
  }
}
