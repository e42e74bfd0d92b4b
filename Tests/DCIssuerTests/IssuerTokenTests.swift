import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation
import Testing

/// The token endpoint: pre-authorized code with tx_code, DPoP with server nonces, and every
/// check refusing what it must.
@Suite("Issuer token endpoint")
struct IssuerTokenTests {
  @Test("Pre-authorized code with tx_code: use_dpop_nonce first, then a DPoP-bound token")
  func preAuthorizedFlow() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture)
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let code = try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode)
    let body = TokenRequest(grant: .preAuthorizedCode(code: code, txCode: offer.transactionCode))
    // The first call carries no nonce: 400 use_dpop_nonce with a DPoP-Nonce header (RFC 9449 §8).
    let first = try await wallet.tokenRequest(body)
    #expect(first.status == 400)
    #expect(oauthError(first) == "use_dpop_nonce")
    #expect(first.headers["DPoP-Nonce"] != nil)
    #expect(first.headers["Cache-Control"] == "no-store")
    let second = try await wallet.tokenRequest(body)
    #expect(second.status == 200)
    let token = try TokenResponse(jsonBytes: second.body)
    #expect(token.tokenType == .dpop)
    #expect(token.refreshToken == nil)
    #expect(token.expiresIn == 3600)
    // The code is single use.
    let again = try await wallet.tokenRequest(body)
    #expect(oauthError(again) == "invalid_grant")
  }

  @Test("A wrong or missing tx_code is invalid_grant; after three wrong ones the code is gone")
  func transactionCode() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture)
    await wallet.primeDPoPNonce()
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let code = try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode)
    let correct = try #require(offer.transactionCode)
    let wrong = correct == "000000" ? "111111" : "000000"
    let missing = try await wallet.tokenRequest(
      TokenRequest(grant: .preAuthorizedCode(code: code, txCode: nil)))
    #expect(oauthError(missing) == "invalid_grant")
    #expect(try jsonBody(missing)["error_description"]?.string?.contains("tx_code") == true)
    let bad = try await wallet.tokenRequest(
      TokenRequest(grant: .preAuthorizedCode(code: code, txCode: wrong)))
    #expect(oauthError(bad) == "invalid_grant")
    _ = try await wallet.tokenRequest(
      TokenRequest(grant: .preAuthorizedCode(code: code, txCode: wrong)))
    // The third wrong attempt (missing counted) withdraws the code: the right one fails now.
    let late = try await wallet.tokenRequest(
      TokenRequest(grant: .preAuthorizedCode(code: code, txCode: correct)))
    #expect(oauthError(late) == "invalid_grant")
    // A tx_code for an offer without one is refused.
    let plain = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let unexpected = try await wallet.tokenRequest(
      TokenRequest(
        grant: .preAuthorizedCode(
          code: try #require(plain.offer.preAuthorizedCode?.preAuthorizedCode), txCode: "1")))
    #expect(oauthError(unexpected) == "invalid_request")
  }

  @Test("DPoP at the token endpoint: missing, wrong htu, wrong htm, replay, stale nonce")
  func dpopChecks() async throws {
    let fixture = try IssuerFixture()
    let wallet = try TestWallet(fixture)
    await wallet.primeDPoPNonce()
    func body() throws -> TokenRequest {
      let offer = try fixture.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      return TokenRequest(
        grant: .preAuthorizedCode(
          code: offer.offer.preAuthorizedCode?.preAuthorizedCode ?? "", txCode: nil))
    }
    // Missing.
    let missing = await wallet.send(
      fixture.request(.post, .token, body: try body().body))
    #expect(missing.status == 400)
    #expect(oauthError(missing) == "invalid_dpop_proof")
    // Wrong htu: a proof made for the credential endpoint.
    let htu = try await wallet.tokenRequest(try body(), proof: try wallet.dpop(.credential))
    #expect(oauthError(htu) == "invalid_dpop_proof")
    // Wrong htm.
    let htm = try await wallet.tokenRequest(
      try body(), proof: try wallet.dpop(.token, method: "GET"))
    #expect(oauthError(htm) == "invalid_dpop_proof")
    // Replay: the same proof twice.
    let proof = try wallet.dpop(.token)
    let first = try await wallet.tokenRequest(try body(), proof: proof)
    #expect(first.status == 200)
    let replay = try await wallet.tokenRequest(try body(), proof: proof)
    #expect(oauthError(replay) == "invalid_dpop_proof")
    // A nonce the server never issued, and one gone stale: use_dpop_nonce with a fresh one.
    let forged = try await wallet.tokenRequest(
      try body(), proof: try wallet.dpop(.token, nonce: "forged"))
    #expect(oauthError(forged) == "use_dpop_nonce")
    let fresh = try #require(forged.headers["DPoP-Nonce"])
    #expect(fresh != "forged")
    fixture.clock.advance(301)
    let stale = try await wallet.tokenRequest(
      try body(), proof: try wallet.dpop(.token, nonce: fresh))
    #expect(oauthError(stale) == "use_dpop_nonce")
    // Two DPoP headers.
    var headers: HTTPFields = [:]
    headers.append(name: "DPoP", value: try wallet.dpop(.token))
    headers.append(name: "DPoP", value: try wallet.dpop(.token))
    let twice = await wallet.send(
      fixture.request(.post, .token, headers: headers, body: try body().body))
    #expect(oauthError(twice) == "invalid_dpop_proof")
  }

  @Test("Unsupported grant types and malformed bodies are OAuth errors, never a stack")
  func malformed() async throws {
    let fixture = try IssuerFixture()
    let response = await fixture.handler.handle(
      fixture.request(.post, .token, body: Array("grant_type=password&username=x".utf8)))
    #expect(response.status == 400)
    #expect(oauthError(response) == "unsupported_grant_type")
    let garbage = await fixture.handler.handle(
      fixture.request(.post, .token, body: [0xFF, 0xFE, 0x25]))
    #expect(oauthError(garbage) == "invalid_request")
    #expect(!String(decoding: garbage.body, as: UTF8.self).contains("Sources/"))
  }

  @Test("Without DPoP required, a bearer token is issued and accepted")
  func bearer() async throws {
    let fixture = try IssuerFixture {
      $0.requireDPoP = false
      $0.dpopNonces = .none
    }
    let wallet = try TestWallet(fixture)
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let response = await wallet.send(
      fixture.request(
        .post, .token,
        body: TokenRequest(
          grant: .preAuthorizedCode(
            code: try #require(offer.offer.preAuthorizedCode?.preAuthorizedCode), txCode: nil)
        ).body))
    let token = try TokenResponse(jsonBytes: response.body)
    #expect(token.tokenType == .bearer)
    wallet.accessToken = token.accessToken
    let nonce = try await wallet.cNonce()
    let key = try ECPrivateKey(curve: .p256)
    let credential = try await wallet.protected(
      .credential,
      body: CredentialRequest(
        target: .credentialConfigurationID("mDL"),
        proofs: .jwt(try wallet.proofs([key], nonce: nonce))
      ).json, scheme: "Bearer", withProof: false)
    #expect(credential.status == 200)
  }
}
