import DCCrypto
import DCEncoding
import DCJSON
import DCTestSupport
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// LoTEs between this library and independent JOSE implementations: joserfc signs a JAdES
/// compact LoTE we verify; jwcrypto verifies ours, understanding `sigT` as critical.
@Suite struct LoTEInteropTests {
  let pki: TestPKI

  init() throws { pki = try TestPKI() }

  /// joserfc signs: its own P-256 key and certificate (Python `cryptography`), `crit: ["sigT"]`.
  static let joserfcSigns = """
    import base64, datetime, json, sys
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    from joserfc import jws
    from joserfc.jwk import ECKey
    from joserfc.registry import HeaderParameter
    args = json.loads(sys.stdin.read())
    key = ec.generate_private_key(ec.SECP256R1())
    other = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.fromtimestamp(args["now"], datetime.timezone.utc)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "joserfc List Operator")])
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=30))
        .not_valid_after(now + datetime.timedelta(days=365))
        .sign(key, hashes.SHA256()))
    der = cert.public_bytes(serialization.Encoding.DER)
    registry = jws.JWSRegistry(header_registry={
        "sigT": HeaderParameter("Claimed signing time", "str", True)})
    header = {"alg": "ES256", "typ": "JOSE", "x5c": [base64.b64encode(der).decode()],
        "sigT": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "crit": ["sigT"]}
    payload = base64.b64decode(args["payload"])
    def sign(k):
        pem = k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
        return jws.serialize_compact(header, payload, ECKey.import_key(pem), registry=registry)
    print(json.dumps({"cert": base64.b64encode(der).decode(), "lote": sign(key),
        "otherKey": sign(other)}))
    """

  @Test("joserfc signs a JAdES LoTE that we verify; tampered or other key refused", .pythonPeers)
  func weVerifyJoserfc() throws {
    try PythonPeer.require("we verify a joserfc LoTE")
    let payload = ETSIListContent.sample(pki: pki).loteJSON().serializedBytes()
    let input =
      "{\"now\": \(Int(pki.clock.timeIntervalSince1970)), \"payload\": \"\(Base64.encode(payload))\"}"
    let out = try PythonPeer.run(Self.joserfcSigns, input: input)
    let result = try JSONValue(parsing: out)
    let certificate = try Certificate(
      derEncoded: try Base64.decode(try #require(result["cert"]?.string)))
    let lote = try #require(result["lote"]?.string)
    let list = try TrustedList.verifyingLoTE(Array(lote.utf8), operatorCertificates: [certificate])
    #expect(list.entities.first?.name == "Test PID Provider")
    #expect(list.signer == certificate)
    var parts = lote.split(separator: ".").map(String.init)
    parts[1] = Base64URL.encode(
      Array(
        String(decoding: payload, as: UTF8.self)
          .replacingOccurrences(of: "Test PID", with: "Evil PID").utf8))
    expectTrustError(.invalidSignature) {
      _ = try TrustedList.verifyingLoTE(
        Array(parts.joined(separator: ".").utf8), operatorCertificates: [certificate])
    }
    let otherKey = try #require(result["otherKey"]?.string)
    expectTrustError(.invalidSignature) {
      _ = try TrustedList.verifyingLoTE(Array(otherKey.utf8), operatorCertificates: [certificate])
    }
    expectTrustError(.untrustedSigner) {
      _ = try TrustedList.verifyingLoTE(Array(lote.utf8), operatorCertificates: [pki.iaca])
    }
  }

  @Test("jwcrypto verifies our JAdES LoTE with sigT critical", .pythonPeers)
  func jwcryptoVerifiesOurs() throws {
    try PythonPeer.require("jwcrypto verifies our LoTE")
    let listOperator = try ListOperator(pki: pki)
    let lote = try ETSIListContent.sample(pki: pki).signedLoTE(
      signer: listOperator.key, certificate: listOperator.certificate)
    let script = """
      import json, sys
      from jwcrypto import jwk, jws
      from jwcrypto.common import JWSEHeaderParameter
      from cryptography import x509
      args = json.loads(sys.stdin.read())
      cert = x509.load_pem_x509_certificate(args["cert"].encode())
      key = jwk.JWK.from_pyca(cert.public_key())
      registry = {"sigT": JWSEHeaderParameter("Claimed signing time", False, True, None)}
      token = jws.JWS(header_registry=registry)
      token.deserialize(args["lote"])
      token.verify(key)
      header = token.jose_header
      assert header["crit"] == ["sigT"] and header["alg"] == "ES256", header
      lote = json.loads(token.payload)["LoTE"]
      info = lote["ListAndSchemeInformation"]
      print(info["LoTEVersionIdentifier"], info["SchemeOperatorName"][0]["value"],
          lote["TrustedEntitiesList"][0]["TrustedEntityInformation"]["TEName"][0]["value"])
      """
    let input = String(
      decoding: JSONValue.object([
        ("cert", .string(listOperator.certificate.pemString)),
        ("lote", .string(String(decoding: lote, as: UTF8.self))),
      ]).serializedBytes(), as: UTF8.self)
    let out = try PythonPeer.run(script, input: input)
    #expect(
      out.trimmingCharacters(in: .whitespacesAndNewlines) == "1 Test Operator Test PID Provider")
  }
}
