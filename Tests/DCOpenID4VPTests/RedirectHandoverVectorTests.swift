import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCTestSupport
import Foundation
import Testing

/// OpenID4VP 1.0 §B.2.6.1 (redirect-based flows): every field of the spec's worked example is
/// rebuilt from its inputs, so `Handover.openID4VP` and the transcript around it are checked
/// against published bytes.
struct RedirectHandoverVectorTests {
  @Test("The redirect OpenID4VPHandover example is rebuilt byte for byte")
  func redirectHandoverMatchesTheSpec() throws {
    let vector = try #require(try HandoverVectorTests.vectors()["redirect"])
    let jwk = try JWK(json: try #require(vector["jwk"]))
    let clientID = try #require(vector["client_id"]?.string)
    let nonce = try #require(vector["nonce"]?.string)
    let responseURI = try #require(vector["response_uri"]?.string)
    let thumbprint = jwk.thumbprint()
    #expect(hexString(thumbprint) == vector["jwk_thumbprint"]?.string)

    // OpenID4VPHandoverInfo = [clientId, nonce, jwkThumbprint, responseUri]
    let info: CBOR = [
      .textString(clientID), .textString(nonce), .byteString(thumbprint), .textString(responseURI),
    ]
    let infoHex = try #require(vector["handover_info_cbor"]?.string)
    #expect(hexString(info.encoded()) == infoHex)

    // OpenID4VPHandover = ["OpenID4VPHandover", SHA-256(OpenID4VPHandoverInfoBytes)]
    let handover = Handover.openID4VP(
      clientID: clientID, nonce: nonce, jwkThumbprint: thumbprint, responseURI: responseURI)
    #expect(hexString(handover.encoded()) == vector["handover_cbor"]?.string)
    #expect(handover.array?[1].bytes == SHA256.hash(data: hexBytes(infoHex)))
    let transcript = SessionTranscript(handover: handover)
    #expect(hexString(transcript.bytes) == vector["session_transcript_cbor"]?.string)

    // Every input matters: another response URI or no thumbprint is another handover.
    let other = Handover.openID4VP(
      clientID: clientID, nonce: nonce, jwkThumbprint: thumbprint,
      responseURI: responseURI + "/")
    #expect(other != handover)
    let unencrypted = Handover.openID4VP(
      clientID: clientID, nonce: nonce, jwkThumbprint: nil, responseURI: responseURI)
    #expect(unencrypted != handover)
  }

  @Test("The redirect and DC API examples share their key but not their handover")
  func redirectAndDCAPIDiffer() throws {
    let vectors = try HandoverVectorTests.vectors()
    let redirect = try #require(vectors["redirect"])
    let dcAPI = try #require(vectors["dc_api"])
    #expect(redirect["jwk"] == dcAPI["jwk"])
    #expect(redirect["nonce"] == dcAPI["nonce"])
    #expect(redirect["handover_cbor"] != dcAPI["handover_cbor"])
    #expect(redirect["session_transcript_cbor"] != dcAPI["session_transcript_cbor"])
  }
}
