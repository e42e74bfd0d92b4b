// Shadow of Apple's IdentityDocumentServices (test only; see Tests/AppleShadow/README.md):
// registration, requests, responses and errors as
// https://developer.apple.com/documentation/identitydocumentservices documents them.
// Availability as documented; nothing here is available on Mac Catalyst.
public import Foundation

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentregistration
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public protocol IdentityDocumentRegistration: Sendable {
  /// The registration's document identifier.
  var documentIdentifier: String { get }
}

/// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct MobileDocumentRegistration: IdentityDocumentRegistration {
  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/mobiledocumenttype
  public var mobileDocumentType: String
  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/supportedauthoritykeyidentifiers
  public var supportedAuthorityKeyIdentifiers: [Data]
  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/supportedissuerkeyidentifiers
  @available(iOS 27.0, *)
  public var supportedIssuerKeyIdentifiers: [Data] {
    get { issuerKeyIdentifiers }
    set { issuerKeyIdentifiers = newValue }
  }
  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/documentidentifier
  public var documentIdentifier: String
  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/invalidationdate
  public var invalidationDate: Date?

  private var issuerKeyIdentifiers: [Data]

  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/init(mobiledocumenttype:supportedauthoritykeyidentifiers:documentidentifier:invalidationdate:)
  public init(
    mobileDocumentType: String, supportedAuthorityKeyIdentifiers: [Data],
    documentIdentifier: String = UUID().uuidString, invalidationDate: Date? = nil
  ) {
    self.mobileDocumentType = mobileDocumentType
    self.supportedAuthorityKeyIdentifiers = supportedAuthorityKeyIdentifiers
    self.documentIdentifier = documentIdentifier
    self.invalidationDate = invalidationDate
    issuerKeyIdentifiers = []
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/mobiledocumentregistration/init(mobiledocumenttype:supportedissuerkeyidentifiers:supportedauthoritykeyidentifiers:documentidentifier:invalidationdate:)
  @available(iOS 27.0, *)
  public init(
    mobileDocumentType: String, supportedIssuerKeyIdentifiers: [Data],
    supportedAuthorityKeyIdentifiers: [Data], documentIdentifier: String = UUID().uuidString,
    invalidationDate: Date? = nil
  ) {
    self.init(
      mobileDocumentType: mobileDocumentType,
      supportedAuthorityKeyIdentifiers: supportedAuthorityKeyIdentifiers,
      documentIdentifier: documentIdentifier, invalidationDate: invalidationDate)
    issuerKeyIdentifiers = supportedIssuerKeyIdentifiers
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/verifiablecredentialregistration
///
/// Judgement call: Apple's pages imply but do not state a conformance to
/// `IdentityDocumentRegistration` (or to `Sendable`), so neither is declared: the strictest form.
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public struct VerifiableCredentialRegistration {
  /// SD-JWT VC `vct` values.
  public var verifiableCredentialTypes: [String]
  public var supportedIssuerKeyIdentifiers: [Data]
  public var supportedAuthorityKeyIdentifiers: [Data]
  public var documentIdentifier: String
  public var invalidationDate: Date?

  /// https://developer.apple.com/documentation/identitydocumentservices/verifiablecredentialregistration/init(verifiablecredentialtypes:supportedissuerkeyidentifiers:supportedauthoritykeyidentifiers:documentidentifier:invalidationdate:)
  public init(
    verifiableCredentialTypes: [String], supportedIssuerKeyIdentifiers: [Data] = [],
    supportedAuthorityKeyIdentifiers: [Data], documentIdentifier: String = UUID().uuidString,
    invalidationDate: Date? = nil
  ) {
    self.verifiableCredentialTypes = verifiableCredentialTypes
    self.supportedIssuerKeyIdentifiers = supportedIssuerKeyIdentifiers
    self.supportedAuthorityKeyIdentifiers = supportedAuthorityKeyIdentifiers
    self.documentIdentifier = documentIdentifier
    self.invalidationDate = invalidationDate
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore
///
/// Shadow: every store reads and writes `ShadowRegistrationStore.current` (a task-local), as every
/// instance of Apple's reaches the one system store.
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public actor IdentityDocumentProviderRegistrationStore {
  private let backing: ShadowRegistrationStore

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/init()
  public init() { backing = ShadowRegistrationStore.current }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/status-swift.property
  public var status: Status { get async { backing.status } }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/registrations
  public var registrations: [any IdentityDocumentRegistration] {
    get async throws { try backing.read() }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/addregistration(_:)
  public func addRegistration(_ registration: some IdentityDocumentRegistration) async throws {
    try backing.add(registration)
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/removeregistration(fordocumentidentifier:)
  public func removeRegistration(forDocumentIdentifier documentIdentifier: String) async throws {
    try backing.remove(documentIdentifier)
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/status-swift.enum
  ///
  /// Whether a `notSupported` case exists is not documented: it is not declared.
  public enum Status: Equatable, Hashable, Sendable {
    case authorized
    case notAuthorized
    case notDetermined
    /// Shadow only (not Apple API): a status Apple's pages do not list (such as a `notSupported`
    /// case, if it exists). It makes a `switch` that names only the documented cases need a
    /// `default`, as it must against Apple's non-frozen enum, and lets tests drive that branch.
    case shadowUndocumented
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentproviderregistrationstore/registrationerror
  public enum RegistrationError: Error, LocalizedError, Sendable {
    case invalidRequest
    case notAuthorized
    case notSupported
    case unknown
  }
}

/// Shadow only (not Apple API): the system registration store the fake reads and writes, with a
/// log of every call, and failures a test can inject.
@available(iOS 26.0, *)
public final class ShadowRegistrationStore: @unchecked Sendable {
  /// One call the store received.
  public enum Call: Equatable, Sendable {
    case read
    case add(String)
    case remove(String)
  }

  @TaskLocal public static var current = ShadowRegistrationStore()

  private let lock = NSLock()
  private var entries: [String: any IdentityDocumentRegistration] = [:]
  private var order: [String] = []
  private var calls: [Call] = []
  private var authorizedOnce: Bool
  public let status: IdentityDocumentProviderRegistrationStore.Status
  /// Document identifiers whose `addRegistration` throws `unknown`.
  public let failingAdditions: Set<String>
  /// Whether reading the registrations throws `unknown`.
  public let readFails: Bool

  /// A store with `status`; `registered` are there already.
  public init(
    status: IdentityDocumentProviderRegistrationStore.Status = .authorized,
    registered: [any IdentityDocumentRegistration] = [], failingAdditions: Set<String> = [],
    readFails: Bool = false
  ) {
    self.status = status
    self.failingAdditions = failingAdditions
    self.readFails = readFails
    // `authorized` means a registration was added once (the prompt was accepted).
    authorizedOnce = status == .authorized
    for registration in registered {
      entries[registration.documentIdentifier] = registration
      order.append(registration.documentIdentifier)
    }
  }

  /// The registrations, in the order they were first added.
  public var registrations: [any IdentityDocumentRegistration] {
    lock.withLock { order.compactMap { entries[$0] } }
  }

  /// Every call, in order.
  public var log: [Call] { lock.withLock { calls } }

  func read() throws -> [any IdentityDocumentRegistration] {
    try lock.withLock {
      calls.append(.read)
      // Peers observe `notAuthorized` until the first successful addRegistration.
      guard status == .authorized, authorizedOnce else {
        throw IdentityDocumentProviderRegistrationStore.RegistrationError.notAuthorized
      }
      if readFails { throw IdentityDocumentProviderRegistrationStore.RegistrationError.unknown }
      return order.compactMap { entries[$0] }
    }
  }

  func add(_ registration: any IdentityDocumentRegistration) throws {
    try lock.withLock {
      let id = registration.documentIdentifier
      calls.append(.add(id))
      switch status {
      case .authorized, .notDetermined: break
      case .notAuthorized:
        throw IdentityDocumentProviderRegistrationStore.RegistrationError.notAuthorized
      case .shadowUndocumented:
        throw IdentityDocumentProviderRegistrationStore.RegistrationError.notSupported
      }
      if failingAdditions.contains(id) {
        throw IdentityDocumentProviderRegistrationStore.RegistrationError.unknown
      }
      if entries[id] == nil { order.append(id) }
      entries[id] = registration
      authorizedOnce = true
    }
  }

  func remove(_ id: String) throws {
    try lock.withLock {
      calls.append(.remove(id))
      guard status == .authorized else {
        throw IdentityDocumentProviderRegistrationStore.RegistrationError.notAuthorized
      }
      entries[id] = nil
      order.removeAll { $0 == id }
    }
  }
}
