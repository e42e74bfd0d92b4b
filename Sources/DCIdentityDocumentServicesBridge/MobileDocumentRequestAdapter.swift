// Apple only: translation between ISO18013MobileDocumentRequestContext (IdentityDocumentServicesUI,
// iOS 26.0) and the wallet. The decisions (origin, raw request type, consistency check, envelope,
// response bytes, the holder's selection, reader trust) are in IOSProviderExchange,
// MobileDocumentSelection, ConsistencyCheck and MobileDocumentRequest (CredentialWallet) and
// in Wallet.resolve / Wallet.respond (CredentialWallet), all tested on Linux.
//
// iOS 26.0 symbols only. The request's issuer key identifiers (`DocumentRequest.issuerKeyIdentifiers`,
// iOS 27.0) are read by `MobileDocumentRequestAdapter.iOS27(context:)` in
// IdentityDocumentServicesBridge27.
#if ((os(iOS) && !targetEnvironment(macCatalyst)) || DCWALLET_APPLE_SHADOW) && canImport(IdentityDocumentServices) && canImport(IdentityDocumentServicesUI) && canImport(Security)
  public import DCWallet
  public import DCAPI
  package import Foundation
  package import IdentityDocumentServices
  public import IdentityDocumentServicesUI
  public import DCMdoc
  internal import Security

  /// One `org-iso-mdoc` request handed to the provider extension: the parsed request for the
  /// consent screen, and the step that answers it after consent.
  ///
  /// iOS releases the raw request only inside `sendResponse`, after the holder agreed; it is
  /// checked against the parsed request the screen showed before anything is signed.
  ///
  /// Main-actor isolated, like the scene that hands the context to its view builder: one answer
  /// at a time. What crosses to the wallet (`MobileDocumentRequest`, `WebOrigin`,
  /// `MobileDocumentSelection`, `Wallet`) is `Sendable`, as is the context (Apple's page lists the
  /// conformance).
  ///
  /// A request is answered once. Apple does not document whether `sendResponse` may be called
  /// again after its handler threw, nor what it then throws, so after a failed `respond` (the
  /// holder cancelled Face ID, a check refused the request) the adapter ends the request with
  /// `cancel()` and refuses any later `respond`.
  @available(iOS 26.0, *)
  @MainActor
  public struct MobileDocumentRequestAdapter {
    /// What the reader asks for, as the OS parsed it: show this on the consent screen.
    public let request: MobileDocumentRequest
    /// The website that asks, from `requestingWebsiteOrigin` only.
    public let origin: WebOrigin
    private let context: ISO18013MobileDocumentRequestContext
    private let answering = Answering()

    /// Reads a request context with the iOS 26.0 API: document requests carry no issuer key
    /// identifiers (any issuer is asked for). Use `MobileDocumentRequestAdapter.iOS27(context:)`
    /// from IdentityDocumentServicesBridge27 to read them.
    ///
    /// - Throws: `invalidOrigin` when the OS gave no website origin (it does for every web
    ///   request) or one that is not an origin; such a request is not answered.
    public init(context: ISO18013MobileDocumentRequestContext) throws(DigitalCredentialsError) {
      try self.init(context: context, issuerKeyIdentifiers: { _ in [] })
    }

    /// Reads a request context, taking each document request's issuer key identifiers from
    /// `issuerKeyIdentifiers` (the iOS 27.0 property lives in IdentityDocumentServicesBridge27).
    package init(
      context: ISO18013MobileDocumentRequestContext,
      issuerKeyIdentifiers: (ISO18013MobileDocumentRequest.DocumentRequest) -> [Data]
    ) throws(DigitalCredentialsError) {
      self.context = context
      origin = try IOSProviderExchange.origin(
        requestingWebsiteOrigin: context.requestingWebsiteOrigin?.absoluteString)
      request = Self.translate(context.request, issuerKeyIdentifiers: issuerKeyIdentifiers)
    }

    /// The trust of each reader certificate chain against the wallet's reader anchors, for the
    /// consent screen (chains only; the signature is checked after consent).
    public func readerTrust(in wallet: Wallet) async throws(WalletError) -> [ChainTrust] {
      request.readerTrust(
        trustAnchors: try await wallet.trustAnchors(role: .reader), at: wallet.clock())
    }

    /// The documents the wallet holds that the consent screen can offer.
    public func offerableDocuments(in wallet: Wallet) async throws(WalletError)
      -> [OfferableDocument]
    {
      OfferableDocument.mobileDocuments(
        try await wallet.credentials().filter { $0.format == .msoMdoc }.map {
          ($0.id, $0.issued, $0.issuerAuthorityKeyIdentifiers)
        })
    }

    /// Answers after consent: checks the raw request against `request`, resolves it for
    /// `origin`, builds the consent from the holder's selection, signs, seals and hands the CBOR
    /// `EncryptedResponse` to the OS.
    ///
    /// Called once per request. If anything fails inside `sendResponse` (the holder cancels Face
    /// ID, the raw request asks for more than was shown), that error is thrown, whatever
    /// `sendResponse` itself does with it, and the request is ended with `cancel()`: the website
    /// is told the request was cancelled and nothing is sent.
    ///
    /// - Parameter policy: what is refused; by default the wallet's policy.
    /// - Throws: `WalletError.refused` when a response is being sent or the request has ended;
    ///   else what failed.
    public func respond(
      with wallet: Wallet, selection: MobileDocumentSelection, policy: WalletPolicy? = nil
    ) async throws {
      // Only Sendable values enter the `@Sendable` response handler.
      let shown = request
      let origin = self.origin
      guard answering.begin() else {
        throw WalletError(.refused, "this request is being answered or has ended")
      }
      // The handler's own error, kept here: Apple does not document whether `sendResponse`
      // rethrows it.
      let failure = HandlerFailure()
      do {
        try await context.sendResponse { rawRequest in
          do {
            let envelope = try IOSProviderExchange.mobileDocumentEnvelope(
              rawRequestProtocol: Self.protocolIdentifier(rawRequest.requestType),
              rawRequestData: Array(rawRequest.requestData), shown: shown)
            let resolved = try await wallet.resolve(
              envelope, origin: origin.serialized, policy: policy)
            let consent = try resolved.consent(selection.consentSelection)
            let response = try await wallet.respond(to: resolved, consent: consent)
            return ISO18013MobileDocumentResponse(
              responseData: Data(try IOSProviderExchange.mobileDocumentResponseData(response)))
          } catch {
            failure.record(error)
            throw error
          }
        }
      } catch {
        answering.end()
        context.cancel()
        throw failure.error ?? error
      }
      answering.end()
      if let error = failure.error {
        context.cancel()
        throw error
      }
    }

    /// Declines: the OS tells the website the user cancelled. Does nothing while `respond` is
    /// sending the response, nor once the request has ended.
    public func cancel() {
      guard answering.endUnanswered() else { return }
      context.cancel()
    }

    /// The DC API protocol a raw request's type stands for. Only the mdoc case is named: the
    /// OpenID4VP case's availability is not confirmed, and whatever else arrives is refused by
    /// `IOSProviderExchange.mobileDocumentEnvelope`, which accepts `org-iso-mdoc` only.
    nonisolated static func protocolIdentifier(
      _ type: IdentityDocumentWebPresentmentRawRequest.RequestType
    ) -> String {
      switch type {
      case .iso18013MobileDocument: DigitalCredentialProtocol.orgIsoMdoc.rawValue
      default: String(describing: type)
      }
    }

    /// Where the request is: open, being answered (inside `sendResponse`) or ended; shared by
    /// the copies of an adapter.
    @MainActor
    final class Answering {
      private enum State { case open, answering, ended }
      private var state = State.open

      /// Whether a response may be sent now (the request is open); it is then being answered.
      func begin() -> Bool {
        guard state == .open else { return false }
        state = .answering
        return true
      }

      /// The answer was sent or failed: the request has ended.
      func end() { state = .ended }

      /// Whether the request was open; it has ended.
      func endUnanswered() -> Bool {
        guard state == .open else { return false }
        state = .ended
        return true
      }
    }

    /// The error the response handler threw, if it did.
    final class HandlerFailure: @unchecked Sendable {
      private let lock = NSLock()
      private var recorded: (any Error)?

      var error: (any Error)? { lock.withLock { recorded } }
      func record(_ error: any Error) { lock.withLock { recorded = error } }
    }

    nonisolated static func translate(
      _ request: ISO18013MobileDocumentRequest,
      issuerKeyIdentifiers: (ISO18013MobileDocumentRequest.DocumentRequest) -> [Data]
    ) -> MobileDocumentRequest {
      MobileDocumentRequest(
        presentmentRequests: request.presentmentRequests.map { presentment in
          MobileDocumentRequest.PresentmentRequest(
            documentRequestSets: presentment.documentRequestSets.map { set in
              MobileDocumentRequest.DocumentRequestSet(
                requests: set.requests.map { document in
                  MobileDocumentRequest.DocumentRequest(
                    documentType: document.documentType,
                    namespaces: document.namespaces.mapValues { elements in
                      elements.mapValues {
                        MobileDocumentRequest.ElementInfo(isRetaining: $0.isRetaining)
                      }
                    },
                    issuerKeyIdentifiers: issuerKeyIdentifiers(document).map { Array($0) })
                })
            },
            isMandatory: presentment.isMandatory)
        },
        requestAuthentications: request.requestAuthentications.map { authentication in
          authentication.authenticationCertificateChain.map {
            Array(SecCertificateCopyData($0) as Data)
          }
        })
    }
  }
#endif
