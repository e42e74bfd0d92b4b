import DCAPI
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCSDJWT
import DCVerifier
import Foundation
import Testing

/// Responses the verifier must refuse.
struct ResponseRefusalTests {
  /// A request sent by `fixture`, answered by the wallet for `walletOrigin`.
  func answered(
    _ fixture: Fixture, _ mode: ResponseMode = .dcAPI, walletOrigin: String = Fixture.origin
  ) throws -> (VerifierRequest, AuthorizationResponse) {
    let sent = try fixture.makeRequest(.unsigned, mode)
    let request = try fixture.parse(sent, origin: walletOrigin)
    return (sent, try fixture.respond(to: request, origin: walletOrigin))
  }

  func rejection(_ fixture: Fixture, _ data: JSONValue, _ state: VerifierState) -> OpenID4VPError? {
    openID4VPError { _ = try fixture.verify(data, state: state) }
  }

  @Test func tamperedDisclosure() throws {
    let fixture = try Fixture()
    let (sent, response) = try answered(fixture)
    let pid = try #require(response.vpToken["pid"]?[0]?.string)
    var parts = pid.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
    // Replace the first Disclosure with one that claims another name.
    let forged = Base64URL.encode(
      JSONValue.array(["c2FsdHNhbHRzYWx0", "given_name", "Eve"]).serializedBytes())
    parts[1] = forged
    let token = response.vpToken.setting("pid", to: [.string(parts.joined(separator: "~"))])
    let error = rejection(fixture, ["vp_token": token], sent.state)
    #expect(error?.code == .invalidPresentation)
  }

  @Test func keyBindingForAnotherOrigin() throws {
    let fixture = try Fixture()
    // Unsigned requests carry no expected_origins, so a relaying site can get an answer; the
    // audience and the mdoc transcript then name its origin, not the verifier's.
    let (sent, response) = try answered(fixture, walletOrigin: "https://relay.example")
    let error = rejection(fixture, response.data, sent.state)
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.contains("pid") == true)
  }

  @Test func keyBindingWithAnotherNonce() throws {
    let fixture = try Fixture()
    let (sent, response) = try answered(fixture)
    let state = VerifierState(
      protocolID: sent.state.protocolID, origin: sent.state.origin, nonce: "another-nonce",
      responseMode: sent.state.responseMode, encryptionKey: nil, dcqlQuery: sent.state.dcqlQuery)
    let error = rejection(fixture, response.data, state)
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.contains("pid") == true)
  }

  @Test func mdocPresentedForAnotherOrigin() throws {
    let fixture = try Fixture()
    let (sent, good) = try answered(fixture)
    let request = try fixture.parse(sent, origin: "https://relay.example")
    let relayed = try fixture.respond(to: request, origin: "https://relay.example")
    // A correct PID beside an mDL device-signed for another origin.
    let token = good.vpToken.setting("mdl", to: try #require(relayed.vpToken["mdl"]))
    let error = rejection(fixture, ["vp_token": token], sent.state)
    #expect(error?.code == .invalidPresentation)
    #expect(error?.reason.contains("mdl") == true)
    #expect(error?.reason.contains("deviceSignature") == true)
  }

  @Test func jweToAnotherKey() throws {
    let fixture = try Fixture()
    let (sent, response) = try answered(fixture, .dcAPIJWT)
    let state = VerifierState(
      protocolID: sent.state.protocolID, origin: sent.state.origin, nonce: sent.state.nonce,
      responseMode: .dcAPIJWT, encryptionKey: JWK(privateKey: try ECPrivateKey(curve: .p256)),
      dcqlQuery: sent.state.dcqlQuery)
    #expect(rejection(fixture, response.data, state)?.code == .decryptionFailed)
    // A clear vp_token where an encrypted response was asked for.
    #expect(
      rejection(fixture, ["vp_token": response.vpToken], sent.state)?.code == .invalidResponse)
  }

  @Test func queryNotSatisfied() throws {
    let fixture = try Fixture()
    let (sent, response) = try answered(fixture)
    // The required mDL set is missing.
    let withoutMDL = response.vpToken.removing("mdl")
    #expect(
      rejection(fixture, ["vp_token": withoutMDL], sent.state)?.code == .queryNotSatisfied)
    // Two presentations where multiple is false.
    let mdl = try #require(response.vpToken["mdl"]?[0])
    let twice = response.vpToken.setting("mdl", to: [mdl, mdl])
    #expect(rejection(fixture, ["vp_token": twice], sent.state)?.code == .queryNotSatisfied)
    // An id that was not asked for.
    let extra = response.vpToken.setting("other", to: [mdl])
    #expect(rejection(fixture, ["vp_token": extra], sent.state)?.code == .queryNotSatisfied)
  }

  @Test func presentationWithoutARequestedClaim() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let request = try fixture.parse(sent)
    // The wallet discloses less than asked: no family_name in the mDL.
    let response = try request.respond(
      origin: try WebOrigin(Fixture.origin),
      presentations: [
        "pid": [
          .sdJWT(
            fixture.pid, disclosing: ["given_name", "family_name", "address.locality"],
            holderKey: fixture.holderKey)
        ],
        "mdl": [
          .mdoc(
            fixture.mdl, disclosing: ["org.iso.18013.5.1": ["age_over_18"]],
            deviceKey: fixture.deviceKey)
        ],
      ], now: fixture.now)
    let error = rejection(fixture, response.data, sent.state)
    #expect(error?.code == .queryNotSatisfied)
  }

  @Test func walletRefusesPresentationsTheQueryDidNotAskFor() throws {
    let fixture = try Fixture()
    let request = try fixture.parse(try fixture.makeRequest(.unsigned, .dcAPI))
    let mdoc = CredentialPresentation.mdoc(
      fixture.mdl, disclosing: ["org.iso.18013.5.1": ["age_over_18"]], deviceKey: fixture.deviceKey)
    for presentations in [["pid": [mdoc]], ["nope": [mdoc]], ["mdl": [mdoc, mdoc]]] {
      let error = openID4VPError {
        _ = try request.respond(
          origin: try WebOrigin(Fixture.origin), presentations: presentations, now: fixture.now)
      }
      #expect(error?.code == .invalidRequest)
    }
    let error = openID4VPError {
      _ = try request.respond(
        origin: try WebOrigin("https://other.example"), presentations: ["mdl": [mdoc]],
        now: fixture.now)
    }
    #expect(error?.code == .invalidRequest)
  }
}
