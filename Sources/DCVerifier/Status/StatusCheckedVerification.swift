public import DCAPI
public import DCCrypto
public import DCJSON
public import DCMdoc
public import DCOpenID4VP
import DCQL
public import DCX509
public import Foundation

// The verifiers with the credential status check (IETF Token Status List,
// draft-ietf-oauth-status-list §8.3): each runs the verification without it first (every
// signature, chain, digest and binding, no I/O), then checks the status of each verified
// credential that references a list, with the trust anchors its issuer was verified with.

extension VerifierState {
  /// Opens and verifies a response as ``verifyResponse(_:sdJWTIssuerAnchors:mdocIssuerAnchors:now:)``
  /// does, then checks each verified credential's status through `status`: an SD-JWT VC's
  /// `status.status_list` against `sdJWTIssuerAnchors`, an mdoc's MSO `status` against
  /// `mdocIssuerAnchors`. Each credential's report ends with a `credentialStatus` check (valid,
  /// unknown, not referenced, or skipped).
  ///
  /// - Throws: what the verification without status throws, and `invalidPresentation` with a
  ///   `CredentialStatusError` as its `underlying` error for a credential that is invalid
  ///   (revoked), suspended or has an application-specific status, or whose status is unknown
  ///   under a strict `StatusPolicy`.
  public func verifyResponse(
    _ data: JSONValue, sdJWTIssuerAnchors: [Certificate], mdocIssuerAnchors: [Certificate],
    now: Date, status: StatusChecking
  ) async throws(OpenID4VPError) -> VerifiedAuthorizationResponse {
    let verified = try verifyResponse(
      data, sdJWTIssuerAnchors: sdJWTIssuerAnchors, mdocIssuerAnchors: mdocIssuerAnchors,
      now: now)
    return try await verified.checkingStatus(
      status, sdJWTIssuerAnchors: sdJWTIssuerAnchors, mdocIssuerAnchors: mdocIssuerAnchors,
      now: now)
  }
}

extension VerifiedAuthorizationResponse {
  /// This response with each credential's status checked through `status`, with the anchors
  /// its issuer was verified with; each credential's report gains a `credentialStatus` check.
  package func checkingStatus(
    _ status: StatusChecking, sdJWTIssuerAnchors: [Certificate], mdocIssuerAnchors: [Certificate],
    now: Date
  ) async throws(OpenID4VPError) -> VerifiedAuthorizationResponse {
    let verified = self
    var credentials = verified.credentials
    var run = StatusCheckRun(status, now: now)
    for id in credentials.keys.sorted() {
      guard let presentations = credentials[id] else { continue }
      var checked: [VerifiedCredential] = []
      for credential in presentations {
        let name = "\(id) (\(credential.vct ?? credential.docType ?? credential.format))"
        let outcome: ReportedCredentialStatus
        do {
          if credential.format == DCQLFormat.sdJWTVC {
            outcome = try await run.outcome(
              credential: name, source: .sdJWT(credential.claim(["status"])),
              anchors: sdJWTIssuerAnchors, issuerAnchor: credential.issuerAnchor)
          } else {
            outcome = try await run.outcome(
              credential: name, source: .mdoc(credential.mso?.status), anchors: mdocIssuerAnchors,
              issuerAnchor: credential.issuerAnchor)
          }
        } catch {
          throw OpenID4VPError(.invalidPresentation, error.reason, underlying: error)
        }
        checked.append(
          credential.adding(.credentialStatus(credential: name, outcome: outcome)))
      }
      credentials[id] = checked
    }
    return VerifiedAuthorizationResponse(
      vpToken: verified.vpToken, credentials: credentials, report: verified.report)
  }
}

extension VerifiedCredential {
  func adding(_ check: VerificationCheck) -> VerifiedCredential {
    var copy = self
    copy.report = VerificationReport(checks: report.checks + [check])
    return copy
  }
}

extension AnnexCVerifier {
  /// Opens and verifies a response as ``verify(responseData:state:issuerTrustAnchors:now:)``
  /// does, then checks each verified document's status (its MSO `status`, ISO 18013-5 second
  /// edition) through `status`, with `issuerTrustAnchors`. The report gains one
  /// `credentialStatus` check per document, after the other checks.
  ///
  /// - Throws: what the verification without status throws, and `verificationFailed` with a
  ///   `CredentialStatusError` as its `underlying` error for a document that is invalid
  ///   (revoked), suspended or has an application-specific status, or whose status is unknown
  ///   under a strict `StatusPolicy`.
  public static func verify(
    responseData: JSONValue, state: State, issuerTrustAnchors: [Certificate], now: Date,
    status: StatusChecking
  ) async throws(VerifierError) -> Result {
    let result = try verify(
      responseData: responseData, state: state, issuerTrustAnchors: issuerTrustAnchors, now: now)
    return try await result.checkingStatus(status, issuerTrustAnchors: issuerTrustAnchors, now: now)
  }
}

extension ProximityReader {
  /// Verifies a DeviceResponse as
  /// ``verify(response:request:sessionTranscript:eReaderKey:issuerTrustAnchors:now:)`` does,
  /// then checks each verified document's status (its MSO `status`) through `status`, with
  /// `issuerTrustAnchors`; the report gains one `credentialStatus` check per document.
  ///
  /// - Throws: `verificationFailed` naming the first check that failed, with a
  ///   `CredentialStatusError` as its `underlying` error for a status failure.
  public static func verify(
    response bytes: [UInt8], request: DeviceRequest, sessionTranscript: SessionTranscript,
    eReaderKey: ECPrivateKey?, issuerTrustAnchors: [Certificate], now: Date,
    status: StatusChecking
  ) async throws(VerifierError) -> Result {
    let result = try verify(
      response: bytes, request: request, sessionTranscript: sessionTranscript,
      eReaderKey: eReaderKey, issuerTrustAnchors: issuerTrustAnchors, now: now)
    return try await result.checkingStatus(status, issuerTrustAnchors: issuerTrustAnchors, now: now)
  }
}

extension AnnexCVerifier.Result {
  /// This result with each document's status checked and reported after the other checks.
  func checkingStatus(_ status: StatusChecking, issuerTrustAnchors: [Certificate], now: Date)
    async throws(VerifierError) -> AnnexCVerifier.Result
  {
    var checks = report.checks
    var run = StatusCheckRun(status, now: now)
    for document in documents {
      let outcome: ReportedCredentialStatus
      do {
        outcome = try await run.outcome(
          credential: document.docType, source: .mdoc(document.mso?.status),
          anchors: issuerTrustAnchors, issuerAnchor: document.trustBasis.anchor)
      } catch {
        throw VerifierError(.verificationFailed, error.reason, underlying: error)
      }
      checks.append(.credentialStatus(credential: document.docType, outcome: outcome))
    }
    return AnnexCVerifier.Result(
      documents: documents, report: VerificationReport(checks: checks),
      documentErrors: documentErrors)
  }
}
