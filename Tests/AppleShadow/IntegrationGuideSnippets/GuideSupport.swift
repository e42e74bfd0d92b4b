// What the guide's snippets take from the app around them (hand-written, not extracted).
import SwiftUI

/// The app's main view, which the guide does not show.
struct ContentView: View {
  var body: some View { EmptyView() }
}
