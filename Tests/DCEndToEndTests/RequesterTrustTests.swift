import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCSDJWT
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWalletCLI

@Suite(
  "Who asks: trusted requesters only under the policy, names only when verified, valid credentials only"
)
struct RequesterTrustTests {
  static let mdlQuery: JSONValue = ["credentials": [ConsentFixture.mdlQuery()]]

  @Test(
    "requireTrustedReader holds for OpenID4VP: unsigned refused, signed only through a trusted chain"
  )
  func trustedRequesterPolicyCoversOpenID4VP() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, unsigned) = try fixture.request(Self.mdlQuery)
    // Without the policy an unsigned request is answered (identified by its origin only)...
    let authenticator = CountingAuthenticator()
    let asking = try fixture.wallet(authenticator: authenticator)
    let open = try await asking.resolve(unsigned, origin: ConsentFixture.origin)
    #expect(open.requester == .unverified(origin: try WebOrigin(ConsentFixture.origin)))
    _ = try await asking.respond(to: open, consent: try open.proposedConsent())
    #expect(
      authenticator.contexts.last?.requester
        == .unverified(origin: try WebOrigin("https://verifier.example")))
    #expect(try await asking.activity().first?.relyingParty == nil)
    // ...under it, it is refused.
    let reason = await walletRefusal {
      _ = try await wallet.resolve(
        unsigned, origin: ConsentFixture.origin,
        policy: WalletPolicy(requireAuthenticatedRequester: true))
    }
    #expect(reason.contains("not signed"))
    let (_, signed) = try fixture.request(Self.mdlQuery, signing: .signed(fixture.signer))
    let trusted = try await wallet.resolve(
      signed, origin: ConsentFixture.origin,
      policy: WalletPolicy(requireAuthenticatedRequester: true))
    #expect(trusted.requester.verifiedName == "x509_san_dns:verifier.example")
    _ = try await asking.respond(to: trusted, consent: try trusted.proposedConsent())
    #expect(authenticator.contexts.last?.requester.verifiedName == "x509_san_dns:verifier.example")
    #expect(try await asking.activity().first?.relyingParty == "x509_san_dns:verifier.example")
    let (_, stranger) = try fixture.request(
      Self.mdlQuery, signing: .signed(fixture.strangerSigner))
    _ = await walletRefusal {
      _ = try await wallet.resolve(
        stranger, origin: ConsentFixture.origin,
        policy: WalletPolicy(requireAuthenticatedRequester: true))
    }
    // A mixed envelope: the unsigned OpenID4VP entry is skipped with its reason, the next answered.
    let both = RequestEnvelope(requests: unsigned.requests + signed.requests)
    let answered = try await wallet.resolve(
      both, origin: ConsentFixture.origin, policy: WalletPolicy(requireAuthenticatedRequester: true)
    )
    #expect(answered.skipped.count == 1 && answered.skipped[0].reason.contains("not signed"))
  }

  /// An Annex C request for the mDL's age_over_18, signed by a self-signed "Your Bank" reader.
  func selfSignedReaderRequest(origin: WebOrigin) throws -> RequestEnvelope {
    let key = try ECPrivateKey(curve: .p256)
    let now = TestPKI.now
    let certificate = try CertificateBuilder.reader(
      commonName: "Your Bank", publicKey: key.publicKey, notBefore: now.addingTimeInterval(-3600),
      notAfter: now.addingTimeInterval(86_400)
    ).selfSigned(signer: key)
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 3, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: info.base64URL, origin: origin.serialized))
    let unsigned = DocRequest(itemsRequest: items)
    let readerAuth = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.bytes(
        sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
      signer: key, chain: [certificate])
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(itemsRequest: items, readerAuth: readerAuth)
      ]),
      encryptionInfo: info)
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
    ])
  }

  @Test("An untrusted reader's certificate name is never shown as the relying party")
  func untrustedNameIsNotShown() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    let origin = try WebOrigin("https://evil.example")
    let request = try await wallet.resolve(
      try selfSignedReaderRequest(origin: origin), origin: origin.serialized)
    #expect(request.requester == .unverified(origin: origin))
    #expect(request.relyingParty == "https://evil.example")
    let consent = try request.proposedConsent()
    let screen = request.consentScreen(for: consent)
    #expect(!screen.contains("Your Bank"))
    #expect(screen.contains("https://evil.example (unverified"))
    #expect(screen.contains("NOT trusted"))
    await wallet.logRefusal(request, reason: "declined by the user")
    _ = try await wallet.respond(to: request, consent: consent)
    #expect(authenticator.contexts.count == 1)
    #expect(authenticator.contexts[0].requester == .unverified(origin: origin))
    #expect(authenticator.contexts[0].requester.verifiedName == nil)
    let log = try await wallet.activity()
    #expect(log.map(\.outcome) == [.shared, .refused])
    #expect(log.allSatisfy { $0.relyingParty == nil })
  }

  @Test("A trusted reader's name is the relying party's, on the prompt and in the log")
  func trustedNameIsShown() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let authenticator = CountingAuthenticator()
    let wallet = try fixture.wallet(authenticator: authenticator)
    let origin = try WebOrigin(ConsentFixture.origin)
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 4, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: info.base64URL, origin: origin.serialized))
    let unsigned = DocRequest(itemsRequest: items)
    let readerAuth = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.bytes(
        sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
      signer: fixture.pki.readerKey, chain: [fixture.pki.reader])
    let data = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(itemsRequest: items, readerAuth: readerAuth)
      ]),
      encryptionInfo: info
    ).data
    let request = try await wallet.resolve(
      RequestEnvelope(requests: [ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: data)]),
      origin: origin.serialized, policy: WalletPolicy(requireAuthenticatedRequester: true))
    #expect(request.requester == .verified(name: "Test Reader", origin: origin))
    _ = try await wallet.respond(to: request, consent: try request.proposedConsent())
    #expect(authenticator.contexts.first?.requester.verifiedName == "Test Reader")
    #expect(try await wallet.activity().first?.relyingParty == "Test Reader")
  }

  @Test("Expired and not yet valid credentials are not offered, by the wallet's clock")
  func invalidCredentialsAreNotOffered() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    // An SD-JWT PID that expires in one day, alone of its type once the other is removed.
    let setup = try fixture.wallet()
    try await setup.removeCredential(id: "pid-sdjwt")
    let holder = try ECPrivateKey(curve: .p256)
    _ = try await setup.importSDJWT(
      try fixture.issueSDJWT(holder: holder, expiresAt: fixture.now.addingTimeInterval(86_400))
        .serialized, deviceKey: holder, id: "short-pid")
    let (_, sdJWTRequest) = try fixture.request([
      "credentials": [ConsentFixture.pidSDJWTQuery]
    ])
    let (_, mdlRequest) = try fixture.request(Self.mdlQuery)
    let origin = ConsentFixture.origin
    // Now: offered.
    _ = try await setup.resolve(sdJWTRequest, origin: origin)
    _ = try await setup.resolve(mdlRequest, origin: origin)
    // Two days later the SD-JWT has expired; the mDLs (valid 90 days) are still offered.
    let later = try fixture.wallet(at: fixture.now.addingTimeInterval(2 * 86_400))
    let expired = await walletRefusal { _ = try await later.resolve(sdJWTRequest, origin: origin) }
    #expect(expired.contains("no request can be answered"))
    _ = try await later.resolve(mdlRequest, origin: origin)
    // A hundred days later the mDLs have expired too, for OpenID4VP and Annex C alike.
    let muchLater = try fixture.wallet(at: fixture.now.addingTimeInterval(100 * 86_400))
    _ = await walletRefusal { _ = try await muchLater.resolve(mdlRequest, origin: origin) }
    let annexC = try selfSignedReaderRequest(origin: try WebOrigin(origin))
    _ = try await setup.resolve(annexC, origin: origin)
    let annexCReason = await walletRefusal {
      _ = try await muchLater.resolve(annexC, origin: origin)
    }
    #expect(annexCReason.contains("no stored mdoc matches"))
    // Two hours before now, the mDLs (valid from an hour ago) are not valid yet.
    let earlier = try fixture.wallet(at: fixture.now.addingTimeInterval(-7200))
    _ = await walletRefusal { _ = try await earlier.resolve(mdlRequest, origin: origin) }
    _ = await walletRefusal { _ = try await earlier.resolve(annexC, origin: origin) }
    // An SD-JWT whose nbf is an hour ago is not offered to a wallet whose clock says two hours ago.
    let late = try ECPrivateKey(curve: .p256)
    _ = try await setup.importSDJWT(
      try fixture.issueSDJWT(
        holder: late, expiresAt: fixture.now.addingTimeInterval(86_400),
        notBefore: fixture.now.addingTimeInterval(-3600)
      ).serialized, deviceKey: late, id: "late-pid")
    try await setup.removeCredential(id: "short-pid")
    _ = try await setup.resolve(sdJWTRequest, origin: origin)
    _ = await walletRefusal { _ = try await earlier.resolve(sdJWTRequest, origin: origin) }
  }
}
