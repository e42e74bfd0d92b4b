import DCAPI
import DCCrypto
import DCJSON
import DCMdoc
import DCQL
import DCVerifier
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@Suite(
  "Presentation model: the policy value, the requester's authentication, typed refusals and consent"
)
struct PresentationModelTests {
  static let mdlQuery: JSONValue = ["credentials": [ConsentFixture.mdlQuery()]]
  /// The mDL's age_over_18 and family_name.
  static let twoClaims: JSONValue = [
    "credentials": [
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [
          ["path": ["org.iso.18013.5.1", "age_over_18"]],
          ["path": ["org.iso.18013.5.1", "family_name"]],
        ],
      ]
    ]
  ]
  static let mdlElement = ClaimReference.mdoc(
    nameSpace: "org.iso.18013.5.1", element: "age_over_18")

  @Test(
    "The default policy refuses an issuer that cannot be established; accepting one is an opt-in")
  func unverifiedIssuerIsAnOptIn() async throws {
    let pki = try TestPKI()
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let key = try ECPrivateKey(curve: .p256)
    let mdoc = try pki.issue(deviceKey: key.publicKey).bytes
    let now = pki.clock
    let strict = try Wallet(home: WalletHome(directory: dir.path), clock: { now })
    #expect(strict.policy.acceptsUnverifiedIssuers == false)
    do {
      _ = try await strict.importMdoc(mdoc, deviceKey: key, id: "mdl")
      Issue.record("an mdoc from an unestablished issuer was imported")
    } catch {
      #expect(error.code == .importRejected)
      #expect(error.reason.contains("does not accept unverified issuers"))
    }
    #expect(try await strict.credentials().isEmpty)
    let open = try Wallet(
      home: WalletHome(directory: dir.path),
      policy: WalletPolicy(acceptsUnverifiedIssuers: true), clock: { now })
    let stored = try await open.importMdoc(mdoc, deviceKey: key, id: "mdl")
    #expect(stored.issuerTrust == .unverified)
    // With an anchor, the strict wallet imports and the issuer is trusted.
    _ = try await strict.addTrustAnchor(pki.iaca, role: .issuer)
    let other = try ECPrivateKey(curve: .p256)
    let trusted = try await strict.importMdoc(
      try pki.issue(deviceKey: other.publicKey).bytes, deviceKey: other, id: "mdl-2")
    #expect(trusted.issuerTrust == .trusted)
  }

  @Test("A protocol the policy does not allow is refused with a typed refusal per request")
  func allowedProtocols() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.mdlQuery)
    let protocolID = try #require(envelope.requests.first?.protocolIdentifier)
    let unknown = ProtocolRequest(protocolIdentifier: "example-unknown", data: [:])
    let mixed = RequestEnvelope(requests: [unknown] + envelope.requests)
    do {
      _ = try await wallet.resolve(
        mixed, origin: ConsentFixture.origin,
        policy: WalletPolicy(allowedProtocols: ["org-iso-mdoc"]))
      Issue.record("a protocol outside the policy was answered")
    } catch {
      #expect(error.code == .refused)
      #expect(error.refusals.map(\.code) == [.unsupportedProtocol, .protocolNotAllowed])
      #expect(error.refusals.map(\.protocolIdentifier) == ["example-unknown", protocolID])
    }
    // Allowed, the same envelope is answered and the unknown request is a typed skip.
    let request = try await wallet.resolve(
      mixed, origin: ConsentFixture.origin, policy: WalletPolicy(allowedProtocols: [protocolID]))
    #expect(request.skipped.map(\.code) == [.unsupportedProtocol])
  }

  @Test("Refusals are typed: an unauthenticated requester, no matching credential")
  func typedRefusals() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, unsigned) = try fixture.request(Self.mdlQuery)
    do {
      _ = try await wallet.resolve(
        unsigned, origin: ConsentFixture.origin,
        policy: WalletPolicy(requireAuthenticatedRequester: true))
      Issue.record("an unsigned request was answered under the policy")
    } catch {
      #expect(error.refusals.map(\.code) == [.requesterNotAuthenticated])
    }
    let (_, nothing) = try fixture.request([
      "credentials": [
        ["id": "x", "format": "mso_mdoc", "meta": ["doctype_value": "org.example.none"]]
      ]
    ])
    do {
      _ = try await wallet.resolve(nothing, origin: ConsentFixture.origin)
      Issue.record("a request no credential matches was answered")
    } catch {
      #expect(error.refusals.map(\.code) == [.noMatchingCredential])
      #expect(error.reason.hasPrefix("no request can be answered ("))
    }
  }

  @Test("The requester's authentication is recorded as a value for both protocols")
  func requesterAuthentication() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, unsigned) = try fixture.request(Self.mdlQuery)
    let open = try await wallet.resolve(unsigned, origin: ConsentFixture.origin)
    #expect(open.requesterAuthentication == .absent)
    let (_, signed) = try fixture.request(Self.mdlQuery, signing: .signed(fixture.signer))
    let trusted = try await wallet.resolve(signed, origin: ConsentFixture.origin)
    #expect(trusted.requesterAuthentication == .trusted)
    let origin = try WebOrigin("https://evil.example")
    let selfSigned = try await wallet.resolve(
      try RequesterTrustTests().selfSignedReaderRequest(origin: origin),
      origin: origin.serialized)
    guard case .untrusted = selfSigned.requesterAuthentication else {
      Issue.record("a self-signed reader was not recorded as untrusted")
      return
    }
    #expect(selfSigned.requester == .unverified(origin: origin))
    // The request as values before consent: one doc request, its claim, one candidate per mDL.
    let requested = selfSigned.requested
    #expect(requested.requesterAuthentication == selfSigned.requesterAuthentication)
    #expect(requested.documents.map(\.candidateIDs) == [["mdl", "mdl-2"]])
    #expect(requested.documents.first?.requestedClaims.map(\.intentToRetain) == [false])
    #expect(requested.documents.allSatisfy { $0.presentations.isEmpty })
  }

  @Test("A consent's claim limit is a set of claim references, for Annex C and OpenID4VP")
  func typedClaimSelection() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let origin = try WebOrigin("https://evil.example")
    let annexC = try await wallet.resolve(
      try RequesterTrustTests().selfSignedReaderRequest(origin: origin),
      origin: origin.serialized)
    #expect(annexC.disclosableClaims == [Self.mdlElement])
    guard
      case .mdoc(let mdoc) = try annexC.consent(
        ConsentSelection(credentialIDs: ["mdl-2"], claims: [Self.mdlElement]))
    else {
      Issue.record("expected an mdoc consent")
      return
    }
    #expect(mdoc.documents.map(\.credentialID) == ["mdl-2"])
    #expect(mdoc.documents.first?.elements == ["org.iso.18013.5.1": ["age_over_18"]])
    // A limit that names nothing requested leaves nothing to share.
    let refusedError = #expect(throws: WalletError.self) {
      _ = try annexC.consent(
        ConsentSelection(claims: [.mdoc(nameSpace: "org.iso.18013.5.1", element: "portrait")]))
    }
    #expect(refusedError?.code == .refused)
    let (_, envelope) = try fixture.request(Self.twoClaims)
    let openID4VP = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    #expect(
      openID4VP.disclosableClaims == [
        Self.mdlElement, .mdoc(nameSpace: "org.iso.18013.5.1", element: "family_name"),
      ])
    guard
      case .openID4VP(let consent) = try openID4VP.consent(
        ConsentSelection(claims: [Self.mdlElement]))
    else {
      Issue.record("expected an OpenID4VP consent")
      return
    }
    #expect(consent.selections["mdl"]?.first?.disclosed == [Self.mdlElement.path])
  }

  @Test("OpenID4VPChoice keeps the claim limit it is created with")
  func choiceKeepsClaims() async throws {
    let fixture = try await ConsentFixture()
    defer { fixture.dir.remove() }
    let wallet = try fixture.wallet()
    let (_, envelope) = try fixture.request(Self.twoClaims)
    let request = try await wallet.resolve(envelope, origin: ConsentFixture.origin)
    guard case .openID4VP(let presentation) = request.kind else {
      Issue.record("expected an OpenID4VP request")
      return
    }
    let full = try presentation.consent(for: OpenID4VPChoice())
    let id = try #require(full.selections["mdl"]?.first?.credentialID)
    #expect(full.selections["mdl"]?.first?.disclosed.count ?? 0 > 1)
    let limited = try presentation.consent(
      for: OpenID4VPChoice(claims: [id: [Self.mdlElement.path]]))
    #expect(limited.selections["mdl"]?.first?.disclosed == [Self.mdlElement.path])
  }

  @Test("A wallet error keeps the error it was decided on")
  func walletErrorKeepsItsCause() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let wallet = try Wallet(
      home: WalletHome(directory: dir.path), policy: WalletPolicy(acceptsUnverifiedIssuers: true))
    let key = try ECPrivateKey(curve: .p256)
    do {
      _ = try await wallet.importMdoc([0xA0], deviceKey: key)
      Issue.record("an empty map was imported as an mdoc")
    } catch {
      #expect(error.code == .importRejected)
      #expect(error.underlying is MdocError)
    }
  }
}

/// A key store that uses the default `importKey(_:storing:in:)` of `DeviceKeyStore` (it keeps
/// its keys through a software key store and records what it imports and deletes).
final class RecordingKeyStore: DeviceKeyStore, @unchecked Sendable {
  private let inner: SoftwareKeyStore
  private let lock = NSLock()
  private(set) var imported: [String] = []
  private(set) var deleted: [String] = []

  init(_ inner: SoftwareKeyStore) { self.inner = inner }

  func createKey(curve: EllipticCurve) async throws -> (id: String, publicKey: ECPublicKey) {
    try await inner.createKey(curve: curve)
  }

  func importKey(_ key: ECPrivateKey) async throws -> String {
    let id = try await inner.importKey(key)
    lock.withLock { imported.append(id) }
    return id
  }

  func signer(for id: String) async throws -> any Signer { try await inner.signer(for: id) }

  func publicKey(for id: String) async throws -> ECPublicKey { try await inner.publicKey(for: id) }

  func deleteKey(id: String) async throws {
    try await inner.deleteKey(id: id)
    lock.withLock { deleted.append(id) }
  }
}

@Suite("Device key stores: a key and its credential are stored as one step")
struct DeviceKeyImportTests {
  @Test("The default import removes the key again when the credential cannot be written")
  func defaultImportRollsBack() async throws {
    let pki = try TestPKI()
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let home = WalletHome(directory: dir.path)
    try home.create()
    let keys = RecordingKeyStore(
      try SoftwareKeyStore(
        store: try WalletStore(path: home.databasePath),
        keyEncryptionKeyPath: home.keyEncryptionKeyPath))
    let now = pki.clock
    let wallet = try Wallet(
      home: home, keys: keys,
      policy: WalletPolicy(acceptsUnverifiedIssuers: true), clock: { now })
    let first = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importMdoc(
      try pki.issue(deviceKey: first.publicKey).bytes, deviceKey: first, id: "mdl")
    #expect(keys.imported.count == 1)
    let second = try ECPrivateKey(curve: .p256)
    let bytes = try pki.issue(deviceKey: second.publicKey).bytes
    do {
      _ = try await wallet.importMdoc(bytes, deviceKey: second, id: "mdl")
      Issue.record("a duplicate id was imported")
    } catch {
      #expect(error.code == .invalidInput)
    }
    // The second key was stored, then removed when its credential could not be written.
    #expect(keys.imported.count == 2)
    #expect(keys.deleted == [keys.imported[1]])
  }
}
