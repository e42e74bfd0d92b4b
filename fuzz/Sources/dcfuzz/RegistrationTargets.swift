import DCTrust
import Foundation

/// A registration certificate in either form (ETSI TS 119 475 clause 5.2), verified against no
/// provider: every input must end in a typed error, never a crash or a hang.
func fuzzWRPRC(_ data: [UInt8]) {
  let time = Date(timeIntervalSince1970: 1_780_000_000)
  do {
    _ = try RegistrationCertificate.verifying(data, sources: TrustSources(), at: time)
    violated("a registration certificate verified with no trusted provider")
  } catch {
    _ = error.code
  }
}

/// The payload claims (Tables 7 to 10) as JSON, read without a signature, so the fuzzer reaches
/// the claim reader the signature check otherwise guards.
func fuzzWRPRCPayload(_ data: [UInt8]) {
  do {
    try RegistrationCertificate.readPayload(json: data)
  } catch {
    _ = error.code
  }
}
