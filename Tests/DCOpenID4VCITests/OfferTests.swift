import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import Foundation
import Testing

/// Credential offers (OpenID4VCI 1.0 §4.1): the specification's examples, every check, round
/// trips.
@Suite("Credential offers")
struct OfferTests {
  static let issuer = "https://credential-issuer.example.com"

  // MARK: - Positive vectors

  @Test("§4.1.1 example: two credentials, pre-authorized code with a numeric tx_code")
  func multipleCredentials() throws {
    let offer = try CredentialOffer(jsonBytes: vciVector("credential_offer_multiple_credentials"))
    #expect(offer.credentialIssuer.string == Self.issuer)
    #expect(
      offer.credentialConfigurationIDs == ["UniversityDegreeCredential", "org.iso.18013.5.1.mDL"])
    #expect(offer.authorizationCode == nil)
    let grant = try #require(offer.preAuthorizedCode)
    #expect(grant.preAuthorizedCode == "oaKazRN8I0IbtZ0C7JuMn5")
    #expect(
      grant.txCode
        == TransactionCodeRequirement(
          inputMode: .numeric, length: 4,
          description: "Please provide the one-time code that was sent via e-mail"))
  }

  @Test("§4.1.3 example: an empty tx_code still requires a code, numeric by default")
  func emptyTxCode() throws {
    let offer = try CredentialOffer(jsonBytes: vciVector("credential_offer_by_reference"))
    let tx = try #require(offer.preAuthorizedCode?.txCode)
    #expect(tx == TransactionCodeRequirement())
    #expect(tx.effectiveInputMode == .numeric)
    let described = try CredentialOffer(jsonBytes: vciVector("credential_offer_pre-authz_code"))
    #expect(described.preAuthorizedCode?.txCode?.description?.hasPrefix("Please provide") == true)
  }

  @Test("§4.1.3 example: the authorization code offer with issuer_state")
  func authorizationCodeOffer() throws {
    // examples/credential_offer_authz_code.txt, the JSON body of the HTTP response.
    let offer = try CredentialOffer(
      json: json(
        #"{"credential_issuer": "https://credential-issuer.example.com","#
          + #""credential_configuration_ids": ["UniversityDegreeCredential"],"#
          + #""grants": {"authorization_code": {"issuer_state": "eyJhbGciOiJSU0Et...FYUaBy"}}}"#))
    #expect(
      offer.authorizationCode == AuthorizationCodeGrant(issuerState: "eyJhbGciOiJSU0Et...FYUaBy"))
    #expect(offer.preAuthorizedCode == nil)
  }

  @Test("§4.1.2 example: offer by value in an openid-credential-offer URI, text tx_code")
  func byValueURI() throws {
    // The §4.1.2 example with its display line breaks removed.
    let uri =
      "openid-credential-offer://?credential_offer=%7B%22credential_issuer%22:%22https://"
      + "credential-issuer.example.com%22,%22credential_configuration_ids%22:%5B%22org.iso.18013"
      + ".5.1.mDL%22%5D,%22grants%22:%7B%22urn:ietf:params:oauth:grant-type:pre-authorized_code"
      + "%22:%7B%22pre-authorized_code%22:%22oaKazRN8I0IbtZ0C7JuMn5%22,%22tx_code%22:%7B%22inp"
      + "ut_mode%22:%22text%22,%22description%22:%22Please%20enter%20the%20serial%20number%20of"
      + "%20your%20physical%20drivers%20license%22%7D%7D%7D%7D"
    guard case .value(let offer) = try CredentialOffer.parse(uri) else {
      Issue.record("expected an offer by value")
      return
    }
    #expect(offer.credentialConfigurationIDs == ["org.iso.18013.5.1.mDL"])
    #expect(offer.preAuthorizedCode?.txCode?.inputMode == .text)
    #expect(
      offer.preAuthorizedCode?.txCode?.description
        == "Please enter the serial number of your physical drivers license")
  }

  @Test("An offer by value form-encoded by a standard library: + is a space, %2B a plus")
  func byValueFormEncoded() throws {
    // What Python's urlencode / Java's URLEncoder write (RFC 6749 Appendix B): spaces as `+`.
    let json =
      #"{"credential_issuer": "https://issuer.example.com", "#
      + #""credential_configuration_ids": ["pid"], "grants": {"#
      + #""urn:ietf:params:oauth:grant-type:pre-authorized_code": {"#
      + #""pre-authorized_code": "a+b c", "tx_code": {"description": "the code"}}}}"#
    let encoded = percentEncoded(json).replacingOccurrences(of: "%20", with: "+")
    #expect(encoded.contains("+") && encoded.contains("%2B"))
    for scheme in ["openid-credential-offer", "HAIP-VCI"] {
      let uri = "\(scheme)://?credential_offer=\(encoded)"
      guard case .value(let offer) = try CredentialOffer.parse(uri) else {
        Issue.record("expected an offer by value")
        return
      }
      #expect(offer.credentialIssuer.string == "https://issuer.example.com")
      #expect(offer.preAuthorizedCode?.preAuthorizedCode == "a+b c")
      #expect(offer.preAuthorizedCode?.txCode?.description == "the code")
    }
    // A bad escape is refused as a URI problem.
    expectVCIError(.invalidOfferURI) {
      try CredentialOffer.parse("openid-credential-offer://?credential_offer=%7B%2")
    }
  }

  @Test("§4.1.3 example: offer by reference yields where to fetch it")
  func byReferenceURI() throws {
    let uri =
      "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fserver%2Eexample%2Ecom%2F"
      + "credential-offer%2FGkurKxf5T0Y-mnPFCHqWOMiZi4VS138cQO_V7PZHAdM"
    let source = try CredentialOffer.parse(uri)
    #expect(
      source
        == .reference(
          URL(
            string:
              "https://server.example.com/credential-offer/GkurKxf5T0Y-mnPFCHqWOMiZi4VS138cQO_V7PZHAdM"
          )!,
          scheme: .openIDCredentialOffer))
  }

  @Test("haip-vci:// carries an offer like openid-credential-offer://")
  func haipScheme() throws {
    let offer = try CredentialOffer(jsonBytes: vciVector("credential_offer_multiple_credentials"))
    #expect(try CredentialOffer.parse(offer.uri(scheme: .haip)) == .value(offer))
    #expect(offer.uri(scheme: .haip).hasPrefix("haip-vci://?credential_offer=%7B"))
  }

  @Test("Offer JSON given directly, with white space around it")
  func jsonText() throws {
    let text = String(
      decoding: try vciVector("credential_offer_multiple_credentials"), as: UTF8.self)
    guard case .value(let offer) = try CredentialOffer.parse("\n  " + text + "\n") else {
      Issue.record("expected an offer by value")
      return
    }
    #expect(offer.credentialConfigurationIDs.count == 2)
  }

  @Test("Unknown members and grant types are ignored (§4.1.1)")
  func unknownIgnored() throws {
    let offer = try CredentialOffer(
      json: json(
        #"{"credential_issuer": "https://i.example", "credential_configuration_ids": ["a"],"#
          + #""x": 1, "grants": {"urn:example:grant": {"y": 2}}}"#))
    #expect(offer.authorizationCode == nil && offer.preAuthorizedCode == nil)
  }

  // MARK: - Round trips

  @Test("Offer → JSON → offer and offer → URI → offer are identities, both grants and hints")
  func roundTrips() throws {
    let offer = try CredentialOffer(
      credentialIssuer: IssuerIdentifier("https://issuer.example.com/tenant"),
      credentialConfigurationIDs: ["pid-sd-jwt", "mDL & friends?#=+"],
      authorizationCode: AuthorizationCodeGrant(
        issuerState: "state+/=", authorizationServer: IssuerIdentifier("https://as.example.com")),
      preAuthorizedCode: PreAuthorizedCodeGrant(
        preAuthorizedCode: "code 1%",
        txCode: TransactionCodeRequirement(inputMode: .text, length: 6),
        authorizationServer: IssuerIdentifier("https://as2.example.com")))
    #expect(try CredentialOffer(json: offer.json) == offer)
    #expect(try CredentialOffer(jsonBytes: offer.json.serializedBytes()) == offer)
    for scheme in CredentialOfferScheme.allCases {
      #expect(try CredentialOffer.parse(offer.uri(scheme: scheme)) == .value(offer))
    }
    for name in [
      "credential_offer_multiple_credentials", "credential_offer_by_reference",
      "credential_offer_pre-authz_code",
    ] {
      let vector = try CredentialOffer(jsonBytes: vciVector(name))
      #expect(try CredentialOffer(json: vector.json) == vector)
    }
    let reference = URL(string: "https://issuer.example.com/offers/abc?x=1&y=2")!
    #expect(
      try CredentialOffer.parse(CredentialOffer.uri(reference: reference, scheme: .haip))
        == .reference(reference, scheme: .haip))
  }

  // MARK: - Checks of the offer object

  static let valid: JSONValue = [
    "credential_issuer": "https://issuer.example.com",
    "credential_configuration_ids": ["mDL"],
    "grants": [
      "authorization_code": [
        "issuer_state": "s", "authorization_server": "https://as.example.com",
      ],
      "urn:ietf:params:oauth:grant-type:pre-authorized_code": [
        "pre-authorized_code": "c", "tx_code": ["input_mode": "numeric", "length": 4],
      ],
    ],
  ]
  static let preAuth = ["grants", "urn:ietf:params:oauth:grant-type:pre-authorized_code"]

  /// Each mutation breaks exactly one check; the unmutated offer parses.
  static let invalid: [(String, [String], JSONValue?, OpenID4VCIErrorCode)] = [
    ("credential_issuer missing", ["credential_issuer"], nil, .invalidOffer),
    ("credential_issuer not a string", ["credential_issuer"], 1, .invalidOffer),
    ("credential_issuer http", ["credential_issuer"], "http://issuer.example.com", .invalidOffer),
    (
      "credential_issuer loopback http without the development policy", ["credential_issuer"],
      "http://127.0.0.1:8080", .invalidOffer
    ),
    (
      "credential_issuer with a query", ["credential_issuer"], "https://i.example/?a=b",
      .invalidOffer
    ),
    (
      "credential_issuer with a fragment", ["credential_issuer"], "https://i.example/#f",
      .invalidOffer
    ),
    ("credential_issuer without a host", ["credential_issuer"], "https:/path", .invalidOffer),
    ("credential_configuration_ids missing", ["credential_configuration_ids"], nil, .invalidOffer),
    (
      "credential_configuration_ids not an array", ["credential_configuration_ids"], "mDL",
      .invalidOffer
    ),
    ("credential_configuration_ids empty", ["credential_configuration_ids"], [], .invalidOffer),
    (
      "credential_configuration_ids with a number", ["credential_configuration_ids"], [1],
      .invalidOffer
    ),
    (
      "credential_configuration_ids repeated", ["credential_configuration_ids"], ["a", "a"],
      .invalidOffer
    ),
    ("grants not an object", ["grants"], [], .invalidOffer),
    ("authorization_code not an object", ["grants", "authorization_code"], "x", .invalidOffer),
    (
      "issuer_state not a string", ["grants", "authorization_code", "issuer_state"], 5,
      .invalidOffer
    ),
    (
      "authorization_server not https", ["grants", "authorization_code", "authorization_server"],
      "http://as.example.com", .invalidOffer
    ),
    ("pre-authorized grant not an object", preAuth, true, .invalidOffer),
    ("pre-authorized_code missing", preAuth + ["pre-authorized_code"], nil, .invalidOffer),
    ("pre-authorized_code empty", preAuth + ["pre-authorized_code"], "", .invalidOffer),
    ("pre-authorized_code not a string", preAuth + ["pre-authorized_code"], 7, .invalidOffer),
    (
      "pre-authorized authorization_server not a URL", preAuth + ["authorization_server"], "as",
      .invalidOffer
    ),
    ("tx_code not an object", preAuth + ["tx_code"], true, .invalidOffer),
    (
      "tx_code input_mode unknown", preAuth + ["tx_code", "input_mode"], "alphanumeric",
      .invalidOffer
    ),
    ("tx_code input_mode not a string", preAuth + ["tx_code", "input_mode"], 1, .invalidOffer),
    ("tx_code length not an integer", preAuth + ["tx_code", "length"], "4", .invalidOffer),
    ("tx_code length fractional", preAuth + ["tx_code", "length"], 4.5, .invalidOffer),
    ("tx_code length zero", preAuth + ["tx_code", "length"], 0, .invalidOffer),
    ("tx_code description not a string", preAuth + ["tx_code", "description"], 1, .invalidOffer),
    (
      "tx_code description over 300 characters", preAuth + ["tx_code", "description"],
      .string(String(repeating: "é", count: 301)), .invalidOffer
    ),
  ]

  @Test("The valid offer parses, at the limits: 300-character description, length 1")
  func validBaseline() throws {
    var value = setting(
      Self.valid, Self.preAuth + ["tx_code", "description"],
      .string(String(repeating: "é", count: 300)))
    value = setting(value, Self.preAuth + ["tx_code", "length"], 1)
    let offer = try CredentialOffer(json: value)
    #expect(offer.preAuthorizedCode?.txCode?.length == 1)
  }

  @Test("Each check refuses its case", arguments: 0..<invalid.count)
  func refused(_ index: Int) {
    let (name, path, value, code) = Self.invalid[index]
    let error = expectVCIError(code) { try CredentialOffer(json: setting(Self.valid, path, value)) }
    #expect(error != nil, "\(name)")
  }

  @Test("Not an object, not JSON, and over the size limit are refused")
  func notJSON() {
    expectVCIError(.invalidOffer) { try CredentialOffer(json: ["a"]) }
    expectVCIError(.invalidJSON) { try CredentialOffer(jsonBytes: Array("{".utf8)) }
    let padded =
      Self.valid.serialized().dropLast() + ", \"pad\": \"" + String(repeating: "x", count: 65_536)
      + "\"}"
    expectVCIError(.invalidJSON) { try CredentialOffer(jsonBytes: Array(padded.utf8)) }
    expectVCIError(.invalidOfferURI) { try CredentialOffer.parse(String(padded)) }
  }

  @Test("Loopback http issuers only under the development policy; never other http hosts")
  func developmentPolicy() throws {
    for host in [
      "http://127.0.0.1:8080", "http://localhost:1234/tenant", "http://[::1]:80",
      "http://127.1.2.3",
    ] {
      let value = setting(Self.valid, ["credential_issuer"], .string(host))
      let offer = try CredentialOffer(json: value, policy: .development)
      #expect(offer.credentialIssuer.string == host)
      expectVCIError(.invalidOffer) { try CredentialOffer(json: value) }
    }
    for host in [
      "http://issuer.example.com", "http://127.0.0.1.evil.example", "http://127.0.0.01",
      "ftp://127.0.0.1",
    ] {
      expectVCIError(.invalidOffer) {
        try CredentialOffer(
          json: setting(Self.valid, ["credential_issuer"], .string(host)), policy: .development)
      }
    }
  }

  @Test("Offers made in code are checked like parsed ones")
  func initChecks() throws {
    let issuer = try IssuerIdentifier("https://issuer.example.com")
    expectVCIError(.invalidOffer) {
      try CredentialOffer(credentialIssuer: issuer, credentialConfigurationIDs: [])
    }
    expectVCIError(.invalidOffer) {
      try CredentialOffer(credentialIssuer: issuer, credentialConfigurationIDs: ["a", "a"])
    }
    expectVCIError(.invalidOffer) {
      try CredentialOffer(
        credentialIssuer: issuer, credentialConfigurationIDs: ["a"],
        preAuthorizedCode: PreAuthorizedCodeGrant(preAuthorizedCode: ""))
    }
    expectVCIError(.invalidOffer) {
      try CredentialOffer(
        credentialIssuer: issuer, credentialConfigurationIDs: ["a"],
        preAuthorizedCode: PreAuthorizedCodeGrant(
          preAuthorizedCode: "c", txCode: TransactionCodeRequirement(length: -1)))
    }
  }

  // MARK: - Checks of the URI

  @Test("URI checks: scheme, exactly one parameter, a value, an https reference")
  func uriChecks() throws {
    let value = percentEncoded(Self.valid.serialized())
    let cases: [(String, String)] = [
      ("https scheme", "https://wallet.example/?credential_offer=\(value)"),
      ("unknown scheme", "openid4vp://?credential_offer=\(value)"),
      ("not a URI", "credential offer please"),
      ("no parameter", "openid-credential-offer://"),
      ("other parameter only", "openid-credential-offer://?offer=\(value)"),
      (
        "both parameters",
        "openid-credential-offer://?credential_offer=\(value)&credential_offer_uri=https%3A%2F%2Fi.example%2Fo"
      ),
      (
        "credential_offer twice",
        "openid-credential-offer://?credential_offer=\(value)&credential_offer=\(value)"
      ),
      (
        "credential_offer_uri twice",
        "haip-vci://?credential_offer_uri=https%3A%2F%2Fi.example%2Fo&credential_offer_uri=https%3A%2F%2Fi.example%2Fo"
      ),
      ("credential_offer without a value", "openid-credential-offer://?credential_offer"),
      ("credential_offer_uri without a value", "openid-credential-offer://?credential_offer_uri"),
      (
        "credential_offer_uri over http",
        "openid-credential-offer://?credential_offer_uri=http%3A%2F%2Fi.example%2Fo"
      ),
      ("credential_offer_uri relative", "openid-credential-offer://?credential_offer_uri=%2Foffer"),
    ]
    for (name, uri) in cases {
      #expect(expectVCIError(.invalidOfferURI) { try CredentialOffer.parse(uri) } != nil, "\(name)")
    }
    // The offer inside the URI is checked as an offer.
    expectVCIError(.invalidJSON) {
      try CredentialOffer.parse("openid-credential-offer://?credential_offer=%7B")
    }
    expectVCIError(.invalidOffer) {
      try CredentialOffer.parse("openid-credential-offer://?credential_offer=%7B%7D")
    }
    // A loopback reference under the development policy.
    #expect(
      try CredentialOffer.parse(
        "openid-credential-offer://?credential_offer_uri=http%3A%2F%2F127.0.0.1%3A9%2Fo",
        policy: .development)
        == .reference(URL(string: "http://127.0.0.1:9/o")!, scheme: .openIDCredentialOffer))
  }
}

/// Percent-encodes everything but ASCII letters and digits, for building hostile URIs in tests.
func percentEncoded(_ text: String) -> String {
  text.addingPercentEncoding(
    withAllowedCharacters: CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")) ?? text
}
