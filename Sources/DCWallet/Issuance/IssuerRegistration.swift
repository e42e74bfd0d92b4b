import DCOpenID4VCI
public import DCTrust
public import Foundation

extension IssuerContext {
  /// The issuer's registration certificate from its metadata's `issuer_info` (ETSI TS 119 472-3
  /// §4.2.3, format `registration_cert`), verified (ETSI TS 119 475 clause 5.2) against the
  /// registration-certificate providers of `providers` at `time`; nil when the metadata carries
  /// none. The first one is the issuer's.
  ///
  /// - Throws: `TrustError` as `RegistrationCertificate.verifying` does.
  public func registrationCertificate(providers: TrustSources, at time: Date) throws(TrustError)
    -> RegistrationCertificate?
  {
    guard let bytes = metadata.registrationCertificates.first else { return nil }
    return try RegistrationCertificate.verifying(bytes, sources: providers, at: time)
  }
}
