import DCCBOR
import DCCrypto
import DCHTTP
import DCMdoc
import DCStore
import DCTrust
import DCWalletStoreTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

@testable import DCWallet
@testable import DCWalletStore

/// Issue 29: a wallet that trusts only trusted lists (no hand-added anchors) accepts the issuers
/// and readers listed there and refuses the rest, explaining each decision; lists are stored
/// authenticated, refreshed without losing the old list, disabled per kind, and refused stale.
@Suite("Trusted lists in the wallet: list-only trust, decisions, authentication, policy, refresh")
struct TrustedListWalletTests {
  struct Setup {
    let dir: TemporaryDirectory
    let pki: TestPKI
    let stranger: TestPKI
    let device: ECPrivateKey
    let operatorKey: ECPrivateKey
    let operatorCertificate: Certificate
    let issued: Date

    init() throws {
      dir = try TemporaryDirectory()
      pki = try TestPKI(now: Date())
      stranger = try TestPKI(now: Date())
      device = try ECPrivateKey(curve: .p256)
      operatorKey = try ECPrivateKey(curve: .p256)
      issued = Date().addingTimeInterval(-3600)
      operatorCertificate = try CertificateBuilder(
        subject: DistinguishedName(commonName: "Development List Operator"),
        publicKey: operatorKey.publicKey, notBefore: issued.addingTimeInterval(-86_400),
        notAfter: issued.addingTimeInterval(86_400 * 365)
      ).selfSigned(signer: operatorKey)
    }

    func wallet(clock: @escaping @Sendable () -> Date = { Date() }) throws -> Wallet {
      try Wallet(home: WalletHome(directory: dir.path), clock: clock)
    }

    /// A LoTE listing the PKI's IACA as a PID provider and its reader root as an access
    /// certificate CA (or withdrawn), signed by the operator.
    func lote(
      sequence: Int = 1, nextUpdate: Date? = nil, status: String? = nil, signer: ECPrivateKey? = nil
    ) throws -> [UInt8] {
      try ETSIListContent(
        operatorName: "Development List Operator", sequenceNumber: sequence, issued: issued,
        nextUpdate: nextUpdate ?? issued.addingTimeInterval(86_400 * 30),
        entries: [
          .init(
            name: "Development PID Provider", serviceTypeURI: ETSIServiceTypeURI.pidIssuance,
            certificates: [pki.iaca], status: status),
          .init(
            name: "Development Access CA",
            serviceTypeURI: ETSIServiceTypeURI.accessCertificateIssuance,
            certificates: [pki.readerRoot]),
        ]
      ).signedLoTE(signer: signer ?? operatorKey, certificate: operatorCertificate)
    }

    /// An in-person DeviceRequest for the mDL's age_over_18 signed by `reader`'s reader key.
    func inPersonRequest(_ reader: TestPKI) throws -> ([UInt8], SessionTranscript) {
      let transcript = SessionTranscript(handover: .textString("trusted-list test"))
      let items = ItemsRequest(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
      let docRequest = try DocRequest(
        itemsRequest: items, sessionTranscript: transcript, readerKey: reader.readerKey,
        readerChain: [reader.reader])
      return (DeviceRequest(docRequests: [docRequest]).bytes, transcript)
    }
  }

  @Test(
    "A wallet trusting only a LoTE imports a listed issuer's mdoc and refuses another's, naming the entry"
  )
  func listOnlyIssuer() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let stored = try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    #expect(stored.list.entities.count == 2)
    #expect(try await wallet.trustAnchorListing().anchors.isEmpty)

    let mdoc = try setup.pki.issue(deviceKey: setup.device.publicKey)
    let credential = try await wallet.importMdoc(mdoc.bytes, deviceKey: setup.device)
    #expect(credential.issuerTrust == .trusted)
    let decision = try await wallet.issuerTrustDecision(for: credential)
    guard
      case .listEntry(let kind, let operatorName, _, let entity, let service)? = decision?.source
    else {
      Issue.record("not trusted by a list entry: \(String(describing: decision))")
      return
    }
    #expect(kind == .lote && operatorName == "Development List Operator")
    #expect(entity == "Development PID Provider" && service == .pidProvider)

    // Another issuer is not listed: refused, nothing stored.
    let other = try setup.stranger.issue(deviceKey: setup.device.publicKey)
    await #expect(throws: WalletError.self) {
      try await wallet.importMdoc(other.bytes, deviceKey: setup.device)
    }
    #expect(try await wallet.credentials().count == 1)
    let refused = try await wallet.trustDecision(
      chain: [setup.stranger.documentSigner], for: .credentialIssuer)
    guard case .untrusted(let reasons) = refused else {
      Issue.record("a stranger's chain is trusted")
      return
    }
    #expect(reasons.contains { if case .chainNotValidated = $0 { true } else { false } })
  }

  @Test("A listed reader is authenticated in person by the list's entry; another reader is not")
  func listOnlyReader() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    _ = try await wallet.importMdoc(
      try setup.pki.issue(deviceKey: setup.device.publicKey).bytes, deviceKey: setup.device)

    let (listed, transcript) = try setup.inPersonRequest(setup.pki)
    let request = try await wallet.resolveInPerson(
      deviceRequest: listed, sessionTranscript: transcript)
    #expect(request.requesterAuthentication == .trusted)
    guard case .listEntry(_, _, _, let entity, let service)? = request.requesterTrust?.source else {
      Issue.record(
        "the reader is not trusted by the list: \(String(describing: request.requesterTrust))")
      return
    }
    #expect(entity == "Development Access CA" && service == .accessCertificateAuthority)

    let (unlisted, transcript2) = try setup.inPersonRequest(setup.stranger)
    let refused = try await wallet.resolveInPerson(
      deviceRequest: unlisted, sessionTranscript: transcript2)
    #expect(refused.requesterAuthentication != .trusted)
    guard case .untrusted(let reasons)? = refused.requesterTrust else {
      Issue.record(
        "an unlisted reader has no refusal: \(String(describing: refused.requesterTrust))")
      return
    }
    #expect(!reasons.isEmpty)
  }

  @Test("A list signed by another key, or tampered, is refused at import and nothing is stored")
  func importVerifies() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let otherKey = try ECPrivateKey(curve: .p256)
    await #expect {
      try await wallet.importTrustedList(
        try setup.lote(signer: otherKey), kind: .lote,
        operatorCertificates: [setup.operatorCertificate])
    } throws: { ($0 as? WalletError)?.code == .importRejected }
    var tampered = try setup.lote()
    tampered[tampered.count / 2] ^= 0x01
    await #expect {
      try await wallet.importTrustedList(
        tampered, kind: .lote, operatorCertificates: [setup.operatorCertificate])
    } throws: { ($0 as? WalletError)?.code == .importRejected }
    #expect(try await wallet.trustedListListing().lists.isEmpty)
  }

  @Test("A list row or entry written without the wallet's key is never used, and is reported")
  func tamperedListRow() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let stored = try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    #expect(try await wallet.trustAnchors(role: .issuer) == [setup.pki.iaca])

    // An entry added to the stored model (the stranger's IACA), keeping the old tag.
    let widened = TrustedList(
      kind: .lote, operatorName: stored.list.operatorName, sequenceNumber: 1,
      issued: stored.list.issued, nextUpdate: stored.list.nextUpdate,
      entities: stored.list.entities + [
        TrustedEntity(
          name: "Planted", serviceType: .pidProvider, certificates: [setup.stranger.iaca],
          isGranted: true)
      ], signer: stored.list.signer, digest: stored.list.digest)
    _ = try await wallet.store.execute(
      "UPDATE trusted_lists SET verified = ? WHERE id = ?",
      [.blob(widened.storedForm), .text(stored.id)])
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    let listing = try await wallet.trustedListListing()
    #expect(listing.lists.isEmpty)
    #expect(listing.problems.map(\.record) == [.trustedList(id: stored.id)])
    #expect(listing.problems.first?.error.code == .unauthenticatedRecord)

    // A whole row planted without a tag, and one tagged under another key.
    let planted = TrustedListRecord(
      id: "planted", kind: "lote", location: nil, listBytes: [], operatorCertificates: [],
      verifiedForm: widened.storedForm)
    try await wallet.store.addTrustedList(planted)
    let otherKey = try SettingsAuthentication(key: [UInt8](repeating: 7, count: 32))
    let forged = TrustedListRecord(
      id: "forged", kind: "lote", location: nil, listBytes: [], operatorCertificates: [],
      verifiedForm: widened.storedForm)
    try await wallet.store.addTrustedList(forged.tagged(otherKey.tag(for: forged)))
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    #expect(
      Set(try await wallet.trustedListListing().problems.map(\.record)) == [
        .trustedList(id: stored.id), .trustedList(id: "planted"), .trustedList(id: "forged"),
      ])
  }

  @Test("A stale list is refused and says so, unless the policy accepts stale lists")
  func staleList() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let later = setup.issued.addingTimeInterval(86_400 * 31)
    // Certificates are valid for 30 days from the PKI's clock; check within them.
    let now = setup.issued.addingTimeInterval(86_400 * 2)
    let wallet = try setup.wallet(clock: { now })
    try await wallet.importTrustedList(
      try setup.lote(nextUpdate: setup.issued.addingTimeInterval(86_400)), kind: .lote,
      operatorCertificates: [setup.operatorCertificate])
    #expect(later > now)
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    let decision = try await wallet.trustDecision(
      chain: [setup.pki.documentSigner], for: .credentialIssuer)
    guard case .untrusted(let reasons) = decision,
      case .listStale(.lote, "Development List Operator", _)? = reasons.first
    else {
      Issue.record("a stale list is not reported: \(decision)")
      return
    }
    try await wallet.setTrustedListPolicy(TrustedListPolicy(staleLists: .accept))
    #expect(
      try await wallet.trustDecision(chain: [setup.pki.documentSigner], for: .credentialIssuer)
        .source != nil)
  }

  @Test("A disabled kind is not consulted; a policy changed without the key consults no list")
  func disabledKind() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate])
    try await wallet.setTrustedListPolicy(TrustedListPolicy(disabledKinds: [.lote]))
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    let decision = try await wallet.trustDecision(
      chain: [setup.pki.documentSigner], for: .credentialIssuer)
    #expect(
      decision
        == .untrusted([.listDisabled(kind: .lote, operatorName: "Development List Operator")]))

    try await wallet.setTrustedListPolicy(TrustedListPolicy())
    #expect(try await wallet.trustAnchors(role: .issuer) == [setup.pki.iaca])
    // The setting edited in the database to turn nothing off, over a stricter value's tag.
    try await wallet.setTrustedListPolicy(TrustedListPolicy(disabledKinds: [.lote]))
    _ = try await wallet.store.execute(
      "UPDATE settings SET value = 'stale=accept;disabled=' WHERE key = ?",
      [.text(TrustedListPolicy.settingKey)])
    let status = try await wallet.trustedListPolicyStatus()
    #expect(status.problem?.error.code == .unauthenticatedRecord)
    #expect(status.policy.disabledKinds == Set(TrustedListKind.allCases))
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
  }

  @Test("A withdrawn service trusts nothing, and the decision says it is withdrawn")
  func withdrawnService() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    try await wallet.importTrustedList(
      try setup.lote(status: ETSIServiceTypeURI.withdrawn), kind: .lote,
      operatorCertificates: [setup.operatorCertificate])
    #expect(try await wallet.trustAnchors(role: .issuer).isEmpty)
    let decision = try await wallet.trustDecision(
      chain: [setup.pki.documentSigner], for: .credentialIssuer)
    #expect(
      decision == .untrusted([.serviceNotGranted(kind: .lote, entity: "Development PID Provider")]))
  }

  /// Answers every request with one response.
  struct FixedHTTPClient: HTTPClient {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse { response }
  }

  @Test(
    "Refresh replaces a list with a newer verified one, and keeps the old one when the new one fails"
  )
  func refresh() async throws {
    let setup = try Setup()
    defer { setup.dir.remove() }
    let wallet = try setup.wallet()
    let location = try #require(URL(string: "https://lists.example/lote.jws"))
    let first = try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate],
      location: location)

    let newer = FixedHTTPClient(
      response: HTTPResponse(status: 200, body: try setup.lote(sequence: 2)))
    let outcomes = try await wallet.refreshTrustedLists(httpClient: newer)
    guard case .refreshed(let refreshed)? = outcomes.first else {
      Issue.record("not refreshed: \(outcomes)")
      return
    }
    #expect(refreshed.id == first.id && refreshed.list.sequenceNumber == 2)

    let forged = FixedHTTPClient(
      response: HTTPResponse(
        status: 200, body: try setup.lote(sequence: 3, signer: try ECPrivateKey(curve: .p256))))
    guard
      case .kept(let kept, let failure)? = try await wallet.refreshTrustedLists(httpClient: forged)
        .first
    else {
      Issue.record("a forged list replaced the old one")
      return
    }
    #expect(kept.list.sequenceNumber == 2 && failure.code == .importRejected)
    let down = FixedHTTPClient(response: HTTPResponse(status: 503))
    guard
      case .kept(_, let unreachable)? = try await wallet.refreshTrustedLists(httpClient: down).first
    else {
      Issue.record("an unreachable list replaced the old one")
      return
    }
    #expect(unreachable.code == .transport)
    // A location outside the URL policy is not fetched.
    let plain = try await wallet.importTrustedList(
      try setup.lote(), kind: .lote, operatorCertificates: [setup.operatorCertificate],
      location: URL(string: "http://lists.example/lote.jws"))
    let outcomes2 = try await wallet.refreshTrustedLists(httpClient: newer)
    #expect(
      outcomes2.contains {
        if case .kept(let list, let failure) = $0 {
          list.id == plain.id && failure.code == .transport
        } else {
          false
        }
      })
    #expect(
      try await wallet.trustedListListing().lists.compactMap(\.list.sequenceNumber).sorted() == [
        1, 2,
      ])
    // An older issue of the list, validly signed (a replay), does not replace a newer one.
    let replay = FixedHTTPClient(response: HTTPResponse(status: 200, body: try setup.lote()))
    let replayed = try await wallet.refreshTrustedLists(httpClient: replay)
    #expect(
      replayed.contains {
        if case .kept(let list, let failure) = $0 {
          list.id == first.id && failure.code == .importRejected
            && failure.reason.contains("older")
        } else {
          false
        }
      })
  }
}
