import DCAPI
import DCIdentityDocumentServicesBridge
import DCWallet
import Foundation
import LocalAuthentication
import Testing

/// `LocalAuthenticationAuthenticator` over the shadow `LAContext` that succeeds, fails or is
/// cancelled.
@Suite("Apple shadow: LocalAuthentication authenticator")
struct LocalAuthenticationTests {
  static let holder = HolderAuthenticationContext(
    protocolIdentifier: "org-iso-mdoc",
    requester: .unverified(origin: try? WebOrigin("https://verifier.example")),
    requesterAuthentication: .absent,
    credentials: [.init(credentialID: "mdl", format: "mso_mdoc", types: ["org.iso.18013.5.1.mDL"])])

  static let authenticator = LocalAuthenticationAuthenticator(policy: .deviceOwnerAuthentication) {
    "Share \($0.credentials.count) document(s) with \($0.requester.origin?.serialized ?? "?")"
  }

  @Test("Success authenticates, with the app's prompt and policy")
  func succeeds() async {
    let prompts = ShadowLocalAuthentication.Prompts()
    let outcome = await ShadowLocalAuthentication.$prompts.withValue(prompts) {
      await Self.authenticator.authenticate(Self.holder)
    }
    #expect(outcome == .authenticated)
    #expect(
      prompts.all.map(\.localizedReason) == ["Share 1 document(s) with https://verifier.example"])
    #expect(prompts.all.map(\.policy) == [.deviceOwnerAuthentication])
  }

  @Test(
    "A prompt dismissed by the holder, the app or the system is a cancel",
    arguments: [LAError.Code.userCancel, .appCancel, .systemCancel])
  func cancelled(code: LAError.Code) async {
    let outcome = await ShadowLocalAuthentication.$behaviour.withValue(.fail(code)) {
      await Self.authenticator.authenticate(Self.holder)
    }
    #expect(outcome == .cancelled)
  }

  @Test(
    "Any other outcome is a failure",
    arguments: [
      ShadowLocalAuthentication.Behaviour.fail(.authenticationFailed), .fail(.biometryLockout),
      .fail(.userFallback), .returnFalse, .throwOther(CocoaError(.featureUnsupported)),
    ])
  func fails(behaviour: ShadowLocalAuthentication.Behaviour) async {
    let outcome = await ShadowLocalAuthentication.$behaviour.withValue(behaviour) {
      await Self.authenticator.authenticate(Self.holder)
    }
    guard case .failed = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
  }
}
