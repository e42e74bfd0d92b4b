import DCErrors

/// The authorisation state of the iOS registration store as a value, with the transitions and
/// per-operation outcomes Apple's `IdentityDocumentProviderRegistrationStore` shows, so that the
/// Apple bridge and the Linux-tested wallet logic agree on them.
///
/// IdentityDocumentServices: `Status` is `authorized`, `notAuthorized`, `notDetermined` or
/// `notSupported`; the first `addRegistration` prompts and throws when declined; reading
/// `registrations` throws `notAuthorized` until the first successful `addRegistration` (observed
/// by peers), so "nothing registered yet" is never an empty set.
package struct RegistrationStatusModel: Sendable, Hashable {
  /// Mirrors `IdentityDocumentProviderRegistrationStore.Status` (iOS 26.0).
  package enum Status: String, Sendable, Hashable, CaseIterable {
    /// The user allowed the app to register documents.
    case authorized
    /// The user declined, or turned the app off in Settings.
    case notAuthorized
    /// The user has not been asked yet; the next `addRegistration` asks.
    case notDetermined
    /// The device or region does not support document providers; nothing changes that.
    case notSupported
  }

  /// A registration store call.
  package enum Operation: String, Sendable, Hashable, CaseIterable {
    /// `addRegistration(_:)`.
    case addRegistration
    /// `removeRegistration(forDocumentIdentifier:)`.
    case removeRegistration
    /// `registrations`.
    case readRegistrations
  }

  /// What a store call does in the current state.
  package enum Outcome: Sendable, Hashable {
    /// The call runs.
    case proceeds
    /// The OS asks the user first; report the answer with `promptAnswered(granted:)`.
    case promptsUser
    /// The call throws this `RegistrationError` case of Apple's store.
    case fails(StoreError)
  }

  /// Mirrors the `IdentityDocumentProviderRegistrationStore.RegistrationError` cases a state
  /// implies (iOS 26.0).
  package enum StoreError: String, Error, Sendable, Hashable, CaseIterable {
    /// `notAuthorized`.
    case notAuthorized
    /// `notSupported`.
    case notSupported
  }

  /// The current status.
  public private(set) var status: Status

  /// Starts from a status read from the store (`status`).
  package init(status: Status) {
    self.status = status
  }

  /// Starts a fresh install: `notDetermined` where document providers are supported, else
  /// `notSupported`.
  package init(isSupported: Bool) {
    self.status = isSupported ? .notDetermined : .notSupported
  }

  /// What a store call does now.
  package func outcome(of operation: Operation) -> Outcome {
    switch (status, operation) {
    case (.notSupported, _): .fails(.notSupported)
    case (.authorized, _): .proceeds
    case (.notDetermined, .addRegistration): .promptsUser
    // No prompt for reads and removals: before the first authorisation the store has no set to
    // show, and Apple reports that as notAuthorized rather than as an empty list.
    case (.notDetermined, _): .fails(.notAuthorized)
    // A declined prompt is not shown again; only Settings can turn the app back on.
    case (.notAuthorized, _): .fails(.notAuthorized)
    }
  }

  /// Records the user's answer to the first `addRegistration` prompt; ignored in any state other
  /// than `notDetermined`, where no prompt is shown.
  ///
  /// - Returns: whether the status changed.
  @discardableResult
  package mutating func promptAnswered(granted: Bool) -> Bool {
    guard status == .notDetermined else { return false }
    status = granted ? .authorized : .notAuthorized
    return true
  }

  /// Records the user turning the app on or off in Settings; an app that was never asked stays
  /// `notDetermined` until its first prompt, and `notSupported` never changes.
  ///
  /// - Returns: whether the status changed.
  @discardableResult
  package mutating func settingsChanged(enabled: Bool) -> Bool {
    let next: Status
    switch status {
    case .authorized, .notAuthorized: next = enabled ? .authorized : .notAuthorized
    case .notDetermined, .notSupported: next = status
    }
    defer { status = next }
    return next != status
  }
}
