import DCCrypto
import DCMdoc
import DCTrust
import DCWalletStoreTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet

/// Issue 29: VICALs and RICALs go through the wallet's import like the ETSI lists, and a stored
/// VICAL entry keeps its docType restriction when the list is read back from the store.
@Suite("VICAL and RICAL in the wallet: import, docType restriction after a reload")
struct VICALWalletTests {
  typealias Setup = TrustedListWalletTests.Setup

  static let mDL = "org.iso.18013.5.1.mDL"

  /// A VICAL (or RICAL) listing `certificate` for `docTypes`, signed by the setup's operator.
  func list(
    _ setup: Setup, kind: TrustedListKind, certificate: Certificate, docTypes: [String] = []
  ) throws -> [UInt8] {
    try TrustedList.signingCertificateAuthorityList(
      kind: kind, provider: "Development List Operator", issued: setup.issued,
      nextUpdate: setup.issued.addingTimeInterval(86_400 * 30), issueID: 1,
      entities: [
        TrustedEntity(
          name: "Development Authority",
          serviceType: kind == .vical ? .mdocIssuingAuthority : .mdocReaderAuthority,
          certificates: [certificate], isGranted: true, docTypes: docTypes)
      ], signer: setup.operatorKey, signerChain: [setup.operatorCertificate])
  }

  @Test(
    "A VICAL entry listed for the PID only does not trust an mDL, read back from the store; one for the mDL does"
  )
  func vicalDocTypes() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try list(
        setup, kind: .vical, certificate: setup.pki.iaca, docTypes: ["eu.europa.ec.eudi.pid.1"]),
      kind: .vical, operatorCertificates: [setup.operatorCertificate])
    let reloaded = try await wallet.trustedListListing().lists
    #expect(reloaded.first?.list.entities.first?.docTypes == ["eu.europa.ec.eudi.pid.1"])
    let mdoc = try setup.pki.issue(deviceKey: setup.device.publicKey).bytes
    // The refusal names the restriction, not "no issuer trust anchor".
    do {
      _ = try await wallet.importMdoc(mdoc, deviceKey: setup.device)
      Issue.record("an mDL imported under an IACA listed for the PID only")
    } catch {
      #expect(error.code == .importRejected)
      #expect(
        error.reason.contains("listed for eu.europa.ec.eudi.pid.1 only, not \(Self.mDL)"),
        "\(error.reason)")
    }

    let forMDL = try await wallet.importTrustedList(
      try list(setup, kind: .vical, certificate: setup.pki.iaca, docTypes: [Self.mDL]),
      kind: .vical, operatorCertificates: [setup.operatorCertificate])
    let credential = try await wallet.importMdoc(mdoc, deviceKey: setup.device)
    let decision = try await wallet.issuerTrustDecision(for: credential)
    guard case .listEntry(let kind, _, _, let entity, let service)? = decision?.source else {
      Issue.record("the mDL is not trusted by the VICAL: \(String(describing: decision))")
      return
    }
    #expect(kind == .vical && entity == "Development Authority")
    #expect(service == .mdocIssuingAuthority)

    // Without the mDL's list, the PID-only entry does not trust the stored mDL.
    try await wallet.removeTrustedList(id: forMDL.id)
    guard case .untrusted(let reasons)? = try await wallet.issuerTrustDecision(for: credential)
    else {
      Issue.record("an entry listed for the PID trusts an mDL after a reload")
      return
    }
    #expect(reasons.contains { if case .docTypeNotListed = $0 { true } else { false } })
  }

  /// A VICAL lists mdoc IACAs: its entry does not trust an SD-JWT VC issuer at import.
  @Test("A VICAL entry does not make an SD-JWT VC's issuer trusted")
  func vicalDoesNotTrustSDJWT() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try list(setup, kind: .vical, certificate: setup.pki.iaca), kind: .vical,
      operatorCertificates: [setup.operatorCertificate])
    let sources = try await wallet.trustSources()
    #expect(!sources.anchorCertificates(for: .credentialIssuer, at: Date(), format: .mdoc).isEmpty)
    #expect(
      sources.anchorCertificates(for: .credentialIssuer, at: Date(), format: .sdJWTVC).isEmpty)
  }

  @Test(
    "A RICAL listing the reader CA authenticates the reader in person; a tampered one is refused")
  func rical() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    var tampered = try list(setup, kind: .rical, certificate: setup.pki.readerRoot)
    tampered[tampered.count - 1] ^= 1
    await #expect(throws: WalletError.self) {
      try await wallet.importTrustedList(
        tampered, kind: .rical, operatorCertificates: [setup.operatorCertificate])
    }
    try await wallet.importTrustedList(
      try list(setup, kind: .rical, certificate: setup.pki.readerRoot), kind: .rical,
      operatorCertificates: [setup.operatorCertificate])
    try await wallet.importTrustedList(
      try list(setup, kind: .vical, certificate: setup.pki.iaca), kind: .vical,
      operatorCertificates: [setup.operatorCertificate])
    _ = try await wallet.importMdoc(
      try setup.pki.issue(deviceKey: setup.device.publicKey).bytes, deviceKey: setup.device)
    let (listed, transcript) = try setup.inPersonRequest(setup.pki)
    let request = try await wallet.resolveInPerson(
      deviceRequest: listed, sessionTranscript: transcript)
    guard case .listEntry(let kind, _, _, _, let service)? = request.requesterTrust?.source else {
      Issue.record(
        "the reader is not trusted by the RICAL: \(String(describing: request.requesterTrust))")
      return
    }
    #expect(kind == .rical && service == .mdocReaderAuthority)
  }
}
