import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Credentials the wallet must refuse at import although they are well formed and genuinely
/// signed by someone: each passes every check before the one the test names.
@Suite("Import refusals")
struct ImportRefusalTests {
  /// An SD-JWT VC issuer: a root and a leaf (DCWalletFixtureTestSupport, shared with the
  /// end-to-end tests).
  typealias Issuer = SDJWTVCTestIssuer

  let dir: TemporaryDirectory
  let clock: Date
  let wallet: Wallet
  let device: ECPrivateKey
  let issuer: Issuer

  init() throws {
    dir = try TemporaryDirectory()
    let now = Date()
    clock = now
    wallet = try Wallet(
      home: WalletHome(directory: dir.path), policy: WalletPolicy(acceptsUnverifiedIssuers: true),
      clock: { now })
    device = try ECPrivateKey(curve: .p256)
    issuer = try Issuer(name: "Test PID", clock: now)
  }

  /// The WalletError an import throws; records an issue when it succeeds.
  func refusal(_ body: () async throws -> Void) async -> WalletError? {
    do {
      try await body()
      Issue.record("the import was accepted")
      return nil
    } catch let error as WalletError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  func importSDJWT(_ text: String, key: ECPrivateKey? = nil) async -> WalletError? {
    await refusal { _ = try await wallet.importSDJWT(text, deviceKey: key ?? device) }
  }

  @Test("A genuine SD-JWT VC imports with and without anchors (the baseline)")
  func baseline() async throws {
    defer { dir.remove() }
    _ = try await wallet.importSDJWT(
      try issuer.issue(holder: device.publicKey, clock: clock), deviceKey: device, id: "open")
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    _ = try await wallet.importSDJWT(
      try issuer.issue(holder: device.publicKey, clock: clock), deviceKey: device, id: "anchored")
    #expect(try await wallet.credentials().map(\.id).sorted() == ["anchored", "open"])
  }

  /// RFC 9901 §7.1 step 2: the Issuer-signed JWT's signature, by the `x5c` leaf's key.
  @Test("An SD-JWT signed by a key other than its x5c leaf's is refused", arguments: [false, true])
  func wrongIssuerSignature(anchored: Bool) async throws {
    defer { dir.remove() }
    if anchored { _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer) }
    // A valid chain in x5c, a signature by another key.
    let forged = try issuer.issue(
      holder: device.publicKey, clock: clock, signer: try ECPrivateKey(curve: .p256))
    let error = await importSDJWT(forged)
    #expect(error?.code == .importRejected)
    #expect(error?.reason.contains("does not verify") == true, "\(String(describing: error))")
    #expect(error?.reason.contains("signature") == true, "\(String(describing: error))")
    #expect(try await wallet.credentials().isEmpty)
  }

  /// SD-JWT VC §3.5: with anchors configured, the `x5c` chain must reach one.
  @Test("An SD-JWT from an issuer outside the configured anchors is refused")
  func issuerNotChainingToAnchors() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    let foreign = try Issuer(name: "Foreign PID", clock: clock)
    let error = await importSDJWT(try foreign.issue(holder: device.publicKey, clock: clock))
    #expect(error?.code == .importRejected)
    #expect(error?.reason.contains("x5c chain") == true, "\(String(describing: error))")
    #expect(try await wallet.credentials().isEmpty)
  }

  /// RFC 5280 §6.1: every certificate of the path is signed by the next one.
  @Test("An SD-JWT whose x5c chain is broken is refused")
  func brokenChain() async throws {
    defer { dir.remove() }
    _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer)
    // An impostor root with the anchor's name but another key signs the leaf: the name chain
    // reaches the anchor, the signatures do not.
    let impostor = try Issuer(name: "Test PID", clock: clock)
    let viaName = await importSDJWT(try impostor.issue(holder: device.publicKey, clock: clock))
    #expect(viaName?.code == .importRejected)
    #expect(viaName?.reason.contains("x5c chain") == true, "\(String(describing: viaName))")
    #expect(try await wallet.credentials().isEmpty)
    // The genuine leaf with its issuer's signature damaged (the last byte of the DER ECDSA
    // signature), presented with the anchor: the JWT signature verifies, the chain link does not.
    var damaged = issuer.leaf.derBytes
    damaged[damaged.count - 1] ^= 0x01
    let damagedLeaf = try Certificate(derEncoded: damaged)
    #expect(damagedLeaf.publicKey == issuer.leaf.publicKey)
    let brokenLink = await importSDJWT(
      try issuer.issue(holder: device.publicKey, clock: clock, x5c: [damagedLeaf, issuer.root]))
    #expect(brokenLink?.code == .importRejected)
    #expect(brokenLink?.reason.contains("x5c chain") == true, "\(String(describing: brokenLink))")
    // The baseline: the undamaged leaf with the anchor imports.
    _ = try await wallet.importSDJWT(
      try issuer.issue(holder: device.publicKey, clock: clock, x5c: [issuer.leaf, issuer.root]),
      deviceKey: device, id: "genuine")
    #expect(try await wallet.credentials().map(\.id) == ["genuine"])
  }

  /// SD-JWT VC §3.2.2.2 / RFC 7800: the device key the wallet holds must be the `cnf` key.
  @Test("An SD-JWT whose cnf is not the device key is refused", arguments: [false, true])
  func cnfIsNotTheDeviceKey(anchored: Bool) async throws {
    defer { dir.remove() }
    if anchored { _ = try await wallet.addTrustAnchor(issuer.root, role: .issuer) }
    let other = try ECPrivateKey(curve: .p256)
    let error = await importSDJWT(
      try issuer.issue(holder: other.publicKey, clock: clock), key: device)
    #expect(error?.code == .importRejected)
    #expect(error?.reason == "the device key is not the SD-JWT's cnf key")
    #expect(try await wallet.credentials().isEmpty)
  }

  /// RFC 9901 §4: an issuer hands out an SD-JWT without a KB-JWT; a presentation is not a
  /// credential.
  @Test("A presentation (with a KB-JWT) is refused at import")
  func presentationIsNotACredential() async throws {
    defer { dir.remove() }
    let issued = try SDJWT(serialized: try issuer.issue(holder: device.publicKey, clock: clock))
    let presented = try issued.present(
      disclosing: ["given_name"],
      keyBinding: KeyBinding(
        signer: device, audience: "origin:https://verifier.example", nonce: "n", issuedAt: clock))
    let error = await importSDJWT(presented)
    #expect(error?.code == .importRejected)
    #expect(error?.reason == "an issued SD-JWT carries no key binding JWT")
    #expect(try await wallet.credentials().isEmpty)
  }

  @Test("Without issuer anchors, an SD-JWT with no x5c (no key to check) is refused")
  func noAnchorsNoX5C() async throws {
    defer { dir.remove() }
    let bare = try issuer.issue(holder: device.publicKey, clock: clock, x5c: [])
    let error = await importSDJWT(bare)
    #expect(error?.code == .importRejected)
    #expect(
      error?.reason
        == "with no issuer anchors configured, the SD-JWT must carry its signing key in x5c")
    #expect(try await wallet.credentials().isEmpty)
  }

  /// ISO 18013-5 §9.3.1: with issuer anchors configured, the document signer must chain to one.
  @Test("An mdoc from a foreign IACA is refused while anchors are configured")
  func mdocFromForeignIACA() async throws {
    defer { dir.remove() }
    let pki = try TestPKI(now: clock)
    let foreign = try TestPKI(now: clock)
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    let error = await refusal {
      _ = try await wallet.importMdoc(
        try foreign.issue(deviceKey: device.publicKey).bytes, deviceKey: device)
    }
    #expect(error?.code == .importRejected)
    #expect(error?.reason.contains("is not trusted") == true, "\(String(describing: error))")
    #expect(try await wallet.credentials().isEmpty)
    // The same kind of mdoc from the configured IACA imports.
    _ = try await wallet.importMdoc(
      try pki.issue(deviceKey: device.publicKey).bytes, deviceKey: device, id: "trusted")
    #expect(try await wallet.credentials().map(\.id) == ["trusted"])
  }
}

/// The key-encryption key file: only a regular file of this user, never through a link.
@Suite("Key-encryption key file ownership")
struct KeyEncryptionKeyFileTests {
  /// A 32-byte, mode 0600 key file at `path`.
  static func writeKey(_ path: String) throws {
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data(repeating: 7, count: 32),
        attributes: [.posixPermissions: 0o600]))
  }

  @Test("A KEK reached through a symbolic link is refused")
  func symlink() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let target = dir.path + "/elsewhere"
    try Self.writeKey(target)
    // The target itself is a good key file.
    _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: target)
    let link = dir.path + "/kek"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let error = #expect(throws: WalletStoreError.self) {
      _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: link)
    }
    #expect(error?.code == .insecureKeyFile)
    #expect(error?.reason == "\(link) is a symbolic link")
  }

  // Giving a file to another user needs root; CI and the development container run tests as
  // root, elsewhere this test reports itself as skipped.
  @Test(
    "A KEK owned by another user is refused", .enabled(if: geteuid() == 0, "chown needs root"))
  func ownedByAnotherUser() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try WalletStore(path: dir.databasePath)
    let path = dir.path + "/kek"
    try Self.writeKey(path)
    _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
    let nobody: uid_t = 65_534
    #expect(chown(path, nobody, gid_t(nobody)) == 0)
    let error = #expect(throws: WalletStoreError.self) {
      _ = try SoftwareKeyStore(store: store, keyEncryptionKeyPath: path)
    }
    #expect(error?.code == .insecureKeyFile)
    #expect(error?.reason == "\(path) is owned by another user")
  }
}
