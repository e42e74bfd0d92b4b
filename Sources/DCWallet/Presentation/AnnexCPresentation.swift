package import DCAPI
import DCCBOR
package import DCCrypto
import DCJOSE
package import DCJSON
package import DCMdoc
package import DCOrgIsoMdoc
package import DCX509
package import Foundation

/// A stored mdoc the wallet offers for matching.
package struct StoredMdoc: Sendable {
  /// The wallet's identifier for the credential.
  package let id: String
  /// The issued mdoc.
  package let issuerSigned: IssuerSigned

  /// Creates a stored mdoc.
  package init(id: String, issuerSigned: IssuerSigned) {
    self.id = id
    self.issuerSigned = issuerSigned
  }
}

/// What the user agreed to share: per answered doc request, one credential and its elements.
///
/// The caller builds this from the consent screen; `AnnexCPresentation.respond` refuses any
/// consent that reaches beyond the request or the credential.
public struct MdocConsent: Sendable, Hashable {
  /// One document to present.
  public struct Document: Sendable, Hashable {
    /// The index of the answered doc request.
    package let docRequestIndex: Int
    /// The credential that answers it.
    public let credentialID: String
    /// The elements to disclose, by namespace.
    public let elements: [String: Set<String>]

    /// Creates a consented document.
    package init(docRequestIndex: Int, credentialID: String, elements: [String: Set<String>]) {
      self.docRequestIndex = docRequestIndex
      self.credentialID = credentialID
      self.elements = elements
    }
  }

  /// The documents, in any order (the response follows the request's order).
  public let documents: [Document]

  /// Creates a consent.
  package init(documents: [Document]) { self.documents = documents }
}

/// An `org-iso-mdoc` request resolved against the wallet's mdocs: the session transcript for
/// the platform's origin, each doc request with the reader that signed it and the candidate
/// credentials, ready for a consent screen (ISO/IEC TS 18013-7:2025 Annex C). The DeviceRequest
/// part is a `ResolvedDeviceRequest`, shared with in-person presentation.
package struct AnnexCPresentation: Sendable {
  /// One doc request of the DeviceRequest.
  package typealias DocumentRequest = ResolvedDeviceRequest.DocumentRequest
  /// A stored mdoc that can answer a doc request.
  package typealias Candidate = ResolvedDeviceRequest.Candidate

  /// The request as received.
  package let request: AnnexCRequest
  /// The origin the platform supplied (never one from the payload).
  package let origin: WebOrigin
  /// The DeviceRequest resolved for this origin's transcript.
  package let resolved: ResolvedDeviceRequest

  /// The transcript both signatures and the HPKE seal are bound to.
  package var sessionTranscript: SessionTranscript { resolved.sessionTranscript }
  /// The doc requests, in request order.
  package var documentRequests: [DocumentRequest] { resolved.documentRequests }
  /// The DeviceRequestInfo use cases (alternatives over doc requests), empty when absent.
  package var useCases: [UseCase] { resolved.useCases }
  /// Why reader authentication failed (see `ResolvedDeviceRequest.readerAuthenticationFailure`).
  package var readerAuthenticationFailure: MdocError? { resolved.readerAuthenticationFailure }

  /// Resolves request data for the platform's origin.
  ///
  /// A reader signature that does not verify is recorded in `readerAuthenticationFailure`.
  ///
  /// - Throws: `invalidRequest` for malformed data; its `underlying` is the `OrgIsoMdocError`
  ///   naming the check (`invalidRequest`, `invalidEncryptionInfo`).
  package static func resolve(
    data: JSONValue, origin: WebOrigin, credentials: [StoredMdoc],
    readerTrustAnchors: [Certificate], now: Date
  ) throws(PresentationError) -> AnnexCPresentation {
    let request: AnnexCRequest
    do {
      request = try AnnexCRequest(data: data)
    } catch {
      throw PresentationError(.invalidRequest, error.reason, underlying: error)
    }
    return try resolve(
      request: request, origin: origin, credentials: credentials,
      readerTrustAnchors: readerTrustAnchors, now: now)
  }

  /// Resolves an already parsed request (for callers that read it first, for example to pick the
  /// credentials of the requested docTypes).
  package static func resolve(
    request: AnnexCRequest, origin: WebOrigin, credentials: [StoredMdoc],
    readerTrustAnchors: [Certificate], now: Date
  ) throws(PresentationError) -> AnnexCPresentation {
    AnnexCPresentation(
      request: request, origin: origin,
      resolved: try ResolvedDeviceRequest.resolve(
        deviceRequest: request.deviceRequest,
        sessionTranscript: request.sessionTranscript(origin: origin), credentials: credentials,
        readerTrustAnchors: readerTrustAnchors, now: now))
  }

  /// Whether every doc request is signed by a trusted reader.
  package var isReaderTrusted: Bool { resolved.isReaderTrusted }

  /// Refuses the request unless every doc request is signed by a trusted reader (what
  /// `WalletPolicy.requireAuthenticatedRequester` asks of an Annex C request).
  package func requireTrustedReader() throws(PresentationError) {
    try resolved.requireTrustedReader()
  }

  /// The doc requests to answer (see `ResolvedDeviceRequest.answerableDocRequests`).
  package var answerableDocRequests: [Int]? { resolved.answerableDocRequests }

  /// The doc requests a consent answers (see `ResolvedDeviceRequest.docRequestsToAnswer`).
  package func docRequestsToAnswer(credentials chosen: Set<String> = []) -> [Int]? {
    resolved.docRequestsToAnswer(credentials: chosen)
  }

  /// A consent that shares the minimum (see `ResolvedDeviceRequest.proposedConsent()`).
  package func proposedConsent() throws(PresentationError) -> MdocConsent {
    try resolved.proposedConsent()
  }

  /// Checks a consent against the request and the credentials, then builds the DeviceResponse:
  /// one document per consented doc request, only consented elements, each device-signed over
  /// this session's transcript. Nothing is signed unless the whole consent is valid.
  package func deviceResponse(
    consent: MdocConsent, deviceKey: (String) throws -> any Signer
  ) throws(PresentationError) -> DeviceResponse {
    try resolved.deviceResponse(consent: consent) { id in .signature(try deviceKey(id)) }
  }

  /// Builds the DeviceResponse for a consent and seals it to the verifier (C.3.2.3). A doc
  /// request that asks for a zero-knowledge proof is answered with one made with `circuits`
  /// (its disclosed document is only the prover's input); `now` is the proof's timestamp.
  package func respond(
    consent: MdocConsent, circuits: [ZeroKnowledgeProverCircuit] = [], now: Date = Date(),
    deviceKey: (String) throws -> any Signer
  ) throws(PresentationError) -> EncryptedResponse {
    let answers: [ZeroKnowledgeAnswer]
    switch resolved.zeroKnowledgeAnswers(circuits: circuits) {
    case .success(let found): answers = found
    case .failure(let mismatch): throw PresentationError(.consentViolation, mismatch.reason)
    }
    let response = try resolved.zeroKnowledgeResponse(
      try deviceResponse(consent: consent, deviceKey: deviceKey), consent: consent,
      answers: answers, now: now)
    do {
      return try EncryptedResponse.seal(
        response, to: request.encryptionInfo.recipientPublicKey,
        sessionTranscript: sessionTranscript)
    } catch {
      throw PresentationError(.cryptoFailure, error.reason, underlying: error)
    }
  }

  /// Refuses a consent that names an unknown doc request twice, a credential that is not a
  /// candidate, an element that was not requested or that the credential lacks, or that leaves
  /// a mandatory use case unanswered.
  package func validate(_ consent: MdocConsent) throws(PresentationError) {
    try resolved.validate(consent)
  }
}
