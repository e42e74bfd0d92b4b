// Generated from Sources/DCWallet/DCWallet.docc/InPersonPresentation.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCCrypto
import DCMdocProximity
import DCProximityTransport
import DCWallet

// MARK: snippet 1

/// Shows the engagement, then answers the reader over `link` (CoreBluetooth on Apple
/// platforms). Returns how many requests were answered.
func presentInPerson(wallet: Wallet, link: any BLELink, show: (String) -> Void) async throws -> Int {
  let session = try HolderSession.qr(retrievalMethods: [
    .ble(BLEOptions(peripheralServerUUID: SecureRandom.bytes(count: 16)))
  ])
  show(session.uri)  // render as a QR code
  let transport = try BLEGATTTransport(side: .mdoc, mode: .mdocPeripheralServer, link: link)
  try await transport.open()
  let outcome = try await InPersonHolder(wallet: wallet).run(session: session, transport: transport) {
    request in
    // The consent screen: request.requester, request.requesterAuthentication, request.documents.
    do {
      return .share(try request.proposedConsent())
    } catch {
      return .decline(reason: "nothing to share")
    }
  }
  return outcome.answered.count
}
