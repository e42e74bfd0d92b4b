import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCX509
import Foundation
import Testing

/// Signed credential issuer metadata (OpenID4VCI 1.0 §12.2.3): the specification's example and
/// every check, with JWS and x5c chain validation from the JOSE and X509Certificates modules.
@Suite("Signed credential issuer metadata")
struct IssuerMetadataSignedTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)
  static let issuer = "https://issuer.example.com"

  struct Fixture {
    let rootKey: ECPrivateKey
    let root: Certificate
    let signerKey: ECPrivateKey
    let leaf: Certificate

    init() throws {
      rootKey = try ECPrivateKey(curve: .p256)
      root = try CertificateBuilder.iaca(
        commonName: "Metadata Root", country: "DE", publicKey: rootKey.publicKey,
        notBefore: IssuerMetadataSignedTests.now.addingTimeInterval(-86_400),
        notAfter: IssuerMetadataSignedTests.now.addingTimeInterval(86_400 * 365)
      ).selfSigned(signer: rootKey)
      signerKey = try ECPrivateKey(curve: .p256)
      leaf = try CertificateBuilder(
        subject: DistinguishedName(commonName: "Metadata Signer", country: "DE"),
        publicKey: signerKey.publicKey,
        notBefore: IssuerMetadataSignedTests.now.addingTimeInterval(-3_600),
        notAfter: IssuerMetadataSignedTests.now.addingTimeInterval(86_400 * 30),
        extensions: [.keyUsage(.digitalSignature)]
      ).issued(by: root, signer: rootKey)
    }

    /// Signs `payload` (default: valid claims) with `header` changes.
    func sign(
      _ payload: JSONValue? = nil, typ: String? = "openidvci-issuer-metadata+jwt",
      x5c: Bool = true, signer: (any Signer)? = nil
    ) throws -> String {
      var header: JSONValue = .object([])
      if let typ { header = header.setting("typ", to: .string(typ)) }
      if x5c { header = header.setting("x5c", to: JWS.x5c([leaf.derBytes])) }
      return try JWS.sign(
        payload: (payload ?? Self.claims()).serializedBytes(), protectedHeader: header,
        signer: signer ?? signerKey)
    }

    static func claims(sub: String = issuer, iat: Int64 = 1_779_990_000) -> JSONValue {
      minimalIssuerMetadata()
        .setting("sub", to: .string(sub)).setting("iat", to: .integer(iat))
        .setting("iss", to: "https://trust.example")
    }
  }

  @Test("The specification's signed metadata example parses and verifies against its own x5c")
  func specExample() throws {
    let compact = String(
      decoding: try vciVector("credential_issuer_metadata_sd_jwt_jwt", ext: "txt"), as: UTF8.self)
    let signed = try SignedIssuerMetadata(compact: compact)
    #expect(signed.subject == "https://credential-issuer.example.com")
    #expect(signed.issuedAt == Date(timeIntervalSince1970: 1_516_239_022))
    #expect(signed.expiresAt == nil && signed.issuer == nil)
    let certificate = try Certificate(derEncoded: try #require(signed.jws.x5c?.first))
    let expected = try IssuerIdentifier("https://credential-issuer.example.com")
    let metadata = try signed.verify(
      trustAnchors: [certificate], at: Self.now, expectedIssuer: expected)
    #expect(metadata.credentialIssuer == expected)
    #expect(metadata.credentialResponseEncryption?.encryptionRequired == false)
    #expect(metadata.configuration(id: "SD_JWT_VC_example_in_OpenID4VCI")?.proofType("jwt") != nil)
    // The same configurations as the unsigned example (whose display texts differ).
    let unsigned = try CredentialIssuerMetadata(
      jsonBytes: vciVector("credential_issuer_metadata_sd_jwt_long"))
    #expect(
      metadata.credentialConfigurations.map(\.format)
        == unsigned.credentialConfigurations.map(\.format))
    #expect(
      metadata.credentialConfigurations.map(\.claims)
        == unsigned.credentialConfigurations.map(\.claims))
    // No anchor: refused.
    expectVCIError(.untrustedSignedMetadata) {
      try signed.verify(trustAnchors: [], at: Self.now, expectedIssuer: expected)
    }
  }

  @Test("Our own signed metadata verifies through a two-certificate chain")
  func verifies() throws {
    let fixture = try Fixture()
    let signed = try SignedIssuerMetadata(compact: fixture.sign())
    #expect(signed.issuer == "https://trust.example")
    let metadata = try signed.verify(
      trustAnchors: [fixture.root], at: Self.now, expectedIssuer: IssuerIdentifier(Self.issuer))
    #expect(metadata == (try CredentialIssuerMetadata(json: minimalIssuerMetadata())))
    // Also as the drafts' signed_metadata member.
    let holder = try CredentialIssuerMetadata(
      json: minimalIssuerMetadata().setting(
        "signed_metadata", to: .string(signed.jws.compactSerialization)))
    #expect(holder.signedMetadata == signed)
    #expect(try CredentialIssuerMetadata(json: holder.json) == holder)
  }

  @Test("Form checks: typ, sub, iat, exp, JSON payload, JWS syntax")
  func formChecks() throws {
    let fixture = try Fixture()
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(typ: nil))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(typ: "JWT"))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(Fixture.claims().removing("sub")))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(Fixture.claims().setting("sub", to: 1)))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(Fixture.claims().removing("iat")))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(Fixture.claims().setting("iat", to: "now")))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(Fixture.claims().setting("exp", to: 1.5)))
    }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: fixture.sign(["a", "b"]))
    }
    let header = Base64URL.encode(
      Array(#"{"alg":"ES256","typ":"openidvci-issuer-metadata+jwt"}"#.utf8))
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(compact: header + "." + Base64URL.encode(Array("{".utf8)) + ".AA")
    }
    expectVCIError(.invalidSignedMetadata) { try SignedIssuerMetadata(compact: "a.b") }
    expectVCIError(.invalidSignedMetadata) {
      try SignedIssuerMetadata(
        compact: String(repeating: "a", count: CredentialIssuerMetadata.maximumLength + 1))
    }
  }

  @Test("Trust checks: x5c present, chain to an anchor, signature, time, sub, credential_issuer")
  func trustChecks() throws {
    let fixture = try Fixture()
    let expected = try IssuerIdentifier(Self.issuer)
    func verify(_ compact: String, anchors: [Certificate]? = nil, at now: Date = Self.now) throws {
      _ = try SignedIssuerMetadata(compact: compact).verify(
        trustAnchors: anchors ?? [fixture.root], at: now, expectedIssuer: expected)
    }
    expectVCIError(.untrustedSignedMetadata) { try verify(fixture.sign(x5c: false)) }
    let other = try Fixture()
    expectVCIError(.untrustedSignedMetadata) { try verify(fixture.sign(), anchors: [other.root]) }
    // Signed by a key other than the x5c leaf's.
    expectVCIError(.untrustedSignedMetadata) { try verify(fixture.sign(signer: other.signerKey)) }
    // A payload swapped after signing.
    let parts = try fixture.sign().split(separator: ".").map(String.init)
    let swapped = Base64URL.encode(
      Fixture.claims().setting("credential_endpoint", to: "https://evil.example/c")
        .serializedBytes())
    expectVCIError(.untrustedSignedMetadata) {
      try verify(parts[0] + "." + swapped + "." + parts[2])
    }
    // The chain is checked at the given time: after the leaf expires it is refused.
    expectVCIError(.untrustedSignedMetadata) {
      try verify(fixture.sign(), at: Self.now.addingTimeInterval(86_400 * 60))
    }
    // exp in the past (beyond the leeway); iat in the future.
    expectVCIError(.untrustedSignedMetadata) {
      try verify(
        fixture.sign(
          Fixture.claims().setting("exp", to: .integer(Int64(Self.now.timeIntervalSince1970) - 120))
        ))
    }
    try verify(
      fixture.sign(
        Fixture.claims().setting("exp", to: .integer(Int64(Self.now.timeIntervalSince1970) + 120))))
    expectVCIError(.untrustedSignedMetadata) {
      try verify(fixture.sign(Fixture.claims(iat: Int64(Self.now.timeIntervalSince1970) + 120)))
    }
    // sub names another issuer; credential_issuer names another issuer.
    expectVCIError(.issuerMismatch) {
      try verify(fixture.sign(Fixture.claims(sub: "https://other.example")))
    }
    expectVCIError(.issuerMismatch) {
      try verify(
        fixture.sign(Fixture.claims().setting("credential_issuer", to: "https://other.example")))
    }
    // The payload is metadata and is checked as such.
    expectVCIError(.invalidMetadata) {
      try verify(fixture.sign(Fixture.claims().removing("credential_endpoint")))
    }
  }
}
