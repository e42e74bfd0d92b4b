public import DCX509
public import Foundation

/// The kinds of published trusted list the SDK reads.
public enum TrustedListKind: String, Sendable, Hashable, CaseIterable {
  /// ETSI TS 119 602 List of Trusted Entities, JSON binding signed with JAdES (ETSI TS 119 182-1).
  case lote
  /// ETSI TS 119 612 Trusted List, XML with an enveloped XAdES signature.
  case tsl
  /// The EU list of trusted lists (ETSI TS 119 612 §5.3 pointers to the Member States' lists).
  case lotl
  /// The AAMVA / ISO 18013-5 Verified Issuer Certificate Authority List (COSE_Sign1 over CBOR).
  case vical
  /// The Reader Issuer Certificate Authority List, for mdoc reader roots.
  case rical
}

/// What a listed service is trusted for: the service type a list gives its entry.
public enum TrustServiceType: Sendable, Hashable {
  /// A PID provider (ETSI TS 119 602 LoTE of PID providers).
  case pidProvider
  /// A wallet provider (wallet unit attestations).
  case walletProvider
  /// A certificate authority issuing relying-party access certificates.
  case accessCertificateAuthority
  /// A provider of relying-party registration certificates (ETSI TS 119 475).
  case registrationCertificateProvider
  /// An issuing authority CA for mdocs (a VICAL entry, or an attestation provider's CA).
  case mdocIssuingAuthority
  /// A CA for mdoc readers (a RICAL entry).
  case mdocReaderAuthority
  /// A provider of electronic attestations of attributes (a public-sector or qualified EAA
  /// provider: ETSI TS 119 602 PubEAA lists, TS 119 612 EAA service types).
  case attestationProvider
  /// A service type this library does not map, kept as the list states it (a URI).
  case other(String)

  /// What a chain ending at this service may be trusted for.
  public var purposes: Set<TrustPurpose> {
    switch self {
    case .pidProvider, .mdocIssuingAuthority, .attestationProvider: [.credentialIssuer]
    case .walletProvider: [.walletProvider]
    case .accessCertificateAuthority: [.reader, .verifier]
    case .registrationCertificateProvider: [.registrationCertificateProvider]
    case .mdocReaderAuthority: [.reader]
    case .other: []
    }
  }
}

/// What a certificate chain is being trusted for.
public enum TrustPurpose: String, Sendable, Hashable, CaseIterable {
  /// Issuing credentials: an mdoc IACA, an SD-JWT VC issuer, a status-list signer under it.
  case credentialIssuer
  /// Authenticating an mdoc reader (ISO 18013-5 §9.1.4) or a relying party's access certificate
  /// in a DeviceRequest.
  case reader
  /// Authenticating an OpenID4VP verifier (access certificate behind `x509_san_dns` /
  /// `x509_hash`).
  case verifier
  /// Signing relying-party registration certificates.
  case registrationCertificateProvider
  /// Attesting wallet units.
  case walletProvider
}

/// One entity a verified list names, with the certificates its service is identified by.
public struct TrustedEntity: Sendable, Hashable {
  /// The entity's name as the list gives it (the first name, in the list's order).
  public let name: String
  /// What the entity's service is trusted for.
  public let serviceType: TrustServiceType
  /// The service's certificates (its digital identities); chains are anchored at these.
  public let certificates: [Certificate]
  /// Whether the list grants the service (false for a withdrawn or suspended status).
  public let isGranted: Bool
  /// The document types the entry is listed for (a VICAL's docType); empty when the list does
  /// not restrict them.
  public let docTypes: [String]

  /// Creates an entity; lists make these when they parse.
  package init(
    name: String, serviceType: TrustServiceType, certificates: [Certificate], isGranted: Bool,
    docTypes: [String] = []
  ) {
    self.name = name
    self.serviceType = serviceType
    self.certificates = certificates
    self.isGranted = isGranted
    self.docTypes = docTypes
  }

  /// The credential formats whose issuers it may trust: an mdoc issuing authority (a VICAL
  /// entry) issues mdocs only; other services are not limited by format.
  public var formats: Set<IssuerCredentialFormat> {
    serviceType == .mdocIssuingAuthority ? [.mdoc] : Set(IssuerCredentialFormat.allCases)
  }

  /// Whether its service serves `purpose` for `format` (any format when nil).
  package func serves(_ purpose: TrustPurpose, format: IssuerCredentialFormat?) -> Bool {
    serviceType.purposes.contains(purpose) && (format.map { formats.contains($0) } ?? true)
  }
}

/// Where another trusted list is published (a LOTL's pointer): its location, its kind and the
/// certificates its operator signs it with.
public struct TrustedListPointer: Sendable, Hashable {
  /// The list's location.
  public let location: URL
  /// The list's kind.
  public let kind: TrustedListKind
  /// The territory or scheme the pointed list covers, as the pointer names it.
  public let territory: String?
  /// The certificates the pointed list must be signed with.
  public let operatorCertificates: [Certificate]

  /// Creates a pointer; lists make these when they parse.
  package init(
    location: URL, kind: TrustedListKind, territory: String?, operatorCertificates: [Certificate]
  ) {
    self.location = location
    self.kind = kind
    self.territory = territory
    self.operatorCertificates = operatorCertificates
  }
}

/// A trusted list whose signature was verified against its operator's certificate.
///
/// Only the parsers make these, after verifying the signature: an entry of a list that did not
/// verify is never used.
public struct TrustedList: Sendable, Hashable {
  /// The list's kind.
  public let kind: TrustedListKind
  /// The list operator's (scheme operator's) name.
  public let operatorName: String
  /// The list's sequence number, where the format has one.
  public let sequenceNumber: Int?
  /// When the list was issued.
  public let issued: Date
  /// When the next list is due; a list used after this time is stale.
  public let nextUpdate: Date?
  /// The entities the list names.
  public let entities: [TrustedEntity]
  /// The pointers to other lists (a LOTL's).
  public let pointers: [TrustedListPointer]
  /// The certificate that signed the list (one of the operator certificates it was checked with).
  public let signer: Certificate
  /// SHA-256 of the list's bytes exactly as given; identifies this issue of the list.
  public let digest: [UInt8]

  /// Creates a verified list; only the parsers call this, after the signature check.
  package init(
    kind: TrustedListKind, operatorName: String, sequenceNumber: Int?, issued: Date,
    nextUpdate: Date?, entities: [TrustedEntity], pointers: [TrustedListPointer] = [],
    signer: Certificate, digest: [UInt8]
  ) {
    self.kind = kind
    self.operatorName = operatorName
    self.sequenceNumber = sequenceNumber
    self.issued = issued
    self.nextUpdate = nextUpdate
    self.entities = entities
    self.pointers = pointers
    self.signer = signer
    self.digest = digest
  }

  /// Whether the list is past its next update at `time` (a list without one never is).
  public func isStale(at time: Date) -> Bool {
    guard let nextUpdate else { return false }
    return time > nextUpdate
  }
}
