import DCCrypto
import DCMdoc
import DCStore
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 13: a response whose device keys are all still in memory is verified and stored in one
/// visit to the store's queue (anchors read, verification, keys wrapped, one write). That path
/// must trust exactly what the two-visit path trusts and give the same outcomes. (In the batch
/// storage suite, whose wallet and PKI it uses.)
extension IssuanceBatchStorageTests {
  func credentialRows() async throws -> Int {
    let rows = try await wallet.store.execute("SELECT count(*) FROM credentials")
    guard case .integer(let count) = rows.first?.first else { return -1 }
    return Int(count)
  }

  /// Three keys and an mdoc bound to each; the second is signed by an issuer nobody trusts.
  func batchWithStranger() throws -> (keys: [ECPrivateKey], payloads: [IssuedCredential.Payload]) {
    let keys = try (0..<3).map { _ in try ECPrivateKey(curve: .p256) }
    let stranger = try TestPKI()
    let payloads = try keys.enumerated().map { index, key in
      IssuedCredential.Payload.msoMdoc(
        issuerSigned: try (index == 1 ? stranger : pki).issue(deviceKey: key.publicKey).bytes)
    }
    return (keys, payloads)
  }

  @Test("an issuer anchor row without the wallet's authentication tag is not trusted")
  func unauthenticatedAnchor() async throws {
    defer { dir.remove() }
    // Written straight to the store, as another program could: no tag.
    try await wallet.store.addTrustAnchor(
      TrustAnchorRecord(
        role: .issuer, certificateDER: pki.iaca.derBytes, subject: "planted"))
    let key = try ECPrivateKey(curve: .p256)
    let payload = IssuedCredential.Payload.msoMdoc(
      issuerSigned: try pki.issue(deviceKey: key.publicKey).bytes)
    let result = try await wallet.storeIssuedCredentials(
      [payload], deviceKeys: [key], expected: Self.expected)
    #expect(result.stored.isEmpty)
    #expect(result.rejected.map(\.code) == [.untrustedIssuer])
    #expect(try await credentialRows() == 0)
    #expect(try await deviceKeyRows() == 0)
    // The same anchor added through the wallet is trusted.
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let again = try await wallet.storeIssuedCredentials(
      [payload], deviceKeys: [key], expected: Self.expected)
    #expect(again.stored.count == 1)
  }

  @Test("keys in memory (one visit) and keys in the key store (two visits) give the same outcomes")
  func samePathOutcomes() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let (keys, payloads) = try batchWithStranger()
    let inMemory = try await wallet.storeIssuedCredentials(
      payloads, deviceKeys: keys, expected: Self.expected, notificationID: "n")
    let (otherKeys, otherPayloads) = try batchWithStranger()
    let keyIDs = try await wallet.keys.importKeys(otherKeys)
    let stored = try await wallet.storeIssuedCredentials(
      otherPayloads, deviceKeyIDs: keyIDs, expected: Self.expected, notificationID: "n")
    for result in [inMemory, stored] {
      #expect(result.outcomes.count == 3)
      #expect(result.stored.count == 2)
      #expect(result.rejected.map(\.code) == [.untrustedIssuer])
      #expect(Set(result.stored.compactMap(\.issuance?.batchID)).count == 1)
      #expect(result.stored.allSatisfy { $0.issuance?.notificationID == "n" })
    }
    // The stored keys are the ones each credential binds; the refused key was not kept on the
    // one-visit path and was deleted again on the other.
    for (index, outcome) in inMemory.outcomes.enumerated() where index != 1 {
      let keyID = try #require(try outcome.get().deviceKeyID)
      #expect(try await wallet.keys.publicKey(for: keyID) == keys[index].publicKey)
    }
    #expect(try await deviceKeyRows() == 4)
    #expect(try await credentialRows() == 4)
  }
}
