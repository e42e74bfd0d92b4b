import DCCrypto
import DCJOSE
import DCJSON
import DCSDJWT
import DCX509
import Foundation
import Testing

/// SD-JWT VC inline X.509: the `x5c` leaf must be a signing end entity that vouches for `iss`
/// (draft-ietf-oauth-sd-jwt-vc, "Issuer Verification Key Discovery and Validation").
@Suite("SD-JWT VC issuer certificate and iss")
struct IssuerBindingTests {
  static let now = RoundTripTests.now

  let rootKey: ECPrivateKey
  let root: Certificate
  let signerKey: ECPrivateKey

  init() throws {
    rootKey = try ECPrivateKey(curve: .p256)
    signerKey = try ECPrivateKey(curve: .p256)
    (root, _) = try RoundTripTests.chain(rootKey: rootKey, signerKey: signerKey)
  }

  func leaf(
    _ names: [GeneralName] = [.dnsName("issuer.example")],
    extensions: [CertificateExtension] = [.keyUsage(.digitalSignature)]
  ) throws -> Certificate {
    try RoundTripTests.issuerLeaf(
      signerKey: signerKey, root: root, rootKey: rootKey, names: names, extensions: extensions)
  }

  /// An SD-JWT VC signed by the fixture's signer, `iss` as given, `x5c` = [leaf].
  func credential(iss: String?, leaf: Certificate) throws -> SDJWT {
    try SDJWTIssuer.issue(
      claims: ["given_name": "Erika"], selectivelyDisclosable: ["given_name"], holderKey: nil,
      vct: "urn:eudi:pid:1", issuer: iss, issuedAt: Self.now.addingTimeInterval(-60),
      signer: signerKey, x5c: [leaf], random: SecureRandom())
  }

  func verify(_ sdJWT: SDJWT) throws -> VerifiedSDJWT {
    try sdJWT.verify(trustAnchors: [root], at: Self.now)
  }

  @Test(
    "iss is vouched for by a dNSName SAN of its https host or an equal URI SAN",
    arguments: [
      ("https://issuer.example", GeneralName.dnsName("issuer.example")),
      ("https://issuer.example/pid?x=1", .dnsName("issuer.example")),
      ("https://ISSUER.example:8443", .dnsName("Issuer.Example")),
      ("https://issuer.example/tenant/1", .uri("https://issuer.example/tenant/1")),
      ("did:web:issuer.example", .uri("did:web:issuer.example")),
    ])
  func vouched(iss: String, name: GeneralName) throws {
    let verified = try verify(try credential(iss: iss, leaf: try leaf([name])))
    #expect(verified.issuer == iss)
  }

  @Test("A credential without iss needs no SAN")
  func noIssuer() throws {
    #expect(try verify(try credential(iss: nil, leaf: try leaf([]))).issuer == nil)
  }

  @Test(
    "An iss the leaf does not vouch for is refused",
    arguments: [
      ("https://bank.example", [GeneralName.dnsName("issuer.example")]),
      ("https://issuer.example.evil", [.dnsName("issuer.example")]),
      ("http://issuer.example", [.dnsName("issuer.example")]),
      ("https://issuer.example", [.uri("https://issuer.example/other")]),
      ("https://issuer.example", [.rfc822Name("issuer.example")]),
      ("did:web:issuer.example", [.dnsName("issuer.example")]),
      ("https://issuer.example", []),
    ])
  func notVouched(iss: String, names: [GeneralName]) throws {
    let sdJWT = try credential(iss: iss, leaf: try leaf(names))
    expectSDJWTError(.untrustedIssuer) { try verify(sdJWT) }
    // Presentations are verified with the same rule.
    expectSDJWTError(.untrustedIssuer) {
      try SDJWT.verifyPresentation(
        serialized: sdJWT.serialized, trustAnchors: [root], expectedAudience: "a",
        expectedNonce: "n", now: Self.now)
    }
    // A caller that trusts the issuer key directly makes no certificate claim.
    #expect(throws: Never.self) { try sdJWT.verify(issuerKey: signerKey.publicKey, now: Self.now) }
  }

  @Test("The leaf must be a signing end entity")
  func leafProfile() throws {
    let ca = try leaf(extensions: [.basicConstraints(isCA: true), .keyUsage(.digitalSignature)])
    expectSDJWTError(.untrustedIssuer) {
      try verify(try credential(iss: "https://issuer.example", leaf: ca))
    }
    let noUsage = try leaf(extensions: [])
    expectSDJWTError(.untrustedIssuer) {
      try verify(try credential(iss: "https://issuer.example", leaf: noUsage))
    }
    let certSignOnly = try leaf(extensions: [.keyUsage(.keyCertSign)])
    expectSDJWTError(.untrustedIssuer) {
      try verify(try credential(iss: "https://issuer.example", leaf: certSignOnly))
    }
    let endEntity = try leaf(extensions: [
      .basicConstraints(isCA: false), .keyUsage(.digitalSignature),
    ])
    #expect(throws: Never.self) {
      try verify(try credential(iss: "https://issuer.example", leaf: endEntity))
    }
  }

  @Test("Plain SD-JWT (not SD-JWT VC) keeps only the caller's policies")
  func plainProfile() throws {
    let sdJWT = try credential(iss: "https://bank.example", leaf: try leaf([], extensions: []))
    #expect(throws: Never.self) {
      try sdJWT.verify(
        trustAnchors: [root], at: Self.now, options: SDJWTVerificationOptions(profile: .sdJWT))
    }
  }
}
