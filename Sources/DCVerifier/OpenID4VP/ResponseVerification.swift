import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
public import DCJSON
import DCMdoc
public import DCOpenID4VP
package import DCQL
import DCSDJWT
public import DCX509
public import Foundation

/// One verified claim: where it sits in the credential and its value (OpenID4VP 1.0 §7).
public struct VerifiedClaim: Sendable, Hashable {
  /// The claim's path; for an mdoc `[namespace, element]` (OpenID4VP 1.0 Appendix B.2.4).
  public let path: ClaimPath
  /// The value; mdoc byte strings as base64url, dates as their text.
  public let value: JSONValue
}

/// One verified presentation in a `vp_token` (OpenID4VP 1.0 §8.1, §8.6).
public struct VerifiedCredential: Sendable, Hashable {
  /// The Credential Query it answers.
  package let credentialQueryID: String
  /// `dc+sd-jwt` or `mso_mdoc` (OpenID4VP 1.0 Appendix B).
  public let format: String
  /// The mdoc docType, for `mso_mdoc`.
  public let docType: String?
  /// The SD-JWT VC `vct`, for `dc+sd-jwt`.
  public let vct: String?
  /// The presented claims: SD-JWT top-level claims of the processed payload (without `cnf` and
  /// `_sd_alg`), or every mdoc element.
  public let claims: [VerifiedClaim]
  /// The issuer's (document signer's) certificate, the `x5c` / x5chain leaf.
  package let issuerCertificate: Certificate?
  /// The checks that passed for this presentation, in the order they ran.
  public let report: VerificationReport
  /// The mdoc's MSO, for its status reference (ISO 18013-5 second edition `status`).
  var mso: MobileSecurityObject? = nil
  /// The trust anchor the issuer's chain reached: the one its status list must chain to.
  var issuerAnchor: Certificate? = nil

  /// The value of the claim at `path`, if presented.
  package func claim(_ path: [String]) -> JSONValue? {
    claims.first { $0.path == ClaimPath(path.map { .key($0) }) }?.value
  }
}

/// A response whose every presentation verified and that satisfies the DCQL query
/// (OpenID4VP 1.0 §8.6, §6.4).
public struct VerifiedAuthorizationResponse: Sendable, Hashable {
  /// The `vp_token` as received (decrypted for `dc_api.jwt`).
  public let vpToken: JSONValue
  /// Per Credential Query id, its verified presentations.
  public let credentials: [String: [VerifiedCredential]]
  /// The response-level checks that passed, in the order they ran.
  public let report: VerificationReport
}

extension VerifierState {
  /// Opens and verifies a response to the request this state belongs to (OpenID4VP 1.0 §8.3,
  /// §8.6, Appendix A, B.2.6, B.3.6).
  ///
  /// For `dc_api.jwt` the JWE is decrypted with the state's key. SD-JWT VCs are verified with
  /// `sdJWTIssuerAnchors` (issuer signature through `x5c`, Disclosures, Key Binding JWT with
  /// `aud` `origin:<origin>`, the nonce, `sd_hash`, and the transaction data hashes when the
  /// request carried transaction data for that query). mdocs are verified with
  /// `mdocIssuerAnchors` (issuerAuth chain to an IACA, digests, validity, and the device
  /// signature over the DC API SessionTranscript for this origin, nonce and key thumbprint).
  /// Finally the presentations must satisfy the query: known ids, `multiple`, the claims and
  /// `credential_sets` (§6.4).
  ///
  /// - Throws: `errorResponse` when the wallet answered with an error; `invalidResponse`,
  ///   `decryptionFailed`, `invalidPresentation`, `queryNotSatisfied`.
  public func verifyResponse(
    _ data: JSONValue, sdJWTIssuerAnchors: [Certificate], mdocIssuerAnchors: [Certificate],
    now: Date
  ) throws(OpenID4VPError) -> VerifiedAuthorizationResponse {
    let opened = try open(data)
    return try verifyOpened(
      opened.payload, thumbprint: opened.thumbprint, binding: .dcAPI(origin: origin),
      sdJWTIssuerAnchors: sdJWTIssuerAnchors, mdocIssuerAnchors: mdocIssuerAnchors, now: now)
  }

  /// Steps 2-4 on an opened (decrypted) payload: the presentations verified as bound to
  /// `binding` (the DC API origin, or the redirect flow's client_id and response_uri), then
  /// aggregated against the query. `thumbprint` is the response encryption key's, nil when the
  /// response was not encrypted (OpenID4VP 1.0 Appendix B.2.6).
  package func verifyOpened(
    _ payload: JSONValue, thumbprint: [UInt8]?, binding: PresentationBinding,
    sdJWTIssuerAnchors: [Certificate], mdocIssuerAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> VerifiedAuthorizationResponse {
    var checks: [VerificationCheck] = thumbprint == nil ? [] : [.responseDecrypted]
    let (vpToken, entries) = try Self.readVPToken(payload)
    let query = try parsedQuery()
    let checked = try checkPresentations(
      entries, query: query, thumbprint: thumbprint, binding: binding,
      sdJWTIssuerAnchors: sdJWTIssuerAnchors, mdocIssuerAnchors: mdocIssuerAnchors, now: now)
    checks.append(
      try Self.aggregate(
        query: query, descriptions: checked.descriptions, indicesByID: checked.indicesByID))
    checks.append(.presentationsMeetQueries)
    return VerifiedAuthorizationResponse(
      vpToken: vpToken, credentials: checked.results, report: VerificationReport(checks: checks))
  }

  /// Step 1: the response opened: refused when the wallet answered with an error, decrypted
  /// with the state's key for `dc_api.jwt` (§8.3, §8.5, Appendix A.2). `thumbprint` is the
  /// encryption key's, bound into mdoc handovers; nil for `dc_api`.
  package func open(_ data: JSONValue) throws(OpenID4VPError) -> (
    payload: JSONValue, thumbprint: [UInt8]?
  ) {
    guard case .object = data else {
      throw OpenID4VPError(.invalidResponse, "response data must be a JSON object")
    }
    if let error = OpenID4VPErrorResponse(data: data) {
      throw OpenID4VPError(
        .errorResponse,
        "\(error.error.rawValue)\(error.errorDescription.map { ": " + $0 } ?? "")")
    }
    let payload: JSONValue
    var thumbprint: [UInt8]? = nil
    switch responseMode {
    case .dcAPI:
      payload = data
    case .dcAPIJWT:
      guard let key = encryptionKey else {
        throw OpenID4VPError(.invalidResponse, "the state has no encryption key for dc_api.jwt")
      }
      // Some peers spell the member `Response`; read it, but only ever emit `response` (A.2).
      guard let text = (data["response"] ?? data["Response"])?.string else {
        throw OpenID4VPError(.invalidResponse, "a dc_api.jwt response is {\"response\": <JWE>}")
      }
      payload = try Self.decrypt(text, with: key)
      thumbprint = key.publicJWK.thumbprint()
    }
    return (payload, thumbprint)
  }

  /// Step 2: `vp_token`, a JSON object of Credential Query ids (§8.1); an encrypted error
  /// response is reported as such (§8.5).
  package static func readVPToken(_ payload: JSONValue) throws(OpenID4VPError) -> (
    vpToken: JSONValue, entries: [(key: String, value: JSONValue)]
  ) {
    guard let vpToken = payload["vp_token"], let entries = vpToken.object else {
      // §8.5: an encrypted error response is also possible.
      if let error = OpenID4VPErrorResponse(data: payload) {
        throw OpenID4VPError(.errorResponse, error.error.rawValue)
      }
      throw OpenID4VPError(.invalidResponse, "vp_token must be a JSON object")
    }
    return (vpToken, entries)
  }

  /// The state's `dcql_query`, parsed (§6).
  func parsedQuery() throws(OpenID4VPError) -> DCQLQuery {
    let query: DCQLQuery
    do {
      query = try DCQLQuery(ClaimValue(dcqlQuery))
    } catch {
      throw OpenID4VPError(.invalidResponse, "the state's dcql_query: \(error)", underlying: error)
    }
    return query
  }

  /// Step 3: each presentation verified against its Credential Query (§6.1, Appendix B.2.6,
  /// B.3.6), with its DCQL description for the aggregation.
  func checkPresentations(
    _ entries: [(key: String, value: JSONValue)], query: DCQLQuery, thumbprint: [UInt8]?,
    binding: PresentationBinding, sdJWTIssuerAnchors: [Certificate],
    mdocIssuerAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (
    results: [String: [VerifiedCredential]], descriptions: [any DCQLCredential],
    indicesByID: [String: [Int]]
  ) {
    let queries = Dictionary(
      query.credentials.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let entriesByID = try transactionDataByQuery(ids: Set(queries.keys))

    var results: [String: [VerifiedCredential]] = [:]
    var descriptions: [any DCQLCredential] = []
    var indicesByID: [String: [Int]] = [:]
    for (id, value) in entries {
      guard let credentialQuery = queries[id] else {
        throw OpenID4VPError(.queryNotSatisfied, "vp_token answers \(id), which was not asked")
      }
      guard let items = value.array, !items.isEmpty else {
        throw OpenID4VPError(.invalidResponse, "vp_token.\(id) must be a non-empty array")
      }
      // §6.1: without `multiple`, exactly one presentation.
      guard credentialQuery.multiple || items.count == 1 else {
        throw OpenID4VPError(
          .queryNotSatisfied, "\(id) allows one presentation, got \(items.count)")
      }
      for item in items {
        guard let presentation = item.string else {
          throw OpenID4VPError(.invalidResponse, "vp_token.\(id) must hold strings")
        }
        let (verified, description) = try verifyPresentation(
          presentation, id: id, query: credentialQuery, thumbprint: thumbprint, binding: binding,
          transactionDataHashes: entriesByID[id] ?? [], sdJWTIssuerAnchors: sdJWTIssuerAnchors,
          mdocIssuerAnchors: mdocIssuerAnchors, now: now)
        results[id, default: []].append(verified)
        indicesByID[id, default: []].append(descriptions.count)
        descriptions.append(description)
      }
    }

    return (results, descriptions, indicesByID)
  }

  /// One presentation verified by its Credential Query's format.
  private func verifyPresentation(
    _ presentation: String, id: String, query credentialQuery: CredentialQuery,
    thumbprint: [UInt8]?, binding: PresentationBinding, transactionDataHashes: [String],
    sdJWTIssuerAnchors: [Certificate], mdocIssuerAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (VerifiedCredential, any DCQLCredential) {
    switch credentialQuery.format {
    case DCQLFormat.sdJWTVC:
      return try verifySDJWT(
        presentation, id: id, query: credentialQuery, binding: binding,
        transactionDataHashes: transactionDataHashes, anchors: sdJWTIssuerAnchors, now: now)
    case DCQLFormat.msoMdoc:
      return try verifyMdoc(
        presentation, id: id, query: credentialQuery, thumbprint: thumbprint,
        binding: binding, anchors: mdocIssuerAnchors, now: now)
    default:
      throw OpenID4VPError(
        .invalidResponse, "format \(credentialQuery.format) cannot be verified here")
    }
  }

  /// Step 4: the presentations together: each meets its Credential Query, and the answered
  /// ids satisfy `credential_sets`, or every query when there are none (§6.4). Returns the
  /// check that passed for the sets.
  package static func aggregate(
    query: DCQLQuery, descriptions: [any DCQLCredential], indicesByID: [String: [Int]]
  ) throws(OpenID4VPError) -> VerificationCheck {
    // §6.4: each presentation must meet its Credential Query, and the answered ids the sets.
    let evaluation = query.evaluate(descriptions)
    for (id, indices) in indicesByID {
      let candidates = Set(evaluation.matches[id]?.candidates.map(\.credentialIndex) ?? [])
      for index in indices where !candidates.contains(index) {
        throw OpenID4VPError(
          .queryNotSatisfied,
          "a presentation for \(id) does not meet its query: "
            + (evaluation.matches[id]?.unmatchedReason ?? "claims or metadata differ"))
      }
    }
    let answered = Set(indicesByID.keys)
    if let sets = query.credentialSets {
      for (index, set) in sets.enumerated() where set.required {
        guard set.options.contains(where: { Set($0).isSubset(of: answered) }) else {
          throw OpenID4VPError(
            .queryNotSatisfied, "required credential set \(index) has no answered option")
        }
      }
      return .credentialSetsSatisfied
    } else {
      for credential in query.credentials where !answered.contains(credential.id) {
        throw OpenID4VPError(.queryNotSatisfied, "Credential Query \(credential.id) unanswered")
      }
      return .everyCredentialQueryAnswered
    }
  }

  static func decrypt(_ text: String, with key: JWK) throws(OpenID4VPError) -> JSONValue {
    let jwe: CompactJWE
    do {
      jwe = try CompactJWE(text)
    } catch {
      throw OpenID4VPError(.invalidResponse, "response JWE: \(error.reason)", underlying: error)
    }
    let plaintext: [UInt8]
    do {
      plaintext = try jwe.decrypt(with: try key.privateKey())
    } catch {
      throw OpenID4VPError(.decryptionFailed, "response JWE: \(error.reason)", underlying: error)
    }
    do {
      return try JSONValue(parsing: plaintext)
    } catch {
      throw OpenID4VPError(
        .invalidResponse, "decrypted response is not JSON: \(error.reason)", underlying: error)
    }
  }

  /// §8.4: the hashes each Credential Query's presentations must bind.
  func transactionDataByQuery(ids: Set<String>) throws(OpenID4VPError) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for encoded in transactionData {
      let entry: TransactionData
      do {
        entry = try TransactionData(encoded: encoded, credentialQueryIDs: ids)
      } catch {
        throw OpenID4VPError(
          .invalidResponse, "the state's transaction_data: \(error.reason)", underlying: error)
      }
      for id in entry.credentialIDs { result[id, default: []].append(entry.hash) }
    }
    return result
  }

  private func verifySDJWT(
    _ presentation: String, id: String, query: CredentialQuery, binding: PresentationBinding,
    transactionDataHashes: [String], anchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (VerifiedCredential, any DCQLCredential) {
    let keyBindingCheck = binding.keyBindingCheck
    let verified: VerifiedPresentation
    do {
      verified = try SDJWT.verifyPresentation(
        serialized: presentation, trustAnchors: anchors,
        expectedAudience: binding.keyBindingAudience, expectedNonce: nonce, now: now)
    } catch {
      throw OpenID4VPError(.invalidPresentation, "\(id): \(error.reason)", underlying: error)
    }
    var checks: [VerificationCheck] = [.sdJWTIssuerSignature, .sdJWTDisclosureDigests]
    if case .certificateChain(let chain) = verified.credential.trust,
      let revocation = VerificationCheck.revocation(of: chain)
    {
      checks.append(revocation)
    }
    if let binding = verified.keyBinding {
      checks.append(keyBindingCheck)
      if !transactionDataHashes.isEmpty {
        try Self.checkTransactionDataHashes(binding, expected: transactionDataHashes, id: id)
        checks.append(.transactionDataBound)
      }
    } else if query.requireCryptographicHolderBinding || !transactionDataHashes.isEmpty {
      throw OpenID4VPError(.invalidPresentation, "\(id): holder binding (KB-JWT) is required")
    }
    let payload = verified.credential.payload
    let claims = (payload.object ?? []).filter { $0.key != "cnf" && $0.key != "_sd_alg" }.map {
      VerifiedClaim(path: ClaimPath([.key($0.key)]), value: $0.value)
    }
    let chain = verified.credential.issuerCertificateChain
    let description = DCQLCredentialDescription.sdJWTVC(
      vct: verified.credential.vct ?? "", claims: ClaimValue(payload),
      authorityKeyIdentifiers: chain.compactMap(\.authorityKeyIdentifier),
      supportsHolderBinding: verified.keyBinding != nil)
    return (
      VerifiedCredential(
        credentialQueryID: id, format: DCQLFormat.sdJWTVC, docType: nil,
        vct: verified.credential.vct, claims: claims, issuerCertificate: chain.first,
        report: VerificationReport(checks: checks),
        issuerAnchor: sdJWTIssuerAnchor(verified.credential.trust)),
      description
    )
  }

  /// §8.4: the KB-JWT binds every transaction data entry for this query, with the default
  /// algorithm.
  private static func checkTransactionDataHashes(
    _ binding: VerifiedKeyBinding, expected transactionDataHashes: [String], id: String
  ) throws(OpenID4VPError) {
    // §8.4: every entry for this query is bound, with the default algorithm.
    guard
      binding.transactionDataHashesAlg == nil
        || binding.transactionDataHashesAlg == TransactionData.hashAlgorithm
    else {
      throw OpenID4VPError(
        .invalidPresentation, "\(id): transaction_data_hashes_alg is not sha-256")
    }
    guard let hashes = binding.transactionDataHashes,
      Set(hashes) == Set(transactionDataHashes)
    else {
      throw OpenID4VPError(
        .invalidPresentation, "\(id): transaction_data_hashes do not match the request")
    }
  }

  private func verifyMdoc(
    _ presentation: String, id: String, query: CredentialQuery, thumbprint: [UInt8]?,
    binding: PresentationBinding, anchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (VerifiedCredential, any DCQLCredential) {
    let document = try Self.singleDocument(presentation, id: id)
    var checks: [VerificationCheck] = []
    let issuer: IssuerVerification
    let basis: IssuerTrustBasis
    let transcript = binding.sessionTranscript(nonce: nonce, jwkThumbprint: thumbprint)
    do {
      // An anchor may be the document signer itself (direct trust, issue 10 §4).
      (issuer, basis) = try document.issuerSigned.verify(
        expectedDocType: document.docType, issuerAnchors: anchors, at: now)
      if case .pinnedDocumentSigner = basis {
        checks.append(.mdocIssuerAuth(trust: .pinnedDocumentSigner))
      } else {
        checks.append(.mdocIssuerAuth(trust: .chainToIACA))
      }
      if case .trusted(let chain) = issuer.trust,
        let revocation = VerificationCheck.revocation(of: chain)
      {
        checks.append(revocation)
      }
      checks.append(.mdocValueDigests)
      let verified = try document.verifyDeviceAuthentication(
        sessionTranscript: transcript, deviceKey: issuer.deviceKey)
      checks.append(binding.mdocDeviceSignatureCheck)
      if verified == .signatureWithAttachedPayload {
        checks.append(.deviceSignaturePayloadAttached(docType: document.docType))
      }
    } catch {
      throw OpenID4VPError(.invalidPresentation, "\(id): \(error.reason)", underlying: error)
    }
    let chain = (try? document.issuerSigned.documentSignerChain()) ?? []
    let description = DCQLCredentialDescription(
      format: DCQLFormat.msoMdoc, docType: document.docType,
      claims: MdocCredential.claims(of: document.issuerSigned.nameSpaces),
      authorityKeyIdentifiers: chain.compactMap(\.authorityKeyIdentifier),
      supportsHolderBinding: true)
    return (
      VerifiedCredential(
        credentialQueryID: id, format: DCQLFormat.msoMdoc, docType: document.docType, vct: nil,
        claims: Self.claims(of: document), issuerCertificate: issuer.documentSigner,
        report: VerificationReport(checks: checks), mso: document.issuerSigned.mso,
        issuerAnchor: basis.anchor),
      description
    )
  }

  /// The one document of a base64url DeviceResponse with status 0.
  private static func singleDocument(_ presentation: String, id: String)
    throws(OpenID4VPError) -> Document
  {
    let response: DeviceResponse
    do {
      response = try DeviceResponse(bytes: try Base64URL.decode(presentation))
    } catch {
      throw OpenID4VPError(
        .invalidPresentation, "\(id): not a base64url DeviceResponse: \(error)", underlying: error)
    }
    guard response.status == DeviceResponse.statusOK, response.documents.count == 1,
      let document = response.documents.first
    else {
      throw OpenID4VPError(
        .invalidPresentation,
        "\(id): DeviceResponse must have status 0 and one document (status \(response.status), "
          + "\(response.documents.count) documents)")
    }
    return document
  }

  /// The document's issuer-signed elements as claims, each at `[nameSpace, identifier]`.
  private static func claims(of document: Document) -> [VerifiedClaim] {
    var claims: [VerifiedClaim] = []
    for (nameSpace, items) in document.issuerSigned.nameSpaces {
      for item in items {
        claims.append(
          VerifiedClaim(
            path: ClaimPath([.key(nameSpace), .key(item.elementIdentifier)]),
            value: JSONValue(cbor: item.elementValue)))
      }
    }
    return claims
  }
}

/// The anchor an SD-JWT's `x5c` reached; nil when it was verified with a key.
func sdJWTIssuerAnchor(_ trust: IssuerTrust) -> Certificate? {
  if case .certificateChain(let chain) = trust { return chain.anchor }
  return nil
}

extension IssuerTrustBasis {
  /// The anchor the issuer was trusted through: the IACA its chain reached, or the pinned
  /// document signer itself.
  var anchor: Certificate {
    switch self {
    case .chain(let chain): chain.anchor
    case .pinnedDocumentSigner(let signer): signer
    }
  }
}
