import DCAPI
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCVerifier
import DCX509
import Foundation
import Testing

/// HAIP 1.0 and OpenID conformance-suite behaviour of the wallet over the DC API: request
/// shapes as real verifiers send them, and a refusal test for every check.
struct HAIPConformanceTests {
  // MARK: - Helpers

  /// A multisigned request `data` with one signature per (key, chain, client_id), over
  /// `payload`.
  static func multisigned(
    _ payload: JSONValue, signers: [(key: ECPrivateKey, chain: [Certificate], clientID: String)]
  ) throws -> JSONValue {
    let entries = signers.map { signer in
      JWSJSON.SignerEntry(
        protectedHeader: .object([
          ("typ", "oauth-authz-req+jwt"), ("client_id", .string(signer.clientID)),
          ("x5c", JWS.x5c(signer.chain.map(\.derBytes))),
        ]), signer: signer.key)
    }
    return ["request": try JWSJSON.sign(payload: payload.serializedBytes(), signers: entries)]
  }

  /// The payload of a multisigned request: no client_id, `expected_origins` when given.
  static func multisignedPayload(
    _ fixture: Fixture, expectedOrigins: JSONValue? = [.string(Fixture.origin)]
  ) throws -> JSONValue {
    var payload = try RequestRefusalTests.parameters(fixture)
    if let expectedOrigins { payload = payload.setting("expected_origins", to: expectedOrigins) }
    return payload
  }

  /// `data` with the signature at `index` of `data.request` changed in one byte.
  static func corruptingSignature(_ data: JSONValue, at index: Int) throws -> JSONValue {
    let request = try #require(data["request"])
    var signatures = try #require(request["signatures"]?.array)
    var bytes = try Base64URL.decode(try #require(signatures[index]["signature"]?.string))
    bytes[bytes.count / 2] ^= 0x01
    signatures[index] = signatures[index].setting("signature", to: .string(Base64URL.encode(bytes)))
    return data.setting("request", to: request.setting("signatures", to: .array(signatures)))
  }

  func refusal(
    _ fixture: Fixture, _ protocolID: OpenID4VPProtocol, data: JSONValue,
    anchors: [Certificate]? = nil
  ) -> OpenID4VPError? {
    openID4VPError {
      _ = try AuthorizationRequest(
        protocol: protocolID, data: data, origin: try WebOrigin(Fixture.origin),
        verifierTrustAnchors: anchors ?? [fixture.verifierRoot], now: fixture.now,
        supportedTransactionDataTypes: [Fixture.paymentType])
    }
  }

  func authenticatedIndex(_ request: AuthorizationRequest) -> Int?? {
    guard case .authenticated(let verifier) = request.verifier else { return nil }
    return .some(verifier.signatureIndex)
  }

  // MARK: - Multisigned request shape (OpenID4VP 1.0 Appendix A.3.2)

  @Test func multisignedRequestTravelsInDataRequest() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.multisigned([fixture.signer]), .dcAPIJWT)
    let jws = try #require(sent.data["request"])
    #expect(jws["payload"]?.string != nil)
    #expect(jws["signatures"]?.array?.count == 1)
    #expect(sent.data["payload"] == nil)
    let request = try fixture.parse(sent)
    #expect(authenticatedIndex(request) == .some(0))
    let verified = try fixture.verify(try fixture.respond(to: request).data, state: sent.state)
    #expect(verified.credentials.count == 2)
  }

  @Test func multisignedAsJSONTextOrAsTheBareSerializationIsRead() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.multisigned([fixture.signer]), .dcAPI)
    let jws = try #require(sent.data["request"])
    let asText: JSONValue = ["request": .string(jws.serialized())]
    #expect(authenticatedIndex(try fixture.parse(protocol: .multisigned, data: asText)) == .some(0))
    // The appendix's (non-normative) example: `data` is the serialization itself.
    #expect(authenticatedIndex(try fixture.parse(protocol: .multisigned, data: jws)) == .some(0))
  }

  @Test func multisignedRequestThatIsNotAJWSJSONSerializationIsRefused() throws {
    let fixture = try Fixture()
    let compact = try fixture.makeRequest(.signed(fixture.signer), .dcAPI)
    for data: JSONValue in [
      compact.data, ["request": 7], ["request": ["payload": "e30"]], [:],
      ["nonce": "n", "response_type": "vp_token"],
    ] {
      #expect(refusal(fixture, .multisigned, data: data)?.code == .malformed)
    }
  }

  @Test func extraInvalidSignatureIsIgnoredInEitherPosition() throws {
    let fixture = try Fixture()
    let payload = try Self.multisignedPayload(fixture)
    let signer = (
      fixture.verifierKey, [fixture.verifierCertificate], "x509_san_dns:verifier.example"
    )
    let two = try Self.multisigned(payload, signers: [signer, signer])
    let second = try fixture.parse(
      protocol: .multisigned, data: try Self.corruptingSignature(two, at: 0))
    #expect(authenticatedIndex(second) == .some(1))
    let first = try fixture.parse(
      protocol: .multisigned, data: try Self.corruptingSignature(two, at: 1))
    #expect(authenticatedIndex(first) == .some(0))
  }

  /// Signature entries this wallet cannot read: another algorithm family, `none`, malformed.
  static let unreadableEntries: [JSONValue] = [
    [
      "protected": .string(
        Base64URL.encode(
          JSONValue.object([
            ("alg", "RS256"), ("typ", "oauth-authz-req+jwt"),
            ("client_id", "x509_san_dns:rsa.example"),
          ]).serializedBytes())),
      "signature": .string(Base64URL.encode([UInt8](repeating: 7, count: 256))),
    ],
    [
      "protected": .string(Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))), "signature": "",
    ],
    ["protected": .string(Base64URL.encode(Array(#"{"alg":"EdDSA"}"#.utf8))), "signature": "AAAA"],
    ["signature": "AAAA"], ["protected": "!!!", "signature": "AAAA"], "not an object",
  ]

  @Test func unreadableExtraSignaturesAreIgnored() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.multisigned([fixture.signer]), .dcAPI)
    let request = try #require(sent.data["request"])
    let valid = try #require(request["signatures"]?.array)
    let mixed = Self.unreadableEntries + valid + Self.unreadableEntries
    let data = sent.data.setting("request", to: request.setting("signatures", to: .array(mixed)))
    let parsed = try fixture.parse(protocol: .multisigned, data: data)
    #expect(authenticatedIndex(parsed) == .some(Self.unreadableEntries.count))

    // With no readable signature left, the request is refused and every entry is named.
    let none = sent.data.setting(
      "request", to: request.setting("signatures", to: .array(Self.unreadableEntries)))
    let error = refusal(fixture, .multisigned, data: none)
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.reason.contains("[5]") == true)
    let empty = sent.data.setting("request", to: request.setting("signatures", to: []))
    #expect(refusal(fixture, .multisigned, data: empty)?.code == .malformed)
  }

  @Test func tooManySignaturesAreRefusedBeforeAnyIsChecked() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.multisigned([fixture.signer]), .dcAPI)
    let request = try #require(sent.data["request"])
    let valid = try #require(request["signatures"]?.array)
    let limit = AuthorizationRequest.maximumSignatures
    let atLimit = Array(repeating: valid[0], count: limit)
    let accepted = sent.data.setting(
      "request", to: request.setting("signatures", to: .array(atLimit)))
    #expect(
      authenticatedIndex(try fixture.parse(protocol: .multisigned, data: accepted)) == .some(0))
    let over = sent.data.setting(
      "request", to: request.setting("signatures", to: .array(atLimit + valid)))
    #expect(refusal(fixture, .multisigned, data: over)?.code == .malformed)
  }

  @Test func noSignatureThatVerifiesIsARefusal() throws {
    let fixture = try Fixture()
    let payload = try Self.multisignedPayload(fixture)
    let signer = (
      fixture.verifierKey, [fixture.verifierCertificate], "x509_san_dns:verifier.example"
    )
    var data = try Self.multisigned(payload, signers: [signer, signer])
    data = try Self.corruptingSignature(Self.corruptingSignature(data, at: 0), at: 1)
    let error = refusal(fixture, .multisigned, data: data)
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.errorResponse?.error == .invalidClient)
  }

  @Test func multisignedExpectedOriginsMissingOrWrongIsRefused() throws {
    let fixture = try Fixture()
    let signer = (
      fixture.verifierKey, [fixture.verifierCertificate], "x509_san_dns:verifier.example"
    )
    let missing = try Self.multisigned(
      try Self.multisignedPayload(fixture, expectedOrigins: nil), signers: [signer])
    #expect(refusal(fixture, .multisigned, data: missing)?.code == .invalidRequest)
    let wrong = try Self.multisigned(
      try Self.multisignedPayload(fixture, expectedOrigins: ["https://attacker.example"]),
      signers: [signer])
    let error = refusal(fixture, .multisigned, data: wrong)
    #expect(error?.code == .originMismatch)
    #expect(error?.errorResponse?.error == .invalidRequest)
    let empty = try Self.multisigned(
      try Self.multisignedPayload(fixture, expectedOrigins: []), signers: [signer])
    #expect(refusal(fixture, .multisigned, data: empty)?.code == .invalidRequest)
  }

  @Test func unknownTransactionDataTypeInASignedRequestIsRefused() throws {
    let fixture = try Fixture()
    let entry: JSONValue = ["type": "org.example.unknown", "credential_ids": ["pid"]]
    for signing in [RequestSigning.signed(fixture.signer), .multisigned([fixture.signer])] {
      let sent = try fixture.makeRequest(signing, .dcAPI, transactionData: [entry])
      let error = refusal(fixture, sent.protocolID, data: sent.data)
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.errorResponse?.error == .invalidTransactionData)
    }
  }

  // MARK: - client_id beside the request object

  @Test func outerClientIDThatDiffersFromTheRequestObjectIsRefused() throws {
    let fixture = try Fixture()
    for signing in [RequestSigning.signed(fixture.signer), .multisigned([fixture.signer])] {
      let sent = try fixture.makeRequest(signing, .dcAPI)
      let same = sent.data.setting("client_id", to: "x509_san_dns:verifier.example")
      #expect(throws: Never.self) { try fixture.parse(protocol: sent.protocolID, data: same) }
      for outer: JSONValue in ["x509_san_dns:other.example", "verifier.example", 5] {
        let error = refusal(
          fixture, sent.protocolID, data: sent.data.setting("client_id", to: outer))
        #expect(error?.code == .invalidRequest)
        #expect(error?.errorResponse?.error == .invalidRequest)
      }
    }
  }

  // MARK: - HAIP 1.0: no trust anchor in x5c, no self-signed signing certificate

  @Test func x5cThatCarriesTheTrustAnchorIsRefused() throws {
    let fixture = try Fixture()
    let data = try RequestRefusalTests.signed(
      try RequestRefusalTests.signedPayload(fixture),
      header: RequestRefusalTests.header([fixture.verifierCertificate, fixture.verifierRoot]),
      key: fixture.verifierKey)
    let error = refusal(fixture, .signed, data: data)
    #expect(error?.code == .untrustedVerifier)
    #expect(error?.errorResponse?.error == .invalidClient)
    let payload = try Self.multisignedPayload(fixture)
    let multi = try Self.multisigned(
      payload,
      signers: [
        (
          fixture.verifierKey, [fixture.verifierCertificate, fixture.verifierRoot],
          "x509_san_dns:verifier.example"
        )
      ])
    #expect(refusal(fixture, .multisigned, data: multi)?.code == .untrustedVerifier)
  }

  @Test func x5cThatCarriesAnyRootIsRefused() throws {
    let fixture = try Fixture()
    // A self-signed root of another PKI after the leaf: still a trust anchor in x5c.
    let otherKey = try ECPrivateKey(curve: .p256)
    let otherRoot = try CertificateBuilder.readerRoot(
      commonName: "Other Root", publicKey: otherKey.publicKey,
      notBefore: fixture.now.addingTimeInterval(-3600),
      notAfter: fixture.now.addingTimeInterval(86_400)
    ).selfSigned(signer: otherKey)
    let data = try RequestRefusalTests.signed(
      try RequestRefusalTests.signedPayload(fixture),
      header: RequestRefusalTests.header([fixture.verifierCertificate, otherRoot]),
      key: fixture.verifierKey)
    #expect(refusal(fixture, .signed, data: data)?.code == .untrustedVerifier)
  }

  @Test func leafConfiguredAsTrustAnchorIsRefused() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.signed(fixture.signer), .dcAPI)
    // Direct trust in the signing certificate: x5c then holds a trust anchor.
    let error = refusal(
      fixture, .signed, data: sent.data,
      anchors: [fixture.verifierCertificate, fixture.verifierRoot])
    #expect(error?.code == .untrustedVerifier)
  }

  @Test func selfSignedSigningCertificateIsRefusedEvenWhenPinned() throws {
    let fixture = try Fixture()
    let key = try ECPrivateKey(curve: .p256)
    let selfSigned = try CertificateBuilder.openID4VPVerifier(
      dnsName: Fixture.dnsName, publicKey: key.publicKey,
      notBefore: fixture.now.addingTimeInterval(-3600),
      notAfter: fixture.now.addingTimeInterval(86_400)
    ).selfSigned(signer: key)
    let signer = RequestSigner.x509SANDNS(
      dnsName: Fixture.dnsName, certificateChain: [selfSigned], signer: key)
    let sent = try fixture.makeRequest(.signed(signer), .dcAPI)
    let error = refusal(fixture, .signed, data: sent.data, anchors: [selfSigned])
    #expect(error?.code == .untrustedVerifier)
    #expect(error?.reason.contains("self-signed") == true)
  }

  @Test func verifierRequestLeavesTheRootOutOfX5c() throws {
    let fixture = try Fixture()
    let full = RequestSigner.x509SANDNS(
      dnsName: Fixture.dnsName,
      certificateChain: [fixture.verifierCertificate, fixture.verifierRoot],
      signer: fixture.verifierKey)
    for signing in [RequestSigning.signed(full), .multisigned([full])] {
      let sent = try fixture.makeRequest(signing, .dcAPI)
      #expect(throws: Never.self) { try fixture.parse(sent) }
    }
  }

  // MARK: - x509_san_dns compares DNS names without case (RFC 4343)

  @Test func sanDNSClientIDIgnoresLetterCase() throws {
    let fixture = try Fixture()
    let signer = RequestSigner(
      clientID: "x509_san_dns:Verifier.EXAMPLE", certificateChain: [fixture.verifierCertificate],
      signer: fixture.verifierKey)
    let request = try fixture.parse(try fixture.makeRequest(.signed(signer), .dcAPI))
    #expect(request.verifier.clientID?.rawValue == "x509_san_dns:Verifier.EXAMPLE")
  }

  // MARK: - Response encryption key and enc (OpenID4VP 1.0 §8.3)

  @Test func usableKeyIsChosenAmongKeysTheWalletCannotUse() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPIJWT)
    let good = try #require(sent.data["client_metadata"]?["jwks"]?["keys"]?[0])
    let other = JWK(publicKey: try ECPrivateKey(curve: .p256).publicKey, kid: "x").json
    let badLength = other.setting("x", to: .string(Base64URL.encode([1, 2, 3])))
    let offered: [JSONValue] = [
      ["kty": "RSA", "n": "sXch", "e": "AQAB", "kid": "rsa"],
      ["kty": "OKP", "crv": "X25519", "x": "hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo"],
      other.setting("use", to: "sig"), other.setting("alg", to: "ECDH-ES+A128KW"),
      JWK(publicKey: try ECPrivateKey(curve: .p384).publicKey, kid: "p384").json,
      other.setting("d", to: .string(Base64URL.encode([UInt8](repeating: 1, count: 32)))),
      badLength, good,
    ]
    let metadata = try #require(sent.data["client_metadata"])
      .setting("jwks", to: ["keys": .array(offered)])
    let request = try fixture.parse(
      protocol: .unsigned, data: sent.data.setting("client_metadata", to: metadata))
    #expect(request.responseEncryption?.key.json == good)
    // The response is encrypted to that key, named by its kid (§8.3): the verifier opens it.
    let response = try fixture.respond(to: request)
    let jwe = try #require(response.data["response"]?.string)
    let header = try JSONValue(
      parsing: try Base64URL.decode(String(try #require(jwe.split(separator: ".").first))))
    #expect(header["kid"] == good["kid"])
    let verified = try fixture.verify(response.data, state: sent.state)
    #expect(verified.credentials.count == 2)
  }

  @Test(
    arguments: [
      (["A128GCM", "A256GCM"], JWEEncryption.a256gcm), (["A256GCM", "A128GCM"], .a256gcm),
      (["A128GCM"], .a128gcm), (["A128CBC-HS256", "A128GCM"], .a128gcm),
      (["A128CBC-HS256", "A256GCM"], .a256gcm),
    ])
  func strongestOfferedEncIsPreferred(offered: [String], expected: JWEEncryption) throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPIJWT)
    let metadata = try #require(sent.data["client_metadata"])
      .setting("encrypted_response_enc_values_supported", to: .array(offered.map { .string($0) }))
    let request = try fixture.parse(
      protocol: .unsigned, data: sent.data.setting("client_metadata", to: metadata))
    #expect(request.responseEncryption?.enc == expected)
    let response = try fixture.respond(to: request)
    let jwe = try #require(response.data["response"]?.string)
    let header = try JSONValue(
      parsing: try Base64URL.decode(String(try #require(jwe.split(separator: ".").first))))
    #expect(header["enc"]?.string == expected.rawValue)
    #expect(try fixture.verify(response.data, state: sent.state).credentials.count == 2)
  }

  // MARK: - Response member spelling

  @Test func responseSpelledWithACapitalIsReadButNeverWritten() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPIJWT)
    let response = try fixture.respond(to: try fixture.parse(sent))
    #expect(response.data.object?.map(\.key) == ["response"])
    let jwe = try #require(response.data["response"])
    let capital: JSONValue = ["Response": jwe]
    #expect(try fixture.verify(capital, state: sent.state).credentials.count == 2)
    let neither: JSONValue = ["RESPONSE": jwe]
    #expect(
      openID4VPError { _ = try fixture.verify(neither, state: sent.state) }?.code
        == .invalidResponse)
  }
}
