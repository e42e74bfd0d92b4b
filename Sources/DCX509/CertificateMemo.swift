import DCErrors
import Foundation

/// A bounded, process-wide memo of certificates already parsed, keyed by their whole DER
/// encoding: a reader or document signer that presents the same certificate again (every
/// request of one reader, every mdoc of one issuer) is parsed, and its public key imported,
/// once.
///
/// A certificate is a pure function of its bytes (``Certificate/init(derEncoded:)`` keeps them
/// and reads nothing else), so the memo returns exactly what parsing would. Bytes that do not
/// parse are never kept: each attempt parses them again and throws the same error. Nothing
/// about trust is kept: chains are validated by the caller each time.
package final class CertificateMemo: @unchecked Sendable {
  /// The memo the library's chain readers share.
  package static let shared = CertificateMemo(capacity: 32, maximumDERByteCount: 16 * 1024)

  /// At most this many certificates are kept; the oldest is dropped first.
  package let capacity: Int
  /// Certificates longer than this are parsed and returned but not kept, so the memo holds at
  /// most `capacity × maximumDERByteCount` bytes of DER.
  package let maximumDERByteCount: Int

  // `Synchronization.Mutex` needs macOS 15 / iOS 18, above this package's platforms: the two
  // stored properties below are read and written only while `lock` is held.
  private let lock = NSLock()
  private var certificates: [[UInt8]: Certificate] = [:]
  /// DER keys in insertion order, oldest first.
  private var order: [[UInt8]] = []

  /// A memo keeping at most `capacity` certificates of at most `maximumDERByteCount` bytes each.
  package init(capacity: Int, maximumDERByteCount: Int) {
    self.capacity = max(0, capacity)
    self.maximumDERByteCount = max(0, maximumDERByteCount)
  }

  /// The certificate encoded by `der`: the kept one, or ``Certificate/init(derEncoded:)``'s
  /// result (kept when it parses and fits), with its errors.
  package func certificate(derEncoded der: [UInt8]) throws(CertificateError) -> Certificate {
    let cacheable = capacity > 0 && der.count <= maximumDERByteCount
    if cacheable, let kept = lock.withLock({ certificates[der] }) { return kept }
    let certificate = try Certificate(derEncoded: der)
    guard cacheable else { return certificate }
    lock.withLock {
      guard certificates[der] == nil else { return }
      if order.count >= capacity {
        let oldest = order.removeFirst()
        certificates[oldest] = nil
      }
      certificates[der] = certificate
      order.append(der)
    }
    return certificate
  }

  /// How many certificates are kept now.
  package var count: Int { lock.withLock { certificates.count } }

  /// Drops every kept certificate.
  package func removeAll() {
    lock.withLock {
      certificates = [:]
      order = []
    }
  }
}
