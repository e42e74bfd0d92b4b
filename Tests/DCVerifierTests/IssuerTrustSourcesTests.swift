import DCAPI
import DCCrypto
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCOrgIsoMdoc
import DCTrust
import DCVerifier
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 29: the verifier roles decide each issuer through `TrustSources` with the credential's
/// format and docType, refuse an issuer no source trusts, and name the source in the result.
@Suite struct IssuerTrustSourcesTests {
  static let mDL = "org.iso.18013.5.1.mDL"
  static let pidDocType = "eu.europa.ec.eudi.pid.1"
  let fixture: Fixture
  let state: VerifierState
  let response: JSONValue

  init() throws {
    fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPIJWT)
    state = sent.state
    response = try fixture.respond(to: try fixture.parse(sent)).data
  }

  /// A verified VICAL naming `certificate` as an IACA for `docTypes`.
  func vical(_ certificate: Certificate, docTypes: [String]) -> TrustedList {
    TrustedList(
      kind: .vical, operatorName: "Test VICAL", sequenceNumber: 1,
      issued: fixture.now.addingTimeInterval(-60), nextUpdate: nil,
      entities: [
        TrustedEntity(
          name: "Test IACA", serviceType: .mdocIssuingAuthority, certificates: [certificate],
          isGranted: true, docTypes: docTypes)
      ], signer: certificate, digest: [])
  }

  func pidAnchor(_ formats: Set<IssuerCredentialFormat>) -> TrustAnchor {
    TrustAnchor(
      id: "pid root", certificate: fixture.pidRoot, purposes: [.credentialIssuer],
      formats: formats)
  }

  func verify(_ sources: TrustSources) async throws(OpenID4VPError)
    -> VerifiedAuthorizationResponse
  {
    try await state.verifyResponse(
      response, issuerTrust: sources, now: fixture.now, status: .skip)
  }

  func refusal(_ sources: TrustSources) async -> OpenID4VPError? {
    do {
      _ = try await verify(sources)
      Issue.record("the response verified")
      return nil
    } catch {
      return error
    }
  }

  @Test func aVICALEntryForTheDocTypeTrustsTheMDLAndIsNamed() async throws {
    let verified = try await verify(
      TrustSources(
        anchors: [pidAnchor([.sdJWTVC])],
        lists: [vical(fixture.pki.iaca, docTypes: [Self.mDL])]))
    let mdl = try #require(verified.credentials["mdl"]?.first)
    #expect(
      mdl.issuerTrust
        == .listEntry(
          kind: .vical, operatorName: "Test VICAL", issued: fixture.now.addingTimeInterval(-60),
          entity: "Test IACA", serviceType: .mdocIssuingAuthority))
    let pid = try #require(verified.credentials["pid"]?.first)
    #expect(pid.issuerTrust?.isAnchor(id: "pid root") == true)
  }

  /// An IACA listed for the PID only does not make an mDL it signed trusted.
  @Test func aVICALEntryForAnotherDocTypeIsRefusedNamingTheRestriction() async {
    let error = await refusal(
      TrustSources(
        anchors: [pidAnchor([.sdJWTVC])],
        lists: [vical(fixture.pki.iaca, docTypes: [Self.pidDocType])]))
    #expect(error?.code == .invalidPresentation)
    #expect(
      error?.reason.contains("not listed for \(Self.mDL)") == true, "\(String(describing: error))")
  }

  /// An anchor given for mdocs does not make an SD-JWT VC issuer trusted.
  @Test func anAnchorForMdocsDoesNotTrustSDJWTIssuers() async {
    let error = await refusal(
      TrustSources(
        anchors: [
          pidAnchor([.mdoc]),
          TrustAnchor(
            id: "iaca", certificate: fixture.pki.iaca, purposes: [.credentialIssuer],
            formats: [.mdoc]),
        ]))
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.hasPrefix("pid:") == true, "\(String(describing: error))")
  }

  /// A VICAL lists mdoc IACAs: its entry does not make an SD-JWT VC issuer trusted.
  @Test func aVICALEntryDoesNotTrustSDJWTIssuers() async {
    let error = await refusal(
      TrustSources(
        anchors: [
          TrustAnchor(
            id: "iaca", certificate: fixture.pki.iaca, purposes: [.credentialIssuer],
            formats: [.mdoc])
        ], lists: [vical(fixture.pidRoot, docTypes: [])]))
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.hasPrefix("pid:") == true, "\(String(describing: error))")
  }

  /// The same decisions on an org-iso-mdoc (Annex C) response, as `read` and the browser
  /// verifier make them.
  @Test func annexCDocumentsAreDecidedWithTheirDocType() async throws {
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mdl = try fixture.pki.issue(deviceKey: deviceKey.publicKey)
    let annexC = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: Self.mDL,
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      ],
      origin: try WebOrigin("https://verifier.example"))
    let document = try Document.present(
      mdl, disclosing: ["org.iso.18013.5.1": ["age_over_18"]],
      sessionTranscript: annexC.sessionTranscript, deviceKey: deviceKey)
    let sealed = try EncryptedResponse.seal(
      DeviceResponse(documents: [document]),
      to: annexC.request.encryptionInfo.recipientPublicKey,
      sessionTranscript: annexC.sessionTranscript)
    func verify(_ docTypes: [String]) async throws(VerifierError) -> AnnexCVerifier.Result {
      try await AnnexCVerifier.verify(
        responseData: sealed.data, state: annexC,
        issuerTrust: TrustSources(lists: [vical(fixture.pki.iaca, docTypes: docTypes)]),
        now: fixture.now, status: .skip)
    }
    let result = try await verify([Self.mDL])
    #expect(result.documents.first?.issuerTrust?.isListEntry == true)
    do {
      _ = try await verify([Self.pidDocType])
      Issue.record("an mDL verified under an IACA listed for the PID only")
    } catch {
      #expect(error.code == .verificationFailed)
      #expect(error.reason.contains("not listed for \(Self.mDL)"), "\(error.reason)")
    }
  }
}

extension TrustSource {
  func isAnchor(id expected: String) -> Bool {
    if case .anchor(let id, _) = self { return id == expected }
    return false
  }

  var isListEntry: Bool {
    if case .listEntry = self { return true }
    return false
  }
}
