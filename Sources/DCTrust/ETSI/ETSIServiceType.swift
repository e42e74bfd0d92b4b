/// The service type and status URIs the ETSI lists use, and how they map to
/// ``TrustServiceType`` and to a granted service.
package enum ETSIServiceTypeURI {
  // ETSI TS 119 602 Annexes (EU profiles of the LoTE): the issuance service of each list.
  /// PID providers (TS 119 602 annex on the EU PID providers list).
  package static let pidIssuance = "http://uri.etsi.org/19602/SvcType/PID/Issuance"
  /// Wallet providers (TS 119 602 annex on the EU wallet providers list).
  package static let walletIssuance = "http://uri.etsi.org/19602/SvcType/WalletSolution/Issuance"
  /// Providers of relying-party access certificates (WRPAC).
  package static let accessCertificateIssuance = "http://uri.etsi.org/19602/SvcType/WRPAC/Issuance"
  /// Providers of relying-party registration certificates (WRPRC).
  package static let registrationCertificateIssuance =
    "http://uri.etsi.org/19602/SvcType/WRPRC/Issuance"
  /// Public-sector providers of electronic attestations of attributes.
  package static let pubEAAIssuance = "http://uri.etsi.org/19602/SvcType/PubEAA/Issuance"
  // ETSI TS 119 612 §5.5.1.1 service types for (qualified) EAA providers.
  /// Qualified EAA providers in a TSL.
  package static let tslQualifiedEAA = "http://uri.etsi.org/TrstSvc/Svctype/EAA/Q"
  /// Public-sector EAA providers in a TSL.
  package static let tslPubEAA = "http://uri.etsi.org/TrstSvc/Svctype/EAA/Pub-EAA"
  /// Granted (TS 119 612 §5.5.4).
  package static let granted = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted"
  /// Withdrawn (TS 119 612 §5.5.4).
  package static let withdrawn = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn"

  /// The LoTE types of TS 119 602's EU profiles, and the service type each list implies when a
  /// service does not name one.
  static let impliedByLoTEType: [String: TrustServiceType] = [
    "http://uri.etsi.org/19602/LoTEType/EUPIDProvidersList": .pidProvider,
    "http://uri.etsi.org/19602/LoTEType/EUWalletProvidersList": .walletProvider,
    "http://uri.etsi.org/19602/LoTEType/EUWRPACProvidersList": .accessCertificateAuthority,
    "http://uri.etsi.org/19602/LoTEType/EUWRPRCProvidersList": .registrationCertificateProvider,
    "http://uri.etsi.org/19602/LoTEType/EUPubEAAProvidersList": .attestationProvider,
  ]

  /// The service type a URI names; any other URI is kept as `.other`.
  static func serviceType(_ uri: String) -> TrustServiceType {
    switch uri {
    case pidIssuance: .pidProvider
    case walletIssuance: .walletProvider
    case accessCertificateIssuance: .accessCertificateAuthority
    case registrationCertificateIssuance: .registrationCertificateProvider
    case pubEAAIssuance, tslQualifiedEAA, tslPubEAA: .attestationProvider
    default: .other(uri)
    }
  }

  /// Whether a service status grants the service. The specs leave the set open to schemes;
  /// granted (TS 119 612 §5.5.4) and recognised at national level are; every other status
  /// (withdrawn, deprecated, a scheme's own) is not. A LoTE service without a status is granted:
  /// its list's status determination approach makes listing itself the grant (TS 119 602 EU
  /// profiles).
  static func isGranted(status: String?) -> Bool {
    guard let status else { return true }
    let last = status.split(separator: "/").last.map(String.init) ?? ""
    return ["granted", "recognisedatnationallevel"].contains(last)
  }
}
