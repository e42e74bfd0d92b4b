import DCTestSupport
import Testing

/// How an interop test behaves when its Python peers are missing (Tests/TestSupport).
@Suite("Interop peer policy")
struct InteropPolicyTests {
  @Test("A missing peer skips the test locally and runs (to fail) when CI requires it")
  func skipOrFail() throws {
    #expect(PythonPeer.shouldRun(installed: true, required: false))
    #expect(PythonPeer.shouldRun(installed: true, required: true))
    #expect(!PythonPeer.shouldRun(installed: false, required: false))
    #expect(PythonPeer.shouldRun(installed: false, required: true))
    // What runs then fails: the check every interop test makes before using a peer.
    let error = #expect(throws: PythonPeer.Failure.self) {
      try PythonPeer.require("x", installed: false, required: true)
    }
    #expect(error?.description.contains("DCWALLET_REQUIRE_INTEROP=1") == true)
    #expect(throws: PythonPeer.Failure.self) {
      try PythonPeer.require("x", installed: false, required: false)
    }
    try PythonPeer.require("x", installed: true, required: true)
  }
}
