public import Foundation

/// Remembers the DPoP proofs a server has accepted, so that a replayed proof is refused
/// (RFC 9449 §11.1). A server with several instances provides a shared implementation.
public protocol DPoPReplayStore: Sendable {
  /// Records `key` (the proof key's thumbprint and the `jti`) until `expiry`; returns false when
  /// it is already recorded and not yet expired, that is, when the proof is a replay.
  ///
  /// The check and the insertion must be one atomic step.
  func insertIfAbsent(_ key: String, expiry: Date, now: Date) -> Bool
}

/// An in-memory ``DPoPReplayStore`` holding at most `capacity` entries.
///
/// Entries expire when a proof with their `iat` would be refused as too old anyway, so only the
/// accepted window needs remembering. When the store is full of unexpired entries it evicts the
/// oldest one: a proof older than the evicted one could then be replayed, so size `capacity`
/// above the number of proofs the server accepts within the window.
package final class InMemoryDPoPReplayStore: DPoPReplayStore, @unchecked Sendable {
  private let lock = NSLock()
  private var expiries: [String: Date] = [:]
  private var order: [String] = []
  private var orderStart = 0

  /// The most entries kept.
  package let capacity: Int

  /// A store for at most `capacity` entries (at least 1).
  package init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

  /// The number of entries held, expired or not.
  package var count: Int { lock.withLock { expiries.count } }

  /// Records `key` until `expiry` unless it is held and unexpired; purges expired entries and
  /// then evicts the oldest when full.
  package func insertIfAbsent(_ key: String, expiry: Date, now: Date) -> Bool {
    lock.withLock {
      if let existing = expiries[key], existing > now { return false }
      if expiries.count >= capacity { purge(now: now) }
      while expiries.count >= capacity, orderStart < order.count {
        expiries[order[orderStart]] = nil
        orderStart += 1
      }
      if expiries.updateValue(expiry, forKey: key) == nil { order.append(key) }
      compactOrder()
      return true
    }
  }

  /// Drops expired entries.
  private func purge(now: Date) {
    expiries = expiries.filter { $0.value > now }
    order = order[orderStart...].filter { expiries[$0] != nil }
    orderStart = 0
  }

  /// Keeps `order` from growing without bound as entries are evicted from its front.
  private func compactOrder() {
    if orderStart > capacity {
      order = order[orderStart...].filter { expiries[$0] != nil }
      orderStart = 0
    }
  }
}
