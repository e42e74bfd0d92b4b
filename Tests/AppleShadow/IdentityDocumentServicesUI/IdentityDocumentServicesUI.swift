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
  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentprovider/body-swift.associatedtype
  associatedtype Body: IdentityDocumentRequestScene
  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentprovider/body-swift.property
  @IdentityDocumentRequestSceneBuilder var body: Self.Body { get }
  /// Called periodically and when the user enables the app: re-sync registrations here.
  func performRegistrationUpdates() async
}

@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
extension IdentityDocumentProvider {
  /// The protocol's `configuration` (`@MainActor var configuration: AppExtensionSceneConfiguration
  /// { get }`), so a provider declares none: listed for IdentityDocumentProvider in the iOS 27.1
  /// SDK's declarations (https://onestack.dev/ios-reference/IdentityDocumentServicesUI/IdentityDocumentProvider);
  /// Apple's guide declares none in its provider.
  public var configuration: AppExtensionSceneConfiguration { .shadowDefault }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscene
/// ("The framework provides concrete types for this protocol").
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor @preconcurrency
public protocol IdentityDocumentRequestScene: AppExtensionScene {}

/// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder
///
/// Every builder method returns `some IdentityDocumentRequestScene`, generic over its input, as
/// Apple's pages show: `buildLimitedAvailability` does not erase the type, so a scene type inside
/// `if #available` stays in the type of `body`. The underlying types are the shadow's own and
/// internal (Apple's are opaque); `ShadowSceneAvailability` reads which scene types they name. No
/// 3-scene `buildBlock` is documented.
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
@resultBuilder
public struct IdentityDocumentRequestSceneBuilder {
  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder/buildblock(_:)
  public static func buildBlock(_ scene: some IdentityDocumentRequestScene)
    -> some IdentityDocumentRequestScene
  { scene }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder/buildblock(_:_:)
  public static func buildBlock(
    _ s0: some IdentityDocumentRequestScene, _ s1: some IdentityDocumentRequestScene
  ) -> some IdentityDocumentRequestScene { ShadowScenePair(s0, s1) }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder/buildoptional(_:)
  public static func buildOptional(_ scene: (some IdentityDocumentRequestScene)?)
    -> some IdentityDocumentRequestScene
  { ShadowOptionalScene(scene) }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/identitydocumentrequestscenebuilder/buildlimitedavailability(_:)
  public static func buildLimitedAvailability(_ scene: some IdentityDocumentRequestScene)
    -> some IdentityDocumentRequestScene
  { scene }
}

/// Shadow only: two scenes (the underlying type of the two-scene `buildBlock`).
@available(iOS 26.0, *)
struct ShadowScenePair<S0: IdentityDocumentRequestScene, S1: IdentityDocumentRequestScene>:
  IdentityDocumentRequestScene, ShadowSceneInventory
{
  let scenes: (S0, S1)
  init(_ s0: S0, _ s1: S1) { scenes = (s0, s1) }
  nonisolated static var shadowSceneTypes: [ShadowSceneType] {
    ShadowSceneAvailability.sceneTypes(in: S0.self)
      + ShadowSceneAvailability.sceneTypes(in: S1.self)
  }
}

/// Shadow only: an optional scene (the underlying type of `buildOptional`).
@available(iOS 26.0, *)
struct ShadowOptionalScene<S: IdentityDocumentRequestScene>: IdentityDocumentRequestScene,
  ShadowSceneInventory
{
  let scene: S?
  init(_ scene: S?) { self.scene = scene }
  nonisolated static var shadowSceneTypes: [ShadowSceneType] {
    ShadowSceneAvailability.sceneTypes(in: S.self)
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestscene
/// (`@MainActor @preconcurrency`; Conforms To: `Sendable`, `IdentityDocumentRequestScene`).
/// `@unchecked` only because the shadow stores the content closure.
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor @preconcurrency
public struct ISO18013MobileDocumentRequestScene<Content: View>: IdentityDocumentRequestScene,
  @unchecked Sendable
{
  /// Shadow only: the view builder, for tests.
  public let shadowContent: (ISO18013MobileDocumentRequestContext) -> Content
  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestscene/init(content:)
  public init(
    @ViewBuilder content: @escaping (ISO18013MobileDocumentRequestContext) -> Content
  ) {
    shadowContent = content
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestscene
/// (`@MainActor @preconcurrency`, iOS 27.3; `content` is a `@ContentBuilder` closure).
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
@MainActor @preconcurrency
public struct OpenID4VPRawRequestScene<Content: View>: IdentityDocumentRequestScene {
  /// Shadow only: the view builder, for tests.
  public let shadowContent: (OpenID4VPRawRequestContext) -> Content
  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestscene/init(content:)
  public init(@ContentBuilder content: @escaping (OpenID4VPRawRequestContext) -> Content) {
    shadowContent = content
  }
}

/// Shadow only (package): the scene types a scene's static type names, each with the iOS version
/// Apple's page gives for it. Apple's `body` keeps every scene type in its type (the builder does
/// not erase), so a type named by a body built for an older OS must exist on that OS.
package protocol ShadowSceneInventory {
  static var shadowSceneTypes: [ShadowSceneType] { get }
}

/// Shadow only (package): one scene type a body's type names.
package struct ShadowSceneType: Sendable, Hashable, CustomStringConvertible {
  /// The scene type, as `String(reflecting:)` writes it.
  package let name: String
  /// The iOS version that introduced it (`major * 100 + minor`), nil for a type the shadow
  /// does not know.
  package let introduced: Int?

  package var description: String {
    "\(name) (iOS \(introduced.map { "\($0 / 100).\($0 % 100)" } ?? "unknown"))"
  }
}

/// Shadow only (package): reads which scene types a body's static type names.
package enum ShadowSceneAvailability {
  /// The scene types `type` names (itself, for a scene; the parts, for a builder result).
  package static func sceneTypes(in type: Any.Type) -> [ShadowSceneType] {
    if let inventory = type as? any ShadowSceneInventory.Type {
      return inventory.shadowSceneTypes
    }
    return [ShadowSceneType(name: String(reflecting: type), introduced: nil)]
  }

  /// The scene types in the body of `provider` that are newer than `floor` (`major * 100 +
  /// minor`) or unknown: a body built for `floor` must name none.
  package static func newer<P: IdentityDocumentProvider>(than floor: Int, in provider: P.Type)
    -> [ShadowSceneType]
  {
    sceneTypes(in: P.Body.self).filter { ($0.introduced ?? Int.max) > floor }
  }
}

@available(iOS 26.0, *)
extension ISO18013MobileDocumentRequestScene: ShadowSceneInventory {
  nonisolated package static var shadowSceneTypes: [ShadowSceneType] {
    [ShadowSceneType(name: String(reflecting: Self.self), introduced: 2600)]
  }
}

@available(iOS 27.3, *)
extension OpenID4VPRawRequestScene: ShadowSceneInventory {
  nonisolated package static var shadowSceneTypes: [ShadowSceneType] {
    [ShadowSceneType(name: String(reflecting: Self.self), introduced: 2703)]
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext
/// (Conforms To: `Sendable`).
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentRequestContext: Sendable {
  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/request
  public let request: ISO18013MobileDocumentRequest
  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/requestingwebsiteorigin
  public let requestingWebsiteOrigin: URL?
  private let presentment: ShadowPresentment
  private let rawRequestType: IdentityDocumentWebPresentmentRawRequest.RequestType
  private let rawRequestData: Data

  /// Shadow only (not Apple API): a context delivering `request`, whose `sendResponse` releases
  /// `rawRequest` and records into `presentment`.
  public init(
    shadowRequest request: ISO18013MobileDocumentRequest, requestingWebsiteOrigin: URL?,
    rawRequest: IdentityDocumentWebPresentmentRawRequest, presentment: ShadowPresentment
  ) {
    self.request = request
    self.requestingWebsiteOrigin = requestingWebsiteOrigin
    self.presentment = presentment
    rawRequestType = rawRequest.requestType
    rawRequestData = rawRequest.requestData
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/sendresponse(_:)
  ///
  /// Apple does not document what happens when the handler throws (whether `sendResponse`
  /// rethrows that error, throws another or returns) nor whether it may be called again:
  /// the shadow does what `presentment.handlerFailure` says, so tests can cover each.
  public func sendResponse(
    _ responseHandler:
      @escaping @Sendable (IdentityDocumentWebPresentmentRawRequest) async throws ->
      ISO18013MobileDocumentResponse
  ) async throws {
    presentment.recordSendResponseCall()
    let response: ISO18013MobileDocumentResponse
    do {
      response = try await responseHandler(
        IdentityDocumentWebPresentmentRawRequest(
          requestType: rawRequestType, requestData: rawRequestData))
    } catch {
      presentment.record(.handlerFailed(String(describing: error)))
      switch presentment.handlerFailure {
      case .rethrown: throw error
      case .replaced:
        throw IdentityDocumentPresentmentError(
          shadowCode: .unknown, debugDescription: "the response handler failed")
      case .swallowed: return
      }
    }
    presentment.record(.response(response.responseData))
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/iso18013mobiledocumentrequestcontext/cancel()
  public func cancel() {
    presentment.record(.cancelled)
  }
}

/// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext
///
/// Judgement call: not documented as `Sendable`; declared explicitly non-Sendable. `cancel()`'s
/// signature is unconfirmed; declared as the mobile document context's.
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public struct OpenID4VPRawRequestContext {
  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/requestdata
  /// (encoded as `exchangeProtocol` defines).
  public let requestData: Data
  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/exchangeprotocol
  public let exchangeProtocol: OpenID4VPExchangeProtocolIdentifier
  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/requestingwebsiteorigin
  public let requestingWebsiteOrigin: URL?
  private let presentment: ShadowPresentment

  /// Shadow only (not Apple API).
  public init(
    shadowRequestData requestData: Data,
    exchangeProtocol: OpenID4VPExchangeProtocolIdentifier = .shadowUndocumented,
    requestingWebsiteOrigin: URL?, presentment: ShadowPresentment
  ) {
    self.requestData = requestData
    self.exchangeProtocol = exchangeProtocol
    self.requestingWebsiteOrigin = requestingWebsiteOrigin
    self.presentment = presentment
  }

  /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/sendresponse(_:)
  public func sendResponse(_ response: OpenID4VPRawRequestContext.Response) {
    presentment.recordSendResponseCall()
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
    /// https://developer.apple.com/documentation/identitydocumentservicesui/openid4vprawrequestcontext/response/init(responsedata:)
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

  /// What `sendResponse` does when its handler throws: Apple does not document it.
  public enum HandlerFailure: Sendable, CaseIterable {
    /// It rethrows the handler's error.
    case rethrown
    /// It throws an `IdentityDocumentPresentmentError` instead.
    case replaced
    /// It returns normally.
    case swallowed
  }

  private let lock = NSLock()
  private var recorded: [Event] = []
  private var calls = 0
  /// What `sendResponse` does when its handler throws.
  public let handlerFailure: HandlerFailure

  /// A recorder; `handlerFailure` picks one of the undocumented behaviours.
  public init(handlerFailure: HandlerFailure = .rethrown) { self.handlerFailure = handlerFailure }

  /// Every outcome, in order.
  public var events: [Event] { lock.withLock { recorded } }
  /// How many times `sendResponse` was called.
  public var sendResponseCalls: Int { lock.withLock { calls } }

  func record(_ event: Event) { lock.withLock { recorded.append(event) } }
  func recordSendResponseCall() { lock.withLock { calls += 1 } }
}
