public import Foundation

/// The credential formats the wallet stores, named by their OpenID4VCI / DCQL format identifiers.
public enum CredentialFormat: String, Sendable, Hashable, Codable, CaseIterable {
  /// ISO/IEC 18013-5 mdoc (`mso_mdoc`).
  case msoMdoc = "mso_mdoc"
  /// SD-JWT VC (`dc+sd-jwt`).
  case sdJWT = "dc+sd-jwt"
}

/// What the wallet shows for a credential: its names, not its claims' values.
public struct CredentialDisplay: Sendable, Hashable, Codable {
  /// The credential's name ("Driving licence").
  public var title: String
  /// A second line (the holder's name, a document number), if any.
  public var subtitle: String?
  /// The issuer's name as the issuer presents it, if known.
  public var issuerName: String?
  /// Display names of claims, keyed by claim path (`"org.iso.18013.5.1/family_name"`,
  /// `"address.street_address"`).
  package var claimNames: [String: String]

  /// Creates display metadata.
  package init(
    title: String, subtitle: String? = nil, issuerName: String? = nil,
    claimNames: [String: String] = [:]
  ) {
    self.title = title
    self.subtitle = subtitle
    self.issuerName = issuerName
    self.claimNames = claimNames
  }
}

/// Whether the wallet established who issued a credential.
public enum IssuerTrust: String, Sendable, Hashable, CaseIterable {
  /// The issuer's chain reached one of the wallet's issuer anchors when the credential was
  /// imported.
  case trusted
  /// No issuer anchor vouched for the issuer (none was configured): its signature verified
  /// against the key it carries, so the name it gives is only a claim.
  case unverified
  /// The issuer vouched for itself: the credential's chain reached an IACA the issuer itself
  /// published (`mdoc_iacas_uri`), or it verified with a key of the issuer's own JWT VC issuer
  /// metadata, which the holder accepted by an explicit opt-in at issuance
  /// (``WalletIssuance/StorageOptions``). No anchor of the wallet's vouched for it.
  case issuerVouched = "issuer-vouched"
}

/// Where a credential stands in its validity period at a given time.
public enum CredentialValidity: String, Sendable, Hashable, CaseIterable {
  /// Within its validity period (or it has none).
  case valid
  /// Its `validUntil` (mdoc) or `exp` (SD-JWT) has passed.
  case expired
  /// Its `validFrom` (mdoc) or `nbf` (SD-JWT) is still to come.
  case notYetValid
}

/// A credential as the wallet keeps it: the issued bytes exactly as imported, plus what the
/// wallet needs to list, match and present it without parsing them again.
///
/// The wallet makes it when it imports a credential or is issued one, after verifying it
/// (`Wallet.importMdoc`, `Wallet.importSDJWT`, `WalletIssuance`).
public struct StoredCredential: Sendable, Hashable {
  /// The credential's identifier in this wallet: chosen by the caller, or a random UUID.
  public let id: String
  /// The credential's format.
  public let format: CredentialFormat
  /// The mdoc docType, or the SD-JWT VC `vct`.
  public let type: String
  /// The IssuerSigned CBOR, or the SD-JWT text as UTF-8, exactly as imported.
  public let issued: [UInt8]
  /// What the wallet shows for this credential.
  public let display: CredentialDisplay
  /// Start of validity (the MSO's `validFrom`, the SD-JWT's `nbf`), if any.
  public let validFrom: Date?
  /// End of validity (the MSO's `validUntil`, the SD-JWT's `exp`), if any.
  public let validUntil: Date?
  /// The identifier of the device key in a `DeviceKeyStore` that proves possession, if any.
  package let deviceKeyID: String?
  /// Authority key identifiers of the issuer's certificate chain, leaf first, for matching a
  /// request's trusted authorities and for platform registration.
  package let issuerAuthorityKeyIdentifiers: [[UInt8]]
  /// When the credential was stored.
  public let createdAt: Date
  /// Whether an issuer anchor vouched for the issuer at import (`issuerVouched`: only the
  /// issuer's own published anchors or keys did). Rows stored before schema version 4 recorded
  /// nothing and read as `unverified`; an issued row recorded as `trusted` whose issuance says
  /// it was accepted through the issuer's own anchors or keys reads as `issuerVouched`.
  public let issuerTrust: IssuerTrust
  /// Where the credential came from when it was issued to this wallet by OpenID4VCI (nil for an
  /// imported credential, and for rows stored before schema version 5).
  public let issuance: IssuanceProvenance?
  /// How many times the credential was presented (counted since schema version 5).
  public let presentationCount: Int
  /// The status last learned from the issuer's Token Status List (see
  /// `Wallet.refreshStatus(credentialID:checker:force:)`); nil when never checked (and for rows
  /// stored before schema version 6).
  public let lastKnownStatus: CredentialStatusRecord?
  /// What of the row did not carry this wallet's authentication tag when it was read (issue
  /// 32): with `.record` the trust level reads as `unverified`, with `.status` the status as
  /// unknown; empty for a row that verified and for a value built in memory.
  public internal(set) var unauthenticated: UnauthenticatedColumns = []

  /// The credential's validity at `now`: `expired` after `validUntil`, `notYetValid` before
  /// `validFrom` (ISO 18013-5 §9.1.2.4 validityInfo; SD-JWT `exp` / `nbf`, RFC 7519 §4.1.4-5).
  public func validity(at now: Date) -> CredentialValidity {
    if let validUntil, now > validUntil { return .expired }
    if let validFrom, now < validFrom { return .notYetValid }
    return .valid
  }

  /// Creates a credential record. Dates keep millisecond precision, the precision stored, so a
  /// record read back equals the one written.
  package init(
    id: String = UUID().uuidString.lowercased(), format: CredentialFormat, type: String,
    issued: [UInt8], display: CredentialDisplay, validFrom: Date? = nil, validUntil: Date? = nil,
    deviceKeyID: String? = nil, issuerAuthorityKeyIdentifiers: [[UInt8]] = [],
    createdAt: Date = Date(), issuerTrust: IssuerTrust = .unverified,
    issuance: IssuanceProvenance? = nil, presentationCount: Int = 0,
    lastKnownStatus: CredentialStatusRecord? = nil
  ) {
    self.lastKnownStatus = lastKnownStatus
    self.issuerTrust = issuerTrust
    self.issuance = issuance
    self.presentationCount = presentationCount
    self.id = id
    self.format = format
    self.type = type
    self.issued = issued
    self.display = display
    self.validFrom = validFrom.map(StoreTime.normalized)
    self.validUntil = validUntil.map(StoreTime.normalized)
    self.deviceKeyID = deviceKeyID
    self.issuerAuthorityKeyIdentifiers = issuerAuthorityKeyIdentifiers
    self.createdAt = StoreTime.normalized(createdAt)
  }
}

/// Dates in the store: INTEGER milliseconds since 1970.
package enum StoreTime {
  /// About 31,000 years either side of 1970: far beyond any validity period, and exact in a Double.
  private static let limit: Double = 1e15

  package static func milliseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1000).rounded()
    guard value.isFinite else { return value > 0 ? Int64(limit) : -Int64(limit) }
    return Int64(min(max(value, -limit), limit))
  }

  package static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  package static func normalized(_ date: Date) -> Date {
    self.date(milliseconds: milliseconds(date))
  }
}
