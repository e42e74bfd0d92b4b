// swift-tools-version: 6.0
// libFuzzer targets for every parser that reads outside bytes (issue 12). A separate package so
// the main package's build and tests never see the sanitizer flags; build and run it with
// `fuzz/run.sh` (README, "Fuzzing").
import PackageDescription

let libraries = [
  "CBOR", "COSE", "CredentialRegistration", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI",
  "HTTP", "JOSE", "JSON", "Mdoc", "MdocProximity", "OpenID4VCI", "OpenID4VP", "OrgIsoMdoc",
  "ProximityTransport", "SDJWT", "StatusList", "X509Certificates",
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
