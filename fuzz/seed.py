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
# OpenID4VCI wire messages and proofs (issue 13; fuzz/Sources/dcfuzz/IssuanceTargets.swift).
# Signed inputs are "\0 header \n claims": the target signs them with its fixed keys (scalars
# 0x11.., 0x22.., 0x33..: encryption, attester and instance keys), at its clock 1800000000.
for path in sorted(glob.glob(os.path.join(root, "Tests/OpenID4VCITests/Vectors/*.jwt.txt"))):
    with open(path) as f:
        add("vci-attestation", f.read().strip())
with open(os.path.join(root, "Tests/OpenID4VCITests/Vectors/credential_request_iso_mdl.json")) as f:
    add("vci-credential-request", json.dumps(json.load(f), separators=(",", ":")))
attester = '{"kty":"EC","crv":"P-256","x":"1lqTl3yqPRsIGFL_V6eeRl8WYFdzBLrq1QXdOkhYnPM","y":"UBheiVNy32Ih6joTdVfkc_3bZ1XwW9UHw8Uz_OnJEoU"}'
instance = '{"kty":"EC","crv":"P-256","x":"UadYCDOJjqGxg8vXNQpAmQeMbvHB4Y6XDNdoMDXyXn0","y":"ARBSJxKwtafP8IFoVIaYSpTmgx7axG5zYPqdg0p6gaE"}'
encryption = '{"kty":"EC","crv":"P-256","x":"AhfmF_C2RDkoJ4-WmZ5pojpPLBUr321s32bluAKC1O0","y":"GUp968uXcS0t2jyoWqh2Wlb0X8dYWZZS8ol8ZTBuV5Q","alg":"ECDH-ES","kid":"enc-1"}'
def signed(target, header, claims):
    add(target, b"\x00" + header.encode() + b"\n" + claims.encode())
for claims in ['{"jti":"j-1","htm":"POST","htu":"https://issuer.example/token","iat":1800000000}',
               '{"jti":"j-2","htm":"POST","htu":"https://issuer.example/credential","iat":1800000000,"nonce":"nonce-1","ath":"PwiqzhIu4jaEMsHKI6BJvGQLr78A_fM6UkKfOLoS2_k"}']:
    signed("vci-dpop", '{"typ":"dpop+jwt","alg":"ES256","jwk":' + instance + '}', claims)
add("vci-dpop", "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2In0.eyJqdGkiOiJqIn0.AA")
key_attestation_claims = '{"iat":1800000000,"exp":1800003600,"attested_keys":[' + instance + '],"key_storage":["iso_18045_high"],"nonce":"nonce-1"}'
for header, claims in [
    ('{"typ":"openid4vci-proof+jwt","alg":"ES256","jwk":' + instance + '}',
     '{"aud":"https://issuer.example","iat":1800000000,"nonce":"nonce-1"}'),
    ('{"typ":"openid4vci-proof+jwt","alg":"ES256","jwk":' + instance + '}',
     '{"iss":"client-1","aud":"https://issuer.example","iat":1800000000,"nonce":"nonce-1"}'),
    ('{"typ":"openid4vci-proof+jwt","alg":"ES256","key_attestation":"eyJ0eXAiOiJrZXktYXR0ZXN0YXRpb24rand0IiwiYWxnIjoiRVMyNTYifQ.e30.AA"}',
     '{"aud":"https://issuer.example","iat":1800000000,"nonce":"nonce-1"}')]:
    signed("vci-key-proof", header, claims)
for header, claims in [
    ('{"typ":"oauth-client-attestation+jwt","alg":"ES256"}',
     '{"sub":"client-1","iss":"https://provider.example","iat":1800000000,"exp":1800003600,"cnf":{"jwk":' + instance + '}}'),
    ('{"typ":"oauth-client-attestation-pop+jwt","alg":"ES256"}',
     '{"iss":"client-1","aud":"https://issuer.example","jti":"p-1","iat":1800000000,"challenge":"challenge-1"}'),
    ('{"typ":"key-attestation+jwt","alg":"ES256"}', key_attestation_claims)]:
    signed("vci-attestation", header, claims)
for body in ['{"access_token":"token-1","token_type":"DPoP","expires_in":3600,"refresh_token":"r-1","scope":"a b","authorization_details":[{"type":"openid_credential","credential_configuration_id":"mdl","credential_identifiers":["mdl-1"]}]}',
             '{"access_token":"token-1","token_type":"Bearer"}', '{"c_nonce":"nonce-1"}',
             '{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":60}',
             '{"error":"use_dpop_nonce","error_description":"fresh nonce","error_uri":"https://issuer.example/e"}']:
    add("vci-token-response", body)
add("vci-token-response", 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof", algs="ES256"')
add("vci-token-response", 'Bearer realm="issuer", error="invalid_token", Basic abc==')
for body in ['{"credentials":[{"credential":"o2d2ZXJzaW9u"},{"credential":"eyJhbGciOiJFUzI1NiJ9.e30.AA~"}],"notification_id":"n-1"}',
             '{"credentials":[{"credential":{"@context":[],"type":["VerifiableCredential"]}}]}',
             '{"transaction_id":"tx-1","interval":5}',
             # jwcrypto (python-jwcrypto) JWEs to the fixed encryption key: an interop seed.
             "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImVwayI6eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6InNaN3c3cVVkRXQ4NWxRTVoyWERzb0JXc3dVRHNiSVJZbmd6czlHYWVMLW8iLCJ5IjoiRVN1RFJoNjFaUE9nRVVLTzl6LVlUY0NITVZYN3A0U3lxVEo2U0JlTFR2YyJ9LCJraWQiOiJlbmMtMSJ9..w_CMmC4ie8tg0r0Z.1OLey_UO2QfWWCpHH_tHAdg5I9dvflpHT_LWDd_641OQCyNi7mieStk4hazD3rAi4z05fsQR0KDxo3O3pEjV913Y2ONRrEw.iq7bvG8rHXQRGi-NFC8LXg",
             "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImVwayI6eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6Im9rUWVET0NuVjFZSXptSDFuRkV3MVlNdmlLLVJMeVZnUFhJZFZQLVc3Wm8iLCJ5IjoiU2VzVG4taGFjNXBzSzE3aC1oN1c1QTlhT08wdzduNWJfTngxQkVUdmNEcyJ9LCJraWQiOiJlbmMtMSJ9..-hnXCEPOmBpO3kyu.2gHwOXDDzdRdSpAGEQYlRtLpI1Pt50hpKwNjy4cJ0JkQYXMKVrw._9Tst1rwIYw3GXh9E6Y5pw"]:
    add("vci-credential-response", body)
for text in ["https://wallet.example/cb?code=c-1&state=state-1&iss=https%3A%2F%2Fissuer.example",
             "https://wallet.example/cb?error=access_denied&error_description=no&state=state-1",
             "https://issuer.example/authorize?client_id=client-1&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc",
             "response_type=code&client_id=client-1&redirect_uri=https%3A%2F%2Fwallet.example%2Fcb&state=state-1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&scope=mdl+pid&issuer_state=is-1&authorization_details=%5B%7B%22type%22%3A%22openid_credential%22%2C%22credential_configuration_id%22%3A%22mdl%22%7D%5D"]:
    add("vci-authorization-response", text)
for body in ["grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code&pre-authorized_code=p-1&tx_code=493536",
             "grant_type=authorization_code&code=c-1&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&redirect_uri=https%3A%2F%2Fwallet.example%2Fcb&client_id=client-1&resource=https%3A%2F%2Fissuer.example",
             "grant_type=refresh_token&refresh_token=r-1&scope=mdl",
             "grant_type=authorization_code&code=c-1&code_verifier=v&redirect_uri=x&authorization_details=%5B%7B%22type%22%3A%22openid_credential%22%2C%22credential_configuration_id%22%3A%22mdl%22%7D%5D"]:
    add("vci-token-request", body)
for body in ['{"credential_configuration_id":"mdl","proofs":{"jwt":["eyJhbGciOiJFUzI1NiJ9.e30.AA","eyJhbGciOiJFUzI1NiJ9.e30.AB"]},"credential_response_encryption":{"jwk":' + encryption + ',"enc":"A128GCM"}}',
             '{"credential_identifier":"mdl-1","proofs":{"attestation":["eyJhbGciOiJFUzI1NiJ9.e30.AA"]}}',
             '{"transaction_id":"tx-1","credential_response_encryption":{"jwk":' + encryption + ',"enc":"A256GCM"}}',
             '{"notification_id":"n-1","event":"credential_deleted","event_description":"removed"}']:
    add("vci-credential-request", body)
# ISO 18013-5 proximity session (issue 14; fuzz/Sources/dcfuzz/ProximityTargets.swift): the Annex D
# values, which the targets' Annex D sessions decrypt.
with open(os.path.join(root, "Tests/MdocProximityTests/Vectors/iso18013-5-annex-d-session.json")) as f:
    annex_d = json.load(f)
for name in ("device_engagement", "session_transcript_device_engagement"):
    engagement = bytes.fromhex(annex_d[name])
    add("device-engagement", engagement)
    add("mdoc-uri", "mdoc:" + base64.urlsafe_b64encode(engagement).decode().rstrip("="))
add("session-establishment", bytes.fromhex(annex_d["session_establishment"]))
for name in ("session_data", "session_termination"):
    add("session-data", bytes.fromhex(annex_d[name]))
add("session-data", bytes.fromhex("a2646461746150" + "00" * 16 + "667374617475731814"))
add("session-data", bytes.fromhex("a166737461747573" + "0a"))
for name in ("nfc_handover_select", "nfc_handover_request"):
    add("nfc-handover", bytes.fromhex(annex_d[name]))

# Proximity transports (issue 14; fuzz/Sources/dcfuzz/ProximityTransportTargets.swift), from the
# Annex D DeviceEngagement and EDeviceKeyBytes.
with open(os.path.join(root, "Tests/ProximityTransportTests/Vectors/iso18013-5-annex-d-ble.json")) as f:
    annex_d = json.load(f)
messages = [bytes.fromhex(annex_d["device_engagement"]), bytes.fromhex(annex_d["e_device_key_bytes"]), b"\xa0"]
for value_length in (2, 20, 65):
    payload = value_length - 1
    for message in messages:
        parts = [message[i:i + payload] for i in range(0, len(message), payload)]
        chunks = [bytes([1 if i < len(parts) - 1 else 0]) + part for i, part in enumerate(parts)]
        if len(chunks) <= 64:
            add("ble-reassembly", bytes([value_length - 2]) + b"".join(bytes([len(c)]) + c for c in chunks))
add("ble-reassembly", bytes([18, 1, 2, 2, 1, 7, 0, 2, 0, 1]))
for piece in (0, 3, 31):
    frames = b"".join(len(m).to_bytes(4, "big") + m for m in messages)
    add("tcp-frames", bytes([piece]) + frames)
    add("tcp-frames", bytes([piece]) + frames[:-3])
add("tcp-frames", bytes([1]) + b"\x00\x00\x00\x00")
add("tcp-frames", bytes([2]) + b"\xff\xff\xff\xff")
add("tcp-frames", bytes([4]) + b"\x00\x00\x04\x00" + b"\x01" * 1024)
for target, items in seeds.items():
    os.makedirs(os.path.join(out, target), exist_ok=True)
    for data in items:
        with open(os.path.join(out, target, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(target, len(items))
