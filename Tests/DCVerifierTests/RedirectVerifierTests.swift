import DCCBOR
import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCVerifier
import DCX509
import Foundation
import Testing

/// The redirect-flow verifier (OpenID4VP 1.0 §5.10, §8.2, §8.3): transactions, request objects
/// per Client Identifier Prefix, direct_post(.jwt) responses, results; each protective check
/// with a test that fails without it.
@Suite("Redirect verifier")
struct RedirectVerifierTests {
  // MARK: Round trips

  @Test(
    arguments: [DirectPostMode.directPost, .directPostJWT],
    [PresentationFlow.crossDevice, .sameDevice])
  func sdJWTRoundTrip(mode: DirectPostMode, flow: PresentationFlow) async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(flow: flow, responseMode: mode))
    #expect(created.authorizationRequestURI.hasPrefix("openid4vp://?client_id="))
    let uri = try RedirectFixture.parameters(created.authorizationRequestURI)
    #expect(uri["client_id"] == "x509_san_dns:verifier.example")
    #expect(uri["request_uri"]?.hasPrefix(RedirectFixture.base + "/request/") == true)
    #expect(uri["request_uri_method"] == nil)
    #expect(try await fixture.verifier.result(transactionID: created.transactionID) == .pending)

    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    #expect(parameters["response_mode"]?.string == mode.rawValue)
    let body = try fixture.responseBody(
      vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
      parameters: parameters, encrypt: mode == .directPostJWT)
    let response = try await fixture.post(body, to: parameters)
    #expect(response.status == 200)
    let answer = try JSONValue(parsing: response.body)
    let code: String?
    if flow == .sameDevice {
      let redirect = try #require(answer["redirect_uri"]?.string)
      #expect(
        redirect.hasPrefix(
          RedirectFixture.base + "/frontend?transaction_id=" + created.transactionID
            + "#response_code="))
      code = redirect.components(separatedBy: "#response_code=").last
    } else {
      #expect(answer == .object([]))
      code = nil
    }
    guard
      case .verified(let verified) = try await fixture.verifier.result(
        transactionID: created.transactionID, responseCode: code)
    else {
      Issue.record("the result is not verified")
      return
    }
    let pid = try #require(verified.credentials["pid"]?.first)
    #expect(pid.claim(["given_name"]) == "Erika")
    #expect(
      pid.report.checks.contains(.keyBindingToClient(clientID: "x509_san_dns:verifier.example")))
    #expect(verified.report.checks.contains(.responseDecrypted) == (mode == .directPostJWT))
  }

  @Test(arguments: [DirectPostMode.directPost, .directPostJWT])
  func mdocRoundTripBindsTheOpenID4VPHandover(mode: DirectPostMode) async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(RedirectFixture.mdlQuery, .init(responseMode: mode))
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let clientID = try #require(parameters["client_id"]?.string)
    let responseURI = try #require(parameters["response_uri"]?.string)
    let thumbprint = try parameters["client_metadata"]?["jwks"]?["keys"]?.array?.first.map {
      try JWK(json: $0).thumbprint()
    }
    #expect((thumbprint != nil) == (mode == .directPostJWT))
    let transcript = SessionTranscript(
      handover: Handover.openID4VP(
        clientID: clientID, nonce: parameters["nonce"]?.string ?? "", jwkThumbprint: thumbprint,
        responseURI: responseURI))
    let token: JSONValue = .object([
      ("mdl", .array([.string(try fixture.mdocPresentation(transcript: transcript))]))
    ])
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: token, state: parameters["state"]?.string ?? "", parameters: parameters,
        encrypt: mode == .directPostJWT), to: parameters)
    #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    guard
      case .verified(let verified) = try await fixture.verifier.result(
        transactionID: created.transactionID)
    else {
      Issue.record("the result is not verified")
      return
    }
    let mdl = try #require(verified.credentials["mdl"]?.first)
    #expect(
      mdl.report.checks.contains(
        .mdocRedirectHandoverDeviceSignature(clientID: clientID, responseURI: responseURI)))
  }

  // MARK: Request objects per prefix

  @Test func x509SANDNSRequestObjectIsSignedAndComplete() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery,
      .init(transactionData: [
        ["type": "org.example.payment", "credential_ids": ["pid"]]
      ]))
    let jws = try await fixture.fetch(created.authorizationRequestURI)
    #expect(jws.type == "oauth-authz-req+jwt")
    let leaf = try Certificate(derEncoded: try #require(jws.x5c?.first))
    #expect(leaf == fixture.verifierCertificate)
    // HAIP 1.0: the self-signed root is not sent.
    #expect(jws.x5c?.count == 1)
    try jws.verifySignature(with: fixture.verifierKey.publicKey)
    let claims = try JSONValue(parsing: jws.payload)
    #expect(claims["aud"]?.string == "https://self-issued.me/v2")
    #expect(claims["client_id"]?.string == "x509_san_dns:verifier.example")
    #expect(claims["response_type"]?.string == "vp_token")
    #expect(claims["response_mode"]?.string == "direct_post.jwt")
    #expect(claims["response_uri"]?.string?.hasPrefix(RedirectFixture.base + "/response/") == true)
    #expect(claims["dcql_query"] == RedirectFixture.pidQuery)
    #expect(claims["transaction_data"]?.array?.count == 1)
    #expect(claims["wallet_nonce"] == nil)
    let iat = try #require(claims["iat"]?.int)
    let exp = try #require(claims["exp"]?.int)
    #expect(iat == Int(fixture.clock.now.timeIntervalSince1970))
    #expect(exp == iat + 300)
    let nonce = try #require(claims["nonce"]?.string)
    let state = try #require(claims["state"]?.string)
    #expect(try Base64URL.decode(nonce).count == 32 && Base64URL.decode(state).count == 32)
    let metadata = try #require(claims["client_metadata"])
    let key = try JWK(json: try #require(metadata["jwks"]?["keys"]?.array?.first))
    #expect(key.crv == .p256 && !key.isPrivate && key.use == "enc" && key.alg == "ECDH-ES")
    #expect(metadata["encrypted_response_enc_values_supported"] == ["A128GCM", "A256GCM"])
  }

  @Test func x509HashClientIDIsTheLeafHash() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(clientIDPrefix: .x509Hash))
    let expected = "x509_hash:" + fixture.verifierCertificate.x509Hash
    #expect(
      try RedirectFixture.parameters(created.authorizationRequestURI)["client_id"] == expected)
    let jws = try await fixture.fetch(created.authorizationRequestURI)
    try jws.verifySignature(with: fixture.verifierKey.publicKey)
    #expect(try JSONValue(parsing: jws.payload)["client_id"]?.string == expected)
  }

  @Test func verifierAttestationRequestCarriesTheAttestationAndIsSignedByItsCnfKey() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(clientIDPrefix: .verifierAttestation))
    #expect(
      try RedirectFixture.parameters(created.authorizationRequestURI)["client_id"]
        == "verifier_attestation:verifier.example")
    let jws = try await fixture.fetch(created.authorizationRequestURI)
    #expect(jws.x5c == nil)
    let attestation = try CompactJWS(try #require(jws.protectedHeader["jwt"]?.string))
    #expect(attestation.type == "verifier-attestation+jwt")
    let issuerLeaf = try Certificate(derEncoded: try #require(attestation.x5c?.first))
    #expect(issuerLeaf == fixture.attestationIssuerCertificate)
    try attestation.verifySignature(with: try #require(issuerLeaf.publicKey.ecPublicKey))
    let claims = try JSONValue(parsing: attestation.payload)
    #expect(claims["sub"]?.string == "verifier.example")
    #expect(claims["iss"]?.string == "https://attestations.example")
    #expect(claims["iat"]?.int != nil && claims["exp"]?.int != nil)
    let cnf = try JWK(json: try #require(claims["cnf"]?["jwk"]))
    try jws.verifySignature(with: try cnf.publicKey())
    #expect(try cnf.publicKey() == fixture.attestationKey.publicKey)
  }

  @Test func redirectURIPrefixSendsTheRequestByValue() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(clientIDPrefix: .redirectURI, responseMode: .directPost))
    let uri = try RedirectFixture.parameters(created.authorizationRequestURI)
    #expect(uri["request_uri"] == nil)
    let responseURI = try #require(uri["response_uri"])
    // §5.9.3: the client identifier is the response_uri itself.
    #expect(uri["client_id"] == "redirect_uri:" + responseURI)
    #expect(uri["response_type"] == "vp_token")
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    #expect(parameters["dcql_query"] == RedirectFixture.pidQuery)
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters), state: uri["state"] ?? "",
        parameters: parameters, encrypt: false), to: parameters)
    #expect(response.status == 200)
    guard case .verified = try await fixture.verifier.result(transactionID: created.transactionID)
    else {
      Issue.record("not verified")
      return
    }
  }

  @Test func unconfiguredOrUnsupportedPrefixesAreRefused() async throws {
    let fixture = try RedirectFixture()
    let bare = PresentationVerifier(configuration: .init(baseURL: RedirectFixture.base))
    for prefix: ClientIdentifier.Prefix in [.x509SANDNS, .x509Hash, .verifierAttestation] {
      await #expect {
        _ = try await bare.createTransaction(
          dcqlQuery: RedirectFixture.pidQuery, options: .init(clientIDPrefix: prefix))
      } throws: { ($0 as? PresentationEndpointFailure)?.code == .invalidOptions }
    }
    await #expect {
      _ = try await fixture.create(
        RedirectFixture.pidQuery, .init(clientIDPrefix: .decentralizedIdentifier))
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .invalidOptions }
    await #expect {
      _ = try await fixture.create(["credentials": []])
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .invalidOptions }
  }

  // MARK: request_uri POST

  @Test func postFetchEchoesTheWalletNonceAndNarrowsEnc() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(requestURIMethod: .post))
    #expect(
      try RedirectFixture.parameters(created.authorizationRequestURI)["request_uri_method"]
        == "post")
    let jws = try await fixture.fetch(
      created.authorizationRequestURI, method: .post,
      form: [
        ("wallet_metadata", #"{"authorization_encryption_enc_values_supported":["A256GCM"]}"#),
        ("wallet_nonce", "wallet-nonce-1"),
      ])
    let claims = try JSONValue(parsing: jws.payload)
    #expect(claims["wallet_nonce"]?.string == "wallet-nonce-1")
    #expect(claims["client_metadata"]?["encrypted_response_enc_values_supported"] == ["A256GCM"])
  }

  @Test func postFetchWithNoCommonEncIsRefused() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(requestURIMethod: .post))
    do {
      _ = try await fixture.fetch(
        created.authorizationRequestURI, method: .post,
        form: [
          ("wallet_metadata", #"{"authorization_encryption_enc_values_supported":["A192GCM"]}"#),
          ("wallet_nonce", "n"),
        ])
      Issue.record("a wallet without a common enc must be refused")
    } catch let failure as PresentationEndpointFailureBody {
      #expect(failure.failure == "no_common_encryption")
      #expect(failure.response.status == 400)
    }
    // Malformed wallet_metadata.
    let second = try await fixture.create(RedirectFixture.pidQuery, .init(requestURIMethod: .post))
    do {
      _ = try await fixture.fetch(
        second.authorizationRequestURI, method: .post, form: [("wallet_metadata", "[1]")])
      Issue.record("wallet_metadata must be an object")
    } catch let failure as PresentationEndpointFailureBody {
      #expect(failure.failure == "malformed_body")
    }
  }

  // MARK: Protective checks

  @Test func requestObjectIsServedOnce() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create()
    _ = try await fixture.fetch(created.authorizationRequestURI)
    do {
      _ = try await fixture.fetch(created.authorizationRequestURI)
      Issue.record("a second fetch must be refused")
    } catch let failure as PresentationEndpointFailureBody {
      #expect(failure.failure == "request_already_fetched")
      #expect(failure.json?["error"]?.string == "invalid_request_uri")
    }
  }

  @Test func unknownAndExpiredTransactionsAreRefused() async throws {
    let fixture = try RedirectFixture()
    await #expect {
      _ = try await fixture.verifier.requestObject(requestID: "nope", method: .get)
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .unknownTransaction }
    await #expect {
      _ = try await fixture.verifier.receiveResponse(requestID: "nope", body: [])
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .unknownTransaction }
    await #expect {
      _ = try await fixture.verifier.result(transactionID: "nope")
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .unknownTransaction }

    // Expired before the fetch.
    let created = try await fixture.create()
    let requestID = RedirectFixture.requestID(
      try #require(try RedirectFixture.parameters(created.authorizationRequestURI)["request_uri"]))
    fixture.clock.advance(601)
    await #expect {
      _ = try await fixture.verifier.requestObject(requestID: requestID, method: .get)
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .expired }

    // Expired between the fetch and the response.
    let second = try await fixture.create()
    let parameters = try await fixture.requestParameters(second.authorizationRequestURI)
    fixture.clock.advance(601)
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
        parameters: parameters, encrypt: true), to: parameters)
    #expect(response.status == 400)
    #expect(try JSONValue(parsing: response.body)["failure"]?.string == "expired")
    // Expired transactions are purged when the next one is made.
    _ = try await fixture.create()
    #expect(try await fixture.verifier.store.transaction(id: second.transactionID) == nil)
  }

  @Test(arguments: [DirectPostMode.directPost, .directPostJWT])
  func stateMustMatch(mode: DirectPostMode) async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(RedirectFixture.pidQuery, .init(responseMode: mode))
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters), state: "another-state",
        parameters: parameters, encrypt: mode == .directPostJWT), to: parameters)
    #expect(response.status == 400)
    #expect(try JSONValue(parsing: response.body)["failure"]?.string == "state_mismatch")
    #expect(try await fixture.verifier.result(transactionID: created.transactionID) == .pending)
    // An error response with the wrong state is refused as well.
    let error = try await fixture.post(
      Array("error=access_denied&state=another-state".utf8), to: parameters)
    #expect(try JSONValue(parsing: error.body)["failure"]?.string == "state_mismatch")
  }

  @Test func oneResponsePerTransaction() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create()
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let body = try fixture.responseBody(
      vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
      parameters: parameters, encrypt: true)
    #expect(try await fixture.post(body, to: parameters).status == 200)
    let again = try await fixture.post(body, to: parameters)
    #expect(again.status == 400)
    #expect(try JSONValue(parsing: again.body)["failure"]?.string == "already_answered")
  }

  @Test func aResponseBeforeTheRequestWasFetchedIsRefused() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(
      RedirectFixture.pidQuery, .init(responseMode: .directPost))
    let requestURI = try #require(
      try RedirectFixture.parameters(created.authorizationRequestURI)["request_uri"])
    let requestID = RedirectFixture.requestID(requestURI)
    let transaction = try #require(
      try await fixture.verifier.store.transaction(requestID: requestID))
    let body = Array(
      "vp_token=%7B%7D&state=\(PresentationVerifierTestsEncoding.encode(transaction.state))".utf8)
    await #expect {
      _ = try await fixture.verifier.receiveResponse(requestID: requestID, body: body)
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .requestNotFetched }
  }

  @Test func sameDeviceResultNeedsTheResponseCode() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(RedirectFixture.pidQuery, .init(flow: .sameDevice))
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
        parameters: parameters, encrypt: true), to: parameters)
    let redirect = try #require(try JSONValue(parsing: response.body)["redirect_uri"]?.string)
    let code = try #require(redirect.components(separatedBy: "#response_code=").last)
    for wrong in [nil, "wrong", String(code.dropLast()) + "A"] where wrong != code {
      await #expect {
        _ = try await fixture.verifier.result(
          transactionID: created.transactionID, responseCode: wrong)
      } throws: { ($0 as? PresentationEndpointFailure)?.code == .wrongResponseCode }
    }
    // Over HTTP: 403 without the code, the result with it.
    let url = RedirectFixture.base + "/transactions/" + created.transactionID
    let refused = await fixture.handler.handle(
      HTTPRequest(method: .get, url: try #require(URL(string: url))))
    #expect(refused.status == 403)
    let released = await fixture.handler.handle(
      HTTPRequest(method: .get, url: try #require(URL(string: url + "?response_code=" + code))))
    #expect(try JSONValue(parsing: released.body)["status"]?.string == "verified")
  }

  @Test func keyBindingAudienceMustBeTheClientID() async throws {
    let fixture = try RedirectFixture()
    for audience in [
      "origin:https://verifier.example", "x509_san_dns:other.example", "verifier.example",
    ] {
      let created = try await fixture.create()
      let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
      let response = try await fixture.post(
        try fixture.responseBody(
          vpToken: try fixture.pidToken(parameters, audience: audience),
          state: parameters["state"]?.string ?? "", parameters: parameters, encrypt: true),
        to: parameters)
      #expect(response.status == 400)
      #expect(try JSONValue(parsing: response.body)["failure"]?.string == "verification_failed")
      guard
        case .failed(let code, _) = try await fixture.verifier.result(
          transactionID: created.transactionID)
      else {
        Issue.record("the failure must be recorded")
        continue
      }
      #expect(code == .invalidPresentation)
    }
  }

  @Test func nonceMustBeTheTransactions() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create()
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters, nonce: "another-nonce"),
        state: parameters["state"]?.string ?? "", parameters: parameters, encrypt: true),
      to: parameters)
    #expect(try JSONValue(parsing: response.body)["failure"]?.string == "verification_failed")
  }

  /// Every input of the OpenID4VPHandover matters, and the DC API handover is refused.
  @Test(arguments: ["dcapi", "client_id", "nonce", "thumbprint", "response_uri"])
  func mdocHandoverMustBindTheTransaction(change: String) async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(RedirectFixture.mdlQuery)
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let clientID = parameters["client_id"]?.string ?? ""
    let nonce = parameters["nonce"]?.string ?? ""
    let responseURI = parameters["response_uri"]?.string ?? ""
    let thumbprint = try parameters["client_metadata"]?["jwks"]?["keys"]?.array?.first.map {
      try JWK(json: $0).thumbprint()
    }
    let handover: CBOR =
      change == "dcapi"
      ? Handover.openID4VPDCAPI(
        origin: RedirectFixture.base, nonce: nonce, jwkThumbprint: thumbprint)
      : Handover.openID4VP(
        clientID: change == "client_id" ? "x509_san_dns:other.example" : clientID,
        nonce: change == "nonce" ? "other" : nonce,
        jwkThumbprint: change == "thumbprint" ? nil : thumbprint,
        responseURI: change == "response_uri" ? responseURI + "x" : responseURI)
    let token: JSONValue = .object([
      (
        "mdl",
        .array([
          .string(try fixture.mdocPresentation(transcript: SessionTranscript(handover: handover)))
        ])
      )
    ])
    let response = try await fixture.post(
      try fixture.responseBody(
        vpToken: token, state: parameters["state"]?.string ?? "", parameters: parameters,
        encrypt: true), to: parameters)
    #expect(response.status == 400)
    #expect(try JSONValue(parsing: response.body)["failure"]?.string == "verification_failed")
  }

  @Test func responseModeAndEncryptionAreEnforced() async throws {
    let fixture = try RedirectFixture()
    // A clear vp_token to a direct_post.jwt transaction.
    let created = try await fixture.create()
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let clear = try fixture.responseBody(
      vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
      parameters: parameters, encrypt: false)
    #expect(
      try JSONValue(parsing: try await fixture.post(clear, to: parameters).body)["failure"]
        == "response_mode_mismatch")
    // A JWE to another key.
    let other = try ECPrivateKey(curve: .p256)
    let jwe = try JWE.encrypt(
      plaintext: Array("{}".utf8), recipient: other.publicKey, enc: .a128gcm)
    #expect(
      try JSONValue(
        parsing: try await fixture.post(
          Array("response=\(jwe)".utf8), to: parameters
        ).body)["failure"] == "decryption_failed")
    // A JWE to a direct_post transaction.
    let plain = try await fixture.create(RedirectFixture.pidQuery, .init(responseMode: .directPost))
    let plainParameters = try await fixture.requestParameters(plain.authorizationRequestURI)
    #expect(
      try JSONValue(
        parsing: try await fixture.post(Array("response=\(jwe)".utf8), to: plainParameters).body)[
          "failure"] == "response_mode_mismatch")
  }

  @Test func bodiesAreCappedAndMustBeWellFormed() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create()
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let large = [UInt8](
      repeating: UInt8(ascii: "a"), count: PresentationVerifier.maximumResponseBodyBytes + 1)
    let refused = try await fixture.post(large, to: parameters)
    #expect(refused.status == 413)
    for body in ["vp_token", "state=a&state=b", "%ZZ=1", "=x"] {
      let response = try await fixture.post(Array(body.utf8), to: parameters)
      #expect(
        try JSONValue(parsing: response.body)["failure"]?.string == "malformed_body", "\(body)")
    }
  }

  @Test func walletErrorResponseIsRecorded() async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.create(RedirectFixture.pidQuery, .init(flow: .sameDevice))
    let parameters = try await fixture.requestParameters(created.authorizationRequestURI)
    let state = parameters["state"]?.string ?? ""
    let response = try await fixture.post(
      Array("error=access_denied&error_description=user%20declined&state=\(state)".utf8),
      to: parameters)
    #expect(response.status == 200)
    let redirect = try #require(try JSONValue(parsing: response.body)["redirect_uri"]?.string)
    let code = redirect.components(separatedBy: "#response_code=").last
    #expect(
      try await fixture.verifier.result(transactionID: created.transactionID, responseCode: code)
        == .walletError(.init(error: .accessDenied, errorDescription: "user declined")))
  }

  // MARK: HTTP routing and the frontend API

  @Test func frontendAPIOverHTTP() async throws {
    let fixture = try RedirectFixture()
    let createBody = JSONValue.object([
      ("dcql_query", RedirectFixture.pidQuery), ("flow", "cross_device"),
      ("client_id_prefix", "x509_hash"), ("response_mode", "direct_post"),
      ("request_uri_method", "post"),
    ])
    let made = await fixture.handler.handle(
      HTTPRequest(
        method: .post, url: try #require(URL(string: RedirectFixture.base + "/transactions")),
        body: createBody.serializedBytes()))
    #expect(made.status == 201)
    let json = try JSONValue(parsing: made.body)
    let id = try #require(json["transaction_id"]?.string)
    let uri = try #require(json["authorization_request_uri"]?.string)
    #expect(try RedirectFixture.parameters(uri)["client_id"]?.hasPrefix("x509_hash:") == true)
    #expect(try RedirectFixture.parameters(uri)["request_uri_method"] == "post")
    let pending = await fixture.handler.handle(
      HTTPRequest(
        method: .get, url: try #require(URL(string: RedirectFixture.base + "/transactions/" + id))))
    #expect(try JSONValue(parsing: pending.body) == .object([("status", "pending")]))
    let parameters = try await fixture.requestParameters(uri)
    _ = try await fixture.post(
      try fixture.responseBody(
        vpToken: try fixture.pidToken(parameters), state: parameters["state"]?.string ?? "",
        parameters: parameters, encrypt: false), to: parameters)
    let done = try JSONValue(
      parsing: await fixture.handler.handle(
        HTTPRequest(
          method: .get, url: try #require(URL(string: RedirectFixture.base + "/transactions/" + id))
        )
      ).body)
    #expect(done["status"]?.string == "verified")
    #expect(
      done["result"]?["credentials"]?["pid"]?.array?.first?["type"]?.string
        == RedirectFixture.pidType)

    // Routing refusals.
    let cases: [(HTTPMethod, String, Int)] = [
      (.get, "/nowhere", 404), (.get, "/transactions", 405), (.delete, "/request/x", 405),
      (.get, "/response/x", 405), (.post, "/transactions/x", 405),
    ]
    for (method, path, status) in cases {
      let response = await fixture.handler.handle(
        HTTPRequest(method: method, url: try #require(URL(string: RedirectFixture.base + path))))
      #expect(response.status == status, "\(method) \(path)")
    }
    for body in [
      "[]", "{}", #"{"dcql_query":{},"flow":"sideways"}"#, #"{"dcql_query":{},"flow":1}"#,
    ] {
      let response = await fixture.handler.handle(
        HTTPRequest(
          method: .post, url: try #require(URL(string: RedirectFixture.base + "/transactions")),
          body: Array(body.utf8)))
      #expect(response.status == 400, "\(body)")
    }
  }

  @Test func storeIsBoundedAndPhasesAdvanceOnce() async throws {
    let store = InMemoryPresentationTransactionStore(capacity: 1)
    let verifier = PresentationVerifier(
      configuration: .init(baseURL: RedirectFixture.base), store: store)
    _ = try await verifier.createTransaction(
      dcqlQuery: RedirectFixture.pidQuery, options: .init(clientIDPrefix: .redirectURI))
    await #expect {
      _ = try await verifier.createTransaction(
        dcqlQuery: RedirectFixture.pidQuery, options: .init(clientIDPrefix: .redirectURI))
    } throws: { ($0 as? PresentationEndpointFailure)?.code == .storeFull }
  }
}
