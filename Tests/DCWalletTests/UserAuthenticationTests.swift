import DCAPI
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCRegistration
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// An authenticator that answers from a script and counts the prompts.
final class ScriptedAuthenticator: UserAuthenticator, @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [AuthenticationOutcome]
  private(set) var prompts: [HolderAuthenticationContext] = []

  init(_ answers: [AuthenticationOutcome]) { self.answers = answers }

  func authenticate(_ context: HolderAuthenticationContext) async -> AuthenticationOutcome {
    lock.withLock {
      prompts.append(context)
      return answers.isEmpty ? .failed("no scripted answer") : answers.removeFirst()
    }
  }
}

@Suite("Holder authentication before sharing")
struct UserAuthenticationTests {
  struct Setup {
    let dir: TemporaryDirectory
    let envelope: RequestEnvelope
    let pki: TestPKI

    init() async throws {
      dir = try TemporaryDirectory()
      pki = try TestPKI(now: Date())
      let wallet = try Wallet(
        home: WalletHome(directory: dir.path), policy: WalletPolicy(acceptsUnverifiedIssuers: true))
      let device = try ECPrivateKey(curve: .p256)
      _ = try await wallet.importMdoc(
        try pki.issue(deviceKey: device.publicKey).bytes, deviceKey: device, id: "mdl")
      let items = ItemsRequest(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      let info = EncryptionInfo(
        nonce: [UInt8](repeating: 1, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
      let request = AnnexCRequest(
        deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
        encryptionInfo: info)
      envelope = RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
      ])
    }

    func wallet(_ authenticator: any UserAuthenticator) throws -> Wallet {
      try Wallet(
        home: WalletHome(directory: dir.path), authenticator: authenticator,
        policy: WalletPolicy(acceptsUnverifiedIssuers: true))
    }
  }

  @Test("A cancelled authentication sends nothing and the same request can be retried")
  func cancelThenRetry() async throws {
    let setup = try await Setup()
    defer { setup.dir.remove() }
    let authenticator = ScriptedAuthenticator([.cancelled, .authenticated])
    let wallet = try setup.wallet(authenticator)
    let request = try await wallet.resolve(setup.envelope, origin: "https://shop.example")
    let consent = try request.proposedConsent()
    await #expect {
      try await wallet.respond(to: request, consent: consent)
    } throws: { ($0 as? WalletError)?.code == .authenticationCancelled }
    #expect(try await wallet.activity().isEmpty)
    let response = try await wallet.respond(to: request, consent: consent)
    #expect(response.protocolIdentifier == "org-iso-mdoc")
    #expect(authenticator.prompts.count == 2)
    #expect(
      authenticator.prompts[0].requester
        == .unverified(origin: try WebOrigin("https://shop.example")))
    #expect(authenticator.prompts[0].credentials.map(\.credentialID) == ["mdl"])
    #expect(authenticator.prompts[0].credentials.first?.types == ["org.iso.18013.5.1.mDL"])
    #expect(authenticator.prompts[0].protocolIdentifier == "org-iso-mdoc")
    #expect(try await wallet.activity().map(\.outcome) == [.shared])
  }

  @Test("A failed authentication refuses; the policy 'never' does not ask")
  func failedAndNever() async throws {
    let setup = try await Setup()
    defer { setup.dir.remove() }
    let failing = ScriptedAuthenticator([.failed("biometry locked")])
    let wallet = try setup.wallet(failing)
    let request = try await wallet.resolve(setup.envelope, origin: "https://shop.example")
    await #expect {
      try await wallet.respond(to: request, consent: try request.proposedConsent())
    } throws: { ($0 as? WalletError)?.code == .refused }
    // The app sets the policy; the request UI (another Wallet on the same store) reads it.
    try await wallet.setUserAuthenticationPolicy(.never)
    let silent = ScriptedAuthenticator([])
    let requestUI = try setup.wallet(silent)
    #expect(try await requestUI.userAuthenticationPolicy() == .never)
    let again = try await requestUI.resolve(setup.envelope, origin: "https://shop.example")
    _ = try await requestUI.respond(to: again, consent: try again.proposedConsent())
    #expect(silent.prompts.isEmpty)
  }

  @Test("The default policy asks before a device key is used")
  func defaultPolicy() async throws {
    let setup = try await Setup()
    defer { setup.dir.remove() }
    let authenticator = ScriptedAuthenticator([.authenticated])
    let wallet = try setup.wallet(authenticator)
    #expect(try await wallet.userAuthenticationPolicy() == .whenKeyUsed)
    let request = try await wallet.resolve(setup.envelope, origin: "https://shop.example")
    _ = try await wallet.respond(to: request, consent: try request.proposedConsent())
    #expect(authenticator.prompts.count == 1)
  }
}

@Suite("Registration descriptions from the store")
struct RegistrationDescriptionTests {
  @Test(
    "Stored mdocs become descriptions with values, issuer AKIs and the invalidation date; expired ones are left out"
  )
  func descriptions() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let pki = try TestPKI(now: Date())
    let wallet = try Wallet(
      home: WalletHome(directory: dir.path), policy: WalletPolicy(acceptsUnverifiedIssuers: true))
    let device = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importMdoc(
      try pki.issue(deviceKey: device.publicKey).bytes, deviceKey: device, id: "mdl")
    let descriptions = try await wallet.registrationDescriptions()
    let mdl = try #require(descriptions.first)
    #expect(descriptions.count == 1 && mdl.id == "mdl")
    guard case .mdoc(let docType, let nameSpaces) = mdl.credential else {
      Issue.record("not an mdoc description")
      return
    }
    #expect(docType == "org.iso.18013.5.1.mDL")
    #expect(nameSpaces["org.iso.18013.5.1"]?["family_name"]?.value == .string("Mustermann"))
    #expect(nameSpaces["org.iso.18013.5.1"]?["portrait"]?.value == .null)
    #expect(
      mdl.ios.supportedIssuerKeyIdentifiers.map(\.bytes) == [pki.iaca.subjectKeyIdentifier ?? []])
    #expect(mdl.ios.invalidationDate != nil)
    // A wallet whose clock is past the validity end registers nothing.
    let later = try Wallet(
      home: WalletHome(directory: dir.path), clock: { Date().addingTimeInterval(86_400 * 400) })
    #expect(try await later.registrationDescriptions().isEmpty)
  }
}
