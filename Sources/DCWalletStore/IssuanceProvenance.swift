package import Foundation

/// One `display` entry of a credential configuration, as the issuer gave it
/// (OpenID4VCI 1.0 §12.2.4, `credential_metadata.display`): kept with the credential so the
/// wallet shows it the way the issuer asked.
public struct IssuerCredentialDisplay: Sendable, Hashable, Codable {
  /// `name`: the credential's display name.
  public var name: String
  /// `locale` (BCP 47), if the issuer gave one.
  package var locale: String?
  /// `logo.uri`.
  package var logoURI: String?
  /// `logo.alt_text`.
  package var logoAltText: String?
  /// `description`.
  public var description: String?
  /// `background_color` (a CSS colour, as given).
  package var backgroundColor: String?
  /// `background_image.uri`.
  package var backgroundImageURI: String?
  /// `text_color` (a CSS colour, as given).
  package var textColor: String?

  /// Creates a display entry.
  package init(
    name: String, locale: String? = nil, logoURI: String? = nil, logoAltText: String? = nil,
    description: String? = nil, backgroundColor: String? = nil, backgroundImageURI: String? = nil,
    textColor: String? = nil
  ) {
    self.name = name
    self.locale = locale
    self.logoURI = logoURI
    self.logoAltText = logoAltText
    self.description = description
    self.backgroundColor = backgroundColor
    self.backgroundImageURI = backgroundImageURI
    self.textColor = textColor
  }
}

extension [IssuerCredentialDisplay] {
  /// The entry for the first of `locales` that has one (matching the language alone when no
  /// entry has the exact tag), else the first entry: OpenID4VCI 1.0 §12.2.4 gives one entry
  /// per language.
  package func preferred(locales: [String] = []) -> IssuerCredentialDisplay? {
    for wanted in locales {
      if let exact = first(where: { $0.locale?.lowercased() == wanted.lowercased() }) {
        return exact
      }
      let language = wanted.split(separator: "-").first.map { $0.lowercased() }
      if let language,
        let near = first(where: {
          $0.locale?.split(separator: "-").first.map { $0.lowercased() } == language
        })
      {
        return near
      }
    }
    return first
  }
}

/// How the issuer of an issued credential was established when it was stored.
package enum IssuanceTrustBasis: String, Sendable, Hashable, Codable, CaseIterable {
  /// The issuer's chain reached one of the wallet's own issuer trust anchors.
  case walletAnchor = "wallet-anchor"
  /// The credential's chain (mdoc `x5chain`, SD-JWT VC `x5c`) reached an IACA that the issuer
  /// itself published (`mdoc_iacas_uri`), which the holder accepted by an explicit opt-in for
  /// that issuance only.
  case issuerPublishedIACA = "issuer-published-iaca"
  /// The SD-JWT's signature verified with a key from the issuer's JWT VC issuer metadata
  /// (SD-JWT VC §5), fetched from the issuer's own https origin, which the holder accepted by
  /// an explicit opt-in.
  case issuerMetadataKey = "issuer-metadata-key"
}

/// Where an issued credential came from (OpenID4VCI 1.0), kept with it for display,
/// notifications and batch use.
public struct IssuanceProvenance: Sendable, Hashable, Codable {
  /// The Credential Issuer Identifier (`credential_issuer`).
  public var credentialIssuer: String
  /// The key in `credential_configurations_supported` the credential was issued under.
  public var configurationID: String
  /// The configuration's `credential_metadata.display`, as the issuer gave it.
  public var display: [IssuerCredentialDisplay]
  /// The issuer's `notification_id` from the credential response (§8.3), if any.
  package var notificationID: String?
  /// The stored issuance session (access token, DPoP key) to notify the issuer with, if any.
  package var sessionID: String?
  /// How the issuer was established at storage.
  package var trustBasis: IssuanceTrustBasis
  /// The batch the credential was issued in (one credential request with several proofs):
  /// credentials of one batch are presented once each (see `Wallet.onePerBatch`).
  package var batchID: String?
  /// The DER of the IACA the issuer published that the credential's chain reached, for
  /// `trustBasis == .issuerPublishedIACA`: the anchor its status list must chain to as well
  /// (`Wallet.refreshStatus`). Nil otherwise, and for rows stored before it was recorded.
  package var issuerPublishedAnchor: [UInt8]?

  /// Whether the issuer's own IACAs were trusted, by the holder's opt-in, to store it.
  package var trustedIssuerPublishedIACAs: Bool { trustBasis == .issuerPublishedIACA }

  /// Creates a provenance record.
  package init(
    credentialIssuer: String, configurationID: String, display: [IssuerCredentialDisplay] = [],
    notificationID: String? = nil, sessionID: String? = nil, trustBasis: IssuanceTrustBasis,
    batchID: String? = nil, issuerPublishedAnchor: [UInt8]? = nil
  ) {
    self.issuerPublishedAnchor = issuerPublishedAnchor
    self.credentialIssuer = credentialIssuer
    self.configurationID = configurationID
    self.display = display
    self.notificationID = notificationID
    self.sessionID = sessionID
    self.trustBasis = trustBasis
    self.batchID = batchID
  }
}

/// A deferred issuance the issuer has not completed yet (OpenID4VCI 1.0 §9): what polling the
/// deferred credential endpoint needs, and what verifying the credentials then needs.
public struct PendingDeferredIssuance: Sendable, Hashable, Codable {
  /// The pending entry's identifier in this wallet.
  public let id: String
  /// The issuer's `transaction_id`.
  package let transactionID: String
  /// The Credential Issuer Identifier.
  public let credentialIssuer: String
  /// The configuration requested.
  public let configurationID: String
  /// The configuration's format.
  public let format: CredentialFormat
  /// The doctype or vct the configuration promises.
  package let expectedType: String
  /// The configuration's display entries.
  public let display: [IssuerCredentialDisplay]
  /// The `interval` (seconds) the issuer asked the wallet to wait between polls, if any.
  package let interval: Int?
  /// The device keys the proofs were made with, one per credential expected.
  package let deviceKeyIDs: [String]
  /// The issuance session holding the access token and DPoP key.
  package let sessionID: String
  /// Whether the holder opted in to trusting the issuer's published IACAs for this issuance.
  package let trustIssuerPublishedIACAs: Bool
  /// When it was stored.
  package let createdAt: Date

  /// Creates a pending entry.
  package init(
    id: String = UUID().uuidString.lowercased(), transactionID: String, credentialIssuer: String,
    configurationID: String, format: CredentialFormat, expectedType: String,
    display: [IssuerCredentialDisplay] = [], interval: Int? = nil, deviceKeyIDs: [String],
    sessionID: String, trustIssuerPublishedIACAs: Bool = false, createdAt: Date = Date()
  ) {
    self.id = id
    self.transactionID = transactionID
    self.credentialIssuer = credentialIssuer
    self.configurationID = configurationID
    self.format = format
    self.expectedType = expectedType
    self.display = display
    self.interval = interval
    self.deviceKeyIDs = deviceKeyIDs
    self.sessionID = sessionID
    self.trustIssuerPublishedIACAs = trustIssuerPublishedIACAs
    self.createdAt = StoreTime.normalized(createdAt)
  }
}
