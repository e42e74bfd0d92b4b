import DCAPI
import DCJOSE
import DCJSON
import DCWallet
import Testing

/// Issue 10 §1: every request shape that reaches a wallet.
@Suite("Request shapes: navigator.credentials.get argument, legacy providers, skipped entries")
struct RequestShapeTests {
  static let mdocData = #"{"deviceRequest": "AA", "encryptionInfo": "BB"}"#

  static func envelope(_ text: String) throws -> RequestEnvelope {
    try RequestEnvelope(json: Array(text.utf8))
  }

  @Test("The whole navigator.credentials.get argument; members other than digital are ignored")
  func navigatorArgument() throws {
    // The shape of a Chrome-on-Android capture of
    // navigator.credentials.get({digital: {requests: [...]}, mediation: "required"}).
    let envelope = try Self.envelope(
      #"{"digital": {"requests": [{"protocol": "org-iso-mdoc", "data": \#(Self.mdocData)}]}, "mediation": "required", "signal": {}}"#
    )
    #expect(envelope.requests.count == 1)
    #expect(envelope.requests[0].knownProtocol == .orgIsoMdoc)
    #expect(envelope.requests[0].data["deviceRequest"]?.string == "AA")
    #expect(envelope.requests[0].problem == nil)
  }

  @Test(
    "Legacy providers, top level or under digital, with request as an object or a JSON string",
    arguments: [
      #"{"providers": [{"protocol": "org-iso-mdoc", "request": {"deviceRequest": "AA", "encryptionInfo": "BB"}}]}"#,
      #"{"providers": [{"protocol": "org-iso-mdoc", "request": "{\"deviceRequest\": \"AA\", \"encryptionInfo\": \"BB\"}"}]}"#,
      #"{"digital": {"providers": [{"protocol": "org-iso-mdoc", "request": {"deviceRequest": "AA", "encryptionInfo": "BB"}}]}}"#,
      #"{"digital": {"providers": [{"protocol": "org-iso-mdoc", "request": "{\"deviceRequest\": \"AA\", \"encryptionInfo\": \"BB\"}"}]}, "mediation": "optional"}"#,
    ])
  func legacyProviders(text: String) throws {
    let envelope = try Self.envelope(text)
    #expect(envelope.requests.count == 1)
    #expect(envelope.requests[0].knownProtocol == .orgIsoMdoc)
    #expect(envelope.requests[0].data == (try JSONValue(parsing: Self.mdocData)))
  }

  @Test("A malformed entry among good ones is kept in place as a skipped entry with its reason")
  func malformedEntryIsSkipped() throws {
    let envelope = try Self.envelope(
      #"{"digital": {"requests": [{"protocol": 7, "data": {}}, {"protocol": "org-iso-mdoc", "data": "[1]"}, {"protocol": "x-unknown", "data": {}}, {"protocol": "openid4vp-v1-unsigned", "data": {"nonce": "n"}}, "text"]}}"#
    )
    #expect(envelope.requests.count == 5)
    #expect(envelope.requests[0].problem == #"requests[0]: a request needs a string "protocol""#)
    #expect(envelope.requests[0].knownProtocol == nil)
    #expect(envelope.requests[1].protocolIdentifier == "org-iso-mdoc")
    #expect(
      envelope.requests[1].problem
        == "requests[1]: the org-iso-mdoc data string does not hold a JSON object")
    // A malformed entry of a known protocol is not offered for answering.
    #expect(envelope.requests[1].knownProtocol == nil)
    #expect(envelope.requests[2].problem == nil)
    #expect(envelope.requests[2].skipReason == "unsupported protocol")
    #expect(envelope.requests[3].knownProtocol == .openID4VPUnsigned)
    #expect(envelope.requests[3].skipReason == nil)
    #expect(envelope.requests[4].problem == "requests[4]: an entry must be a JSON object")
  }

  @Test(
    "Envelope-level refusals: no accepted shape, empty lists, or no readable entry at all",
    arguments: [
      #"{"digital": 5}"#, #"{"digital": {"mediation": "required"}}"#, #"{"providers": []}"#,
      #"{"digital": {"requests": {}}}"#, #"{"providers": [{"protocol": "org-iso-mdoc"}]}"#,
      #"{"digital": {"requests": [{"data": {}}, 3]}}"#, #"{"mediation": "required"}"#,
    ])
  func refused(text: String) {
    #expect { try Self.envelope(text) } throws: {
      ($0 as? DigitalCredentialsError)?.code == .invalidRequest
    }
  }

  @Test("Android's picked index still points into the original list when an entry is malformed")
  func androidIndexIsPreserved() throws {
    let request = try AndroidCredentialRequest(
      requestJSON: Array(
        #"{"digital": {"requests": [{"protocol": "openid4vp-v1-unsigned"}, {"protocol": "org-iso-mdoc", "data": \#(Self.mdocData)}]}}"#
          .utf8), origin: "https://shop.example", callingPackage: nil,
      selectedEntry: #"{"provider_idx": 1, "id": "doc"}"#)
    #expect(request.requests.count == 1)
    #expect(request.selection.requestIndex == 0)
    #expect(request.requests[0].knownProtocol == .orgIsoMdoc)
  }
}
