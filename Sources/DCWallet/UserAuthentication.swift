import DCQL

/// When the holder must authenticate (biometrics or passcode) before the wallet shares anything.
///
/// The app sets it; the request UI (another process on a phone) reads it from the shared store.
public enum UserAuthenticationPolicy: String, Sendable, Hashable, CaseIterable {
  /// Before every presentation.
  case always
  /// Before a presentation that uses a device key (every presentation today: mdoc and SD-JWT
  /// presentations are all device-signed; a future presentation without holder binding skips it).
  case whenKeyUsed = "when-key-used"
  /// Never (a development or kiosk setting).
  case never

  /// The store setting that holds the policy.
  package static let settingKey = "user-authentication"

  /// The default when nothing was set: protect every signature.
  public static let `default` = UserAuthenticationPolicy.whenKeyUsed
}

/// The outcome of asking the holder to authenticate.
public enum AuthenticationOutcome: Sendable, Hashable {
  /// The holder authenticated.
  case authenticated
  /// The holder cancelled (or the system did): nothing is sent; the request stays open.
  case cancelled
  /// Authentication failed or is unavailable, with the reason.
  case failed(String)
}

/// What the holder is asked to authenticate for, as values: the app words the prompt from it
/// (the library composes no sentence).
public struct HolderAuthenticationContext: Sendable, Hashable {
  /// A credential the response will present.
  public struct SharedCredential: Sendable, Hashable {
    /// The wallet id of the credential.
    public let credentialID: String
    /// `mso_mdoc` or `dc+sd-jwt` (the format of the doc request or Credential Query it answers).
    public let format: String
    /// The requested docType or accepted `vct` values of what it answers.
    public let types: [String]

    /// Creates a shared credential.
    public init(credentialID: String, format: String, types: [String]) {
      self.credentialID = credentialID
      self.format = format
      self.types = types
    }
  }

  /// The protocol being answered.
  public let protocolIdentifier: String
  /// Who asks: a verified name only through a trusted chain, else the platform's origin.
  public let requester: Requester
  /// How the requester was authenticated.
  public let requesterAuthentication: RequesterAuthentication
  /// The credentials the response will present, in request order.
  public let credentials: [SharedCredential]
  /// The client identifier of a request from an authorization request URI (OpenID4VP redirect
  /// flows), authenticated or not: with no origin, it is what the prompt can name when the
  /// requester is unverified. Nil for every other request.
  public let clientID: String?

  /// Creates a context.
  public init(
    protocolIdentifier: String, requester: Requester,
    requesterAuthentication: RequesterAuthentication, credentials: [SharedCredential],
    clientID: String? = nil
  ) {
    self.protocolIdentifier = protocolIdentifier
    self.requester = requester
    self.requesterAuthentication = requesterAuthentication
    self.credentials = credentials
    self.clientID = clientID
  }
}

/// Asks the holder to authenticate: LocalAuthentication on Apple platforms, an injected
/// implementation on Linux and in tests.
public protocol UserAuthenticator: Sendable {
  /// Shows the prompt for what is about to be shared; the implementation words it.
  func authenticate(_ context: HolderAuthenticationContext) async -> AuthenticationOutcome
}

/// An authenticator for contexts without a person to ask (the CLI, servers): it always says yes.
/// A command line's consent is the command itself (it may ask on the terminal before it calls
/// the wallet).
public struct ImplicitAuthenticator: UserAuthenticator {
  /// Creates the authenticator.
  public init() {}

  public func authenticate(_ context: HolderAuthenticationContext) async -> AuthenticationOutcome {
    .authenticated
  }
}

/// The policy in force and, when the stored setting could not be used, why.
package struct UserAuthenticationPolicyStatus: Sendable, Hashable {
  /// The policy that applies.
  package let policy: UserAuthenticationPolicy
  /// Set when the stored setting was refused (its authentication tag is missing or wrong, or the
  /// value is unknown): the policy is then the strictest, `.always`.
  package let problem: StoreProblem?
}

extension Wallet {
  /// The policy in force: the authenticated store setting, else the default. A setting whose
  /// row was written without the key-encryption key is refused and `.always` applies (see
  /// `userAuthenticationPolicyStatus()`).
  public func userAuthenticationPolicy() async throws(WalletError) -> UserAuthenticationPolicy {
    try await userAuthenticationPolicyStatus().policy
  }

  /// The policy in force, with the reason when the stored setting was refused.
  package func userAuthenticationPolicyStatus() async throws(WalletError)
    -> UserAuthenticationPolicyStatus
  {
    let record: SettingRecord?
    do {
      record = try await store.settingRecord(UserAuthenticationPolicy.settingKey)
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
    guard let record else { return UserAuthenticationPolicyStatus(policy: .default, problem: nil) }
    func refused(_ code: WalletStoreErrorCode, _ why: String) -> UserAuthenticationPolicyStatus {
      UserAuthenticationPolicyStatus(
        policy: .always,
        problem: StoreProblem(
          record: .setting(key: record.key),
          error: WalletStoreError(
            code, "the holder authentication policy \(why); authentication is always required")))
    }
    guard settingsAuthentication.verifies(record) else {
      return refused(
        .unauthenticatedRecord,
        record.authenticationTag == nil
          ? "has no authentication tag (set before this version, or written directly)"
          : "was changed without the wallet's key")
    }
    guard let policy = UserAuthenticationPolicy(rawValue: record.value) else {
      return refused(.corruptRecord, "has an unknown value")
    }
    return UserAuthenticationPolicyStatus(policy: policy, problem: nil)
  }

  /// Sets the policy for the app and its request UI; the row is authenticated.
  public func setUserAuthenticationPolicy(_ policy: UserAuthenticationPolicy)
    async throws(WalletError)
  {
    let key = UserAuthenticationPolicy.settingKey
    do {
      try await store.setSetting(
        SettingRecord(
          key: key, value: policy.rawValue,
          authenticationTag: settingsAuthentication.tag(forSetting: key, value: policy.rawValue)))
    } catch {
      throw WalletError(.storage, error.reason, underlying: error)
    }
  }

  /// Applies the policy before any signature: throws `authenticationCancelled` when the holder
  /// cancels (nothing has been signed or sent, and the same request may be retried) and `refused`
  /// when authentication fails.
  func authenticateHolder(usesDeviceKey: Bool, context: HolderAuthenticationContext)
    async throws(WalletError)
  {
    let policy = try await userAuthenticationPolicy()
    switch policy {
    case .never: return
    case .whenKeyUsed where !usesDeviceKey: return
    case .always, .whenKeyUsed: break
    }
    switch await authenticator.authenticate(context) {
    case .authenticated: return
    case .cancelled:
      throw WalletError(
        .authenticationCancelled, "the holder cancelled authentication; nothing was sent")
    case .failed(let why): throw WalletError(.refused, "holder authentication failed: \(why)")
    }
  }
}

extension PresentationRequest {
  /// The holder-authentication context for a consent: the requester and the credentials the
  /// consent presents, in request order.
  func holderAuthenticationContext(for consent: PresentationConsent)
    -> HolderAuthenticationContext
  {
    var shared: [HolderAuthenticationContext.SharedCredential] = []
    switch consent {
    case .mdoc(let mdoc):
      for item in mdoc.documents.sorted(by: { $0.docRequestIndex < $1.docRequestIndex }) {
        let document =
          documents.indices.contains(item.docRequestIndex)
          ? documents[item.docRequestIndex] : nil
        shared.append(
          .init(
            credentialID: item.credentialID, format: document?.format ?? DCQLFormat.msoMdoc,
            types: document?.types ?? []))
      }
    case .openID4VP(let openID4VP):
      for document in documents {
        for item in openID4VP.selections[document.id] ?? [] {
          shared.append(
            .init(credentialID: item.credentialID, format: document.format, types: document.types))
        }
      }
    }
    return HolderAuthenticationContext(
      protocolIdentifier: protocolIdentifier, requester: requester,
      requesterAuthentication: requesterAuthentication, credentials: shared,
      clientID: redirectClientID)
  }
}
