// Shadow of Apple's IdentityDocumentServicesUI (test only; see Tests/AppleShadow/README.md):
// the provider extension, its scenes and request contexts, as
// https://developer.apple.com/documentation/identitydocumentservicesui documents them.
public import ExtensionFoundation
public import ExtensionKit
public import Foundation
public import IdentityDocumentServices
public import SwiftUI

/// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentprovider
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
public protocol IdentityDocumentProvider: AppExtension {
  associatedtype Body: IdentityDocumentRequestScene
  @IdentityDocumentRequestSceneBuilder var body: Self.Body { get }
  /// Called periodically and when the user enables the app: re-sync registrations here.
  func performRegistrationUpdates() async
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscene
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public protocol IdentityDocumentRequestScene: AppExtensionScene {}

/// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder
///
/// Documented: `buildBlock` with one and two scenes, `buildOptional`, `buildLimitedAvailability`
/// (label unconfirmed); no three-scene `buildBlock` is declared (unconfirmed). The result types
/// are the shadow's own (Apple's are not documented).
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
@resultBuilder
public struct IdentityDocumentRequestSceneBuilder {
  public static func buildBlock<S: IdentityDocumentRequestScene>(_ scene: S) -> S { scene }
  public static func buildBlock<S0: IdentityDocumentRequestScene, S1: IdentityDocumentRequestScene>(
    _ s0: S0, _ s1: S1
  ) -> ShadowTupleScene<S0, S1> { ShadowTupleScene(s0, s1) }
  public static func buildOptional<S: IdentityDocumentRequestScene>(_ scene: S?)
    -> ShadowOptionalScene<S>
  { ShadowOptionalScene(scene) }
  public static func buildLimitedAvailability<S: IdentityDocumentRequestScene>(_ scene: S)
    -> ShadowAnyScene
  { ShadowAnyScene(scene) }
}

/// Shadow only: two scenes.
public struct ShadowTupleScene<S0: IdentityDocumentRequestScene, S1: IdentityDocumentRequestScene>:
  IdentityDocumentRequestScene
{
  public let scenes: (S0, S1)
  init(_ s0: S0, _ s1: S1) { scenes = (s0, s1) }
}
/// Shadow only: an optional scene.
public struct ShadowOptionalScene<S: IdentityDocumentRequestScene>: IdentityDocumentRequestScene {
  public let scene: S?
  init(_ scene: S?) { self.scene = scene }
}
/// Shadow only: a type-erased scene.
public struct ShadowAnyScene: IdentityDocumentRequestScene {
  public let scene: any IdentityDocumentRequestScene
  init(_ scene: any IdentityDocumentRequestScene) { self.scene = scene }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestscene
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentRequestScene<Content: View>: IdentityDocumentRequestScene {
  /// Shadow only: the view builder, for tests.
  public let shadowContent: (ISO18013MobileDocumentRequestContext) -> Content
  public init(
    @ViewBuilder content: @escaping (ISO18013MobileDocumentRequestContext) -> Content
  ) {
    shadowContent = content
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestscene
///
/// Apple's page shows `@ContentBuilder` on `content`; declared `@ViewBuilder` (no `ContentBuilder`
/// is documented).
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public struct OpenID4VPRawRequestScene<Content: View>: IdentityDocumentRequestScene {
  /// Shadow only: the view builder, for tests.
  public let shadowContent: (OpenID4VPRawRequestContext) -> Content
  public init(@ViewBuilder content: @escaping (OpenID4VPRawRequestContext) -> Content) {
    shadowContent = content
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext
///
/// Judgement call: Apple does not state that the context is `Sendable`; it is declared
/// explicitly non-Sendable (the strictest form).
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentRequestContext {
  /// The OS-parsed request, for the consent screen.
  public let request: ISO18013MobileDocumentRequest
  /// The website that asks.
  public let requestingWebsiteOrigin: URL?
  private let presentment: ShadowPresentment

  /// Shadow only (not Apple API): a context delivering `request`, whose `sendResponse` releases
  /// `rawRequest` and records into `presentment`.
  public init(
    shadowRequest request: ISO18013MobileDocumentRequest, requestingWebsiteOrigin: URL?,
    rawRequest: IdentityDocumentWebPresentmentRawRequest, presentment: ShadowPresentment
  ) {
    self.request = request
    self.requestingWebsiteOrigin = requestingWebsiteOrigin
    self.presentment = presentment
    self.rawRequest = rawRequest
  }
  private let rawRequest: IdentityDocumentWebPresentmentRawRequest

  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/sendresponse(_:)
  ///
  /// Shadow: calls the handler with the raw request, records its response or error, and
  /// rethrows the error.
  public func sendResponse(
    _ responseHandler:
      @escaping @Sendable (IdentityDocumentWebPresentmentRawRequest) async throws ->
      ISO18013MobileDocumentResponse
  ) async throws {
    presentment.recordSendResponseCall()
    do {
      let response = try await responseHandler(rawRequest)
      presentment.record(.response(response.shadowResponseData))
    } catch {
      presentment.record(.handlerFailed(String(describing: error)))
      throw error
    }
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/cancel()
  public func cancel() {
    presentment.record(.cancelled)
  }
}

@available(*, unavailable)
extension ISO18013MobileDocumentRequestContext: Sendable {}

/// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext
///
/// Judgement call: not documented as `Sendable`; declared explicitly non-Sendable. `cancel()`'s
/// signature is unconfirmed; declared as the mobile document context's.
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public struct OpenID4VPRawRequestContext {
  /// Encoded as `exchangeProtocol` defines.
  public let requestData: Data
  public let exchangeProtocol: OpenID4VPExchangeProtocolIdentifier
  public let requestingWebsiteOrigin: URL?
  private let presentment: ShadowPresentment

  /// Shadow only (not Apple API).
  public init(
    shadowRequestData requestData: Data, exchangeProtocol: OpenID4VPExchangeProtocolIdentifier,
    requestingWebsiteOrigin: URL?, presentment: ShadowPresentment
  ) {
    self.requestData = requestData
    self.exchangeProtocol = exchangeProtocol
    self.requestingWebsiteOrigin = requestingWebsiteOrigin
    self.presentment = presentment
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/sendresponse(_:)
  public func sendResponse(_ response: OpenID4VPRawRequestContext.Response) {
    presentment.record(.response(response.responseData))
  }

  /// Unconfirmed on Apple's pages.
  public func cancel() {
    presentment.record(.cancelled)
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/response
  public struct Response: Sendable {
    /// The OpenID4VP authorization response.
    public let responseData: Data
    public init(responseData: Data) { self.responseData = responseData }
  }
}

@available(*, unavailable)
extension OpenID4VPRawRequestContext: Sendable {}

/// Shadow only (not Apple API): what a request context was handed, in order.
public final class ShadowPresentment: @unchecked Sendable {
  /// One outcome.
  public enum Event: Equatable, Sendable {
    /// `sendResponse` delivered these response bytes.
    case response(Data)
    /// The response handler threw.
    case handlerFailed(String)
    /// `cancel()`.
    case cancelled
  }

  private let lock = NSLock()
  private var recorded: [Event] = []
  private var calls = 0

  public init() {}

  /// Every outcome, in order.
  public var events: [Event] { lock.withLock { recorded } }
  /// How many times `sendResponse` was called.
  public var sendResponseCalls: Int { lock.withLock { calls } }

  func record(_ event: Event) { lock.withLock { recorded.append(event) } }
  func recordSendResponseCall() { lock.withLock { calls += 1 } }
}
