import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCTestSupport
import Testing

/// The presentation binding outside the DC API (OpenID4VP 1.0 B.2.6.1, B.3.6).
struct RedirectBindingTests {
  @Test("The redirect SessionTranscript is the spec's example, byte for byte")
  func sessionTranscriptMatchesTheSpec() throws {
    let vector = try #require(try HandoverVectorTests.vectors()["redirect"])
    let jwk = try JWK(json: try #require(vector["jwk"]))
    let clientID = ClientIdentifier(try #require(vector["client_id"]?.string))
    let transcript = RedirectBinding.sessionTranscript(
      clientID: clientID, nonce: try #require(vector["nonce"]?.string),
      jwkThumbprint: jwk.thumbprint(), responseURI: try #require(vector["response_uri"]?.string))
    #expect(hexString(transcript.bytes) == vector["session_transcript_cbor"]?.string)
    // Without encryption the thumbprint is CBOR null, so another transcript.
    let plain = RedirectBinding.sessionTranscript(
      clientID: clientID, nonce: try #require(vector["nonce"]?.string), jwkThumbprint: nil,
      responseURI: try #require(vector["response_uri"]?.string))
    #expect(plain != transcript)
    let info: CBOR = [
      .textString(clientID.rawValue), .textString(try #require(vector["nonce"]?.string)), .null,
      .textString(try #require(vector["response_uri"]?.string)),
    ]
    #expect(plain.handover.array?[1].bytes == SHA256.hash(data: info.encoded()))
  }

  @Test("The Key Binding audience is the full client_id, prefix included")
  func keyBindingAudienceIsTheClientID() {
    #expect(
      RedirectBinding.keyBindingAudience(clientID: ClientIdentifier("x509_san_dns:rp.example"))
        == "x509_san_dns:rp.example")
    #expect(
      RedirectBinding.keyBindingAudience(
        clientID: ClientIdentifier("redirect_uri:https://rp.example/cb"))
        == "redirect_uri:https://rp.example/cb")
  }
}
