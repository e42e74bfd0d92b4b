#!/usr/bin/env python3
"""Writes raw seed inputs for every fuzz target from the test vectors (Tests/*/Vectors).

Used once to start the corpora; `run.sh --merge` then keeps the inputs that add coverage to
fuzz/corpus/<target>/. Usage: fuzz/seed.py OUTDIR
"""
import base64, binascii, glob, hashlib, json, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
seeds = {}


def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    if 0 < len(data) <= 16384:
        seeds.setdefault(target, set()).add(data)


def b64url(text):
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def binary(data):
    for target in ("cbor", "cose-sign1", "cose-key", "device-request", "device-response",
                   "encrypted-response"):
        add(target, data)
    if data[:1] == b"\x30":
        add("der", data)


def string(text):
    if "-----BEGIN" in text:
        add("pem", text)
    elif re.fullmatch(r"([0-9a-fA-F]{2})+", text) and len(text) >= 4:
        binary(bytes.fromhex(text))
    elif "~" in text and text.startswith("ey"):
        add("sdjwt", text)
    elif re.fullmatch(r"ey[\w-]*(\.[\w-]*){2}", text):
        add("jws", text)
    elif re.fullmatch(r"ey[\w-]*(\.[\w-]*){4}", text):
        add("jwe", text)
    elif re.fullmatch(r"[\w-]{8,}", text):
        data = b64url(text)
        if data and data[:1] in (b"\x30", b"\x82", b"\x83", b"\x84", b"\xa2", b"\xa3", b"\xd2"):
            binary(data)


def value(v, depth=0):
    if isinstance(v, str):
        string(v)
    elif isinstance(v, list):
        for item in v:
            value(item, depth + 1)
    elif isinstance(v, dict):
        text = json.dumps(v, separators=(",", ":"))
        add("json", text)
        if "credentials" in v:
            add("dcql", text)
        if "dcql_query" in v or "response_type" in v or "client_id" in v:
            add("openid4vp-request", text)
            add("request-envelope", json.dumps(
                {"requests": [{"protocol": "openid4vp-v1-unsigned", "data": v}]}))
        if "deviceRequest" in v:
            add("annexc-request", text)
            add("request-envelope", json.dumps(
                {"digital": {"providers": [{"protocol": "org-iso-mdoc", "request": text}]}}))
        if "payload" in v and ("signatures" in v or "signature" in v):
            add("jws-json", text)
        if "kty" in v or "keys" in v:
            add("jws-json", text)
        if depth <= 2 and not any(isinstance(x, (dict, list)) for x in v.values()):
            add("android-registry", b"\x00" + text.encode())
        for item in v.values():
            value(item, depth + 1)


for path in sorted(glob.glob(os.path.join(root, "Tests/*/Vectors/*.json"))):
    if "CryptoPrimitivesTests" in path:
        continue
    with open(path) as f:
        value(json.load(f))
for path in sorted(glob.glob(os.path.join(root, "Tests/CryptoPrimitivesTests/Vectors/ecdsa_*_test.json")))[:3]:
    with open(path) as f:
        group = json.load(f)["testGroups"][0]
        add("pem", group.get("publicKeyPem", ""))
        add("der", bytes.fromhex(group.get("publicKeyDer", "")))
# Shapes the vectors lack.
add("request-envelope", '{"providers":[{"protocol":"openid4vp-v1-signed","request":{"request":"eyJhbGciOiJFUzI1NiJ9.e30.AA"}}]}')
add("request-envelope", '{"digital":{"requests":[{"protocol":"openid4vp-v1-multisigned","data":{"request":{"payload":"e30","signatures":[]}}}]}}')
add("openid4vp-request", '{"request":"eyJhbGciOiJFUzI1NiIsIng1YyI6W119.e30.AA"}')
add("encrypted-response", '{"response":"gmVkY2FwaaJjZW5jQGpjaXBoZXJUZXh0QA"}')
add("android-registry", b"\x03" + bytes.fromhex("a1716f72672e69736f2e31383031332e352e31a26b66616d696c795f6e616d6563446f65666167655f3138f5"))
add("android-registry", b'\x02{"given_name":"Erika","address":{"locality":"Berlin"},"age":42}')
for target, items in seeds.items():
    os.makedirs(os.path.join(out, target), exist_ok=True)
    for data in items:
        with open(os.path.join(out, target, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(target, len(items))
