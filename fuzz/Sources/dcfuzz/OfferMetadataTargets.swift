import DCJSON
import DCOpenID4VCI
import Foundation

// MARK: - OpenID4VCI offers and metadata (issue 13)

/// Credential offers as URIs or JSON (OpenID4VCI 1.0 §4.1); what parses by value serialises to
/// a URI and to JSON that parse back equal.
@Sendable func fuzzVCIOffer(_ bytes: [UInt8]) {
  _ = try? CredentialOffer(jsonBytes: bytes, policy: .development)
  guard let text = text(bytes) else { return }
  for policy in [URLPolicy.standard, .development] {
    guard let source = try? CredentialOffer.parse(text, policy: policy) else { continue }
    switch source {
    case .value(let offer):
      for scheme in CredentialOfferScheme.allCases {
        guard let again = try? CredentialOffer.parse(offer.uri(scheme: scheme), policy: policy),
          again == .value(offer)
        else { violated("offer URI round trip differs") }
      }
      guard (try? CredentialOffer(json: offer.json, policy: policy)) == offer else {
        violated("offer JSON round trip differs")
      }
    case .reference(let url, let scheme):
      guard
        (try? CredentialOffer.parse(
          CredentialOffer.uri(reference: url, scheme: scheme), policy: policy))
          == source
      else { violated("offer reference round trip differs") }
    }
  }
}

/// Credential issuer metadata, authorization server metadata and signed metadata
/// (OpenID4VCI 1.0 §12.2, RFC 8414); what parses serialises to JSON that parses back equal, and
/// the well-known URLs of a parsed identifier are built without failing.
@Sendable func fuzzVCIMetadata(_ bytes: [UInt8]) {
  if let metadata = try? CredentialIssuerMetadata(jsonBytes: bytes, policy: .development) {
    guard (try? CredentialIssuerMetadata(json: metadata.json, policy: .development)) == metadata
    else { violated("issuer metadata JSON round trip differs") }
    _ = try? metadata.validated(for: metadata.credentialIssuer)
    _ = metadata.credentialIssuer.credentialIssuerMetadataURL
    _ = try? metadata.authorizationServer(hint: metadata.authorizationServers.first)
  }
  if let metadata = try? AuthorizationServerMetadata(jsonBytes: bytes, policy: .development) {
    guard (try? AuthorizationServerMetadata(json: metadata.json, policy: .development)) == metadata
    else { violated("authorization server metadata JSON round trip differs") }
    _ = metadata.issuer.authorizationServerMetadataURLs
  }
  guard let text = text(bytes) else { return }
  if let identifier = try? IssuerIdentifier(text, policy: .development) {
    _ = (identifier.credentialIssuerMetadataURL, identifier.authorizationServerMetadataURLs)
  }
  if let signed = try? SignedIssuerMetadata(compact: text),
    let issuer = try? IssuerIdentifier(signed.subject)
  {
    _ = try? signed.verify(
      trustAnchors: [], at: Date(timeIntervalSince1970: 0), expectedIssuer: issuer)
  }
}
