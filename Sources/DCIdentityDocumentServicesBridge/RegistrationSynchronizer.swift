// Apple only: translation between IdentityDocumentProviderRegistrationStore and the SDK's pure
// registration planner; every decision is in RegistrationSync, IOSRegistrationPlan and
// RegistrationStatusModel (DigitalCredentialsAPI, tested on Linux).
//
// This file uses iOS 26.0 symbols only, so the target builds with the iOS 26 SDK. The 27.0 and
// 27.3 registrations are built by `RegistrationBuilder.iOS27` (IdentityDocumentServicesBridge27)
// and `.iOS27Point3` (IdentityDocumentServicesBridge27_3).
#if ((os(iOS) && !targetEnvironment(macCatalyst)) || DCWALLET_APPLE_SHADOW) && canImport(IdentityDocumentServices)
  public import DCRegistration
  public import Foundation
  package import IdentityDocumentServices

  /// Turns a planned registration into Apple's, using the registration API of one SDK.
  ///
  /// `sdkFloor` is the newest iOS whose registration symbols `make` uses: on a newer device the
  /// plan is made as for `sdkFloor`, so nothing is planned that `make` cannot build (no issuer
  /// key identifiers below 27.0, no verifiable credentials below 27.3).
  @available(iOS 26.0, *)
  public struct RegistrationBuilder: Sendable {
    /// The newest iOS whose registration API `make` uses.
    public let sdkFloor: IOSPlatformCapabilities
    /// Builds Apple's registration for a planned one.
    package let make: @Sendable (IOSRegistration) throws -> any IdentityDocumentRegistration

    /// A builder for an SDK floor.
    package init(
      sdkFloor: IOSPlatformCapabilities,
      make: @escaping @Sendable (IOSRegistration) throws -> any IdentityDocumentRegistration
    ) {
      self.sdkFloor = sdkFloor
      self.make = make
    }

    /// The iOS 26.0 registration API: `MobileDocumentRegistration` with reader AKIs only.
    public static let iOS26 = RegistrationBuilder(sdkFloor: .iOS26) { planned in
      switch planned {
      case .mobileDocument(let mdoc):
        return MobileDocumentRegistration(
          mobileDocumentType: mdoc.mobileDocumentType,
          supportedAuthorityKeyIdentifiers: mdoc.supportedAuthorityKeyIdentifiers.map {
            Data($0.bytes)
          },
          documentIdentifier: mdoc.documentIdentifier, invalidationDate: mdoc.invalidationDate)
      case .verifiableCredential(let vc):
        // Not planned below 27.3 (the plan is made for `sdkFloor`); refused if it ever is.
        throw RegistrationError(
          .unsupportedPlatformVersion,
          "VerifiableCredentialRegistration needs IdentityDocumentServicesBridge27_3",
          credentialID: vc.documentIdentifier)
      }
    }
  }

  /// Keeps the app's IdentityDocumentServices registrations equal to the credentials the wallet
  /// wants offered: stale document identifiers are removed, every presentable credential is added
  /// (which replaces it in place), each one independently.
  ///
  /// Call it from the app whenever credentials change and from the provider extension's
  /// `performRegistrationUpdates()`.
  @available(iOS 26.0, *)
  public struct RegistrationSynchronizer: Sendable {
    /// The app's `mobile-document-types` and `verifiable-credential-types` entitlements, as in its
    /// `.entitlements` file (the OS gives no API to read them).
    public let entitlements: IOSEntitlements
    /// How planned registrations become Apple's: `.iOS26` here, `.iOS27` or `.iOS27Point3` from the
    /// targets built with those SDKs.
    public let builder: RegistrationBuilder
    private let clock: @Sendable () -> Date
    private let deviceVersion: @Sendable () -> String

    /// Creates a synchronizer for an app's entitlements.
    public init(
      entitlements: IOSEntitlements, builder: RegistrationBuilder = .iOS26,
      clock: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.init(
        entitlements: entitlements, builder: builder, clock: clock,
        deviceVersion: {
          let os = ProcessInfo.processInfo.operatingSystemVersion
          return "\(os.majorVersion).\(os.minorVersion)"
        })
    }

    /// A synchronizer that reads the device's iOS version from `deviceVersion` (tests: the
    /// shadow SDK's run on Linux, whose `operatingSystemVersion` is the kernel's).
    init(
      entitlements: IOSEntitlements, builder: RegistrationBuilder,
      clock: @escaping @Sendable () -> Date, deviceVersion: @escaping @Sendable () -> String
    ) {
      self.entitlements = entitlements
      self.builder = builder
      self.clock = clock
      self.deviceVersion = deviceVersion
    }

    /// Brings the registration store to the descriptions and reports, per document, what was
    /// added, removed or failed. It never stops at the first failure.
    public func synchronize(_ descriptions: [CredentialDescription]) async
      -> RegistrationSyncReport
    {
      let store = IdentityDocumentProviderRegistrationStore()
      let model = RegistrationStatusModel(status: Self.status(await store.status))
      let access = RegistrationSync.Access(
        canReadRegistrations: model.outcome(of: .readRegistrations) == .proceeds,
        writeRefusal: Self.refusal(model.outcome(of: .addRegistration)))
      let entitlements = self.entitlements
      let builder = self.builder
      let now = clock()
      let version = deviceVersion()
      return await RegistrationSync.run(
        access: access,
        readRegistered: { try await store.registrations.map(\.documentIdentifier) },
        plan: { registered in
          // Planned for the older of the device and the builder's SDK (Comparable, Linux-tested).
          let device = try IOSPlatformCapabilities(version: version)
          let platform = min(device, builder.sdkFloor)
          let plan = try IOSRegistrationPlan.make(
            descriptions: descriptions, currentlyRegistered: registered,
            entitlements: entitlements, platform: platform, now: now)
          return RegistrationChanges(
            additions: plan.additions.map { ($0.documentIdentifier, $0) },
            removals: plan.removals,
            notes: plan.skipped.map { "skipped \($0.id): \($0.reason.rawValue)" }
              + plan.warnings.map { "\($0.id): \($0.kind.rawValue)" })
        },
        add: { registration in
          try await store.addRegistration(try builder.make(registration))
        },
        remove: { id in try await store.removeRegistration(forDocumentIdentifier: id) })
    }

    static func status(_ status: IdentityDocumentProviderRegistrationStore.Status)
      -> RegistrationStatusModel.Status
    {
      switch status {
      case .authorized: .authorized
      case .notAuthorized: .notAuthorized
      case .notDetermined: .notDetermined
      // Any other status (Apple's pages list only these three; whether a `notSupported` case
      // exists is not documented): write nothing, as for a device without document providers.
      default: .notSupported
      }
    }

    static func refusal(_ outcome: RegistrationStatusModel.Outcome) -> String? {
      guard case .fails(let error) = outcome else { return nil }
      return "the registration store is \(error.rawValue)"
    }
  }
#endif
