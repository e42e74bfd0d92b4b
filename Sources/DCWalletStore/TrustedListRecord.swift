package import Foundation

/// A trusted list the wallet imported (issue 29): the list as published, the operator
/// certificates it was verified with, where it came from, and the verified list's model, in one
/// authenticated row.
///
/// The store does not read lists: the wallet verifies a list against its operator certificates
/// before it writes the row, and reads `verifiedForm` back only when the row's authentication tag
/// (HMAC-SHA256 under the settings key, as for trust anchors) checks, so that a database writer
/// without the key can neither add a list nor add an entry to one.
package struct TrustedListRecord: Sendable, Hashable {
  /// The list's identifier in this wallet.
  package let id: String
  /// The list's kind (`TrustedListKind`'s raw value: `lote`, `tsl`, `lotl`, `vical`, `rical`).
  package let kind: String
  /// Where the list was fetched from (an https URL), for `refresh`; nil for a list imported from
  /// a file.
  package let location: String?
  /// The list exactly as published (JSON, XML or COSE bytes).
  package let listBytes: [UInt8]
  /// The DER of each operator certificate the list was verified against.
  package let operatorCertificates: [[UInt8]]
  /// The verified list's model (`TrustedList.storedForm`).
  package let verifiedForm: [UInt8]
  /// When the list was imported or last refreshed (millisecond precision).
  package let importedAt: Date
  /// HMAC-SHA256 over the row under the settings authentication key; nil when written without it.
  package let authenticationTag: [UInt8]?

  /// Creates a record.
  package init(
    id: String = UUID().uuidString.lowercased(), kind: String, location: String?,
    listBytes: [UInt8], operatorCertificates: [[UInt8]], verifiedForm: [UInt8],
    importedAt: Date = Date(), authenticationTag: [UInt8]? = nil
  ) {
    self.id = id
    self.kind = kind
    self.location = location
    self.listBytes = listBytes
    self.operatorCertificates = operatorCertificates
    self.verifiedForm = verifiedForm
    self.importedAt = StoreTime.normalized(importedAt)
    self.authenticationTag = authenticationTag
  }

  /// This record with an authentication tag.
  package func tagged(_ tag: [UInt8]) -> TrustedListRecord {
    TrustedListRecord(
      id: id, kind: kind, location: location, listBytes: listBytes,
      operatorCertificates: operatorCertificates, verifiedForm: verifiedForm,
      importedAt: importedAt, authenticationTag: tag)
  }
}
