import DCCBOR
import DCCrypto
import DCMdoc
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// pymdoccbor (an independent ISO 18013-5 implementation) issues mdocs we accept and present,
/// and verifies what we issue and present; pycose checks our device signature.
@Suite("mdoc interop with pymdoccbor and pycose")
struct MdocInteropTests {
  static let verifyScript = """
    import sys, json, cbor2
    import cryptography.x509  # pymdoccbor 1.4 uses it without importing it
    from pymdoccbor.mdoc.verifier import MdocCbor
    from pymdoccbor.tools import bytes2CoseSign1
    from pycose.keys import EC2Key
    from pycose.keys.curves import P256
    args = json.loads(sys.stdin.read())
    h = bytes.fromhex
    response = h(args["response"])
    m = MdocCbor()
    m.loads(response)
    print("issuer", m.verify())
    print("claims", json.dumps(sorted(k for ns in m.disclosure_map.values() for k in ns)))
    # DeviceAuthentication rebuilt independently (ISO 18013-5 9.1.3.4), checked with pycose.
    doc = cbor2.loads(response)["documents"][0]
    transcript = cbor2.loads(h(args["transcript"]))
    device_ns = doc["deviceSigned"]["nameSpaces"]
    da = cbor2.dumps(["DeviceAuthentication", transcript, doc["docType"], device_ns])
    payload = cbor2.dumps(cbor2.CBORTag(24, da))
    sig = doc["deviceSigned"]["deviceAuth"]["deviceSignature"]
    msg = bytes2CoseSign1(cbor2.dumps(cbor2.CBORTag(18, list(sig))))
    msg.key = EC2Key(crv=P256, x=h(args["x"]), y=h(args["y"]))
    print("device", msg.verify_signature(detached_payload=payload))
    """

  @Test(
    "An mdoc issued by pymdoccbor is accepted and presented; pymdoccbor and pycose verify our response",
    .pythonPeers
  )
  func pymdoccborIssued() throws {
    try PythonPeer.require("pymdoccbor-issued mdoc")
    let device = try ECPrivateKey(curve: .p256)
    let issueScript = """
      import sys, json, cbor2
      from datetime import datetime, timedelta, timezone
      from pymdoccbor.mdoc.issuer import MdocCborIssuer
      args = json.loads(sys.stdin.read())
      h = bytes.fromhex
      issuer = MdocCborIssuer(private_key={"KTY": "EC2", "CURVE": "P_256", "ALG": "ES256", "D": h(args["ds"]), "KID": b"ds"},
          alg="ES256", cert_info={"country_name": "UT", "organization_name": "Interop", "common_name": "pymdoccbor DS",
          "san_url": "https://issuer.example", "not_valid_before": datetime.now(timezone.utc) - timedelta(days=1),
          "not_valid_after": datetime.now(timezone.utc) + timedelta(days=10)})
      mdoc = issuer.new(doctype="org.iso.18013.5.1.mDL",
          data={"org.iso.18013.5.1": {"family_name": "Doe", "given_name": "Jane", "age_over_18": True, "document_number": "123"}},
          validity={"issuance_date": (datetime.now(timezone.utc) - timedelta(days=1)).strftime("%Y-%m-%d"),
                    "expiry_date": (datetime.now(timezone.utc) + timedelta(days=30)).strftime("%Y-%m-%d")},
          devicekeyinfo={"KTY": "EC2", "CURVE": "P_256", "X": h(args["x"]), "Y": h(args["y"])})
      print(cbor2.dumps(mdoc["documents"][0]["issuerSigned"]).hex())
      """
    let dsKey = try ECPrivateKey(curve: .p256)
    let issued = try PythonPeer.run(
      issueScript,
      input: """
        {"ds": "\(hexString(dsKey.rawRepresentation))", "x": "\(hexString(device.publicKey.x))", "y": "\(hexString(device.publicKey.y))"}
        """
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    let mdoc = try IssuerSigned(bytes: hexBytes(issued))
    // Its self-signed signer is not an IACA we trust: the signature, digests and validity verify.
    let verification = try mdoc.verify(
      expectedDocType: "org.iso.18013.5.1.mDL", trustAnchors: [], at: Date(),
      requireTrustedIssuer: false)
    #expect(!verification.trust.isTrusted)
    #expect(verification.deviceKey == device.publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "abc", origin: "https://verifier.example"))
    let document = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["family_name", "age_over_18"]],
      sessionTranscript: transcript, deviceKey: device)
    let response = DeviceResponse(documents: [document])
    let out = try PythonPeer.run(
      Self.verifyScript,
      input: """
        {"response": "\(hexString(response.bytes))", "transcript": "\(hexString(transcript.bytes))",
         "x": "\(hexString(device.publicKey.x))", "y": "\(hexString(device.publicKey.y))"}
        """)
    #expect(
      out.split(separator: "\n") == [
        "issuer True", "claims [\"age_over_18\", \"family_name\"]", "device True",
      ])
  }

  @Test("pymdoccbor verifies an mdoc we issue, and pycose our device signature", .pythonPeers)
  func ourIssued() throws {
    try PythonPeer.require("our mdoc in pymdoccbor")
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try pki.issue(deviceKey: device.publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(encryptionInfoBase64: "xyz", origin: "https://rp.example"))
    let document = try Document.present(
      mdoc, disclosing: ["org.iso.18013.5.1": ["given_name", "portrait"]],
      sessionTranscript: transcript, deviceKey: device)
    let out = try PythonPeer.run(
      Self.verifyScript,
      input: """
        {"response": "\(hexString(DeviceResponse(documents: [document]).bytes))", "transcript": "\(hexString(transcript.bytes))",
         "x": "\(hexString(device.publicKey.x))", "y": "\(hexString(device.publicKey.y))"}
        """)
    #expect(
      out.split(separator: "\n") == [
        "issuer True", "claims [\"given_name\", \"portrait\"]", "device True",
      ])
  }
}
