import DCWallet
import SwiftUI

/// The credentials in the shared wallet, and the last registration report.
struct CredentialListView: View {
  @State private var credentials: [StoredCredential] = []
  @State private var report: [String] = []
  @State private var problem: String?

  var body: some View {
    List {
      Section("Documents") {
        ForEach(credentials, id: \.id) { credential in
          VStack(alignment: .leading) {
            Text(credential.display.title)
            Text("\(credential.format): \(credential.type)").font(.caption)
          }
        }
      }
      Section("Registration with iOS") {
        ForEach(report, id: \.self) { Text($0).font(.caption) }
        Button("Update registrations") { Task { await refresh() } }
      }
      if let problem { Text(problem).foregroundStyle(.red) }
    }
    .task { await refresh() }
  }

  private func refresh() async {
    do {
      let wallet = try WalletShared.open()
      credentials = try await wallet.credentials()
      if #available(iOS 26.0, *) {
        // Registers every presentable credential; the first time, iOS asks the holder.
        report = await Registration.sync(wallet)
      } else {
        report = ["Answering websites needs iOS 26"]
      }
    } catch {
      problem = "\(error)"
    }
  }
}
