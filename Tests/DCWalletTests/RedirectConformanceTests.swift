import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCWalletFixtureTestSupport
import Foundation
import Testing

@testable import DCWallet

/// The OpenID conformance suite's OpenID4VP 1.0 wallet modules (`oid4vp-1final-wallet-*`)
/// whose point is the wallet flow itself, through the public wallet API (`resolve`, `respond`)
/// against the in-process verifier of ``RedirectSetup``. The protocol-level checklist (every
/// prefix, request method and response mode) is Tests/OpenID4VPTests/RedirectConformanceTests;
/// /work/notes/conformance16-coverage.md maps each module to its test.
@Suite("OpenID4VP 1.0 conformance checklist through the wallet (issue 16)")
struct RedirectWalletConformanceTests {
  /// The disclosed claim names of an SD-JWT presentation.
  static func disclosedNames(_ presentation: String) throws -> [String] {
    let parts = presentation.split(separator: "~", omittingEmptySubsequences: false)
    return try parts.dropFirst().dropLast().compactMap { part in
      try JSONValue(parsing: try Base64URL.decode(String(part)))[1]?.string
    }
  }

  /// oid4vp-1final-wallet-alternate-happy-flow: 64-character state, 43-character nonce, an
  /// unknown parameter, an `iss` that is not the client_id, an encryption JWK without `use`,
  /// reordered URI parameters; the `redirect_uri` the response_uri answers with is handed back.
  @Test(
    "alternate happy flow: long state and nonce, extra parameters ignored, redirect_uri handed back"
  )
  func alternateHappyFlow() async throws {
    let state = String(repeating: "a", count: 62) + "-_"
    let nonce = Base64URL.encode([UInt8](repeating: 9, count: 32))
    let setup = try await RedirectSetup(responseMode: "direct_post.jwt") { object in
      object.state = state
      object.nonce = nonce
      object.extra = [("rand_param_1", "x"), ("iss", "https://not-the-client.example")]
    }
    defer { setup.fixture.dir.remove() }
    let uri =
      "openid4vp://?request_uri="
      + (RedirectSetup.requestURI.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
        ?? "") + "&unknown=1&client_id=x509_san_dns%3Averifier.example"
    let request = try await setup.resolve(uri)
    let outcome = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    #expect(outcome.redirectURI?.absoluteString == RedirectSetup.done)
    let form = try #require(setup.responses.first)
    let payload = try JSONValue(
      parsing: try CompactJWE(try #require(form["response"])).decrypt(with: setup.encryptionKey))
    #expect(payload["state"] == .string(state))
    let presentation = try #require(payload["vp_token"]?["pid_sdjwt"]?[0]?.string)
    let kb = try jwtPayload(try #require(presentation.split(separator: "~").last))
    #expect(kb["nonce"] == .string(nonce))
    #expect(kb["aud"] == "x509_san_dns:verifier.example")
  }

  /// oid4vp-1final-wallet-alternate-happy-flow, `redirect_uri` prefix with `direct_post`: no
  /// `response_uri` in the request; the wallet answers at the client identifier's URI (§5.9.3).
  @Test("redirect_uri prefix without response_uri: answered at the client identifier's URI")
  func redirectURIPrefixWithoutResponseURI() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let query = ["credentials": [ConsentFixture.pidSDJWTQuery]] as JSONValue
    let uri =
      "openid4vp://?"
      + FormParameters([
        ("response_mode", "direct_post"),
        ("client_id", "redirect_uri:\(RedirectSetup.responseURI)"),
        ("response_type", "vp_token"), ("nonce", "nonce-by-value"), ("state", "s-1"),
        ("dcql_query", query.serialized()),
      ]).encoded
    let request = try await setup.resolve(uri)
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let posted = try #require(setup.verifier.received.last)
    #expect(posted.url.absoluteString == RedirectSetup.responseURI)
    #expect(setup.responses.first?["state"] == "s-1")
  }

  /// oid4vp-1final-wallet-fewer-claims-than-available: one claim asked, one disclosed.
  @Test("fewer claims than available: only the claim asked for is disclosed")
  func fewerClaimsThanAvailable() async throws {
    let query: JSONValue = [
      "credentials": [
        [
          "id": "pid_sdjwt", "format": "dc+sd-jwt",
          "meta": ["vct_values": [.string(ConsentFixture.pidType)]],
          "claims": [["path": ["given_name"]]],
        ]
      ]
    ]
    let setup = try await RedirectSetup(query: query)
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let token = try JSONValue(parsing: try #require(setup.responses.first?["vp_token"]))
    let presentation = try #require(token["pid_sdjwt"]?[0]?.string)
    #expect(try Self.disclosedNames(presentation) == ["given_name"])
  }

  /// oid4vp-1final-wallet-no-claims-in-dcql-query: nothing selectively disclosable is disclosed.
  @Test("no claims in the DCQL query: the SD-JWT is presented without disclosures")
  func noClaimsInDCQLQuery() async throws {
    let query: JSONValue = [
      "credentials": [
        [
          "id": "pid_sdjwt", "format": "dc+sd-jwt",
          "meta": ["vct_values": [.string(ConsentFixture.pidType)]],
        ]
      ]
    ]
    let setup = try await RedirectSetup(query: query)
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let token = try JSONValue(parsing: try #require(setup.responses.first?["vp_token"]))
    #expect(try Self.disclosedNames(try #require(token["pid_sdjwt"]?[0]?.string)).isEmpty)
  }

  /// oid4vp-1final-wallet-optional-credential-set: the optional set's credential is not
  /// stored; the wallet answers with the required one.
  @Test("optional credential set: answered with the required credential only")
  func optionalCredentialSet() async throws {
    let missing: JSONValue = [
      "id": "other", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:example:not-stored"]],
    ]
    let query: JSONValue = [
      "credentials": [ConsentFixture.pidSDJWTQuery, missing],
      "credential_sets": [
        ["options": [["pid_sdjwt"]]], ["options": [["other"]], "required": false],
      ],
    ]
    let setup = try await RedirectSetup(query: query)
    defer { setup.fixture.dir.remove() }
    let request = try await setup.resolve()
    _ = try await setup.wallet.respond(
      to: request, consent: try request.proposedConsent(), httpClient: setup.client)
    let token = try JSONValue(parsing: try #require(setup.responses.first?["vp_token"]))
    #expect(token.object?.map(\.key) == ["pid_sdjwt"])
  }

  /// oid4vp-1final-wallet-negative-test-required-non-matching-credential: no stored credential
  /// matches the required query: no `vp_token` is sent, `access_denied` with `state` is posted.
  @Test(
    "required non-matching credential: refused, access_denied posted with state, no vp_token",
    arguments: ["direct_post", "direct_post.jwt"])
  func requiredNonMatchingCredential(_ mode: String) async throws {
    let query: JSONValue = [
      "credentials": [
        ["id": "other", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:example:not-stored"]]]
      ]
    ]
    let setup = try await RedirectSetup(query: query, responseMode: mode)
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code != nil)
    let form = try #require(setup.responses.first)
    #expect(form["vp_token"] == nil)
    let fields: JSONValue
    if mode == "direct_post.jwt" {
      fields = try JSONValue(
        parsing: try CompactJWE(try #require(form["response"])).decrypt(
          with: setup.encryptionKey))
    } else {
      fields = .object(form.parameters.map { (key: $0.name, value: JSONValue.string($0.value)) })
    }
    #expect(fields["error"] == "access_denied")
    #expect(fields["state"] == "state-1")
    #expect(fields["vp_token"] == nil)
  }

  /// oid4vp-1final-wallet-negative-test-missing-nonce for the `redirect_uri` prefix: by value
  /// without `response_uri`, and by reference unsigned; refused, the error posted to the client
  /// identifier's URI with the `state`.
  @Test("missing nonce, redirect_uri prefix: invalid_request posted to the client identifier's URI")
  func missingNonceRedirectURIPrefix() async throws {
    let setup = try await RedirectSetup()
    defer { setup.fixture.dir.remove() }
    let clientID = "redirect_uri:\(RedirectSetup.responseURI)"
    let query = ["credentials": [ConsentFixture.pidSDJWTQuery]] as JSONValue
    let byValue =
      "openid4vp://?"
      + FormParameters([
        ("client_id", clientID), ("response_type", "vp_token"), ("response_mode", "direct_post"),
        ("state", "s-2"), ("dcql_query", query.serialized()),
      ]).encoded
    _ = await setup.refusal { _ = try await setup.resolve(byValue) }
    #expect(setup.verifier.received.last?.url.absoluteString == RedirectSetup.responseURI)
    #expect(setup.responses.last?["error"] == "invalid_request")
    #expect(setup.responses.last?["state"] == "s-2")
    let now = setup.fixture.now
    setup.verifier.settings.requestObject = { form in
      var object = RedirectRequestObject(
        clientID: clientID, responseURI: RedirectSetup.responseURI, dcqlQuery: query,
        nonce: "", issuedAt: now)
      object.state = "s-3"
      return object.unsigned(walletNonce: form?["wallet_nonce"])
    }
    _ = await setup.refusal { _ = try await setup.resolve(setup.uri(clientID: clientID)) }
    #expect(setup.responses.count == 2)
    #expect(setup.responses.last?["error"] == "invalid_request")
    #expect(setup.responses.last?["state"] == "s-3")
  }

  /// oid4vp-1final-wallet-negative-test-missing-nonce through the wallet (an empty nonce; the
  /// protocol-level test leaves it out): refused; the
  /// `x509_san_dns` host the client identifier names learns `invalid_request`.
  @Test("missing nonce: refused, invalid_request posted to the x509_san_dns host")
  func missingNonce() async throws {
    let setup = try await RedirectSetup { $0.nonce = "" }
    defer { setup.fixture.dir.remove() }
    let refused = await setup.refusal { _ = try await setup.resolve() }
    #expect(refused.code == .invalidRequest)
    #expect(refused.reason.contains("nonce"))
    #expect(setup.responses.first?["error"] == "invalid_request")
    #expect(setup.responses.first?["vp_token"] == nil)
  }
}
