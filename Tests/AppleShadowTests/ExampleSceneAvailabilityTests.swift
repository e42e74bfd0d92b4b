import IdentityDocumentServicesUI
import Testing

@testable import DCExampleWalletProvider

/// The example extension (Examples/WalletApp) under the same check as the guide: its iOS 26.0
/// provider's body names no scene type newer than iOS 26.0 (SceneAvailabilityTests).
@Suite("Apple shadow: the example provider's bodies respect their floors")
@MainActor
struct ExampleSceneAvailabilityTests {
  @Test("WalletProvider (iOS 26.0) names only iOS 26.0 scene types; WalletProvider27_3 both")
  func floors() {
    let newer = ShadowSceneAvailability.newer(than: 2600, in: WalletProvider.self)
    #expect(newer.isEmpty, "the example's iOS 26.0 provider names \(newer)")
    #expect(ShadowSceneAvailability.newer(than: 2703, in: WalletProvider27_3.self).isEmpty)
    let types = ShadowSceneAvailability.sceneTypes(in: WalletProvider27_3.Body.self)
    #expect(types.compactMap(\.introduced) == [2600, 2703], "\(types)")
  }
}
