// In person (ISO 18013-5): the wallet shows a QR code of its device engagement and answers the
// reader over BLE (the link is CoreBluetooth's on Apple platforms).
import DCCrypto
import DCMdocProximity
import DCProximityTransport
import DCWallet

extension WalletApp {
  /// A session engaged by QR code, with BLE peripheral server mode.
  func engagement() throws -> HolderSession {
    try HolderSession.qr(retrievalMethods: [
      .ble(BLEOptions(peripheralServerUUID: SecureRandom.bytes(count: 16)))
    ])
  }

  /// Answers the reader that scanned `session.uri`, over `link`, with the user's consent per
  /// request.
  func presentInPerson(session: HolderSession, link: any BLELink) async throws -> Int {
    print("show as a QR code:", session.uri)
    let transport = try BLEGATTTransport(side: .mdoc, mode: .mdocPeripheralServer, link: link)
    try await transport.open()
    let outcome = try await InPersonHolder(
      wallet: wallet, policy: WalletPolicy(inPersonDeviceAuthentication: .mac)
    ).run(session: session, transport: transport) { request in
      do {
        return .share(try request.proposedConsent())
      } catch {
        return .decline(reason: "nothing to share")
      }
    }
    if let refusal = outcome.refusal { print("refused:", refusal.reason) }
    return outcome.answered.count
  }
}
