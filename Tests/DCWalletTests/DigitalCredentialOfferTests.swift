import DCAPI
import DCJSON
import DCOpenID4VCI
import DCWallet
import Foundation
import Testing

/// Reading a DC API create request (`navigator.credentials.create` with `openid4vci-v1`): every
/// refusal has its code, the aliases real traffic used are read, the response echoes the
/// identifier.
@Suite("DC API issuance: the create request")
struct DigitalCredentialOfferTests {
  static let issuer = "https://issuer.example"

  static func offer(_ members: [(String, JSONValue)] = []) -> JSONValue {
    var object: [(key: String, value: JSONValue)] = [
      ("credential_issuer", .string(issuer)),
      ("credential_configuration_ids", .array([.string("pid")])),
      (
        "grants",
        .object([
          (
            "urn:ietf:params:oauth:grant-type:pre-authorized_code",
            .object([("pre-authorized_code", .string("code-1"))])
          )
        ])
      ),
    ]
    for (key, value) in members {
      if let index = object.firstIndex(where: { $0.key == key }) {
        object[index].value = value
      } else {
        object.append((key, value))
      }
    }
    return .object(object)
  }

  static func request(_ data: JSONValue, protocol identifier: String = "openid4vci-v1")
    -> [UInt8]
  {
    let entry = JSONValue.object([("protocol", .string(identifier)), ("data", data)])
    return Array(
      JSONValue.object([("digital", .object([("requests", .array([entry]))]))]).serialized()
        .utf8)
  }

  static func refusal(
    _ bytes: [UInt8], origin: String = issuer,
    policy: DigitalCredentialOffer.OriginPolicy = .sameOrigin
  ) -> IssuanceError? {
    do {
      _ = try DigitalCredentialOffer(json: bytes, origin: origin, originPolicy: policy)
      return nil
    } catch {
      return error
    }
  }

  @Test("the create argument is read with the platform's origin; the response is offer_accepted")
  func reads() throws {
    let read = try DigitalCredentialOffer(json: Self.request(Self.offer()), origin: Self.issuer)
    #expect(read.offer.credentialIssuer.string == Self.issuer)
    #expect(read.origin.serialized == Self.issuer)
    #expect(
      read.response.json.serialized()
        == #"{"protocol":"openid4vci-v1","data":{"status":"offer_accepted"}}"#)
  }

  @Test(
    "historical identifiers are read and echoed",
    arguments: ["openid4vci1.0", "openid4vci-1.0", "openid4vci1.1", "openid4vci-1.1", "openid4vci"])
  func aliases(identifier: String) throws {
    let read = try DigitalCredentialOffer(
      json: Self.request(Self.offer(), protocol: identifier), origin: Self.issuer)
    #expect(read.response.protocolIdentifier == identifier)
  }

  @Test("data delivered as a JSON string is read like an object")
  func dataAsString() throws {
    let read = try DigitalCredentialOffer(
      json: Self.request(.string(Self.offer().serialized())), origin: Self.issuer)
    #expect(read.offer.credentialIssuer.string == Self.issuer)
  }

  @Test("an unknown issuance protocol is refused as unsupported")
  func unknownProtocol() {
    #expect(
      Self.refusal(Self.request(Self.offer(), protocol: "openid4vci-v2"))?.code
        == .unsupportedProtocol)
    #expect(
      Self.refusal(Self.request(Self.offer(), protocol: "OPENID4VCI-V1"))?.code
        == .unsupportedProtocol)
  }

  @Test("a request that is not JSON, or names a presentation protocol, is not a create request")
  func notACreateRequest() {
    #expect(Self.refusal(Array("{".utf8))?.code == .invalidRequest)
    let mixed = JSONValue.object([
      (
        "requests",
        .array([
          .object([("protocol", .string("openid4vp-v1-unsigned")), ("data", .object([]))]),
          .object([("protocol", .string("openid4vci-v1")), ("data", Self.offer())]),
        ])
      )
    ])
    #expect(Self.refusal(Array(mixed.serialized().utf8))?.code == .invalidRequest)
  }

  @Test("an origin that is not a web origin is refused")
  func invalidOrigin() {
    #expect(Self.refusal(Self.request(Self.offer()), origin: "null")?.code == .invalidOrigin)
    #expect(
      Self.refusal(Self.request(Self.offer()), origin: "https://issuer.example/page")?.code
        == .invalidOrigin)
  }

  @Test("the credential issuer must be at the origin unless the policy says any origin")
  func originMismatch() throws {
    for origin in ["https://evil.example", "https://issuer.example:8443", "http://issuer.example"] {
      #expect(
        Self.refusal(Self.request(Self.offer()), origin: origin)?.code == .originMismatch,
        "\(origin)")
    }
    let read = try DigitalCredentialOffer(
      json: Self.request(Self.offer()), origin: "https://portal.example", originPolicy: .anyOrigin)
    #expect(read.origin.serialized == "https://portal.example")
    // Same origin after normalisation (case, default port, trailing slash).
    _ = try DigitalCredentialOffer(
      json: Self.request(Self.offer()), origin: "HTTPS://Issuer.Example:443/")
  }

  @Test("a malformed offer is refused as an offer error")
  func malformedOffer() {
    let cases: [JSONValue] = [
      Self.offer([("credential_configuration_ids", .array([]))]),
      Self.offer([("credential_issuer", .string("http://issuer.example"))]),
      .object([("credential_configuration_ids", .array([.string("pid")]))]),
      .object([("credential_offer_uri", .string("https://issuer.example/offers/1"))]),
      Self.offer([("credential_offer_uri", .string("https://issuer.example/offers/1"))]),
    ]
    for data in cases {
      #expect(Self.refusal(Self.request(data))?.code == .offer, "\(data.serialized())")
    }
  }

  @Test("by-value metadata naming another issuer, or an authorization_server beside it, is refused")
  func byValueMetadata() throws {
    let other = Self.offer([
      ("credential_issuer_metadata", .object([("credential_issuer", .string("https://x.example"))]))
    ])
    #expect(Self.refusal(Self.request(other))?.code == .offer)
    let notObject = Self.offer([("credential_issuer_metadata", .string("x"))])
    #expect(Self.refusal(Self.request(notObject))?.code == .offer)
    let both = Self.offer([
      ("authorization_server_metadata", .object([("issuer", .string(Self.issuer))])),
      (
        "grants",
        .object([
          (
            "authorization_code",
            .object([("authorization_server", .string("https://as.example"))])
          )
        ])
      ),
    ])
    #expect(Self.refusal(Self.request(both))?.code == .offer)
    // The same metadata without an authorization_server, and metadata for this issuer, pass.
    let fine = Self.offer([
      ("authorization_server_metadata", .object([("issuer", .string(Self.issuer))])),
      ("credential_issuer_metadata", .object([("credential_issuer", .string(Self.issuer))])),
    ])
    _ = try DigitalCredentialOffer(json: Self.request(fine), origin: Self.issuer)
  }
}
