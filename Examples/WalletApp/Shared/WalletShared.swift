// Shared by the app and its provider extension (a member of both targets; in the package's
// shadow build each target reaches it through a symlink).
import DCAPI
import DCIdentityDocumentServicesBridge
import DCIdentityDocumentServicesBridge27_3  // RegistrationBuilder.iOS27Point3 (iOS 27.3 SDK)
import DCRegistration
import DCWallet
import Foundation

#if canImport(AppleShadowFoundation)
  // Linux only: `String(localized:)` is an Apple-only Foundation member (Tests/AppleShadow).
  import AppleShadowFoundation
#endif

/// The one wallet both processes open: the store in the App Group container, device keys in the
/// shared keychain access group (see Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md, "One wallet, two processes").
@MainActor
enum WalletShared {
  static let container = SharedContainer(
    appGroup: "group.com.example.dcwallet",
    keychainAccessGroup: "ABCDE12345.com.example.dcwallet.shared")

  /// Opened once per process, so that `suspend()` reaches every connection.
  private(set) static var current: SharedWallet?

  static func open() throws -> Wallet {
    if let current { return current.wallet }
    let shared = try container.open(
      authenticator: LocalAuthenticationAuthenticator { context in
        let who =
          context.requester.verifiedName ?? context.requester.origin?.serialized
          ?? "a reader nearby"
        return String(localized: "Share \(context.credentials.count) document(s) with \(who)")
      })
    current = shared
    return shared.wallet
  }
}

/// Registration with IdentityDocumentServices, from the app and from the extension's
/// `performRegistrationUpdates()`.
@available(iOS 26.0, *)
enum Registration {
  /// The app's entitlements, as in WalletApp.entitlements (the OS offers no API to read them).
  static let entitlements = IOSEntitlements(
    mobileDocumentTypes: ["org.iso.18013.5.1.mDL", "eu.europa.ec.eudi.pid.1"],
    verifiableCredentialTypes: ["urn:eudi:pid:1"])

  /// Built with the iOS 27.3 SDK: `.iOS27Point3` plans for the older of the device and 27.3.
  static let synchronizer = RegistrationSynchronizer(
    entitlements: entitlements, builder: .iOS27Point3)

  /// Brings the registrations to the wallet's credentials; returns the report's lines.
  static func sync(_ wallet: Wallet) async -> [String] {
    let descriptions = (try? await wallet.registrationDescriptions()) ?? []
    let report = await synchronizer.synchronize(descriptions)
    return report.added.map { "registered \($0)" } + report.removed.map { "removed \($0)" }
      + report.failures.map { "failed: \($0)" } + report.notes
  }
}
