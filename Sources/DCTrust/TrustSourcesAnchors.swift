public import DCX509
public import Foundation

extension TrustSources {
  /// Every certificate a chain may end at for `purpose` at `time`: the anchors for the purpose,
  /// then the certificates of each granted entry whose service serves it, in the lists that
  /// ``decide(chain:for:at:policies:revocation:docType:format:)`` would consult
  /// (not disabled, not stale under a refusing
  /// policy). For checks that take a set of roots (ISO 18013-5 readerAuth, OpenID4VP x509
  /// client identifiers, SD-JWT VC x5c): the same chains are trusted as with `decide`, which
  /// then names the source. With `docType` (an mdoc's), an entry restricted to other document
  /// types (a VICAL's docType, ISO/IEC 18013-5 Annex C.1.7.1) is left out; with `format`, the
  /// anchors and entries for other credential formats are.
  public func anchorCertificates(
    for purpose: TrustPurpose, at time: Date, docType: String? = nil,
    format: IssuerCredentialFormat? = nil
  ) -> [Certificate] {
    var certificates: [Certificate] = []
    var seen = Set<Certificate>()
    for anchor in anchors where anchor.serves(purpose, format: format) {
      if seen.insert(anchor.certificate).inserted { certificates.append(anchor.certificate) }
    }
    for list in lists where isConsulted(list, at: time) {
      for entity in list.entities
      where entity.isGranted && entity.serves(purpose, format: format)
        && (docType == nil || entity.docTypes.isEmpty || entity.docTypes.contains(docType ?? ""))
      {
        for certificate in entity.certificates where seen.insert(certificate).inserted {
          certificates.append(certificate)
        }
      }
    }
    return certificates
  }

  /// The granted credential-issuer entries for `format`, in consulted lists, that are
  /// restricted to document types (a VICAL's docType): the sources a decision without them
  /// would have used, for naming the restriction when they trust nothing.
  package func restrictedEntries(format: IssuerCredentialFormat, at time: Date)
    -> [(list: TrustedList, entity: TrustedEntity)]
  {
    lists.filter { isConsulted($0, at: time) }.flatMap { list in
      list.entities.filter {
        $0.isGranted && !$0.docTypes.isEmpty && $0.serves(.credentialIssuer, format: format)
      }.map { (list, $0) }
    }
  }

  /// Whether `decide` consults `list` at `time`: its kind is enabled, and it is fresh or the
  /// policy accepts stale lists.
  package func isConsulted(_ list: TrustedList, at time: Date) -> Bool {
    !disabledKinds.contains(list.kind) && (staleListPolicy == .accept || !list.isStale(at: time))
  }
}
