public import DCAPI
public import DCCrypto
public import DCMdoc
public import DCX509
public import Foundation

/// The reader's side of an ISO 18013-5 in-person presentation, given this session's
/// SessionTranscript (the session layer builds it from the engagement, the EReaderKey and the
/// handover): build the DeviceRequest with reader authentication, then verify the DeviceResponse
/// against the same session. The report has the shapes `AnnexCVerifier` reports with.
public enum ProximityReader {
  /// A reader key and its certificate chain (leaf first) for reader authentication.
  public typealias ReaderCredentials = AnnexCVerifier.ReaderCredentials
  /// The verified documents and the checks that passed, in order.
  public typealias Result = AnnexCVerifier.Result

  /// Where the reader signs (ISO 18013-5 §9.1.4).
  public enum ReaderAuthenticationMode: Sendable, Hashable {
    /// A readerAuth per doc request, over ReaderAuthentication with its ItemsRequestBytes.
    case perDocRequest
    /// One readerAuthAll over ReaderAuthenticationAll (all ItemsRequestBytes and the
    /// DeviceRequestInfo), second edition: the request is version 1.1.
    case all
  }

  /// Builds a DeviceRequest for this session: version 1.0, or 1.1 when `useCases` are given
  /// (DeviceRequestInfo) or the reader signs with readerAuthAll; with `reader`, reader
  /// authentication over this session's transcript (§9.1.4).
  ///
  /// - Throws: `invalidRequest` for no doc request or a use case naming a missing one,
  ///   `cryptoFailure` when the reader key cannot sign.
  public static func makeRequest(
    itemsRequests: [ItemsRequest], useCases: [UseCase] = [],
    sessionTranscript: SessionTranscript, reader: ReaderCredentials? = nil,
    readerAuthentication: ReaderAuthenticationMode = .perDocRequest
  ) throws(VerifierError) -> DeviceRequest {
    guard !itemsRequests.isEmpty else {
      throw VerifierError(.invalidRequest, "request at least one document")
    }
    for useCase in useCases {
      for set in useCase.documentSets
      where set.contains(where: { !itemsRequests.indices.contains($0) }) {
        throw VerifierError(
          .invalidRequest, "a use case refers to a doc request that does not exist")
      }
    }
    let unsigned = DeviceRequest(
      docRequests: itemsRequests.map { DocRequest(itemsRequest: reader?.sent($0) ?? $0) },
      useCases: useCases)
    guard let reader else { return unsigned }
    do {
      switch readerAuthentication {
      case .perDocRequest:
        let docRequests = try unsigned.docRequests.map { (docRequest) throws(MdocError) in
          DocRequest(
            itemsRequest: docRequest.itemsRequest,
            readerAuth: try ReaderAuthentication.sign(
              payload: ReaderAuthentication.bytes(
                sessionTranscript: sessionTranscript,
                itemsRequestBytes: docRequest.itemsRequestBytes),
              signer: reader.signer, chain: reader.chain))
        }
        return DeviceRequest(
          docRequests: docRequests, deviceRequestInfo: unsigned.deviceRequestInfo,
          readerAuthAll: [])
      case .all:
        let signature = try ReaderAuthentication.sign(
          payload: ReaderAuthentication.allBytes(
            sessionTranscript: sessionTranscript,
            itemsRequests: unsigned.docRequests.map(\.itemsRequestBytes),
            deviceRequestInfo: unsigned.deviceRequestInfo),
          signer: reader.signer, chain: reader.chain)
        return DeviceRequest(
          docRequests: unsigned.docRequests, deviceRequestInfo: unsigned.deviceRequestInfo,
          readerAuthAll: [signature])
      }
    } catch {
      throw VerifierError(.cryptoFailure, error.reason, underlying: error)
    }
  }

  /// Verifies a DeviceResponse (decrypted by the session layer) against the request sent and
  /// this session: the structure and status (a non-zero status is reported with its meaning,
  /// §8.3.2.1.2.3), each document's issuer chain to `issuerTrustAnchors` (or a pinned document
  /// signer), digests and validity at `now`, its device authentication over `sessionTranscript`
  /// (a deviceSignature with the MSO's device key, or a deviceMac with the EMacKey derived from
  /// `eReaderKey`, this session's ephemeral reader private key, §9.1.3.5), and that every
  /// returned element was requested. What the holder did not return is reported, not refused:
  /// `Result.documentErrors` and each document's `notReturned`.
  ///
  /// - Throws: `verificationFailed` naming the first check that failed.
  public static func verify(
    response bytes: [UInt8], request: DeviceRequest, sessionTranscript: SessionTranscript,
    eReaderKey: ECPrivateKey?, issuerTrustAnchors: [Certificate], now: Date
  ) throws(VerifierError) -> Result {
    let response: DeviceResponse
    do {
      response = try DeviceResponse(bytes: bytes)
    } catch {
      throw VerifierError(
        .verificationFailed, "DeviceResponse: \(error.reason)", underlying: error)
    }
    var checks: [VerificationCheck] = []
    let documents = try AnnexCVerifier.verifyDeviceResponse(
      response, request: request, sessionTranscript: sessionTranscript, eReaderKey: eReaderKey,
      issuerTrustAnchors: issuerTrustAnchors, now: now, checks: &checks)
    return Result(
      documents: documents, report: VerificationReport(checks: checks),
      documentErrors: response.documentErrors)
  }

  /// Verifies a zero-knowledge answer (ISO 18013-5 2nd edition `zkDocuments`, decrypted by the
  /// session layer) to a request made with
  /// ``ZeroKnowledgeVerifier/itemsRequest(docType:nameSpace:elements:)``, under this session's
  /// transcript.
  ///
  /// - Throws: `verificationFailed` naming the first check that failed; `proofSystemUnavailable`
  ///   when every check outside the proof passed but this build cannot check the proof.
  public static func verifyZeroKnowledge(
    response bytes: [UInt8], request: DeviceRequest, sessionTranscript: SessionTranscript,
    verifier: ZeroKnowledgeVerifier, now: Date
  ) throws(VerifierError) -> ZeroKnowledgeVerifier.Result {
    let response: DeviceResponse
    do {
      response = try DeviceResponse(bytes: bytes)
    } catch {
      throw VerifierError(
        .verificationFailed, "DeviceResponse: \(error.reason)", underlying: error)
    }
    return try verifier.verify(
      response, request: request, sessionTranscript: sessionTranscript, now: now)
  }
}
