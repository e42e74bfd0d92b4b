public import Foundation

/// How a presentation ended.
public enum ActivityOutcome: String, Sendable, Hashable, CaseIterable {
  /// The user consented and a response was sent.
  case shared
  /// The user declined, or policy refused the request.
  case refused
  /// The request could not be answered (malformed, untrusted, no matching credential).
  case failed
}

/// An entry to add to the activity log: what was shared, with whom, when.
package struct NewActivity: Sendable, Hashable {
  /// When it happened (millisecond precision).
  package var timestamp: Date
  /// The DC API protocol identifier (`org-iso-mdoc`, `openid4vp-v1-signed`, ...).
  package var protocolIdentifier: String
  /// The web origin the request came from, if any.
  package var origin: String?
  /// The reader or verifier as identified by its certificate or client identifier, if any.
  package var relyingParty: String?
  /// How it ended.
  package var outcome: ActivityOutcome
  /// The identifiers of the credentials involved.
  package var credentialIDs: [String]
  /// The elements or claims disclosed (`"org.iso.18013.5.1/family_name"`); empty unless shared.
  package var sharedItems: [String]
  /// A free-form note (a refusal reason, an error).
  package var detail: String

  /// Creates an activity entry.
  package init(
    timestamp: Date = Date(), protocolIdentifier: String, origin: String? = nil,
    relyingParty: String? = nil, outcome: ActivityOutcome, credentialIDs: [String] = [],
    sharedItems: [String] = [], detail: String = ""
  ) {
    self.timestamp = StoreTime.normalized(timestamp)
    self.protocolIdentifier = protocolIdentifier
    self.origin = origin
    self.relyingParty = relyingParty
    self.outcome = outcome
    self.credentialIDs = credentialIDs
    self.sharedItems = sharedItems
    self.detail = detail
  }
}

/// An entry of the activity log as stored.
public struct ActivityRecord: Sendable, Hashable {
  /// The entry's identifier, increasing in insertion order.
  public let id: Int64
  /// When it happened (millisecond precision).
  public let timestamp: Date
  /// The DC API protocol identifier.
  public let protocolIdentifier: String
  /// The web origin the request came from, if any.
  public let origin: String?
  /// The reader or verifier, if any.
  public let relyingParty: String?
  /// How it ended.
  public let outcome: ActivityOutcome
  /// The identifiers of the credentials involved.
  public let credentialIDs: [String]
  /// The elements or claims disclosed.
  public let sharedItems: [String]
  /// A free-form note.
  public let detail: String

  init(id: Int64, _ entry: NewActivity) {
    self.id = id
    self.timestamp = entry.timestamp
    self.protocolIdentifier = entry.protocolIdentifier
    self.origin = entry.origin
    self.relyingParty = entry.relyingParty
    self.outcome = entry.outcome
    self.credentialIDs = entry.credentialIDs
    self.sharedItems = entry.sharedItems
    self.detail = entry.detail
  }
}
