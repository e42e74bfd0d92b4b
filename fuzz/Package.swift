// swift-tools-version: 6.0
// libFuzzer targets for every parser that reads outside bytes (issue 12). A separate package so
// the main package's build and tests never see the sanitizer flags; build and run it with
// `fuzz/run.sh` (README, "Fuzzing").
import PackageDescription

// The products the fuzz targets need; the protocol modules they also import (DCOpenID4VP,
// DCOrgIsoMdoc) are built as dependencies of the role products.
let libraries = [
  "DCCBOR", "DCCOSE", "DCRegistration", "DCCrypto", "DCQL", "DCJOSE", "DCJSON", "DCMdoc",
  "DCSDJWT", "DCStatusList", "DCX509", "DCWallet", "DCVerifier", "DCIssuer", "DCAPI", "DCHTTP",
  "DCOpenID4VCI", "DCMdocProximity", "DCProximityTransport",
]

let package = Package(
  name: "DigitalCredentialsFuzz",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "DigitalCredentials", path: "..")],
  targets: [
    // One binary for every target: the target is chosen by the FUZZ_TARGET environment variable,
    // so the sanitized package is linked once instead of once per target.
    .executableTarget(
      name: "dcfuzz",
      dependencies: libraries.map { .product(name: $0, package: "DigitalCredentials") }
    )
  ],
  swiftLanguageModes: [.v6]
)
