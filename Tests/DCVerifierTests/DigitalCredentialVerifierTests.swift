import DCAPI
import DCHTTP
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCVerifier
import DCWalletTestSupport
import Foundation
import Testing

/// Issue 30: the DC API transaction a web page drives: one `navigator.credentials.get`
/// argument per configuration, the answer verified for the configured origin, once.
@Suite("DigitalCredentialVerifier")
struct DigitalCredentialVerifierTests {
  let fixture: Fixture

  init() throws { fixture = try Fixture() }

  func verifier(_ protocols: [DigitalCredentialProtocol], signer: Bool = true) throws
    -> DigitalCredentialVerifier
  {
    let now = fixture.now
    return DigitalCredentialVerifier(
      configuration: DigitalCredentialVerifierConfiguration(
        origin: try WebOrigin(Fixture.origin), protocols: protocols,
        signer: signer ? fixture.signer : nil, multisigners: signer ? [fixture.signer] : [],
        sdJWTIssuerAnchors: [fixture.pidRoot], mdocIssuerAnchors: [fixture.pki.iaca]),
      now: { now })
  }

  /// The wallet's answer to the transaction's request of `protocolID`, made for `origin`.
  func answer(
    _ transaction: DigitalCredentialTransaction, _ protocolID: OpenID4VPProtocol,
    origin: String = Fixture.origin
  ) throws -> JSONValue {
    let requests = transaction.credentialRequestOptions["digital"]?["requests"]?.array ?? []
    let sent = try #require(requests.first { $0["protocol"]?.string == protocolID.rawValue })
    let request = try fixture.parse(
      protocol: protocolID, data: try #require(sent["data"]), origin: origin)
    let response = try fixture.respond(to: request, origin: origin)
    return .object([("protocol", .string(protocolID.rawValue)), ("data", response.data)])
  }

  func refusal(_ body: () async throws -> Void) async -> VerifierError? {
    do {
      try await body()
      Issue.record("no error thrown")
      return nil
    } catch let error as VerifierError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test("one call carries a request per configured protocol, in order; org-iso-mdoc per mdoc query")
  func requestsPerConfiguration() async throws {
    let all = try verifier([
      .orgIsoMdoc, .openID4VPSigned, .openID4VPMultisigned, .openID4VPUnsigned,
    ])
    let made = try await all.makeTransaction(dcqlQuery: Fixture.query)
    let requests = made.credentialRequestOptions["digital"]?["requests"]?.array ?? []
    #expect(
      requests.map { $0["protocol"]?.string } == [
        "org-iso-mdoc", "openid4vp-v1-signed", "openid4vp-v1-multisigned",
        "openid4vp-v1-unsigned",
      ])
    #expect(requests.first?["data"]?["deviceRequest"]?.string != nil)
    // Without a signer the signed protocols are left out; a query without mdocs has no Annex C.
    let unsignedOnly = try verifier([.orgIsoMdoc, .openID4VPSigned], signer: false)
    let pidOnly: JSONValue = [
      "credentials": [
        [
          "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(Fixture.pidType)]],
          "claims": [["path": ["given_name"]]],
        ]
      ]
    ]
    let error = await refusal { _ = try await unsignedOnly.makeTransaction(dcqlQuery: pidOnly) }
    #expect(error?.code == .invalidRequest)
    let bad = await refusal { _ = try await all.makeTransaction(dcqlQuery: ["credentials": []]) }
    #expect(bad?.code == .invalidRequest)
  }

  @Test("the answer verifies for the configured origin, once; data may be a JSON string")
  func verifiesOnce() async throws {
    let dcAPI = try verifier([.openID4VPSigned, .openID4VPUnsigned])
    let made = try await dcAPI.makeTransaction(dcqlQuery: Fixture.query)
    let credential = try answer(made, .unsigned)
    // Chrome on Android has delivered `data` as a JSON string.
    let asText = credential.setting("data", to: .string(credential["data"]?.serialized() ?? ""))
    guard
      case .openID4VP(let protocolID, let verified) = try await dcAPI.verify(
        transactionID: made.id, credential: asText)
    else {
      Issue.record("not an OpenID4VP result")
      return
    }
    #expect(protocolID == .unsigned)
    #expect(verified.credentials["mdl"] != nil)
    let again = await refusal {
      _ = try await dcAPI.verify(transactionID: made.id, credential: credential)
    }
    #expect(again?.code == .alreadyAnswered)
    let unknown = await refusal {
      _ = try await dcAPI.verify(transactionID: "nope", credential: credential)
    }
    #expect(unknown?.code == .unknownTransaction)
  }

  @Test("an answer made for another origin is refused, whatever origin the payload names")
  func otherOrigin() async throws {
    let dcAPI = try verifier([.openID4VPUnsigned])
    let made = try await dcAPI.makeTransaction(dcqlQuery: Fixture.query)
    var credential = try answer(made, .unsigned, origin: "https://attacker.example")
    credential = credential.setting("origin", to: "https://attacker.example")
    let error = await refusal {
      _ = try await dcAPI.verify(transactionID: made.id, credential: credential)
    }
    #expect(error?.code == .verificationFailed)
  }

  @Test("a protocol the transaction did not request, and a body that is no DigitalCredential")
  func refusals() async throws {
    let dcAPI = try verifier([.openID4VPUnsigned])
    let made = try await dcAPI.makeTransaction(dcqlQuery: Fixture.query)
    let credential = try answer(made, .unsigned)
    let other = credential.setting("protocol", to: "openid4vp-v1-signed")
    let error = await refusal {
      _ = try await dcAPI.verify(transactionID: made.id, credential: other)
    }
    #expect(error?.code == .unsupportedProtocol)
    let second = try await dcAPI.makeTransaction(dcqlQuery: Fixture.query)
    let shapeless = await refusal {
      _ = try await dcAPI.verify(transactionID: second.id, credential: ["data": [:]])
    }
    #expect(shapeless?.code == .invalidRequest)
  }

  @Test("HTTP: the page, the module, a transaction, an oversized body, an unknown path")
  func handler() async throws {
    let handler = DigitalCredentialVerifierHTTPHandler(verifier: try verifier([.openID4VPUnsigned]))
    func send(_ method: HTTPMethod, _ path: String, _ body: [UInt8] = []) async throws
      -> HTTPResponse
    {
      await handler.handle(
        HTTPRequest(
          method: method, url: try #require(URL(string: "http://127.0.0.1:8080" + path)),
          body: body))
    }
    let page = try await send(.get, "/")
    #expect(page.status == 200)
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(html.contains(#"<meta name="viewport""#))
    #expect(html.contains(#"from "./dc-verifier.js""#))
    let module = try await send(.get, "/dc-verifier.js")
    #expect(module.headers["Content-Type"]?.hasPrefix("text/javascript") == true)
    #expect(
      String(decoding: module.body, as: UTF8.self).contains(
        "export async function requestCredential"))
    let created = try await send(
      .post, "/dc-api/transactions",
      JSONValue.object([("dcql_query", Fixture.query)]).serializedBytes())
    #expect(created.status == 201)
    let id = try #require(try JSONValue(parsing: created.body)["transaction_id"]?.string)
    let large = try await send(
      .post, "/dc-api/transactions/\(id)/response", [UInt8](repeating: 0x20, count: 1 << 21))
    #expect(large.status == 400)
    // No cross-device link without a redirect verifier; unknown paths are 404.
    #expect(try await send(.get, "/dc-api/transactions/\(id)").status == 404)
    #expect(try await send(.get, "/request/x").status == 404)
  }

  @Test("the DC API endpoints take JSON from the page's own origin only; the page is a plain GET")
  func endpointPolicies() throws {
    let handler = DigitalCredentialVerifierHTTPHandler(verifier: try verifier([.openID4VPUnsigned]))
    for path in ["/dc-api/transactions", "/dc-api/transactions/ID/response"] {
      let policy = try #require(handler.endpointPolicy(method: .post, path: path))
      #expect(policy.acceptedMediaTypes == ["application/json"])
      #expect(policy.crossOrigins == .none)
      #expect(!policy.crossOrigins.allows("https://attacker.example"))
    }
    #expect(handler.endpointPolicy(method: .get, path: "/")?.acceptedMediaTypes == [])
  }
}
