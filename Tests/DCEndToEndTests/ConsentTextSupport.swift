import DCWallet

@testable import DCWalletCLI

// The consent tests written against claim names and screen text: the names are resolved and
// the screen is worded by the command line (`ClaimName`, `ConsentScreen.text`), the library
// takes and gives values.
extension PresentationRequest {
  /// The consent for credentials and claim names as `dcwallet respond` builds it.
  func consent(credentials: [String], disclose: [String]) throws(WalletError)
    -> PresentationConsent
  {
    try consent(
      ConsentSelection(
        credentialIDs: credentials,
        claims: disclose.isEmpty ? nil : ClaimName.references(disclose, in: self)))
  }
}
