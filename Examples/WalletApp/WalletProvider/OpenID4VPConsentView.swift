import DCAPI
import DCIdentityDocumentServicesBridge
import DCIdentityDocumentServicesBridge27_3
import DCWallet
import IdentityDocumentServicesUI
import SwiftUI

/// The consent screen of an OpenID4VP request (iOS 27.3): the wallet's own resolution of the raw
/// request, from which the response is built.
@available(iOS 27.3, *)
struct OpenID4VPConsentView: View {
  let context: OpenID4VPRawRequestContext
  @State private var state:
    (OpenID4VPRequestAdapter, Wallet, PresentationRequest, PresentationConsent)?
  @State private var status: String?

  var body: some View {
    List {
      if case (_, _, let request, let consent)? = state {
        let screen = request.screen(for: consent)
        Section("Requested by") {
          Text(
            screen.requester.verifiedName
              ?? "\(screen.origin?.serialized ?? "A website") (unverified)")
        }
        Section("Shared") {
          ForEach(screen.documents, id: \.id) {
            Text("\($0.format): \($0.types.joined(separator: ", "))")
          }
        }
      }
      if let status { Text(status).foregroundStyle(.red) }
      Button("Share") { Task { await share() } }
      Button("Cancel", role: .cancel) { state?.0.cancel() ?? context.cancel() }
    }
    .task { await load() }
  }

  private func load() async {
    do {
      let adapter = try OpenID4VPRequestAdapter(context: context)
      let wallet = try WalletShared.open()
      let request = try await adapter.resolve(with: wallet)
      state = (adapter, wallet, request, try request.proposedConsent())
    } catch {
      status = "\(error)"
    }
  }

  private func share() async {
    guard case (let adapter, let wallet, let request, let consent)? = state else { return }
    do {
      try await adapter.respond(to: request, consent: consent, with: wallet)
    } catch {
      status = "\(error)"
    }
    await WalletShared.current?.suspend()
  }
}
