// IdentityDocumentServicesBridge: the Apple-only edge between IdentityDocumentServices /
// IdentityDocumentServicesUI (iOS 26+), the Secure Enclave, LocalAuthentication and the wallet.
//
// Every file is compiled only where the Apple frameworks exist (`#if canImport(...)`), so on
// Linux this target is empty. The files translate types and nothing else; every decision they
// need lives in a Linux-tested module:
//
// - provider extension requests: `IOSProviderExchange`, `MobileDocumentSelection`,
//   `MobileDocumentRequest.readerTrust` and `ConsistencyCheck` (DigitalCredentialsAPI/Platform),
//   then `Wallet.resolve` / `Wallet.respond` (CredentialWallet);
// - registration: `RegistrationSync` (DigitalCredentialsAPI/Platform) driven by
//   `IOSRegistrationPlan` and `RegistrationStatusModel` (DigitalCredentialsAPI/Registration);
// - device keys: `KeychainKeyStore` (CredentialWallet/Store), which already creates Secure
//   Enclave keys with `.privateKeyUsage` in a keychain access group;
// - holder authentication: `Wallet`'s `UserAuthenticationPolicy` over an `AuthenticationOutcome`.
//
// See docs/ios-integration.md. None of this was compiled for an Apple platform when written.
