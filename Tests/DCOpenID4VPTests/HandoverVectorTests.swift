import DCCBOR
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCTestSupport
import Foundation
import Testing

/// OpenID4VP 1.0 §B.2.6.2 (DC API) handover examples, rebuilt from their inputs.
struct HandoverVectorTests {
  static func vectors() throws -> JSONValue {
    try JSONValue(parsing: VectorFile.bytes("openid4vp-1.0-handover", in: .module))
  }

  @Test func dcAPIHandoverMatchesTheSpec() throws {
    let vector = try #require(try Self.vectors()["dc_api"])
    let jwk = try JWK(json: try #require(vector["jwk"]))
    let origin = try #require(vector["origin"]?.string)
    let nonce = try #require(vector["nonce"]?.string)
    #expect(hexString(jwk.thumbprint()) == vector["jwk_thumbprint"]?.string)

    let info: CBOR = [.textString(origin), .textString(nonce), .byteString(jwk.thumbprint())]
    #expect(hexString(info.encoded()) == vector["handover_info_cbor"]?.string)

    let handover = Handover.openID4VPDCAPI(
      origin: origin, nonce: nonce, jwkThumbprint: jwk.thumbprint())
    #expect(hexString(handover.encoded()) == vector["handover_cbor"]?.string)
    let transcript = SessionTranscript(handover: handover)
    #expect(hexString(transcript.bytes) == vector["session_transcript_cbor"]?.string)

    // The response encryption this module derives from such a JWK binds the same thumbprint.
    let metadata = try ClientMetadata(
      json: .object([("jwks", .object([("keys", .array([try #require(vector["jwk"])]))]))]))
    let encryption = try metadata.responseEncryption()
    #expect(hexString(encryption.jwkThumbprint) == vector["jwk_thumbprint"]?.string)
    #expect(encryption.enc == .a128gcm)
    #expect(encryption.key.kid == "1")
  }

  @Test func redirectThumbprintMatchesTheSpec() throws {
    let vector = try #require(try Self.vectors()["redirect"])
    let jwk = try JWK(json: try #require(vector["jwk"]))
    #expect(hexString(jwk.thumbprint()) == vector["jwk_thumbprint"]?.string)
  }

  /// The §A payload examples elide `dcql_query` as `{...}`, which is not JSON; a minimal query is
  /// put in its place so the remaining, verbatim parameters can be read.
  @Test(arguments: ["signed_request_payload", "signed_request_payload_compact"])
  func dcAPIExamplePayloadsRead(name: String) throws {
    let examples = try #require(try Self.vectors()["dc_api_examples"])
    let text = try #require(examples[name]?["text"]?.string)
    #expect(text.contains("{...}"))
    let query =
      #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}}]}"#
    let payload = try JSONValue(parsing: text.replacingOccurrences(of: "{...}", with: query))
    #expect(payload["response_mode"]?.string == "dc_api")
    #expect(payload["expected_origins"]?.array?.count == 2)
    let metadata = try ClientMetadata(json: payload["client_metadata"])
    #expect(metadata.jwks.count == 1)
    #expect(metadata.encryptedResponseEncValuesSupported == ["A128GCM"])
    #expect(try metadata.responseEncryption().key.kid == "1")
  }

  @Test func errorExampleReads() throws {
    let examples = try #require(try Self.vectors()["dc_api_examples"])
    let text = try #require(examples["error_invalid_request"]?["text"]?.string)
    let response = try #require(OpenID4VPErrorResponse(data: try JSONValue(parsing: text)))
    #expect(response.error == .invalidRequest)
    #expect(response.errorDescription == nil)
    #expect(response.data == (try JSONValue(parsing: text)))
  }
}
