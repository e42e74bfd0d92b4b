import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCWallet
import Foundation
import Testing

/// Multisigned OpenID4VP requests as verifiers send them: `data.request` holds the JWS JSON
/// serialization (OpenID4VP 1.0 Appendix A.3.2).
@Suite("Multisigned requests on the platform layer")
struct MultisignedPlatformTests {
  static let query: JSONValue = .object([
    ("credentials", .array([.object([("id", "pid"), ("format", "dc+sd-jwt")])]))
  ])

  static func jws() throws -> JSONValue {
    let params: JSONValue = .object([("nonce", "n"), ("dcql_query", query)])
    let entries = try ["x509_san_dns:a.example", "x509_hash:abc"].map { clientID in
      JWSJSON.SignerEntry(
        protectedHeader: .object([("typ", "oauth-authz-req+jwt"), ("client_id", .string(clientID))]
        ),
        signer: try ECPrivateKey(curve: .p256))
    }
    return try JWSJSON.sign(payload: params.serializedBytes(), signers: entries)
  }

  @Test("The query and each signature's client_id are read from data.request")
  func inRequestMember() throws {
    let origin = try WebOrigin("https://rp.example")
    let data = JSONValue.object([("request", try Self.jws())])
    let request = try PlatformRequest.iosOpenID4VP(
      origin: origin, protocolIdentifier: "openid4vp-v1-multisigned",
      requestData: Data(data.serialized().utf8))
    guard case .iosOpenID4VP(_, _, let dcql, let clients) = request else {
      Issue.record("wrong variant")
      return
    }
    #expect(dcql == Self.query)
    #expect(clients == ["x509_san_dns:a.example", "x509_hash:abc"])
    // The serialization as JSON text in `request`: the query is still read.
    let asText = JSONValue.object([("request", .string(try Self.jws().serialized()))])
    let text = try PlatformRequest.iosOpenID4VP(
      origin: origin, protocolIdentifier: "openid4vp-v1-multisigned",
      requestData: Data(asText.serialized().utf8))
    if case .iosOpenID4VP(_, _, let dcql, _) = text { #expect(dcql == Self.query) }
  }
}
