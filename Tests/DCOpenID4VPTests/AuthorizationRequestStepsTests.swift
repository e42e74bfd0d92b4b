import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCQL
import Foundation
import Testing

/// The steps of `AuthorizationRequest.init`, each on its own: values in, values out.
@Suite("AuthorizationRequest steps")
struct AuthorizationRequestStepsTests {
  @Test func readDataAcceptsAnObjectOrJSONTextHoldingOne() throws {
    let object: JSONValue = .object([("nonce", "n")])
    #expect(try AuthorizationRequest.readData(object) == object)
    #expect(try AuthorizationRequest.readData(.string(#"{"nonce":"n"}"#)) == object)
    #expect(throws: OpenID4VPError.self) { try AuthorizationRequest.readData(.string("[1]")) }
    #expect(throws: OpenID4VPError.self) { try AuthorizationRequest.readData(.array([])) }
  }

  @Test func commonParametersGiveTheModeAndNonce() throws {
    let parameters: JSONValue = .object([
      ("response_type", "vp_token"), ("response_mode", "dc_api.jwt"), ("nonce", "abc"),
    ])
    let common = try AuthorizationRequest.readCommonParameters(parameters)
    #expect(common.responseMode == .dcAPIJWT)
    #expect(common.nonce == "abc")
    // An empty nonce is refused: it would bind the response to nothing (§5.2).
    let empty: JSONValue = .object([
      ("response_type", "vp_token"), ("response_mode", "dc_api.jwt"), ("nonce", ""),
    ])
    #expect(throws: OpenID4VPError.self) {
      try AuthorizationRequest.readCommonParameters(empty)
    }
  }

  @Test func responseEncryptionIsReadOnlyForDCAPIJWT() throws {
    let key = try ECPrivateKey(curve: .p256)
    let jwk = JWK(publicKey: key.publicKey)
    let parameters: JSONValue = .object([
      ("client_metadata", .object([("jwks", .object([("keys", .array([jwk.json]))]))]))
    ])
    let plain = try AuthorizationRequest.readClientMetadata(parameters, responseMode: .dcAPI)
    #expect(plain.responseEncryption == nil)
    let encrypted = try AuthorizationRequest.readClientMetadata(
      parameters, responseMode: .dcAPIJWT)
    // The key is converted and its thumbprint computed once, when the request is read.
    #expect(encrypted.responseEncryption?.publicKey == key.publicKey)
    #expect(encrypted.responseEncryption?.jwkThumbprint == jwk.thumbprint())
  }

  @Test func transactionDataAbsentIsEmptyAndUnsupportedTypesAreRefused() throws {
    #expect(
      try AuthorizationRequest.readTransactionData(
        nil, credentialQueryIDs: ["q"], supportedTypes: []
      ).isEmpty)
    let entry = Base64URL.encode(
      JSONValue.object([("type", "payment"), ("credential_ids", .array(["q"]))])
        .serializedBytes())
    let read = try AuthorizationRequest.readTransactionData(
      .array([.string(entry)]), credentialQueryIDs: ["q"], supportedTypes: ["payment"])
    #expect(read.map(\.type) == ["payment"])
    #expect(throws: OpenID4VPError.self) {
      try AuthorizationRequest.readTransactionData(
        .array([.string(entry)]), credentialQueryIDs: ["q"], supportedTypes: ["other"])
    }
  }
}
