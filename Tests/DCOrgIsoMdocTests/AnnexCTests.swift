import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCWalletTestSupport
import Foundation
import Testing

@Suite("Web origins")
struct WebOriginTests {
  @Test(
    "Serialized origins are accepted and normalised",
    arguments: [
      ("https://verifier.example", "https://verifier.example"),
      ("https://verifier.example/", "https://verifier.example"),
      ("HTTPS://Verifier.Example", "https://verifier.example"),
      ("https://verifier.example:443", "https://verifier.example"),
      ("https://verifier.example:8443", "https://verifier.example:8443"),
      ("http://localhost:8080", "http://localhost:8080"),
      ("https://[::1]:8443", "https://[::1]:8443"),
    ])
  func accepted(input: String, expected: String) throws {
    #expect(try WebOrigin(input).serialized == expected)
  }

  @Test(
    "Anything that is not an origin is refused",
    arguments: [
      "", "verifier.example", "https://", "https://verifier.example/path",
      "https://verifier.example?x=1",
      "https://verifier.example#f", "https://user@verifier.example", "ftp://verifier.example",
      "https://verifier.example:0",
      "https://verifier.example:99999", "https://verifier.example:port",
      "https://verifier .example", "https://verifier.example//",
      "https://ex..ample", "file:///etc/passwd",
    ])
  func refused(input: String) {
    #expect { try WebOrigin(input) } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidOrigin
    }
  }
}

@Suite("Request envelopes")
struct RequestEnvelopeTests {
  @Test("One request or a list; data as an object or as a JSON string")
  func forms() throws {
    let object = try RequestEnvelope(
      json: Array(#"{"protocol": "org-iso-mdoc", "data": {"a": 1}}"#.utf8))
    #expect(object.requests.count == 1)
    #expect(object.requests[0].knownProtocol == .orgIsoMdoc)
    let string = try RequestEnvelope(
      json: Array(#"{"protocol": "org-iso-mdoc", "data": "{\"a\": 1}"}"#.utf8))
    #expect(string.requests[0].data == object.requests[0].data)
    let list = try RequestEnvelope(
      json: Array(
        #"{"requests": [{"protocol": "x-unknown", "data": {}}, {"protocol": "openid4vp-v1-unsigned", "data": {}}]}"#
          .utf8))
    #expect(list.requests.map(\.protocolIdentifier) == ["x-unknown", "openid4vp-v1-unsigned"])
    #expect(list.requests[0].knownProtocol == nil)
  }

  @Test(
    "Malformed envelopes are invalidRequest",
    arguments: [
      "not json", "[]", #"{"data": {}}"#, #"{"protocol": "org-iso-mdoc"}"#,
      #"{"protocol": 5, "data": {}}"#,
      #"{"protocol": "org-iso-mdoc", "data": 5}"#, #"{"protocol": "org-iso-mdoc", "data": "[1]"}"#,
      #"{"protocol": "org-iso-mdoc", "data": "{not json"}"#, #"{"requests": []}"#,
      #"{"requests": [{"protocol": "x"}]}"#,
    ])
  func malformed(text: String) {
    #expect { try RequestEnvelope(json: Array(text.utf8)) } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidRequest
    }
  }
}

@Suite("org-iso-mdoc (ISO/IEC TS 18013-7 Annex C)")
struct AnnexCTests {
  static func avExample() throws -> [String: Any] {
    try VectorFile.object("annex-c-av-doc-example", in: .module)
  }

  @Test("The EU age-verification example request reads, and its response has the expected size")
  func ageVerificationExample() throws {
    let example = try Self.avExample()
    let page = try #require(example["dc_api_request"] as? [String: Any])
    let envelope = try RequestEnvelope(json: Array(JSONSerialization.data(withJSONObject: page)))
    let request = try AnnexCRequest(data: try #require(envelope.requests.first).data)
    #expect(
      request.deviceRequest.bytes == hexBytes(try #require(example["device_request"] as? String)))
    #expect(request.deviceRequest.docRequests.first?.itemsRequest.docType == "eu.europa.ec.av.1")
    let decoded = try #require(example["encryption_info_decoded"] as? [String: Any])
    #expect(hexString(request.encryptionInfo.nonce) == decoded["nonce"] as? String)
    let key = try #require(decoded["recipient_public_key"] as? [String: String])
    #expect(hexString(request.encryptionInfo.recipientPublicKey.x) == key["x"])
    // The response: EncryptedResponse, and a ciphertext of the DeviceResponse plus the 16-byte tag.
    let responsePage = try #require(example["dc_api_response"] as? [String: Any])
    let encrypted = try EncryptedResponse(
      data: try JSONValue(parsing: Array(JSONSerialization.data(withJSONObject: responsePage))))
    #expect(encrypted.bytes == hexBytes(try #require(example["encrypted_response"] as? String)))
    #expect(encrypted.enc.count == 65)
    let deviceResponse = try DeviceResponse(
      bytes: hexBytes(try #require(example["device_response"] as? String)))
    #expect(encrypted.cipherText.count == deviceResponse.bytes.count + 16)
    // Its issuerAuth verifies (no IACA was published, so trust is not required here).
    let document = try #require(deviceResponse.documents.first)
    let validity = document.issuerSigned.mso.validityInfo
    _ = try document.issuerSigned.verify(
      expectedDocType: "eu.europa.ec.av.1", trustAnchors: [],
      at: validity.validFrom.addingTimeInterval(60), requireTrustedIssuer: false)
    let attestation = hexBytes(try #require(example["proof_of_age_attestation"] as? String))
    let issuerSigned = try IssuerSigned(bytes: attestation)
    #expect(hexString(issuerSigned.bytes) == hexString(attestation))
  }

  static func encryptionInfo(_ item: CBOR) -> String {
    Base64URL.encode(CBOREncoder(mapOrder: .preserved).encode(item))
  }

  @Test(
    "EncryptionInfo refusals: bad base64url, not CBOR, wrong tag, short nonce, off-curve or wrong key"
  )
  func encryptionInfoRefusals() throws {
    let key = try ECPrivateKey(curve: .p256).publicKey
    let goodKey = COSEKey(publicKey: key).cbor
    var offCurveY = key.y
    offCurveY[31] ^= 1
    let p384 = COSEKey(publicKey: try ECPrivateKey(curve: .p384).publicKey).cbor
    let nonce = CBOR.byteString([UInt8](repeating: 7, count: 16))
    let cases: [String] = [
      "!!!", "gmVkY2Fwa===", Base64URL.encode([0xff, 0xff]),
      Self.encryptionInfo(["dcapi-x", ["nonce": nonce, "recipientPublicKey": goodKey]]),
      Self.encryptionInfo([
        "dcapi", ["nonce": .byteString([1, 2, 3]), "recipientPublicKey": goodKey],
      ]),
      Self.encryptionInfo(["dcapi", ["nonce": nonce]]),
      Self.encryptionInfo([
        "dcapi",
        [
          "nonce": nonce,
          "recipientPublicKey": COSEKey(curveIdentifier: 1, x: key.x, y: offCurveY).cbor,
        ],
      ]),
      Self.encryptionInfo(["dcapi", ["nonce": nonce, "recipientPublicKey": p384]]),
      Self.encryptionInfo(["dcapi"]),
    ]
    for text in cases {
      let error = #expect(throws: OrgIsoMdocError.self, "\(text)") {
        try EncryptionInfo(base64URL: text)
      }
      #expect(error?.code == .invalidEncryptionInfo, "\(text)")
    }
    #expect(
      try EncryptionInfo(
        base64URL: Self.encryptionInfo(["dcapi", ["nonce": nonce, "recipientPublicKey": goodKey]])
      ).nonce.count == 16)
  }

  @Test(
    "Request data refusals: missing members, bad base64url, truncated or non-CBOR deviceRequest")
  func requestRefusals() throws {
    let good = EncryptionInfo(
      nonce: [UInt8](repeating: 1, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let request = DeviceRequest(docRequests: [
      DocRequest(
        itemsRequest: ItemsRequest(
          docType: "d", nameSpaces: [("n", [.init("e", intentToRetain: false)])]))
    ])
    let valid = Base64URL.encode(request.bytes)
    for data: JSONValue in [
      .object([]), .object([("deviceRequest", .string(valid))]),
      .object([("encryptionInfo", .string(good.base64URL))]),
      .object([
        ("deviceRequest", .string("not base64!")), ("encryptionInfo", .string(good.base64URL)),
      ]),
      .object([
        ("deviceRequest", .string(Base64URL.encode(Array(request.bytes.dropLast(3))))),
        ("encryptionInfo", .string(good.base64URL)),
      ]),
      .object([
        ("deviceRequest", .string(Base64URL.encode(Array("hello".utf8)))),
        ("encryptionInfo", .string(good.base64URL)),
      ]),
      .object([("deviceRequest", .integer(5)), ("encryptionInfo", .string(good.base64URL))]),
    ] {
      #expect { try AnnexCRequest(data: data) } throws: {
        ($0 as? OrgIsoMdocError)?.code == .invalidRequest
      }
    }
    #expect(
      try AnnexCRequest(
        data: .object([
          ("deviceRequest", .string(valid)), ("encryptionInfo", .string(good.base64URL)),
        ])
      ).deviceRequest == request)
  }

  @Test("The transcript hashes the encryptionInfo text as received and the origin")
  func transcript() throws {
    let info = EncryptionInfo(
      nonce: [UInt8](repeating: 9, count: 16),
      recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(
          itemsRequest: ItemsRequest(
            docType: "d", nameSpaces: [("n", [.init("e", intentToRetain: false)])]))
      ]), encryptionInfo: info)
    let transcript = request.sessionTranscript(origin: try WebOrigin("https://verifier.example/"))
    let bytes = transcript.bytes
    #expect(bytes.first == 0x83)
    let expectedHash = SHA256.hash(
      data: CBOR.array([.textString(info.base64URL), "https://verifier.example"]).encoded())
    #expect(transcript.encoded.value == [nil, nil, ["dcapi", .byteString(expectedHash)]])
    #expect(
      request.sessionTranscript(origin: try WebOrigin("https://other.example")).bytes != bytes)
  }

  /// The peer rebuilds the SessionTranscript itself (ISO/IEC TS 18013-7:2025 C.3.2.2) from
  /// the request's `encryptionInfo` text and the origin, with cbor2 and hashlib: a transcript
  /// that differs from the specification's in any byte fails to open.
  @Test("pyhpke opens the response we seal for an Annex C request", .pythonPeers)
  func pyhpkeOpensOurResponse() throws {
    try PythonPeer.require("pyhpke opens our EncryptedResponse")
    let verifierKey = try ECPrivateKey(curve: .p256)
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [
        DocRequest(
          itemsRequest: ItemsRequest(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])]))
      ]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 3, count: 16), recipientPublicKey: verifierKey.publicKey))
    let origin = try WebOrigin("https://verifier.example")
    let response = DeviceResponse(documents: [], documentErrors: [["org.iso.18013.5.1.mDL": 0]])
    let sealed = try EncryptedResponse.seal(
      response, to: verifierKey.publicKey,
      sessionTranscript: request.sessionTranscript(origin: origin))
    let script = """
      import sys, json, base64, hashlib, cbor2
      from cryptography.hazmat.primitives.asymmetric import ec
      from pyhpke import AEADId, CipherSuite, KDFId, KEMId
      args = json.loads(sys.stdin.read())
      h = bytes.fromhex
      def b64url(text):
          return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
      # C.3.2.1: EncryptionInfo = ["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]
      kind, params = cbor2.loads(b64url(args["encryptionInfo"]))
      assert kind == "dcapi", kind
      suite = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
      sk = suite.kem.deserialize_private_key(h(args["sk"]))
      cose = params["recipientPublicKey"]
      numbers = ec.derive_private_key(int(args["sk"], 16), ec.SECP256R1()).public_key().public_numbers()
      assert (cose[1], cose[-1]) == (2, 1)  # EC2, P-256
      assert (cose[-2], cose[-3]) == (numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big"))
      assert len(params["nonce"]) >= 16
      # C.3.2.2: dcapiInfo = [base64EncryptionInfo, serializedOrigin];
      # SessionTranscript = [null, null, ["dcapi", SHA-256(dcapiInfo)]]
      info = cbor2.dumps([args["encryptionInfo"], args["origin"]])
      transcript = cbor2.dumps([None, None, ["dcapi", hashlib.sha256(info).digest()]])
      # C.3.2.3: EncryptedResponse = ["dcapi", {"enc": bstr, "cipherText": bstr}]
      tag, body = cbor2.loads(b64url(args["response"]))
      ctx = suite.create_recipient_context(body["enc"], sk, info=transcript)
      print(tag, ctx.open(body["cipherText"], aad=b"").hex())
      """
    let out = try PythonPeer.run(
      script,
      input: """
        {"encryptionInfo": "\(try #require(request.data["encryptionInfo"]?.string))", \
        "origin": "\(origin.serialized)", "response": "\(try #require(sealed.data["response"]?.string))", \
        "sk": "\(hexString(verifierKey.rawRepresentation))"}
        """)
    #expect(
      out.trimmingCharacters(in: .whitespacesAndNewlines) == "dcapi \(hexString(response.bytes))")
  }
}
