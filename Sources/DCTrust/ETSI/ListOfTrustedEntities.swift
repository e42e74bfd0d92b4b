import DCCrypto
import DCEncoding
import DCJSON
public import DCX509
import Foundation

// ETSI TS 119 602 v1.1.1 Lists of Trusted Entities, JSON binding (the member names are the
// schema's, TS 119 602 annex "JSON schema"), signed with JAdES (ETSI TS 119 182-1).

extension TrustedList {
  /// Verifies a LoTE (ETSI TS 119 602 v1.1.1, JSON binding) signed with a JAdES compact JWS
  /// (ETSI TS 119 182-1), and reads it.
  ///
  /// The signature is checked first, against the signing certificate its header names, which
  /// must be one of `operatorCertificates` and valid at the claimed signing time; no entry is
  /// read from a list that did not verify. A list past its next update verifies: whether it is
  /// used is ``TrustSources/staleListPolicy``'s decision.
  ///
  /// - Throws: `tooLarge`, `malformed`, `unsupported`, `untrustedSigner`, `invalidSignature`,
  ///   `expired` (docs/LIMITS.md, "Trusted lists").
  public static func verifyingLoTE(
    _ bytes: [UInt8], operatorCertificates: [Certificate]
  ) throws(TrustError) -> TrustedList {
    guard bytes.count <= ETSIListLimits.maxListBytes else {
      throw TrustError(.tooLarge, "the list is larger than \(ETSIListLimits.maxListBytes) bytes")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw TrustError(.malformed, "the list is not UTF-8 text")
    }
    let jades = try JAdESCompact(
      text.trimmingCharacters(in: .whitespacesAndNewlines),
      operatorCertificates: operatorCertificates)
    let json: JSONValue
    do {
      json = try JSONValue(
        parsing: jades.payload,
        limits: JSONLimits(
          maxDepth: ETSIListLimits.maxJSONDepth, maxLength: ETSIListLimits.maxListBytes))
    } catch {
      throw TrustError(
        .malformed, "the LoTE payload is not JSON: \(error.reason)", underlying: error)
    }
    return try LoTEReader.read(
      json, signer: jades.signer, digest: SHA256.hash(data: bytes))
  }
}

/// Reads a verified LoTE payload (TS 119 602 clause 6: `LoTE` with `ListAndSchemeInformation`
/// and `TrustedEntitiesList`).
enum LoTEReader {
  static func read(_ json: JSONValue, signer: Certificate, digest: [UInt8]) throws(TrustError)
    -> TrustedList
  {
    guard let lote = json["LoTE"], case .object = lote else {
      throw TrustError(.malformed, "the payload has no LoTE object")
    }
    guard let info = lote["ListAndSchemeInformation"], case .object = info else {
      throw TrustError(.malformed, "the LoTE has no ListAndSchemeInformation")
    }
    // TS 119 602 §6.3.1: LoTEVersionIdentifier is 1 for this version of the format.
    guard let version = info["LoTEVersionIdentifier"]?.int else {
      throw TrustError(.malformed, "LoTEVersionIdentifier is missing")
    }
    guard version == 1 else {
      throw TrustError(.unsupported, "LoTEVersionIdentifier \(version) is not 1")
    }
    let sequence = info["LoTESequenceNumber"]?.int
    guard let sequence, sequence >= 1 else {
      throw TrustError(.malformed, "LoTESequenceNumber is missing or below 1")
    }
    let operatorName = try firstName(info["SchemeOperatorName"], "SchemeOperatorName")
    let issued = try date(info["ListIssueDateTime"], "ListIssueDateTime")
    let nextUpdate = try date(info["NextUpdate"], "NextUpdate")
    let implied = info["LoTEType"]?.string.flatMap { ETSIServiceTypeURI.impliedByLoTEType[$0] }
    let entities = try LoTEEntityReader.entities(lote["TrustedEntitiesList"], implied: implied)
    let pointers = try pointers(info["PointerToOtherLoTE"])
    return TrustedList(
      kind: .lote, operatorName: operatorName, sequenceNumber: sequence, issued: issued,
      nextUpdate: nextUpdate, entities: entities, pointers: pointers, signer: signer,
      digest: digest)
  }

  /// The first `value` of a multilingual string list (TS 119 602 `MultiLangString`: `lang`,
  /// `value`); the list's order decides, no language is preferred.
  static func firstName(_ value: JSONValue?, _ field: String) throws(TrustError) -> String {
    guard let first = value?.array?.first, let name = first["value"]?.string, !name.isEmpty else {
      throw TrustError(.malformed, "\(field) has no name")
    }
    return name
  }

  static func date(_ value: JSONValue?, _ field: String) throws(TrustError) -> Date {
    guard let text = value?.string, let date = ETSIDateTime.parse(text) else {
      throw TrustError(.malformed, "\(field) is missing or not a date-time")
    }
    return date
  }

  /// `PointerToOtherLoTE` (TS 119 602 §6.3.13): location, the pointed list's signing
  /// certificates and its qualifiers (type, territory).
  static func pointers(_ value: JSONValue?) throws(TrustError) -> [TrustedListPointer] {
    guard let value else { return [] }
    guard let array = value.array else {
      throw TrustError(.malformed, "PointerToOtherLoTE is not an array")
    }
    guard array.count <= ETSIListLimits.maxPointers else {
      throw TrustError(.tooLarge, "more than \(ETSIListLimits.maxPointers) pointers")
    }
    var pointers: [TrustedListPointer] = []
    for pointer in array {
      guard let text = pointer["LoTELocation"]?.string, let location = URL(string: text) else {
        throw TrustError(.malformed, "a pointer has no LoTELocation")
      }
      var certificates: [Certificate] = []
      for identity in pointer["ServiceDigitalIdentities"]?.array ?? [] {
        certificates += try LoTEEntityReader.certificates(identity)
      }
      let qualifier = pointer["LoTEQualifiers"]?.array?.first
      pointers.append(
        TrustedListPointer(
          location: location, kind: .lote, territory: qualifier?["SchemeTerritory"]?.string,
          operatorCertificates: certificates))
    }
    return pointers
  }
}

/// Reads `TrustedEntitiesList` (TS 119 602 §6.5, §6.6): one ``TrustedEntity`` per service that
/// is identified by certificates.
enum LoTEEntityReader {
  static func entities(_ value: JSONValue?, implied: TrustServiceType?) throws(TrustError)
    -> [TrustedEntity]
  {
    guard let value else { return [] }
    guard let array = value.array else {
      throw TrustError(.malformed, "TrustedEntitiesList is not an array")
    }
    guard array.count <= ETSIListLimits.maxEntities else {
      throw TrustError(.tooLarge, "more than \(ETSIListLimits.maxEntities) trusted entities")
    }
    var entities: [TrustedEntity] = []
    for entity in array {
      let name = try LoTEReader.firstName(
        entity["TrustedEntityInformation"]?["TEName"], "TEName")
      guard let services = entity["TrustedEntityServices"]?.array else {
        throw TrustError(.malformed, "\(name) has no TrustedEntityServices")
      }
      guard services.count <= ETSIListLimits.maxServicesPerEntity else {
        throw TrustError(.tooLarge, "more than \(ETSIListLimits.maxServicesPerEntity) services")
      }
      for service in services {
        guard let information = service["ServiceInformation"], case .object = information else {
          throw TrustError(.malformed, "a service of \(name) has no ServiceInformation")
        }
        if let entry = try entry(information, name: name, implied: implied) {
          entities.append(entry)
        }
      }
    }
    return entities
  }

  /// One service: its type (`ServiceTypeIdentifier`, else the one the LoTE type implies), its
  /// status (`ServiceStatus`) and certificates. A service identified only by names, keys or
  /// key identifiers gives no entity: chains are anchored at certificates.
  static func entry(_ information: JSONValue, name: String, implied: TrustServiceType?)
    throws(TrustError) -> TrustedEntity?
  {
    guard let identity = information["ServiceDigitalIdentity"] else {
      throw TrustError(.malformed, "a service of \(name) has no ServiceDigitalIdentity")
    }
    let certificates = try certificates(identity)
    guard !certificates.isEmpty else { return nil }
    let type: TrustServiceType
    if let uri = information["ServiceTypeIdentifier"]?.string {
      type = ETSIServiceTypeURI.serviceType(uri)
    } else {
      type = implied ?? .other("")
    }
    let status = information["ServiceStatus"]?.string
    return TrustedEntity(
      name: name, serviceType: type, certificates: certificates,
      isGranted: ETSIServiceTypeURI.isGranted(status: status))
  }

  /// `X509Certificates` of a `ServiceDigitalIdentity`: PKI objects whose `val` is a base64 DER
  /// certificate (TS 119 602 §6.6.3, the schema's `PkiOb`).
  static func certificates(_ identity: JSONValue) throws(TrustError) -> [Certificate] {
    guard let objects = identity["X509Certificates"] else { return [] }
    guard let array = objects.array else {
      throw TrustError(.malformed, "X509Certificates is not an array")
    }
    guard array.count <= ETSIListLimits.maxCertificatesPerIdentity else {
      throw TrustError(
        .tooLarge, "more than \(ETSIListLimits.maxCertificatesPerIdentity) certificates")
    }
    var certificates: [Certificate] = []
    for object in array {
      guard let text = object["val"]?.string else {
        throw TrustError(.malformed, "a PKI object has no val")
      }
      certificates.append(try ETSICertificate.read(base64: text))
    }
    return certificates
  }
}

extension TrustedList {
  /// Reads a LoTE payload (TS 119 602 JSON) WITHOUT any signature check, naming `signer` as
  /// the signer: only for the fuzz targets, which cannot produce valid signatures.
  package static func unverifiedLoTEPayloadForFuzzing(_ payload: [UInt8], signer: Certificate)
    throws(TrustError) -> TrustedList
  {
    let json: JSONValue
    do {
      json = try JSONValue(
        parsing: payload,
        limits: JSONLimits(
          maxDepth: ETSIListLimits.maxJSONDepth, maxLength: ETSIListLimits.maxListBytes))
    } catch {
      throw TrustError(
        .malformed, "the LoTE payload is not JSON: \(error.reason)", underlying: error)
    }
    return try LoTEReader.read(json, signer: signer, digest: [])
  }
}
