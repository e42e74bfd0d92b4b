import DCCrypto
import DCJSON
import DCOpenID4VP
import DCX509
import Foundation

// OpenID4VP redirect flows (issue 16): the request URI a QR code or link carries, the request
// object fetched from request_uri (verified against a fixed trust setup), and the body a
// verifier's response_uri receives.

/// An authorization request URI: every form, and the request_uri fetch it leads to.
@Sendable func fuzzOpenID4VPURI(_ bytes: [UInt8]) {
  guard let text = text(bytes), let uri = try? AuthorizationRequestURI(text) else { return }
  if let fetch = uri.requestObjectFetch(random: FixedRandom()) {
    guard case .byReference(let url, let method) = uri.form, fetch.request.url == url,
      (fetch.walletNonce != nil) == (method == .post)
    else { violated("the fetch does not follow the URI's request_uri") }
  }
  _ = try? RedirectAuthorizationRequest(
    uri: uri, requestObject: nil, verifierTrustAnchors: [redirectFuzzTrust.anchor],
    walletNonce: nil, now: fuzzNow)
  _ = RedirectAuthorizationRequest.errorDestination(uri: uri, requestObject: nil)
}

/// A request object as fetched from request_uri, for each supported client id prefix, against
/// one trust anchor whose key is fixed (seeds signed by it reach the claim checks); a request
/// that reads is answered with an error response and its body read back.
@Sendable func fuzzOpenID4VPRequestObject(_ bytes: [UInt8]) {
  guard let object = text(bytes) else { return }
  for clientID in redirectFuzzClientIDs {
    guard
      let uri = try? AuthorizationRequestURI(
        "openid4vp://?client_id=\(clientID)&request_uri=https%3A%2F%2Fverifier.example%2Fr"
          + "&request_uri_method=post")
    else { violated("the fixed URI for \(clientID) does not read") }
    _ = RedirectAuthorizationRequest.errorDestination(uri: uri, requestObject: object)
    guard
      let request = try? RedirectAuthorizationRequest(
        uri: uri, requestObject: object, verifierTrustAnchors: [redirectFuzzTrust.anchor],
        walletNonce: "fuzz-nonce", now: fuzzNow)
    else { continue }
    guard let post = try? request.errorResponse(.accessDenied(), random: FixedRandom()) else {
      continue
    }
    guard (try? DirectPostBody(formBody: post.request.body)) != nil else {
      violated("our own error response does not read back")
    }
  }
}

/// A body posted to a response_uri; what reads as a plain body keeps its state.
@Sendable func fuzzDirectPostBody(_ bytes: [UInt8]) {
  guard let body = try? DirectPostBody(formBody: bytes) else { return }
  switch body {
  case .vpToken(let token, _):
    guard case .object = token else { violated("vp_token read as a non-object") }
  case .encrypted(let jwe):
    if jwe.isEmpty { violated("an empty response was accepted") }
  case .error: break
  }
  if let json = try? JSONValue(parsing: bytes) { _ = try? DirectPostBody(decryptedPayload: json) }
}

/// The client identifiers the request object target tries (percent-encoded).
let redirectFuzzClientIDs = [
  "x509_san_dns%3Averifier.example", "x509_hash%3AAAAA",
  "verifier_attestation%3Averifier.example", "redirect_uri%3Ahttps%3A%2F%2Fv.example%2Fr",
  "decentralized_identifier%3Adid%3Aexample%3A1",
]

/// A root with a fixed key (the scalar 1...32), so seeds made with that key chain to it.
let redirectFuzzTrust: (anchor: Certificate, key: ECPrivateKey) = {
  guard let key = try? ECPrivateKey(rawRepresentation: (1...32).map { UInt8($0) }, curve: .p256),
    let anchor = try? CertificateBuilder.readerRoot(
      commonName: "Fuzz Verifier Root", publicKey: key.publicKey,
      notBefore: fuzzNow.addingTimeInterval(-86_400), notAfter: fuzzNow.addingTimeInterval(86_400),
      serialNumber: [1]
    ).selfSigned(signer: key)
  else { violated("the fixed fuzz trust anchor could not be made") }
  return (anchor, key)
}()

/// Deterministic bytes, so a crash input replays the same wallet nonce and JWE.
struct FixedRandom: RandomSource {
  func bytes(count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }
}
