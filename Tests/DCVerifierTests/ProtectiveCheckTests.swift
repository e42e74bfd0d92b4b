import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCSDJWT
import DCVerifier
import DCX509
import Foundation
import Testing

/// Transaction data, signed-request and response checks, each exercised by an input that passes
/// every earlier check, so the test fails if the check it names is removed.
@Suite("OpenID4VP protective checks")
struct ProtectiveCheckTests {
  static let ids: Set<String> = ["pid", "mdl"]

  static func encode(_ json: JSONValue) -> String { Base64URL.encode(json.serializedBytes()) }

  /// The OpenID4VPError `TransactionData` throws for an entry.
  static func entryRefusal(_ json: JSONValue) -> OpenID4VPError? {
    openID4VPError { _ = try TransactionData(encoded: encode(json), credentialQueryIDs: ids) }
  }

  // MARK: - Transaction data, wallet side (OpenID4VP 1.0 §5.1, §8.4)

  @Test("A transaction data entry that allows sha-256 is accepted (the baseline)")
  func transactionDataBaseline() throws {
    for algorithms: JSONValue in [["sha-256"], ["sha-384", "sha-256"]] {
      let entry = try TransactionData(
        encoded: Self.encode(
          [
            "type": "org.example.payment", "credential_ids": ["pid"],
            "transaction_data_hashes_alg": algorithms,
          ]),
        credentialQueryIDs: Self.ids)
      #expect(entry.type == "org.example.payment")
      #expect(entry.credentialIDs == ["pid"])
    }
  }

  @Test("transaction_data_hashes_alg without sha-256 is refused")
  func hashesAlgWithoutSHA256() {
    for algorithms: JSONValue in [["sha-384"], [], "sha-256", ["SHA-256"]] {
      let error = Self.entryRefusal(
        ["type": "t", "credential_ids": ["pid"], "transaction_data_hashes_alg": algorithms])
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason == "transaction_data_hashes_alg does not allow sha-256")
    }
  }

  @Test("An entry without a string type is refused")
  func missingType() {
    for entry: JSONValue in [["credential_ids": ["pid"]], ["type": 7, "credential_ids": ["pid"]]] {
      let error = Self.entryRefusal(entry)
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason == "transaction_data entry needs a string type")
    }
  }

  @Test("Missing, empty or non-array credential_ids are refused")
  func emptyCredentialIDs() {
    for entry: JSONValue in [
      ["type": "t"], ["type": "t", "credential_ids": []], ["type": "t", "credential_ids": "pid"],
    ] {
      let error = Self.entryRefusal(entry)
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason == "transaction_data credential_ids must be a non-empty array")
    }
  }

  @Test("Non-string credential_ids entries are refused")
  func nonStringCredentialID() {
    for id: JSONValue in [7, ["pid"], .null] {
      let error = Self.entryRefusal(["type": "t", "credential_ids": ["pid", id]])
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason.hasPrefix("transaction_data credential_ids names") == true)
    }
  }

  @Test("transaction_data that is not a non-empty array of strings is refused")
  func transactionDataShape() throws {
    let fixture = try Fixture()
    let params = try fixture.makeRequest(.unsigned, .dcAPI).data
    let good = Self.encode(["type": .string(Fixture.paymentType), "credential_ids": ["pid"]])
    // The baseline: one well-formed entry parses.
    _ = try fixture.parse(
      protocol: .unsigned, data: params.setting("transaction_data", to: [.string(good)]))
    let cases: [(JSONValue, String)] = [
      (.string(good), "transaction_data must be a non-empty array"),
      ([], "transaction_data must be a non-empty array"),
      ([.string(good), 7], "transaction_data holds strings"),
      (
        [["type": .string(Fixture.paymentType), "credential_ids": ["pid"]]],
        "transaction_data holds strings"
      ),
    ]
    for (value, reason) in cases {
      let error = openID4VPError {
        _ = try fixture.parse(
          protocol: .unsigned, data: params.setting("transaction_data", to: value))
      }
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason == reason)
    }
  }

  @Test("A transaction data entry that is not base64url JSON is refused")
  func entryNotJSON() {
    for encoded in ["not base64url!", Base64URL.encode(Array("not json".utf8))] {
      let error = openID4VPError {
        _ = try TransactionData(encoded: encoded, credentialQueryIDs: Self.ids)
      }
      #expect(error?.code == .unsupportedTransactionData)
      #expect(error?.reason.hasPrefix("transaction_data entry is not base64url JSON") == true)
    }
  }

  @Test("A request without response_mode or with an empty nonce is refused")
  func responseModeAndNonce() throws {
    let fixture = try Fixture()
    let params = try fixture.makeRequest(.unsigned, .dcAPI).data
    let cases: [(JSONValue, String)] = [
      (params.removing("response_mode"), "response_mode is required over the DC API"),
      (params.setting("nonce", to: ""), "nonce is required"),
      (params.setting("nonce", to: 7), "nonce is required"),
    ]
    for (data, reason) in cases {
      let error = openID4VPError { _ = try fixture.parse(protocol: .unsigned, data: data) }
      #expect(error?.code == .invalidRequest)
      #expect(error?.reason == reason)
    }
  }

  @Test(
    "A response that is not a JSON object, or answers a format the verifier cannot check, is refused"
  )
  func responseShapeAndFormat() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    for data: JSONValue in ["vp_token", [["vp_token": [:]]], 7] {
      let error = openID4VPError { _ = try fixture.verify(data, state: sent.state) }
      #expect(error?.code == .invalidResponse)
      #expect(error?.reason == "response data must be a JSON object")
    }
    // A state whose query asks for a format this module does not verify.
    let query: JSONValue = [
      "credentials": [["id": "vc", "format": "jwt_vc_json", "meta": ["type_values": [["X"]]]]]
    ]
    let state = VerifierState(
      protocolID: sent.state.protocolID, origin: Fixture.origin, nonce: sent.state.nonce,
      responseMode: .dcAPI, encryptionKey: nil, dcqlQuery: query)
    let error = openID4VPError {
      _ = try fixture.verify(["vp_token": ["vc": ["eyJ.e30.sig"]]], state: state)
    }
    #expect(error?.code == .invalidResponse)
    #expect(error?.reason == "format jwt_vc_json cannot be verified here")
  }

  /// OpenID4VP 1.0 §5.1 `client_metadata`: malformed members refuse the request.
  @Test("Malformed client_metadata members are refused")
  func clientMetadataShape() {
    let cases: [(JSONValue, String)] = [
      ("not an object", "client_metadata must be an object"),
      (["jwks": ["key": []]], "jwks"),
      (["jwks": ["keys": "none"]], "jwks"),
      (["encrypted_response_enc_values_supported": []], "encrypted_response_enc_values_supported"),
      (
        ["encrypted_response_enc_values_supported": "A128GCM"],
        "encrypted_response_enc_values_supported"
      ),
      (["encrypted_response_enc_values_supported": [1]], "encrypted_response_enc_values_supported"),
      (["vp_formats_supported": ["mso_mdoc"]], "vp_formats_supported"),
    ]
    for (json, fragment) in cases {
      let error = openID4VPError { _ = try ClientMetadata(json: json) }
      #expect(error?.code == .invalidRequest, "\(json)")
      #expect(error?.reason.contains(fragment) == true, "\(json): \(String(describing: error))")
    }
    // The baseline: absent metadata and a well-formed one read.
    #expect((try? ClientMetadata(json: nil)) != nil)
    #expect(
      (try? ClientMetadata(json: ["encrypted_response_enc_values_supported": ["A256GCM"]])) != nil)
  }

  // MARK: - Transaction data and key binding, verifier side

  /// A request with one payment entry for `pid`, the wallet's genuine answer, and its state.
  struct Answered {
    let fixture: Fixture
    let state: VerifierState
    let good: JSONValue
    let entry: String

    init() throws {
      fixture = try Fixture()
      let sent = try fixture.makeRequest(
        .unsigned, .dcAPI,
        transactionData: [["type": .string(Fixture.paymentType), "credential_ids": ["pid"]]])
      state = sent.state
      entry = try #require(state.transactionData.first)
      good = try fixture.respond(to: try fixture.parse(sent)).vpToken
    }

    /// The PID presented with a KB-JWT carrying `extra` claims beside the required ones.
    func pid(kbClaims extra: [(key: String, value: JSONValue)]) throws -> String {
      let body = try fixture.pid.present(
        disclosing: ["given_name", "family_name", "address.locality"], keyBinding: nil)
      var claims: [(key: String, value: JSONValue)] = [
        ("iat", .integer(Int64(fixture.now.timeIntervalSince1970))),
        ("aud", .string("origin:" + Fixture.origin)), ("nonce", .string(state.nonce)),
        ("sd_hash", .string(Base64URL.encode(SHA256.hash(data: Array(body.utf8))))),
      ]
      claims += extra
      let kb = try JWS.sign(
        payload: JSONValue.object(claims).serializedBytes(),
        protectedHeader: .object([("typ", "kb+jwt"), ("alg", "ES256")]),
        signer: fixture.holderKey)
      return body + kb
    }

    func verify(pid: String, state: VerifierState? = nil) throws -> VerifiedAuthorizationResponse {
      try fixture.verify(
        ["vp_token": good.setting("pid", to: [.string(pid)])], state: state ?? self.state)
    }

    func refusal(pid: String, state: VerifierState? = nil) -> OpenID4VPError? {
      openID4VPError { _ = try verify(pid: pid, state: state) }
    }

    var hash: String { Base64URL.encode(SHA256.hash(data: Array(entry.utf8))) }
  }

  @Test("The verifier accepts the wallet's own binding and a hand-made one (the baseline)")
  func verifierBaseline() throws {
    let answered = try Answered()
    let verified = try answered.fixture.verify(["vp_token": answered.good], state: answered.state)
    #expect(
      verified.credentials["pid"]?[0].report.checks.last == .transactionDataBound)
    for extra: [(key: String, value: JSONValue)] in [
      [("transaction_data_hashes", [.string(answered.hash)])],
      [
        ("transaction_data_hashes", [.string(answered.hash)]),
        ("transaction_data_hashes_alg", "sha-256"),
      ],
    ] {
      _ = try answered.verify(pid: try answered.pid(kbClaims: extra))
    }
  }

  @Test("A KB-JWT naming a hash algorithm other than sha-256 is refused by the verifier")
  func verifierHashAlgorithm() throws {
    let answered = try Answered()
    let pid = try answered.pid(kbClaims: [
      ("transaction_data_hashes", [.string(answered.hash)]),
      ("transaction_data_hashes_alg", "sha-384"),
    ])
    let error = answered.refusal(pid: pid)
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason == "pid: transaction_data_hashes_alg is not sha-256")
  }

  @Test("Malformed transaction_data_hashes or _alg in the KB-JWT are refused")
  func malformedKeyBindingHashes() throws {
    let answered = try Answered()
    let cases: [([(key: String, value: JSONValue)], String)] = [
      (
        [("transaction_data_hashes", .string(answered.hash))],
        "transaction_data_hashes must be a non-empty array"
      ),
      ([("transaction_data_hashes", [])], "transaction_data_hashes must be a non-empty array"),
      (
        [("transaction_data_hashes", [.string(answered.hash), 7])],
        "transaction_data_hashes must hold strings"
      ),
      (
        [
          ("transaction_data_hashes", [.string(answered.hash)]),
          ("transaction_data_hashes_alg", ["sha-256"]),
        ],
        "transaction_data_hashes_alg must be a string"
      ),
    ]
    for (extra, reason) in cases {
      let error = answered.refusal(pid: try answered.pid(kbClaims: extra))
      #expect(error?.code == .invalidPresentation)
      #expect(error?.reason.hasSuffix(reason) == true, "\(String(describing: error))")
    }
    // Missing hashes where the request carried transaction data.
    let missing = answered.refusal(pid: try answered.pid(kbClaims: []))
    #expect(missing?.reason == "pid: transaction_data_hashes do not match the request")
  }

  @Test("A presentation without a KB-JWT is refused when binding or transaction data asks for one")
  func keyBindingRequired() throws {
    let answered = try Answered()
    let fixture = answered.fixture
    // A PID issued without cnf, so the SD-JWT layer accepts it without a KB-JWT.
    let unbound = try SDJWTIssuer.issue(
      claims: [
        "given_name": "Erika", "family_name": "Mustermann", "address": ["locality": "Berlin"],
      ],
      selectivelyDisclosable: ["given_name", "family_name", "address.locality"],
      holderKey: nil, vct: Fixture.pidType, issuer: "https://pid.example",
      issuedAt: fixture.now.addingTimeInterval(-60),
      expiresAt: fixture.now.addingTimeInterval(3600),
      signer: fixture.pidIssuerKey, x5c: [fixture.pidIssuer], random: SecureRandom())
    let presentation = try unbound.present(
      disclosing: ["given_name", "family_name", "address.locality"], keyBinding: nil)
    // Default query: require_cryptographic_holder_binding is true.
    let plain = VerifierState(
      protocolID: answered.state.protocolID, origin: Fixture.origin, nonce: answered.state.nonce,
      responseMode: .dcAPI, encryptionKey: nil, dcqlQuery: answered.state.dcqlQuery)
    let required = answered.refusal(pid: presentation, state: plain)
    #expect(required?.code == .invalidPresentation)
    #expect(required?.reason == "pid: holder binding (KB-JWT) is required")
    // A query that waives holder binding still needs it when transaction data names the query.
    var query = answered.state.dcqlQuery
    let pidQuery = try #require(query["credentials"]?[0]).setting(
      "require_cryptographic_holder_binding", to: false)
    query = query.setting("credentials", to: [pidQuery, try #require(query["credentials"]?[1])])
    let waived = VerifierState(
      protocolID: answered.state.protocolID, origin: Fixture.origin, nonce: answered.state.nonce,
      responseMode: .dcAPI, encryptionKey: nil, dcqlQuery: query)
    _ = try answered.verify(pid: presentation, state: waived)
    let withData = VerifierState(
      protocolID: answered.state.protocolID, origin: Fixture.origin, nonce: answered.state.nonce,
      responseMode: .dcAPI, encryptionKey: nil, dcqlQuery: query,
      transactionData: answered.state.transactionData)
    let bound = answered.refusal(pid: presentation, state: withData)
    #expect(bound?.reason == "pid: holder binding (KB-JWT) is required")
  }

  /// §8.4: the KB-JWT binds every entry for its query, not a subset.
  @Test("A KB-JWT binding only some of the query's transaction data is refused")
  func keyBindingBindsEveryEntry() throws {
    let fixture = try Fixture()
    let entries: [JSONValue] = [
      ["type": .string(Fixture.paymentType), "credential_ids": ["pid"], "amount": "1"],
      ["type": .string(Fixture.paymentType), "credential_ids": ["pid"], "amount": "2"],
    ]
    let sent = try fixture.makeRequest(.unsigned, .dcAPI, transactionData: entries)
    let good = try fixture.respond(to: try fixture.parse(sent)).vpToken
    // The baseline: the wallet binds both entries and the verifier accepts.
    _ = try fixture.verify(["vp_token": good], state: sent.state)
    let hashes = sent.state.transactionData.map {
      Base64URL.encode(SHA256.hash(data: Array($0.utf8)))
    }
    #expect(hashes.count == 2)
    let body = try fixture.pid.present(
      disclosing: ["given_name", "family_name", "address.locality"],
      keyBinding: KeyBinding(
        signer: fixture.holderKey, audience: "origin:" + Fixture.origin, nonce: sent.state.nonce,
        issuedAt: fixture.now, transactionDataHashes: [hashes[0]]))
    let error = openID4VPError {
      _ = try fixture.verify(
        ["vp_token": good.setting("pid", to: [.string(body)])], state: sent.state)
    }
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason == "pid: transaction_data_hashes do not match the request")
  }

  @Test("An empty or non-array vp_token entry is refused")
  func emptyPresentationList() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let good = try fixture.respond(to: try fixture.parse(sent)).vpToken
    for value: JSONValue in [[], "not an array"] {
      let error = openID4VPError {
        _ = try fixture.verify(["vp_token": good.setting("mdl", to: value)], state: sent.state)
      }
      #expect(error?.code == .invalidResponse)
      #expect(error?.reason == "vp_token.mdl must be a non-empty array")
    }
  }

  // MARK: - The verifier's mdoc DeviceResponse (OpenID4VP 1.0 Appendix B.2.6)

  @Test("An mdoc DeviceResponse with a non-zero status or not exactly one document is refused")
  func mdocStatusAndDocumentCount() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let good = try fixture.respond(to: try fixture.parse(sent)).vpToken
    let response = try DeviceResponse(
      bytes: try Base64URL.decode(try #require(good["mdl"]?[0]?.string)))
    let document = try #require(response.documents.first)
    // The rebuilt baseline verifies: the device signature does not cover the wrapper.
    func token(_ wrapper: DeviceResponse) -> JSONValue {
      ["vp_token": good.setting("mdl", to: [.string(Base64URL.encode(wrapper.bytes))])]
    }
    _ = try fixture.verify(token(DeviceResponse(documents: [document])), state: sent.state)
    let cases: [(DeviceResponse, String)] = [
      (DeviceResponse(documents: [document], status: 10), "status 10, 1 documents"),
      (DeviceResponse(documents: [document, document]), "status 0, 2 documents"),
      (DeviceResponse(documents: []), "status 0, 0 documents"),
    ]
    for (wrapper, detail) in cases {
      let error = openID4VPError { _ = try fixture.verify(token(wrapper), state: sent.state) }
      #expect(error?.code == .invalidPresentation)
      #expect(
        error?.reason == "mdl: DeviceResponse must have status 0 and one document (\(detail))")
    }
  }

  // MARK: - Signed requests (OpenID4VP 1.0 §5.9.3, Appendix A.3.2)

  /// A self-signed Ed25519 certificate for verifier.example (made with `openssl req -x509
  /// -newkey ed25519 -subj /CN=verifier.example -addext subjectAltName=DNS:verifier.example`).
  static let ed25519Certificate =
    "MIIBajCCARygAwIBAgIUWWzCqYj3ZhxKN47FC0hBO6R3d2IwBQYDK2VwMBsxGTAXBgNVBAMMEHZlcmlmaWVyLmV4YW1wbGUwIBcNMjYxMjAxMDc0NDUzWhgPMjEyNjExMDcwNzQ0NTNaMBsxGTAXBgNVBAMMEHZlcmlmaWVyLmV4YW1wbGUwKjAFBgMrZXADIQCVHnhq8EDRPfD1gYhGJGtri23Eema1KSg/wmTzmxJEPqNwMG4wHQYDVR0OBBYEFMyFb1EyWCKFvG+2Tr9ZMZawNjb7MB8GA1UdIwQYMBaAFMyFb1EyWCKFvG+2Tr9ZMZawNjb7MA8GA1UdEwEB/wQFMAMBAf8wGwYDVR0RBBQwEoIQdmVyaWZpZXIuZXhhbXBsZTAFBgMrZXADQQBuVoU4GU2yZsdwCIhrb3PKZ0Tx/TSS/evakqOUFvGt37dX3U+G4cq/lVavq2eEzvNB57B34wgePMGAw7qWFrEA"

  func signedRefusal(_ fixture: Fixture, payload: JSONValue, header: JSONValue) throws
    -> OpenID4VPError?
  {
    let compact = try JWS.sign(
      payload: payload.serializedBytes(), protectedHeader: header, signer: fixture.verifierKey)
    return openID4VPError {
      _ = try fixture.parse(protocol: .signed, data: ["request": .string(compact)])
    }
  }

  @Test("A signed request without client_id, without x5c, or with a non-EC leaf is refused")
  func signedRequestIdentity() throws {
    let fixture = try Fixture()
    let payload = try RequestRefusalTests.signedPayload(fixture)
    let header = RequestRefusalTests.header([fixture.verifierCertificate])
    // The baseline: the same payload and header are accepted.
    _ = try fixture.parse(
      protocol: .signed,
      data: try RequestRefusalTests.signed(payload, header: header, key: fixture.verifierKey))

    for clientID: JSONValue? in [nil, 7, ""] {
      let body =
        clientID.map { payload.setting("client_id", to: $0) } ?? payload.removing("client_id")
      let error = try signedRefusal(fixture, payload: body, header: header)
      #expect(error?.code == .invalidRequest)
      #expect(error?.reason == "a signed request needs a string client_id")
    }

    let noX5C = try signedRefusal(
      fixture, payload: payload, header: .object([("typ", "oauth-authz-req+jwt")]))
    #expect(noX5C?.code == .invalidRequest)
    #expect(noX5C?.reason == "x509_san_dns requests carry the certificate in x5c")

    let ed25519 = try #require(Data(base64Encoded: Self.ed25519Certificate))
    _ = try Certificate(derEncoded: Array(ed25519))
    let nonEC = try signedRefusal(
      fixture, payload: payload,
      header: .object([("typ", "oauth-authz-req+jwt"), ("x5c", JWS.x5c([Array(ed25519)]))]))
    #expect(nonEC?.code == .invalidRequestSignature)
    #expect(nonEC?.reason == "the x5c leaf key is not an EC key")
  }
}
