import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

/// Cross-checks with pyca/cryptography, an implementation we did not write.
@Suite("Interop with pyca/cryptography")
struct InteropTests {
  static let pythonBuildsChain = """
    import sys, json, datetime
    from cryptography import x509
    from cryptography.x509.oid import NameOID, ObjectIdentifier
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    args = json.loads(sys.stdin.read())
    curve = {"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1()}[args["curve"]]
    digest = {"P-256": hashes.SHA256(), "P-384": hashes.SHA384()}[args["curve"]]
    utc = datetime.timezone.utc
    nb, na = datetime.datetime(2025, 1, 1, tzinfo=utc), datetime.datetime(2030, 1, 1, tzinfo=utc)
    root_key, leaf_key = ec.generate_private_key(curve), ec.generate_private_key(curve)
    root_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "UT"),
                           x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Py Org"),
                           x509.NameAttribute(NameOID.COMMON_NAME, "Py Root")])
    root_ski = x509.SubjectKeyIdentifier.from_public_key(root_key.public_key())
    root = (x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name)
      .public_key(root_key.public_key()).serial_number(x509.random_serial_number())
      .not_valid_before(nb).not_valid_after(na)
      .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
      .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
      .add_extension(root_ski, critical=False)
      .sign(root_key, digest))
    leaf = (x509.CertificateBuilder()
      .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "verifier.py.example")]))
      .issuer_name(root_name).public_key(leaf_key.public_key()).serial_number(4660)
      .not_valid_before(nb).not_valid_after(na)
      .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
      .add_extension(x509.ExtendedKeyUsage([ObjectIdentifier("1.0.18013.5.1.6")]), critical=True)
      .add_extension(x509.SubjectAlternativeName([x509.DNSName("verifier.py.example"),
                     x509.UniformResourceIdentifier("https://verifier.py.example/cb")]), critical=False)
      .add_extension(x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()), critical=False)
      .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(root_ski), critical=False)
      .sign(root_key, digest))
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_cert = (x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name)
      .public_key(rsa_key.public_key()).serial_number(7).not_valid_before(nb).not_valid_after(na)
      .sign(rsa_key, hashes.SHA256()))
    print(json.dumps({
      "root": root.public_bytes(Encoding.DER).hex(),
      "leaf": leaf.public_bytes(Encoding.DER).hex(),
      "rsa": rsa_cert.public_bytes(Encoding.DER).hex(),
      "root_ski": root_ski.digest.hex(),
      "leaf_ski": x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()).digest.hex(),
      "leaf_point": leaf_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex(),
    }))
    """

  @Test(
    "a chain built by cryptography validates here", .pythonPeers, arguments: ["P-256", "P-384"])
  func pythonChainValidates(curve: String) throws {
    try PythonPeer.require("x509 python chain")
    let output = try PythonPeer.run(Self.pythonBuildsChain, input: "{\"curve\": \"\(curve)\"}")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
    let root = try Certificate(derEncoded: hexBytes(try #require(json["root"])))
    let leaf = try Certificate(derEncoded: hexBytes(try #require(json["leaf"])))

    #expect(root.subject.description == "CN=Py Root, O=Py Org, C=UT")
    #expect(leaf.subject.commonName == "verifier.py.example")
    #expect(leaf.serialNumber == [0x12, 0x34])
    #expect(leaf.publicKey.ecPublicKey?.curve.rawValue == curve)
    #expect(
      leaf.publicKey.ecPublicKey.map { hexString($0.x963Representation) } == json["leaf_point"])
    #expect(root.subjectKeyIdentifier.map(hexString) == json["root_ski"])
    #expect(leaf.subjectKeyIdentifier.map(hexString) == json["leaf_ski"])
    #expect(leaf.authorityKeyIdentifier == root.subjectKeyIdentifier)
    #expect(leaf.extendedKeyUsage == [.mdlReaderAuthentication])
    #expect(
      leaf.subjectAlternativeNames == [
        .dnsName("verifier.py.example"), .uri("https://verifier.py.example/cb"),
      ])
    #expect(leaf.signatureAlgorithm == (curve == "P-256" ? .ecdsaWithSHA256 : .ecdsaWithSHA384))

    let policies: [any CertificatePolicy] = [
      MdocReaderAuthenticationPolicy(), OpenID4VPSANDNSPolicy(clientID: "verifier.py.example"),
      OpenID4VPX509HashPolicy(hash: leaf.x509Hash),
    ]
    let result = CertificateValidator(trustAnchors: [root], policies: policies)
      .validate(chain: [leaf], at: Fixtures.now)
    #expect(result.trustedChain?.path == [leaf, root], "\(result)")
    expectUntrusted(
      CertificateValidator(trustAnchors: [root], policy: .openID4VPSANDNS(clientID: "py.example"))
        .validate(chain: [leaf], at: Fixtures.now), "no dNSName SAN")

    // RSA keys parse far enough to be reported, and cannot anchor an ECDSA check.
    let rsa = try Certificate(derEncoded: hexBytes(try #require(json["rsa"])))
    #expect(rsa.publicKey == .rsa(modulusBitCount: 2048))
    #expect(rsa.publicKey.description == "RSA 2048")
    expectUntrusted(
      CertificateValidator(trustAnchors: [rsa]).validate(chain: [leaf], at: Fixtures.now),
      "cannot be verified", "issuer key RSA 2048")
  }

  static let pythonReadsChain = """
    import sys, json
    from cryptography import x509
    from cryptography.x509.oid import ExtensionOID
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    args = json.loads(sys.stdin.read())
    root = x509.load_der_x509_certificate(bytes.fromhex(args["root"]))
    out = []
    for hexder in args["leaves"]:
        leaf = x509.load_der_x509_certificate(bytes.fromhex(hexder))
        leaf.verify_directly_issued_by(root)
        root.verify_directly_issued_by(root)
        ext = {e.oid.dotted_string: e for e in leaf.extensions}
        def val(oid): return ext[oid].value if oid in ext else None
        ku = val("2.5.29.15")
        san = val("2.5.29.17")
        crl = val("2.5.29.31")
        out.append({
          "subject": leaf.subject.rfc4514_string(),
          "issuer": leaf.issuer.rfc4514_string(),
          # Whole bytes, as the Swift side prints them (format(n, "x") drops a leading zero nibble).
          "serial": leaf.serial_number.to_bytes((leaf.serial_number.bit_length() + 7) // 8, "big").hex(),
          "not_before": leaf.not_valid_before_utc.isoformat(),
          "not_after": leaf.not_valid_after_utc.isoformat(),
          "point": leaf.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex(),
          "sig_alg": leaf.signature_algorithm_oid.dotted_string,
          "critical": sorted(e.oid.dotted_string for e in leaf.extensions if e.critical),
          "ski": val("2.5.29.14").digest.hex() if val("2.5.29.14") else None,
          "aki": val("2.5.29.35").key_identifier.hex() if val("2.5.29.35") else None,
          "eku": [o.dotted_string for o in val("2.5.29.37")] if val("2.5.29.37") else None,
          "ku_digital_signature": ku.digital_signature if ku else None,
          "ku_key_cert_sign": ku.key_cert_sign if ku else None,
          "bc": [val("2.5.29.19").ca, val("2.5.29.19").path_length] if val("2.5.29.19") else None,
          "dns": san.get_values_for_type(x509.DNSName) if san else [],
          "uris": san.get_values_for_type(x509.UniformResourceIdentifier) if san else [],
          "crl": [n.value for p in crl for n in p.full_name] if crl else [],
        })
    print(json.dumps(out))
    """

  @Test("a chain built here is accepted by cryptography, extensions read back equal", .pythonPeers)
  func ourChainVerifiesInPython() throws {
    try PythonPeer.require("x509 our chain")
    let chain = try Fixtures.mdocChain(curve: .p384)
    var builder = CertificateBuilder.documentSigner(
      commonName: "Second DS", country: "UT", stateOrProvince: "Utopia",
      publicKey: try ECPrivateKey(curve: .p256).publicKey, notBefore: Fixtures.start,
      notAfter: Fixtures.date("2051-01-01T00:00:00Z"),
      crlDistributionPoint: "https://iaca.example/ds.crl", serialNumber: [0x7F, 0x01])
    builder.extensions.append(
      .subjectAlternativeNames([.dnsName("issuer.example"), .uri("https://issuer.example")]))
    let second = try builder.issued(by: chain.root, signer: chain.rootKey)
    let input: [String: Any] = [
      "root": hexString(chain.root.derBytes),
      "leaves": [hexString(chain.leaf.derBytes), hexString(second.derBytes)],
    ]
    let output = try PythonPeer.run(
      Self.pythonReadsChain,
      input: String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self))
    let results = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    try #require(results.count == 2)

    for (certificate, read) in zip([chain.leaf, second], results) {
      #expect(read["issuer"] as? String == "CN=Test IACA,C=UT")
      #expect(read["serial"] as? String == hexString(certificate.serialNumber.drop { $0 == 0 }))
      #expect(read["sig_alg"] as? String == "1.2.840.10045.4.3.3")
      #expect(
        read["point"] as? String
          == certificate.publicKey.ecPublicKey.map { hexString($0.x963Representation) })
      #expect(read["ski"] as? String == certificate.subjectKeyIdentifier.map(hexString))
      #expect(read["aki"] as? String == chain.root.subjectKeyIdentifier.map(hexString))
      #expect(read["eku"] as? [String] == ["1.0.18013.5.1.2"])
      #expect(read["ku_digital_signature"] as? Bool == true)
      #expect(read["ku_key_cert_sign"] as? Bool == false)
      #expect(read["critical"] as? [String] == ["2.5.29.15", "2.5.29.37"])
      #expect(read["bc"] is NSNull)
    }
    #expect(results[0]["subject"] as? String == "CN=Test DS,O=Test Issuer,C=UT")
    #expect(results[0]["not_before"] as? String == "2025-01-01T00:00:00+00:00")
    #expect(results[0]["not_after"] as? String == "2030-01-01T00:00:00+00:00")
    #expect(results[1]["subject"] as? String == "CN=Second DS,ST=Utopia,C=UT")
    #expect(results[1]["serial"] as? String == "7f01")
    #expect(results[1]["not_after"] as? String == "2051-01-01T00:00:00+00:00")
    #expect(results[1]["dns"] as? [String] == ["issuer.example"])
    #expect(results[1]["uris"] as? [String] == ["https://issuer.example"])
    #expect(results[1]["crl"] as? [String] == ["https://iaca.example/ds.crl"])
  }

  @Test("CA extensions and a tampered signature, as cryptography sees them", .pythonPeers)
  func rootAndTamper() throws {
    try PythonPeer.require("x509 root and tamper")
    let chain = try Fixtures.mdocChain()
    let script = """
      import sys, json
      from cryptography import x509
      from cryptography.exceptions import InvalidSignature
      a = json.loads(sys.stdin.read())
      root = x509.load_der_x509_certificate(bytes.fromhex(a["root"]))
      bc = root.extensions.get_extension_for_class(x509.BasicConstraints)
      ku = root.extensions.get_extension_for_class(x509.KeyUsage).value
      crl = root.extensions.get_extension_for_class(x509.CRLDistributionPoints).value
      bad = x509.load_der_x509_certificate(bytes.fromhex(a["bad"]))
      try:
          bad.verify_directly_issued_by(root); tampered = "verified"
      except InvalidSignature:
          tampered = "rejected"
      print(json.dumps([bc.critical, bc.value.ca, bc.value.path_length, ku.key_cert_sign,
                        ku.crl_sign, ku.digital_signature, crl[0].full_name[0].value, tampered]))
      """
    var bad = chain.leaf.derBytes
    bad[bad.count - 1] ^= 0x01
    let input = "{\"root\": \"\(hexString(chain.root.derBytes))\", \"bad\": \"\(hexString(bad))\"}"
    let output = try PythonPeer.run(script, input: input)
    #expect(
      output.trimmingCharacters(in: .whitespacesAndNewlines)
        == "[true, true, 0, true, true, false, \"https://iaca.example/crl\", \"rejected\"]")
  }
}
