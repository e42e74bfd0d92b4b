import DCCrypto
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCTestSupport
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 13's remaining gaps against this package's issuer (`CredentialIssuerService`) in
/// process: re-issuance with the refresh token, the offer's tx_code shape, the bounded retries
/// (invalid_nonce, use_dpop_nonce, use_attestation_challenge) and dpop_jkt.
@Suite("Issuance gaps: refresh, tx_code shape, retries, dpop_jkt")
struct IssuanceGapsTests {
  typealias Setup = IssuanceAgainstIssuerServiceTests.Setup

  /// Answers some requests itself (by path, the nth time), hands the rest to the issuer, and
  /// keeps every request.
  final class Interposer: HTTPHandler, @unchecked Sendable {
    let inner: any HTTPHandler
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private(set) var log: [HTTPRequest] = []
    /// path, the 1-based count of requests to it so far → an answer, or nil to pass on.
    let answer: @Sendable (String, Int, HTTPRequest) -> HTTPResponse?

    init(
      _ inner: any HTTPHandler,
      answer: @escaping @Sendable (String, Int, HTTPRequest) -> HTTPResponse? = { _, _, _ in nil }
    ) {
      self.inner = inner
      self.answer = answer
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      let path = request.url.path
      let count = lock.withLock {
        counts[path, default: 0] += 1
        log.append(request)
        return counts[path, default: 0]
      }
      if let response = answer(path, count, request) { return response }
      return await inner.handle(request)
    }

    func requests(to path: String) -> [HTTPRequest] {
      lock.withLock { log.filter { $0.url.path == path } }
    }
  }

  static func oauthError(
    _ error: String, status: Int = 400, headers: HTTPFields = [:], resource: Bool = false
  ) -> HTTPResponse {
    var fields = headers
    fields["Content-Type"] = "application/json"
    if resource { fields["WWW-Authenticate"] = "DPoP error=\"\(error)\"" }
    return HTTPResponse(
      status: status, headers: fields, body: Array("{\"error\": \"\(error)\"}".utf8))
  }

  /// A wallet (trusting the issuer's IACA) and the issuance glue over `handler`.
  static func wallet(
    _ setup: Setup, handler: (any HTTPHandler)? = nil, provider: (any WalletProvider)? = nil
  )
    async throws -> (WalletIssuance, Interposer)
  {
    let home = TestScratch.path("dcwallet-gaps")
    try WalletHome(directory: home).create()
    let clock = setup.clock
    let wallet = try Wallet(home: WalletHome(directory: home), clock: { clock.now })
    _ = try await wallet.addTrustAnchor(setup.pki.iaca, role: .issuer)
    let interposer =
      (handler as? Interposer) ?? Interposer(IssuerHTTPHandler(service: setup.service))
    let client = IssuanceClient(
      http: InProcessHTTPClient(handler: interposer),
      configuration: IssuanceClient.Configuration(
        urlPolicy: .development, clientID: "dcwallet",
        redirectURI: IssuanceAgainstIssuerServiceTests.redirectURI, walletProvider: provider,
        clock: { clock.now }))
    return (WalletIssuance(wallet: wallet, client: client), interposer)
  }

  /// The authorization code flow (auto-approved) for `configuration`, stored.
  static func issueByCode(
    _ issuance: WalletIssuance, _ setup: Setup, configuration: String = "mDL", batch: Int = 1
  ) async throws -> WalletIssuanceResult {
    let created = try setup.service.createOffer(
      configurationIDs: [configuration], grant: .authorizationCode)
    let pending = try await issuance.beginAuthorization(
      offer: created.offer, options: IssuanceClient.Options(batchSize: batch))
    let answer = await IssuerHTTPHandler(service: setup.service).handle(
      HTTPRequest(method: .get, url: pending.authorizationURL))
    let redirect = try #require(answer.headers["Location"].flatMap(URL.init(string:)))
    let result = try await issuance.completeAuthorization(pending, redirect: redirect)
    #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
    return result
  }

  static func session(_ wallet: Wallet, of credential: StoredCredential) async throws
    -> IssuanceSession
  {
    let id = try #require(credential.issuance?.sessionID)
    return try #require(try await wallet.issuanceSession(id: id))
  }

  @discardableResult
  static func expectError<T>(
    _ code: IssuanceErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
  ) async -> IssuanceError? {
    do {
      _ = try await body()
      Issue.record("expected IssuanceError.\(code)", sourceLocation: sourceLocation)
    } catch let error as IssuanceError {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      return error
    } catch {
      Issue.record("expected IssuanceError.\(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  // MARK: 1. Re-issuance with the refresh token

  @Test("Re-issuance: refresh grant with the stored DPoP key, new device key, replace after store")
  func reissueReplaces() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, interposer) = try await Self.wallet(setup)
    let first = try await Self.issueByCode(issuance, setup)
    let old = try #require(first.stored.first)
    let before = try await Self.session(issuance.wallet, of: old)
    let refreshToken = try #require(before.refreshToken)

    let renewed = try await issuance.reissue(credentialID: old.id)
    #expect(renewed.failed.isEmpty, "\(renewed.failed.map(\.reason))")
    let new = try #require(renewed.stored.first)
    #expect(renewed.stored.count == 1)
    #expect(renewed.replaced == [old.id])
    #expect(new.id != old.id)
    #expect(new.issuance?.configurationID == "mDL")
    #expect(new.deviceKeyID != old.deviceKeyID)
    // The old credential and its device key are gone; only the new one is kept.
    #expect(try await issuance.wallet.credentials().map(\.id) == [new.id])
    let oldKey = try #require(old.deviceKeyID)
    let gone = await #expect(throws: WalletStoreError.self) {
      _ = try await issuance.wallet.keys.publicKey(for: oldKey)
    }
    #expect(gone?.code == .notFound)
    // The refresh grant went with the same DPoP key as the first token request (RFC 9449 §5).
    let tokenRequests = interposer.requests(to: "/token").filter {
      (try? FormParameters(body: $0.body))?["grant_type"] == "refresh_token"
    }
    #expect(!tokenRequests.isEmpty)
    let firstToken = try #require(interposer.requests(to: "/token").first)
    for request in tokenRequests {
      #expect(
        try decodeHeader(try #require(request.headers["DPoP"]))["jwk"]
          == decodeHeader(try #require(firstToken.headers["DPoP"]))["jwk"])
      #expect(try FormParameters(body: request.body)["client_id"] == "dcwallet")
    }
    // The rotated refresh token is kept in the same session, still bound to the same key.
    let after = try await Self.session(issuance.wallet, of: new)
    #expect(after.id == before.id)
    #expect(after.dpopKeyID == before.dpopKeyID)
    #expect(after.refreshToken != nil && after.refreshToken != refreshToken)
    // It works again (the rotated token was kept).
    let again = try await issuance.reissue(credentialID: new.id)
    #expect(again.failed.isEmpty, "\(again.failed.map(\.reason))")
    #expect(again.replaced == [new.id])
    // The issuer heard credential_accepted each time, DPoP-signed by the stored key.
    #expect(renewed.notificationFailures.isEmpty, "\(renewed.notificationFailures)")
    #expect(
      try setup.service.receivedNotifications().map(\.event)
        == [.credentialAccepted, .credentialAccepted, .credentialAccepted])
  }

  @Test("Re-issuance of a batch renews the whole batch; a refused verification keeps the old")
  func reissueBatchAndRefusal() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, _) = try await Self.wallet(setup)
    let first = try await Self.issueByCode(issuance, setup, batch: 3)
    #expect(first.stored.count == 3)
    let renewed = try await issuance.reissue(credentialID: first.stored[1].id)
    #expect(renewed.failed.isEmpty, "\(renewed.failed.map(\.reason))")
    #expect(renewed.stored.count == 3)
    #expect(Set(renewed.replaced) == Set(first.stored.map(\.id)))
    #expect(Set(renewed.stored.compactMap(\.issuance?.batchID)).count == 1)
    #expect(
      Set(try await issuance.wallet.credentials().map(\.id)) == Set(renewed.stored.map(\.id)))

    // Verified before storage: without the anchor the new ones are refused, the old ones stay.
    for anchor in try await issuance.wallet.store.trustAnchors(role: .issuer) {
      _ = try await issuance.wallet.store.removeTrustAnchor(id: anchor.id)
    }
    let refused = try await issuance.reissue(credentialID: renewed.stored[0].id)
    #expect(refused.stored.isEmpty)
    #expect(refused.replaced.isEmpty)
    #expect(!refused.failed.isEmpty)
    #expect(
      Set(try await issuance.wallet.credentials().map(\.id)) == Set(renewed.stored.map(\.id)))
  }

  @Test("Re-issuance errors: unknown id, no refresh token kept, the refresh token refused")
  func reissueErrors() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, _) = try await Self.wallet(setup)
    await Self.expectError(.unknownCredential) {
      try await issuance.reissue(credentialID: "nope")
    }
    // The pre-authorized code grant issues no refresh token here.
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let pre = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
    let preID = try #require(pre.stored.first?.id)
    await Self.expectError(.noRefreshToken) {
      try await issuance.reissue(credentialID: preID)
    }
    // An expired refresh token: invalid_grant, a typed refusal; the old credential stays.
    let byCode = try await Self.issueByCode(issuance, setup)
    let id = try #require(byCode.stored.first?.id)
    setup.clock.advance(31 * 86_400)
    let error = await Self.expectError(.refreshRefused) {
      try await issuance.reissue(credentialID: id)
    }
    #expect((error?.underlying as? OAuthErrorResponse)?.error == .invalidGrant)
    #expect(try await issuance.wallet.credentials().contains { $0.id == id })
  }

  // MARK: 2. The offer's tx_code shape

  @Test("A tx_code that does not fit input_mode or length is refused before it is sent")
  func txCodeShape() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let (issuance, interposer) = try await Self.wallet(setup)
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let code = try #require(created.transactionCode)
    #expect(created.offer.preAuthorizedCode?.txCode?.length == 6)
    for wrong in [String(code.dropLast()), code + "1", "12a456", "１２３４５６"] {
      let error = await Self.expectError(.txCodeInvalid) {
        try await issuance.issuePreAuthorized(offer: created.offer, txCode: wrong)
      }
      #expect(error?.reason.contains("tx_code") == true)
      #expect(error?.reason.contains("length 6") == true)
    }
    #expect(interposer.requests(to: "/token").isEmpty)
    // The client alone refuses the same way.
    await Self.expectError(.txCodeInvalid) {
      try await issuance.client.issuePreAuthorized(offer: created.offer, txCode: "12a456")
    }
    #expect(interposer.requests(to: "/token").isEmpty)
    // The code as offered passes (and the server's attempts were not spent).
    let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: code)
    #expect(result.stored.count == 1, "\(result.failed.map(\.reason))")

    // input_mode text: letters pass, the length still counts.
    let text = try IssuanceAgainstIssuerServiceTests.setup {
      $0.transactionCode = TransactionCodeSettings(inputMode: .text, length: 8)
    }
    let (textIssuance, textLog) = try await Self.wallet(text)
    let textOffer = try text.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let textCode = try #require(textOffer.transactionCode)
    await Self.expectError(.txCodeInvalid) {
      try await textIssuance.issuePreAuthorized(offer: textOffer.offer, txCode: "ABC")
    }
    #expect(textLog.requests(to: "/token").isEmpty)
    let textResult = try await textIssuance.issuePreAuthorized(
      offer: textOffer.offer, txCode: textCode)
    #expect(textResult.stored.count == 1, "\(textResult.failed.map(\.reason))")
    // No input_mode means numeric; no length means any length.
    let grant = PreAuthorizedCodeGrant(
      preAuthorizedCode: "c", txCode: TransactionCodeRequirement())
    #expect(throws: Never.self) {
      try IssuanceClient.checkTransactionCode("1234567890", for: grant)
    }
    let txCodeInvalidError = #expect(throws: IssuanceError.self) {
      try IssuanceClient.checkTransactionCode("12ab", for: grant)
    }
    #expect(txCodeInvalidError?.code == .txCodeInvalid)
  }

  // MARK: 3. Retries, each at most once

  @Test("invalid_nonce at the credential endpoint: a fresh c_nonce, new proofs, one retry")
  func invalidNonceRetried() async throws {
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    let inner = IssuerHTTPHandler(service: setup.service)
    let once = Interposer(inner) { path, count, _ in
      path == "/credential" && count == 1 ? Self.oauthError("invalid_nonce") : nil
    }
    let (issuance, _) = try await Self.wallet(setup, handler: once)
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
    #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
    #expect(result.stored.count == 1)
    let credentialRequests = once.requests(to: "/credential")
    #expect(credentialRequests.count == 2)
    #expect(once.requests(to: "/nonce").count == 2)
    // The retry carries new proofs (over the fresh c_nonce).
    #expect(credentialRequests[0].body != credentialRequests[1].body)

    // Refused three times: the wallet stops after its one retry and reports invalid_nonce.
    let setup2 = try IssuanceAgainstIssuerServiceTests.setup()
    let thrice = Interposer(IssuerHTTPHandler(service: setup2.service)) { path, count, _ in
      path == "/credential" && count <= 3 ? Self.oauthError("invalid_nonce") : nil
    }
    let (bounded, _) = try await Self.wallet(setup2, handler: thrice)
    let offer2 = try setup2.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let failed = try await bounded.issuePreAuthorized(offer: offer2.offer, txCode: nil)
    #expect(failed.stored.isEmpty)
    #expect(thrice.requests(to: "/credential").count == 2)
    guard case .issuance(let error) = failed.failed.first?.cause else {
      Issue.record("expected an issuance failure, got \(failed.failed.map(\.reason))")
      return
    }
    #expect((error.underlying as? OAuthErrorResponse)?.error == .invalidNonce)
  }

  @Test("use_dpop_nonce at the token and credential endpoints: retried once with the new nonce")
  func dpopNonceRetried() async throws {
    // The token endpoint demands a nonce on the first request: one retry passes it.
    let setup = try IssuanceAgainstIssuerServiceTests.setup()
    // The nonce endpoint's DPoP-Nonce is withheld, so the credential endpoint asks for one too.
    let noNonceHeader = Interposer(StripNonce(inner: IssuerHTTPHandler(service: setup.service)))
    let (issuance, _) = try await Self.wallet(setup, handler: noNonceHeader)
    let created = try setup.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
    let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
    #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
    let tokens = noNonceHeader.requests(to: "/token")
    #expect(tokens.count == 2)
    #expect(try decodeClaims(try #require(tokens[0].headers["DPoP"]))["nonce"] == nil)
    #expect(try decodeClaims(try #require(tokens[1].headers["DPoP"]))["nonce"] != nil)
    let credentials = noNonceHeader.requests(to: "/credential")
    #expect(credentials.count == 2)
    #expect(try decodeClaims(try #require(credentials[1].headers["DPoP"]))["nonce"] != nil)

    // Asked three times with ever new nonces: one retry at each endpoint, then the failure.
    for endpoint in ["/token", "/credential"] {
      let setup = try IssuanceAgainstIssuerServiceTests.setup()
      let forever = Interposer(IssuerHTTPHandler(service: setup.service)) { path, count, _ in
        guard path == endpoint, count <= 3 else { return nil }
        return Self.oauthError(
          "use_dpop_nonce", status: endpoint == "/token" ? 400 : 401,
          headers: ["DPoP-Nonce": "n-\(count)"], resource: endpoint == "/credential")
      }
      let (bounded, _) = try await Self.wallet(setup, handler: forever)
      let offer = try setup.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      let error: IssuanceError?
      if endpoint == "/token" {
        error = await Self.expectError(.token) {
          try await bounded.issuePreAuthorized(offer: offer.offer, txCode: nil)
        }
      } else {
        let failed = try await bounded.issuePreAuthorized(offer: offer.offer, txCode: nil)
        #expect(failed.stored.isEmpty)
        if case .issuance(let cause) = failed.failed.first?.cause {
          error = cause
        } else {
          error = nil
        }
      }
      #expect((error?.underlying as? OAuthErrorResponse)?.error == .useDPoPNonce, "\(endpoint)")
      #expect(forever.requests(to: endpoint).count == 2, "\(endpoint)")
    }
  }

  @Test("use_attestation_challenge: the PoP is signed again over the challenge, once")
  func attestationChallengeRetried() async throws {
    let provider = try DevelopmentWalletProvider(clock: { TestPKI.now })
    let adjust: (inout IssuerConfiguration) -> Void = {
      $0.attestation = AttestationPolicy(
        requireClientAttestation: true, trustedWalletProviderKeys: [provider.attesterPublicKey])
    }
    for (refusals, succeeds) in [(1, true), (3, false)] {
      let setup = try IssuanceAgainstIssuerServiceTests.setup(provider: provider, adjust: adjust)
      let challenger = Interposer(IssuerHTTPHandler(service: setup.service)) { path, count, _ in
        guard path == "/token", count <= refusals else { return nil }
        return Self.oauthError(
          "use_attestation_challenge",
          headers: [ClientAttestation.challengeHeaderName: "challenge-\(count)"])
      }
      let (issuance, _) = try await Self.wallet(setup, handler: challenger, provider: provider)
      let offer = try setup.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      if succeeds {
        let result = try await issuance.issuePreAuthorized(offer: offer.offer, txCode: nil)
        #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
        let retry = try #require(challenger.requests(to: "/token").dropFirst().first)
        let pop = try #require(retry.headers[ClientAttestation.popHeaderName])
        #expect(try decodeClaims(pop)["challenge"] == "challenge-1")
      } else {
        let error = await Self.expectError(.token) {
          try await issuance.issuePreAuthorized(offer: offer.offer, txCode: nil)
        }
        #expect(
          (error?.underlying as? OAuthErrorResponse)?.error == .useAttestationChallenge)
        #expect(challenger.requests(to: "/token").count == 2)
      }
    }
  }

  // MARK: 4. dpop_jkt

  @Test("dpop_jkt: sent with the pushed and the plain authorization request; the code is bound")
  func dpopJKT() async throws {
    for pushed in [true, false] {
      let setup = try IssuanceAgainstIssuerServiceTests.setup()
      // Without PAR in the server's metadata the request goes in the URL.
      let log = Interposer(IssuerHTTPHandler(service: setup.service)) { path, _, _ in nil }
      let handler: any HTTPHandler =
        pushed ? log : Interposer(WithoutPAR(inner: log))
      let (issuance, _) = try await Self.wallet(setup, handler: handler)
      let created = try setup.service.createOffer(
        configurationIDs: ["mDL"], grant: .authorizationCode)
      let pending = try await issuance.beginAuthorization(offer: created.offer)
      let parameters: FormParameters
      if pushed {
        parameters = try FormParameters(body: try #require(log.requests(to: "/par").first).body)
      } else {
        #expect(log.requests(to: "/par").isEmpty)
        parameters = try FormParameters(query: pending.authorizationURL.query ?? "")
      }
      let jkt = try #require(parameters["dpop_jkt"])
      #expect(jkt.utf8.count == 43)
      let answer = await IssuerHTTPHandler(service: setup.service).handle(
        HTTPRequest(method: .get, url: pending.authorizationURL))
      let redirect = try #require(answer.headers["Location"].flatMap(URL.init(string:)))
      let result = try await issuance.completeAuthorization(pending, redirect: redirect)
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      let token = try #require(
        log.requests(to: "/token").last?.headers["DPoP"])
      #expect(
        JWK(publicKey: try JWK(json: try decodeHeader(token)["jwk"] ?? .null).publicKey())
          .thumbprintBase64URL == jkt)
    }
  }
}

/// Drops the `DPoP-Nonce` header of the nonce endpoint's answers.
struct StripNonce: HTTPHandler {
  let inner: any HTTPHandler
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    var response = await inner.handle(request)
    if request.url.path == "/nonce" { response.headers["DPoP-Nonce"] = nil }
    return response
  }
}

/// Serves authorization server metadata without `pushed_authorization_request_endpoint`.
struct WithoutPAR: HTTPHandler {
  let inner: any HTTPHandler
  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    var response = await inner.handle(request)
    if request.url.path.hasPrefix("/.well-known/oauth-authorization-server"),
      case .object(let members) = try? JSONValue(parsing: response.body)
    {
      response.body = JSONValue.object(
        members.filter { $0.key != "pushed_authorization_request_endpoint" }
      ).serializedBytes()
    }
    return response
  }
}
