import DCAPI
import DCIdentityDocumentServicesBridge
import DCIdentityDocumentServicesBridge27
import DCMdoc
import DCWallet
import DCX509
import IdentityDocumentServicesUI
import SwiftUI

/// The consent screen of an `org-iso-mdoc` request (iOS 26.0): who asks, what, and whether the
/// reader keeps it; the holder picks what to share, then Face ID, then the response.
@available(iOS 26.0, *)
struct MobileDocumentConsentView: View {
  let context: ISO18013MobileDocumentRequestContext
  @State private var adapter: MobileDocumentRequestAdapter?
  @State private var wallet: Wallet?
  @State private var documents: [OfferableDocument] = []
  @State private var trust: [ChainTrust] = []
  @State private var disclosed: Set<MobileDocumentRequest.ShownElement> = []
  @State private var status: String?

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
              Label(
                chain.leaf.subject.commonName ?? "Verified reader", systemImage: "checkmark.seal")
            case .untrusted(let reason):
              Label("Unverified reader: \(reason)", systemImage: "exclamationmark.triangle")
            }
          }
        }
        let shown = adapter.request.shownElements
        Section("Shared") {
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
      }
      if let status { Text(status).foregroundStyle(.red) }
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
      // Reads the request's issuer key identifiers on iOS 27.0 and later.
      let adapter = try MobileDocumentRequestAdapter.iOS27(context: context)
      let wallet = try WalletShared.open()
      self.adapter = adapter
      self.wallet = wallet
      documents = try await adapter.offerableDocuments(in: wallet)
      trust = try await adapter.readerTrust(in: wallet)
      disclosed = Set(adapter.request.shownElements.keys)
    } catch {
      status = "\(error)"
      context.cancel()  // no origin, or no wallet: nothing can be answered
    }
  }

  private func share() async {
    guard let adapter, let wallet else { return }
    do {
      // For each presentment request, the first set the wallet can answer, with the first
      // candidate for each document.
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
      await WalletShared.current?.suspend()
    } catch let error as WalletError where error.code == .authenticationCancelled {
      // Nothing was sent and the request has ended; the website may ask again.
      status = "Cancelled"
      await WalletShared.current?.suspend()
    } catch {
      status = "\(error)"
      await WalletShared.current?.suspend()
    }
  }
}
