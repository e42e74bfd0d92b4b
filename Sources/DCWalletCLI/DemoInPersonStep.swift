import DCCrypto
import DCMdoc
import DCMdocProximity
import DCProximityTransport
import DCVerifier
import DCWallet
import Foundation

extension DemoCommand {
  /// Step 16: the same wallet presents the mDL in person (ISO 18013-5) to a reader over the
  /// loopback TCP development transport: QR engagement, session encryption, reader
  /// authentication, a deviceMac, the reader's verification and its termination.
  static func runInPerson(_ pki: PKI, wallet: Wallet, _ narrator: Narrator) async throws {
    let (step, say) = (narrator.step, narrator.say)
    step(
      "16. In person (ISO 18013-5) over loopback TCP: QR engagement, encrypted session, deviceMac")
    let listener: LoopbackTCPListener
    let session: HolderSession
    do {
      listener = try LoopbackTCPListener()
      session = try HolderSession.qr(retrievalMethods: [
        .ble(try BLEOptions(peripheralServerUUID: SecureRandom.bytes(count: 16)))
      ])
    } catch {
      throw CommandFailure("in person: \(reason(of: error))")
    }
    defer { listener.close() }
    say("the wallet shows \(session.uri.prefix(60))... (\(session.uri.count) characters)")
    let holder = Task { () throws -> InPersonHolder.Outcome in
      let transport = try await listener.accept(timeout: .seconds(30))
      return try await InPersonHolder(
        wallet: wallet, policy: WalletPolicy(inPersonDeviceAuthentication: .mac)
      ).run(session: session, transport: transport) { request in
        do {
          return .share(try request.proposedConsent())
        } catch {
          return .decline(reason: reason(of: error))
        }
      }
    }
    let result: ProximityReader.Result
    let reader: InPersonReader
    do {
      (result, reader) = try await readAgeOver21(
        engagement: session.uri, port: listener.port, pki, narrator)
    } catch {
      holder.cancel()
      throw CommandFailure("in person: \(reason(of: error))")
    }
    for line in VerifierOutput.text(result) { say(line) }
    await reader.terminate()
    let outcome: InPersonHolder.Outcome
    do {
      outcome = try await holder.value
    } catch {
      throw CommandFailure("in person: \(reason(of: error))")
    }
    say(
      "the reader ended the session (status 20); the wallet answered \(outcome.answered.count) request(s)"
    )
  }

  /// The reader's side: connects to the wallet on `port`, asks for age_over_21 with reader
  /// authentication and verifies the answer; the session is left open.
  private static func readAgeOver21(
    engagement uri: String, port: UInt16, _ pki: PKI, _ narrator: Narrator
  ) async throws -> (ProximityReader.Result, InPersonReader) {
    let transport = try await LoopbackTCPConnector.connect(port: port)
    let reader = try InPersonReader(uri: uri, transport: transport)
    narrator.say("the reader scans it, connects to 127.0.0.1:\(port) and asks for age_over_21")
    let result = try await reader.request(
      [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_21", intentToRetain: false)])])
      ], reader: .init(signer: pki.readerKey, chain: [pki.reader]),
      issuerTrustAnchors: [pki.iaca], now: Date())
    return (result, reader)
  }
}
