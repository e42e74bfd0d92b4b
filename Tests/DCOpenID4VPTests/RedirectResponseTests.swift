import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCTestSupport
import Foundation
import Testing

/// direct_post / direct_post.jwt bodies, error responses, and the verifier's body parser
/// (OpenID4VP 1.0 §8.2, §8.3.1, §8.5, Appendix B.2.6.1, B.3.6).
struct RedirectResponseTests {
  func form(_ post: ResponsePost) -> [String: String] {
    var components = URLComponents()
    components.percentEncodedQuery = post.body
    return Dictionary(
      (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
      uniquingKeysWith: { a, _ in a })
  }

  /// Checks the KB-JWT audience and the mdoc device signature over the redirect transcript.
  func checkBinding(
    _ vpToken: JSONValue, request: RedirectAuthorizationRequest, fixture f: RedirectFixture,
    thumbprint: [UInt8]?
  ) throws {
    let pid = try #require(vpToken["pid"]?[0]?.string)
    let kb = try CompactJWS(try #require(pid.split(separator: "~").last.map(String.init)))
    let claims = try JSONValue(parsing: kb.payload)
    #expect(claims["aud"] == .string(RedirectFixture.clientID))
    #expect(claims["nonce"] == .string(request.nonce))
    let mdl = try #require(vpToken["mdl"]?[0]?.string)
    let document = try #require(try DeviceResponse(bytes: Base64URL.decode(mdl)).documents.first)
    let transcript = RedirectBinding.sessionTranscript(
      clientID: request.clientID, nonce: request.nonce, jwkThumbprint: thumbprint,
      responseURI: RedirectFixture.responseURI)
    try document.verifyDeviceAuthentication(
      sessionTranscript: transcript, deviceKey: f.base.deviceKey.publicKey)
    // Not the DC API handover, and not the other mode's thumbprint.
    let dcAPI = SessionTranscript(
      handover: Handover.openID4VPDCAPI(
        origin: Fixture.origin, nonce: request.nonce, jwkThumbprint: thumbprint))
    let invalidDeviceSignatureError = #expect(throws: MdocError.self) {
      try document.verifyDeviceAuthentication(
        sessionTranscript: dcAPI, deviceKey: f.base.deviceKey.publicKey)
    }
    #expect(invalidDeviceSignatureError?.code == .invalidDeviceSignature)
    let otherMode = RedirectBinding.sessionTranscript(
      clientID: request.clientID, nonce: request.nonce,
      jwkThumbprint: thumbprint == nil ? f.encryptionJWK.thumbprint() : nil,
      responseURI: RedirectFixture.responseURI)
    let invalidDeviceSignatureError2 = #expect(throws: MdocError.self) {
      try document.verifyDeviceAuthentication(
        sessionTranscript: otherMode, deviceKey: f.base.deviceKey.publicKey)
    }
    #expect(invalidDeviceSignatureError2?.code == .invalidDeviceSignature)
  }

  @Test func directPostPostsVPTokenAndState() throws {
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters(mode: "direct_post")))
    let response = try request.respond(
      presentations: try f.presentations(for: request.dcqlQuery), now: f.now)
    #expect(response.responseMode == .directPost)
    let post = response.post
    #expect(post.request.method == .post)
    #expect(post.request.url.absoluteString == RedirectFixture.responseURI)
    #expect(post.request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    #expect(post.request.body == Array(post.body.utf8))
    let fields = form(post)
    #expect(fields.keys.sorted() == ["state", "vp_token"])
    #expect(fields["state"] == "st-42")
    #expect(try JSONValue(parsing: try #require(fields["vp_token"])) == response.vpToken)
    try checkBinding(response.vpToken, request: request, fixture: f, thumbprint: nil)
    // The verifier's parser reads the same body back.
    #expect(
      try DirectPostBody(formBody: post.request.body) == .vpToken(response.vpToken, state: "st-42"))
  }

  @Test func directPostJWTPostsAnEncryptedResponse() throws {
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters()))
    let response = try request.respond(
      presentations: try f.presentations(for: request.dcqlQuery), now: f.now)
    let fields = form(response.post)
    #expect(fields.keys.sorted() == ["response"])
    let body = try DirectPostBody(formBody: response.post.request.body)
    guard case .encrypted(let jwe) = body else {
      Issue.record("expected an encrypted body")
      return
    }
    let compact = try CompactJWE(jwe)
    #expect(compact.algorithm == .ecdhES)
    #expect(compact.encryption == .a128gcm)
    let payload = try JSONValue(parsing: try compact.decrypt(with: f.encryptionKey))
    #expect(payload["state"] == "st-42")
    #expect(
      try DirectPostBody(decryptedPayload: payload) == .vpToken(response.vpToken, state: "st-42"))
    try checkBinding(
      response.vpToken, request: request, fixture: f, thumbprint: f.encryptionJWK.thumbprint())
  }

  @Test func withoutStateNothingIsEchoed() throws {
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters(mode: "direct_post", remove: ["state"])))
    #expect(request.state == nil)
    let response = try request.respond(
      presentations: try f.presentations(for: request.dcqlQuery), now: f.now)
    #expect(form(response.post).keys.sorted() == ["vp_token"])
  }

  @Test func unknownCredentialQueryIsRefused() throws {
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters(mode: "direct_post")))
    var presentations = try f.presentations(for: request.dcqlQuery)
    presentations["nope"] = presentations["pid"]
    let error = openID4VPError { _ = try request.respond(presentations: presentations, now: f.now) }
    #expect(error?.code == .invalidRequest)
  }

  @Test func accessDeniedIsPostedWithState() throws {
    let f = try RedirectFixture()
    let plain = try f.read(try f.signed(f.parameters(mode: "direct_post")))
    let post = try plain.errorResponse(.accessDenied("declined"))
    #expect(
      form(post) == ["error": "access_denied", "error_description": "declined", "state": "st-42"])
    #expect(
      try DirectPostBody(formBody: post.request.body)
        == .error(.accessDenied("declined"), state: "st-42"))

    let encrypted = try f.read(try f.signed(f.parameters()))
    let jwtPost = try encrypted.errorResponse(.accessDenied())
    guard case .encrypted(let jwe) = try DirectPostBody(formBody: jwtPost.request.body) else {
      Issue.record("expected an encrypted error")
      return
    }
    let payload = try JSONValue(parsing: try CompactJWE(jwe).decrypt(with: f.encryptionKey))
    #expect(
      try DirectPostBody(decryptedPayload: payload) == .error(.accessDenied(), state: "st-42"))
  }

  @Test func errorDestinationOfAnInvalidRequest() throws {
    let f = try RedirectFixture()
    // Expired, so refused, but its response_uri and state can take an error response.
    let object = try f.signed(f.parameters(set: [("exp", 1)]))
    #expect(openID4VPError { _ = try f.read(object) } != nil)
    let destination = try #require(
      RedirectAuthorizationRequest.errorDestination(
        uri: try f.referenceURI(), requestObject: object))
    #expect(destination.responseURI.absoluteString == RedirectFixture.responseURI)
    #expect(destination.state == "st-42")
    let post = RedirectAuthorizationRequest.errorPost(
      OpenID4VPErrorResponse(error: .invalidRequest, errorDescription: "expired"),
      responseURI: destination.responseURI, state: destination.state)
    #expect(
      form(post) == ["error": "invalid_request", "error_description": "expired", "state": "st-42"])
    // No usable response_uri: nowhere to post.
    let offLoopback = try f.signed(f.parameters(responseURI: "http://verifier.example/r"))
    #expect(
      RedirectAuthorizationRequest.errorDestination(
        uri: try f.referenceURI(), requestObject: offLoopback)
        == nil)
    #expect(
      RedirectAuthorizationRequest.errorDestination(
        uri: try f.referenceURI(), requestObject: "junk")
        == nil)
  }

  // MARK: the verifier's body parser

  func bodyRefusal(_ text: String) -> OpenID4VPError? {
    openID4VPError { _ = try DirectPostBody(formBody: Array(text.utf8)) }
  }

  @Test func bodyParserRefusesMalformedBodies() throws {
    #expect(bodyRefusal("state=x")?.reason.contains("none of") == true)
    #expect(bodyRefusal("vp_token=%7B%7D&response=a")?.reason.contains("several") == true)
    #expect(bodyRefusal("vp_token=%7B%7D&error=access_denied")?.reason.contains("several") == true)
    #expect(bodyRefusal("vp_token=%5B%5D")?.reason.contains("JSON object") == true)
    #expect(bodyRefusal("vp_token=%7Bnope")?.reason.contains("not JSON") == true)
    #expect(bodyRefusal("response=")?.reason.contains("empty") == true)
    #expect(bodyRefusal("response=a&response=b")?.reason.contains("duplicate") == true)
    #expect(bodyRefusal("response=%zz")?.reason.contains("badPercentEncoding") == true)
    let many = (0..<20).map { "f\($0)=1" }.joined(separator: "&") + "&response=a"
    #expect(bodyRefusal(many)?.reason.contains("tooManyFields") == true)
    let huge = "response=" + String(repeating: "a", count: DirectPostBody.maximumLength)
    #expect(bodyRefusal(huge)?.reason.contains("longer than") == true)
    #expect(
      openID4VPError { _ = try DirectPostBody(formBody: [0xFF, 0xFE]) }?.reason.contains("UTF-8")
        == true)
    #expect(
      openID4VPError { _ = try DirectPostBody(decryptedPayload: ["error": "x", "vp_token": [:]]) }?
        .reason.contains("not both") == true)
    #expect(
      openID4VPError { _ = try DirectPostBody(decryptedPayload: ["vp_token": [:], "state": 1]) }?
        .reason.contains("state") == true)
    #expect(try DirectPostBody(formBody: Array("vp_token=%7B%7D&state=s".utf8)).state == "s")
  }

  @Test func bodyParserReadsEachForm() throws {
    #expect(
      try DirectPostBody(formBody: Array("response=a.b.c.d.e".utf8)) == .encrypted("a.b.c.d.e"))
    #expect(
      try DirectPostBody(
        formBody: Array("error=invalid_request&error_description=bad+x&state=s".utf8))
        == .error(
          OpenID4VPErrorResponse(error: .invalidRequest, errorDescription: "bad x"), state: "s"))
    let body = try DirectPostBody(formBody: Array("vp_token=%7B%22a%22%3A%5B%22x%22%5D%7D".utf8))
    #expect(body == .vpToken(["a": ["x"]], state: nil))
    #expect(body.state == nil)
  }

  // MARK: interop

  @Test(.pythonPeers) func joserfcDecryptsOurDirectPostJWTBody() throws {
    try PythonPeer.require("joserfcDecryptsOurDirectPostJWTBody")
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters()))
    let response = try request.respond(
      presentations: try f.presentations(for: request.dcqlQuery), now: f.now)
    let input: JSONValue = [
      "jwk": JWK(privateKey: f.encryptionKey, kid: "enc-1").json,
      "body": .string(response.post.body),
    ]
    let output = try PythonPeer.run(
      """
      import sys, json
      from urllib.parse import parse_qs
      from joserfc import jwe
      from joserfc.jwk import ECKey
      data = json.loads(sys.stdin.read())
      form = parse_qs(data["body"], strict_parsing=True)
      registry = jwe.JWERegistry(algorithms=["ECDH-ES", "A128GCM", "A256GCM"])
      registry.max_protected_header_length = 1 << 20
      registry.max_ciphertext_length = 1 << 22
      obj = jwe.decrypt_compact(form["response"][0], ECKey.import_key(data["jwk"]), registry=registry)
      body = json.loads(obj.plaintext)
      print(json.dumps({"fields": sorted(form.keys()), "alg": obj.protected["alg"],
                        "enc": obj.protected["enc"], "kid": obj.protected.get("kid"),
                        "state": body["state"], "vp_token": body["vp_token"]}))
      """, input: input.serialized())
    let result = try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(result["fields"] == ["response"])
    #expect(result["alg"] == "ECDH-ES")
    #expect(result["enc"] == "A128GCM")
    #expect(result["kid"] == "enc-1")
    #expect(result["state"] == "st-42")
    #expect(result["vp_token"] == response.vpToken)
  }

  @Test(.pythonPeers) func pythonReadsOurDirectPostBody() throws {
    try PythonPeer.require("pythonReadsOurDirectPostBody")
    let f = try RedirectFixture()
    let request = try f.read(try f.signed(f.parameters(mode: "direct_post")))
    let response = try request.respond(
      presentations: try f.presentations(for: request.dcqlQuery), now: f.now)
    let output = try PythonPeer.run(
      """
      import sys, json
      from urllib.parse import parse_qs
      form = parse_qs(sys.stdin.read(), strict_parsing=True)
      print(json.dumps({"state": form["state"][0], "vp_token": json.loads(form["vp_token"][0])}))
      """, input: response.post.body)
    let result = try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(result["state"] == "st-42")
    #expect(result["vp_token"] == response.vpToken)
  }
}
