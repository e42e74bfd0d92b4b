import DCCrypto
import DCEncoding
import DCJSON
import DCTestSupport
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// Trusted lists between this library (xmlsec1) and signxml, an independent XML Signature /
/// XAdES implementation (lxml + cryptography): signxml signs a TSL we verify, and verifies ours.
@Suite struct TSLInteropTests {
  let pki: TestPKI

  init() throws { pki = try TestPKI() }

  /// signxml's XAdES signer: its own P-256 key and certificate, the list's ds:Signature removed
  /// and signed again, enveloped; also the same list signed by a second key.
  static let signxmlSigns = """
    import base64, datetime, json, sys
    from lxml import etree
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    from signxml import DigestAlgorithm, SignatureMethod
    from signxml.xades import XAdESSigner
    args = json.loads(sys.stdin.read())
    now = datetime.datetime.fromtimestamp(args["now"], datetime.timezone.utc)
    def operator(cn):
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=30))
            .not_valid_after(now + datetime.timedelta(days=365)).sign(key, hashes.SHA256()))
        return key, cert
    def sign(key, cert):
        root = etree.fromstring(base64.b64decode(args["list"]))
        for old in root.findall("{http://www.w3.org/2000/09/xmldsig#}Signature"):
            root.remove(old)
        signer = XAdESSigner(signature_algorithm=SignatureMethod.ECDSA_SHA256,
            digest_algorithm=DigestAlgorithm.SHA256)
        signed = signer.sign(root, key=key, cert=[cert.public_bytes(serialization.Encoding.PEM)])
        return base64.b64encode(etree.tostring(signed, xml_declaration=True, encoding="UTF-8")).decode()
    key, cert = operator("signxml List Operator")
    other, other_cert = operator("signxml Other Operator")
    print(json.dumps({"cert": base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode(),
        "list": sign(key, cert), "other": sign(other, other_cert)}))
    """

  @Test("signxml signs an XAdES TSL that we verify; tampered or other key refused", .pythonPeers)
  func weVerifySignxml() throws {
    try PythonPeer.require("we verify a signxml TSL")
    let listOperator = try ListOperator(pki: pki)
    let ours = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: listOperator.key, certificate: listOperator.certificate)
    let input =
      "{\"now\": \(Int(pki.clock.timeIntervalSince1970)), \"list\": \"\(Base64.encode(ours))\"}"
    let result = try JSONValue(parsing: try PythonPeer.run(Self.signxmlSigns, input: input))
    let certificate = try Certificate(
      derEncoded: try Base64.decode(try #require(result["cert"]?.string)))
    let theirs = try Base64.decode(try #require(result["list"]?.string))
    let list = try TrustedList.verifyingTSL(theirs, operatorCertificates: [certificate])
    #expect(list.entities.first?.name == "Test PID Provider")
    #expect(list.signer == certificate)
    let tampered = String(decoding: theirs, as: UTF8.self)
      .replacingOccurrences(of: "Test PID Provider", with: "Evil PID Provider")
    expectTrustError(.invalidSignature) {
      _ = try TrustedList.verifyingTSL(Array(tampered.utf8), operatorCertificates: [certificate])
    }
    let other = try Base64.decode(try #require(result["other"]?.string))
    expectTrustError(.untrustedSigner) {
      _ = try TrustedList.verifyingTSL(other, operatorCertificates: [certificate])
    }
  }

  @Test("signxml verifies our XAdES TSL", .pythonPeers)
  func signxmlVerifiesOurs() throws {
    try PythonPeer.require("signxml verifies our TSL")
    let listOperator = try ListOperator(pki: pki)
    let ours = try ETSIListContent.sample(pki: pki).signedTSL(
      kind: .tsl, key: listOperator.key, certificate: listOperator.certificate)
    let script = """
      import base64, json, sys
      from signxml.xades import XAdESVerifier
      args = json.loads(sys.stdin.read())
      results = XAdESVerifier().verify(base64.b64decode(args["list"]),
          x509_cert=args["cert"], expect_references=2)
      ns = {"tsl": "http://uri.etsi.org/02231/v2#"}
      root = results[0].signed_xml
      print(root.findtext("tsl:SchemeInformation/tsl:SchemeOperatorName/tsl:Name", namespaces=ns),
          len(results))
      """
    let input = String(
      decoding: JSONValue.object([
        ("cert", .string(listOperator.certificate.pemString)),
        ("list", .string(Base64.encode(ours))),
      ]).serializedBytes(), as: UTF8.self)
    let out = try PythonPeer.run(script, input: input)
    #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "Test Operator 2")
  }
}
