import DCCrypto
import DCTestSupport
import DCTrust
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// VICALs and RICALs signed with pycose over cbor2 (independent implementations), read and
/// verified here; ours verified by pycose (ISO/IEC 18013-5 Annex C.1.7, second edition Annex F).
@Suite("VICAL and RICAL interop with pycose")
struct VICALInteropTests {
  static let makeLists = """
    import sys, json, datetime, cbor2
    from cryptography import x509
    from cryptography.x509.oid import NameOID
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding
    from pycose.messages import Sign1Message
    from pycose.keys import EC2Key
    from pycose.keys.curves import P256
    from pycose.headers import Algorithm
    from pycose.algorithms import Es256

    args = json.loads(sys.stdin.read())
    utc = datetime.timezone.utc
    now = datetime.datetime.fromtimestamp(args["now"], tz=utc)
    day = datetime.timedelta(days=1)
    iaca = x509.load_der_x509_certificate(bytes.fromhex(args["iaca"]))
    reader_root = x509.load_der_x509_certificate(bytes.fromhex(args["readerRoot"]))

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def certificate(subject, key, issuer, issuer_key, ca, not_after=now + 365 * day):
        builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - 30 * day).not_valid_after(not_after)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
        if ca:
            builder = (builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True))
        else:
            builder = builder.add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        return builder.sign(issuer_key, hashes.SHA256())

    def key():
        return ec.generate_private_key(ec.SECP256R1())

    operator_key, signer_key, other_key, other_root_key = key(), key(), key(), key()
    operator = certificate("Py VICAL Operator", operator_key, "Py VICAL Operator", operator_key, True)
    signer = certificate("Py VICAL Signer", signer_key, "Py VICAL Operator", operator_key, False)
    expired_signer = certificate("Py VICAL Signer", signer_key, "Py VICAL Operator", operator_key, False, now - day)
    other_root = certificate("Py Other Operator", other_root_key, "Py Other Operator", other_root_key, True)
    other_signer = certificate("Py VICAL Signer", signer_key, "Py Other Operator", other_root_key, False)

    def cose_key(k):
        numbers = k.private_numbers()
        return EC2Key(crv=P256, x=numbers.public_numbers.x.to_bytes(32, "big"),
                      y=numbers.public_numbers.y.to_bytes(32, "big"), d=numbers.private_value.to_bytes(32, "big"))

    def tdate(d):
        return cbor2.CBORTag(0, d.strftime("%Y-%m-%dT%H:%M:%SZ"))

    def biguint(n):
        return cbor2.CBORTag(2, n.to_bytes((n.bit_length() + 7) // 8, "big"))

    def info(cert, **fields):
        ski = cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
        entry = {"certificate": cert.public_bytes(Encoding.DER), "serialNumber": biguint(cert.serial_number), "ski": ski}
        entry.update(fields)
        return entry

    def vical(**changes):
        payload = {"version": "1.0", "vicalProvider": "Py VICAL Provider", "date": tdate(now - day),
                   "nextUpdate": tdate(now + day), "vicalIssueID": 42,
                   "certificateInfos": [info(iaca, docType=["org.iso.18013.5.1.mDL"],
                                             issuingAuthority="Py Issuing Authority", issuingCountry="UT")]}
        payload.update(changes)
        return payload

    def rical(**changes):
        payload = {"version": "1.0", "provider": "Py RICAL Provider", "date": tdate(now - day),
                   "type": "org.iso.18013.5.1.reader", "nextUpdate": tdate(now + day), "id": 7,
                   "certificateInfos": [info(reader_root, name="Py Reader CA")]}
        payload.update(changes)
        return payload

    def sign(payload, k=signer_key, chain=(signer,), protected_chain=False, raw=None):
        x5 = [c.public_bytes(Encoding.DER) for c in chain]
        x5 = x5[0] if len(x5) == 1 else x5
        phdr, uhdr = {Algorithm: Es256}, {}
        (phdr if protected_chain else uhdr)[33] = x5
        message = Sign1Message(phdr=phdr, uhdr=uhdr, payload=raw if raw is not None else cbor2.dumps(payload))
        message.key = cose_key(k)
        return message.encode().hex()

    bad_serial = vical(certificateInfos=[dict(info(iaca, docType=["org.iso.18013.5.1.mDL"]), serialNumber=biguint(12345))])
    out = {
        "operator": operator.public_bytes(Encoding.DER).hex(),
        "vical": sign(vical()),
        "vicalChain": sign(vical(), chain=(signer, operator)),
        "rical": sign(rical(), protected_chain=True),
        "otherKey": sign(vical(), k=other_key),
        "otherOperator": sign(vical(), chain=(other_signer,)),
        "stale": sign(vical(date=tdate(now - 3 * day), nextUpdate=tdate(now - 60 * datetime.timedelta(seconds=1)))),
        "signerExpired": sign(vical(), chain=(expired_signer,)),
        "ricalExpired": sign(rical(notAfter=tdate(now - day)), protected_chain=True),
        "noChain": Sign1Message(phdr={Algorithm: Es256}, payload=cbor2.dumps(vical()), key=cose_key(signer_key)).encode().hex(),
        "notMap": sign(None, raw=cbor2.dumps([1, 2, 3])),
        "serialMismatch": sign(bad_serial),
        "noDocType": sign(vical(certificateInfos=[info(iaca, docType=[])])),
        "version2": sign(vical(version="2.0")),
        "epochDate": sign(vical(date=cbor2.CBORTag(1, 1780000000))),
    }
    print(json.dumps(out))
    """

  static let verifyList = """
    import sys, json, cbor2
    from cryptography import x509
    from pycose.messages import Sign1Message
    from pycose.keys import EC2Key
    from pycose.keys.curves import P256
    data = bytes.fromhex(sys.stdin.read().strip())
    # pycose reads only the tagged form (RFC 9052 §2; ISO 18013-5 writes it untagged), and cbor2 6.x
    # hands tag content over as a tuple, which pycose 1.1 refuses: give it a tagged list.
    item = cbor2.loads(data)
    item = item.value if isinstance(item, cbor2.CBORTag) else item
    message = Sign1Message.from_cose_obj([item[0], dict(item[1]), item[2], item[3]], True)
    from pycose.headers import X5chain
    chain = message.uhdr.get(X5chain) or message.phdr.get(X5chain)
    der = chain if isinstance(chain, bytes) else chain[0]
    numbers = x509.load_der_x509_certificate(der).public_key().public_numbers()
    message.key = EC2Key(crv=P256, x=numbers.x.to_bytes(32, "big"), y=numbers.y.to_bytes(32, "big"))
    payload = cbor2.loads(message.payload)
    print(json.dumps({"verified": message.verify_signature(),
                      "provider": payload.get("vicalProvider") or payload.get("provider"),
                      "entries": len(payload["certificateInfos"]),
                      "date": payload["date"].strftime("%Y-%m-%dT%H:%M:%SZ")}))
    """
}
