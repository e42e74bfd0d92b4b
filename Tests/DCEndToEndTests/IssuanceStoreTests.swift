import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCStore
import DCVerifier
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 13: batches presented once each, pending deferred issuances, and the version 5 schema.
@Suite("Issuance store: batches, deferred issuance, migration")
struct IssuanceStoreTests {
  static let pid = "eu.europa.ec.eudi.pid.1"

  let dir: TemporaryDirectory
  let pki: TestPKI
  let wallet: Wallet

  init() async throws {
    dir = try TemporaryDirectory()
    pki = try TestPKI()
    let now = pki.clock
    wallet = try Wallet(home: WalletHome(directory: dir.path), clock: { now })
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
  }

  var expectation: IssuanceExpectation {
    IssuanceExpectation(
      credentialIssuer: "https://issuer.example", configurationID: "pid-mdoc", format: .msoMdoc,
      type: Self.pid, display: [IssuerCredentialDisplay(name: "PID")])
  }

  /// A batch of `count` PIDs, each bound to its own fresh device key.
  func storeBatch(_ count: Int) async throws -> [String] {
    var issued: [IssuedCredential] = []
    for _ in 0..<count {
      let key = try await wallet.keys.createKey(curve: .p256)
      issued.append(
        IssuedCredential(
          payload: .msoMdoc(issuerSigned: try pki.issuePID(deviceKey: key.publicKey).bytes),
          deviceKeyID: key.id))
    }
    let result = try await wallet.storeIssuedCredentials(issued, expected: expectation)
    #expect(result.rejected.isEmpty)
    return result.storedIDs
  }

  /// Resolves and answers an OpenID4VP request for the PID; returns the credential presented.
  func presentOpenID4VP() async throws -> String {
    let query: JSONValue = [
      "credentials": [
        [
          "id": "pid", "format": "mso_mdoc", "meta": ["doctype_value": .string(Self.pid)],
          "claims": [["path": [.string(Self.pid), "age_over_18"]]],
        ]
      ]
    ]
    let sent = try VerifierRequest(
      dcqlQuery: query, origin: "https://verifier.example", responseMode: .dcAPI,
      signing: .unsigned)
    let request = try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: sent.protocolID.rawValue, data: sent.data)
      ]), origin: "https://verifier.example")
    let consent = try request.proposedConsent()
    guard case .openID4VP(let chosen) = consent,
      let id = chosen.selections["pid"]?.first?.credentialID
    else {
      Issue.record("no PID proposed")
      return ""
    }
    let response = try await wallet.respond(to: request, consent: consent)
    let verified = try sent.state.verifyResponse(
      response.data, sdJWTIssuerAnchors: [], mdocIssuerAnchors: [pki.iaca], now: pki.clock)
    #expect(verified.credentials.keys.sorted() == ["pid"])
    return id
  }

  /// Resolves and answers an Annex C request for the PID; returns the credential presented.
  func presentAnnexC() async throws -> String {
    let items = ItemsRequest(
      docType: Self.pid,
      nameSpaces: [(Self.pid, [.init("age_over_18", intentToRetain: false)])])
    let annexC = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    let request = try await wallet.resolve(
      RequestEnvelope(requests: [
        ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: annexC.data)
      ]), origin: "https://verifier.example")
    let consent = try request.proposedConsent()
    guard case .mdoc(let chosen) = consent, let id = chosen.documents.first?.credentialID else {
      Issue.record("no PID proposed")
      return ""
    }
    _ = try await wallet.respond(to: request, consent: consent)
    return id
  }

  @Test("Successive OpenID4VP presentations use different credentials of a batch")
  func batchUseOnceOpenID4VP() async throws {
    defer { dir.remove() }
    let batch = try await storeBatch(3)
    #expect(Set(try await wallet.credentials().compactMap(\.issuance?.batchID)).count == 1)
    var used: [String] = []
    for _ in 0..<3 { used.append(try await presentOpenID4VP()) }
    #expect(Set(used) == Set(batch))
    // Each was presented once; the fourth presentation reuses the least used (all equal: the
    // first in the store's order).
    let stored = try await wallet.credentials()
    #expect(stored.map(\.presentationCount) == [1, 1, 1])
    #expect(try await presentOpenID4VP() == stored.first?.id)
  }

  @Test("Successive OpenID4VP presentations use different SD-JWT VCs of a batch")
  func batchUseOnceSDJWT() async throws {
    defer { dir.remove() }
    let issuer = try SDJWTVCTestIssuer(name: "PID", clock: pki.clock)
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    var issued: [IssuedCredential] = []
    for _ in 0..<2 {
      let key = try await wallet.keys.createKey(curve: .p256)
      issued.append(
        try IssuedCredential(
          format: .sdJWT, credential: try issuer.issue(holder: key.publicKey, clock: pki.clock),
          deviceKeyID: key.id))
    }
    let result = try await wallet.storeIssuedCredentials(
      issued,
      expected: IssuanceExpectation(
        credentialIssuer: SDJWTVCTestIssuer.iss, configurationID: "pid",
        format: .sdJWT, type: "urn:eudi:pid:1"))
    #expect(result.storedIDs.count == 2)
    var used: [String] = []
    for _ in 0..<2 {
      let sent = try VerifierRequest(
        dcqlQuery: [
          "credentials": [
            [
              "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:eudi:pid:1"]],
              "claims": [["path": ["given_name"]]],
            ]
          ]
        ], origin: "https://verifier.example", responseMode: .dcAPI, signing: .unsigned)
      let request = try await wallet.resolve(
        RequestEnvelope(requests: [
          ProtocolRequest(protocolIdentifier: sent.protocolID.rawValue, data: sent.data)
        ]), origin: "https://verifier.example")
      let consent = try request.proposedConsent()
      guard case .openID4VP(let chosen) = consent,
        let id = chosen.selections["pid"]?.first?.credentialID
      else {
        Issue.record("no PID proposed")
        return
      }
      _ = try await wallet.respond(to: request, consent: consent)
      used.append(id)
    }
    #expect(Set(used) == Set(result.storedIDs))
  }

  @Test("Successive Annex C presentations use different credentials of a batch")
  func batchUseOnceAnnexC() async throws {
    defer { dir.remove() }
    let batch = try await storeBatch(2)
    let first = try await presentAnnexC()
    let second = try await presentAnnexC()
    #expect(first != second)
    #expect(Set([first, second]) == Set(batch))
  }

  @Test("Credentials outside a batch are all offered; of a batch only one, the least presented")
  func onePerBatchSelection() throws {
    func credential(_ id: String, batch: String?, count: Int, validUntil: Date? = nil)
      -> StoredCredential
    {
      StoredCredential(
        id: id, format: .msoMdoc, type: Self.pid, issued: [0xA0],
        display: CredentialDisplay(title: id), validUntil: validUntil,
        issuance: IssuanceProvenance(
          credentialIssuer: "https://issuer.example", configurationID: "c",
          trustBasis: .walletAnchor, batchID: batch),
        presentationCount: count)
    }
    defer { dir.remove() }
    let list = [
      credential("a1", batch: "A", count: 2), credential("solo", batch: nil, count: 5),
      credential("a2", batch: "A", count: 1), credential("a3", batch: "A", count: 1),
      credential("b1", batch: "B", count: 0, validUntil: pki.clock - 1),
      credential("b2", batch: "B", count: 3),
    ]
    let now = pki.clock
    #expect(
      Wallet.onePerBatch(list, usable: { $0.validity(at: now) == .valid }).map(\.id)
        == ["solo", "a2", "b2"])
  }

  @Test("A pending deferred issuance round-trips, completes into stored credentials, or is removed")
  func deferredRoundTrip() async throws {
    defer { dir.remove() }
    let dpop = try await wallet.keys.createKey(curve: .p256)
    let key = try await wallet.keys.createKey(curve: .p256)
    let session = IssuanceSession(
      credentialIssuer: "https://issuer.example",
      deferredCredentialEndpoint: URL(string: "https://issuer.example/deferred"),
      accessToken: "deferred-access-token", tokenType: "DPoP", dpopKeyID: dpop.id,
      createdAt: pki.clock)
    let pending = PendingDeferredIssuance(
      transactionID: "8xLOxBtZp8", credentialIssuer: "https://issuer.example",
      configurationID: "pid-mdoc", format: .msoMdoc, expectedType: Self.pid,
      display: [IssuerCredentialDisplay(name: "PID", locale: "en")], interval: 5,
      deviceKeyIDs: [key.id], sessionID: session.id, trustIssuerPublishedIACAs: true,
      createdAt: pki.clock)
    try await wallet.addPendingDeferred(pending, session: session)
    #expect(try await wallet.pendingDeferredIssuances() == [pending])
    let clock = pki.clock
    let reopened = try Wallet(home: WalletHome(directory: dir.path), clock: { clock })
    #expect(try await reopened.pendingDeferredIssuances() == [pending])
    #expect(try await reopened.issuanceSession(id: session.id) == session)
    // A pending entry must name the session it is stored with.
    let stray = PendingDeferredIssuance(
      transactionID: "t", credentialIssuer: "https://issuer.example", configurationID: "c",
      format: .msoMdoc, expectedType: Self.pid, deviceKeyIDs: [], sessionID: "other")
    let invalidInputError = await #expect(throws: WalletError.self) {
      try await wallet.addPendingDeferred(stray, session: session)
    }
    #expect(invalidInputError?.code == .invalidInput)
    let elsewhere = PendingDeferredIssuance(
      transactionID: "t", credentialIssuer: "https://other.example", configurationID: "c",
      format: .msoMdoc, expectedType: Self.pid, deviceKeyIDs: [], sessionID: session.id)
    let invalidInputError2 = await #expect(throws: WalletError.self) {
      try await wallet.addPendingDeferred(elsewhere, session: session)
    }
    #expect(invalidInputError2?.code == .invalidInput)
    #expect(try await wallet.pendingDeferredIssuances() == [pending])

    let result = try await wallet.completePendingDeferred(
      id: pending.id,
      credentials: [.msoMdoc(issuerSigned: try pki.issuePID(deviceKey: key.publicKey).bytes)],
      notificationID: "n-deferred")
    let stored = try #require(result.stored.first)
    #expect(stored.issuance?.sessionID == session.id)
    #expect(stored.issuance?.notificationID == "n-deferred")
    #expect(stored.display.title == "PID")
    #expect(try await wallet.pendingDeferredIssuances().isEmpty)
    // Removing the credential notifies through the deferred issuance's session.
    let notice = try await wallet.removeCredential(id: stored.id)
    #expect(notice?.session.accessToken == "deferred-access-token")
    #expect(try await wallet.issuanceSession(id: session.id) == nil)
  }

  @Test("Credentials are matched to the keys they bind, whatever the response's order")
  func matchesKeysByBinding() async throws {
    defer { dir.remove() }
    var keys: [(id: String, publicKey: ECPublicKey)] = []
    for _ in 0..<3 { keys.append(try await wallet.keys.createKey(curve: .p256)) }
    let stranger = try ECPrivateKey(curve: .p256)
    // The issuer answers in another order, once with a key that is not the wallet's, and twice
    // for one key.
    let payloads: [IssuedCredential.Payload] =
      try [keys[2], keys[0]].map {
        .msoMdoc(issuerSigned: try pki.issuePID(deviceKey: $0.publicKey).bytes)
      } + [
        .msoMdoc(issuerSigned: try pki.issuePID(deviceKey: stranger.publicKey).bytes),
        .msoMdoc(issuerSigned: try pki.issuePID(deviceKey: keys[0].publicKey).bytes),
      ]
    let result = try await wallet.storeIssuedCredentials(
      payloads, deviceKeyIDs: keys.map(\.id), expected: expectation)
    #expect(result.outcomes.count == 4)
    #expect(result.stored.map(\.deviceKeyID) == [keys[2].id, keys[0].id])
    #expect(result.rejected.map(\.code) == [.deviceKeyMismatch, .deviceKeyMismatch])
    // The key no credential bound stays for the caller.
    #expect(try await wallet.keys.publicKey(for: keys[1].id) == keys[1].publicKey)
  }

  @Test("A completed deferred issuance deletes the keys no stored credential binds")
  func deferredLeftoverKeys() async throws {
    defer { dir.remove() }
    let first = try await wallet.keys.createKey(curve: .p256)
    let second = try await wallet.keys.createKey(curve: .p256)
    let session = IssuanceSession(credentialIssuer: "https://issuer.example", accessToken: "t")
    let pending = PendingDeferredIssuance(
      transactionID: "tx", credentialIssuer: "https://issuer.example", configurationID: "pid",
      format: .msoMdoc, expectedType: Self.pid, deviceKeyIDs: [first.id, second.id],
      sessionID: session.id)
    try await wallet.addPendingDeferred(pending, session: session)
    let result = try await wallet.completePendingDeferred(
      id: pending.id,
      credentials: [.msoMdoc(issuerSigned: try pki.issuePID(deviceKey: second.publicKey).bytes)])
    #expect(result.stored.map(\.deviceKeyID) == [second.id])
    #expect(try await wallet.keys.publicKey(for: second.id) == second.publicKey)
    let gone = await #expect(throws: WalletStoreError.self) {
      _ = try await wallet.keys.publicKey(for: first.id)
    }
    #expect(gone?.code == .notFound)
    #expect(try await wallet.pendingDeferredIssuances().isEmpty)
  }

  @Test("Removing an abandoned pending issuance deletes its keys and its session")
  func removePending() async throws {
    defer { dir.remove() }
    let dpop = try await wallet.keys.createKey(curve: .p256)
    let key = try await wallet.keys.createKey(curve: .p256)
    let session = IssuanceSession(
      credentialIssuer: "https://issuer.example", accessToken: "t", dpopKeyID: dpop.id)
    let pending = PendingDeferredIssuance(
      transactionID: "tx", credentialIssuer: "https://issuer.example", configurationID: "c",
      format: .msoMdoc, expectedType: Self.pid, deviceKeyIDs: [key.id], sessionID: session.id)
    try await wallet.addPendingDeferred(pending, session: session)
    #expect(try await wallet.removePendingDeferred(id: pending.id))
    #expect(try await wallet.removePendingDeferred(id: pending.id) == false)
    #expect(try await wallet.pendingDeferredIssuances().isEmpty)
    #expect(try await wallet.issuanceSession(id: session.id) == nil)
    for id in [dpop.id, key.id] {
      let gone = await #expect(throws: WalletStoreError.self) {
        _ = try await wallet.keys.publicKey(for: id)
      }
      #expect(gone?.code == .notFound)
    }
  }

  @Test("A version 4 store opens at version 5 and keeps its data; issued credentials then work")
  func migratesVersion4() async throws {
    defer { dir.remove() }
    let other = try TemporaryDirectory()
    defer { other.remove() }
    do {
      let v4 = try WalletStore(path: other.databasePath, busyTimeout: .seconds(5), schemaVersion: 4)
      #expect(try await v4.schemaVersion() == 4)
      _ = try await v4.execute(
        """
        INSERT INTO credentials (id, format, type, issued, display, valid_from_ms,
          valid_until_ms, device_key_id, created_at_ms, issuer_authority_key_ids, issuer_trust)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text("old"), .text("mso_mdoc"), .text("org.iso.18013.5.1.mDL"), .blob([0xA2, 0x01]),
          .text(#"{"claimNames":{},"title":"Driving licence"}"#), .integer(1_700_000_000_000),
          .null, .null, .integer(1_700_000_000_500), .text(#"["0102"]"#), .text("trusted"),
        ])
    }
    let store = try WalletStore(path: other.databasePath)
    // Without the wallet's key, a file holding credentials stops at version 6 (issue 32: the
    // step to 7 tags them, with the key).
    #expect(try await store.schemaVersion() == 6)
    #expect(
      try await store.credential(id: "old")
        == StoredCredential(
          id: "old", format: .msoMdoc, type: "org.iso.18013.5.1.mDL", issued: [0xA2, 0x01],
          display: CredentialDisplay(title: "Driving licence"),
          validFrom: Date(timeIntervalSince1970: 1_700_000_000),
          issuerAuthorityKeyIdentifiers: [[1, 2]],
          createdAt: Date(timeIntervalSince1970: 1_700_000_000.5), issuerTrust: .trusted))
    let provenance = IssuanceProvenance(
      credentialIssuer: "https://issuer.example", configurationID: "mDL",
      display: [IssuerCredentialDisplay(name: "mDL", backgroundColor: "#000")],
      notificationID: "n", trustBasis: .issuerPublishedIACA, batchID: "b")
    let issued = StoredCredential(
      id: "new", format: .msoMdoc, type: "org.iso.18013.5.1.mDL", issued: [0xA0],
      display: CredentialDisplay(title: "mDL"), createdAt: pki.clock, issuance: provenance)
    try await store.insert(issued)
    #expect(try await store.credential(id: "new") == issued)
    try await store.markPresented(ids: ["new", "new"])
    #expect(try await store.credential(id: "new")?.presentationCount == 1)
    // A credential cannot name a session that does not exist (foreign key).
    var orphan = provenance
    orphan.sessionID = "missing"
    let constraintViolationError = await #expect(throws: WalletStoreError.self) {
      try await store.insert(
        StoredCredential(
          id: "orphan", format: .msoMdoc, type: "t", issued: [0xA0],
          display: CredentialDisplay(title: "t"), issuance: orphan))
    }
    #expect(constraintViolationError?.code == .constraintViolation)
  }
}
