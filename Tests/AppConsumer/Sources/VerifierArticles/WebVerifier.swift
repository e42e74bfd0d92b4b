// Generated from Sources/DCVerifier/DCVerifier.docc/WebVerifier.md by .ci/extract-articles: its Swift snippets, in order,
// imports first. Do not edit: change the article and run the script.
// swift-format-ignore-file
import DCAPI
import DCCrypto
import DCHTTP
import DCJSON
import DCMdoc
import DCVerifier
import DCX509
import Foundation

// MARK: snippet 1

/// The request for the page, and the state the server keeps for the answer.
func ageOver21Request(origin: WebOrigin, readerKey: ECPrivateKey, readerChain: [Certificate])
  throws -> (requestData: JSONValue, state: AnnexCVerifier.State)
{
  let state = try AnnexCVerifier.makeRequest(
    itemsRequests: [
      ItemsRequest(
        docType: "org.iso.18013.5.1.mDL",
        nameSpaces: [("org.iso.18013.5.1", [.init("age_over_21", intentToRetain: false)])])
    ], origin: origin, reader: .init(signer: readerKey, chain: readerChain))
  return (state.request.data, state)
}

/// The page posted the credential's `data`: true when a trusted issuer says the holder is over 21.
func isOver21(responseData: JSONValue, state: AnnexCVerifier.State, issuerRoots: [Certificate])
  throws -> Bool
{
  let result = try AnnexCVerifier.verify(
    responseData: responseData, state: state, issuerTrustAnchors: issuerRoots, now: Date())
  return result.documents.contains { document in
    document.elements.contains { $0.identifier == "age_over_21" && $0.value == true }
  }
}

// MARK: snippet 2
func pidRequest(origin: WebOrigin, signerKey: ECPrivateKey, signerChain: [Certificate]) throws
  -> VerifierRequest
{
  let dcql = try JSONValue(
    parsing: #"""
      {"credentials": [{"id": "pid", "format": "dc+sd-jwt",
        "meta": {"vct_values": ["urn:eudi:pid:1"]},
        "claims": [{"path": ["given_name"]}, {"path": ["age_over_18"]}]}]}
      """#)
  return try VerifierRequest(
    dcqlQuery: dcql, origin: origin.serialized, responseMode: .dcAPIJWT,
    signing: .signed(
      .x509SANDNS(dnsName: "shop.example", certificateChain: signerChain, signer: signerKey)),
    expectedOrigins: [origin.serialized])
}

// MARK: snippet 3

func verifyPID(responseData: JSONValue, state: VerifierState, issuerRoots: [Certificate])
  async throws -> [String]
{
  let verified = try await state.verifyResponse(
    responseData, sdJWTIssuerAnchors: issuerRoots, mdocIssuerAnchors: issuerRoots,
    now: Date(), status: .fetching(httpClient: URLSessionHTTPClient()))
  var claims: [String] = []
  for (_, credentials) in verified.credentials {
    for credential in credentials {
      for claim in credential.claims { claims.append("\(claim.path) = \(claim.value)") }
    }
  }
  return claims
}

// MARK: snippet 4
func pageVerifier(
  origin: WebOrigin, signer: RequestSigner, reader: AnnexCVerifier.ReaderCredentials,
  issuerRoots: [Certificate]
) -> DigitalCredentialVerifier {
  DigitalCredentialVerifier(
    configuration: DigitalCredentialVerifierConfiguration(
      origin: origin,
      protocols: [.orgIsoMdoc, .openID4VPSigned, .openID4VPUnsigned],
      signer: signer, reader: reader,
      sdJWTIssuerAnchors: issuerRoots, mdocIssuerAnchors: issuerRoots))
}

/// The argument for `navigator.credentials.get`, and the id the page posts the answer with.
func startTransaction(_ verifier: DigitalCredentialVerifier, dcql: JSONValue) async throws
  -> (id: String, options: JSONValue)
{
  let transaction = try await verifier.makeTransaction(dcqlQuery: dcql)
  return (transaction.id, transaction.credentialRequestOptions)
}

/// The page posted `{"protocol", "data"}`: the protocol the wallet picked, and its claims.
func finish(_ verifier: DigitalCredentialVerifier, id: String, credential: JSONValue)
  async throws -> String
{
  switch try await verifier.verify(transactionID: id, credential: credential) {
  case .mdoc(let result):
    return "org-iso-mdoc: \(result.documents.map(\.docType))"
  case .openID4VP(let protocolID, let verified):
    return "\(protocolID.rawValue): \(verified.credentials.keys.sorted())"
  case .crossDevice(let verified):
    return "another device: \(verified.credentials.keys.sorted())"
  }
}

// MARK: snippet 5
func reverify(
  sentRequest: JSONValue, responseData: JSONValue, origin: String, key: ECPrivateKey,
  at time: Date, issuerRoots: [Certificate]
) async throws -> VerificationReport {
  let state = try VerifierState(
    sentRequest: sentRequest, protocolID: .signed, origin: origin, recipientPrivateKey: key)
  let verified = try await state.verifyResponse(
    responseData, sdJWTIssuerAnchors: issuerRoots, mdocIssuerAnchors: issuerRoots, now: time,
    status: .skip)
  return verified.report
}
