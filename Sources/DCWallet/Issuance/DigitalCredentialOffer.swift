public import DCAPI
import DCJSON
public import DCOpenID4VCI
public import Foundation

/// A credential offer a website passed to `navigator.credentials.create({digital: {requests:
/// [{protocol: "openid4vci-v1", data}]}})` (W3C Digital Credentials API, `[[Create]]` and
/// `DigitalCredentialCreateRequest`), read from what the platform delivered, with the origin the
/// platform reported: never one the payload names.
///
/// Run ``offer`` with ``WalletIssuance/issue(_:txCode:authorize:options:storage:)`` (or the
/// flows of ``WalletIssuance`` one by one), then hand ``response`` back to the platform.
public struct DigitalCredentialOffer: Sendable {
  /// Which websites may offer which issuers' credentials.
  public enum OriginPolicy: Sendable, Hashable {
    /// The credential issuer (`credential_issuer`) must be at the website's origin: a page can
    /// only offer its own credentials. The default.
    case sameOrigin
    /// Any website may offer any issuer's credentials: neither the DC API nor the OpenID4VCI
    /// draft annex binds the offer to the origin (for an issuer whose offer page is elsewhere).
    case anyOrigin
  }

  /// The offer (OpenID4VCI 1.0 §4.1.1) the request carries by value.
  public let offer: CredentialOffer
  /// The website that asked, as the platform reported it.
  public let origin: WebOrigin
  /// The protocol identifier as the request named it: the response echoes it, so a page that
  /// used a historical alias (`DigitalCredentialIssuanceProtocol`) recognises the answer.
  package let protocolIdentifier: String

  /// Reads the first OpenID4VCI entry of a create request: the whole argument of
  /// `navigator.credentials.create`, its `digital` member, or one `{protocol, data}` entry
  /// (every shape `RequestEnvelope` reads), with `data` an object or a JSON string.
  ///
  /// - Parameters:
  ///   - json: the request as the platform delivered it.
  ///   - origin: the origin the platform reported for the calling website.
  ///   - urlPolicy: the URLs an offer may name (`https`; loopback `http` in development).
  ///   - originPolicy: whether the credential issuer must be at `origin` (default).
  /// - Throws: `IssuanceError` `invalidRequest` (not a create request: unreadable, or mixing
  ///   presentation protocols in), `unsupportedProtocol` (no OpenID4VCI entry), `invalidOrigin`,
  ///   `offer` (the offer or its by-value metadata is malformed, or it is by reference),
  ///   `originMismatch` (the credential issuer is at another origin, with `.sameOrigin`).
  public init(
    json: [UInt8], origin: String, urlPolicy: URLPolicy = .standard,
    originPolicy: OriginPolicy = .sameOrigin
  ) throws(IssuanceError) {
    let envelope: RequestEnvelope
    do {
      envelope = try RequestEnvelope(json: json)
    } catch {
      throw IssuanceError(
        .invalidRequest, "the create request cannot be read: \(error.reason)", underlying: error)
    }
    try self.init(
      envelope: envelope, origin: origin, urlPolicy: urlPolicy, originPolicy: originPolicy)
  }

  /// As ``init(json:origin:urlPolicy:originPolicy:)``, from an envelope already read.
  package init(
    envelope: RequestEnvelope, origin: String, urlPolicy: URLPolicy = .standard,
    originPolicy: OriginPolicy = .sameOrigin
  ) throws(IssuanceError) {
    // DC API "convert request protocol": a create request names issuance protocols only; one
    // that carries a presentation protocol is a get request sent the wrong way.
    if let presentation = envelope.requests.first(where: { $0.knownProtocol != nil }) {
      throw IssuanceError(
        .invalidRequest,
        "the request names the presentation protocol \(presentation.protocolIdentifier): "
          + "it is not an issuance (create) request")
    }
    guard let entry = envelope.requests.first(where: { $0.issuanceProtocol != nil }) else {
      let named = envelope.requests.map { "\"\($0.protocolIdentifier)\"" }
      throw IssuanceError(
        .unsupportedProtocol,
        "no request uses an issuance protocol this wallet answers (openid4vci-v1); "
          + "the request names \(named.joined(separator: ", "))")
    }
    let webOrigin: WebOrigin
    do {
      webOrigin = try WebOrigin(origin)
    } catch {
      throw IssuanceError(.invalidOrigin, error.reason, underlying: error)
    }
    let offer = try Self.readOffer(entry.data, urlPolicy: urlPolicy)
    if originPolicy == .sameOrigin {
      try Self.checkSameOrigin(offer.credentialIssuer, webOrigin)
    }
    self.offer = offer
    self.origin = webOrigin
    self.protocolIdentifier = entry.protocolIdentifier
  }

  /// The response the protocol defines, for the platform to hand back to the page as the
  /// `DigitalCredential`: `{"protocol": <as requested>, "data": {"status": "offer_accepted"}}`
  /// (openid/OpenID4VCI PR #476, "Response": the wallet validated the offer and obtains the
  /// credential; the only status the annex defines).
  public var response: ProtocolResponse {
    ProtocolResponse(
      protocolIdentifier: protocolIdentifier,
      data: .object([("status", .string("offer_accepted"))]))
  }

  /// The offer in `data`, with the checks the draft annex adds for the members it defines.
  static func readOffer(_ data: JSONValue, urlPolicy: URLPolicy) throws(IssuanceError)
    -> CredentialOffer
  {
    // The DC API carries the offer object itself (draft annex, "Credential Offer"); a
    // `credential_offer_uri` would make the wallet fetch an offer the page did not hand over.
    if data["credential_offer_uri"] != nil || data["credential_offer"] != nil {
      throw IssuanceError(
        .offer, "over the DC API the credential offer is passed by value, as the data object")
    }
    let offer: CredentialOffer
    do {
      offer = try CredentialOffer(json: data, policy: urlPolicy)
    } catch {
      throw IssuanceError(.offer, error.reason, underlying: error)
    }
    // `credential_issuer_metadata` lets the platform's matcher decide offline; the wallet never
    // uses it (it fetches the metadata from the issuer, §12.2.2, so a page cannot substitute
    // endpoints), but metadata naming another issuer means the offer is not what it says.
    if let metadata = data["credential_issuer_metadata"] {
      guard case .object = metadata else {
        throw IssuanceError(.offer, "credential_issuer_metadata is not an object")
      }
      if let named = metadata["credential_issuer"], named.string != offer.credentialIssuer.string {
        throw IssuanceError(
          .offer, "credential_issuer_metadata names another credential issuer than the offer")
      }
    }
    // Draft annex: "When provided the `authorization_server` parameter must not be present."
    if let metadata = data["authorization_server_metadata"] {
      guard case .object = metadata else {
        throw IssuanceError(.offer, "authorization_server_metadata is not an object")
      }
      if offer.authorizationCode?.authorizationServer != nil
        || offer.preAuthorizedCode?.authorizationServer != nil
      {
        throw IssuanceError(
          .offer,
          "an offer with authorization_server_metadata must not name an authorization_server")
      }
    }
    return offer
  }

  /// The credential issuer must be at the website's origin (scheme, host and port).
  static func checkSameOrigin(_ issuer: IssuerIdentifier, _ origin: WebOrigin)
    throws(IssuanceError)
  {
    var components = URLComponents()
    components.scheme = issuer.url.scheme
    components.host = issuer.url.host
    components.port = issuer.url.port
    guard let text = components.string, let issuerOrigin = try? WebOrigin(text),
      issuerOrigin == origin
    else {
      throw IssuanceError(
        .originMismatch,
        "the offer is for the credential issuer \(issuer.string), which is not at the origin "
          + "that asked (\(origin.serialized))")
    }
  }
}

extension WalletIssuance {
  /// Runs the grant a DC API offer carries and stores what verifies: the pre-authorized code
  /// flow with `txCode` when the offer has a pre-authorized code, else the authorization code
  /// flow, where `authorize` opens the authorization URL (ASWebAuthenticationSession, a Custom
  /// Tab) and returns the redirect URL it ended on.
  ///
  /// - Returns: what was stored, deferred or failed; answer the page with
  ///   ``DigitalCredentialOffer/response``.
  /// - Throws: what the flows throw; `authorization` when `authorize` fails; `credential` when
  ///   nothing was stored or deferred (the page is then not told `offer_accepted`).
  public func issue(
    _ request: DigitalCredentialOffer, txCode: String? = nil,
    authorize: @Sendable (URL) async throws -> URL,
    options: IssuanceClient.Options = .init(), storage: StorageOptions = StorageOptions()
  ) async throws(IssuanceError) -> WalletIssuanceResult {
    let offer = request.offer
    let result: WalletIssuanceResult
    if offer.preAuthorizedCode != nil {
      result = try await issuePreAuthorized(
        offer: offer, txCode: txCode, options: options, storage: storage)
    } else {
      let pending = try await beginAuthorization(offer: offer, options: options)
      let redirect: URL
      do {
        redirect = try await authorize(pending.authorizationURL)
      } catch {
        throw IssuanceError(
          .authorization, "the authorization was not completed: \(error)", underlying: error)
      }
      result = try await completeAuthorization(pending, redirect: redirect, storage: storage)
    }
    guard !result.stored.isEmpty || !result.deferred.isEmpty else {
      throw IssuanceError(
        .credential,
        "nothing was stored: " + result.failed.map(\.reason).joined(separator: "; "))
    }
    return result
  }
}
