// Apple only: translation between OpenID4VPRawRequestContext (IdentityDocumentServicesUI,
// iOS 27.3) and the wallet. The decisions (origin, exchange protocol, envelope, response bytes)
// are in IOSProviderExchange (CredentialWallet) and in Wallet.resolve / Wallet.respond
// (CredentialWallet), all tested on Linux.
//
// iOS 27.3 symbols (`OpenID4VPRawRequestContext`, its `Response`): this file is in IdentityDocumentServicesBridge27_3,
// built only with the iOS 27.3 SDK or later.
#if ((os(iOS) && !targetEnvironment(macCatalyst)) || DCWALLET_APPLE_SHADOW) && canImport(IdentityDocumentServices) && canImport(IdentityDocumentServicesUI)
  public import DCWallet
  public import DCAPI
  internal import Foundation
  internal import IdentityDocumentServices
  public import IdentityDocumentServicesUI

  /// One OpenID4VP request handed to the provider extension (iOS 27.3).
  ///
  /// The OS hands over the raw request once, before consent, so the consent screen shows the
  /// wallet's resolution of these very bytes and the response is built from the same value: no
  /// second representation needs to be reconciled.
  ///
  /// Main-actor isolated: the scene hands the context to its view builder on the main actor and
  /// Apple does not state that the context is `Sendable`. What crosses to the wallet
  /// (`RequestEnvelope`, `PresentationRequest`, `PresentationConsent`, `Wallet`) is `Sendable`.
  @available(iOS 27.3, *)
  @MainActor
  public struct OpenID4VPRequestAdapter {
    /// The website that asks, from `requestingWebsiteOrigin` only.
    public let origin: WebOrigin
    /// The DC API protocol of the request (`openid4vp-v1-unsigned`, `-signed`, `-multisigned`).
    public let protocolIdentifier: DigitalCredentialProtocol
    /// The request as the wallet resolves it.
    public let envelope: RequestEnvelope
    private let context: OpenID4VPRawRequestContext

    /// Reads a request context.
    ///
    /// - Throws: `invalidOrigin` without a website origin; `invalidRequest` when the data is not
    ///   a JSON object or its `request` is neither a JWS nor a JWS JSON serialization.
    public init(context: OpenID4VPRawRequestContext) throws(DigitalCredentialsError) {
      self.context = context
      origin = try IOSProviderExchange.origin(
        requestingWebsiteOrigin: context.requestingWebsiteOrigin?.absoluteString)
      // `exchangeProtocol` is not read: Apple documents no case, raw value or description of
      // `OpenID4VPExchangeProtocolIdentifier`. The data says which protocol it is (OpenID4VP 1.0
      // Appendix A.3), and the wallet checks it in that protocol's shape.
      protocolIdentifier = try IOSProviderExchange.openID4VPProtocol(
        requestData: Array(context.requestData))
      envelope = try IOSProviderExchange.openID4VPEnvelope(
        requestData: Array(context.requestData), protocol: protocolIdentifier)
    }

    /// Resolves the request against the wallet for `origin`: what the consent screen shows
    /// (verifier, DCQL matches, `skipped` reasons) and what the response is built from.
    public func resolve(with wallet: Wallet, policy: WalletPolicy? = nil)
      async throws(WalletError) -> PresentationRequest
    {
      try await wallet.resolve(
        envelope, origin: origin.serialized, policy: policy)
    }

    /// Answers with the holder's consent: builds, signs (after the holder authenticates, as the
    /// wallet's policy requires) and hands the authorization response to the OS.
    public func respond(
      to request: PresentationRequest, consent: PresentationConsent, with wallet: Wallet
    ) async throws {
      let response = try await wallet.respond(to: request, consent: consent)
      let data = try IOSProviderExchange.openID4VPResponseData(
        response, protocol: protocolIdentifier)
      context.sendResponse(OpenID4VPRawRequestContext.Response(responseData: Data(data)))
    }

    /// Declines. `cancel()`'s signature is not confirmed on Apple's pages; it is called as the
    /// mobile document context's is.
    public func cancel() {
      context.cancel()
    }
  }
#endif
