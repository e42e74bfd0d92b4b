import DCCBOR
import DCCOSE
import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCTestSupport
import Foundation
import Testing

/// Client and key attestation at the issuer, and DPoP and key proofs made by joserfc and
/// jwcrypto accepted by the handlers.
@Suite("Issuer attestations and interop")
struct IssuerAttestationInteropTests {
  @Test("Client attestation: required, verified against the trusted provider, PoP not replayable")
  func clientAttestation() async throws {
    let provider = try ECPrivateKey(curve: .p256)
    let fixture = try IssuerFixture {
      $0.attestation = AttestationPolicy(
        requireClientAttestation: true, trustedWalletProviderKeys: [provider.publicKey])
    }
    let wallet = try TestWallet(fixture, clientID: "wallet-1")
    await wallet.primeDPoPNonce()
    let instance = try ECPrivateKey(curve: .p256)
    let now = fixture.clock.now
    func headers(signer: ECPrivateKey = provider, pop: String? = nil) throws -> HTTPFields {
      let attestation = try ClientAttestation.attestation(
        signer: signer, keyHeader: nil, issuer: "https://provider.example", clientID: "wallet-1",
        instanceKey: instance.publicKey, issuedAt: now, expiresAt: now + 3600)
      let proof =
        try pop
        ?? ClientAttestation.proofOfPossession(
          signer: instance, audience: IssuerFixture.issuerID, issuedAt: now)
      return [ClientAttestation.headerName: attestation, ClientAttestation.popHeaderName: proof]
    }
    func body() throws -> TokenRequest {
      let offer = try fixture.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      return TokenRequest(
        grant: .preAuthorizedCode(
          code: offer.offer.preAuthorizedCode?.preAuthorizedCode ?? "", txCode: nil),
        clientID: "wallet-1")
    }
    let anonymous = try await wallet.tokenRequest(try body())
    #expect(anonymous.status == 401)
    #expect(oauthError(anonymous) == "invalid_client")
    let untrusted = try await wallet.tokenRequest(
      try body(), headers: try headers(signer: try ECPrivateKey(curve: .p256)))
    #expect(oauthError(untrusted) == "invalid_client")
    let pop = try ClientAttestation.proofOfPossession(
      signer: instance, audience: IssuerFixture.issuerID, issuedAt: now)
    let good = try await wallet.tokenRequest(try body(), headers: try headers(pop: pop))
    #expect(good.status == 200)
    let replayed = try await wallet.tokenRequest(try body(), headers: try headers(pop: pop))
    #expect(oauthError(replayed) == "invalid_client")
    // DPoP is checked first: after use_dpop_nonce the same attestation PoP still works.
    let fresh = try TestWallet(fixture, clientID: "wallet-1")
    let retryHeaders = try headers()
    let first = try await fresh.tokenRequest(try body(), headers: retryHeaders)
    #expect(oauthError(first) == "use_dpop_nonce")
    #expect(try await fresh.tokenRequest(try body(), headers: retryHeaders).status == 200)
    // The authorization endpoint refuses a request that skipped PAR (no attestation there).
    let pkce = try PKCE()
    let plain = AuthorizationRequest(
      clientID: "wallet-1", redirectURI: "https://wallet.example/cb", state: "s",
      codeChallenge: pkce.challenge,
      authorizationDetails: [CredentialAuthorizationDetail(credentialConfigurationID: "mDL")])
    let direct = await fixture.handler.handle(
      HTTPRequest(
        method: .get,
        url: try plain.url(authorizationEndpoint: fixture.service.endpoints.url(.authorize))))
    #expect(oauthError(direct) == "invalid_request")
  }

  @Test("Key attestation: required; a trusted attestation of the proof key is accepted")
  func keyAttestation() async throws {
    let provider = try ECPrivateKey(curve: .p256)
    let fixture = try IssuerFixture {
      $0.attestation = AttestationPolicy(
        requireKeyAttestation: true, trustedWalletProviderKeys: [provider.publicKey])
    }
    let wallet = try await IssuerCredentialTests.authorizedWallet(fixture)
    let key = try ECPrivateKey(curve: .p256)
    let now = fixture.clock.now
    func proof(attester: ECPrivateKey?) async throws -> String {
      let nonce = try await wallet.cNonce()
      guard let attester else {
        return try KeyProof.proof(
          signer: key, credentialIssuer: IssuerFixture.issuerID, nonce: nonce, clientID: nil,
          issuedAt: now)
      }
      let attestation = try KeyAttestation.attestation(
        signer: attester, keyHeader: nil, issuer: "https://provider.example",
        attestedKeys: [key.publicKey], issuedAt: now, expiresAt: now + 3600,
        keyStorage: [KeyAttestation.iso18045Moderate])
      return try KeyProof.proof(
        signer: key, credentialIssuer: IssuerFixture.issuerID, nonce: nonce, clientID: nil,
        issuedAt: now, keyHeader: .keyAttestation(attestation))
    }
    func request(_ proof: String) async throws -> HTTPResponse {
      try await wallet.credentialRequest(
        CredentialRequest(target: .credentialConfigurationID("mDL"), proofs: .jwt([proof])))
    }
    #expect(oauthError(try await request(try await proof(attester: nil))) == "invalid_proof")
    let untrusted = try await request(try await proof(attester: try ECPrivateKey(curve: .p256)))
    #expect(oauthError(untrusted) == "invalid_proof")
    #expect(try await request(try await proof(attester: provider)).status == 200)
    // The metadata says so.
    let metadata = fixture.service.issuerMetadata
    #expect(metadata.configuration(id: "mDL")?.proofType("jwt")?.keyAttestationsRequired != nil)
  }

  static let prelude = """
    import sys, json, base64, hashlib, time
    from joserfc import jwt, jws
    from joserfc.jwk import ECKey
    import jwcrypto.jwk, jwcrypto.jwt
    registry = jws.JWSRegistry(algorithms=["ES256"], strict_check_header=False)
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    data = json.loads(sys.stdin.read())

    """

  static func run(_ body: String, input: JSONValue) throws -> JSONValue {
    let output = try PythonPeer.run(prelude + body, input: input.serialized())
    return try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test("joserfc's DPoP proofs and jwcrypto/joserfc key proofs pass the handlers", .pythonPeers)
  func pythonWallet() async throws {
    try PythonPeer.require("pythonWallet")
    let fixture = try IssuerFixture()
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    // The server's nonces, from the nonce endpoint.
    let nonceResponse = await fixture.handler.handle(fixture.request(.post, .nonce))
    let dpopNonce = try #require(nonceResponse.headers["DPoP-Nonce"])
    let cNonce = try NonceResponse(jsonBytes: nonceResponse.body).cNonce
    let iat = JSONValue.integer(Int64(fixture.clock.now.timeIntervalSince1970))
    let first = try Self.run(
      """
      key = ECKey.generate_key("P-256")
      header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
      claims = {"jti": b64(hashlib.sha256(b"t1").digest()[:16]), "htm": "POST",
                "htu": data["htu"], "iat": data["iat"], "nonce": data["nonce"]}
      print(json.dumps({"proof": jwt.encode(header, claims, key, algorithms=["ES256"], registry=registry),
                        "key": key.as_dict(private=True),
                        "thumbprint": jwcrypto.jwk.JWK(**header["jwk"]).thumbprint()}))
      """,
      input: [
        "htu": .string(fixture.service.endpoints.url(.token).absoluteString), "iat": iat,
        "nonce": .string(dpopNonce),
      ])
    let tokenResponse = await fixture.handler.handle(
      fixture.request(
        .post, .token, headers: ["DPoP": try #require(first["proof"]?.string)],
        body: TokenRequest(
          grant: .preAuthorizedCode(
            code: try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode),
            txCode: offer.transactionCode)
        ).body))
    #expect(tokenResponse.status == 200)
    let token = try TokenResponse(jsonBytes: tokenResponse.body)
    let second = try Self.run(
      """
      key = ECKey.import_key(data["key"])
      header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": key.as_dict(private=False)}
      claims = {"jti": b64(hashlib.sha256(b"t2").digest()[:16]), "htm": "POST",
                "htu": data["htu"], "iat": data["iat"], "nonce": data["nonce"],
                "ath": b64(hashlib.sha256(data["token"].encode()).digest())}
      dpop = jwt.encode(header, claims, key, algorithms=["ES256"], registry=registry)
      proofs, thumbprints = [], []
      # One key proof by joserfc, one by jwcrypto.
      k1 = ECKey.generate_key("P-256")
      h1 = {"typ": "openid4vci-proof+jwt", "alg": "ES256", "jwk": k1.as_dict(private=False)}
      c = {"aud": data["aud"], "iat": data["iat"], "nonce": data["c_nonce"]}
      proofs.append(jwt.encode(h1, c, k1, algorithms=["ES256"], registry=registry))
      thumbprints.append(jwcrypto.jwk.JWK(**h1["jwk"]).thumbprint())
      k2 = jwcrypto.jwk.JWK.generate(kty="EC", crv="P-256")
      h2 = {"typ": "openid4vci-proof+jwt", "alg": "ES256", "jwk": json.loads(k2.export_public())}
      t2 = jwcrypto.jwt.JWT(header=h2, claims=c)
      t2.make_signed_token(k2)
      proofs.append(t2.serialize())
      thumbprints.append(k2.thumbprint())
      print(json.dumps({"dpop": dpop, "proofs": proofs, "thumbprints": thumbprints}))
      """,
      input: [
        "key": try #require(first["key"]),
        "htu": .string(fixture.service.endpoints.url(.credential).absoluteString), "iat": iat,
        "nonce": .string(dpopNonce), "token": .string(token.accessToken),
        "aud": .string(IssuerFixture.issuerID), "c_nonce": .string(cNonce),
      ])
    let proofs = try #require(second["proofs"]?.array).compactMap(\.string)
    let credentialResponse = await fixture.handler.handle(
      fixture.request(
        .post, .credential,
        headers: [
          "Authorization": "DPoP \(token.accessToken)",
          "DPoP": try #require(second["dpop"]?.string),
        ],
        body: CredentialRequest(
          target: .credentialConfigurationID("mDL"), proofs: .jwt(proofs)
        ).json.serializedBytes()))
    #expect(credentialResponse.status == 200)
    guard
      case .issued(let credentials, _) = try CredentialResponse(jsonBytes: credentialResponse.body)
    else {
      Issue.record("expected credentials")
      return
    }
    let thumbprints = try #require(second["thumbprints"]?.array).compactMap(\.string)
    for (credential, thumbprint) in zip(credentials, thumbprints) {
      let issuerSigned = try IssuerSigned(cbor: try CBOR.decode(try credential.mdocIssuerSigned()))
      let deviceKey = try issuerSigned.mso.deviceKey.publicKey()
      #expect(JWK(publicKey: deviceKey).thumbprintBase64URL == thumbprint)
    }
  }
}
