import DCAPI
import DCCOSE
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTrust
import DCX509
import Foundation

extension Wallet {
  /// The requester certificates a request envelope presents, read before it is resolved so a
  /// revocation setting that fetches can fetch the CRL distribution points they name (issue 29):
  /// each `org-iso-mdoc` readerAuth's `x5chain` (ISO/IEC 18013-5 §9.1.4), a signed OpenID4VP
  /// request's `x5c` (OpenID4VP 1.0 Appendix A.3.1, compact JWS). Best effort: what does not
  /// parse is left to resolution, which refuses it.
  static func presentedCertificates(_ envelope: RequestEnvelope) -> [Certificate] {
    envelope.requests.flatMap { request -> [Certificate] in
      if request.knownProtocol == .orgIsoMdoc {
        guard let annexC = try? AnnexCRequest(data: request.data) else { return [] }
        return presentedCertificates(annexC.deviceRequest)
      }
      guard let compact = request.data["request"]?.string, let jws = try? CompactJWS(compact)
      else { return [] }
      return (jws.x5c ?? []).compactMap { try? Certificate(derEncoded: $0) }
    }
  }

  /// Every readerAuth (per doc request and readerAuthAll) signer chain of a DeviceRequest.
  static func presentedCertificates(_ request: DeviceRequest) -> [Certificate] {
    let signatures = request.docRequests.compactMap(\.readerAuth) + request.readerAuthAll
    return signatures.flatMap { signature in
      ((try? signature.headers.x5chain) ?? []).compactMap { try? Certificate(derEncoded: $0) }
    }
  }

  /// The reader and verifier anchors, whose keys sign the CRLs of the requester certificates
  /// they issued; read only when the setting fetches.
  func requesterIssuers(_ settings: RevocationSettings?) async throws(WalletError)
    -> [Certificate]
  {
    guard settings?.fetcher != nil else { return [] }
    return try await trustAnchors(role: .reader) + trustAnchors(role: .verifier)
  }
}
