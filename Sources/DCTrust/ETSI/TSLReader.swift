#if canImport(CDCXMLSecShim)
  import DCX509
  import Foundation

  /// Reads a verified TrustServiceStatusList (TS 119 612 clause 5).
  enum TSLReader {
    static func read(
      _ root: XMLNodeRef, kind: TrustedListKind, signer: Certificate, digest: [UInt8]
    )
      throws(TrustError) -> TrustedList
    {
      let ns = TSLNamespace.tsl
      guard let scheme = root.child("SchemeInformation", ns) else {
        throw TrustError(.malformed, "the list has no SchemeInformation")
      }
      // §5.3.1: TSLVersionIdentifier 5 (v2.1.1) or 6 (v2.2.1 and later).
      let version = scheme.child("TSLVersionIdentifier", ns)?.text
      guard let version, ["5", "6"].contains(version) else {
        throw TrustError(.unsupported, "TSLVersionIdentifier \(version ?? "(none)") is not 5 or 6")
      }
      guard let sequence = scheme.child("TSLSequenceNumber", ns).flatMap({ Int($0.text) }),
        sequence >= 1
      else { throw TrustError(.malformed, "TSLSequenceNumber is missing or below 1") }
      let type = scheme.child("TSLType", ns)?.text ?? ""
      guard (type == TSLNamespace.lotlType) == (kind == .lotl) else {
        throw TrustError(
          .malformed,
          kind == .lotl ? "the list is not a list of lists" : "the list is a list of lists")
      }
      let operatorName = try firstName(scheme.child("SchemeOperatorName", ns), "SchemeOperatorName")
      let issued = try date(scheme.child("ListIssueDateTime", ns), "ListIssueDateTime")
      // §5.3.15: NextUpdate/dateTime; absent when the scheme is closed (no next list).
      let nextUpdate = try scheme.child("NextUpdate", ns)?.child("dateTime", ns).map {
        (node) throws(TrustError) in try date(node, "NextUpdate")
      }
      let pointers = try TSLPointerReader.pointers(scheme.child("PointersToOtherTSL", ns))
      let entities = try TSLServiceReader.entities(root.child("TrustServiceProviderList", ns))
      return TrustedList(
        kind: kind, operatorName: operatorName, sequenceNumber: sequence, issued: issued,
        nextUpdate: nextUpdate, entities: entities, pointers: kind == .lotl ? pointers : [],
        signer: signer, digest: digest)
    }

    /// The first `Name` of a multilingual name (§5.3.4); the list's order decides.
    static func firstName(_ node: XMLNodeRef?, _ field: String) throws(TrustError) -> String {
      guard let name = node?.child("Name", TSLNamespace.tsl)?.text, !name.isEmpty else {
        throw TrustError(.malformed, "\(field) has no Name")
      }
      return name
    }

    static func date(_ node: XMLNodeRef?, _ field: String) throws(TrustError) -> Date {
      guard let text = node?.text, let date = ETSIDateTime.parse(text) else {
        throw TrustError(.malformed, "\(field) is missing or not a date-time")
      }
      return date
    }

    /// `ServiceDigitalIdentity/DigitalId/X509Certificate` (§5.5.3).
    ///
    /// A certificate this SDK's DER reader refuses is left out, not the whole list: the list's
    /// signature already verified, so the content is its operator's, and a certificate that
    /// does not parse can anchor nothing here (as an identity given only by name or key, which
    /// is skipped too). Real case: the EU LOTL's pointer to Italy carries a certificate whose
    /// signature BIT STRING declares an unused bit (X.690 §8.6.2.2, not whole octets); that
    /// pointer keeps its other certificates.
    static func certificates(_ identity: XMLNodeRef?) throws(TrustError) -> [Certificate] {
      guard let identity else { return [] }
      let ids = try identity.children(
        "DigitalId", TSLNamespace.tsl, limit: ETSIListLimits.maxCertificatesPerIdentity)
      var certificates: [Certificate] = []
      for id in ids {
        if let text = id.child("X509Certificate", TSLNamespace.tsl)?.text,
          let certificate = try? ETSICertificate.read(base64: text)
        {
          certificates.append(certificate)
        }
      }
      return certificates
    }
  }

  /// `TrustServiceProviderList` (§5.4, §5.5): one ``TrustedEntity`` per service with
  /// certificates, named after its provider.
  enum TSLServiceReader {
    static func entities(_ list: XMLNodeRef?) throws(TrustError) -> [TrustedEntity] {
      guard let list else { return [] }
      let ns = TSLNamespace.tsl
      var entities: [TrustedEntity] = []
      for provider in try list.children(
        "TrustServiceProvider", ns, limit: ETSIListLimits.maxEntities)
      {
        let name = try TSLReader.firstName(
          provider.child("TSPInformation", ns)?.child("TSPName", ns), "TSPName")
        guard let services = provider.child("TSPServices", ns) else {
          throw TrustError(.malformed, "\(name) has no TSPServices")
        }
        for service in try services.children(
          "TSPService", ns, limit: ETSIListLimits.maxServicesPerEntity)
        {
          guard let information = service.child("ServiceInformation", ns) else {
            throw TrustError(.malformed, "a service of \(name) has no ServiceInformation")
          }
          guard let type = information.child("ServiceTypeIdentifier", ns)?.text,
            let status = information.child("ServiceStatus", ns)?.text
          else {
            throw TrustError(
              .malformed, "a service of \(name) has no type or status (§5.5.1, §5.5.4)")
          }
          let certificates = try TSLReader.certificates(
            information.child("ServiceDigitalIdentity", ns))
          guard !certificates.isEmpty else { continue }
          entities.append(
            TrustedEntity(
              name: name, serviceType: ETSIServiceTypeURI.serviceType(type),
              certificates: certificates, isGranted: ETSIServiceTypeURI.isGranted(status: status)))
        }
      }
      return entities
    }
  }

  /// `PointersToOtherTSL/OtherTSLPointer` (§5.3.13): the XML lists only (the LOTL points to each
  /// Member State's list in XML and in PDF; the PDF is a human-readable copy).
  enum TSLPointerReader {
    static func pointers(_ node: XMLNodeRef?) throws(TrustError) -> [TrustedListPointer] {
      guard let node else { return [] }
      let ns = TSLNamespace.tsl
      var pointers: [TrustedListPointer] = []
      for pointer in try node.children("OtherTSLPointer", ns, limit: ETSIListLimits.maxPointers) {
        guard let text = pointer.child("TSLLocation", ns)?.text, let location = URL(string: text)
        else {
          throw TrustError(.malformed, "a pointer has no TSLLocation")
        }
        var mimeType: String?
        var type: String?
        var territory: String?
        let information = pointer.child("AdditionalInformation", ns)
        for other in try information?.children("OtherInformation", ns, limit: 20) ?? [] {
          if let value = other.child("MimeType", TSLNamespace.additionalTypes)?.text {
            mimeType = value
          }
          if let value = other.child("TSLType", ns)?.text { type = value }
          if let value = other.child("SchemeTerritory", ns)?.text { territory = value }
        }
        guard mimeType == nil || mimeType == TSLNamespace.tslMimeType else { continue }
        var certificates: [Certificate] = []
        let identities =
          try pointer.child("ServiceDigitalIdentities", ns)?.children(
            "ServiceDigitalIdentity", ns, limit: ETSIListLimits.maxCertificatesPerIdentity) ?? []
        for identity in identities { certificates += try TSLReader.certificates(identity) }
        pointers.append(
          TrustedListPointer(
            location: location, kind: type == TSLNamespace.lotlType ? .lotl : .tsl,
            territory: territory, operatorCertificates: certificates))
      }
      return pointers
    }
  }
#endif
