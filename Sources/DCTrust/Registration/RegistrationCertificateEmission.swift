extension RegistrationCertificate {
  /// Checks that `bytes` are a registration certificate in either form before a relying party
  /// or an issuer sends them (ETSI TS 119 475 clause 5.2): the `typ`, the signature by the leaf
  /// of its own chain and the payload (Tables 7 to 10). The provider's chain is not decided:
  /// the receiver does that against its own trust sources. Returns the registered `sub` and
  /// name.
  ///
  /// - Throws: `TrustError` as ``verifying(_:sources:at:)`` does for the structure, the `typ`
  ///   and the signature.
  package static func checkedForSending(_ bytes: [UInt8]) throws(TrustError) -> (
    subject: String, name: String
  ) {
    guard bytes.count <= RegistrationLimits.maxBytes else {
      throw TrustError(
        .tooLarge, "registration certificate of \(bytes.count) bytes is over the limit")
    }
    let signed = try isCompactJWS(bytes) ? readJWT(bytes) : readCWT(bytes)
    let claims = try RegistrationPayload(signed.payload)
    return (claims.subject, claims.name)
  }
}
