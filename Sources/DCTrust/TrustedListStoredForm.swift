import DCEncoding
package import DCJSON
import DCX509
import Foundation

/// A verified list kept by a store that authenticates its rows (the wallet's store tags each
/// list row with HMAC-SHA256, as it does anchors): the list's model as JSON, so that reading it
/// back needs neither the network nor the list's parser, and a row changed without the store's
/// key is never read as a list.
extension TrustedList {
  /// The list's model as JSON: every field, certificates as base64 DER.
  package var storedForm: [UInt8] {
    var fields: [(key: String, value: JSONValue)] = [
      ("kind", .string(kind.rawValue)), ("operator", .string(operatorName)),
      ("issued", .integer(Self.milliseconds(issued))),
      ("entities", .array(entities.map(Self.stored))),
      ("pointers", .array(pointers.map(Self.stored))),
      ("signer", .string(Base64.encode(signer.derBytes))),
      ("digest", .string(Base64.encode(digest))),
    ]
    if let sequenceNumber { fields.append(("sequence", .integer(Int64(sequenceNumber)))) }
    if let nextUpdate { fields.append(("nextUpdate", .integer(Self.milliseconds(nextUpdate)))) }
    return JSONValue.object(fields).serializedBytes()
  }

  /// Reads a list back from ``storedForm``; only for rows whose authentication was checked.
  package init(storedForm bytes: [UInt8]) throws(TrustError) {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      throw TrustError(.malformed, "a stored list is not JSON: \(error.reason)", underlying: error)
    }
    guard let kind = json["kind"]?.string.flatMap(TrustedListKind.init(rawValue:)),
      let operatorName = json["operator"]?.string, let issued = json["issued"]?.int,
      let entities = json["entities"]?.array, let pointers = json["pointers"]?.array,
      let signer = json["signer"]?.string, let digest = json["digest"]?.string
    else { throw TrustError(.malformed, "a stored list lacks a field") }
    self.init(
      kind: kind, operatorName: operatorName, sequenceNumber: json["sequence"]?.int,
      issued: Self.date(issued), nextUpdate: json["nextUpdate"]?.int.map(Self.date),
      entities: try entities.map(Self.entity), pointers: try pointers.map(Self.pointer),
      signer: try Self.certificate(signer), digest: try Self.bytes(digest))
  }

  private static func stored(_ entity: TrustedEntity) -> JSONValue {
    var fields: [(key: String, value: JSONValue)] = [
      ("name", .string(entity.name)), ("service", .string(entity.serviceType.storedName)),
      ("certificates", .array(entity.certificates.map { .string(Base64.encode($0.derBytes)) })),
      ("granted", .bool(entity.isGranted)),
    ]
    // A VICAL entry's docType restriction (ISO/IEC 18013-5 Annex C.1.7.1): absent when the
    // list kind has none, so rows stored before it read back unchanged.
    if !entity.docTypes.isEmpty {
      fields.append(("docTypes", .array(entity.docTypes.map(JSONValue.string))))
    }
    return .object(fields)
  }

  private static func stored(_ pointer: TrustedListPointer) -> JSONValue {
    var fields: [(key: String, value: JSONValue)] = [
      ("location", .string(pointer.location.absoluteString)),
      ("kind", .string(pointer.kind.rawValue)),
      (
        "certificates",
        .array(pointer.operatorCertificates.map { .string(Base64.encode($0.derBytes)) })
      ),
    ]
    if let territory = pointer.territory { fields.append(("territory", .string(territory))) }
    return .object(fields)
  }

  private static func entity(_ json: JSONValue) throws(TrustError) -> TrustedEntity {
    guard let name = json["name"]?.string,
      let service = json["service"]?.string.map(TrustServiceType.init(storedName:)),
      let certificates = json["certificates"]?.array, let granted = json["granted"]?.bool
    else { throw TrustError(.malformed, "a stored list entity lacks a field") }
    var docTypes: [String] = []
    if let stored = json["docTypes"] {
      guard let items = stored.array else {
        throw TrustError(.malformed, "a stored list entity's docTypes is not a list of strings")
      }
      for item in items {
        guard let docType = item.string else {
          throw TrustError(.malformed, "a stored list entity's docTypes is not a list of strings")
        }
        docTypes.append(docType)
      }
    }
    return TrustedEntity(
      name: name, serviceType: service, certificates: try certificates.map(Self.certificate),
      isGranted: granted, docTypes: docTypes)
  }

  private static func pointer(_ json: JSONValue) throws(TrustError) -> TrustedListPointer {
    guard let location = json["location"]?.string.flatMap(URL.init(string:)),
      let kind = json["kind"]?.string.flatMap(TrustedListKind.init(rawValue:)),
      let certificates = json["certificates"]?.array
    else { throw TrustError(.malformed, "a stored list pointer lacks a field") }
    return TrustedListPointer(
      location: location, kind: kind, territory: json["territory"]?.string,
      operatorCertificates: try certificates.map(Self.certificate))
  }

  private static func certificate(_ json: JSONValue) throws(TrustError) -> Certificate {
    guard let text = json.string else {
      throw TrustError(.malformed, "a stored certificate is not a string")
    }
    return try certificate(text)
  }

  private static func certificate(_ text: String) throws(TrustError) -> Certificate {
    do {
      return try Certificate(derEncoded: try bytes(text))
    } catch let error as TrustError {
      throw error
    } catch {
      throw TrustError(.malformed, "a stored certificate does not parse", underlying: error)
    }
  }

  private static func bytes(_ text: String) throws(TrustError) -> [UInt8] {
    do {
      return try Base64.decode(text)
    } catch {
      throw TrustError(.malformed, "a stored value is not base64", underlying: error)
    }
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  private static func date(_ milliseconds: Int) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}

extension TrustServiceType {
  /// The service type's name in a stored list; `other:` and the URI for unmapped types.
  package var storedName: String {
    switch self {
    case .pidProvider: "pidProvider"
    case .walletProvider: "walletProvider"
    case .accessCertificateAuthority: "accessCertificateAuthority"
    case .registrationCertificateProvider: "registrationCertificateProvider"
    case .mdocIssuingAuthority: "mdocIssuingAuthority"
    case .mdocReaderAuthority: "mdocReaderAuthority"
    case .attestationProvider: "attestationProvider"
    case .other(let uri): "other:" + uri
    }
  }

  /// The service type a stored name names (``storedName``); an unknown name is kept as `other`.
  package init(storedName: String) {
    switch storedName {
    case "pidProvider": self = .pidProvider
    case "walletProvider": self = .walletProvider
    case "accessCertificateAuthority": self = .accessCertificateAuthority
    case "registrationCertificateProvider": self = .registrationCertificateProvider
    case "mdocIssuingAuthority": self = .mdocIssuingAuthority
    case "mdocReaderAuthority": self = .mdocReaderAuthority
    case "attestationProvider": self = .attestationProvider
    default:
      self = .other(storedName.hasPrefix("other:") ? String(storedName.dropFirst(6)) : storedName)
    }
  }
}

extension TrustSource {
  /// The source as JSON, for a store that keeps a verification's result (a verifier's
  /// transactions); read back with ``init(storedForm:)``.
  package var storedForm: JSONValue {
    switch self {
    case .anchor(let id, let subject):
      .object([("anchor", .string(id)), ("subject", .string(subject))])
    case .listEntry(let kind, let operatorName, let issued, let entity, let serviceType):
      .object([
        ("list", .string(kind.rawValue)), ("operator", .string(operatorName)),
        ("issued", .integer(Int64((issued.timeIntervalSince1970 * 1000).rounded()))),
        ("entity", .string(entity)), ("service", .string(serviceType.storedName)),
      ])
    }
  }

  /// Reads a source back from ``storedForm``; nil when the JSON is not one.
  package init?(storedForm json: JSONValue) {
    if let id = json["anchor"]?.string, let subject = json["subject"]?.string {
      self = .anchor(id: id, subject: subject)
    } else if let kind = json["list"]?.string.flatMap(TrustedListKind.init(rawValue:)),
      let operatorName = json["operator"]?.string, let issued = json["issued"]?.int,
      let entity = json["entity"]?.string, let service = json["service"]?.string
    {
      self = .listEntry(
        kind: kind, operatorName: operatorName,
        issued: Date(timeIntervalSince1970: Double(issued) / 1000), entity: entity,
        serviceType: TrustServiceType(storedName: service))
    } else {
      return nil
    }
  }
}
