import DCCBOR

extension ItemsRequest {
  /// The `requestInfo` key of a relying party's registration certificate (ETSI TS 119 475;
  /// the EUDI wallets' `euWrprc`): a bstr holding the JWT's ASCII or the CWT's COSE_Sign1.
  package static let registrationCertificateKey = "euWrprc"

  /// An ItemsRequest whose `requestInfo` carries `certificate` as `euWrprc`, beside any other
  /// request info.
  package func carrying(registrationCertificate certificate: [UInt8]) -> ItemsRequest {
    var info = requestInfo ?? CBORMap()
    info[Self.registrationCertificateKey] = .byteString(certificate)
    return ItemsRequest(docType: docType, nameSpaces: nameSpaces, requestInfo: info)
  }
}

extension DeviceRequest {
  /// The registration certificate the reader sent in its ItemsRequests' `requestInfo`
  /// (`euWrprc`); nil when none carries one. The same certificate repeated in every ItemsRequest
  /// is one certificate; a text string is read as a JWT's text.
  ///
  /// - Throws: `MdocError.malformed` when `euWrprc` is neither a bstr nor a tstr, or when two
  ///   ItemsRequests carry different certificates (which would say the reader is registered for
  ///   each document by someone else).
  package func registrationCertificate() throws(MdocError) -> [UInt8]? {
    var found: [UInt8]?
    for request in docRequests {
      guard let item = request.itemsRequest.requestInfo?[ItemsRequest.registrationCertificateKey]
      else { continue }
      let bytes: [UInt8]
      if let data = item.bytes {
        bytes = data
      } else if let text = item.text {
        bytes = Array(text.utf8)
      } else {
        throw MdocError(.malformed, "requestInfo euWrprc must be a bstr")
      }
      if let found, found != bytes {
        throw MdocError(
          .malformed, "the DeviceRequest carries two different registration certificates")
      }
      found = bytes
    }
    return found
  }
}
