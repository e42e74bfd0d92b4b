// Generated from Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md by Tests/AppleShadow/extract-guide.sh: every Swift
// snippet, in order, in one file (later snippets use the imports of earlier ones, as the
// guide reads). Do not edit: change the guide and run the script. Not formatted: the
// snippets keep the guide's layout.
// swift-format-ignore-file
import AppleShadowFoundation  // String(localized:), an Apple-only Foundation member

// MARK: snippet 1
import DCWallet
import DCIdentityDocumentServicesBridge

@MainActor
enum WalletShared {
  static let container = SharedContainer(
    appGroup: "group.com.example.wallet",
    keychainAccessGroup: "ABCDE12345.com.example.wallet.shared")  // team prefix + shared id

  /// Opened once per process, so that `suspend()` reaches every connection.
  private(set) static var current: SharedWallet?

  static func open() throws -> Wallet {
    if let current { return current.wallet }
    let shared = try container.open(
      authenticator: LocalAuthenticationAuthenticator { context in
        let who =
          context.requester.verifiedName ?? context.requester.origin?.serialized ?? "a reader nearby"
        return String(localized: "Share \(context.credentials.count) document(s) with \(who)")
      })
    current = shared
    return shared.wallet
  }
}

// MARK: snippet 2
import DCIdentityDocumentServicesBridge
import SwiftUI
import UIKit

// @main
struct WalletApp: App {
  @Environment(\.scenePhase) private var scenePhase

  var body: some Scene {
    WindowGroup { ContentView() }
      .onChange(of: scenePhase) { _, phase in
        guard let shared = WalletShared.current else { return }
        switch phase {
        case .background:
          // Finish before iOS suspends the process.
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

// MARK: snippet 3
import DCRegistration  // IOSEntitlements
import DCWallet
import DCAPI
import DCIdentityDocumentServicesBridge

import DCIdentityDocumentServicesBridge27_3  // built with the iOS 27.3 SDK; else use .iOS26 / .iOS27

@available(iOS 26.0, *)
enum Registration {
  static let synchronizer = RegistrationSynchronizer(
    entitlements: IOSEntitlements(
      mobileDocumentTypes: ["org.iso.18013.5.1.mDL", "eu.europa.ec.eudi.pid.1"],
      verifiableCredentialTypes: ["urn:eudi:pid:1"]),
    builder: .iOS27Point3)

  static func sync(_ wallet: Wallet) async {
    // One description per stored, unexpired credential: display, claim values (comparable
    // values only), issuer AKIs and the validity end as the invalidation date.
    let descriptions = (try? await wallet.registrationDescriptions()) ?? []
    let report = await synchronizer.synchronize(descriptions)
    for failure in report.failures { print("registration:", failure) }
    for note in report.notes { print("registration:", note) }
  }
}

// MARK: snippet 4
import DCWallet
import DCAPI
import ExtensionKit
import DCIdentityDocumentServicesBridge
import DCIdentityDocumentServicesBridge27  // MobileDocumentRequestAdapter.iOS27(context:)
import DCIdentityDocumentServicesBridge27_3  // OpenID4VPRequestAdapter
import IdentityDocumentServicesUI
import DCMdoc
import SwiftUI
import DCX509  // the reader certificate's subject on the consent screen

/// The provider for an extension that deploys at iOS 26.0: its body names iOS 26.0 scene types
/// only, so it runs on every iOS the extension installs on (no OpenID4VP before iOS 27.3).
@available(iOS 26.0, *)
struct WalletProvider: IdentityDocumentProvider {
  var body: some IdentityDocumentRequestScene {
    ISO18013MobileDocumentRequestScene { context in
      MobileDocumentConsentView(context: context)
    }
  }

  func performRegistrationUpdates() async {
    guard let wallet = try? WalletShared.open() else { return }
    await Registration.sync(wallet)
  }
}

/// The provider for an extension that deploys at iOS 27.3: both scenes, with no `#available`
/// inside `body` (two scenes: a 3-scene `buildBlock` is not documented).
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
    await Registration.sync(wallet)
  }
}

// One `@main` per extension build, chosen by its deployment target: set the Active Compilation
// Condition IDS_PROVIDER_IOS27_3 exactly when the extension target deploys at iOS 27.3.
#if IDS_PROVIDER_IOS27_3
// @main
extension WalletProvider27_3 {}
#else
// @main
extension WalletProvider {}
#endif

// MARK: snippet 5
@available(iOS 26.0, *)
struct MobileDocumentConsentView: View {
  let context: ISO18013MobileDocumentRequestContext
  @State private var adapter: MobileDocumentRequestAdapter?
  @State private var wallet: Wallet?
  @State private var documents: [OfferableDocument] = []
  @State private var trust: [ChainTrust] = []
  @State private var disclosed: Set<MobileDocumentRequest.ShownElement> = []
  @State private var problem: String?

  var body: some View {
    List {
      if let adapter {
        Section("Requested by") {
          Text(adapter.origin.serialized)
          if trust.isEmpty {
            Label("Reader not identified", systemImage: "questionmark.circle")
          }
          ForEach(trust.indices, id: \.self) { index in
            switch trust[index] {
            case .trusted(let chain):
              Label(chain.leaf.subject.commonName ?? "Verified reader", systemImage: "checkmark.seal")
            case .untrusted(let reason):
              Label("Unverified reader: \(reason)", systemImage: "exclamationmark.triangle")
            }
          }
        }
        let shown = adapter.request.shownElements
        ForEach(shown.keys.sorted { $0.description < $1.description }, id: \.self) { element in
          Toggle(isOn: binding(element)) {
            VStack(alignment: .leading) {
              Text(element.element)
              Text(element.documentType).font(.caption)
              if shown[element] == true {
                Text("Will be stored by the reader").font(.caption).foregroundStyle(.orange)
              }
            }
          }
        }
      }
      if let problem { Text(problem).foregroundStyle(.red) }
      Button("Share") { Task { await share() } }
      Button("Cancel", role: .cancel) { adapter?.cancel() }
    }
    .task { await load() }
  }

  private func binding(_ element: MobileDocumentRequest.ShownElement) -> Binding<Bool> {
    Binding(
      get: { disclosed.contains(element) },
      set: { if $0 { disclosed.insert(element) } else { disclosed.remove(element) } })
  }

  private func load() async {
    do {
      // With the iOS 26 SDK only: `try MobileDocumentRequestAdapter(context: context)`.
      let adapter = try MobileDocumentRequestAdapter.iOS27(context: context)
      let wallet = try WalletShared.open()
      self.adapter = adapter
      self.wallet = wallet
      documents = try await adapter.offerableDocuments(in: wallet)
      trust = try await adapter.readerTrust(in: wallet)
      disclosed = Set(adapter.request.shownElements.keys)
    } catch {
      problem = "\(error)"
      context.cancel()  // no origin, or no wallet: nothing can be answered
    }
  }

  private func share() async {
    guard let adapter, let wallet else { return }
    do {
      // One choice per presentment request the holder answers: here the first answerable set
      // and its first candidate documents; a real screen lets the holder pick.
      var choices: [PresentmentChoice] = []
      for (index, sets) in adapter.request.answerableSets(documents).enumerated() {
        guard let set = sets.first else { continue }
        let firstCandidates = set.candidates.compactMap(\.first)
        guard firstCandidates.count == set.candidates.count else { continue }
        choices.append(
          PresentmentChoice(
            presentmentIndex: index, setIndex: set.setIndex, documentIDs: firstCandidates))
      }
      let selection = try MobileDocumentSelection(
        request: adapter.request, choices: choices, documents: documents, disclosing: disclosed)
      try await adapter.respond(with: wallet, selection: selection)
    } catch let error as WalletError where error.code == .authenticationCancelled {
      // The holder cancelled Face ID: nothing was sent and the request has ended (`cancel()`);
      // the website may ask again.
      problem = "Cancelled"
    } catch {
      problem = "\(error)"
    }
  }
}

// MARK: snippet 6
@available(iOS 27.3, *)
struct OpenID4VPConsentView: View {
  let context: OpenID4VPRawRequestContext
  @State private var state: (OpenID4VPRequestAdapter, Wallet, PresentationRequest, PresentationConsent)?
  @State private var problem: String?

  var body: some View {
    List {
      if case let (_, _, request, consent)? = state {
        // Who asks and its authentication, each Credential Query and claim, as values.
        let screen = request.screen(for: consent)
        Text(screen.requester.verifiedName ?? "\(screen.origin?.serialized ?? "A reader nearby") (unverified)")
        ForEach(screen.documents, id: \.id) { Text("\($0.format): \($0.types.joined(separator: ", "))") }
      }
      if let problem { Text(problem).foregroundStyle(.red) }
      Button("Share") { Task { await share() } }
      Button("Cancel", role: .cancel) { state?.0.cancel() ?? context.cancel() }
    }
    .task {
      do {
        let adapter = try OpenID4VPRequestAdapter(context: context)
        let wallet = try WalletShared.open()
        let request = try await adapter.resolve(with: wallet)
        state = (adapter, wallet, request, try request.proposedConsent())
      } catch {
        problem = "\(error)"
      }
    }
  }

  private func share() async {
    guard case let (adapter, wallet, request, consent)? = state else { return }
    do {
      try await adapter.respond(to: request, consent: consent, with: wallet)
    } catch {
      problem = "\(error)"
    }
  }
}
