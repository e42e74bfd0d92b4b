import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

@Suite("CertificateBuilder round trips")
struct BuilderTests {
  @Test(
    "IACA -> document signer: parse back, fields as set, trusted", arguments: EllipticCurve.allCases
  )
  func mdocRoundTrip(curve: EllipticCurve) throws {
    let chain = try Fixtures.mdocChain(curve: curve)
    let leaf = try Certificate(derEncoded: chain.leaf.derBytes)
    #expect(leaf == chain.leaf)
    #expect(leaf.subject.description == "CN=Test DS, O=Test Issuer, C=UT")
    #expect(leaf.issuer == chain.root.subject)
    #expect(leaf.notBefore == Fixtures.start && leaf.notAfter == Fixtures.end)
    #expect(leaf.publicKey == .ec(chain.leafKey.publicKey))
    #expect(leaf.signatureAlgorithm == .ecdsa(curve.defaultDigest))
    #expect(leaf.keyUsage == .digitalSignature)
    #expect(leaf.extendedKeyUsage == [.mdlDocumentSigner])
    // RFC 7093 §2 method 1 with SHA-256: leftmost 160 bits of the hash of the key bits.
    let expectedSKI = Array(
      SHA256.hash(data: chain.leafKey.publicKey.x963Representation).prefix(20))
    #expect(leaf.subjectKeyIdentifier == expectedSKI)
    #expect(leaf.authorityKeyIdentifier == chain.root.subjectKeyIdentifier)
    #expect(chain.root.authorityKeyIdentifier == nil)
    #expect(chain.root.crlDistributionPoints == ["https://iaca.example/crl"])
    #expect(chain.root.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
    #expect(leaf.isSignatureValid(issuedBy: chain.root))
    #expect(chain.root.isSignatureValid(issuedBy: chain.root))

    let result = CertificateValidator(trustAnchors: [chain.root], policy: .mdocDocumentSigner)
      .validate(chain: [leaf], at: Fixtures.now)
    #expect(result.trustedChain?.path == [leaf, chain.root], "\(result)")
  }

  @Test("reader and OpenID4VP verifier factories validate under their policies")
  func otherProfiles() throws {
    let rootKey = try ECPrivateKey(curve: .p256)
    let root = try CertificateBuilder.readerRoot(
      commonName: "Reader Root", country: "UT", publicKey: rootKey.publicKey,
      notBefore: Fixtures.start, notAfter: Fixtures.end
    ).selfSigned(signer: rootKey)
    let readerKey = try ECPrivateKey(curve: .p256)
    let reader = try CertificateBuilder.reader(
      commonName: "Reader", publicKey: readerKey.publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.end
    ).issued(by: root, signer: rootKey)
    let readerResult = CertificateValidator(
      trustAnchors: [root], policy: .mdocReaderAuthentication
    ).validate(chain: [reader], at: Fixtures.now)
    #expect(readerResult.trustedChain != nil, "\(readerResult)")

    let verifierKey = try ECPrivateKey(curve: .p256)
    let verifier = try CertificateBuilder.openID4VPVerifier(
      dnsName: "verifier.example.org", publicKey: verifierKey.publicKey,
      notBefore: Fixtures.start, notAfter: Fixtures.end
    ).issued(by: root, signer: rootKey)
    #expect(verifier.subjectAlternativeNames == [.dnsName("verifier.example.org")])
    let policies: [any CertificatePolicy] = [
      OpenID4VPSANDNSPolicy(clientID: "verifier.example.org"),
      OpenID4VPX509HashPolicy(hash: verifier.x509Hash),
    ]
    let result = CertificateValidator(trustAnchors: [root], policies: policies)
      .validate(chain: [verifier, root], at: Fixtures.now)
    #expect(result.trustedChain?.leaf == verifier, "\(result)")
  }

  @Test("custom names, SAN URIs and dates past 2049 survive the round trip")
  func generalFields() throws {
    let key = try ECPrivateKey(curve: .p256)
    let name = DistinguishedName(
      commonName: "Dev Issuer", organization: "Example Org", organizationalUnit: "Wallets",
      locality: "Springfield", stateOrProvince: "Utopia State", country: "UT")
    let certificate = try CertificateBuilder(
      subject: name, publicKey: key.publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.date("2051-06-30T12:00:00Z"), serialNumber: [0x00, 0x01, 0x02],
      extensions: [
        .basicConstraints(isCA: true, pathLength: 3),
        .subjectAlternativeNames([.dnsName("a.example"), .uri("https://a.example/x")]),
      ]
    ).selfSigned(signer: key)
    #expect(certificate.subject == name)
    #expect(certificate.subject.stateOrProvince == "Utopia State")
    #expect(
      certificate.subject.description
        == "CN=Dev Issuer, OU=Wallets, O=Example Org, L=Springfield, ST=Utopia State, C=UT")
    #expect(certificate.serialNumber == [0x01, 0x02])
    #expect(certificate.notAfter == Fixtures.date("2051-06-30T12:00:00Z"))
    #expect(certificate.basicConstraints?.pathLengthConstraint == 3)
    #expect(
      certificate.subjectAlternativeNames == [.dnsName("a.example"), .uri("https://a.example/x")])
  }

  @Test("builder refuses a signer that does not match the issuer")
  func mismatchedSigner() throws {
    let chain = try Fixtures.mdocChain()
    let other = try ECPrivateKey(curve: .p256)
    let builder = CertificateBuilder.documentSigner(
      commonName: "X", country: "UT", publicKey: other.publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.end)
    let invalidBuilderInputError = #expect(throws: CertificateError.self) {
      try builder.issued(by: chain.root, signer: other)
    }
    #expect(invalidBuilderInputError?.code == .invalidBuilderInput)
    let invalidBuilderInputError2 = #expect(throws: CertificateError.self) {
      try builder.selfSigned(signer: chain.rootKey)
    }
    #expect(invalidBuilderInputError2?.code == .invalidBuilderInput)
  }

  @Test("PEM: single document, chains, wrong labels")
  func pem() throws {
    let chain = try Fixtures.mdocChain()
    #expect(try Certificate(pemEncoded: chain.leaf.pemString) == chain.leaf)
    let both = try Certificate.chain(fromPEM: chain.leaf.pemString + chain.root.pemString)
    #expect(both == [chain.leaf, chain.root])
    let key = try ECPrivateKey(curve: .p256)
    let invalidPEMError = #expect(throws: CertificateError.self) {
      try Certificate(pemEncoded: key.pemRepresentation)
    }
    #expect(invalidPEMError?.code == .invalidPEM)
    let invalidPEMError2 = #expect(throws: CertificateError.self) {
      try Certificate(pemEncoded: "not pem")
    }
    #expect(invalidPEMError2?.code == .invalidPEM)
  }

  @Test("x509Hash is base64url SHA-256 of the DER (values from Python hashlib)")
  func x509Hash() throws {
    let der = try Fixtures.annexD()
    let iaca = try Certificate(derEncoded: try #require(der["iaca_der"]))
    let ds = try Certificate(derEncoded: try #require(der["document_signer_der"]))
    #expect(iaca.x509Hash == "a9rH6zYAi6_nHxmeXaPPSYw1wWEA10jdsQRPZkPA-Ck")
    #expect(ds.x509Hash == "t5eY67wMr7QGaDtgp1rXjfc1vDU14xFR2w4t_Eu5jTs")
  }
}
