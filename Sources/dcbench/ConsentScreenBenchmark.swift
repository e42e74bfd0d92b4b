import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import Foundation

/// The consent screen for a large request (issue 10 §7.9): an Annex C request for the mDL's 30
/// elements plus thousands the mDL does not hold. The screen must grow linearly with the request,
/// so eight times the elements may cost about eight times as much, not sixty-four; and building
/// it should cost about what resolving the request it shows costs. Measured on 2 cores: before
/// the fix 51x and 96x (debug), after 9.3x and 0.9x (release).
func consentScreenBenchmark(_ h: inout Harness) async throws {
  let fixture = try AnnexCFixture()
  let home = WalletHome(
    directory: FileManager.default.temporaryDirectory.appendingPathComponent(
      "dcbench-consent-\(UUID().uuidString)"
    ).path)
  defer { try? FileManager.default.removeItem(atPath: home.directory) }
  let wallet = try Wallet(home: home)
  _ = try await wallet.addTrustAnchor(fixture.iaca, role: .issuer)
  _ = try await wallet.importMdoc(
    fixture.credentials[0].issuerSigned.bytes, deviceKey: fixture.deviceKey, id: "mdl")
  let origin = fixture.origin.serialized

  func envelope(elements: Int) throws -> RequestEnvelope {
    var requested = (1..<30).map { ItemsRequest.Element("element_\($0)", intentToRetain: false) }
    for i in 0..<elements {
      requested.append(ItemsRequest.Element("absent_\(i)", intentToRetain: i.isMultiple(of: 2)))
    }
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(
          itemsRequest: ItemsRequest(
            docType: "org.iso.18013.5.1.mDL", nameSpaces: [("org.iso.18013.5.1", requested)]))
      ]),
      encryptionInfo: EncryptionInfo(
        nonce: SecureRandom.bytes(count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    let data = JSONValue.object([("protocol", "org-iso-mdoc"), ("data", request.data)])
    print("  request with \(elements + 29) elements: \(data.serialized().utf8.count / 1024) KB")
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
    ])
  }

  let small = try envelope(elements: 2_000)
  let large = try envelope(elements: 16_000)
  let smallRequest = try await wallet.resolve(small, origin: origin)
  let largeRequest = try await wallet.resolve(large, origin: origin)
  let smallConsent = try smallRequest.proposedConsent()
  let largeConsent = try largeRequest.proposedConsent()
  let resolve = try await h.measureAsync("resolve the 16,029-element request", iterations: 3) {
    blackHole(try await wallet.resolve(large, origin: origin))
  }
  let smallScreen = h.measure("consent screen, 2,029 elements", iterations: 10) {
    blackHole(smallRequest.screen(for: smallConsent))
  }
  let largeScreen = h.measure("consent screen, 16,029 elements", iterations: 3) {
    blackHole(largeRequest.screen(for: largeConsent))
  }
  Harness.ratio(
    "screen 16,029 / screen 2,029 (linear: 8x)", largeScreen, over: smallScreen, aim: 12)
  Harness.ratio("screen / resolve, 16,029 elements", largeScreen, over: resolve, aim: 1.5)
}
