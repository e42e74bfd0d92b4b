import DCCrypto
import DCEncoding
package import DCX509
package import Foundation

/// What a development list says, for the builders that sign a LoTE or a TSL (tests and
/// `dcwallet dev files`).
package struct ETSIListContent: Sendable {
  /// One listed service.
  package struct Entry: Sendable {
    /// The entity's (provider's) name.
    package var name: String
    /// The service type URI (``ETSIServiceTypeURI``, or a TS 119 612 type).
    package var serviceTypeURI: String
    /// The service's certificates.
    package var certificates: [Certificate]
    /// The service status URI; none leaves a LoTE service without one (granted).
    package var status: String?

    /// Creates an entry.
    package init(
      name: String, serviceTypeURI: String, certificates: [Certificate], status: String? = nil
    ) {
      self.name = name
      self.serviceTypeURI = serviceTypeURI
      self.certificates = certificates
      self.status = status
    }
  }

  /// A pointer to another list (a LOTL's).
  package struct Pointer: Sendable {
    /// Where the list is published.
    package var location: URL
    /// The territory (country code) of the pointed list.
    package var territory: String
    /// The certificates the pointed list is signed with.
    package var certificates: [Certificate]

    /// Creates a pointer.
    package init(location: URL, territory: String, certificates: [Certificate]) {
      self.location = location
      self.territory = territory
      self.certificates = certificates
    }
  }

  /// The operator's name.
  package var operatorName: String
  /// The scheme territory (a country code, or EU).
  package var territory: String
  /// The sequence number, 1 for the first list.
  package var sequenceNumber: Int
  /// When the list is issued.
  package var issued: Date
  /// When the next list is due.
  package var nextUpdate: Date
  /// The listed services.
  package var entries: [Entry]
  /// The pointers to other lists.
  package var pointers: [Pointer]

  /// Creates the content of a list.
  package init(
    operatorName: String, territory: String = "EU", sequenceNumber: Int = 1, issued: Date,
    nextUpdate: Date, entries: [Entry], pointers: [Pointer] = []
  ) {
    self.operatorName = operatorName
    self.territory = territory
    self.sequenceNumber = sequenceNumber
    self.issued = issued
    self.nextUpdate = nextUpdate
    self.entries = entries
    self.pointers = pointers
  }
}

/// Certificates as the ETSI lists carry them: base64 DER.
enum ETSICertificate {
  static func read(base64 text: String) throws(TrustError) -> Certificate {
    let der: [UInt8]
    do {
      der = try Base64.decode(text.filter { !$0.isWhitespace })
    } catch {
      throw TrustError(.malformed, "a listed certificate is not base64", underlying: error)
    }
    do {
      return try Certificate(derEncoded: der)
    } catch {
      throw TrustError(.malformed, "a listed certificate does not parse", underlying: error)
    }
  }
}
