import DCAPI
import DCCBOR
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCVerifier
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 10 §4: verifying a captured exchange without a state (the request as sent, the origin
/// and the verifier's key) and exact origins. The exchanges the wallet answers (direct trust in
/// a pinned document signer, a one-day MSO) are in DCEndToEndTests, CapturedExchangeEndToEndTests.
@Suite("Captured Annex C exchanges")
struct CapturedExchangeTests {
  struct WaltID {
    let origin: String
    let data: JSONValue
    let response: JSONValue
    let key: ECPrivateKey
    let transcriptDigest: String
    let deviceResponseDigest: String

    init() throws {
      let vector = try #require(
        try JSONValue(parsing: VectorFile.bytes("annex-c-waltid-deterministic", in: .module))[
          "vector"])
      origin = try #require(vector["origin"]?.string)
      data = .object([
        ("deviceRequest", .string(try #require(vector["deviceRequestB64"]?.string))),
        ("encryptionInfo", .string(try #require(vector["encryptionInfoB64"]?.string))),
      ])
      response = .object([
        ("response", .string(try #require(vector["encryptedResponseB64"]?.string)))
      ])
      key = try ECPrivateKey(
        rawRepresentation: hexBytes(try #require(vector["recipientPrivateKeyHex"]?.string)),
        curve: .p256)
      transcriptDigest = try #require(
        vector["expected"]?["sessionTranscriptCborSha256Hex"]?.string)
      deviceResponseDigest = try #require(
        vector["expected"]?["deviceResponseCborSha256Hex"]?.string)
    }
  }

  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test("walt.id capture: the transcript and the opened DeviceResponse match the published digests")
  func waltIDOpens() throws {
    let vector = try WaltID()
    let state = try AnnexCVerifier.State(
      sentRequest: vector.data, origin: vector.origin, recipientPrivateKey: vector.key)
    #expect(Self.hex(SHA256.hash(data: state.sessionTranscript.bytes)) == vector.transcriptDigest)
    let plaintext = try EncryptedResponse(data: vector.response).open(
      privateKey: vector.key, sessionTranscript: state.sessionTranscript)
    #expect(Self.hex(SHA256.hash(data: plaintext)) == vector.deviceResponseDigest)
  }

  @Test("walt.id capture: it opens, but a DeviceResponse without documents verifies nothing")
  func waltIDHoldsNoDocuments() throws {
    let vector = try WaltID()
    let state = try AnnexCVerifier.State(
      sentRequest: vector.data, origin: vector.origin, recipientPrivateKey: vector.key)
    #expect {
      try AnnexCVerifier.verify(
        responseData: vector.response, state: state, issuerTrustAnchors: [], now: Date())
    } throws: {
      let error = $0 as? VerifierError
      return error?.code == .verificationFailed
        && error?.reason
          == "the response opened and its DeviceResponse 1.0 has status 0 (OK), but it holds no "
          + "documents: nothing was presented for org.iso.18013.5.1.mDL"
    }
  }

  @Test("The origin is compared exactly: another spelling of the same origin does not open")
  func exactOrigin() throws {
    let vector = try WaltID()
    for spelling in [
      "https://Verifier.example", "https://verifier.example:443", "https://verifier.example/",
    ] {
      let state = try AnnexCVerifier.State(
        sentRequest: vector.data, origin: spelling, recipientPrivateKey: vector.key)
      #expect {
        try AnnexCVerifier.verify(
          responseData: vector.response, state: state, issuerTrustAnchors: [], now: Date())
      } throws: { ($0 as? VerifierError)?.code == .decryptionFailed }
    }
  }

  @Test("A recipient key other than the one the request's EncryptionInfo names is refused")
  func wrongRecipientKey() throws {
    let vector = try WaltID()
    #expect {
      try AnnexCVerifier.State(
        sentRequest: vector.data, origin: vector.origin,
        recipientPrivateKey: try ECPrivateKey(curve: .p256))
    } throws: {
      ($0 as? VerifierError)
        == VerifierError(
          .invalidEncryptionInfo,
          "the recipient key is not the one the request's EncryptionInfo names")
    }
  }
}
