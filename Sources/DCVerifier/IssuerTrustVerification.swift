public import DCJSON
public import DCMdoc
public import DCOpenID4VP
public import DCTrust
import DCX509
public import Foundation

// Issue 29: the verifier entry points that take `TrustSources` (anchors, each for its
// credential format, and verified trusted lists) instead of certificate arrays. Each verifies
// against the certificates the sources trust for the format, checks status with them, then
// decides every issuer with its docType and records what trusted it.

extension VerifierState {
  /// Opens and verifies a response as
  /// ``verifyResponse(_:sdJWTIssuerAnchors:mdocIssuerAnchors:now:status:)`` does, with the
  /// issuers `issuerTrust` trusts for each format, then decides each credential's issuer with
  /// its format and docType: every credential's ``VerifiedCredential/issuerTrust`` names the
  /// anchor or list entry.
  ///
  /// - Throws: what that verification throws, and `invalidPresentation` for an issuer no
  ///   source trusts for the credential's format and docType.
  public func verifyResponse(
    _ data: JSONValue, issuerTrust: TrustSources, now: Date, status: StatusChecking
  ) async throws(OpenID4VPError) -> VerifiedAuthorizationResponse {
    try await verifyResponse(
      data,
      sdJWTIssuerAnchors: issuerTrust.anchorCertificates(
        for: .credentialIssuer, at: now, format: .sdJWTVC),
      mdocIssuerAnchors: issuerTrust.anchorCertificates(
        for: .credentialIssuer, at: now, format: .mdoc),
      now: now, status: status
    ).requiringIssuerTrust(issuerTrust, at: now)
  }
}

extension AnnexCVerifier {
  /// Opens and verifies a response as
  /// ``verify(responseData:state:issuerTrustAnchors:now:status:)`` does, with the mdoc issuers
  /// `issuerTrust` trusts, then decides each document's issuer for its docType: each
  /// ``VerifiedDocument/issuerTrust`` names the anchor or list entry.
  ///
  /// - Throws: what that verification throws, and `verificationFailed` for an issuer no source
  ///   trusts for the document's docType.
  public static func verify(
    responseData: JSONValue, state: State, issuerTrust: TrustSources, now: Date,
    status: StatusChecking
  ) async throws(VerifierError) -> Result {
    try await verify(
      responseData: responseData, state: state,
      issuerTrustAnchors: issuerTrust.anchorCertificates(
        for: .credentialIssuer, at: now, format: .mdoc),
      now: now, status: status
    ).requiringIssuerTrust(issuerTrust, at: now)
  }
}

extension InPersonReader {
  /// Sends one DeviceRequest and verifies the answer as
  /// ``request(_:useCases:reader:readerAuthentication:issuerTrustAnchors:now:status:revocation:)`` does,
  /// with the mdoc issuers `issuerTrust` trusts, then decides each document's issuer for its
  /// docType: a document whose IACA is listed (a VICAL entry) for other document types only
  /// is refused; each verified document's ``AnnexCVerifier/VerifiedDocument/issuerTrust``
  /// names the anchor or list entry.
  ///
  /// - Throws: what that request throws; `verificationFailed` for an issuer no source trusts.
  public func request(
    _ itemsRequests: [ItemsRequest], useCases: [UseCase] = [],
    reader: ProximityReader.ReaderCredentials? = nil,
    readerAuthentication: ProximityReader.ReaderAuthenticationMode = .perDocRequest,
    issuerTrust: TrustSources, now: Date, status: StatusChecking? = nil,
    revocation: RevocationSettings? = nil
  ) async throws(InPersonReaderError) -> ProximityReader.Result {
    try await request(
      itemsRequests, useCases: useCases, reader: reader,
      readerAuthentication: readerAuthentication,
      issuerTrustAnchors: issuerTrust.anchorCertificates(
        for: .credentialIssuer, at: now, format: .mdoc),
      deciding: issuerTrust, now: now, status: status, revocation: revocation)
  }
}
