import IdentityDocumentServicesUI
import SwiftUI
import Testing

@testable import IntegrationGuideSnippets

/// Apple's `IdentityDocumentRequestSceneBuilder` keeps every scene type in the type of `body`
/// (`buildLimitedAvailability` returns `some IdentityDocumentRequestScene`, generic over its
/// input), so a scene type newer than the OS an extension runs on, even inside `if #available`,
/// is the pattern the Swift book says can crash on older OS versions. On Linux no `#available`
/// check runs, so these tests read the scene types a body's static type names and compare them
/// with the oldest iOS the provider runs on.
@Suite("Apple shadow: a provider's body names no scene type newer than its floor")
@MainActor
struct SceneAvailabilityTests {
  @Test("The guide's iOS 26.0 provider names only iOS 26.0 scene types")
  func guideFloor26() {
    let newer = ShadowSceneAvailability.newer(than: 2600, in: WalletProvider.self)
    #expect(newer.isEmpty, "WalletProvider (iOS 26.0) names \(newer)")
  }

  @Test("The guide's iOS 27.3 provider names both scenes, none newer than iOS 27.3")
  func guideFloor27Point3() {
    #expect(ShadowSceneAvailability.newer(than: 2703, in: WalletProvider27_3.self).isEmpty)
    let types = ShadowSceneAvailability.sceneTypes(in: WalletProvider27_3.Body.self)
    #expect(types.compactMap(\.introduced) == [2600, 2703], "\(types)")
  }

  @Test("The check sees a 27.3 scene inside `if #available` (the builder does not erase it)")
  func limitedAvailabilityIsVisible() {
    let newer = ShadowSceneAvailability.newer(than: 2600, in: LimitedAvailabilityProvider.self)
    #expect(newer.map(\.introduced) == [2703], "\(newer)")
  }
}

/// The pattern the check must catch: a 27.3 scene behind `if #available` in one body.
struct LimitedAvailabilityProvider: IdentityDocumentProvider {
  var body: some IdentityDocumentRequestScene {
    ISO18013MobileDocumentRequestScene { _ in EmptyView() }
    if #available(iOS 27.3, *) {
      OpenID4VPRawRequestScene { _ in EmptyView() }
    }
  }

  func performRegistrationUpdates() async {}
}
