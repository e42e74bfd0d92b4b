public import DCJSON
package import DCMdoc
import DCOrgIsoMdoc
public import Foundation

extension AnnexCVerifier {
  /// Opens an `org-iso-mdoc` response (ISO/IEC TS 18013-7 Annex C) to a zero-knowledge request
  /// (a doc request whose ItemsRequest carries `zkRequest`, made with
  /// ``ZeroKnowledgeVerifier/itemsRequest(docType:nameSpace:elements:)``) and verifies its
  /// `zkDocuments` under the transcript of the state's origin (C.3.2.2).
  public static func verifyZeroKnowledge(
    responseData: JSONValue, state: State, verifier: ZeroKnowledgeVerifier, now: Date
  ) throws(VerifierError) -> ZeroKnowledgeVerifier.Result {
    let (response, transcript) = try openDeviceResponse(responseData: responseData, state: state)
    let result = try verifier.verify(
      response, request: state.request.deviceRequest, sessionTranscript: transcript, now: now)
    return ZeroKnowledgeVerifier.Result(
      documents: result.documents,
      report: VerificationReport(
        checks: [.responseOpened(transcriptOrigin: state.origin)] + result.report.checks))
  }

  /// The response opened under the transcript of the state's origin, read as a DeviceResponse.
  package static func openDeviceResponse(responseData: JSONValue, state: State)
    throws(VerifierError) -> (DeviceResponse, SessionTranscript)
  {
    let transcript = state.sessionTranscript
    let plaintext = try orgIsoMdoc { () throws(OrgIsoMdocError) in
      try EncryptedResponse(data: responseData).open(
        privateKey: state.recipientPrivateKey, sessionTranscript: transcript)
    }
    do {
      return (try DeviceResponse(bytes: plaintext), transcript)
    } catch {
      throw VerifierError(
        .verificationFailed, "DeviceResponse: \(error.reason)", underlying: error)
    }
  }
}
