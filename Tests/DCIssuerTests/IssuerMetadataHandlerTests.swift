import DCEncoding
import DCHTTP
import DCIssuer
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// The issuer's metadata, authorization server metadata, IACA list, offers and routing.
@Suite("Issuer metadata, offers and routing")
struct IssuerMetadataHandlerTests {
  @Test("The well-known metadata parses with the wallet's reader and names every endpoint")
  func issuerMetadata() async throws {
    let fixture = try IssuerFixture()
    let response = await fixture.handler.handle(
      HTTPRequest(
        method: .get,
        url: try IssuerIdentifier(IssuerFixture.issuerID, policy: .development)
          .credentialIssuerMetadataURL))
    #expect(response.status == 200)
    #expect(response.headers["Content-Type"] == "application/json")
    let metadata = try CredentialIssuerMetadata(jsonBytes: response.body, policy: .development)
      .validated(for: try IssuerIdentifier(IssuerFixture.issuerID, policy: .development))
    #expect(metadata.credentialEndpoint.absoluteString == "http://127.0.0.1:8080/credential")
    #expect(metadata.nonceEndpoint?.absoluteString == "http://127.0.0.1:8080/nonce")
    #expect(metadata.deferredCredentialEndpoint != nil)
    #expect(metadata.notificationEndpoint != nil)
    #expect(metadata.batchSize == 3)
    #expect(metadata.mdocIACAsURI?.absoluteString == "http://127.0.0.1:8080/iacas")
    let mdl = try #require(metadata.configuration(id: "mDL"))
    #expect(mdl.format == .msoMdoc(doctype: "org.iso.18013.5.1.mDL"))
    #expect(mdl.display.first?.name == "Mobile Driving Licence")
    #expect(mdl.claims.count == 3)
    #expect(mdl.bindingMethods == ["cose_key"])
    #expect(mdl.proofType("jwt")?.signingAlgorithms == ["ES256"])
    let pid = try #require(metadata.configuration(id: "pid-sd-jwt"))
    #expect(pid.format == .sdJWTVC(vct: "urn:eudi:pid:1"))
    #expect(pid.signingAlgorithms == [.jose("ES256")])
  }

  @Test("Signed metadata (application/jwt) verifies through the document signer's chain")
  func signedMetadata() async throws {
    let fixture = try IssuerFixture { $0.signsMetadata = true }
    let url = try IssuerIdentifier(IssuerFixture.issuerID, policy: .development)
      .credentialIssuerMetadataURL
    let response = await fixture.handler.handle(
      HTTPRequest(method: .get, url: url, headers: ["Accept": "application/jwt"]))
    #expect(response.headers["Content-Type"] == "application/jwt")
    let signed = try SignedIssuerMetadata(compact: String(decoding: response.body, as: UTF8.self))
    let metadata = try signed.verify(
      trustAnchors: [fixture.pki.iaca], at: fixture.clock.now,
      expectedIssuer: try IssuerIdentifier(IssuerFixture.issuerID, policy: .development),
      urlPolicy: .development)
    #expect(metadata.configuration(id: "mDL") != nil)
    // A client that accepts JSON gets JSON.
    let plain = await fixture.handler.handle(
      HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json, application/jwt"]))
    #expect(plain.headers["Content-Type"] == "application/json")
  }

  @Test("Authorization server metadata at both well-known URLs; the issuer is its own AS")
  func authorizationServerMetadata() async throws {
    let fixture = try IssuerFixture()
    let identifier = try IssuerIdentifier(IssuerFixture.issuerID, policy: .development)
    for url in identifier.authorizationServerMetadataURLs {
      let response = await fixture.handler.handle(HTTPRequest(method: .get, url: url))
      #expect(response.status == 200)
      let metadata = try AuthorizationServerMetadata(jsonBytes: response.body, policy: .development)
        .validated(for: identifier)
      #expect(metadata.dpopSigningAlgorithms == ["ES256"])
      #expect(metadata.codeChallengeMethods == ["S256"])
      #expect(metadata.authorizationResponseIssParameterSupported)
      #expect(metadata.preAuthorizedGrantAnonymousAccessSupported)
      #expect(
        metadata.pushedAuthorizationRequestEndpoint?.absoluteString == "http://127.0.0.1:8080/par")
    }
    let attested = try IssuerFixture { $0.attestation.requireClientAttestation = true }
    let json = try jsonBody(
      attested.service.handleAuthorizationServerMetadata(
        attested.request(.get, .authorizationServerMetadata)))
    #expect(json["pre-authorized_grant_anonymous_access_supported"] == false)
    #expect(json["token_endpoint_auth_methods_supported"] == ["attest_jwt_client_auth"])
  }

  @Test("The IACA list is {\"iacas\": [{\"certificate\": base64 DER}]}")
  func iacaList() async throws {
    let fixture = try IssuerFixture()
    let response = await fixture.handler.handle(fixture.request(.get, .iacas))
    let json = try jsonBody(response)
    let entries = try #require(json["iacas"]?.array)
    #expect(entries.count == 1)
    let der = try Base64.decode(try #require(entries[0]["certificate"]?.string))
    #expect(try Certificate(derEncoded: der) == fixture.pki.iaca)
  }

  @Test("Offers by value and by reference parse with the wallet's reader")
  func offers() async throws {
    let fixture = try IssuerFixture()
    let byValue = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    let code = try #require(byValue.transactionCode)
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    guard case .value(let offer) = try CredentialOffer.parse(byValue.uri, policy: .development)
    else {
      Issue.record("expected an offer by value")
      return
    }
    #expect(offer.preAuthorizedCode?.txCode?.length == 6)
    #expect(offer.credentialConfigurationIDs == ["mDL"])

    let byReference = try fixture.service.createOffer(
      configurationIDs: ["mDL", "pid-sd-jwt"], grant: .authorizationCode, byReference: true,
      scheme: .haip)
    #expect(byReference.uri.hasPrefix("haip-vci://"))
    guard
      case .reference(let url, _) = try CredentialOffer.parse(byReference.uri, policy: .development)
    else {
      Issue.record("expected an offer by reference")
      return
    }
    let served = await fixture.handler.handle(HTTPRequest(method: .get, url: url))
    #expect(served.status == 200)
    let fetched = try CredentialOffer(jsonBytes: served.body, policy: .development)
    #expect(fetched == byReference.offer)
    #expect(fetched.authorizationCode?.issuerState != nil)
    // An unknown offer id is 404; an expired one too.
    let unknown = await fixture.handler.handle(
      HTTPRequest(method: .get, url: fixture.service.endpoints.offerURL(id: "nope")))
    #expect(unknown.status == 404)
    fixture.clock.advance(3_601)
    #expect(await fixture.handler.handle(HTTPRequest(method: .get, url: url)).status == 404)
    // An unknown configuration is refused.
    #expect(throws: OpenID4VCIError.self) {
      try fixture.service.createOffer(configurationIDs: ["nope"], grant: .authorizationCode)
    }
  }

  @Test("A text transaction code uses the text alphabet")
  func textTransactionCode() throws {
    let fixture = try IssuerFixture {
      $0.transactionCode = TransactionCodeSettings(inputMode: .text, length: 8)
    }
    let offer = try fixture.service.createOffer(
      configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
    #expect(offer.transactionCode?.count == 8)
    #expect(offer.offer.preAuthorizedCode?.txCode?.inputMode == .text)
  }

  @Test("Unknown paths are 404, wrong methods 405 with Allow, both as OAuth error JSON")
  func routing() async throws {
    let fixture = try IssuerFixture()
    let missing = await fixture.handler.handle(
      HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:8080/nothing")!))
    #expect(missing.status == 404)
    #expect(oauthError(missing) == "not_found")
    let wrong = await fixture.handler.handle(fixture.request(.get, .token))
    #expect(wrong.status == 405)
    #expect(wrong.headers["Allow"] == "POST")
    #expect(oauthError(wrong) == "invalid_request")
  }

  @Test("An issuer identifier with a path: endpoints and well-known URLs follow it")
  func issuerWithPath() async throws {
    let fixture = try IssuerFixture {
      $0.credentialIssuer = try! IssuerIdentifier(
        "http://127.0.0.1:8080/tenant", policy: .development)
    }
    let metadataURL = URL(
      string: "http://127.0.0.1:8080/.well-known/openid-credential-issuer/tenant")!
    let response = await fixture.handler.handle(HTTPRequest(method: .get, url: metadataURL))
    #expect(response.status == 200)
    let metadata = try CredentialIssuerMetadata(jsonBytes: response.body, policy: .development)
    #expect(metadata.credentialEndpoint.absoluteString == "http://127.0.0.1:8080/tenant/credential")
    let asMetadata = await fixture.handler.handle(
      HTTPRequest(
        method: .get,
        url: URL(string: "http://127.0.0.1:8080/tenant/.well-known/openid-configuration")!))
    #expect(asMetadata.status == 200)
  }
}
