import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCTestSupport
import DCX509
import Foundation
import Testing

/// The ISO 18013-5 Annex D server-retrieval JWS (§8.3.2.2.2, Annex D.4.2): verified with its
/// `x5c` leaf, whose chain reaches the Annex D IACA, and its payload read as the mDL data.
@Suite("ISO 18013-5 Annex D server retrieval JWS")
struct AnnexDServerRetrievalTests {
  /// Inside the `x5c` certificate's validity (2020-10-01 to 2021-10-01).
  static let validTime = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01

  @Test("The JWS verifies with its x5c leaf, which chains to the Annex D IACA")
  func verifies() throws {
    let vector = try JSONValue(
      parsing: VectorFile.bytes("iso18013-5-annex-d-server-retrieval", in: .module))
    let compact = try #require(vector["server_retrieval_jws"]?.string)
    let iaca = try Certificate(derEncoded: hexBytes(try #require(vector["iaca_der"]?.string)))
    let jws = try CompactJWS(compact)
    #expect(jws.protectedHeader["alg"]?.string == "ES256")
    let chain = try #require(jws.x5c).map { der throws in try Certificate(derEncoded: der) }
    #expect(chain.count == 1)
    #expect(chain[0].subject.commonName == "utopia jws")
    let key = try #require(chain[0].publicKey.ecPublicKey)
    try jws.verifySignature(with: key)
    let trust = CertificateValidator(trustAnchors: [iaca]).validate(
      chain: chain, at: Self.validTime)
    guard case .trusted = trust else {
      Issue.record("the x5c chain does not reach the Annex D IACA: \(trust)")
      return
    }

    let payload = try JSONValue(parsing: jws.payload)
    #expect(payload["doctype"]?.string == "org.iso.18013.5.1.mDL")
    let mdl = try #require(payload["namespaces"]?["org.iso.18013.5.1"])
    #expect(mdl["family_name"]?.string == "Doe")
    #expect(mdl["given_name"]?.string == "Jane")
    #expect(mdl["document_number"]?.string == "123456789")

    // Another payload under the same signature, or another key, does not verify.
    let parts = compact.split(separator: ".").map(String.init)
    let swapped = payload.setting(
      "namespaces", to: ["org.iso.18013.5.1": mdl.setting("family_name", to: "Roe")])
    let forged = try CompactJWS(
      [parts[0], Base64URL.encode(swapped.serializedBytes()), parts[2]].joined(separator: "."))
    let forgedError = #expect(throws: JOSEError.self) { try forged.verifySignature(with: key) }
    #expect(forgedError?.code == .invalidSignature)
    let otherKeyError = #expect(throws: JOSEError.self) {
      try jws.verifySignature(with: try ECPrivateKey(curve: .p256).publicKey)
    }
    #expect(otherKeyError?.code == .invalidSignature)
    // Outside the certificate's validity the chain is not trusted.
    let later = CertificateValidator(trustAnchors: [iaca]).validate(
      chain: chain, at: Self.validTime.addingTimeInterval(86_400 * 365))
    if case .trusted = later { Issue.record("an expired x5c certificate was trusted") }
  }
}
