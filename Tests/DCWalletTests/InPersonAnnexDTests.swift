import DCCrypto
import DCMdoc
import DCTestSupport
import DCWallet
import DCWalletFixtureTestSupport
import DCX509
import Foundation
import Testing

/// The ISO 18013-5 Annex D exchange through the wallet: its mdoc imported with the published
/// SDeviceKey, its DeviceRequest (readerAuth over the Annex D transcript) resolved in person,
/// and the answer under a deviceMac policy, which is the published DeviceResponse byte for byte.
@Suite("In person: the wallet answers the Annex D DeviceRequest with the Annex D DeviceResponse")
struct InPersonAnnexDTests {
  @Test("Annex D: reader authenticated, deviceMac response byte for byte")
  func annexD() async throws {
    let json = try VectorFile.object("iso18013-5-annex-d", in: .module)
    func hex(_ key: String) throws -> [UInt8] { hexBytes(try #require(json[key] as? String)) }
    let certificates = try #require(json["certificates"] as? [String: String])
    func certificate(_ key: String) throws -> Certificate {
      try Certificate(derEncoded: hexBytes(try #require(certificates[key])))
    }
    let keys = try #require(json["keys"] as? [String: [String: String]])
    let sDeviceKey = try ECPrivateKey(
      rawRepresentation: hexBytes(try #require(keys["s_device_key"]?["d"])), curve: .p256)
    // Inside every certificate's and the MSO's validity window.
    let time = try #require(ISO8601DateFormatter().date(from: "2021-01-01T00:00:00Z"))
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let wallet = try Wallet(
      home: WalletHome(directory: dir.path),
      policy: WalletPolicy(inPersonDeviceAuthentication: .mac), clock: { time })
    _ = try await wallet.addTrustAnchor(try certificate("iaca_der"), role: .issuer)
    _ = try await wallet.addTrustAnchor(try certificate("reader_root_der"), role: .reader)
    let published = try DeviceResponse(bytes: try hex("device_response"))
    let issuerSigned = try #require(published.documents.first).issuerSigned
    _ = try await wallet.importMdoc(issuerSigned.bytes, deviceKey: sDeviceKey, id: "annex-d")

    let transcript = try SessionTranscript(taggedBytes: try hex("session_transcript_bytes"))
    let request = try await wallet.resolveInPerson(
      deviceRequest: try hex("device_request"), sessionTranscript: transcript)
    #expect(request.requesterAuthentication == .trusted)
    #expect(
      request.requester.verifiedName == (try certificate("reader_der")).subject.commonName)
    #expect(request.documents.first?.candidateIDs == ["annex-d"])
    let response = try await wallet.respondInPerson(
      to: request, consent: try request.proposedConsent())
    #expect(response == (try hex("device_response")))
  }
}
