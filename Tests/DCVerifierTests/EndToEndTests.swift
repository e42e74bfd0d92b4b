import DCAPI
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCVerifier
import DCX509
import Foundation
import Testing

/// Verifier request -> wallet parse, evaluate, respond -> verifier verify, for every request form
/// and response mode, with an SD-JWT PID and an mdoc mDL in one query.
struct EndToEndTests {
  enum Form: String, CaseIterable { case unsigned, signed, multisigned }

  func signing(_ form: Form, _ fixture: Fixture) -> RequestSigning {
    switch form {
    case .unsigned: .unsigned
    case .signed: .signed(fixture.signer)
    case .multisigned:
      .multisigned([
        fixture.signer,
        RequestSigner(
          clientID: "x509_san_dns:other.example", certificateChain: [fixture.verifierCertificate],
          signer: fixture.verifierKey),
      ])
    }
  }

  @Test(arguments: Form.allCases, ResponseMode.allCases)
  func roundTrip(form: Form, mode: ResponseMode) throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(signing(form, fixture), mode)
    #expect(sent.protocolID.rawValue == "openid4vp-v1-\(form.rawValue)")

    let request = try fixture.parse(sent)
    #expect(request.responseMode == mode)
    #expect(request.nonce == sent.state.nonce)
    switch (form, request.verifier) {
    case (.unsigned, .origin(let origin)):
      #expect(origin.serialized == Fixture.origin)
    case (.signed, .authenticated(let verifier)), (.multisigned, .authenticated(let verifier)):
      #expect(verifier.clientID.rawValue == "x509_san_dns:verifier.example")
      #expect(verifier.clientID.prefix == .x509SANDNS)
      #expect(verifier.leafCertificate == fixture.verifierCertificate)
      #expect(verifier.trustedChain.anchor == fixture.verifierRoot)
      #expect(verifier.signatureIndex == (form == .multisigned ? 0 : nil))
      #expect(request.expectedOrigins == [Fixture.origin])
    default:
      Issue.record("unexpected verifier identity \(request.verifier)")
    }
    #expect((request.responseEncryption != nil) == (mode == .dcAPIJWT))

    let response = try fixture.respond(to: request)
    if mode == .dcAPIJWT {
      #expect(response.data["response"]?.string != nil)
      #expect(response.data["vp_token"] == nil)
    } else {
      #expect(response.data["vp_token"] == response.vpToken)
    }

    // The state survives a trip through JSON, private key included.
    let state = try VerifierState(json: sent.state.json)
    #expect(state == sent.state)
    let verified = try fixture.verify(response.data, state: state)
    let pid = try #require(verified.credentials["pid"]?.first)
    #expect(pid.vct == Fixture.pidType)
    #expect(pid.claim(["given_name"]) == "Erika")
    #expect(pid.claim(["family_name"]) == "Mustermann")
    #expect(pid.claim(["address"])?["locality"] == "Berlin")
    #expect(pid.claim(["address"])?["country"] == nil)
    #expect(pid.claim(["birthdate"]) == nil)
    let mdl = try #require(verified.credentials["mdl"]?.first)
    #expect(mdl.docType == "org.iso.18013.5.1.mDL")
    #expect(mdl.claim(["org.iso.18013.5.1", "family_name"]) == "Mustermann")
    #expect(mdl.claim(["org.iso.18013.5.1", "age_over_18"]) == true)
    #expect(mdl.claim(["org.iso.18013.5.1", "portrait"]) == nil)
    #expect(
      mdl.report.checks.contains {
        if case .mdocHandoverDeviceSignature = $0 { true } else { false }
      })
    #expect(verified.report.checks.contains(.credentialSetsSatisfied))
  }

  @Test func transactionDataIsBoundAndChecked() throws {
    let fixture = try Fixture()
    let entry: JSONValue = [
      "type": .string(Fixture.paymentType), "credential_ids": ["pid"], "amount": "42.00 EUR",
    ]
    let sent = try fixture.makeRequest(.signed(fixture.signer), .dcAPI, transactionData: [entry])
    let request = try fixture.parse(sent)
    #expect(request.transactionData.count == 1)
    #expect(request.transactionData.first?.type == Fixture.paymentType)
    let response = try fixture.respond(to: request)
    let verified = try fixture.verify(response.data, state: sent.state)
    #expect(
      verified.credentials["pid"]?.first?.report.checks.contains(.transactionDataBound) == true)

    // The KB-JWT names the hash of the entry exactly as sent.
    let presentation = try #require(response.vpToken["pid"]?[0]?.string)
    let kb = try CompactJWS(try #require(presentation.split(separator: "~").last.map(String.init)))
    let claims = try JSONValue(parsing: kb.payload)
    let sentEntry = try #require(sent.state.transactionData.first)
    #expect(
      claims["transaction_data_hashes"]
        == [.string(Base64URL.encode(SHA256.hash(data: Array(sentEntry.utf8))))])
    #expect(claims["transaction_data_hashes_alg"] == nil)
    #expect(claims["aud"] == .string("origin:" + Fixture.origin))

    // A verifier that expected different transaction data refuses the presentation.
    let other = VerifierState(
      protocolID: sent.state.protocolID, origin: sent.state.origin, nonce: sent.state.nonce,
      responseMode: sent.state.responseMode, encryptionKey: nil, dcqlQuery: sent.state.dcqlQuery,
      transactionData: [
        Base64URL.encode(
          JSONValue.object([
            ("type", .string(Fixture.paymentType)), ("credential_ids", ["pid"]),
            ("amount", "1 EUR"),
          ]).serializedBytes())
      ])
    let error = openID4VPError { _ = try fixture.verify(response.data, state: other) }
    #expect(error?.code == .invalidPresentation)
  }

  @Test func userDeclinedIsAnAccessDeniedResponse() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let request = try fixture.parse(sent)
    let data = request.errorResponse(.accessDenied("user declined"))
    #expect(data == ["error": "access_denied", "error_description": "user declined"])
    let error = openID4VPError { _ = try fixture.verify(data, state: sent.state) }
    #expect(error?.code == .errorResponse)
  }

  @Test func draftProtocolIdentifierIsRefused() throws {
    let fixture = try Fixture()
    // The drafts' `openid4vp` is never answered with 1.0 semantics, in either form.
    for sent in [
      try fixture.makeRequest(.unsigned, .dcAPI),
      try fixture.makeRequest(.signed(fixture.signer), .dcAPI),
    ] {
      let error = openID4VPError { _ = try fixture.parse(protocol: .draft, data: sent.data) }
      #expect(error?.code == .unsupportedProtocol)
      #expect(error?.errorResponse == nil)
    }
  }

  @Test func unsignedRequestIgnoresClientIDAndExpectedOrigins() throws {
    let fixture = try Fixture()
    let sent = try fixture.makeRequest(.unsigned, .dcAPI)
    let data = sent.data.setting("client_id", to: "x509_san_dns:evil.example")
      .setting("expected_origins", to: ["https://elsewhere.example"])
    let request = try fixture.parse(protocol: .unsigned, data: data)
    #expect(request.verifier == .origin(try WebOrigin(Fixture.origin)))
    #expect(request.parameters["client_id"] == nil)
    #expect(request.expectedOrigins == nil)
  }

  @Test func x509HashClientIDIsAccepted() throws {
    let fixture = try Fixture()
    let signer = try #require(
      RequestSigner.x509Hash(
        certificateChain: [fixture.verifierCertificate], signer: fixture.verifierKey))
    let request = try fixture.parse(try fixture.makeRequest(.signed(signer), .dcAPI))
    #expect(request.verifier.clientID?.prefix == .x509Hash)
    #expect(request.verifier.clientID?.value == fixture.verifierCertificate.x509Hash)
  }
}
