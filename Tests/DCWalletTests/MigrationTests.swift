import DCTestSupport
import DCWalletFixtureTestSupport
import Foundation
import Testing

@testable import DCWallet

@Suite("Wallet home migration")
struct MigrationTests {
  /// A wallet home written by the code before the SQLite layer was shared (issue 27): `dcwallet
  /// trust add --issuer`, then `import` of an mDL and an SD-JWT VC, from the development files
  /// (`Vectors/SOURCE.md`). It opens at schema version 7, migrates to 8 (issue 29 adds the
  /// `trusted_lists` table and changes no existing row), and every row's tag verifies under the
  /// home's key (the row authentication encoding is unchanged).
  @Test func aHomeWrittenBeforeTheSharedSQLiteLayerOpensUnchanged() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let home = WalletHome(directory: dir.path + "/home")
    try FileManager.default.createDirectory(
      atPath: home.directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let database = try VectorFile.bytes("home-before-dcstore", ext: "sqlite", in: .module)
    let key = try VectorFile.bytes("home-before-dcstore", ext: "kek", in: .module)
    #expect(
      FileManager.default.createFile(
        atPath: home.databasePath, contents: Data(database),
        attributes: [.posixPermissions: 0o600]))
    #expect(
      FileManager.default.createFile(
        atPath: home.keyEncryptionKeyPath, contents: Data(key),
        attributes: [.posixPermissions: 0o600]))

    do {
      let wallet = try Wallet(home: home)
      let listing = try await wallet.credentialListing()
      #expect(listing.problems.isEmpty)
      let credentials = listing.credentials.sorted { $0.id < $1.id }
      #expect(credentials.map(\.id) == ["mdl-1", "pid-1"])
      #expect(credentials.map(\.format) == [.msoMdoc, .sdJWT])
      #expect(credentials.map(\.type) == ["org.iso.18013.5.1.mDL", "urn:eudi:pid:1"])
      // Trusted only when the row's tag verifies (issue 32) and the anchor's does too.
      #expect(credentials.allSatisfy { $0.issuerTrust == .trusted })
      #expect(credentials.allSatisfy { $0.deviceKeyID != nil })
      #expect(try await wallet.trustAnchors(role: .issuer).count == 1)
      let store = try WalletStore(path: home.databasePath)
      #expect(try await store.schemaVersion() == WalletStore.currentSchemaVersion)
      #expect(try await wallet.trustedListListing() == TrustedListListing(lists: [], problems: []))
    }
  }
}
