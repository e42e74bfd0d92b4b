// swift-tools-version: 6.0
// Issue 27: what an app needs. Three small targets written as an app of each role would use the
// SDK: a wallet, a relying party, an issuer; and the Swift code of the DocC articles (issue 28). They depend on this package by path and on its
// products only, so they see only its public face; `.ci/app-consumer-check` builds them.
import PackageDescription

let package = Package(
  name: "AppConsumer",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(name: "DigitalCredentials", path: "../..")],
  targets: [
    .target(
      name: "WalletApp",
      dependencies: [
        .product(name: "DCWallet", package: "DigitalCredentials"),
        .product(name: "DCAPI", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
        .product(name: "DCMdocProximity", package: "DigitalCredentials"),
        .product(name: "DCProximityTransport", package: "DigitalCredentials"),
      ]),
    .target(
      name: "RelyingPartyApp",
      dependencies: [
        .product(name: "DCVerifier", package: "DigitalCredentials"),
        .product(name: "DCAPI", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
        .product(name: "DCJSON", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
        .product(name: "DCMdoc", package: "DigitalCredentials"),
        .product(name: "DCProximityTransport", package: "DigitalCredentials"),
      ]),
    .target(
      name: "IssuerApp",
      dependencies: [
        .product(name: "DCIssuer", package: "DigitalCredentials"),
        .product(name: "DCOpenID4VCI", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
        .product(name: "DCJSON", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
      ]),
    // The Swift code of the DocC articles, extracted by .ci/extract-articles.
    .target(
      name: "WalletArticles",
      dependencies: [
        .product(name: "DCWallet", package: "DigitalCredentials"),
        .product(name: "DCAPI", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
        .product(name: "DCJSON", package: "DigitalCredentials"),
        .product(name: "DCRegistration", package: "DigitalCredentials"),
        .product(name: "DCMdocProximity", package: "DigitalCredentials"),
        .product(name: "DCProximityTransport", package: "DigitalCredentials"),
      ]),
    // The Swift code of the DocC articles, extracted by .ci/extract-articles.
    .target(
      name: "VerifierArticles",
      dependencies: [
        .product(name: "DCVerifier", package: "DigitalCredentials"),
        .product(name: "DCAPI", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCJSON", package: "DigitalCredentials"),
        .product(name: "DCMdoc", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
      ]),
    // The Swift code of the DocC articles, extracted by .ci/extract-articles.
    .target(
      name: "IssuerArticles",
      dependencies: [
        .product(name: "DCIssuer", package: "DigitalCredentials"),
        .product(name: "DCCrypto", package: "DigitalCredentials"),
        .product(name: "DCHTTP", package: "DigitalCredentials"),
        .product(name: "DCJSON", package: "DigitalCredentials"),
        .product(name: "DCOpenID4VCI", package: "DigitalCredentials"),
        .product(name: "DCX509", package: "DigitalCredentials"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
