import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

/// CRLs made by pyca/cryptography, an implementation we did not write (RFC 5280 §5).
@Suite("CRL interop with pyca/cryptography")
struct CRLInteropTests {
  static let script = """
    import sys, json, datetime
    from cryptography import x509
    from cryptography.x509.oid import NameOID
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding
    utc = datetime.timezone.utc
    now = datetime.datetime.fromtimestamp(1780000000, tz=utc)
    day = datetime.timedelta(days=1)
    ca_key, leaf_key, other_key = (ec.generate_private_key(ec.SECP384R1()) for _ in range(3))
    ca_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "UT"),
                         x509.NameAttribute(NameOID.COMMON_NAME, "Py CRL CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
      .public_key(ca_key.public_key()).serial_number(1)
      .not_valid_before(now - 30 * day).not_valid_after(now + 365 * day)
      .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
      .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
      .add_extension(ca_ski, critical=False)
      .sign(ca_key, hashes.SHA384()))
    def leaf(serial):
      return (x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Py Leaf %d" % serial)]))
        .issuer_name(ca_name).public_key(leaf_key.public_key()).serial_number(serial)
        .not_valid_before(now - 30 * day).not_valid_after(now + 365 * day)
        .add_extension(x509.CRLDistributionPoints([x509.DistributionPoint(
          full_name=[x509.UniformResourceIdentifier("http://127.0.0.1/py.crl")],
          relative_name=None, reasons=None, crl_issuer=None)]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA384()))
    def crl(key, serials, this_update, next_update):
      builder = (x509.CertificateRevocationListBuilder().issuer_name(ca_name)
        .last_update(this_update).next_update(next_update)
        .add_extension(x509.CRLNumber(7), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False))
      for serial in serials:
        builder = builder.add_revoked_certificate(x509.RevokedCertificateBuilder()
          .serial_number(serial).revocation_date(now - day)
          .add_extension(x509.CRLReason(x509.ReasonFlags.key_compromise), critical=False).build())
      return builder.sign(key, hashes.SHA384()).public_bytes(Encoding.DER).hex()
    out = {
      "ca": ca.public_bytes(Encoding.DER).hex(),
      "revoked": leaf(0x1234).public_bytes(Encoding.DER).hex(),
      "good": leaf(0x5678).public_bytes(Encoding.DER).hex(),
      "crl": crl(ca_key, [0x1234, 0x99], now - day, now + day),
      "other": crl(other_key, [0x1234], now - day, now + day),
      "expired": crl(ca_key, [], now - 3 * day, now - 2 * day),
      "pem": (x509.load_der_x509_crl(bytes.fromhex(crl(ca_key, [0x1234], now - day, now + day)))
        .public_bytes(Encoding.PEM).decode()),
    }
    print(json.dumps(out))
    """

  struct Material {
    let ca: Certificate
    let revoked: Certificate
    let good: Certificate
    let json: [String: String]

    func crl(_ name: String) throws -> CertificateRevocationList {
      try CertificateRevocationList(derEncoded: hexBytes(try #require(json[name])))
    }

    func validate(
      _ leaf: Certificate, _ crls: [CertificateRevocationList],
      policy: RevocationPolicy = .failClosed
    ) -> ChainValidationResult {
      CertificateValidator(
        trustAnchors: [ca], revocation: RevocationCheck(crls: crls, policy: policy)
      ).validate(chain: [leaf], at: Date(timeIntervalSince1970: 1_780_000_000))
    }
  }

  func material() throws -> Material {
    let output = try PythonPeer.run(Self.script)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
    return Material(
      ca: try Certificate(derEncoded: hexBytes(try #require(json["ca"]))),
      revoked: try Certificate(derEncoded: hexBytes(try #require(json["revoked"]))),
      good: try Certificate(derEncoded: hexBytes(try #require(json["good"]))), json: json)
  }

  @Test("a cryptography CRL reads, verifies, and revokes the listed certificate", .pythonPeers)
  func listed() throws {
    try PythonPeer.require("crl interop")
    let peer = try material()
    let crl = try peer.crl("crl")
    #expect(crl.issuer == peer.ca.subject)
    #expect(crl.crlNumber == [0x07])
    #expect(crl.authorityKeyIdentifier == peer.ca.subjectKeyIdentifier)
    #expect(crl.revokedCertificates.map(\.serialNumber) == [[0x12, 0x34], [0x00, 0x99]])
    #expect(crl.entry(forSerialNumber: [0x12, 0x34])?.reasonCode == 1)
    #expect(crl.isSignatureValid(issuedBy: peer.ca))
    #expect(peer.revoked.crlDistributionPoints == ["http://127.0.0.1/py.crl"])
    expectUntrusted(peer.validate(peer.revoked, [crl]), "Py Leaf 4660", "is revoked")
    #expect(peer.validate(peer.good, [crl]).trustedChain?.revocation == .good)
    let pem = try CertificateRevocationList(pemEncoded: try #require(peer.json["pem"]))
    #expect(pem.isSignatureValid(issuedBy: peer.ca))
  }

  @Test("tampered, signed by another key, or expired: not used", .pythonPeers)
  func refused() throws {
    try PythonPeer.require("crl interop")
    let peer = try material()
    let crl = try peer.crl("crl")
    var bytes = crl.derBytes
    // The last revoked serial, 0x0099, becomes 0x009A inside the signed TBSCertList.
    let at = try #require(
      (0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == [0x02, 0x02, 0x00, 0x99] })
    bytes[at + 3] = 0x9A
    let tampered = try CertificateRevocationList(derEncoded: bytes)
    #expect(!tampered.isSignatureValid(issuedBy: peer.ca))
    expectUntrusted(peer.validate(peer.good, [tampered]), "unknown", "does not verify")

    let other = try peer.crl("other")
    #expect(!other.isSignatureValid(issuedBy: peer.ca))
    expectUntrusted(peer.validate(peer.revoked, [other]), "unknown", "does not verify")
    #expect(
      peer.validate(peer.revoked, [other], policy: .failOpen).trustedChain?.revocation
        == .unknown([peer.revoked]))

    let expired = try peer.crl("expired")
    #expect(expired.isSignatureValid(issuedBy: peer.ca))
    expectUntrusted(peer.validate(peer.good, [expired]), "no current CRL")
  }
}
