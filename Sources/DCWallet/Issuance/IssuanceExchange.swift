import DCCrypto
import DCHTTP
import DCJSON
import DCOpenID4VCI
import Foundation

/// Which kind of server a request goes to: DPoP nonces are kept per server (RFC 9449 §8, §9),
/// and the two signal `use_dpop_nonce` differently.
enum ServerRole {
  /// The authorization server: `use_dpop_nonce` as a 400 JSON error (RFC 9449 §8).
  case authorization
  /// The credential issuer (a resource server): `use_dpop_nonce` as a 401 with
  /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` (RFC 9449 §9).
  case resource
}

/// Client attestation for requests to the authorization server (attestation-based client auth
/// §4, §5.1, §6): the material, the audience, and the latest challenge.
struct ClientAttestationState {
  var material: ClientAttestationMaterial
  /// `aud` of each PoP: the authorization server's issuer identifier.
  var audience: String
  /// The latest `attestation_challenge` or `OAuth-Client-Attestation-Challenge`.
  var challenge: String?
}

/// The HTTP side of one issuance: the DPoP key and the nonces each server sent, the client
/// attestation, and the retry rules. Requests are sent one at a time.
struct IssuanceExchange {
  let http: any HTTPClient
  let clock: @Sendable () -> Date
  /// The DPoP key, when the authorization server advertises DPoP (RFC 9449 §5.1).
  let dpopKey: ECPrivateKey?
  /// What signs the DPoP proofs: ``dpopKey``, or a key kept in the wallet's key store (a
  /// deferred poll or a notification sent from stored state).
  let dpopSigner: (any Signer)?
  var authorizationNonce: String?
  var resourceNonce: String?
  var attestation: ClientAttestationState?

  /// The most attempts of one credential request under `invalid_nonce` (OpenID4VCI 1.0
  /// §8.3.1.2): the first, and one retry with a fresh `c_nonce`. Within each attempt ``send``
  /// retries once for a DPoP nonce (RFC 9449 §8: "the client ... retries the request") and once
  /// for an attestation challenge: bounded so that a server answering `use_dpop_nonce` for ever
  /// cannot loop the client.
  static let maximumAttempts = 2

  init(http: any HTTPClient, clock: @escaping @Sendable () -> Date, dpopKey: ECPrivateKey?) {
    self.http = http
    self.clock = clock
    self.dpopKey = dpopKey
    self.dpopSigner = dpopKey
  }

  init(http: any HTTPClient, clock: @escaping @Sendable () -> Date, dpopSigner: (any Signer)?) {
    self.http = http
    self.clock = clock
    self.dpopKey = nil
    self.dpopSigner = dpopSigner
  }

  /// A GET without DPoP (metadata, offers by reference).
  func get(_ url: URL, accept: String) async throws(IssuanceError) -> HTTPResponse {
    try await transport(HTTPRequest(method: .get, url: url, headers: ["Accept": accept]))
  }

  func transport(_ request: HTTPRequest) async throws(IssuanceError) -> HTTPResponse {
    do {
      return try await http.send(request)
    } catch {
      throw IssuanceError(
        .transport, "\(request.method) \(request.url.absoluteString): \(error.reason)",
        underlying: error)
    }
  }

  /// Sends a request with a DPoP proof when this session has a DPoP key (and `ath` when an
  /// access token is presented), client attestation headers when `attest` and this session has
  /// an attestation, and retries once when the server asks for a DPoP nonce or an attestation
  /// challenge it then supplies.
  mutating func send(
    _ method: HTTPMethod, _ url: URL, headers: HTTPFields = [:], body: [UInt8] = [],
    role: ServerRole, accessToken: (String, AccessTokenType)? = nil, attest: Bool = false
  ) async throws(IssuanceError) -> HTTPResponse {
    var retriedNonce = false
    var retriedChallenge = false
    while true {
      let usedNonce = role == .authorization ? authorizationNonce : resourceNonce
      let usedChallenge = attestation?.challenge
      let request = try authenticated(
        HTTPRequest(method: method, url: url, headers: headers, body: body),
        accessToken: accessToken, nonce: usedNonce, attest: attest)
      let response = try await transport(request)
      keepServerValues(response, role: role)
      guard !(200..<300).contains(response.status),
        let error = Self.errorResponse(response, role: role)
      else { return response }
      let newNonce = role == .authorization ? authorizationNonce : resourceNonce
      // Each kind of retry at most once (a server may ask for a nonce and then a challenge);
      // a second demand of the same kind is the answer.
      if error.error == .useDPoPNonce, !retriedNonce, dpopSigner != nil, let newNonce,
        newNonce != usedNonce
      {
        retriedNonce = true
        continue
      }
      if error.error == .useAttestationChallenge, !retriedChallenge, attest,
        let challenge = attestation?.challenge, challenge != usedChallenge
      {
        retriedChallenge = true
        continue
      }
      return response
    }
  }

  /// The request with its access token, a DPoP proof (over `nonce`) when this session has a
  /// DPoP key, and client attestation headers when `attest` and this session has an attestation.
  private func authenticated(
    _ request: HTTPRequest, accessToken: (String, AccessTokenType)?, nonce usedNonce: String?,
    attest: Bool
  ) throws(IssuanceError) -> HTTPRequest {
    var request = request
    let method = request.method
    let url = request.url
    if let accessToken {
      request.headers["Authorization"] = accessToken.1.authorization(accessToken.0)
    }
    if let dpopSigner {
      do {
        request.headers["DPoP"] = try DPoP.proof(
          signer: dpopSigner, method: method.rawValue, uri: url.absoluteString, issuedAt: clock(),
          nonce: usedNonce,
          accessToken: accessToken.flatMap { $0.1 == .dpop ? $0.0 : nil })
      } catch {
        throw IssuanceError(.unsupported, "DPoP proof: \(error.reason)", underlying: error)
      }
    }
    if attest, let attestation {
      request.headers[ClientAttestation.headerName] = attestation.material.attestation
      do {
        request.headers[ClientAttestation.popHeaderName] =
          try ClientAttestation.proofOfPossession(
            signer: attestation.material.instanceKey, audience: attestation.audience,
            issuedAt: clock(), challenge: attestation.challenge)
      } catch {
        throw IssuanceError(
          .walletProvider, "client attestation PoP: \(error.reason)", underlying: error)
      }
    }
    return request
  }

  /// Keeps the DPoP nonce (RFC 9449 §8.2, §9: a server may send a fresh one with any response)
  /// and the attestation challenge a response carries.
  private mutating func keepServerValues(_ response: HTTPResponse, role: ServerRole) {
    if let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty {
      switch role {
      case .authorization: authorizationNonce = nonce
      case .resource: resourceNonce = nonce
      }
    }
    if let challenge = response.headers[ClientAttestation.challengeHeaderName], !challenge.isEmpty {
      attestation?.challenge = challenge
    }
  }

  /// The OAuth error a non-2xx response carries: the JSON body (RFC 6749 §5.2; OpenID4VCI 1.0
  /// §8.3.1) or, from a resource server, the `WWW-Authenticate` challenge (RFC 6750 §3,
  /// RFC 9449 §7.1). Nil when neither parses.
  static func errorResponse(_ response: HTTPResponse, role: ServerRole) -> OAuthErrorResponse? {
    let nonce = response.headers["DPoP-Nonce"]
    if role == .resource, let challenge = response.headers["WWW-Authenticate"],
      let error = try? OAuthErrorResponse(
        wwwAuthenticate: challenge, dpopNonce: nonce, status: response.status)
    {
      return error
    }
    return try? OAuthErrorResponse(
      jsonBytes: response.body, dpopNonce: nonce, status: response.status)
  }

  /// An `IssuanceError` for a failed response: the OAuth error as the cause when there is one.
  static func failure(
    _ code: IssuanceErrorCode, _ what: String, _ response: HTTPResponse, role: ServerRole
  )
    -> IssuanceError
  {
    if let error = errorResponse(response, role: role) {
      return IssuanceError(code, "\(what): HTTP \(response.status), \(error)", underlying: error)
    }
    return IssuanceError(code, "\(what): HTTP \(response.status)")
  }

  /// Fetches a fresh attestation challenge from `challenge_endpoint` (attestation-based client
  /// auth §6.1).
  mutating func fetchAttestationChallenge(_ endpoint: URL) async throws(IssuanceError) {
    let response = try await transport(
      HTTPRequest(method: .post, url: endpoint, headers: ["Accept": "application/json"]))
    guard response.status == 200,
      let json = try? JSONValue(parsing: response.body.prefix(64 * 1024)),
      let challenge = json["attestation_challenge"]?.string, !challenge.isEmpty
    else {
      throw IssuanceError(
        .authorization,
        "the challenge endpoint gave no attestation_challenge (HTTP \(response.status))")
    }
    attestation?.challenge = challenge
  }
}

extension HTTPResponse {
  /// The media type of the body, lower case, without parameters.
  var mediaType: String? {
    headers["Content-Type"].map {
      $0.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
    }
  }
}
