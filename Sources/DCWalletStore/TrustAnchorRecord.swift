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
  /// HMAC-SHA256 over the row under the settings authentication key (see
  /// `SettingsAuthentication`); nil on rows written before schema version 4 or without the key.
  package let authenticationTag: [UInt8]?

  /// Creates a trust anchor record.
  package init(
    id: String = UUID().uuidString.lowercased(), role: TrustRole, certificateDER: [UInt8],
    subject: String, addedAt: Date = Date(), authenticationTag: [UInt8]? = nil
  ) {
    self.authenticationTag = authenticationTag
    self.id = id
    self.role = role
    self.certificateDER = certificateDER
    self.subject = subject
    self.addedAt = StoreTime.normalized(addedAt)
  }
}

extension TrustAnchorRecord {
  /// This record with an authentication tag.
  package func tagged(_ tag: [UInt8]) -> TrustAnchorRecord {
    TrustAnchorRecord(
      id: id, role: role, certificateDER: certificateDER, subject: subject, addedAt: addedAt,
      authenticationTag: tag)
  }
}

/// The trust anchors that may be used, and a problem for each that may not.
public struct TrustAnchorListing: Sendable, Hashable {
  /// Anchors whose row is authenticated and whose certificate parses.
  public let anchors: [TrustAnchorRecord]
  /// Anchors that are not trusted: `.unauthenticatedRecord` (the row's tag is missing or wrong:
  /// tampered, or written before schema version 4) or `.corruptRecord` (the certificate does not
  /// parse).
  public let problems: [StoreProblem]

  /// Creates a listing.
  package init(anchors: [TrustAnchorRecord], problems: [StoreProblem]) {
    self.anchors = anchors
    self.problems = problems
  }
}
