import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCQL
import DCX509
import Foundation
import Testing

/// The OpenID conformance suite's OpenID4VP 1.0 wallet test plan (`oid4vp-1final-wallet-*`,
/// openid-certification/conformance-suite `vp1finalwallet`) as a checklist, for the redirect
/// response modes: each test names the suite's module it stands for. The wallet side runs as the
/// wallet does: the authorization request URI read, the request object fetched from an in-process
/// verifier `HTTPHandler` (GET, or POST with `wallet_nonce`), checked, answered with the default
/// DCQL selection, and the answer posted back to the handler's `response_uri`.
/// /work/notes/conformance16-coverage.md maps every module of the plan to its test.
struct RedirectConformanceTests {
  /// One conformance variant: client id prefix × request method × response mode.
  enum Method: String, CaseIterable, Sendable {
    case urlQuery = "url_query"
    case requestURIUnsigned = "request_uri_unsigned"
    case requestURISigned = "request_uri_signed"
  }

  struct Variant: Sendable, CustomStringConvertible {
    let prefix: String
    let method: Method
    let mode: String
    var description: String { "\(prefix) \(method.rawValue) \(mode)" }
  }

  static let redirectClientURI = "https://verifier.example/cb"

  /// The applicable variants of the plan: `redirect_uri` only unsigned (§5.9.3), the x509
  /// prefixes and ours (`verifier_attestation`) only signed.
  static let variants: [Variant] =
    ["direct_post", "direct_post.jwt"].flatMap { mode in
      [
        Variant(prefix: "redirect_uri", method: .urlQuery, mode: mode),
        Variant(prefix: "redirect_uri", method: .requestURIUnsigned, mode: mode),
        Variant(prefix: "x509_san_dns", method: .requestURISigned, mode: mode),
        Variant(prefix: "x509_hash", method: .requestURISigned, mode: mode),
        Variant(prefix: "verifier_attestation", method: .requestURISigned, mode: mode),
      ]
    }

  /// The verifier as an in-process `HTTPHandler`: it serves the request object at `request_uri`
  /// and records what is posted to `response_uri`, answering with `answer`.
  final class Verifier: HTTPHandler, @unchecked Sendable {
    let lock = NSLock()
    var requestObject: (_ walletNonce: String?) throws -> String
    var answer: JSONValue = .object([])
    var posted: [HTTPRequest] = []

    init(_ requestObject: @escaping (_ walletNonce: String?) throws -> String) {
      self.requestObject = requestObject
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      if request.method == .post && request.url.path.hasSuffix("/request/tx1") {
        let body = String(decoding: request.body, as: UTF8.self)
        let nonce = body.split(separator: "&").first { $0.hasPrefix("wallet_nonce=") }
          .map { String($0.dropFirst("wallet_nonce=".count)).removingPercentEncoding ?? "" }
        return serve(nonce)
      }
      if request.method == .get && request.url.path.hasSuffix("/request/tx1") {
        return serve(nil)
      }
      lock.withLock { posted.append(request) }
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: lock.withLock { answer }.serializedBytes())
    }

    func serve(_ walletNonce: String?) -> HTTPResponse {
      guard let object = try? requestObject(walletNonce) else { return HTTPResponse(status: 500) }
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"],
        body: Array(object.utf8))
    }
  }

  /// The wallet's side: reads the URI, fetches the object (with `wallet_nonce` for POST), checks.
  static func read(
    _ uriText: String, verifier: Verifier, f: RedirectFixture,
    supportedTransactionDataTypes: Set<String> = [Fixture.paymentType]
  ) async throws -> RedirectAuthorizationRequest {
    let uri = try AuthorizationRequestURI(uriText)
    var object: String? = nil
    var walletNonce: String? = nil
    if let fetch = uri.requestObjectFetch() {
      let response = await verifier.handle(fetch.request)
      #expect(response.status == 200)
      object = String(decoding: response.body, as: UTF8.self)
      walletNonce = fetch.walletNonce
    }
    return try RedirectAuthorizationRequest(
      uri: uri, requestObject: object, verifierTrustAnchors: [f.base.verifierRoot],
      walletNonce: walletNonce, now: f.now,
      supportedTransactionDataTypes: supportedTransactionDataTypes)
  }

  /// The wallet answers with the default selection and posts; returns the posted body's
  /// plaintext members and the verifier's answer as the wallet reads it.
  static func answer(
    _ request: RedirectAuthorizationRequest, verifier: Verifier, f: RedirectFixture,
    credentials: Set<String> = ["pid", "mdl"]
  ) async throws -> JSONValue {
    let presentations = try f.presentations(for: request.dcqlQuery).filter {
      credentials.contains($0.key)
    }
    let response = try request.respond(presentations: presentations, now: f.now)
    #expect(await verifier.handle(response.post.request).status == 200)
    let body = try DirectPostBody(formBody: try #require(verifier.posted.last).body)
    switch body {
    case .encrypted(let jwe):
      #expect(request.responseMode == .directPostJWT)
      return try JSONValue(parsing: try CompactJWE(jwe).decrypt(with: f.encryptionKey))
    case .vpToken(let token, let state):
      #expect(request.responseMode == .directPost)
      var members: [(key: String, value: JSONValue)] = [("vp_token", token)]
      if let state { members.append(("state", .string(state))) }
      return .object(members)
    case .error(let error, _):
      Issue.record("unexpected error body \(error)")
      return .null
    }
  }

  /// The parameters and URI of one variant; `change` edits the request parameters.
  static func request(
    _ variant: Variant, f: RedirectFixture, verifier: Verifier? = nil,
    change: (inout [(key: String, value: JSONValue)]) -> Void = { _ in }
  ) throws -> (uri: String, verifier: Verifier) {
    let clientID: String
    switch variant.prefix {
    case "redirect_uri": clientID = "redirect_uri:" + redirectClientURI
    case "x509_hash":
      clientID =
        "x509_hash:" + Base64URL.encode(SHA256.hash(data: f.base.verifierCertificate.derBytes))
    case "verifier_attestation": clientID = "verifier_attestation:verifier.example"
    default: clientID = RedirectFixture.clientID
    }
    let responseURI =
      variant.prefix == "redirect_uri" ? redirectClientURI : RedirectFixture.responseURI
    var members =
      f.parameters(clientID: clientID, mode: variant.mode, responseURI: responseURI)
      .object ?? []
    if variant.method != .requestURISigned {
      members.removeAll { ["aud", "iat", "exp"].contains($0.key) }
    }
    change(&members)
    let parameters = JSONValue.object(members)
    let attestation =
      variant.prefix == "verifier_attestation"
      ? try f.attestation(redirectURIs: nil) : nil
    let object: (String?) throws -> String = { walletNonce in
      var payload = parameters.object ?? []
      if let walletNonce { payload.append(("wallet_nonce", .string(walletNonce))) }
      switch variant.method {
      case .requestURIUnsigned:
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"oauth-authz-req+jwt"}"#.utf8))
        return header + "." + Base64URL.encode(JSONValue.object(payload).serializedBytes()) + "."
      default:
        if let attestation {
          return try f.attested(.object(payload), attestation: attestation)
        }
        return try f.signed(.object(payload))
      }
    }
    let server = verifier ?? Verifier(object)
    server.requestObject = object
    let uri: String
    switch variant.method {
    case .urlQuery:
      uri =
        "openid4vp://?"
        + RedirectFixture.form(
          members.map { ($0.key, $0.value.string ?? $0.value.serialized()) })
    default:
      uri =
        "openid4vp://?"
        + RedirectFixture.form([
          ("client_id", clientID), ("request_uri", RedirectFixture.requestURI),
        ])
    }
    return (uri, server)
  }

  /// The disclosed claim names of the SD-JWT presentation (its disclosures' second members).
  static func disclosedNames(_ presentation: String) throws -> [String] {
    let parts = presentation.split(separator: "~", omittingEmptySubsequences: false)
    return try parts.dropFirst().dropLast().compactMap { part in
      try JSONValue(parsing: try Base64URL.decode(String(part)))[1]?.string
    }
  }

  /// The mdoc data elements presented.
  static func mdocElements(_ presentation: String) throws -> [String] {
    let response = try DeviceResponse(bytes: try Base64URL.decode(presentation))
    return response.documents.flatMap {
      $0.issuerSigned.nameSpaces.flatMap { $0.items.map(\.elementIdentifier) }
    }
  }

  // MARK: positive

  /// oid4vp-1final-wallet-happy-flow (no `state`), for every applicable prefix, request method
  /// and response mode, presenting an SD-JWT VC and an mdoc bound to the client identifier.
  @Test(arguments: variants)
  func happyFlow(_ variant: Variant) async throws {
    let f = try RedirectFixture()
    let (uri, verifier) = try Self.request(variant, f: f) { $0.removeAll { $0.key == "state" } }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    #expect(request.isSigned == (variant.method == .requestURISigned))
    #expect(request.verifier.isAuthenticated == (variant.prefix != "redirect_uri"))
    let payload = try await Self.answer(request, verifier: verifier, f: f)
    #expect(payload["state"] == nil)
    let token = try #require(payload["vp_token"])
    let pid = try #require(token["pid"]?[0]?.string)
    let kb = try CompactJWS(String(try #require(pid.split(separator: "~").last)))
    let kbClaims = try JSONValue(parsing: kb.payload)
    // Appendix B.3.6: aud is the full client identifier outside the DC API.
    #expect(kbClaims["aud"] == .string(request.clientID.rawValue))
    #expect(kbClaims["nonce"] == .string(request.nonce))
    let mdl = try #require(token["mdl"]?[0]?.string)
    let document = try #require(try DeviceResponse(bytes: Base64URL.decode(mdl)).documents.first)
    // Appendix B.2.6.1: the handover binds client_id, nonce, thumbprint and response_uri.
    try document.verifyDeviceAuthentication(
      sessionTranscript: RedirectBinding.sessionTranscript(
        clientID: request.clientID, nonce: request.nonce,
        jwkThumbprint: variant.mode == "direct_post.jwt" ? f.encryptionJWK.thumbprint() : nil,
        responseURI: request.responseURIText), deviceKey: f.base.deviceKey.publicKey)
    let posted = try #require(verifier.posted.last)
    #expect(posted.url.absoluteString == request.responseURIText)
  }

  /// oid4vp-1final-wallet-alternate-happy-flow: a 64-character `state`, a 43-character `nonce`,
  /// an unknown extra parameter (ignored), an `iss` that is not the client_id (ignored), an
  /// encryption JWK without `use`, and reordered query parameters.
  @Test(arguments: variants)
  func alternateHappyFlow(_ variant: Variant) async throws {
    let f = try RedirectFixture()
    let state = String(repeating: "s", count: 60) + "-_~9"
    let nonce = Base64URL.encode(Array(repeating: 7, count: 32))
    #expect(state.count == 64 && nonce.count == 43)
    let (requestURI, verifier) = try Self.request(variant, f: f) { members in
      for index in members.indices {
        switch members[index].key {
        case "state": members[index].value = .string(state)
        case "nonce": members[index].value = .string(nonce)
        case "client_metadata":
          let key = JWK(publicKey: f.encryptionKey.publicKey, kid: "enc-1")
          #expect(key.use == nil)
          members[index].value = .object([
            ("jwks", .object([("keys", [key.json])])),
            ("encrypted_response_enc_values_supported", ["A128GCM"]),
          ])
        default: break
        }
      }
      members.append(("rand_param_x7Hq", "ignored-value"))
      members.append(("iss", "https://someone-else.example"))
      members.reverse()
    }
    // Reordered: request_uri before client_id, and an extra parameter in the URI too.
    var uri = requestURI
    if variant.method != .urlQuery {
      uri =
        "openid4vp://?"
        + RedirectFixture.form([
          ("request_uri", RedirectFixture.requestURI), ("extra_uri_param", "1"),
          ("client_id", try AuthorizationRequestURI(uri).clientID.rawValue),
        ])
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    #expect(request.state == state)
    #expect(request.nonce == nonce)
    if variant.mode == "direct_post.jwt" {
      #expect(request.responseEncryption?.key.use == nil)
    }
    let payload = try await Self.answer(request, verifier: verifier, f: f)
    #expect(payload["state"] == .string(state))
    let pid = try #require(payload["vp_token"]?["pid"]?[0]?.string)
    let kb = try CompactJWS(String(try #require(pid.split(separator: "~").last)))
    #expect(try JSONValue(parsing: kb.payload)["nonce"] == .string(nonce))
  }

  /// oid4vp-1final-wallet-alternate-happy-flow, `redirect_uri` prefix: the request omits
  /// `response_uri` and the wallet answers at the client identifier's URI (§5.9.3).
  @Test(arguments: variants.filter { $0.prefix == "redirect_uri" })
  func alternateHappyFlowDerivesTheResponseURI(_ variant: Variant) async throws {
    let f = try RedirectFixture()
    let (uri, verifier) = try Self.request(variant, f: f) {
      $0.removeAll { $0.key == "response_uri" }
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    #expect(request.responseURIText == Self.redirectClientURI)
    _ = try await Self.answer(request, verifier: verifier, f: f)
    #expect(verifier.posted.last?.url.absoluteString == Self.redirectClientURI)
    // Other prefixes still need one (§8.2).
    let x509 = Variant(prefix: "x509_san_dns", method: .requestURISigned, mode: variant.mode)
    let (other, otherVerifier) = try Self.request(x509, f: f) {
      $0.removeAll { $0.key == "response_uri" }
    }
    await #expect(throws: OpenID4VPError.self) {
      _ = try await Self.read(other, verifier: otherVerifier, f: f)
    }
  }

  /// oid4vp-1final-wallet-request-uri-method-post: the object is fetched by POST with
  /// `wallet_metadata` and a fresh `wallet_nonce`, which it echoes.
  @Test(arguments: variants.filter { $0.method != .urlQuery })
  func requestURIMethodPost(_ variant: Variant) async throws {
    let f = try RedirectFixture()
    let (requestURI, verifier) = try Self.request(variant, f: f)
    let uri = requestURI + "&request_uri_method=post"
    let request = try await Self.read(uri, verifier: verifier, f: f)
    _ = try await Self.answer(request, verifier: verifier, f: f)
    // An object with another wallet_nonce is refused.
    let echo = verifier.requestObject
    verifier.requestObject = { _ in try echo("not-the-wallet-nonce") }
    let error = await #expect(throws: OpenID4VPError.self) {
      _ = try await Self.read(uri, verifier: verifier, f: f)
    }
    #expect(error?.reason.contains("wallet_nonce") == true)
  }

  /// oid4vp-1final-wallet-ignores-unusable-encryption-key: `jwks` holds an `AKP` key and a
  /// made-up `kty` beside the usable P-256 key; the response is encrypted to the usable one.
  @Test func ignoresUnusableEncryptionKey() async throws {
    let f = try RedirectFixture()
    let variant = Variant(
      prefix: "x509_san_dns", method: .requestURISigned, mode: "direct_post.jwt")
    let (uri, verifier) = try Self.request(variant, f: f) { members in
      let index = members.firstIndex { $0.key == "client_metadata" }!
      members[index].value = .object([
        (
          "jwks",
          .object([
            (
              "keys",
              [
                ["kty": "AKP", "alg": "ML-DSA-44", "pub": "AAAA", "kid": "pq"],
                ["kty": "made-up", "kid": "weird", "use": "enc"],
                f.encryptionJWK.json,
              ]
            )
          ])
        ),
        ("encrypted_response_enc_values_supported", ["A128GCM"]),
      ])
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    #expect(request.responseEncryption?.key.kid == "enc-1")
    let payload = try await Self.answer(request, verifier: verifier, f: f)
    #expect(payload["vp_token"]?["pid"] != nil)
  }

  // MARK: DCQL variations

  static let x509JWT = Variant(
    prefix: "x509_san_dns", method: .requestURISigned, mode: "direct_post.jwt")

  /// oid4vp-1final-wallet-fewer-claims-than-available: only the claims asked for are disclosed.
  @Test func fewerClaimsThanAvailable() async throws {
    let f = try RedirectFixture()
    let query: JSONValue = [
      "credentials": [
        [
          "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(Fixture.pidType)]],
          "claims": [["path": ["given_name"]]],
        ],
        [
          "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
          "claims": [["path": ["org.iso.18013.5.1", "age_over_18"]]],
        ],
      ]
    ]
    let (uri, verifier) = try Self.request(Self.x509JWT, f: f) { members in
      members[members.firstIndex { $0.key == "dcql_query" }!].value = query
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    let token = try #require(try await Self.answer(request, verifier: verifier, f: f)["vp_token"])
    #expect(try Self.disclosedNames(try #require(token["pid"]?[0]?.string)) == ["given_name"])
    #expect(try Self.mdocElements(try #require(token["mdl"]?[0]?.string)) == ["age_over_18"])
  }

  /// oid4vp-1final-wallet-optional-credential-set: a wallet without the optional credential
  /// answers with the required one only.
  @Test func optionalCredentialSet() async throws {
    let f = try RedirectFixture()
    var query = Fixture.query.object ?? []
    query[query.firstIndex { $0.key == "credential_sets" }!].value = [
      ["options": [["pid"]]], ["options": [["mdl"]], "required": false],
    ]
    let (uri, verifier) = try Self.request(Self.x509JWT, f: f) { members in
      members[members.firstIndex { $0.key == "dcql_query" }!].value = .object(query)
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    let pid = try SDJWTCredential(id: "stored-pid", sdJWT: f.base.pid)
    let evaluation = request.dcqlQuery.evaluate([pid])
    #expect(evaluation.isSatisfied)
    let token = try #require(
      try await Self.answer(request, verifier: verifier, f: f, credentials: ["pid"])["vp_token"])
    #expect(token.object?.map(\.key) == ["pid"])
    // The same set required cannot be satisfied by the PID alone.
    let required = try DCQLQuery(ClaimValue(Fixture.query))
    #expect(!required.evaluate([pid]).isSatisfied)
  }

  /// oid4vp-1final-wallet-no-claims-in-dcql-query: without `claims` no selectively disclosable
  /// claim is disclosed (OpenID4VP 1.0 §6.1).
  @Test func noClaimsInDCQLQuery() async throws {
    let f = try RedirectFixture()
    let query: JSONValue = [
      "credentials": [
        ["id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(Fixture.pidType)]]]
      ]
    ]
    let (uri, verifier) = try Self.request(Self.x509JWT, f: f) { members in
      members[members.firstIndex { $0.key == "dcql_query" }!].value = query
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    let token = try #require(try await Self.answer(request, verifier: verifier, f: f)["vp_token"])
    let pid = try #require(token["pid"]?[0]?.string)
    #expect(try Self.disclosedNames(pid).isEmpty)
    #expect(pid.split(separator: "~", omittingEmptySubsequences: false).count == 2)
  }

  // MARK: negative

  func refused(
    _ variant: Variant = RedirectConformanceTests.x509JWT, uri: ((String) -> String)? = nil,
    object: ((String) throws -> String)? = nil,
    supportedTransactionDataTypes: Set<String> = [Fixture.paymentType],
    change: (inout [(key: String, value: JSONValue)]) -> Void = { _ in }
  ) async throws -> OpenID4VPError? {
    let f = try RedirectFixture()
    let (requestURI, verifier) = try Self.request(variant, f: f, change: change)
    let text = uri?(requestURI) ?? requestURI
    if let object {
      let original = verifier.requestObject
      verifier.requestObject = { try object(try original($0)) }
    }
    do {
      let request = try await Self.read(
        text, verifier: verifier, f: f,
        supportedTransactionDataTypes: supportedTransactionDataTypes)
      Issue.record("expected a refusal, read \(request.clientID)")
      return nil
    } catch let error as OpenID4VPError {
      // Nothing is posted for a request that does not check.
      #expect(verifier.posted.isEmpty)
      return error
    }
  }

  /// oid4vp-1final-wallet-negative-test-response-uri-not-client-id: an `x509_san_dns` request
  /// whose `response_uri` host is not the DNS name.
  @Test func negativeResponseURINotClientID() async throws {
    let error = try await refused(change: { members in
      members[members.firstIndex { $0.key == "response_uri" }!].value =
        "https://attacker.example/response"
    })
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("attacker.example") == true)
  }

  /// oid4vp-1final-wallet-negative-test-invalid-request-object-signature.
  @Test(arguments: ["x509_san_dns", "x509_hash", "verifier_attestation"])
  func negativeInvalidRequestObjectSignature(_ prefix: String) async throws {
    let error = try await refused(
      Variant(prefix: prefix, method: .requestURISigned, mode: "direct_post"),
      object: { signed in
        var parts = signed.split(separator: ".").map(String.init)
        var signature = try Base64URL.decode(parts[2])
        signature[5] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        return parts.joined(separator: ".")
      })
    #expect(error?.code == .invalidRequestSignature)
    #expect(error?.errorResponse?.error == .invalidClient)
  }

  /// oid4vp-1final-wallet-negative-test-mismatched-client-id: the URI's client_id is not the
  /// request object's.
  @Test(arguments: variants.filter { $0.method != .urlQuery })
  func negativeMismatchedClientID(_ variant: Variant) async throws {
    let error = try await refused(
      variant,
      uri: { text in
        let id = (try? AuthorizationRequestURI(text))?.clientID.rawValue ?? ""
        return text.replacingOccurrences(
          of: RedirectFixture.encode(id), with: RedirectFixture.encode(id + "x"))
      })
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("client_id") == true)
  }

  /// oid4vp-1final-wallet-negative-test-redirect-uri-with-direct-post: `redirect_uri` in place
  /// of `response_uri` with a `direct_post(.jwt)` mode.
  @Test(arguments: variants)
  func negativeRedirectURIWithDirectPost(_ variant: Variant) async throws {
    let error = try await refused(
      variant,
      change: { members in
        let index = members.firstIndex { $0.key == "response_uri" }!
        members[index].key = "redirect_uri"
      })
    #expect(error?.code == .invalidRequest)
  }

  /// oid4vp-1final-wallet-negative-test-missing-nonce.
  @Test(arguments: variants)
  func negativeMissingNonce(_ variant: Variant) async throws {
    let error = try await refused(variant, change: { $0.removeAll { $0.key == "nonce" } })
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("nonce") == true)
  }

  /// oid4vp-1final-wallet-negative-test-invalid-client-id-prefix: a prefix the wallet does not
  /// know (and the ones it does not support here) is refused with `unsupportedClientIDPrefix`.
  @Test(arguments: ["invalid_prefix:verifier.example", "decentralized_identifier:did:example:1"])
  func negativeInvalidClientIDPrefix(_ clientID: String) async throws {
    let rewrite: (String) -> String = {
      $0.replacingOccurrences(
        of: RedirectFixture.encode(RedirectFixture.clientID),
        with: RedirectFixture.encode(clientID))
    }
    let error = try await refused(
      uri: rewrite,
      change: { members in
        members[members.firstIndex { $0.key == "client_id" }!].value = .string(clientID)
      })
    #expect(error?.code == .unsupportedClientIDPrefix)
  }

  /// AbstractVP1FinalWalletInvalidRequestObjectTyp (missing or invalid `typ`).
  @Test(arguments: [nil, "JWT", "oauth-authz-req"])
  func negativeInvalidRequestObjectTyp(_ typ: String?) async throws {
    let f = try RedirectFixture()
    let error = try await refused(object: { signed in
      let payload = try CompactJWS(signed).payload
      var header: [(key: String, value: JSONValue)] = [
        ("x5c", JWS.x5c([f.base.verifierCertificate.derBytes]))
      ]
      if let typ { header.append(("typ", .string(typ))) }
      // Otherwise valid: only the typ differs.
      return try JWS.sign(
        payload: payload, protectedHeader: .object(header), signer: f.base.verifierKey)
    })
    #expect(error?.reason.contains("typ") == true)
  }

  /// AbstractVP1FinalWalletInvalidRequestObjectTyp for `request_uri_unsigned`: an unsecured
  /// request object with another `typ` is refused too; one without `typ` is read.
  @Test func negativeInvalidUnsignedRequestObjectTyp() async throws {
    let variant = Variant(prefix: "redirect_uri", method: .requestURIUnsigned, mode: "direct_post")
    let error = try await refused(
      variant,
      object: { unsigned in
        let payload = String(unsigned.split(separator: ".")[0...1].last ?? "")
        return Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + payload + "."
      })
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("typ") == true)
    let f = try RedirectFixture()
    let (uri, verifier) = try Self.request(variant, f: f)
    let original = verifier.requestObject
    verifier.requestObject = { nonce in
      let payload = String(try original(nonce).split(separator: ".")[1])
      return Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + payload + "."
    }
    #expect(try await Self.read(uri, verifier: verifier, f: f).isSigned == false)
  }

  /// oid4vp-1final-wallet-negative-test-unknown-transaction-data-type.
  @Test func negativeUnknownTransactionDataType() async throws {
    let entry = Base64URL.encode(
      JSONValue.object([("type", "org.example.unknown"), ("credential_ids", ["pid"])])
        .serializedBytes())
    let error = try await refused(change: { members in
      members.append(("transaction_data", [.string(entry)]))
    })
    #expect(error?.code == .unsupportedTransactionData)
    #expect(error?.errorResponse?.error == .invalidTransactionData)
  }

  /// oid4vp-1final-wallet-negative-test-required-non-matching-credential: no stored credential
  /// satisfies the required query, so no `vp_token` is sent; the wallet posts `access_denied`
  /// with the `state` (OpenID4VP 1.0 §8.5).
  @Test(arguments: ["direct_post", "direct_post.jwt"])
  func negativeRequiredNonMatchingCredential(_ mode: String) async throws {
    let f = try RedirectFixture()
    let query: JSONValue = [
      "credentials": [
        ["id": "other", "format": "dc+sd-jwt", "meta": ["vct_values": ["urn:example:none"]]]
      ]
    ]
    let (uri, verifier) = try Self.request(
      Variant(prefix: "x509_san_dns", method: .requestURISigned, mode: mode), f: f
    ) { members in
      members[members.firstIndex { $0.key == "dcql_query" }!].value = query
    }
    let request = try await Self.read(uri, verifier: verifier, f: f)
    let pid = try SDJWTCredential(id: "stored-pid", sdJWT: f.base.pid)
    let mdl = MdocCredential(id: "stored-mdl", issuerSigned: f.base.mdl)
    #expect(!request.dcqlQuery.evaluate([pid, mdl]).isSatisfied)
    let post = try request.errorResponse(.accessDenied())
    #expect(await verifier.handle(post.request).status == 200)
    let body = try DirectPostBody(formBody: try #require(verifier.posted.last).body)
    let plain: DirectPostBody
    if case .encrypted(let jwe) = body {
      plain = try DirectPostBody(
        decryptedPayload: try JSONValue(
          parsing: try CompactJWE(jwe).decrypt(with: f.encryptionKey)))
    } else {
      plain = body
    }
    #expect(plain == .error(.accessDenied(), state: "st-42"))
  }
}
