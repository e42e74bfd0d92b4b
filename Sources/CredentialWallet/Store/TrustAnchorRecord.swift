public import Foundation

/// What a trust anchor is trusted for.
public enum TrustRole: String, Sendable, Hashable, CaseIterable {
  /// An issuing authority root (an mdoc IACA, an SD-JWT VC issuer root).
  case issuer
  /// An mdoc reader authentication root (ISO 18013-5 §9.1.4).
  case reader
  /// An OpenID4VP verifier root, for `x509_san_dns` / `x509_hash` client identifiers.
  case verifier
}

/// A certificate the wallet trusts for one role.
public struct TrustAnchorRecord: Sendable, Hashable {
  /// The anchor's identifier in this wallet.
  public let id: String
  /// What the certificate is trusted for.
  public let role: TrustRole
  /// The certificate, DER-encoded, exactly as added.
  public let certificateDER: [UInt8]
  /// The certificate's subject, for display.
  public let subject: String
  /// When the anchor was added (millisecond precision).
  public let addedAt: Date

  /// Creates a trust anchor record.
  public init(
    id: String = UUID().uuidString.lowercased(), role: TrustRole, certificateDER: [UInt8],
    subject: String, addedAt: Date = Date()
  ) {
    self.id = id
    self.role = role
    self.certificateDER = certificateDER
    self.subject = subject
    self.addedAt = StoreTime.normalized(addedAt)
  }
}
