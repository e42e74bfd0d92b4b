import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

/// Expects `.untrusted` whose reason contains every fragment.
func expectUntrusted(
  _ result: ChainValidationResult, _ fragments: String...,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case .untrusted(let reason) = result else {
    Issue.record("expected untrusted, got \(result)", sourceLocation: sourceLocation)
    return
  }
  for fragment in fragments {
    #expect(reason.contains(fragment), "reason: \(reason)", sourceLocation: sourceLocation)
  }
}

func expectMalformed(
  _ result: ChainValidationResult, _ fragment: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case .malformed(let reason) = result else {
    Issue.record("expected malformed, got \(result)", sourceLocation: sourceLocation)
    return
  }
  #expect(reason.contains(fragment), "reason: \(reason)", sourceLocation: sourceLocation)
}

@Suite("Chain validation: every check that protects the user")
struct ValidationTests {
  func validate(
    _ chain: [Certificate], anchors: [Certificate], policies: [any CertificatePolicy] = [],
    at time: Date = Fixtures.now
  ) -> ChainValidationResult {
    CertificateValidator(trustAnchors: anchors, policies: policies).validate(chain: chain, at: time)
  }

  /// A root CA with a chosen basicConstraints / keyUsage, and keys.
  func root(
    _ name: String = "Root", extensions: [CertificateExtension]? = nil,
    notBefore: Date = Fixtures.start, notAfter: Date = Fixtures.end
  ) throws -> (Certificate, ECPrivateKey) {
    let key = try ECPrivateKey(curve: .p256)
    var builder = CertificateBuilder.iaca(
      commonName: name, country: "UT", publicKey: key.publicKey, notBefore: notBefore,
      notAfter: notAfter)
    if let extensions { builder.extensions = extensions }
    return (try builder.selfSigned(signer: key), key)
  }

  func intermediate(
    under issuer: Certificate, key issuerKey: ECPrivateKey, pathLength: Int? = nil,
    notAfter: Date = Fixtures.end, name: String = "Intermediate"
  ) throws -> (Certificate, ECPrivateKey) {
    let key = try ECPrivateKey(curve: .p256)
    let builder = CertificateBuilder(
      subject: DistinguishedName(commonName: name, country: "UT"),
      publicKey: key.publicKey, notBefore: Fixtures.start, notAfter: notAfter,
      extensions: [
        .basicConstraints(isCA: true, pathLength: pathLength),
        .keyUsage([.keyCertSign]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: key.publicKey)),
      ])
    return (try builder.issued(by: issuer, signer: issuerKey), key)
  }

  func leaf(under issuer: Certificate, key issuerKey: ECPrivateKey) throws -> Certificate {
    let key = try ECPrivateKey(curve: .p256)
    return try CertificateBuilder.documentSigner(
      commonName: "Leaf", country: "UT", publicKey: key.publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.end
    ).issued(by: issuer, signer: issuerKey)
  }

  @Test("expired leaf")
  func expiredLeaf() throws {
    let chain = try Fixtures.mdocChain(leafNotAfter: Fixtures.date("2026-01-01T00:00:00Z"))
    expectUntrusted(
      validate([chain.leaf], anchors: [chain.root]), "CN=Test DS",
      "expired at 2026-01-01T00:00:00Z",
      "checked at 2026-06-01T00:00:00Z")
  }

  @Test("not-yet-valid leaf")
  func notYetValid() throws {
    let chain = try Fixtures.mdocChain { $0.notBefore = Fixtures.date("2027-01-01T00:00:00Z") }
    expectUntrusted(
      validate([chain.leaf], anchors: [chain.root]), "CN=Test DS",
      "not valid before 2027-01-01T00:00:00Z")
  }

  @Test("expired anchor and expired intermediate")
  func expiredIssuers() throws {
    let (oldRoot, oldKey) = try root(
      "Old Root", notBefore: Fixtures.date("2020-01-01T00:00:00Z"),
      notAfter: Fixtures.date("2026-01-01T00:00:00Z"))
    let leafOfOld = try leaf(under: oldRoot, key: oldKey)
    expectUntrusted(validate([leafOfOld], anchors: [oldRoot]), "CN=Old Root", "expired")

    let (rootCert, rootKey) = try root(
      extensions: [
        .basicConstraints(isCA: true, pathLength: 1), .keyUsage([.keyCertSign, .cRLSign]),
      ])
    let (inter, interKey) = try intermediate(
      under: rootCert, key: rootKey, notAfter: Fixtures.date("2026-03-01T00:00:00Z"))
    let leafCert = try leaf(under: inter, key: interKey)
    expectUntrusted(
      validate([leafCert, inter], anchors: [rootCert]), "CN=Intermediate", "expired")
    // The same chain is fine before the intermediate expires.
    let earlier = validate(
      [leafCert, inter], anchors: [rootCert], at: Fixtures.date("2026-02-01T00:00:00Z"))
    #expect(earlier.trustedChain?.path == [leafCert, inter, rootCert], "\(earlier)")
  }

  @Test("wrong issuer: another root's name, or the right name with another key")
  func wrongIssuer() throws {
    let chain = try Fixtures.mdocChain()
    let (otherRoot, _) = try root("Other Root")
    expectUntrusted(
      validate([chain.leaf], anchors: [otherRoot]), "no trust anchor for CN=Test IACA, C=UT")
    // The chain brings its own root, which is not an anchor.
    expectUntrusted(
      validate([chain.leaf, chain.root], anchors: [otherRoot]),
      "self-issued CN=Test IACA, C=UT", "not a trust anchor")
    // An impostor anchor with the same name but a different key.
    let (impostor, _) = try root("Test IACA")
    expectUntrusted(
      validate([chain.leaf], anchors: [impostor]), "signature of CN=Test DS", "does not verify")
    // Next certificate in the chain is not the leaf's issuer.
    expectUntrusted(
      validate([chain.leaf, otherRoot], anchors: [otherRoot]), "issuer of CN=Test DS")
  }

  @Test("issuer without the CA flag, or without keyCertSign")
  func issuerNotCA() throws {
    let (noCA, noCAKey) = try root("Not A CA", extensions: [.keyUsage([.keyCertSign])])
    expectUntrusted(
      validate([try leaf(under: noCA, key: noCAKey)], anchors: [noCA]), "CN=Not A CA",
      "is not a CA")
    let (caFalse, caFalseKey) = try root(
      "CA False", extensions: [.basicConstraints(isCA: false)])
    expectUntrusted(
      validate([try leaf(under: caFalse, key: caFalseKey)], anchors: [caFalse]), "is not a CA")
    let (noSign, noSignKey) = try root(
      "No CertSign", extensions: [.basicConstraints(isCA: true), .keyUsage([.cRLSign])])
    expectUntrusted(
      validate([try leaf(under: noSign, key: noSignKey)], anchors: [noSign]),
      "lacks keyCertSign")
  }

  @Test("pathLenConstraint 0 with an intermediate below is exceeded; 1 is fine")
  func pathLength() throws {
    let (strict, strictKey) = try root("Strict Root")  // iaca(): pathLen 0
    let (inter, interKey) = try intermediate(under: strict, key: strictKey)
    let leafCert = try leaf(under: inter, key: interKey)
    expectUntrusted(
      validate([leafCert, inter], anchors: [strict]), "pathLenConstraint 0", "CN=Strict Root")

    let (loose, looseKey) = try root(
      "Loose Root", extensions: [.basicConstraints(isCA: true, pathLength: 1)])
    let (inter2, inter2Key) = try intermediate(under: loose, key: looseKey, pathLength: 0)
    let leaf2 = try leaf(under: inter2, key: inter2Key)
    #expect(validate([leaf2, inter2], anchors: [loose]).trustedChain != nil)
    // The document-signer policy needs IACA -> DS with nothing between.
    expectUntrusted(
      validate([leaf2, inter2], anchors: [loose], policies: [MdocDocumentSignerPolicy()]),
      "policy mdocDocumentSigner", "path of 2, got 3")
    // A third level under pathLen 0 intermediate is refused.
    let (inter3, inter3Key) = try intermediate(under: inter2, key: inter2Key, name: "Level 3")
    let leaf3 = try leaf(under: inter3, key: inter3Key)
    expectUntrusted(
      validate([leaf3, inter3, inter2], anchors: [loose]), "pathLenConstraint 0",
      "CN=Intermediate")
    // RFC 5280 §6.1.4(l): a self-issued intermediate (same name) is not counted.
    let (selfIssued, selfIssuedKey) = try intermediate(under: inter2, key: inter2Key)
    let leaf4 = try leaf(under: selfIssued, key: selfIssuedKey)
    #expect(validate([leaf4, selfIssued, inter2], anchors: [loose]).trustedChain != nil)
  }

  @Test("a flipped byte in the signature fails with the certificate named")
  func badSignature() throws {
    let chain = try Fixtures.mdocChain()
    var bytes = chain.leaf.derBytes
    bytes[bytes.count - 1] ^= 0x01
    let tampered = try Certificate(derEncoded: bytes)
    expectUntrusted(
      validate([tampered], anchors: [chain.root]),
      "signature of CN=Test DS, O=Test Issuer, C=UT does not verify")
    // A flipped byte in the TBS (the subject's last character) also breaks the signature.
    var tbsBytes = chain.leaf.derBytes
    let nameBytes = Array("Test DS".utf8)
    let at = try #require(firstIndex(of: nameBytes, in: tbsBytes))
    tbsBytes[at + 5] = UInt8(ascii: "X")
    expectUntrusted(
      validate([try Certificate(derEncoded: tbsBytes)], anchors: [chain.root]), "does not verify")
  }

  @Test("unknown critical extension fails; the same extension non-critical passes")
  func criticalExtension() throws {
    let oid = try ASN1ObjectIdentifier(dotted: "1.3.6.1.4.1.55555.1")
    let critical = try Fixtures.mdocChain {
      $0.extensions.append(CertificateExtension(oid: oid, critical: true, value: DER.null))
    }
    #expect(critical.leaf.unhandledCriticalExtensions == [oid])
    expectUntrusted(
      validate([critical.leaf], anchors: [critical.root]),
      "unrecognised critical extension 1.3.6.1.4.1.55555.1")
    let nonCritical = try Fixtures.mdocChain {
      $0.extensions.append(CertificateExtension(oid: oid, critical: false, value: DER.null))
    }
    #expect(validate([nonCritical.leaf], anchors: [nonCritical.root]).trustedChain != nil)
  }

  @Test("AKI that does not match the issuer's SKI")
  func akiMismatch() throws {
    let chain = try Fixtures.mdocChain {
      $0.extensions.append(
        .authorityKeyIdentifier(keyIdentifier: [UInt8](repeating: 0xAA, count: 20)))
    }
    expectUntrusted(
      validate([chain.leaf], anchors: [chain.root]), "authorityKeyIdentifier of CN=Test DS",
      "does not match")
  }

  @Test("OpenID4VP x509_san_dns: exact dNSName match only")
  func sanDNS() throws {
    let (rootCert, rootKey) = try root()
    let key = try ECPrivateKey(curve: .p256)
    let verifier = try CertificateBuilder.openID4VPVerifier(
      dnsName: "verifier.example.org", publicKey: key.publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.end
    ).issued(by: rootCert, signer: rootKey)
    func check(_ clientID: String) -> ChainValidationResult {
      CertificateValidator(trustAnchors: [rootCert], policy: .openID4VPSANDNS(clientID: clientID))
        .validate(chain: [verifier], at: Fixtures.now)
    }
    #expect(check("verifier.example.org").trustedChain != nil)
    expectUntrusted(check("evil.example.org"), "no dNSName SAN equal to 'evil.example.org'")
    expectUntrusted(check("x509_san_dns:verifier.example.org"), "no dNSName SAN")
    expectUntrusted(check("example.org"), "no dNSName SAN")
  }

  @Test("OpenID4VP x509_hash mismatch")
  func x509HashMismatch() throws {
    let chain = try Fixtures.mdocChain()
    let good = CertificateValidator(
      trustAnchors: [chain.root], policy: .openID4VPX509Hash(hash: chain.leaf.x509Hash)
    ).validate(chain: [chain.leaf], at: Fixtures.now)
    #expect(good.trustedChain != nil)
    let bad = CertificateValidator(
      trustAnchors: [chain.root], policy: .openID4VPX509Hash(hash: chain.root.x509Hash)
    ).validate(chain: [chain.leaf], at: Fixtures.now)
    expectUntrusted(bad, "x509_hash of leaf", chain.root.x509Hash)
  }

  @Test("wrong EKU for the document-signer and reader policies")
  func wrongEKU() throws {
    let chain = try Fixtures.mdocChain()
    expectUntrusted(
      validate([chain.leaf], anchors: [chain.root], policies: [.mdocReaderAuthentication]),
      "policy mdocReaderAuthentication", "lacks id-mdl-kp-mdlReaderAuth")
    let noEKU = try Fixtures.mdocChain {
      $0.extensions.removeAll { $0.oid == .extendedKeyUsage }
    }
    expectUntrusted(
      validate([noEKU.leaf], anchors: [noEKU.root], policies: [.mdocDocumentSigner]),
      "lacks id-mdl-kp-mdlDS", "has none")
    let noSignature = try Fixtures.mdocChain {
      $0.extensions.removeAll { $0.oid == .keyUsage }
      $0.extensions.append(.keyUsage(.keyAgreement))
    }
    expectUntrusted(
      validate([noSignature.leaf], anchors: [noSignature.root], policies: [.mdocDocumentSigner]),
      "keyUsage lacks digitalSignature")
  }

  @Test("a pinned certificate presented alone is trusted as a path of one; policies still apply")
  func pinnedLeaf() throws {
    let chain = try Fixtures.mdocChain()
    let pinned = validate([chain.leaf], anchors: [chain.leaf])
    #expect(pinned.trustedChain?.path == [chain.leaf])
    expectUntrusted(
      validate([chain.leaf], anchors: [chain.leaf], policies: [.mdocDocumentSigner]),
      "path of 2, got 1")
  }

  @Test("malformed input: empty, unparsable, too long")
  func malformed() throws {
    let chain = try Fixtures.mdocChain()
    let validator = CertificateValidator(trustAnchors: [chain.root])
    expectMalformed(validator.validate(chain: [], at: Fixtures.now), "empty")
    expectMalformed(
      validator.validate(chainDER: [chain.leaf.derBytes + [0]], at: Fixtures.now),
      "certificate 0 does not parse")
    expectMalformed(
      validator.validate(chainDER: [chain.leaf.derBytes, [0x30, 0x00]], at: Fixtures.now),
      "certificate 1 does not parse")
    #expect(
      validator.validate(chainDER: [chain.leaf.derBytes], at: Fixtures.now).trustedChain != nil)
    expectMalformed(
      validator.validate(chain: Array(repeating: chain.leaf, count: 11), at: Fixtures.now),
      "exceeds 10")
  }

  @Test("unsupported signature algorithm (RSA root) is untrusted with the algorithm named")
  func rsaIssuer() throws {
    let root = try Certificate(derEncoded: hexBytes(RSAVectors.root))
    let leaf = try Certificate(derEncoded: hexBytes(RSAVectors.leaf))
    #expect(root.publicKey == .rsa(modulusBitCount: 1024))
    #expect(root.signatureAlgorithm.description == "sha256WithRSAEncryption")
    #expect(leaf.publicKey.ecPublicKey?.curve == .p256)
    expectUntrusted(
      validate([leaf], anchors: [root]), "signature of CN=EC leaf of RSA root cannot be verified",
      "sha256WithRSAEncryption is not supported")
  }
}

func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
  guard needle.count <= haystack.count else { return nil }
  return (0...(haystack.count - needle.count)).first {
    Array(haystack[$0..<($0 + needle.count)]) == needle
  }
}

/// An RSA-1024 root and an EC P-256 leaf it signed, made with pyca/cryptography 50.0.2 for
/// these tests (no published RSA wallet certificate is small enough to embed).
enum RSAVectors {
  static let root = """
    308201b930820122a003020102020101300d06092a864886f70d01010b050030183116301406035504030c0d52534120546573742052
    6f6f74301e170d3235303130313030303030305a170d3335303130313030303030305a30183116301406035504030c0d525341205465
    737420526f6f7430819f300d06092a864886f70d010101050003818d0030818902818100aed59ebe9b6f3982e1b52c7b2f441d4b7132
    8decc79b3ce2db1606e069a8f6d8a1873e7ccd073b446841ac8859bb9290d7165f1993f6c1372160ff8635b5bc35a70ba5cb8d600a24
    4aaa8925d044425d83c77839a4e5976a7fe3fc88ac0caf6c525f19b083757ee5515ebac2b58d8515d4f285a2f312b780388d6f869e6c
    07b30203010001a3133011300f0603551d130101ff040530030101ff300d06092a864886f70d01010b0500038181000017b2c75e71b1
    01b75f7e0eb5283bf018e6670515780a3eea8d168dfca621bf8440e71eb9f5e02f5e96ace1eec45e11af15a26a4324472f2c591c4a0f
    a0383fb24339f63e475437d6f515bb8e63816b737d375b5fdce3242b1d51378e09e28e4bd0b1c566e6fd1407267c198a6ab3095c39aa
    84ba0ef70fbe12df14fb0914af
    """
  static let leaf = """
    308201623081cca003020102020102300d06092a864886f70d01010b050030183116301406035504030c0d52534120546573742052
    6f6f74301e170d3235303130313030303030305a170d3335303130313030303030305a301e311c301a06035504030c134543206c65
    6166206f662052534120726f6f743059301306072a8648ce3d020106082a8648ce3d03010703420004e52196dbc44d609a6a510cb4
    62054866cd16e193466e04b706a67c1875ff10deaa421874bc0052619092171ac123550459a5ea8a828697bce83150cf5b2b91e230
    0d06092a864886f70d01010b0500038181008e3bc0e1c9aa181fb73adaf5b2cea260a7aeb49971873392e88f6f2a1adf0c512b0f90
    9bfcd36db4cea5c57d993eec26b38ce792ba52b4a3622c508febdaa2e4ae1747991b85f67d75ce55c4a6b78e362c1d72bca21190f1
    d65ed621e4ccb892b0daf853cd5f5bd16e3646acb78bc9f7a525de4f9c09f95a3acf172c6a3c734f
    """
}
