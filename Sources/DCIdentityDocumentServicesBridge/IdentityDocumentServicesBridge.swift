// IdentityDocumentServicesBridge: the Apple-only edge between IdentityDocumentServices /
// IdentityDocumentServicesUI (iOS 26+), the Secure Enclave, LocalAuthentication and the wallet.
//
// SDK floor: this target uses iOS 26.0 symbols only and builds with the iOS 26 SDK.
// `#available` guards only at run time, so newer symbols live in targets of their own:
// IdentityDocumentServicesBridge27 (iOS 27.0 SDK) and IdentityDocumentServicesBridge27_3
// (iOS 27.3 SDK). See Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md, "Products and their SDK floors".
//
// Every file is compiled only where the Apple frameworks exist (`#if canImport(...)`), so in the
// main Linux build this target is empty; with DCWALLET_APPLE_SHADOW=1 it is compiled and tested
// against the Apple shadow SDK (Tests/AppleShadow, issue 17). The files translate types and nothing else; every decision they
// need lives in a Linux-tested module:
//
// - provider extension requests: `IOSProviderExchange`, `MobileDocumentSelection`,
//   `MobileDocumentRequest.readerTrust` and `ConsistencyCheck` (CredentialWallet/Platform),
//   then `Wallet.resolve` / `Wallet.respond` (CredentialWallet);
// - registration: `RegistrationSync` (CredentialRegistration) driven by
//   `IOSRegistrationPlan` and `RegistrationStatusModel` (DigitalCredentialsAPI/Registration);
// - suspension: `WalletStore.suspend()` / `resume()` (CredentialWallet/Store), behind
//   `SharedWallet`;
// - device keys: `KeychainKeyStore` (CredentialWallet/Store), which already creates Secure
//   Enclave keys with `.privateKeyUsage` in a keychain access group;
// - holder authentication: `Wallet`'s `UserAuthenticationPolicy` over an `AuthenticationOutcome`.
//
// See Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md. None of this was compiled with Apple's SDK when written.
