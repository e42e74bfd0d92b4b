import DCAPI
import DCCrypto
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import Foundation
import Testing

/// The default policy refuses credentials whose last known status is invalid or suspended, on
/// every respond path, and presents those whose status is unknown or never checked.
@Suite("Credential status policy")
struct CredentialStatusPolicyTests {
  static let unknown = CredentialStatusOutcome.unknown(
    CredentialStatusUnknownReason(.unreachable, detail: "connection refused"))

  static func record(_ outcome: CredentialStatusOutcome, _ fixture: ConsentFixture)
    -> CredentialStatusRecord
  {
    CredentialStatusRecord(
      outcome: outcome, checkedAt: fixture.now.addingTimeInterval(-60),
      freshUntil: fixture.now.addingTimeInterval(3600))
  }

  static func annexC(_ wallet: Wallet, policy: WalletPolicy? = nil) async throws
    -> PresentationRequest
  {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    return try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
      ]), origin: ConsentFixture.origin, policy: policy)
  }

  @Test(arguments: [
    (CredentialStatusOutcome.invalid, Refusal.Code.credentialInvalid, "revoked"),
    (.suspended, .credentialSuspended, "suspended"),
  ])
  func openID4VPRefusesAnSDJWTKnownInvalidOrSuspended(
    outcome: CredentialStatusOutcome, code: Refusal.Code, word: String
  ) async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    try await wallet.store.setLastKnownStatus(
      Self.record(outcome, fixture), forCredential: "pid-sdjwt")
    let (_, envelope) = try fixture.request(["credentials": [ConsentFixture.pidSDJWTQuery]])
    do {
      _ = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
      Issue.record("a \(word) credential was offered")
    } catch {
      #expect(error.code == .refused)
      #expect(error.refusals.map(\.code) == [code])
      #expect(error.reason.contains("pid-sdjwt is \(word)"))
    }
    // The policy switch presents it anyway.
    let allowing = try await wallet.resolve(
      envelope, origin: ConsentFixture.origin,
      policy: WalletPolicy(presentsInvalidOrSuspendedCredentials: true))
    _ = try await wallet.respond(to: allowing, consent: try allowing.proposedConsent())
  }

  @Test func unknownAndNeverCheckedArePresented() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    try await wallet.store.setLastKnownStatus(
      Self.record(Self.unknown, fixture), forCredential: "pid-sdjwt")
    try await wallet.store.setLastKnownStatus(
      Self.record(.applicationSpecific(3), fixture), forCredential: "pid-mdoc")
    let (_, envelope) = try fixture.request([
      "credentials": [ConsentFixture.pidSDJWTQuery, ConsentFixture.pidMdocQuery]
    ])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    #expect(request.documents.flatMap(\.candidateIDs).sorted() == ["pid-mdoc", "pid-sdjwt"])
    _ = try await wallet.respond(to: request, consent: try request.proposedConsent())
    // mdl was never checked: Annex C answers with it.
    let annexC = try await Self.annexC(wallet)
    #expect(annexC.documents.first?.candidateIDs == ["mdl", "mdl-2"])
    _ = try await wallet.respond(to: annexC, consent: try annexC.proposedConsent())
  }

  @Test func aRevokedCandidateIsNotOfferedBesideAValidOne() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    try await wallet.store.setLastKnownStatus(
      Self.record(.invalid, fixture), forCredential: "mdl")
    try await wallet.store.setLastKnownStatus(Self.record(.valid, fixture), forCredential: "mdl-2")
    let (_, envelope) = try fixture.request(["credentials": [ConsentFixture.mdlQuery()]])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    #expect(request.documents.flatMap(\.candidateIDs) == ["mdl-2"])
    let annexC = try await Self.annexC(wallet)
    #expect(annexC.documents.first?.candidateIDs == ["mdl-2"])
  }

  @Test func annexCRefusesWhenEveryCandidateIsSuspended() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    for id in ["mdl", "mdl-2"] {
      try await wallet.store.setLastKnownStatus(
        Self.record(.suspended, fixture), forCredential: id)
    }
    do {
      _ = try await Self.annexC(wallet)
      Issue.record("a suspended mdoc was offered")
    } catch let error as WalletError {
      #expect(error.refusals.map(\.code) == [.credentialSuspended])
      #expect(error.reason.contains("is suspended"))
    }
    let allowing = try await Self.annexC(
      wallet, policy: WalletPolicy(presentsInvalidOrSuspendedCredentials: true))
    #expect(allowing.documents.first?.candidateIDs == ["mdl", "mdl-2"])
  }

  @Test func aStatusLearnedAfterResolvingRefusesTheResponse() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(["credentials": [ConsentFixture.pidSDJWTQuery]])
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    let annexC = try await Self.annexC(wallet)
    // A refresh while the consent screen is shown finds both revoked.
    for id in ["pid-sdjwt", "mdl"] {
      try await wallet.store.setLastKnownStatus(Self.record(.invalid, fixture), forCredential: id)
    }
    let reason = await walletRefusal {
      _ = try await wallet.respond(to: request, consent: try request.proposedConsent())
    }
    #expect(reason.contains("pid-sdjwt is revoked"))
    let mdocReason = await walletRefusal {
      _ = try await wallet.respond(to: annexC, consent: try annexC.proposedConsent())
    }
    #expect(mdocReason.contains("mdl is revoked"))
    let log = try await wallet.activity(limit: 1)
    #expect(log.first?.outcome == .refused)
  }

  @Test func inPersonRefusesARevokedMdoc() async throws {
    let f = try await InPersonFixture()
    defer { f.dir.remove() }
    let wallet = try f.wallet()
    let request = try ProximityReader.makeRequest(
      itemsRequests: [InPersonFixture.mdl], sessionTranscript: f.transcript, reader: f.reader)
    // Resolved while valid, then revoked: the response is refused.
    let resolved = try await wallet.resolveInPerson(
      deviceRequest: request.bytes, sessionTranscript: f.transcript)
    try await wallet.store.setLastKnownStatus(
      CredentialStatusRecord(outcome: .invalid, checkedAt: f.pki.clock), forCredential: "mdl")
    let reason = await walletRefusal {
      _ = try await wallet.respondInPerson(to: resolved, consent: try resolved.proposedConsent())
    }
    #expect(reason.contains("mdl is revoked"))
    // Resolved now, the only mDL is not offered.
    let (refusal, _) = await inPersonRefusal {
      _ = try await wallet.resolveInPerson(
        deviceRequest: request.bytes, sessionTranscript: f.transcript)
    }
    #expect(refusal?.code == .credentialInvalid)
  }
}
