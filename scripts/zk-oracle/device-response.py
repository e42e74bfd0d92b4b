#!/usr/bin/env python3
"""Wraps an mDL from `dcwallet dev files` in the DeviceResponse Longfellow's prover reads (issue 33).

Test-vector tooling only (scripts/zk-oracle/regen-vectors.sh runs it; CI does not). The holder's
part, made here with cbor2 and cryptography from the development files: documents[0] keeps only
the age_over_18 IssuerSignedItem (bytes as issued), deviceSigned has empty name spaces
(tag 24 of h'A0') and a detached deviceSignature (protected {1: -7}) over DeviceAuthentication
(ISO 18013-5 §9.1.3.4) with an OpenID4VP 1.0 DC API SessionTranscript (Appendix B.2.6.1).

usage: device-response.py FILES_DIR NONCE OUT_DIR
writes OUT_DIR/mdoc.cbor, transcript.cbor, issuer-x.hex, issuer-y.hex (the document signer's
public key from issuerAuth's x5chain leaf, 32-byte big-endian coordinates)
"""
import hashlib
import os
import sys

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

ORIGIN = 'https://shop.example'
DOC_TYPE = 'org.iso.18013.5.1.mDL'


def main(files, nonce, out):
    os.makedirs(out, exist_ok=True)
    issuer_signed = cbor2.loads(open(f'{files}/mdl.cbor', 'rb').read())
    info = cbor2.dumps([ORIGIN, nonce, None])
    transcript = cbor2.dumps(
        [None, None, ['OpenID4VPDCAPIHandover', hashlib.sha256(info).digest()]])
    # DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, DocType,
    # DeviceNameSpacesBytes], the transcript's bytes embedded as they are.
    device_auth = (b'\x84' + cbor2.dumps('DeviceAuthentication') + transcript
                   + cbor2.dumps(DOC_TYPE) + b'\xd8\x18\x41\xa0')
    payload = cbor2.dumps(cbor2.CBORTag(24, device_auth))
    to_sign = cbor2.dumps(['Signature1', b'\xa1\x01\x26', b'', payload])
    key = serialization.load_pem_private_key(open(f'{files}/device.pem', 'rb').read(), None)
    r, s = decode_dss_signature(key.sign(to_sign, ec.ECDSA(hashes.SHA256())))
    items = {ns: [i for i in v if cbor2.loads(i.value)['elementIdentifier'] == 'age_over_18']
             for ns, v in issuer_signed['nameSpaces'].items()}
    doc = {
        'docType': DOC_TYPE,
        'issuerSigned': {'nameSpaces': items, 'issuerAuth': issuer_signed['issuerAuth']},
        'deviceSigned': {
            'nameSpaces': cbor2.CBORTag(24, b'\xa0'),
            'deviceAuth': {'deviceSignature': [
                b'\xa1\x01\x26', {}, None, r.to_bytes(32, 'big') + s.to_bytes(32, 'big')]},
        },
    }
    response = {'version': '1.0', 'documents': [doc], 'status': 0}
    open(f'{out}/mdoc.cbor', 'wb').write(cbor2.dumps(response))
    open(f'{out}/transcript.cbor', 'wb').write(transcript)
    chain = issuer_signed['issuerAuth'][1][33]
    leaf = x509.load_der_x509_certificate(chain if isinstance(chain, bytes) else chain[0])
    numbers = leaf.public_key().public_numbers()
    open(f'{out}/issuer-x.hex', 'w').write(numbers.x.to_bytes(32, 'big').hex())
    open(f'{out}/issuer-y.hex', 'w').write(numbers.y.to_bytes(32, 'big').hex())


if __name__ == '__main__':
    main(*sys.argv[1:4])
