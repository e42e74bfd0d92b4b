#if os(Linux) || os(Android)
  import DCWallet
  import DCCrypto
  import DCWalletFixtureTestSupport
  import Foundation
  import DCHTTP
  import DCJSON
  import DCSDJWT
  import DCStatusList
  import Testing
  import DCWalletTestSupport
  import DCX509

  /// Issue 32, items 9 and 16: a credential's status list must be signed under the credential's
  /// own anchor: a wallet anchor for a trusted credential, the IACA the issuer published for an
  /// issuer-vouched one.
  @Suite("Status lists under the credential's own anchor", .serialized)
  struct StatusIssuerBindingTests {
    static let index = 5
    static let vct = "urn:eudi:pid:1"

    let dir: TemporaryDirectory
    let now: Date
    let wallet: Wallet
    let server: StatusListServer
    /// The credential's issuer (root and leaf, the leaf naming `iss`).
    let issuer: ImportRefusalTests.Issuer

    init() throws {
      dir = try TemporaryDirectory()
      let now = Date()
      self.now = now
      wallet = try Wallet(home: WalletHome(directory: dir.path), clock: { now })
      server = try StatusListServer()
      issuer = try ImportRefusalTests.Issuer(name: "PID", clock: now)
    }

    func done() {
      server.stop()
      dir.remove()
    }

    /// Stores an issued SD-JWT VC referencing index 5 of the served list, trusted through
    /// `trust` (the wallet's anchors otherwise).
    func storeIssued(trust: IssuanceTrustOptions = IssuanceTrustOptions()) async throws
      -> StoredCredential
    {
      let key = try await wallet.keys.createKey(curve: .p256)
      let sdJWT = try SDJWTIssuer.issue(
        claims: [
          "given_name": "Erika",
          "status": [
            "status_list": ["idx": .integer(Int64(Self.index)), "uri": .string(server.uri)]
          ],
        ],
        selectivelyDisclosable: ["given_name"], holderKey: key.publicKey, vct: Self.vct,
        issuer: ImportRefusalTests.Issuer.iss, issuedAt: now.addingTimeInterval(-3600),
        expiresAt: now.addingTimeInterval(86_400), signer: issuer.key, x5c: [issuer.leaf],
        random: SecureRandom())
      let result = try await wallet.storeIssuedCredentials(
        [IssuedCredential(payload: .sdJWT(sdJWT.serialized), deviceKeyID: key.id)],
        expected: IssuanceExpectation(
          credentialIssuer: ImportRefusalTests.Issuer.iss, configurationID: "pid",
          format: .sdJWT, type: Self.vct),
        trust: trust)
      return try #require(result.stored.first)
    }

    /// Serves a list with `status` at index 5, signed by `key` with `chain`.
    func serve(_ status: Status, key: ECPrivateKey, chain: [Certificate]) throws {
      var list = StatusList(bits: .two, count: 16)
      try list.setStatus(status, at: Self.index)
      server.serve(
        try StatusListToken(
          format: .jwt, subject: server.uri, issuedAt: now.addingTimeInterval(-60),
          expiresAt: now.addingTimeInterval(3600), timeToLive: 600, statusList: list,
          certificateChain: chain.map(\.derBytes), signer: key
        ).encoded)
    }

    func refresh(_ id: String) async throws -> CredentialStatusRecord {
      try await wallet.refreshStatus(
        credentialID: id,
        checker: try await wallet.statusListChecker(
          httpClient: URLSessionHTTPClient(configuration: .init(policy: .development)),
          urlPolicy: .development),
        force: true)
    }

    @Test("A list signed under another of the wallet's issuer anchors is issuer_mismatch")
    func anotherAnchorsListIsRefused() async throws {
      defer { done() }
      let other = try ImportRefusalTests.Issuer(name: "Other", clock: now)
      _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
      _ = try await wallet.addTrustAnchor(other.root, role: .issuer)
      let stored = try await storeIssued()
      #expect(stored.issuerTrust == .trusted)
      // Another trusted issuer's list, suspending index 5: it does not speak for this one.
      try serve(.suspended, key: other.key, chain: [other.leaf])
      let record = try await refresh(stored.id)
      guard case .unknown(let why) = record.outcome else {
        Issue.record("another issuer's list decided the status: \(record.outcome)")
        return
      }
      #expect(why.code == .issuerMismatch)
      // The credential's own issuer's list does.
      try serve(.suspended, key: issuer.key, chain: [issuer.leaf])
      #expect(try await refresh(stored.id).outcome == .suspended)
    }

    @Test("The wallet's default checker fetches no plain-http list, even from loopback")
    func defaultCheckerIsHTTPSOnly() async throws {
      defer { done() }
      _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
      let stored = try await storeIssued()
      try serve(.suspended, key: issuer.key, chain: [issuer.leaf])
      let record = try await wallet.refreshStatus(
        credentialID: stored.id,
        checker: try await wallet.statusListChecker(
          httpClient: URLSessionHTTPClient(configuration: .init(policy: .development))))
      guard case .unknown(let why) = record.outcome else {
        Issue.record("a plain-http list was used by default: \(record.outcome)")
        return
      }
      #expect(why.code == .urlNotAllowed)
      #expect(server.fetches == 0)
    }

    @Test("An issuer-vouched credential's list is checked under the IACA the issuer published")
    func issuerVouchedStatusIsChecked() async throws {
      defer { done() }
      // No wallet anchor: only the issuer's published IACA vouched for it, by opt-in.
      let stored = try await storeIssued(
        trust: IssuanceTrustOptions(
          issuerPublishedIACAs: [issuer.root], trustIssuerPublishedIACAs: true))
      #expect(stored.issuerTrust == .issuerVouched)
      try serve(.suspended, key: issuer.key, chain: [issuer.leaf])
      #expect(try await refresh(stored.id).outcome == .suspended)
      // Stored: the default policy withholds it from presentations now.
      let reread = try #require(try await wallet.credentials().first { $0.id == stored.id })
      #expect(reread.lastKnownStatus?.outcome.refusesPresentation == true)
      // A list under another IACA (trusted by nobody here) still decides nothing.
      let other = try ImportRefusalTests.Issuer(name: "Other", clock: now)
      try serve(.valid, key: other.key, chain: [other.leaf])
      guard case .unknown(let why) = try await refresh(stored.id).outcome else {
        Issue.record("a list under another IACA decided an issuer-vouched status")
        return
      }
      #expect(why.code == .untrusted)
    }
  }
#endif
