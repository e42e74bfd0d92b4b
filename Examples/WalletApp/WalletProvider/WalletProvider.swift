// The identity document provider extension: one provider per OS floor, each body naming only
// scene types its floor has (Apple's scene builder keeps every scene type in the type of
// `body`, so a newer scene inside `if #available` could crash the extension on an older iOS).
import ExtensionKit  // AppExtension.main(), which `@main` calls
import IdentityDocumentServicesUI
import SwiftUI

/// For an extension that deploys at iOS 26.0: the mdoc scene only.
@available(iOS 26.0, *)
struct WalletProvider: IdentityDocumentProvider {
  var body: some IdentityDocumentRequestScene {
    ISO18013MobileDocumentRequestScene { context in
      MobileDocumentConsentView(context: context)
    }
  }

  func performRegistrationUpdates() async {
    guard let wallet = try? WalletShared.open() else { return }
    _ = await Registration.sync(wallet)
  }
}

/// For an extension that deploys at iOS 27.3: the mdoc scene and the OpenID4VP scene.
@available(iOS 27.3, *)
struct WalletProvider27_3: IdentityDocumentProvider {
  var body: some IdentityDocumentRequestScene {
    ISO18013MobileDocumentRequestScene { context in
      MobileDocumentConsentView(context: context)
    }
    OpenID4VPRawRequestScene { context in
      OpenID4VPConsentView(context: context)
    }
  }

  func performRegistrationUpdates() async {
    guard let wallet = try? WalletShared.open() else { return }
    _ = await Registration.sync(wallet)
  }
}

// The deployment target picks the provider, outside any result builder: the WalletProvider
// target's build settings set the Active Compilation Condition IDS_PROVIDER_IOS27_3 together
// with IPHONEOS_DEPLOYMENT_TARGET = 27.3 (Examples/README.md).
#if IDS_PROVIDER_IOS27_3
  @main
  extension WalletProvider27_3 {}
#else
  @main
  extension WalletProvider {}
#endif
