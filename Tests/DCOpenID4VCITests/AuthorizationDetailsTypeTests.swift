import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// `authorization_details` whose entries are all of another type than `openid_credential`
/// (OpenID4VCI 1.0 §5.1.1 allows combining types): nothing of OpenID4VCI is in them, so the
/// messages read them as absent, and what they build parses back equal. Found by the
/// `vci-token-response` and `vci-authorization-response` fuzz targets: the details read as an
/// empty array, which the messages then serialised as `[]` and refused (RFC 9396 §2), and the
/// wallet read as "the token grants no credential_identifiers".
@Suite("OpenID4VCI authorization_details of other types")
struct AuthorizationDetailsTypeTests {
  static let foreign = #"[{"type":"payment_initiation","instructedAmount":{"amount":"1"}}]"#
  static let mixed =
    #"[{"type":"payment_initiation"},"#
    + #"{"type":"openid_credential","credential_configuration_id":"mDL","credential_identifiers":["mDL-1"]}]"#

  @Test("A token response with only other types has no authorization details and round-trips")
  func tokenResponse() throws {
    let body = #"{"access_token":"t","token_type":"DPoP","authorization_details":\#(Self.foreign)}"#
    let response = try TokenResponse(jsonBytes: Array(body.utf8))
    #expect(response.authorizationDetails == nil)
    #expect(try TokenResponse(jsonBytes: response.json.serializedBytes()) == response)
    // With an openid_credential entry beside it, that entry is kept.
    let mixed = #"{"access_token":"t","token_type":"DPoP","authorization_details":\#(Self.mixed)}"#
    let kept = try TokenResponse(jsonBytes: Array(mixed.utf8))
    #expect(kept.authorizationDetails?.map(\.credentialIdentifiers) == [["mDL-1"]])
    #expect(try TokenResponse(jsonBytes: kept.json.serializedBytes()) == kept)
  }

  @Test("An authorization request with scope and only other types round-trips")
  func authorizationRequest() throws {
    let parameters = FormParameters([
      ("response_type", "code"), ("client_id", "c"), ("redirect_uri", "https://w.example/cb"),
      ("state", "s"), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
      ("code_challenge_method", "S256"), ("scope", "mdl"),
      ("authorization_details", Self.foreign),
    ])
    let request = try AuthorizationRequest(parameters: parameters)
    #expect(request.authorizationDetails == nil)
    #expect(try AuthorizationRequest(parameters: request.parameters) == request)
  }

  @Test("A token request with only other types round-trips")
  func tokenRequest() throws {
    let body = FormParameters([
      ("grant_type", "authorization_code"), ("code", "c"),
      ("code_verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
      ("redirect_uri", "https://w.example/cb"), ("authorization_details", Self.foreign),
    ]).bodyBytes
    let request = try TokenRequest(body: body)
    #expect(request.authorizationDetails == nil)
    #expect(try TokenRequest(body: request.body) == request)
  }
}
