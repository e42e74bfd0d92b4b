#!/usr/bin/env python3
"""Proves and checks the Longfellow vectors with the C++ oracle (issue 33; run by regen-vectors.sh).

usage: make-vectors.py LFZK WORK_DIR OUT_DIR NOW LATE EARLY (LATE after validUntil, EARLY before validFrom)
WORK_DIR holds issuer-a/ (the mDL's DeviceResponse, transcript, issuer key), session-b/ (another
SessionTranscript) and issuer-b/ (another development issuer's key), made by
device-response.py. Writes OUT_DIR/proof-valid.bin and OUT_DIR/vectors.json: the statement, the
proof's layout, and every case with the C++ verifier's result code (run_mdoc_verifier,
lib/circuits/mdoc/mdoc_zk.h: 0 success, 2 proof too small, 5 general failure, 8 arguments too
small, ...). Each invalid case is one change to the valid proof or statement.
"""
import hashlib
import json
import re
import subprocess
import sys

LFZK, WORK, OUT, NOW = sys.argv[1:5]
NS, ATTR, TRUE, FALSE = 'org.iso.18013.5.1', 'age_over_18', 'f5', 'f4'
DOC_TYPE = 'org.iso.18013.5.1.mDL'
CIRCUIT = f'{OUT}/circuit-1attr-v7.zst'


def read_hex(path):
    return open(path).read().strip()


def lfzk(*args):
    run = subprocess.run([LFZK, *args], capture_output=True, text=True)
    return run.returncode, run.stdout


statement = {
    'issuerX': read_hex(f'{WORK}/issuer-a/issuer-x.hex'),
    'issuerY': read_hex(f'{WORK}/issuer-a/issuer-y.hex'),
    'docType': DOC_TYPE, 'nameSpace': NS,
    'attributes': [{'identifier': ATTR, 'cborValue': TRUE}],
    'sessionTranscript': open(f'{WORK}/issuer-a/transcript.cbor', 'rb').read().hex(),
    'now': NOW,
}
proof_path = f'{OUT}/proof-valid.bin'
code, out = lfzk('prove', CIRCUIT, f'{WORK}/issuer-a/mdoc.cbor', '0x' + statement['issuerX'],
                 '0x' + statement['issuerY'], f'{WORK}/issuer-a/transcript.cbor', NOW, proof_path,
                 NS, ATTR, TRUE)
if code != 0:
    sys.exit(f'prover failed: {out}')
proof = open(proof_path, 'rb').read()
code, out = lfzk('layout', CIRCUIT, proof_path)
if code != 0:
    sys.exit('layout failed')
inputs = {m[0]: int(m[1]) for m in re.findall(r'^(\w+)_circuit ninputs \d+ npub_in (\d+)', out, re.M)}
layout = {m[0]: [int(m[1]), int(m[2])] for m in re.findall(r'^(\w+) (\d+) (\d+)$', out, re.M)
          if m[0] in ('macs',) or m[0].startswith(('hash_', 'sig_'))}


def verify(st, proof_bytes):
    open(f'{WORK}/case.bin', 'wb').write(proof_bytes)
    open(f'{WORK}/case-transcript.cbor', 'wb').write(bytes.fromhex(st['sessionTranscript']))
    attrs = [x for a in st['attributes'] for x in (NS, a['identifier'], a['cborValue'])]
    code, out = lfzk('verify', CIRCUIT, '0x' + st['issuerX'], '0x' + st['issuerY'],
                     f'{WORK}/case-transcript.cbor', st['now'], f'{WORK}/case.bin', st['docType'],
                     *attrs)
    m = re.search(r'run_mdoc_verifier (\d+)', out)
    if not m:
        sys.exit(f'verifier did not run: {out}')
    return int(m.group(1))


def mid(part):
    a, b = layout[part]
    return a + (b - a) // 2


cases = [
    {'name': 'valid'},
    {'name': 'wrong-attribute-value',
     'statement': {'attributes': [{'identifier': ATTR, 'cborValue': FALSE}]}},
    {'name': 'other-session-transcript', 'statement': {
        'sessionTranscript': open(f'{WORK}/session-b/transcript.cbor', 'rb').read().hex()}},
    {'name': 'other-issuer-key', 'statement': {
        'issuerX': read_hex(f'{WORK}/issuer-b/issuer-x.hex'),
        'issuerY': read_hex(f'{WORK}/issuer-b/issuer-y.hex')}},
    {'name': 'other-doc-type', 'statement': {'docType': 'org.iso.18013.5.1.mDX'}},
    {'name': 'time-after-valid-until', 'statement': {'now': sys.argv[5]}},
    {'name': 'time-before-valid-from', 'statement': {'now': sys.argv[6]}},
    {'name': 'flip-mac-first', 'flip': 0},
    {'name': 'flip-mac-last', 'flip': 95},
]
for circuit in ('hash', 'sig'):
    cases += [
        {'name': f'flip-{circuit}-root', 'flip': layout[f'{circuit}_root'][0]},
        {'name': f'flip-{circuit}-sumcheck-first', 'flip': layout[f'{circuit}_sumcheck'][0]},
        {'name': f'flip-{circuit}-sumcheck-middle', 'flip': mid(f'{circuit}_sumcheck') // 16 * 16},
        {'name': f'flip-{circuit}-ligero-first', 'flip': layout[f'{circuit}_ligero'][0]},
        {'name': f'flip-{circuit}-ligero-last', 'flip': layout[f'{circuit}_ligero'][1] - 1},
    ]
cases += [
    {'name': 'trailing-byte', 'append': '00'},
    {'name': 'truncated-last-byte', 'truncate': len(proof) - 1},
    {'name': 'truncated-in-hash-proof', 'truncate': mid('hash_ligero')},
    {'name': 'truncated-in-macs', 'truncate': 50},
]
for case in cases:
    st = dict(statement, **case.get('statement', {}))
    data = bytearray(proof)
    if 'flip' in case:
        data[case['flip']] ^= 0x01
    if 'append' in case:
        data += bytes.fromhex(case['append'])
    if 'truncate' in case:
        del data[case['truncate']:]
    case['oracle'] = verify(st, bytes(data))
    print(f"{case['name']}: run_mdoc_verifier {case['oracle']}")
if cases[0]['oracle'] != 0 or any(c['oracle'] == 0 for c in cases[1:]):
    sys.exit('the oracle does not accept exactly the valid case')

code, out = lfzk('e2', f'{WORK}/issuer-a/transcript.cbor', DOC_TYPE)
e2 = out.strip()
code, out = lfzk('id', CIRCUIT)
vectors = {
    'upstream': {'repository': 'https://github.com/google/longfellow-zk',
                 'commit': open(f'{WORK}/upstream-commit').read().strip()},
    'circuit': {'file': 'circuit-1attr-v7.zst', 'id': out.strip(), 'system': 'longfellow-libzk-v1',
                'numAttributes': 1, 'version': 7, 'blockEncHash': 4151, 'blockEncSig': 4096,
                'hashPublicInputs': inputs['hash'], 'signaturePublicInputs': inputs['sig']},
    'statement': statement,
    # upstream's compute_transcript_hash (mdoc_witness.h) for the statement, before reduction
    # into P-256's base field.
    'e2Digest': e2,
    'proof': {'file': 'proof-valid.bin', 'size': len(proof),
              'sha256': hashlib.sha256(proof).hexdigest(), 'layout': layout},
    'cases': cases,
}
open(f'{OUT}/vectors.json', 'w').write(json.dumps(vectors, indent=1) + '\n')
