import DCCBOR
import DCCrypto
import DCMdoc
import DCMdocProximity
import DCProximityTransport
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import Foundation
import Testing

/// A holder and a reader over the real loopback TCP transport, each in its own task.
struct LoopbackSessionPair {
  let holderSession: HolderSession
  let holder: Task<Result<InPersonHolder.Outcome, InPersonSessionError>, Never>
  let reader: InPersonReader
  let readerTransport: LoopbackTCPTransport

  /// Every wait is on an event (a connection, a message, a close), never on the wall clock: a
  /// receive has no timeout, and a guard once expired under load before the holder's task ran
  /// at all. A hang is caught by the suite's time limit instead.
  static let configuration = LoopbackTCPTransport.Configuration(
    receiveTimeout: nil, sendTimeout: .seconds(600), connectTimeout: .seconds(600))

  /// Listens, shows the engagement, connects a reader from its URI and starts the holder.
  static func start(
    wallet: Wallet, policy: WalletPolicy? = nil, maxRequests: Int = 16,
    consent: @escaping @Sendable (PresentationRequest) async -> InPersonDecision
  ) async throws -> LoopbackSessionPair {
    let listener = try LoopbackTCPListener(configuration: configuration)
    let session = try HolderSession.qr(retrievalMethods: [
      .ble(try BLEOptions(peripheralServerUUID: Array(repeating: 0x42, count: 16)))
    ])
    let driver = InPersonHolder(wallet: wallet, policy: policy, maxRequests: maxRequests)
    // Both ends connect here, before the holder's task starts: nothing waits for it to run.
    async let accepted = listener.accept()
    let transport = try await LoopbackTCPConnector.connect(
      port: listener.port, configuration: configuration)
    let holderTransport = try await accepted
    let holder = Task { () -> Result<InPersonHolder.Outcome, InPersonSessionError> in
      do throws(InPersonSessionError) {
        return .success(
          try await driver.run(session: session, transport: holderTransport, consent: consent))
      } catch {
        return .failure(error)
      }
    }
    let reader = try InPersonReader(uri: session.uri, transport: transport)
    return LoopbackSessionPair(
      holderSession: session, holder: holder, reader: reader, readerTransport: transport)
  }
}

/// Shares the claims named, or declines.
func share(_ claims: [String]) -> @Sendable (PresentationRequest) async -> InPersonDecision {
  { request in
    do {
      return .share(
        try request.consent(
          ConsentSelection(
            claims: Set(
              claims.map { ClaimReference.mdoc(nameSpace: "org.iso.18013.5.1", element: $0) }))))
    } catch {
      return .decline(reason: "\(error)")
    }
  }
}

@Suite("In person (ISO 18013-5): whole sessions over loopback TCP", .timeLimit(.minutes(2)))
struct InPersonSessionTests {
  static let mdlType = InPersonFixture.mdlType
  static let ageOnly = ItemsRequest(
    docType: mdlType,
    nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])

  @Test(
    "deviceSignature with a trusted reader: two requests answered, then the reader ends the session"
  )
  func signatureTwoRequests() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), consent: share(["age_over_18", "family_name"]))
    let first = try await pair.reader.request(
      [InPersonFixture.mdl], reader: f.reader, issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    #expect(first.report.checks.contains(.documentDeviceSignature(docType: Self.mdlType)))
    #expect(
      first.documents.first?.elements.map(\.identifier).sorted() == ["age_over_18", "family_name"])
    let second = try await pair.reader.request(
      [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    #expect(second.documents.first?.elements.map(\.identifier) == ["age_over_18"])
    await pair.reader.terminate()
    let outcome = try await pair.holder.value.get()
    #expect(outcome.answered.count == 2)
    #expect(outcome.refusal == nil)
    #expect(outcome.answered.first?.requester.verifiedName == "Test Reader")
    #expect(outcome.answered.last?.requesterAuthentication == .absent)
  }

  @Test("deviceMac by policy, without reader authentication: the reader verifies the MAC")
  func macWithoutReaderAuth() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), policy: WalletPolicy(inPersonDeviceAuthentication: .mac),
      consent: share(["age_over_18"]))
    let result = try await pair.reader.request(
      [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    #expect(result.report.checks.contains(.documentDeviceMac(docType: Self.mdlType)))
    #expect(!result.report.checks.contains(.documentDeviceSignature(docType: Self.mdlType)))
    await pair.reader.terminate()
    #expect(try await pair.holder.value.get().answered.count == 1)
  }

  @Test("deviceMac with reader authentication")
  func macWithReaderAuth() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), policy: WalletPolicy(inPersonDeviceAuthentication: .mac),
      consent: share(["age_over_18"]))
    let result = try await pair.reader.request(
      [Self.ageOnly], reader: f.reader, issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    #expect(result.report.checks.contains(.documentDeviceMac(docType: Self.mdlType)))
    await pair.reader.terminate()
    let outcome = try await pair.holder.value.get()
    #expect(outcome.answered.first?.requesterAuthentication == .trusted)
  }

  @Test("a policy refusal is sent as a DeviceResponse status 10 with termination; the reader fails")
  func policyRefusal() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    var policy = WalletPolicy()
    policy.requireAuthenticatedRequester = true
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), policy: policy, consent: share(["age_over_18"]))
    await #expect {
      _ = try await pair.reader.request(
        [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    } throws: { error in
      (error as? InPersonReaderError)?.code == .verificationFailed
    }
    #expect(await pair.reader.endedByHolder)
    let outcome = try await pair.holder.value.get()
    #expect(outcome.answered.isEmpty)
    #expect(outcome.refusal?.status == DeviceResponse.statusGeneralError)
    #expect(outcome.refusal?.refusals.first?.code == .requesterNotAuthenticated)
    await pair.reader.terminate()
  }

  @Test("the holder declining sends status 10 too, and nothing is shared")
  func decline() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet()
    let pair = try await LoopbackSessionPair.start(
      wallet: wallet, consent: { _ in .decline(reason: "not now") })
    let verificationFailedError = await #expect(throws: InPersonReaderError.self) {
      _ = try await pair.reader.request(
        [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    }
    #expect(verificationFailedError?.code == .verificationFailed)
    let outcome = try await pair.holder.value.get()
    #expect(outcome.refusal?.reason == "not now")
    #expect(outcome.refusal?.status == DeviceResponse.statusGeneralError)
    #expect(try await wallet.activity().first?.outcome == .refused)
  }

  @Test("a request after termination is refused by the reader's session, nothing is sent")
  func requestAfterTermination() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), consent: share(["age_over_18"]))
    _ = try await pair.reader.request(
      [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    await pair.reader.terminate()
    #expect(try await pair.holder.value.get().answered.count == 1)
    await #expect {
      _ = try await pair.reader.request(
        [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    } throws: { error in
      (error as? InPersonReaderError)?.code == .session
    }
  }

  @Test("the holder refuses a message after the reader's termination as a closed session")
  func holderAfterTermination() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    var session = try HolderSession.qr(retrievalMethods: [
      .ble(try BLEOptions(peripheralServerUUID: Array(repeating: 1, count: 16)))
    ])
    var reader = try ReaderSession(uri: session.uri)
    _ = try session.receive(reader.send(request: [0xa0]))
    let ending = reader.terminate()
    let termination = try #require(ending)
    _ = try session.receive(termination)
    let sessionClosedError = #expect(throws: MdocProximityError.self) {
      try session.receive([0xa0])
    }
    #expect(sessionClosedError?.code == .sessionClosed)
  }

  @Test("a closed socket without termination is a transport error, not a refusal")
  func closedSocket() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), consent: share(["age_over_18"]))
    _ = try await pair.reader.request(
      [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    await pair.readerTransport.close()
    let result = await pair.holder.value
    guard case .failure(let error) = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .transport)
  }

  @Test("a message that is not a SessionEstablishment gets status 11, then the holder stops")
  func malformedEstablishment() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), consent: share(["age_over_18"]))
    try await pair.readerTransport.send([0x01, 0x02])
    let status = try await pair.readerTransport.receive()
    #expect(try SessionData(bytes: status).status == .cborDecodingError)
    guard case .failure(let error) = await pair.holder.value else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .session)
  }

  @Test("past maxRequests the holder ends the session with a status")
  func tooManyRequests() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let pair = try await LoopbackSessionPair.start(
      wallet: try f.wallet(), maxRequests: 1, consent: share(["age_over_18"]))
    _ = try await pair.reader.request(
      [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    let sessionError = await #expect(throws: InPersonReaderError.self) {
      _ = try await pair.reader.request(
        [Self.ageOnly], issuerTrustAnchors: [f.pki.iaca], now: f.pki.clock)
    }
    #expect(sessionError?.code == .session)
    guard case .failure(let error) = await pair.holder.value else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .tooManyRequests)
  }

  @Test("the reader refuses an engagement that is not an mdoc: URI")
  func readerBadEngagement() async throws {
    let listener = try LoopbackTCPListener(configuration: LoopbackSessionPair.configuration)
    async let accepted = listener.accept()
    let transport = try await LoopbackTCPConnector.connect(
      port: listener.port, configuration: LoopbackSessionPair.configuration)
    let holderEnd = try await accepted
    let error = #expect(throws: InPersonReaderError.self) {
      _ = try InPersonReader(uri: "https://example.com", transport: transport)
    }
    #expect(error?.code == .invalidEngagement)
    await transport.close()
    await holderEnd.close()
  }

  @Test("a holder that ends the session instead of answering is a session error for the reader")
  func holderTerminatesWithoutAnswer() async throws {
    let listener = try LoopbackTCPListener(configuration: LoopbackSessionPair.configuration)
    let shown = try HolderSession.qr(retrievalMethods: [
      .ble(try BLEOptions(peripheralServerUUID: Array(repeating: 7, count: 16)))
    ])
    let uri = shown.uri
    async let accepted = listener.accept()
    let transport = try await LoopbackTCPConnector.connect(
      port: listener.port, configuration: LoopbackSessionPair.configuration)
    let holderEnd = try await accepted
    let raw = Task { () throws -> Void in
      var holder = shown
      let transport = holderEnd
      _ = try holder.receive(try await transport.receive())
      if let ending = holder.terminate() { try await transport.send(ending) }
      // The reader sends nothing more: its next receive ends at the close.
      _ = try? await transport.receive()
      await transport.close()
    }
    let reader = try InPersonReader(uri: uri, transport: transport)
    await #expect {
      _ = try await reader.request([Self.ageOnly], issuerTrustAnchors: [], now: Date())
    } throws: { error in
      (error as? InPersonReaderError)?.code == .session
    }
    #expect(await reader.endedByHolder)
    await reader.terminate()
    try await raw.value
  }
}
