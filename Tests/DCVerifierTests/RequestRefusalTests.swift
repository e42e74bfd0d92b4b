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

/// Requests the wallet must refuse, each with its typed error and the error response it reports.
struct RequestRefusalTests {
  /// The parameters of a fresh request, for tampering before signing.
  static func parameters(_ fixture: Fixture, _ mode: ResponseMode = .dcAPI) throws -> JSONValue {
    try fixture.makeRequest(.unsigned, mode).data
  }

  /// A compact signed request over `payload` with `header`, signed by `key`.
  static func signed(_ payload: JSONValue, header: JSONValue, key: ECPrivateKey) throws -> JSONValue
  {
    [
      "request": .string(
        try JWS.sign(payload: payload.serializedBytes(), protectedHeader: header, signer: key))
    ]
  }

  static func header(_ chain: [Certificate], typ: String = "oauth-authz-req+jwt") -> JSONValue {
    .object([("typ", .string(typ)), ("x5c", JWS.x5c(chain.map(\.derBytes)))])
  }

  static func signedPayload(
    _ fixture: Fixture, clientID: String = "x509_san_dns:verifier.example",
    expectedOrigins: JSONValue? = [.string(Fixture.origin)]
  ) throws -> JSONValue {
    var payload = try parameters(fixture).setting("client_id", to: .string(clientID))
    if let expectedOrigins { payload = payload.setting("expected_origins", to: expectedOrigins) }
    return payload
  }

  func refusal(
    _ fixture: Fixture, _ protocolID: OpenID4VPProtocol = .signed, data: JSONValue,
    origin: String = Fixture.origin,
    supportedTransactionDataTypes: Set<String> = [Fixture.paymentType]
  ) -> OpenID4VPError? {
    openID4VPError {
      _ = try fixture.parse(
        protocol: protocolID, data: data, origin: origin,
        supportedTransactionDataTypes: supportedTransactionDataTypes)
    }
  }

  @Test func originNotInExpectedOrigins() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.signed(fixture.signer), .dcAPI)
    let error = refusal(fixture, data: sent.data, origin: "https://attacker.example")
    #expect(error?.code == .originMismatch)
    #expect(error?.errorResponse?.error == .invalidRequest)
    // Plain string comparison against the serialized origin: an expected_origins entry with a
    // trailing slash is another origin. (The origin itself is a WebOrigin, already serialized.)
    let slashed = try Self.signed(
      try Self.signedPayload(fixture, expectedOrigins: [.string(Fixture.origin + "/")]),
      header: Self.header([fixture.verifierCertificate]), key: fixture.verifierKey)
    #expect(refusal(fixture, data: slashed)?.code == .originMismatch)
  }

  @Test func emptyOrMissingExpectedOrigins() throws {
    let fixture = try Fixture()
    let chain = [fixture.verifierCertificate]
    let empty = try Self.signed(
      try Self.signedPayload(fixture, expectedOrigins: []), header: Self.header(chain),
      key: fixture.verifierKey)
    #expect(refusal(fixture, data: empty)?.code == .invalidRequest)
    let missing = try Self.signed(
      try Self.signedPayload(fixture, expectedOrigins: nil), header: Self.header(chain),
      key: fixture.verifierKey)
    let error = refusal(fixture, data: missing)
    #expect(error?.code == .invalidRequest)
    #expect(error?.errorResponse?.error == .invalidRequest)
  }

  @Test func badSignature() throws {
    let fixture = try Fixture()
    // Signed by a key other than the x5c leaf's.
    let data = try Self.signed(
      try Self.signedPayload(fixture), header: Self.header([fixture.verifierCertificate]),
      key: try ECPrivateKey(curve: .p256))
    #expect(refusal(fixture, data: data)?.code == .invalidRequestSignature)
    // A changed payload (still a valid request object) under a genuine signature.
    let good = try fixture.makeRequest(.signed(fixture.signer), .dcAPI)
    let parts = try #require(good.data["request"]?.string).split(separator: ".").map(String.init)
    let payload = try JSONValue(parsing: try Base64URL.decode(parts[1]))
      .setting("nonce", to: "attacker-chosen")
    let tampered = [parts[0], Base64URL.encode(payload.serializedBytes()), parts[2]].joined(
      separator: ".")
    let error = refusal(fixture, data: ["request": .string(tampered)])
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.reason.hasPrefix("request signature:") == true)
    // A payload that is no longer JSON is malformed before any signature is checked.
    var garbled = try Base64URL.decode(parts[1])
    garbled[0] = UInt8(ascii: "[")
    let notJSON = [parts[0], Base64URL.encode(garbled), parts[2]].joined(separator: ".")
    #expect(refusal(fixture, data: ["request": .string(notJSON)])?.code == .malformed)
  }

  @Test func sanDoesNotMatchClientID() throws {
    let fixture = try Fixture()
    let data = try Self.signed(
      try Self.signedPayload(fixture, clientID: "x509_san_dns:bank.example"),
      header: Self.header([fixture.verifierCertificate]), key: fixture.verifierKey)
    let error = refusal(fixture, data: data)
    #expect(error?.code == .untrustedVerifier)
    #expect(error?.errorResponse?.error == .invalidClient)
  }

  @Test func x509HashMismatch() throws {
    let fixture = try Fixture()
    let data = try Self.signed(
      try Self.signedPayload(
        fixture, clientID: "x509_hash:" + Base64URL.encode([UInt8](repeating: 7, count: 32))),
      header: Self.header([fixture.verifierCertificate]), key: fixture.verifierKey)
    #expect(refusal(fixture, data: data)?.code == .untrustedVerifier)
  }

  @Test func untrustedChain() throws {
    let fixture = try Fixture()
    let signer = RequestSigner.x509SANDNS(
      dnsName: Fixture.dnsName, certificateChain: [fixture.rogueCertificate],
      signer: fixture.rogueKey)
    let sent = try fixture.makeRequest(.signed(signer), .dcAPI)
    #expect(refusal(fixture, data: sent.data)?.code == .untrustedVerifier)
  }

  @Test(arguments: [
    "redirect_uri:https://verifier.example/cb", "decentralized_identifier:did:example:123",
    "verifier_attestation:verifier.example", "openid_federation:https://verifier.example",
    "verifier.example",
  ])
  func unsupportedPrefix(clientID: String) throws {
    let fixture = try Fixture()
    let data = try Self.signed(
      try Self.signedPayload(fixture, clientID: clientID),
      header: Self.header([fixture.verifierCertificate]), key: fixture.verifierKey)
    let error = refusal(fixture, data: data)
    #expect(error?.code == .unsupportedClientIDPrefix)
    #expect(error?.errorResponse?.error == .invalidRequest)
  }

  @Test func algNone() throws {
    let fixture = try Fixture()
    let header = JSONValue.object([("alg", "none"), ("typ", "oauth-authz-req+jwt")])
    let compact =
      Base64URL.encode(header.serializedBytes()) + "."
      + Base64URL.encode(try Self.signedPayload(fixture).serializedBytes()) + "."
    let error = refusal(fixture, data: ["request": .string(compact)])
    #expect(error?.code == .invalidRequestSignature)
  }

  @Test(arguments: ["JWT", "oauth-authz-req+jwt+extra", ""])
  func wrongType(typ: String) throws {
    let fixture = try Fixture()
    let data = try Self.signed(
      try Self.signedPayload(fixture), header: Self.header([fixture.verifierCertificate], typ: typ),
      key: fixture.verifierKey)
    #expect(refusal(fixture, data: data)?.code == .invalidRequestSignature)
  }

  @Test func multisignedWithNoAcceptableSignature() throws {
    let fixture = try Fixture()
    let rogue = RequestSigner.x509SANDNS(
      dnsName: Fixture.dnsName, certificateChain: [fixture.rogueCertificate],
      signer: fixture.rogueKey)
    let redirect = RequestSigner(
      clientID: "redirect_uri:https://verifier.example/cb",
      certificateChain: [fixture.verifierCertificate], signer: fixture.verifierKey)
    let sent = try fixture.makeRequest(.multisigned([redirect, rogue]), .dcAPI)
    let error = refusal(fixture, .multisigned, data: sent.data)
    #expect(error?.code == .untrustedVerifier)
    #expect(error?.reason.contains("[0]") == true)
    #expect(error?.reason.contains("[1]") == true)

    let onlyUnsupported = try fixture.makeRequest(.multisigned([redirect]), .dcAPI)
    #expect(
      refusal(fixture, .multisigned, data: onlyUnsupported.data)?.code == .unsupportedClientIDPrefix
    )
  }

  @Test func multisignedFirstUnacceptableSecondAccepted() throws {
    let fixture = try Fixture()
    let rogue = RequestSigner.x509SANDNS(
      dnsName: Fixture.dnsName, certificateChain: [fixture.rogueCertificate],
      signer: fixture.rogueKey)
    let sent = try fixture.makeRequest(.multisigned([rogue, fixture.signer]), .dcAPIJWT)
    let request = try fixture.parse(sent)
    guard case .authenticated(let verifier) = request.verifier else {
      Issue.record("not authenticated")
      return
    }
    #expect(verifier.signatureIndex == 1)
    #expect(verifier.clientID.rawValue == "x509_san_dns:verifier.example")
    let verified = try fixture.verify(try fixture.respond(to: request).data, state: sent.state)
    #expect(verified.credentials.count == 2)
  }

  @Test func multisignedPayloadMustNotCarryClientID() throws {
    let fixture = try Fixture()
    let payload = try Self.signedPayload(fixture)
    let data = try JWSJSON.sign(
      payload: payload.serializedBytes(),
      signers: [
        JWSJSON.SignerEntry(
          protectedHeader: .object([
            ("typ", "oauth-authz-req+jwt"), ("client_id", "x509_san_dns:verifier.example"),
            ("x5c", JWS.x5c([fixture.verifierCertificate.derBytes])),
          ]), signer: fixture.verifierKey)
      ])
    #expect(refusal(fixture, .multisigned, data: data)?.code == .invalidRequest)
  }

  @Test func unknownTransactionDataType() throws {
    let fixture = try Fixture()
    let entry: JSONValue = ["type": "org.example.unknown", "credential_ids": ["pid"]]
    let sent = try fixture.makeRequest(.unsigned, .dcAPI, transactionData: [entry])
    let error = refusal(fixture, .unsigned, data: sent.data)
    #expect(error?.code == .unsupportedTransactionData)
    #expect(error?.errorResponse?.error == .invalidTransactionData)
    // An entry naming a Credential Query that does not exist.
    let stray = Base64URL.encode(
      JSONValue.object([("type", .string(Fixture.paymentType)), ("credential_ids", ["nope"])])
        .serializedBytes())
    let data = sent.data.setting("transaction_data", to: [.string(stray)])
    #expect(refusal(fixture, .unsigned, data: data)?.code == .unsupportedTransactionData)
  }

  @Test(arguments: ["direct_post", "dc_api.jws", "fragment"])
  func unsupportedResponseMode(mode: String) throws {
    let fixture = try Fixture()
    let data = try Self.parameters(fixture).setting("response_mode", to: .string(mode))
    let error = refusal(fixture, .unsigned, data: data)
    #expect(error?.code == .unsupportedResponseMode)
    #expect(error?.errorResponse?.error == .invalidRequest)
  }

  @Test func noUsableEncryptionKey() throws {
    let fixture = try Fixture()
    let params = try Self.parameters(fixture, .dcAPIJWT)
    let jwk = try #require(params["client_metadata"]?["jwks"]?["keys"]?[0])
    for bad in [
      jwk.setting("use", to: "sig"), jwk.setting("alg", to: "ECDH-ES+A128KW"),
      JWK(publicKey: try ECPrivateKey(curve: .p384).publicKey).json,
    ] {
      let metadata = try #require(params["client_metadata"])
        .setting("jwks", to: ["keys": [bad]])
      let error = refusal(
        fixture, .unsigned, data: params.setting("client_metadata", to: metadata))
      #expect(error?.code == .noEncryptionKey)
    }
    let noMetadata = params.removing("client_metadata")
    #expect(refusal(fixture, .unsigned, data: noMetadata)?.code == .noEncryptionKey)
  }

  @Test func noSupportedEncValue() throws {
    let fixture = try Fixture()
    let params = try Self.parameters(fixture, .dcAPIJWT)
    let metadata = try #require(params["client_metadata"])
      .setting("encrypted_response_enc_values_supported", to: ["A192GCM", "XC20P"])
    let error = refusal(fixture, .unsigned, data: params.setting("client_metadata", to: metadata))
    #expect(error?.code == .unsupportedEncryption)
    #expect(error?.errorResponse?.error == .invalidRequest)
  }

  @Test func missingOrInvalidParameters() throws {
    let fixture = try Fixture()
    let params = try Self.parameters(fixture)
    for data in [
      params.removing("nonce"), params.removing("dcql_query"),
      params.setting("response_type", to: "code"),
      params.setting("dcql_query", to: ["credentials": []]),
    ] {
      #expect(refusal(fixture, .unsigned, data: data)?.code == .invalidRequest)
    }
    #expect(refusal(fixture, .unsigned, data: "not an object")?.code == .malformed)
    #expect(refusal(fixture, .signed, data: ["request": "a.b"])?.code == .malformed)
    #expect(refusal(fixture, .signed, data: ["request": "a.b"])?.errorResponse == nil)
  }

  @Test func noSupportedVPFormat() throws {
    let fixture = try Fixture()
    let params = try Self.parameters(fixture)
    let metadata = try #require(params["client_metadata"])
      .setting("vp_formats_supported", to: ["jwt_vc_json": ["alg_values": ["ES256"]]])
    let error = refusal(fixture, .unsigned, data: params.setting("client_metadata", to: metadata))
    #expect(error?.code == .vpFormatsNotSupported)
    #expect(error?.errorResponse?.data["error"] == "vp_formats_not_supported")
  }

  @Test func verifierInfoTravelsWithTheRequest() throws {
    let fixture = try Fixture()
    let info: JSONValue = [["format": "jwt", "data": "eyJ..."]]
    for signing in [RequestSigning.signed(fixture.signer), .multisigned([fixture.signer])] {
      let sent = try VerifierRequest(
        dcqlQuery: Fixture.query, origin: Fixture.origin, responseMode: .dcAPI, signing: signing,
        verifierInfo: info)
      #expect(try fixture.parse(sent).verifierInfo == info)
    }
  }
}
