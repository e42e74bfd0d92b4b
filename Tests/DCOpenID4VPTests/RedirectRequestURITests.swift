import DCCrypto
import DCEncoding
import DCHTTP
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import Foundation
import Testing

/// `openid4vp://` and friends, read as values (OpenID4VP 1.0 §5, §5.10, RFC 9101 §5).
struct RedirectRequestURITests {
  func refusal(_ text: String) -> OpenID4VPError? {
    openID4VPError { _ = try AuthorizationRequestURI(text) }
  }

  // ETSI TS 119 472-2 §6.4.1: `eu-eaap://` launches a wallet for an OpenID4VP request.
  @Test(arguments: ["openid4vp", "haip-vp", "eudi-openid4vp", "eu-eaap", "EU-EAAP", "OpenID4VP"])
  func byReferenceWithEachScheme(scheme: String) throws {
    let uri = try AuthorizationRequestURI(
      "\(scheme)://?client_id=x509_san_dns%3Averifier.example&request_uri="
        + "https%3A%2F%2Fverifier.example%2Frequest%2F1")
    #expect(uri.scheme == scheme.lowercased())
    #expect(uri.clientID.rawValue == "x509_san_dns:verifier.example")
    #expect(uri.clientID.prefix == .x509SANDNS)
    #expect(
      uri.form
        == .byReference(
          requestURI: URL(string: "https://verifier.example/request/1")!, method: .get))
  }

  @Test func universalLinkWithPostAndFragment() throws {
    let uri = try AuthorizationRequestURI(
      "https://wallet.example/authorize?client_id=x509_hash%3Aabc&request_uri="
        + "http%3A%2F%2F127.0.0.1%3A8080%2Fr&request_uri_method=post#ignored")
    #expect(uri.scheme == "https")
    #expect(
      uri.form == .byReference(requestURI: URL(string: "http://127.0.0.1:8080/r")!, method: .post))
  }

  @Test func requestObjectByValue() throws {
    let uri = try AuthorizationRequestURI("openid4vp://?client_id=x509_hash%3Aabc&request=a.b.c")
    #expect(uri.form == .requestObject("a.b.c"))
  }

  @Test func parametersByValueParseTheirJSON() throws {
    let query = #"{"credentials":[{"id":"pid","format":"dc+sd-jwt"}]}"#
    let uri = try AuthorizationRequestURI(
      "openid4vp://authorize?"
        + RedirectFixture.form([
          ("client_id", "redirect_uri:https://rp.example/cb"), ("response_type", "vp_token"),
          ("response_mode", "direct_post"), ("response_uri", "https://rp.example/cb"),
          ("nonce", "n 1+2"), ("dcql_query", query),
        ]))
    guard case .parameters(let parameters) = uri.form else {
      Issue.record("expected parameters by value")
      return
    }
    #expect(parameters["dcql_query"] == (try JSONValue(parsing: query)))
    #expect(parameters["nonce"] == "n 1+2")
    #expect(parameters["client_id"] == "redirect_uri:https://rp.example/cb")
    // `+` is a space in the form encoding of a query (RFC 6749 §4.1.1).
    let plus = try AuthorizationRequestURI("openid4vp://?client_id=redirect_uri%3Ax&nonce=a+b")
    guard case .parameters(let values) = plus.form else { return }
    #expect(values["nonce"] == "a b")
  }

  @Test func missingClientIDIsRefused() {
    let error = refusal("openid4vp://?request_uri=https%3A%2F%2Fv.example%2Fr")
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("client_id") == true)
    #expect(refusal("openid4vp://?client_id=&request=a")?.code == .invalidRequest)
  }

  @Test func requestAndRequestURIAreExclusive() {
    let error = refusal(
      "openid4vp://?client_id=x509_hash%3Aa&request=a.b.c&request_uri=https%3A%2F%2Fv.example%2Fr")
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("not both") == true)
  }

  @Test func unknownRequestURIMethodIsRefused() {
    let error = refusal(
      "openid4vp://?client_id=x509_hash%3Aa&request_uri=https%3A%2F%2Fv.example%2Fr"
        + "&request_uri_method=PUT")
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("get or post") == true)
    let alone = refusal("openid4vp://?client_id=x509_hash%3Aa&request=x&request_uri_method=post")
    #expect(alone?.reason.contains("without request_uri") == true)
  }

  @Test func badPercentEncodingIsRefused() {
    for text in [
      "openid4vp://?client_id=a%2", "openid4vp://?client_id=a%zz", "openid4vp://?client_id=%C3%28",
    ] {
      let error = refusal(text)
      #expect(error?.code == .malformed)
      #expect(error?.reason.contains("badPercentEncoding") == true)
    }
  }

  @Test func repeatedParameterIsRefused() {
    let error = refusal("openid4vp://?client_id=a&client_id=b&request=x")
    #expect(error?.code == .malformed)
    #expect(error?.reason.contains("duplicate") == true)
  }

  @Test func oversizedURIAndTooManyParametersAreRefused() {
    let long = "openid4vp://?client_id=a&request=" + String(repeating: "x", count: 65_536)
    #expect(refusal(long)?.reason.contains("longer than") == true)
    let many = "openid4vp://?client_id=a&" + (0..<70).map { "p\($0)=1" }.joined(separator: "&")
    #expect(refusal(many)?.reason.contains("tooManyFields") == true)
  }

  @Test func otherSchemesAreRefused() {
    #expect(refusal("http://wallet.example/?client_id=a&request=x")?.code == .malformed)
    #expect(refusal("no scheme at all")?.code == .malformed)
  }

  @Test func requestURIMustBeHTTPSOrLoopback() {
    let error = refusal("openid4vp://?client_id=a&request_uri=http%3A%2F%2Fverifier.example%2Fr")
    #expect(error?.code == .invalidRequest)
    #expect(error?.reason.contains("request_uri") == true)
    #expect(refusal("openid4vp://?client_id=a&request_uri=ftp%3A%2F%2Fv.example%2Fr") != nil)
    #expect(
      (try? AuthorizationRequestURI(
        "openid4vp://?client_id=a&request_uri=http%3A%2F%2Flocalhost%3A9%2Fr")) != nil)
  }

  @Test func jsonParameterThatIsNotJSONIsRefused() {
    let error = refusal("openid4vp://?client_id=redirect_uri%3Ax&dcql_query=%7Bnope")
    #expect(error?.code == .malformed)
    #expect(error?.reason.contains("dcql_query") == true)
  }

  @Test func getFetchAsksForARequestObject() throws {
    let uri = try AuthorizationRequestURI(
      "openid4vp://?client_id=a&request_uri=https%3A%2F%2Fv.example%2Fr")
    let fetch = try #require(uri.requestObjectFetch())
    #expect(fetch.request.method == .get)
    #expect(fetch.request.url.absoluteString == "https://v.example/r")
    #expect(fetch.request.headers["Accept"] == "application/oauth-authz-req+jwt")
    #expect(fetch.request.body.isEmpty)
    #expect(fetch.walletNonce == nil)
    #expect(
      try AuthorizationRequestURI("openid4vp://?client_id=a&request=x").requestObjectFetch() == nil)
  }

  @Test func postFetchSendsWalletMetadataAndAFreshNonce() throws {
    let uri = try AuthorizationRequestURI(
      "openid4vp://?client_id=a&request_uri=https%3A%2F%2Fv.example%2Fr&request_uri_method=post")
    let fetch = try #require(uri.requestObjectFetch())
    let other = try #require(uri.requestObjectFetch())
    #expect(fetch.request.method == .post)
    #expect(fetch.request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    let nonce = try #require(fetch.walletNonce)
    #expect(nonce != other.walletNonce)
    #expect(try Base64URL.decode(nonce).count == 16)
    var components = URLComponents()
    components.percentEncodedQuery = String(decoding: fetch.request.body, as: UTF8.self)
    let items = components.queryItems ?? []
    #expect(items.map(\.name) == ["wallet_metadata", "wallet_nonce"])
    #expect(items.last?.value == nonce)
    let metadata = try JSONValue(parsing: try #require(items.first?.value))
    #expect(metadata == WalletMetadata.standard.json)
    #expect(
      metadata["client_id_prefixes_supported"]
        == ["x509_san_dns", "x509_hash", "redirect_uri", "verifier_attestation"])
    #expect(metadata["vp_formats_supported"]?["mso_mdoc"] != nil)
    #expect(metadata["request_object_signing_alg_values_supported"] == ["ES256"])
  }
}
