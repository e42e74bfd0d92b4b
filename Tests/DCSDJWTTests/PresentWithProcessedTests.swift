import DCCrypto
import DCJSON
import DCSDJWT
import Foundation
import Testing

/// `present(disclosing:keyBinding:processed:holderKey:)`: the fast path a wallet takes with a
/// credential processed once keeps the holder-binding check of the plain one.
@Suite("SD-JWT presentation from a processed credential")
struct PresentWithProcessedTests {
  @Test func aKnownCNFKeyStillHasToBeTheSigners() throws {
    let issuerKey = try ECPrivateKey(curve: .p256)
    let holderKey = try ECPrivateKey(curve: .p256)
    let other = try ECPrivateKey(curve: .p256)
    let sdJWT = try SDJWTIssuer.issue(
      claims: .object([("name", "A")]), selectivelyDisclosable: [ClaimPath(dotted: "name")],
      holderKey: holderKey.publicKey, vct: "urn:example:t", issuer: "https://issuer.example",
      issuedAt: Date(), signer: issuerKey, random: SecureRandom())
    let processed = try sdJWT.process()
    let paths = [ClaimPath(dotted: "name")]
    func binding(_ signer: ECPrivateKey) -> KeyBinding {
      KeyBinding(signer: signer, audience: "origin:https://v.example", nonce: "n", issuedAt: Date())
    }
    let fast = try sdJWT.present(
      disclosing: paths, keyBinding: nil, processed: processed, holderKey: holderKey.publicKey)
    #expect(fast == (try sdJWT.present(disclosing: paths, keyBinding: nil)))
    _ = try sdJWT.present(
      disclosing: paths, keyBinding: binding(holderKey), processed: processed,
      holderKey: holderKey.publicKey)
    do {
      _ = try sdJWT.present(
        disclosing: paths, keyBinding: binding(other), processed: processed,
        holderKey: holderKey.publicKey)
      Issue.record("a key binding by another key than cnf.jwk must be refused")
    } catch {
      #expect(error.code == .missingHolderBinding)
    }
  }
}
