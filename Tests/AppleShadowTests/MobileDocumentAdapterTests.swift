import DCAPI
import DCCrypto
import DCIdentityDocumentServicesBridge
import DCIdentityDocumentServicesBridge27
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import IdentityDocumentServices
import IdentityDocumentServicesUI
import LocalAuthentication
import Security
import Testing

/// `MobileDocumentRequestAdapter` (iOS 26.0 / 27.0) driven through the shadow SDK's
/// `ISO18013MobileDocumentRequestContext`.
@Suite("Apple shadow: mobile document request adapter")
@MainActor
struct MobileDocumentAdapterTests {
  @Test("Apple's parsed request becomes the presentation model; 27.0 adds issuer key identifiers")
  func translation() async throws {
    let fixture = try await ShadowWalletFixture()
    let chain = [
      try ShadowWalletFixture.certificate(fixture.pki.reader),
      try ShadowWalletFixture.certificate(fixture.pki.readerRoot),
    ]
    let issuerKey = Data(repeating: 0x11, count: 20)
    let context = fixture.context(
      shown: ShadowWalletFixture.appleRequest(chains: [chain], issuerKeys: [issuerKey]),
      presentment: ShadowPresentment())
    let adapter = try MobileDocumentRequestAdapter(context: context)
    #expect(adapter.origin.serialized == ShadowWalletFixture.origin)
    let presentment = try #require(adapter.request.presentmentRequests.first)
    #expect(presentment.isMandatory)
    let document = try #require(presentment.documentRequestSets.first?.requests.first)
    #expect(document.documentType == "org.iso.18013.5.1.mDL")
    #expect(document.namespaces["org.iso.18013.5.1"]?["portrait"]?.isRetaining == true)
    #expect(document.namespaces["org.iso.18013.5.1"]?["family_name"]?.isRetaining == false)
    // The 26.0 reading has no issuer key identifiers; the 27.0 one carries them.
    #expect(document.issuerKeyIdentifiers.isEmpty)
    let iOS27 = try MobileDocumentRequestAdapter.iOS27(context: context)
    #expect(
      iOS27.request.presentmentRequests.first?.documentRequestSets.first?.requests.first?
        .issuerKeyIdentifiers == [Array(issuerKey)])
    // Reader chains as DER, leaf first; the consent screen's trust comes from them.
    #expect(
      adapter.request.requestAuthentications == [
        [fixture.pki.reader.derBytes, fixture.pki.readerRoot.derBytes]
      ])
    let trust = try await adapter.readerTrust(in: try fixture.wallet())
    #expect(trust.count == 1)
    if case .trusted = trust.first {} else { Issue.record("expected a trusted reader: \(trust)") }
  }

  @Test("No requestingWebsiteOrigin, or one that is not an origin: refused before anything shows")
  func origin() async throws {
    let fixture = try await ShadowWalletFixture()
    for origin in [nil, URL(string: "https://verifier.example/path")] {
      let presentment = ShadowPresentment()
      #expect {
        try MobileDocumentRequestAdapter(
          context: fixture.context(origin: origin, presentment: presentment))
      } throws: {
        ($0 as? DigitalCredentialsError)?.code == .invalidOrigin
      }
      #expect(presentment.events.isEmpty)
    }
  }

  @Test("sendResponse: the consistency-checked raw request is answered with the EncryptedResponse")
  func respond() async throws {
    let fixture = try await ShadowWalletFixture()
    let wallet = try fixture.wallet()
    let presentment = ShadowPresentment()
    let adapter = try MobileDocumentRequestAdapter(
      context: fixture.context(presentment: presentment))
    try await adapter.respond(with: wallet, selection: try await Self.selection(adapter, wallet))
    guard case .response(let data) = presentment.events.first, presentment.events.count == 1
    else {
      Issue.record("expected one response, got \(presentment.events)")
      return
    }
    // The bytes are the CBOR EncryptedResponse for the reader, bound to the OS's origin.
    let origin = try WebOrigin(ShadowWalletFixture.origin)
    let opened = try EncryptedResponse(bytes: Array(data)).open(
      privateKey: fixture.readerKey,
      sessionTranscript: fixture.rawRequest().sessionTranscript(origin: origin))
    let response = try DeviceResponse(bytes: opened)
    #expect(response.documents.map(\.docType) == ["org.iso.18013.5.1.mDL"])
  }

  @Test("A raw request asking more than the screen showed is refused inside sendResponse")
  func consistency() async throws {
    let fixture = try await ShadowWalletFixture()
    let wallet = try fixture.wallet()
    // The OS showed the portrait as not retained; the raw request retains it.
    let presentment = ShadowPresentment()
    let adapter = try MobileDocumentRequestAdapter(
      context: fixture.context(
        shown: ShadowWalletFixture.appleRequest(retainingPortrait: false),
        presentment: presentment))
    let selection = try await Self.selection(adapter, wallet)
    await #expect {
      try await adapter.respond(with: wallet, selection: selection)
    } throws: {
      ($0 as? PresentationError)?.code == .consentViolation
    }
    #expect(presentment.sendResponseCalls == 1)
    #expect(presentment.events.count == 2)
    if case .handlerFailed = presentment.events.first {
    } else {
      Issue.record("expected the handler to fail: \(presentment.events)")
    }
    // The request is ended, not left open for a second sendResponse.
    #expect(presentment.events.last == .cancelled)
  }

  @Test("A raw request that is not an mdoc request is refused inside sendResponse")
  func otherRawType() async throws {
    let fixture = try await ShadowWalletFixture()
    let wallet = try fixture.wallet()
    let presentment = ShadowPresentment()
    let adapter = try MobileDocumentRequestAdapter(
      context: fixture.context(type: .openID4VP(.shadowUndocumented), presentment: presentment))
    let selection = try await Self.selection(adapter, wallet)
    await #expect {
      try await adapter.respond(with: wallet, selection: selection)
    } throws: {
      ($0 as? DigitalCredentialsError)?.code == .unsupportedProtocol
    }
    #expect(presentment.events.allSatisfy { if case .response = $0 { false } else { true } })
  }

  @Test(
    "A cancelled Face ID prompt sends nothing and ends the request, whatever sendResponse does",
    arguments: ShadowPresentment.HandlerFailure.allCases)
  func cancelledAuthenticationEndsTheRequest(handlerFailure: ShadowPresentment.HandlerFailure)
    async throws
  {
    let fixture = try await ShadowWalletFixture()
    let wallet = try fixture.wallet(
      authenticator: LocalAuthenticationAuthenticator { _ in "Share your licence" })
    let presentment = ShadowPresentment(handlerFailure: handlerFailure)
    let adapter = try MobileDocumentRequestAdapter(
      context: fixture.context(presentment: presentment))
    let selection = try await Self.selection(adapter, wallet)
    // The wallet's error reaches the caller whether sendResponse rethrows it, throws another
    // error or returns (Apple documents none of these).
    await ShadowLocalAuthentication.$behaviour.withValue(.fail(.userCancel)) {
      await #expect {
        try await adapter.respond(with: wallet, selection: selection)
      } throws: {
        ($0 as? WalletError)?.code == .authenticationCancelled
      }
    }
    #expect(presentment.events.allSatisfy { if case .response = $0 { false } else { true } })
    #expect(presentment.events.last == .cancelled)
    // The request has ended: no second sendResponse, and cancel does nothing more.
    await #expect {
      try await adapter.respond(with: wallet, selection: selection)
    } throws: {
      ($0 as? WalletError)?.code == .refused
    }
    adapter.cancel()
    #expect(presentment.sendResponseCalls == 1)
    #expect(presentment.events.filter { $0 == .cancelled }.count == 1)
  }

  @Test("Cancel reaches the context once; an ended request is not answered")
  func cancel() async throws {
    let fixture = try await ShadowWalletFixture()
    let declined = ShadowPresentment()
    let adapter = try MobileDocumentRequestAdapter(context: fixture.context(presentment: declined))
    adapter.cancel()
    adapter.cancel()
    #expect(declined.events == [.cancelled])
    let wallet = try fixture.wallet()
    let selection = try await Self.selection(adapter, wallet)
    await #expect {
      try await adapter.respond(with: wallet, selection: selection)
    } throws: {
      ($0 as? WalletError)?.code == .refused
    }
    #expect(declined.sendResponseCalls == 0)
  }

  @Test("While a response is being sent, a second respond is refused and cancel does nothing")
  func oneAnswerAtATime() async throws {
    let fixture = try await ShadowWalletFixture()
    let gate = AsyncGate()
    let wallet = try fixture.wallet(authenticator: GatedAuthenticator(gate: gate))
    let presentment = ShadowPresentment()
    let adapter = try MobileDocumentRequestAdapter(
      context: fixture.context(presentment: presentment))
    let selection = try await Self.selection(adapter, wallet)
    let first = Task { try await adapter.respond(with: wallet, selection: selection) }
    await gate.waitUntilEntered()
    await #expect {
      try await adapter.respond(with: wallet, selection: selection)
    } throws: {
      ($0 as? WalletError)?.code == .refused
    }
    adapter.cancel()
    await gate.open()
    try await first.value
    #expect(presentment.sendResponseCalls == 1)
    #expect(presentment.events.count == 1)
    guard case .response = presentment.events.first else {
      Issue.record("expected only the response: \(presentment.events)")
      return
    }
  }

  /// The first answerable set with its first candidates, every shown element disclosed.
  static func selection(_ adapter: MobileDocumentRequestAdapter, _ wallet: Wallet) async throws
    -> MobileDocumentSelection
  {
    let documents = try await adapter.offerableDocuments(in: wallet)
    var choices: [PresentmentChoice] = []
    for (index, sets) in adapter.request.answerableSets(documents).enumerated() {
      guard let set = sets.first else { continue }
      choices.append(
        PresentmentChoice(
          presentmentIndex: index, setIndex: set.setIndex,
          documentIDs: set.candidates.compactMap(\.first)))
    }
    return try MobileDocumentSelection(
      request: adapter.request, choices: choices, documents: documents,
      disclosing: Set(adapter.request.shownElements.keys))
  }
}

/// Holds the holder-authentication step open until the test opens it.
actor AsyncGate {
  private var entered = false
  private var isOpen = false
  private var enteredWaiters: [CheckedContinuation<Void, Never>] = []
  private var openWaiters: [CheckedContinuation<Void, Never>] = []

  /// The first caller waits until `open()`; later ones pass (so a test fails rather than hangs).
  func enter() async {
    if entered { return }
    entered = true
    for waiter in enteredWaiters { waiter.resume() }
    enteredWaiters = []
    if isOpen { return }
    await withCheckedContinuation { openWaiters.append($0) }
  }

  func waitUntilEntered() async {
    if entered { return }
    await withCheckedContinuation { enteredWaiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in openWaiters { waiter.resume() }
    openWaiters = []
  }
}

struct GatedAuthenticator: UserAuthenticator {
  let gate: AsyncGate
  func authenticate(_ holder: HolderAuthenticationContext) async -> AuthenticationOutcome {
    await gate.enter()
    return .authenticated
  }
}
