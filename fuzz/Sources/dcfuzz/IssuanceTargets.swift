import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VCI
import Foundation

// MARK: - OpenID4VCI wire messages and proofs (issue 13)

/// The fixed clock of the proof targets; the seeds' `iat` values lie at it.
let vciNow = Date(timeIntervalSince1970: 1_800_000_000)
let vciIssuer = "https://issuer.example"
let vciTokenEndpoint = "https://issuer.example/token"
let vciRedirectURI = "https://wallet.example/cb"
let vciState = "state-1"
let vciNonce = "nonce-1"
let vciAccessToken = "token-1"

/// A fixed P-256 key from a scalar (the fuzz targets must be deterministic in what they accept).
func vciFixedKey(_ byte: UInt8) -> ECPrivateKey {
  guard
    let key = try? ECPrivateKey(
      rawRepresentation: [UInt8](repeating: byte, count: 32), curve: .p256)
  else { violated("the fixed key does not load") }
  return key
}

/// The wallet's response-encryption key, the wallet provider's attester key and a wallet
/// instance key.
let vciEncryptionKey = vciFixedKey(0x11)
let vciAttesterKey = vciFixedKey(0x22)
let vciInstanceKey = vciFixedKey(0x33)

let vciInstanceThumbprint = JWK(publicKey: vciInstanceKey.publicKey).thumbprintBase64URL

let vciEncryption: CredentialResponseEncryption = {
  var jwk = JWK(
    publicKey: vciEncryptionKey.publicKey, kid: "enc-1", alg: JWEAlgorithm.ecdhES.rawValue)
  jwk.use = "enc"
  return CredentialResponseEncryption(jwk: jwk, enc: .a128gcm)
}()

/// Inputs starting with a zero byte are `header JSON \n claims JSON`, signed here with `signer`
/// so that the checks after the signature are reached; other inputs are compact JWTs as sent.
func vciJWT(_ bytes: [UInt8], signer: ECPrivateKey) -> String? {
  guard bytes.first == 0 else { return text(bytes) }
  let rest = bytes.dropFirst()
  guard let newline = rest.firstIndex(of: 0x0A),
    let header = try? JSONValue(parsing: Array(rest[..<newline])), header.object != nil,
    let claims = try? JSONValue(parsing: Array(rest[(newline + 1)...]))
  else { return nil }
  return try? JWS.sign(payload: claims.serializedBytes(), protectedHeader: header, signer: signer)
}

/// Wallet side: token (RFC 6749 §5.1), nonce (OpenID4VCI 1.0 §7.2), PAR (RFC 9126 §2.2) and
/// OAuth error responses (RFC 6749 §5.2, RFC 6750 §3 `WWW-Authenticate`); what parses
/// serialises to JSON (or a challenge) that parses back equal.
@Sendable func fuzzVCITokenResponse(_ bytes: [UInt8]) {
  if let response = try? TokenResponse(jsonBytes: bytes) {
    guard (try? TokenResponse(jsonBytes: response.json.serializedBytes())) == response else {
      violated("token response JSON round trip differs")
    }
  }
  if let response = try? NonceResponse(jsonBytes: bytes) {
    guard (try? NonceResponse(jsonBytes: response.json.serializedBytes())) == response else {
      violated("nonce response JSON round trip differs")
    }
  }
  if let response = try? PushedAuthorizationResponse(jsonBytes: bytes) {
    guard (try? PushedAuthorizationResponse(jsonBytes: response.json.serializedBytes())) == response
    else { violated("PAR response JSON round trip differs") }
  }
  if let error = try? OAuthErrorResponse(jsonBytes: bytes, dpopNonce: vciNonce, status: 400) {
    guard
      (try? OAuthErrorResponse(
        jsonBytes: error.json.serializedBytes(), dpopNonce: vciNonce, status: 400)) == error
    else { violated("error response JSON round trip differs") }
    for scheme in ["DPoP", "Bearer"] {
      guard
        let again = try? OAuthErrorResponse(
          wwwAuthenticate: error.wwwAuthenticate(scheme: scheme), dpopNonce: vciNonce,
          status: 400),
        again.error == error.error, again.errorDescription == error.errorDescription
      else { violated("error response WWW-Authenticate round trip differs") }
    }
  }
  guard let text = text(bytes) else { return }
  if let challenge = try? OAuthErrorResponse(wwwAuthenticate: text) {
    _ = challenge.isUseDPoPNonce
  }
}

/// Wallet side: credential and deferred credential responses (OpenID4VCI 1.0 §8.3, §9.2),
/// plain and encrypted (§10) to a fixed key. A plain response round-trips through JSON and
/// through encryption; a JWE input is decrypted and read.
@Sendable func fuzzVCICredentialResponse(_ bytes: [UInt8]) {
  if let response = try? CredentialResponse(jsonBytes: bytes) {
    guard (try? CredentialResponse(json: response.json)) == response else {
      violated("credential response JSON round trip differs")
    }
    guard let jwe = try? response.encrypted(to: vciEncryption),
      (try? CredentialResponse(encrypted: jwe, encryption: vciEncryption, key: vciEncryptionKey))
        == response
    else { violated("credential response encryption round trip differs") }
    switch response {
    case .issued(let credentials, _):
      for credential in credentials { _ = try? credential.mdocIssuerSigned() }
    case .deferred(let transactionID, _):
      guard
        (try? CredentialResponse(jsonBytes: bytes, expectedTransactionID: transactionID))
          == response
      else { violated("a deferred response is refused for its own transaction_id") }
    }
  }
  guard let text = text(bytes), text.hasPrefix("ey") else { return }
  _ = try? CredentialResponse(
    encrypted: text, encryption: vciEncryption, key: vciEncryptionKey,
    expectedTransactionID: "tx-1")
}

/// Wallet side: the authorization response redirect (RFC 6749 §4.1.2, RFC 9207) with a fixed
/// redirect URI, state and issuer; issuer side: the authorization request's query or PAR body
/// (RFC 6749 §4.1.1, RFC 9126). What parses rebuilds to a URL or parameters that parse equal.
@Sendable func fuzzVCIAuthorizationResponse(_ bytes: [UInt8]) {
  guard let text = text(bytes) else { return }
  if let url = URL(string: text) {
    for issuerRequired in [false, true] {
      guard
        let response = try? AuthorizationResponse(
          redirect: url, redirectURI: vciRedirectURI, expectedState: vciState,
          expectedIssuer: vciIssuer, issuerRequired: issuerRequired)
      else { continue }
      guard let redirect = URL(string: vciRedirectURI),
        let rebuilt = try? response.redirectURL(redirectURI: redirect),
        (try? AuthorizationResponse(
          redirect: rebuilt, redirectURI: vciRedirectURI, expectedState: vciState,
          expectedIssuer: vciIssuer, issuerRequired: issuerRequired)) == response
      else { violated("authorization response redirect round trip differs") }
    }
    _ = try? AuthorizationEndpointRequest(url: url)
  }
  if let parameters = try? FormParameters(body: bytes) {
    guard (try? FormParameters(body: parameters.bodyBytes)) == parameters else {
      violated("form parameters round trip differs")
    }
    if let request = try? AuthorizationRequest(parameters: parameters) {
      guard (try? AuthorizationRequest(parameters: request.parameters)) == request else {
        violated("authorization request round trip differs")
      }
    }
    _ = try? OAuthErrorResponse(parameters: parameters)
  }
}

/// Issuer side: the token request's form body (RFC 6749 §4.1.3, §6; OpenID4VCI 1.0 §6.1); what
/// parses serialises to a body that parses back equal.
@Sendable func fuzzVCITokenRequest(_ bytes: [UInt8]) {
  guard let request = try? TokenRequest(body: bytes) else { return }
  guard (try? TokenRequest(body: request.body)) == request else {
    violated("token request body round trip differs")
  }
}

/// Issuer side: credential, deferred credential and notification requests (OpenID4VCI 1.0
/// §8.2, §9.1, §11.1); what parses serialises to JSON that parses back equal.
@Sendable func fuzzVCICredentialRequest(_ bytes: [UInt8]) {
  if let request = try? CredentialRequest(jsonBytes: bytes) {
    guard (try? CredentialRequest(json: request.json)) == request else {
      violated("credential request JSON round trip differs")
    }
  }
  if let request = try? DeferredCredentialRequest(jsonBytes: bytes) {
    guard (try? DeferredCredentialRequest(jsonBytes: request.json.serializedBytes())) == request
    else { violated("deferred credential request JSON round trip differs") }
  }
  if let request = try? NotificationRequest(jsonBytes: bytes) {
    guard (try? NotificationRequest(jsonBytes: request.json.serializedBytes())) == request else {
      violated("notification request JSON round trip differs")
    }
  }
}

/// Issuer side: DPoP proof verification (RFC 9449 §4.3) at a fixed clock and URL, with a nonce
/// check and with an access token; an accepted proof is refused when replayed.
@Sendable func fuzzVCIDPoP(_ bytes: [UInt8]) {
  guard let proof = vciJWT(bytes, signer: vciInstanceKey) else { return }
  let verifier = DPoPVerifier(replayStore: InMemoryDPoPReplayStore(capacity: 16), clock: { vciNow })
  if (try? verifier.verify(proof: proof, method: "POST", uri: vciTokenEndpoint)) != nil {
    guard (try? verifier.verify(proof: proof, method: "POST", uri: vciTokenEndpoint)) == nil else {
      violated("a DPoP proof is accepted twice")
    }
  }
  _ = try? verifier.verify(
    proof: proof, method: "POST", uri: vciIssuer + "/credential?x=1",
    nonceCheck: { $0 == vciNonce }, accessToken: vciAccessToken,
    boundThumbprint: vciInstanceThumbprint)
}

/// Issuer side: key proofs (OpenID4VCI 1.0 §F.4) at a fixed clock, with `jwk` or a
/// `key_attestation` by the fixed attester key; a batch of the same proof twice is refused
/// (each proof of a batch is for a different key, §8.2).
@Sendable func fuzzVCIKeyProof(_ bytes: [UInt8]) {
  guard let proof = vciJWT(bytes, signer: vciInstanceKey) else { return }
  let attestations = KeyAttestationVerifier(
    trust: .keys([vciAttesterKey.publicKey]), clock: { vciNow })
  let verifier = KeyProofVerifier(
    credentialIssuer: vciIssuer, clock: { vciNow },
    keyAttestationVerifier: { try attestations.verifyKeys($0) })
  for clientID in [nil, "client-1"] {
    _ = try? verifier.verify(proof, clientID: clientID, nonceCheck: { $0 == vciNonce })
  }
  guard
    (try? verifier.verifyBatch([proof, proof], clientID: nil, nonceCheck: nil, maxCount: 10))
      == nil
  else { violated("a batch with one proof twice is accepted") }
}

/// Issuer side: client attestations and their PoP (OAuth attestation-based client
/// authentication §7.1, §7.2) and key attestations (OpenID4VCI 1.0 Appendix D) at a fixed
/// clock. Signed inputs are signed by the attester key (attestations) and by the instance key
/// (PoP); an accepted PoP is refused when replayed.
@Sendable func fuzzVCIAttestation(_ bytes: [UInt8]) {
  let replayStore = InMemoryDPoPReplayStore(capacity: 16)
  let clients = ClientAttestationVerifier(
    trust: .keys([vciAttesterKey.publicKey]), clock: { vciNow }, replayStore: replayStore)
  let keys = KeyAttestationVerifier(
    trust: .keys([vciAttesterKey.publicKey]), clock: { vciNow },
    nonceCheck: { $0 == nil || $0 == vciNonce })
  if let attestation = vciJWT(bytes, signer: vciAttesterKey) {
    _ = try? clients.verifyAttestation(attestation, clientID: nil)
    _ = try? clients.verifyAttestation(attestation, clientID: "client-1")
    _ = try? keys.verify(attestation)
  }
  if let pop = vciJWT(bytes, signer: vciInstanceKey) {
    let instance = JWK(publicKey: vciInstanceKey.publicKey)
    for challenge in [nil, "challenge-1"] {
      guard
        (try? clients.verifyProofOfPossession(
          pop, instanceKey: instance, audience: vciIssuer, challenge: challenge)) != nil
      else { continue }
      guard
        (try? clients.verifyProofOfPossession(
          pop, instanceKey: instance, audience: vciIssuer, challenge: challenge)) == nil
      else { violated("a client attestation PoP is accepted twice") }
    }
  }
}
