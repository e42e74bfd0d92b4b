import DCStore
import DCTrust
import DCWalletStoreTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 29: the wallet decodes a stored list once per row content (its verified tag), not on
/// every trust check, and still sees at once what another connection to the same store (an app
/// and its extension) changes.
@Suite("Decoded stored lists: memo by row tag, seen across connections")
struct TrustedListMemoTests {
  typealias Setup = TrustedListWalletTests.Setup

  @Test("Repeated checks decode a stored list once")
  func decodedOnce() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    for _ in 0..<5 {
      let decision = try await wallet.trustDecision(
        chain: [setup.pki.documentSigner], for: .credentialIssuer)
      #expect(decision.source != nil)
    }
    #expect(wallet.trustedListMemo.decodeCount == 1)
  }

  @Test("Another connection's removal, replacement and addition are seen by the next decision")
  func anotherConnectionsChangesAreSeen() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let app = try setup.wallet()
    let extensionWallet = try setup.wallet()
    let listed = try await extensionWallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    func decision() async throws -> TrustDecision {
      try await app.trustDecision(chain: [setup.pki.documentSigner], for: .credentialIssuer)
    }
    #expect(try await decision().source != nil)

    // Removed through the other connection: the app's next decision refuses.
    try await extensionWallet.removeTrustedList(id: listed.id)
    #expect(try await decision().source == nil)

    // A withdrawn issue imported there: the app's next decision names the withdrawal.
    let withdrawn = try await extensionWallet.importTrustedList(
      try setup.lote(sequence: 2, status: ETSIServiceTypeURI.withdrawn),
      kind: .lote, operatorCertificates: [setup.operatorCertificate])
    #expect(
      try await decision()
        == .untrusted([.serviceNotGranted(kind: .lote, entity: "Development PID Provider")]))

    // Granted again there, then the row's model rewritten without the key, its tag kept: the
    // app decoded that tag's content before, and still refuses the changed row.
    try await extensionWallet.removeTrustedList(id: withdrawn.id)
    let granted = try await extensionWallet.importTrustedList(
      try setup.lote(sequence: 3), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    #expect(try await decision().source != nil)
    let decodes = app.trustedListMemo.decodeCount
    let stranger = TrustedEntity(
      name: "Planted", serviceType: .pidProvider, certificates: [setup.stranger.iaca],
      isGranted: true)
    let widened = TrustedList(
      kind: .lote, operatorName: granted.list.operatorName, sequenceNumber: 3,
      issued: granted.list.issued, nextUpdate: granted.list.nextUpdate,
      entities: granted.list.entities + [stranger], signer: granted.list.signer,
      digest: granted.list.digest)
    _ = try await extensionWallet.store.execute(
      "UPDATE trusted_lists SET verified = ? WHERE id = ?",
      [.blob(widened.storedForm), .text(granted.id)])
    #expect(try await decision().source == nil)
    let planted = try await app.trustDecision(
      chain: [setup.stranger.documentSigner], for: .credentialIssuer)
    #expect(planted.source == nil)
    #expect(app.trustedListMemo.decodeCount == decodes)
  }
}
