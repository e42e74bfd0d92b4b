import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCStore
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// OpenID4VCI issue 13: credentials an issuer returned are verified before storage, one typed
/// outcome per credential; each test passes every check but the one it names.
@Suite("Issued credentials: verified before storage")
struct IssuedCredentialStorageTests {
  static let mdl = "org.iso.18013.5.1.mDL"
  static let issuerID = "https://issuer.example"
  static let display = [
    IssuerCredentialDisplay(
      name: "Mobile Driving Licence", locale: "en-US", logoURI: "https://issuer.example/logo.png",
      backgroundColor: "#12107c", textColor: "#FFFFFF"),
    IssuerCredentialDisplay(name: "Mobiler Führerschein", locale: "de-DE"),
  ]

  let dir: TemporaryDirectory
  let pki: TestPKI
  let wallet: Wallet

  init() throws {
    dir = try TemporaryDirectory()
    pki = try TestPKI()
    let now = pki.clock
    wallet = try Wallet(home: WalletHome(directory: dir.path), clock: { now })
  }

  static func expectation(
    format: CredentialFormat = .msoMdoc, type: String = mdl, configuration: String = "mDL"
  ) -> IssuanceExpectation {
    IssuanceExpectation(
      credentialIssuer: issuerID, configurationID: configuration, format: format, type: type,
      display: display)
  }

  /// A fresh device key in the wallet's key store, as the client makes one for each proof.
  func deviceKey() async throws -> (id: String, publicKey: ECPublicKey) {
    try await wallet.keys.createKey(curve: .p256)
  }

  func mdoc(_ issuerSigned: IssuerSigned, key: String) throws -> IssuedCredential {
    try IssuedCredential(
      format: .msoMdoc, credential: Base64URL.encode(issuerSigned.bytes), deviceKeyID: key)
  }

  /// Stores one credential and returns its single outcome.
  func store(
    _ credential: IssuedCredential, expected: IssuanceExpectation = expectation(),
    trust: IssuanceTrustOptions = IssuanceTrustOptions()
  ) async throws -> Result<StoredCredential, IssuanceRejection> {
    let result = try await wallet.storeIssuedCredentials(
      [credential], expected: expected, notificationID: "n-1", trust: trust)
    #expect(result.outcomes.count == 1)
    return result.outcomes[0]
  }

  /// The rejection code, recording an issue when the credential was stored.
  func rejection(
    _ outcome: Result<StoredCredential, IssuanceRejection>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> IssuanceRejectionCode? {
    switch outcome {
    case .success(let stored):
      Issue.record("stored \(stored.id) although it should fail", sourceLocation: sourceLocation)
      return nil
    case .failure(let rejection):
      // Nothing was stored.
      #expect(try await wallet.credentials().isEmpty, sourceLocation: sourceLocation)
      return rejection.code
    }
  }

  // MARK: mso_mdoc

  @Test("An mdoc that verifies is stored with its provenance and the issuer's display name")
  func mdocStored() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let outcome = try await store(mdoc(pki.issue(deviceKey: key.publicKey), key: key.id))
    let stored = try outcome.get()
    #expect(stored.format == .msoMdoc && stored.type == Self.mdl)
    #expect(stored.display.title == "Mobile Driving Licence")
    #expect(stored.deviceKeyID == key.id)
    #expect(stored.issuerTrust == .trusted)
    #expect(
      stored.issuance
        == IssuanceProvenance(
          credentialIssuer: Self.issuerID, configurationID: "mDL", display: Self.display,
          notificationID: "n-1", trustBasis: .walletAnchor))
    #expect(try await wallet.credentials() == [stored])
  }

  @Test("An mdoc whose chain reaches no wallet anchor is refused and its device key deleted")
  func mdocUntrustedChain() async throws {
    defer { dir.remove() }
    let other = try TestPKI()
    _ = try await wallet.addTrustAnchor(other.iaca, role: .issuer)
    let key = try await deviceKey()
    let outcome = try await store(mdoc(pki.issue(deviceKey: key.publicKey), key: key.id))
    #expect(try await rejection(outcome) == .untrustedIssuer)
    if case .failure(let rejection) = outcome { #expect(rejection.deviceKeyID == key.id) }
    let gone = await #expect(throws: WalletStoreError.self) {
      _ = try await wallet.keys.publicKey(for: key.id)
    }
    #expect(gone?.code == .notFound)
  }

  @Test("An mdoc bound to a key that is not the proof's key is refused")
  func mdocDeviceKeyNotOurs() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let stranger = try ECPrivateKey(curve: .p256)
    let outcome = try await store(mdoc(pki.issue(deviceKey: stranger.publicKey), key: key.id))
    #expect(try await rejection(outcome) == .deviceKeyMismatch)
  }

  @Test("An mdoc with an IssuerSignedItem changed after signing is refused")
  func mdocTamperedDigest() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let genuine = try pki.issue(deviceKey: key.publicKey)
    let nameSpaces = genuine.nameSpaces.map { ns in
      (
        nameSpace: ns.nameSpace,
        items: ns.items.map { item in
          item.elementIdentifier == "family_name"
            ? IssuerSignedItem(
              digestID: item.digestID, random: item.random, elementIdentifier: "family_name",
              elementValue: "Mallory")
            : item
        }
      )
    }
    let tampered = try IssuerSigned(nameSpaces: nameSpaces, issuerAuth: genuine.issuerAuth)
    #expect(try await rejection(store(mdoc(tampered, key: key.id))) == .digestMismatch)
  }

  @Test("An expired mdoc, a not yet valid one and one signed in the future are refused")
  func mdocValidity() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let now = pki.clock
    let expired = try await deviceKey()
    let outcome = try await store(
      mdoc(
        pki.issue(
          deviceKey: expired.publicKey, validFrom: now.addingTimeInterval(-7200),
          validUntil: now.addingTimeInterval(-60)), key: expired.id))
    #expect(try await rejection(outcome) == .expired)
    let early = try await deviceKey()
    let notYet = try await store(
      mdoc(
        pki.issue(deviceKey: early.publicKey, validFrom: now.addingTimeInterval(3600)),
        key: early.id))
    #expect(try await rejection(notYet) == .notYetValid)
    // `signed` an hour ahead of the wallet's clock (ISO 18013-5 §9.1.2.4).
    let future = try await deviceKey()
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    let signedLater = try issuer.issue(
      docType: Self.mdl, nameSpaces: [("org.iso.18013.5.1", [("age_over_18", true)])],
      deviceKey: future.publicKey,
      validity: ValidityInfo(
        signed: now.addingTimeInterval(3600), validFrom: now.addingTimeInterval(-60),
        validUntil: now.addingTimeInterval(86_400)))
    #expect(try await rejection(store(mdoc(signedLater, key: future.id))) == .notYetValid)
  }

  @Test("An mdoc whose validFrom is a few seconds ahead of the wallet's clock is stored")
  func mdocClockSkew() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let issuer = MdocIssuer(signer: pki.dsKey, certificateChain: [pki.documentSigner])
    let now = pki.clock
    let ahead = try issuer.issue(
      docType: Self.mdl, nameSpaces: [("org.iso.18013.5.1", [("age_over_18", true)])],
      deviceKey: key.publicKey,
      validity: ValidityInfo(
        signed: now.addingTimeInterval(20), validFrom: now.addingTimeInterval(20),
        validUntil: now.addingTimeInterval(86_400)))
    #expect(try await store(mdoc(ahead, key: key.id)).get().validFrom == now + 20)
  }

  @Test("An mdoc of another doctype than the configuration's is refused")
  func mdocWrongDoctype() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let outcome = try await store(mdoc(pki.issuePID(deviceKey: key.publicKey), key: key.id))
    #expect(try await rejection(outcome) == .typeMismatch)
  }

  @Test(
    "A credential of another format than the configuration's, or for an unknown key, is refused")
  func formatAndKey() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let key = try await deviceKey()
    let issued = try mdoc(pki.issue(deviceKey: key.publicKey), key: key.id)
    let outcome = try await store(
      issued, expected: Self.expectation(format: .sdJWT, type: "urn:eudi:pid:1"))
    #expect(try await rejection(outcome) == .formatMismatch)
    let other = try await deviceKey()
    let unknown = try await store(
      mdoc(pki.issue(deviceKey: other.publicKey), key: "no-such-key"))
    #expect(try await rejection(unknown) == .unknownDeviceKey)
    let malformedError = #expect(throws: IssuanceRejection.self) {
      _ = try IssuedCredential(format: .msoMdoc, credential: "not base64!", deviceKeyID: key.id)
    }
    #expect(malformedError?.code == .malformed)
  }

  @Test(
    "The issuer's published IACAs are refused without the opt-in and accepted, recorded, with it")
  func issuerPublishedIACAs() async throws {
    defer { dir.remove() }
    // No wallet anchor: only the IACA the issuer published could vouch for it.
    let refused = try await deviceKey()
    let without = try await store(
      mdoc(pki.issue(deviceKey: refused.publicKey), key: refused.id),
      trust: IssuanceTrustOptions(issuerPublishedIACAs: [pki.iaca]))
    #expect(try await rejection(without) == .untrustedIssuer)
    let key = try await deviceKey()
    let with = try await store(
      mdoc(pki.issue(deviceKey: key.publicKey), key: key.id),
      trust: IssuanceTrustOptions(issuerPublishedIACAs: [pki.iaca], trustIssuerPublishedIACAs: true)
    )
    let stored = try with.get()
    #expect(stored.issuance?.trustBasis == .issuerPublishedIACA)
    #expect(stored.issuance?.trustedIssuerPublishedIACAs == true)
    // Issue 32: the issuer vouched for itself; that is its own trust level, stored and read back.
    #expect(stored.issuerTrust == .issuerVouched)
    #expect(stored.issuance?.issuerPublishedAnchor == pki.iaca.derBytes)
    #expect(try await wallet.credentials().first?.issuerTrust == .issuerVouched)
    // For this issuance only: the wallet's own anchors are unchanged.
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    // The opt-in does not rescue a chain the published IACAs do not reach either.
    let other = try TestPKI()
    let stranger = try await deviceKey()
    let outcome = try await store(
      mdoc(other.issue(deviceKey: stranger.publicKey), key: stranger.id),
      trust: IssuanceTrustOptions(issuerPublishedIACAs: [pki.iaca], trustIssuerPublishedIACAs: true)
    )
    guard case .failure(let rejection) = outcome else {
      Issue.record("an mdoc from another IACA was stored")
      return
    }
    #expect(rejection.code == .untrustedIssuer)
  }

  @Test("A batch keeps the credentials that verify and refuses the others, one outcome each")
  func partialBatch() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let a = try await deviceKey()
    let b = try await deviceKey()
    let stranger = try ECPrivateKey(curve: .p256)
    let result = try await wallet.storeIssuedCredentials(
      [
        try mdoc(pki.issue(deviceKey: a.publicKey), key: a.id),
        try mdoc(pki.issue(deviceKey: stranger.publicKey), key: b.id),
      ], expected: Self.expectation())
    #expect(result.stored.map(\.deviceKeyID) == [a.id])
    #expect(result.rejected.map(\.code) == [.deviceKeyMismatch])
    #expect(result.rejected.map(\.deviceKeyID) == [b.id])
    #expect(try await wallet.credentials().map(\.id) == result.storedIDs)
    #expect(result.stored.first?.issuance?.batchID != nil)
  }

  // MARK: dc+sd-jwt

  static let vct = "urn:eudi:pid:1"

  func sdJWT(
    _ issuer: ImportRefusalTests.Issuer, holder: ECPublicKey?, vct: String = vct,
    expiresAt: Date? = nil
  ) throws -> String {
    try SDJWTIssuer.issue(
      claims: ["given_name": "Erika", "family_name": "Mustermann"],
      selectivelyDisclosable: ["given_name", "family_name"], holderKey: holder, vct: vct,
      issuer: ImportRefusalTests.Issuer.iss, issuedAt: pki.clock.addingTimeInterval(-3600),
      expiresAt: expiresAt ?? pki.clock.addingTimeInterval(86_400), signer: issuer.key,
      x5c: [issuer.leaf], random: SecureRandom()
    ).serialized
  }

  var sdJWTExpectation: IssuanceExpectation {
    Self.expectation(format: .sdJWT, type: Self.vct, configuration: "pid")
  }

  func storeSDJWT(
    _ text: String, key: String, trust: IssuanceTrustOptions = IssuanceTrustOptions()
  ) async throws -> Result<StoredCredential, IssuanceRejection> {
    try await store(
      IssuedCredential(format: .sdJWT, credential: text, deviceKeyID: key),
      expected: sdJWTExpectation, trust: trust)
  }

  @Test(
    "An SD-JWT VC whose x5c reaches a wallet anchor is stored; one that reaches none is refused")
  func sdJWTTrust() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    let key = try await deviceKey()
    let refused = try await storeSDJWT(sdJWT(issuer, holder: key.publicKey), key: key.id)
    #expect(try await rejection(refused) == .untrustedIssuer)
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    let again = try await deviceKey()
    let stored = try await storeSDJWT(sdJWT(issuer, holder: again.publicKey), key: again.id).get()
    #expect(stored.type == Self.vct && stored.format == .sdJWT)
    #expect(stored.issuance?.trustBasis == .walletAnchor)
    #expect(stored.display.title == "Mobile Driving Licence")
  }

  @Test("An SD-JWT VC whose cnf is not the proof's key, or that has no cnf, is refused")
  func sdJWTCnfNotOurs() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    let key = try await deviceKey()
    let stranger = try ECPrivateKey(curve: .p256)
    let outcome = try await storeSDJWT(sdJWT(issuer, holder: stranger.publicKey), key: key.id)
    #expect(try await rejection(outcome) == .deviceKeyMismatch)
    let unbound = try await deviceKey()
    let none = try await storeSDJWT(sdJWT(issuer, holder: nil), key: unbound.id)
    #expect(try await rejection(none) == .deviceKeyMismatch)
  }

  @Test("An SD-JWT VC of another vct than the configuration's is refused")
  func sdJWTWrongVct() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    let key = try await deviceKey()
    let outcome = try await storeSDJWT(
      sdJWT(issuer, holder: key.publicKey, vct: "urn:other:1"), key: key.id)
    #expect(try await rejection(outcome) == .typeMismatch)
  }

  @Test("An SD-JWT VC with a Disclosure no digest references, or expired, is refused")
  func sdJWTDigestAndExpiry() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    let key = try await deviceKey()
    let genuine = try sdJWT(issuer, holder: key.publicKey)
    var parts = genuine.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
    // RFC 9901 §4.2.1: [salt, name, value]; this one was never signed.
    parts[1] = Base64URL.encode(Array(#"["c2FsdHNhbHRzYWx0","given_name","Mallory"]"#.utf8))
    let tampered = parts.joined(separator: "~")
    #expect(try await rejection(storeSDJWT(tampered, key: key.id)) == .digestMismatch)
    let late = try await deviceKey()
    let expired = try sdJWT(
      issuer, holder: late.publicKey, expiresAt: pki.clock.addingTimeInterval(-3600))
    #expect(try await rejection(storeSDJWT(expired, key: late.id)) == .expired)
  }

  @Test("An SD-JWT VC verifies with the issuer's JWT VC issuer metadata key, for its iss only")
  func sdJWTIssuerMetadataKey() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    let key = try await deviceKey()
    let wrongIssuer = try await storeSDJWT(
      sdJWT(issuer, holder: key.publicKey), key: key.id,
      trust: IssuanceTrustOptions(
        issuerMetadataKeys: JWTVCIssuerKeys(
          issuer: "https://elsewhere.example", keys: [issuer.key.publicKey]),
        trustIssuerMetadataKeys: true))
    #expect(try await rejection(wrongIssuer) == .untrustedIssuer)
    let wrongKey = try await deviceKey()
    let other = try ECPrivateKey(curve: .p256)
    let badSignature = try await storeSDJWT(
      sdJWT(issuer, holder: wrongKey.publicKey), key: wrongKey.id,
      trust: IssuanceTrustOptions(
        issuerMetadataKeys: JWTVCIssuerKeys(
          issuer: ImportRefusalTests.Issuer.iss, keys: [other.publicKey]),
        trustIssuerMetadataKeys: true))
    #expect(try await rejection(badSignature) == .invalidSignature)
    let good = try await deviceKey()
    let stored = try await storeSDJWT(
      sdJWT(issuer, holder: good.publicKey), key: good.id,
      trust: IssuanceTrustOptions(
        issuerMetadataKeys: JWTVCIssuerKeys(
          issuer: ImportRefusalTests.Issuer.iss, keys: [other.publicKey, issuer.key.publicKey]),
        trustIssuerMetadataKeys: true)
    ).get()
    #expect(stored.issuance?.trustBasis == .issuerMetadataKey)
    #expect(stored.issuerTrust == .issuerVouched)
  }

  @Test("The issuer's JWT VC issuer metadata keys are refused without the holder's opt-in")
  func sdJWTIssuerMetadataKeyNeedsOptIn() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    let key = try await deviceKey()
    let outcome = try await storeSDJWT(
      sdJWT(issuer, holder: key.publicKey), key: key.id,
      trust: IssuanceTrustOptions(
        issuerMetadataKeys: JWTVCIssuerKeys(
          issuer: ImportRefusalTests.Issuer.iss, keys: [issuer.key.publicKey])))
    #expect(try await rejection(outcome) == .untrustedIssuer)
  }

  @Test(
    "An SD-JWT VC whose x5c reaches an IACA the issuer published is stored, by opt-in only"
  )
  func sdJWTIssuerPublishedIACA() async throws {
    defer { dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: pki.clock)
    let refused = try await deviceKey()
    let without = try await storeSDJWT(
      sdJWT(issuer, holder: refused.publicKey), key: refused.id,
      trust: IssuanceTrustOptions(issuerPublishedIACAs: [issuer.root]))
    #expect(try await rejection(without) == .untrustedIssuer)
    // Another issuer's IACA does not vouch for it, opt-in or not.
    let other = try ImportRefusalTests.Issuer(name: "Other", clock: pki.clock)
    let stranger = try await deviceKey()
    let wrongIACA = try await storeSDJWT(
      sdJWT(issuer, holder: stranger.publicKey), key: stranger.id,
      trust: IssuanceTrustOptions(
        issuerPublishedIACAs: [other.root], trustIssuerPublishedIACAs: true))
    #expect(try await rejection(wrongIACA) == .untrustedIssuer)
    let key = try await deviceKey()
    let stored = try await storeSDJWT(
      sdJWT(issuer, holder: key.publicKey), key: key.id,
      trust: IssuanceTrustOptions(
        issuerPublishedIACAs: [issuer.root], trustIssuerPublishedIACAs: true)
    ).get()
    #expect(stored.issuance?.trustBasis == .issuerPublishedIACA)
    #expect(stored.issuance?.issuerPublishedAnchor == issuer.root.derBytes)
    #expect(stored.issuerTrust == .issuerVouched)
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
  }

  // MARK: Sessions, notification, removal

  @Test("The session's tokens are sealed at rest, and removal hands back the notification data")
  func sessionAndRemoval() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let dpop = try await deviceKey()
    let session = IssuanceSession(
      credentialIssuer: Self.issuerID,
      notificationEndpoint: URL(string: "https://issuer.example/notification"),
      accessToken: "secret-access-token-0123456789", tokenType: "DPoP",
      refreshToken: "secret-refresh-token", dpopKeyID: dpop.id, createdAt: pki.clock)
    let a = try await deviceKey()
    let b = try await deviceKey()
    let result = try await wallet.storeIssuedCredentials(
      [
        try mdoc(pki.issue(deviceKey: a.publicKey), key: a.id),
        try mdoc(pki.issue(deviceKey: b.publicKey), key: b.id),
      ], expected: Self.expectation(), notificationID: "note-7", session: session)
    #expect(result.storedIDs.count == 2)
    #expect(try await wallet.issuanceSession(id: session.id) == session)
    // Not in the clear in the file.
    let raw = try Data(contentsOf: URL(fileURLWithPath: wallet.home.databasePath))
    #expect(raw.range(of: Data("secret-access-token".utf8)) == nil)
    #expect(raw.range(of: Data("secret-refresh-token".utf8)) == nil)

    let first = try #require(try await wallet.removeCredential(id: result.storedIDs[0]))
    #expect(first.notificationID == "note-7")
    #expect(first.session.accessToken == "secret-access-token-0123456789")
    #expect(
      first.session.notificationEndpoint?.absoluteString == "https://issuer.example/notification")
    #expect(first.dpopSigner?.publicKey == dpop.publicKey)
    // The other credential still uses the session and its DPoP key.
    #expect(try await wallet.issuanceSession(id: session.id) != nil)
    #expect(try await wallet.keys.publicKey(for: dpop.id) == dpop.publicKey)
    let notice = try #require(try await wallet.deletionNotice(forCredential: result.storedIDs[1]))
    #expect(notice.session.id == session.id)
    let last = try await wallet.removeCredential(id: result.storedIDs[1])
    #expect(last?.dpopSigner?.publicKey == dpop.publicKey)
    // The last user gone: the session and its DPoP key go too.
    #expect(try await wallet.issuanceSession(id: session.id) == nil)
    let gone = await #expect(throws: WalletStoreError.self) {
      _ = try await wallet.keys.publicKey(for: dpop.id)
    }
    #expect(gone?.code == .notFound)
  }

  @Test("Sealed tokens moved onto another session do not open")
  func sealedTokensBoundToSession() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    var ids: [String] = []
    for token in ["token-one", "token-two"] {
      let key = try await deviceKey()
      let session = IssuanceSession(credentialIssuer: Self.issuerID, accessToken: token)
      _ = try await wallet.storeIssuedCredentials(
        [try mdoc(pki.issue(deviceKey: key.publicKey), key: key.id)],
        expected: Self.expectation(), session: session)
      ids.append(session.id)
    }
    #expect(try await wallet.issuanceSession(id: ids[1])?.accessToken == "token-two")
    _ = try await wallet.store.execute(
      "UPDATE issuance_sessions SET sealed_tokens = (SELECT sealed_tokens FROM issuance_sessions WHERE id = ?) WHERE id = ?",
      [.text(ids[0]), .text(ids[1])])
    let storageError = await #expect(throws: WalletError.self) {
      _ = try await wallet.issuanceSession(id: ids[1])
    }
    #expect(storageError?.code == .storage)
  }
}

/// The checks around verification: the inputs a client hands over.
@Suite("Issued credentials: inputs")
struct IssuedCredentialInputTests {
  let base: IssuedCredentialStorageTests

  init() throws { base = try IssuedCredentialStorageTests() }

  @Test("An issued SD-JWT that carries a key binding JWT is refused")
  func sdJWTWithKeyBinding() async throws {
    defer { base.dir.remove() }
    let issuer = try ImportRefusalTests.Issuer(name: "PID", clock: base.pki.clock)
    _ = try await base.wallet.addTrustAnchor(issuer.root, role: .issuer)
    let key = try await base.deviceKey()
    let sdJWT = try SDJWT(serialized: base.sdJWT(issuer, holder: key.publicKey))
    let presented = try sdJWT.present(
      disclosing: ["given_name"],
      keyBinding: KeyBinding(
        signer: try await base.wallet.keys.signer(for: key.id), audience: "https://issuer.example",
        nonce: "n", issuedAt: base.pki.clock))
    let outcome = try await base.storeSDJWT(presented, key: key.id)
    #expect(try await base.rejection(outcome) == .malformed)
  }

  @Test("Ids must be one per credential and distinct; a session must be the credentials' issuer's")
  func idsAndSession() async throws {
    defer { base.dir.remove() }
    _ = try await base.wallet.addTrustAnchor(base.pki.iaca, role: .issuer)
    let key = try await base.deviceKey()
    let issued = try base.mdoc(base.pki.issue(deviceKey: key.publicKey), key: key.id)
    let expected = IssuedCredentialStorageTests.expectation()
    for ids in [["a", "b"], []] {
      let invalidInputError = await #expect(throws: WalletError.self) {
        _ = try await base.wallet.storeIssuedCredentials([issued], expected: expected, ids: ids)
      }
      #expect(invalidInputError?.code == .invalidInput)
    }
    let other = try await base.deviceKey()
    let second = try base.mdoc(base.pki.issue(deviceKey: other.publicKey), key: other.id)
    let invalidInputError2 = await #expect(throws: WalletError.self) {
      _ = try await base.wallet.storeIssuedCredentials(
        [issued, second], expected: expected, ids: ["same", "same"])
    }
    #expect(invalidInputError2?.code == .invalidInput)
    let invalidInputError3 = await #expect(throws: WalletError.self) {
      _ = try await base.wallet.storeIssuedCredentials(
        [issued], expected: expected,
        session: IssuanceSession(credentialIssuer: "https://other.example", accessToken: "t"))
    }
    #expect(invalidInputError3?.code == .invalidInput)
    #expect(try await base.wallet.credentials().isEmpty)
    let stored = try await base.wallet.storeIssuedCredentials(
      [issued], expected: expected, ids: ["chosen"])
    #expect(stored.storedIDs == ["chosen"])
  }

  @Test("A device key already bound, or named twice in one response, is refused and kept")
  func deviceKeyReused() async throws {
    defer { base.dir.remove() }
    _ = try await base.wallet.addTrustAnchor(base.pki.iaca, role: .issuer)
    let key = try await base.deviceKey()
    let expected = IssuedCredentialStorageTests.expectation()
    let twice = try await base.wallet.storeIssuedCredentials(
      [
        try base.mdoc(base.pki.issue(deviceKey: key.publicKey), key: key.id),
        try base.mdoc(base.pki.issue(deviceKey: key.publicKey), key: key.id),
      ], expected: expected)
    #expect(twice.stored.count == 1)
    #expect(twice.rejected.map(\.code) == [.deviceKeyReused])
    let again = try await base.wallet.storeIssuedCredentials(
      [try base.mdoc(base.pki.issue(deviceKey: key.publicKey), key: key.id)], expected: expected)
    #expect(again.rejected.map(\.code) == [.deviceKeyReused])
    #expect(try await base.wallet.keys.publicKey(for: key.id) == key.publicKey)
    #expect(try await base.wallet.credentials().count == 1)
  }

  @Test("A session a pending issuance still uses outlives the removal of its last credential")
  func sessionSharedWithPending() async throws {
    defer { base.dir.remove() }
    _ = try await base.wallet.addTrustAnchor(base.pki.iaca, role: .issuer)
    let dpop = try await base.deviceKey()
    let session = IssuanceSession(
      credentialIssuer: IssuedCredentialStorageTests.issuerID, accessToken: "t", dpopKeyID: dpop.id)
    let key = try await base.deviceKey()
    let result = try await base.wallet.storeIssuedCredentials(
      [try base.mdoc(base.pki.issue(deviceKey: key.publicKey), key: key.id)],
      expected: IssuedCredentialStorageTests.expectation(), notificationID: "n", session: session)
    let later = try await base.deviceKey()
    try await base.wallet.addPendingDeferred(
      PendingDeferredIssuance(
        transactionID: "tx", credentialIssuer: IssuedCredentialStorageTests.issuerID,
        configurationID: "mDL", format: .msoMdoc, expectedType: IssuedCredentialStorageTests.mdl,
        deviceKeyIDs: [later.id], sessionID: session.id),
      session: session)
    _ = try await base.wallet.removeCredential(id: try #require(result.storedIDs.first))
    #expect(try await base.wallet.issuanceSession(id: session.id)?.accessToken == "t")
    #expect(try await base.wallet.keys.publicKey(for: dpop.id) == dpop.publicKey)
  }
}
