import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCTestSupport
import DCVerifier
import Foundation
import Testing

/// Our `dc_api.jwt` response opened by joserfc, an implementation we did not write.
@Suite("OpenID4VP interop (Python peers)")
struct InteropTests {
  @Test(.pythonPeers) func joserfcDecryptsOurResponse() throws {
    try PythonPeer.require("joserfcDecryptsOurResponse")
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.signed(fixture.signer), .dcAPIJWT)
    let request = try fixture.parse(sent)
    let response = try fixture.respond(to: request)
    let key = try #require(sent.state.encryptionKey)
    let input: JSONValue = [
      "jwk": key.json, "jwe": try #require(response.data["response"]),
    ]
    let output = try PythonPeer.run(
      """
      import sys, json
      from joserfc import jwe
      from joserfc.jwk import ECKey
      data = json.loads(sys.stdin.read())
      registry = jwe.JWERegistry(algorithms=["ECDH-ES", "A128GCM", "A256GCM"])
      registry.max_protected_header_length = 1 << 20
      registry.max_ciphertext_length = 1 << 22
      obj = jwe.decrypt_compact(data["jwe"], ECKey.import_key(data["jwk"]), registry=registry)
      body = json.loads(obj.plaintext)
      print(json.dumps({"alg": obj.protected["alg"], "enc": obj.protected["enc"],
                        "kid": obj.protected.get("kid"), "vp_token": body["vp_token"]}))
      """, input: input.serialized())
    let result = try JSONValue(parsing: output.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(result["alg"] == "ECDH-ES")
    // The request offers A128GCM and A256GCM; the wallet takes the stronger (§8.3).
    #expect(result["enc"] == "A256GCM")
    #expect(result["kid"] == key.kid.map { .string($0) })
    #expect(result["vp_token"] == response.vpToken)
    #expect(result["vp_token"]?.keys.sorted() == ["mdl", "pid"])
  }
}
