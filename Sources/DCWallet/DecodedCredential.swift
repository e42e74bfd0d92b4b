package import DCMdoc
package import DCSDJWT

/// A stored credential's issued form, decoded: the one place the wallet turns `issued` bytes
/// back into an mdoc or an SD-JWT (for matching, registration and display).
package enum DecodedCredential: Sendable {
  /// An ISO 18013-5 `IssuerSigned` structure.
  case mdoc(IssuerSigned)
  /// An SD-JWT VC as issued (compact serialization, no key binding).
  case sdJWT(SDJWT)
}

extension StoredCredential {
  /// The issued credential, decoded by its format.
  ///
  /// - Throws: `WalletError` `invalidInput` with the decoder's error as `underlying` when the
  ///   stored bytes no longer decode (a damaged row: the caller skips it).
  package func decoded() throws(WalletError) -> DecodedCredential {
    do {
      switch format {
      case .msoMdoc:
        return .mdoc(try IssuerSigned(bytes: issued))
      case .sdJWT:
        return .sdJWT(try SDJWT(serialized: String(decoding: issued, as: UTF8.self)))
      }
    } catch {
      throw WalletError(
        .invalidInput, "credential \(id) does not decode as \(format.rawValue): \(error)",
        underlying: error)
    }
  }

  /// The decoded mdoc, nil for another format or bytes that do not decode.
  var decodedMdoc: IssuerSigned? {
    if case .mdoc(let issuerSigned)? = try? decoded() { return issuerSigned }
    return nil
  }

  /// The decoded SD-JWT, nil for another format or bytes that do not decode.
  var decodedSDJWT: SDJWT? {
    if case .sdJWT(let sdJWT)? = try? decoded() { return sdJWT }
    return nil
  }
}
