// swift-tools-version: 6.0
// Issue 27: what an app needs. Three small targets written as an app of each role would use the
// SDK (a wallet, a relying party, an issuer) and the Swift code of the DocC articles (issue 28).
// They depend on this package by path and on its products only, so they see only its public
// face; `.ci/app-consumer-check` builds them.
import PackageDescription

/// A target that depends on the named products of this package, as an app's would.
func app(_ name: String, _ products: String...) -> Target {
  .target(
    name: name,
    dependencies: products.map { .product(name: $0, package: "DigitalCredentials") })
}

let package = Package(
  name: "AppConsumer",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(name: "DigitalCredentials", path: "../..")],
  targets: [
    app(
      "WalletApp", "DCWallet", "DCAPI", "DCHTTP", "DCCrypto", "DCX509", "DCMdocProximity",
      "DCProximityTransport"),
    app(
      "RelyingPartyApp", "DCVerifier", "DCAPI", "DCHTTP", "DCJSON", "DCCrypto", "DCX509", "DCMdoc",
      "DCProximityTransport"),
    app("IssuerApp", "DCIssuer", "DCOpenID4VCI", "DCHTTP", "DCJSON", "DCCrypto", "DCX509"),
    // The Swift code of the DocC articles, extracted by .ci/extract-articles.
    app(
      "WalletArticles", "DCWallet", "DCAPI", "DCCrypto", "DCX509", "DCHTTP", "DCJSON",
      "DCRegistration", "DCMdocProximity", "DCProximityTransport"),
    app(
      "VerifierArticles", "DCVerifier", "DCAPI", "DCCrypto", "DCJSON", "DCMdoc", "DCX509", "DCHTTP"),
    app("IssuerArticles", "DCIssuer", "DCCrypto", "DCHTTP", "DCJSON", "DCOpenID4VCI", "DCX509"),
  ],
  swiftLanguageModes: [.v6]
)
