// In person (ISO 18013-5): the reader scans the wallet's QR code, connects over BLE (the link is
// CoreBluetooth's on Apple platforms), asks for an age and verifies the answer.
import DCMdoc
import DCProximityTransport
import DCVerifier
import Foundation

extension RelyingParty {
  /// Reads `age_over_21` from the wallet whose engagement is `engagementURI` (`mdoc:...`).
  func readInPerson(engagementURI: String, link: any BLELink) async throws -> Bool {
    let transport = try BLEGATTTransport(side: .mdocReader, mode: .mdocPeripheralServer, link: link)
    try await transport.open()
    let reader = try InPersonReader(uri: engagementURI, transport: transport)
    let result = try await reader.request(
      [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_21", intentToRetain: false)])])
      ], reader: .init(signer: readerKey, chain: readerChain),
      issuerTrustAnchors: issuerAnchors, now: Date())
    await reader.terminate()
    return result.documents.contains { document in
      document.elements.contains { $0.identifier == "age_over_21" && $0.value == true }
    }
  }
}
