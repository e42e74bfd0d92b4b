// The wallet app: lists the credentials, registers them with iOS, and suspends the shared store
// when the app moves to the background.
import DCIdentityDocumentServicesBridge
import SwiftUI
import UIKit

@main
struct WalletApp: App {
  @Environment(\.scenePhase) private var scenePhase

  var body: some Scene {
    WindowGroup { CredentialListView() }
      .onChange(of: scenePhase) { _, phase in
        guard let shared = WalletShared.current else { return }
        switch phase {
        case .background:
          // iOS terminates a suspended process that holds a lock on a file in the App Group
          // container: close the store before it suspends.
          let task = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
          Task {
            await shared.suspend()
            UIApplication.shared.endBackgroundTask(task)
          }
        case .active:
          Task { try? await shared.resume() }
        default:
          break
        }
      }
  }
}
