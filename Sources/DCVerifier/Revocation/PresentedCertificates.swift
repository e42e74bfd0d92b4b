import DCCBOR
import DCEncoding
import DCJOSE
package import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCSDJWT
import DCTrust
package import DCX509
import Foundation

/// The issuer certificates a response presents, read before it is verified, so a role whose
/// revocation setting fetches can fetch the CRL distribution points they name (RFC 5280
/// §4.2.1.13) before chain validation, which does no I/O (issue 29). Best effort: what does not
/// parse is left to the verification, which refuses it.
package enum PresentedCertificates {
  /// The chains of an opened OpenID4VP payload's vp_token: each SD-JWT VC's `x5c`
  /// (SD-JWT VC §3.5), each mdoc's issuerAuth `x5chain` (ISO/IEC 18013-5 §9.1.2.4).
  package static func inVPToken(_ payload: JSONValue) -> [Certificate] {
    guard let entries = payload["vp_token"]?.object else { return [] }
    var certificates: [Certificate] = []
    for (_, value) in entries {
      for item in value.array ?? [] {
        guard let text = item.string else { continue }
        certificates += inPresentation(text)
      }
    }
    return certificates
  }

  /// One vp_token presentation: an SD-JWT VC (compact, `~`-separated) or a base64url
  /// DeviceResponse.
  static func inPresentation(_ text: String) -> [Certificate] {
    if text.contains("~") {
      guard let sdJWT = try? SDJWT(serialized: text) else { return [] }
      return (sdJWT.issuerSignedJWT.x5c ?? []).compactMap { try? Certificate(derEncoded: $0) }
    }
    guard let bytes = try? Base64URL.decode(text),
      let response = try? DeviceResponse(bytes: bytes)
    else { return [] }
    return inDeviceResponse(response)
  }

  /// Every document's document signer chain.
  static func inDeviceResponse(_ response: DeviceResponse) -> [Certificate] {
    response.documents.flatMap { (try? $0.issuerSigned.documentSignerChain()) ?? [] }
  }
}

extension RevocationSettings? {
  /// Whether presented certificates must be read before verifying: only when fetching.
  var fetches: Bool { self?.fetcher != nil }
}

extension AnnexCVerifier.State {
  /// The document signer certificates of an Annex C response, opened with this state's key
  /// (ISO/IEC TS 18013-7 Annex C); empty when it does not open.
  package func presentedCertificates(_ data: JSONValue) -> [Certificate] {
    guard
      let plaintext = try? EncryptedResponse(data: data).open(
        privateKey: recipientPrivateKey, sessionTranscript: sessionTranscript),
      let response = try? DeviceResponse(bytes: plaintext)
    else { return [] }
    return PresentedCertificates.inDeviceResponse(response)
  }
}

extension VerifierState {
  /// The issuer certificates of an OpenID4VP response, opened (decrypted) with this state's
  /// key; empty when it does not open.
  package func presentedCertificates(_ data: JSONValue) -> [Certificate] {
    (try? open(data)).map { PresentedCertificates.inVPToken($0.payload) } ?? []
  }
}
