import DCHTTP
import DCJSON
import DCOpenID4VP
import DCQL
import DCVerifier
import Foundation
import Testing

/// The OpenID4VP module's wallet side (`AuthorizationRequestURI`, `RedirectAuthorizationRequest`,
/// `respond`, `errorResponse`) against the redirect verifier, in process: every Client Identifier
/// Prefix, both response modes, both request_uri methods, an SD-JWT VC and an mdoc in one query,
/// and a declined request.
@Suite("Redirect verifier with the OpenID4VP wallet side")
struct RedirectInteropTests {
  static let bothQuery: JSONValue = [
    "credentials": [
      RedirectFixture.pidQuery["credentials"]?[0] ?? .null,
      RedirectFixture.mdlQuery["credentials"]?[0] ?? .null,
    ]
  ]

  /// The wallet reads the URI, fetches and checks the request object, and returns the request.
  func walletRead(_ fixture: RedirectFixture, _ text: String) async throws
    -> RedirectAuthorizationRequest
  {
    let uri = try AuthorizationRequestURI(text)
    var requestObject: String? = nil
    var walletNonce: String? = nil
    if let fetch = uri.requestObjectFetch() {
      let fetched = await fixture.handler.handle(fetch.request)
      #expect(fetched.status == 200)
      #expect(fetched.headers["Content-Type"] == "application/oauth-authz-req+jwt")
      requestObject = String(decoding: fetched.body, as: UTF8.self)
      walletNonce = fetch.walletNonce
    }
    return try RedirectAuthorizationRequest(
      uri: uri, requestObject: requestObject, verifierTrustAnchors: [fixture.verifierRoot],
      walletNonce: walletNonce, now: fixture.clock.now)
  }

  func presentations(_ fixture: RedirectFixture, _ query: DCQLQuery) throws
    -> [String: [CredentialPresentation]]
  {
    let pid = try SDJWTCredential(id: "stored-pid", sdJWT: fixture.pid)
    let mdl = MdocCredential(id: "stored-mdl", issuerSigned: fixture.mdl)
    let credentials: [any DCQLCredential] = [pid, mdl]
    var result: [String: [CredentialPresentation]] = [:]
    for (id, candidates) in query.evaluate(credentials).defaultSelection() {
      for candidate in candidates {
        switch credentials[candidate.credentialIndex] {
        case let credential as SDJWTCredential:
          result[id, default: []].append(
            credential.presentation(disclosing: candidate.disclosed, holderKey: fixture.holderKey))
        case let credential as MdocCredential:
          result[id, default: []].append(
            credential.presentation(disclosing: candidate.disclosed, deviceKey: fixture.deviceKey))
        default: break
        }
      }
    }
    return result
  }

  @Test(
    arguments: [
      ClientIdentifier.Prefix.x509SANDNS, .x509Hash, .verifierAttestation, .redirectURI,
    ], [DirectPostMode.directPost, .directPostJWT])
  func everyPrefixAndMode(prefix: ClientIdentifier.Prefix, mode: DirectPostMode) async throws {
    for method in VerifierRequestURIMethod.allCases {
      if prefix == .redirectURI && method == .post { continue }
      let fixture = try RedirectFixture()
      let created = try await fixture.verifier.createTransaction(
        dcqlQuery: Self.bothQuery,
        options: .init(
          flow: .sameDevice, clientIDPrefix: prefix, responseMode: mode, requestURIMethod: method
        ))
      let request = try await walletRead(fixture, created.authorizationRequestURI)
      #expect(request.clientID.prefix == prefix)
      #expect(request.isSigned == (prefix != .redirectURI))
      let response = try request.respond(
        presentations: try presentations(fixture, request.dcqlQuery), now: fixture.clock.now)
      let answer = await fixture.handler.handle(response.post.request)
      #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
      let redirect = try #require(try JSONValue(parsing: answer.body)["redirect_uri"]?.string)
      let code = redirect.components(separatedBy: "#response_code=").last
      guard
        case .verified(let verified) = try await fixture.verifier.result(
          transactionID: created.transactionID, responseCode: code)
      else {
        Issue.record("\(prefix) \(mode) \(method): not verified")
        continue
      }
      #expect(verified.credentials["pid"]?.first?.claim(["given_name"]) == "Erika")
      #expect(
        verified.credentials["mdl"]?.first?.claim(["org.iso.18013.5.1", "family_name"])
          == "Mustermann")
    }
  }

  @Test(arguments: [DirectPostMode.directPost, .directPostJWT])
  func aDeclinedRequestIsTheWalletsError(mode: DirectPostMode) async throws {
    let fixture = try RedirectFixture()
    let created = try await fixture.verifier.createTransaction(
      dcqlQuery: RedirectFixture.pidQuery, options: .init(responseMode: mode))
    let request = try await walletRead(fixture, created.authorizationRequestURI)
    let post = try request.errorResponse(.accessDenied("declined"))
    let answer = await fixture.handler.handle(post.request)
    #expect(answer.status == 200)
    #expect(
      try await fixture.verifier.result(transactionID: created.transactionID)
        == .walletError(.accessDenied("declined")))
  }
}
