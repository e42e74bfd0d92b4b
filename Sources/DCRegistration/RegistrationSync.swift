/// The changes a registration plan asks of the platform's registration store, in a form that does
/// not depend on the store's types: registrations to add by document identifier, identifiers to
/// remove, and notes (credentials skipped, fields dropped) for the report.
package struct RegistrationChanges<Registration: Sendable>: Sendable {
  /// Registrations to add; each replaces the one with the same document identifier.
  package let additions: [(documentIdentifier: String, registration: Registration)]
  /// Document identifiers to remove.
  package let removals: [String]
  /// What the plan left out or changed, as readable lines.
  package let notes: [String]

  /// Creates changes.
  package init(
    additions: [(documentIdentifier: String, registration: Registration)], removals: [String],
    notes: [String] = []
  ) {
    self.additions = additions
    self.removals = removals
    self.notes = notes
  }
}

/// What a registration sync did, document by document: one failure never hides the others.
public struct RegistrationSyncReport: Sendable, Hashable {
  /// A store call or a step of the sync.
  package enum Step: String, Sendable, Hashable, CaseIterable {
    /// Reading the registered document identifiers.
    case read
    /// Planning the changes.
    case plan
    /// Adding one registration.
    case add
    /// Removing one registration.
    case remove
  }

  /// A step that failed, for a document when it concerns one.
  public struct Failure: Sendable, Hashable, CustomStringConvertible {
    /// The document identifier, nil for a step of the whole sync.
    public let documentIdentifier: String?
    /// The step.
    package let step: Step
    /// Why.
    public let reason: String

    public var description: String {
      "\(step.rawValue)\(documentIdentifier.map { " \($0)" } ?? ""): \(reason)"
    }
  }

  /// Document identifiers added (or replaced), in plan order.
  public fileprivate(set) var added: [String] = []
  /// Document identifiers removed, in plan order.
  public fileprivate(set) var removed: [String] = []
  /// Steps that failed.
  public fileprivate(set) var failures: [Failure] = []
  /// The plan's notes.
  public fileprivate(set) var notes: [String] = []

  /// Whether every step succeeded.
  package var isComplete: Bool { failures.isEmpty }

  fileprivate mutating func fail(_ step: Step, _ id: String?, _ reason: String) {
    failures.append(Failure(documentIdentifier: id, step: step, reason: reason))
  }
}

/// Brings a platform registration store (iOS `IdentityDocumentProviderRegistrationStore`) to a
/// plan, one document at a time, reporting each outcome.
///
/// IdentityDocumentServices: reading `registrations` throws `notAuthorized` until the first
/// successful `addRegistration`, so before that the registered set is the documented empty set,
/// not a failure; `addRegistration` replaces a registration with the same identifier; the first
/// one prompts the user.
package enum RegistrationSync {
  /// What the store's status allows now (from the status model of the store).
  package struct Access: Sendable, Hashable {
    /// Whether `registrations` can be read. False before the first authorisation, when nothing
    /// is registered yet.
    package let canReadRegistrations: Bool
    /// Why writes fail in this status, or nil when they may proceed (the first may prompt).
    package let writeRefusal: String?

    /// Creates an access description.
    package init(canReadRegistrations: Bool, writeRefusal: String?) {
      self.canReadRegistrations = canReadRegistrations
      self.writeRefusal = writeRefusal
    }
  }

  /// Reads what is registered, plans, then removes and adds document by document.
  ///
  /// - Parameters:
  ///   - access: what the store's status allows.
  ///   - readRegistered: the store's registered document identifiers.
  ///   - plan: the changes for the registered set (the SDK's pure planner).
  ///   - add: adds one registration.
  ///   - remove: removes one registration by document identifier.
  /// - Returns: every addition and removal that succeeded or failed. When writes are refused,
  ///   every planned addition is reported as failed and the store is not called. When reading
  ///   fails, additions still run (they replace in place) but nothing is removed, since the stale
  ///   set is unknown.
  package static func run<Registration: Sendable>(
    access: Access,
    readRegistered: @Sendable () async throws -> [String],
    plan: @Sendable (Set<String>) throws -> RegistrationChanges<Registration>,
    add: @Sendable (Registration) async throws -> Void,
    remove: @Sendable (String) async throws -> Void
  ) async -> RegistrationSyncReport {
    var report = RegistrationSyncReport()
    var registered: Set<String> = []
    var knowsRegistered = true
    if access.canReadRegistrations && access.writeRefusal == nil {
      do {
        registered = Set(try await readRegistered())
      } catch {
        knowsRegistered = false
        report.fail(.read, nil, "\(error)")
      }
    }
    let changes: RegistrationChanges<Registration>
    do {
      changes = try plan(registered)
    } catch {
      report.fail(.plan, nil, "\(error)")
      return report
    }
    report.notes = changes.notes
    if let refusal = access.writeRefusal {
      for addition in changes.additions {
        report.fail(.add, addition.documentIdentifier, "not attempted: \(refusal)")
      }
      return report
    }
    await apply(changes, removing: knowsRegistered, add: add, remove: remove, into: &report)
    return report
  }

  /// Runs the planned removals (only when the registered set is known), then the additions,
  /// reporting each one's success or failure.
  private static func apply<Registration: Sendable>(
    _ changes: RegistrationChanges<Registration>, removing: Bool,
    add: @Sendable (Registration) async throws -> Void,
    remove: @Sendable (String) async throws -> Void,
    into report: inout RegistrationSyncReport
  ) async {
    if removing {
      for id in changes.removals {
        do {
          try await remove(id)
          report.removed.append(id)
        } catch {
          report.fail(.remove, id, "\(error)")
        }
      }
    }
    for addition in changes.additions {
      do {
        try await add(addition.registration)
        report.added.append(addition.documentIdentifier)
      } catch {
        report.fail(.add, addition.documentIdentifier, "\(error)")
      }
    }
  }
}
