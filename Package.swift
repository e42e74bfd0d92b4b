// swift-tools-version: 6.0
// The Digital Credentials wallet SDK. Zero package dependencies: crypto comes from the system's
// OpenSSL 3 `libcrypto` on Linux (CryptoKit on Apple platforms). See docs/ARCHITECTURE.md.
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let linuxOnly = TargetDependencyCondition.when(platforms: [.linux, .android])

/// The protocol modules, each with the modules it may import (docs/ARCHITECTURE.md, "Modules").
let modules: [(name: String, dependencies: [Target.Dependency])] = [
  ("JSON", []),
  ("CBOR", []),
  ("CryptoPrimitives", [.target(name: "COpenSSL", condition: linuxOnly)]),
  ("HPKE", ["CryptoPrimitives"]),
  ("X509Certificates", ["CryptoPrimitives", "JSON"]),
  ("COSE", ["CBOR", "CryptoPrimitives", "X509Certificates"]),
  ("JOSE", ["CryptoPrimitives", "JSON", "X509Certificates"]),
  ("DCQL", ["JSON"]),
  ("Mdoc", ["CBOR", "COSE", "CryptoPrimitives", "X509Certificates"]),
  ("DigitalCredentialsAPI", ["CBOR", "COSE", "CryptoPrimitives", "DCQL", "HPKE", "JOSE", "JSON", "Mdoc", "X509Certificates"]),
  ("CredentialVerifier", ["CBOR", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE", "JSON", "Mdoc", "X509Certificates"]),
  ("SDJWT", ["JOSE", "JSON", "CryptoPrimitives", "X509Certificates"]),
  ("OpenID4VP", ["CBOR", "CryptoPrimitives", "DCQL", "HPKE", "JOSE", "JSON", "Mdoc", "SDJWT", "X509Certificates"]),
  (
    "CredentialWallet",
    [
      "CBOR", "COSE", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "HPKE", "JOSE", "JSON", "Mdoc", "OpenID4VP",
      "SDJWT", "X509Certificates", .target(name: "CSQLite", condition: linuxOnly),
    ]
  ),
  ("IdentityDocumentServicesBridge", ["CredentialWallet", "DigitalCredentialsAPI", "CryptoPrimitives", "OpenID4VP", "JOSE", "JSON", "Mdoc", "X509Certificates"]),
]

/// One Swift Testing target per module, with its published vectors in `Vectors/`.
func testTarget(_ module: String, _ extra: [Target.Dependency] = []) -> Target {
  .testTarget(
    name: "\(module)Tests",
    dependencies: [.target(name: module), "TestSupport"] + extra,
    resources: [.copy("Vectors")],
    swiftSettings: strictSettings
  )
}

let package = Package(
  name: "DigitalCredentials",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: modules.map { .library(name: $0.name, targets: [$0.name]) } + [
    .executable(name: "dcwallet", targets: ["dcwallet"]),
    .executable(name: "dcbench", targets: ["dcbench"]),
  ],
  targets: [
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
  ]
    + modules.map { .target(name: $0.name, dependencies: $0.dependencies, swiftSettings: strictSettings) }
    + [
      .target(
        name: "WalletCLI",
        dependencies: [
          "CBOR", "CredentialVerifier", "CredentialWallet", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE", "JSON",
          "Mdoc", "OpenID4VP", "SDJWT", "X509Certificates",
        ],
        swiftSettings: strictSettings
      ),
      .executableTarget(name: "dcwallet", dependencies: ["WalletCLI"], swiftSettings: strictSettings),
      .executableTarget(name: "foundation-baseline", swiftSettings: strictSettings),
      .executableTarget(
        name: "dcbench",
        dependencies: [
          "CBOR", "COSE", "CredentialWallet", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "HPKE", "JOSE", "JSON",
          "Mdoc", "OpenID4VP", "SDJWT", "X509Certificates",
        ],
        swiftSettings: strictSettings
      ),
      .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
      .target(
        name: "WalletTestSupport",
        dependencies: ["CBOR", "CryptoPrimitives", "Mdoc", "X509Certificates"],
        path: "Tests/WalletTestSupport",
        swiftSettings: strictSettings
      ),
      testTarget("JSON"),
      testTarget("CBOR"),
      testTarget("CryptoPrimitives"),
      testTarget("HPKE", ["CryptoPrimitives"]),
      testTarget("X509Certificates", ["CryptoPrimitives"]),
      testTarget("COSE", ["CBOR", "CryptoPrimitives"]),
      testTarget("JOSE", ["CryptoPrimitives", "JSON"]),
      testTarget("DCQL", ["JSON"]),
      testTarget("Mdoc", ["CBOR", "COSE", "CryptoPrimitives", "X509Certificates", "WalletTestSupport"]),
      testTarget("DigitalCredentialsAPI", ["CBOR", "CryptoPrimitives", "HPKE", "JOSE", "JSON", "Mdoc", "WalletTestSupport"]),
      .testTarget(
        name: "RegistrationTests",
        dependencies: ["DigitalCredentialsAPI", "CBOR", "JOSE", "JSON", "TestSupport"],
        resources: [.copy("Vectors")],
        swiftSettings: strictSettings
      ),
      testTarget(
        "CredentialVerifier",
        ["CBOR", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE", "JSON", "Mdoc", "X509Certificates", "WalletTestSupport"]),
      testTarget("SDJWT", ["JOSE", "JSON", "CryptoPrimitives", "X509Certificates"]),
      testTarget("OpenID4VP", ["CBOR", "CryptoPrimitives", "DCQL", "JOSE", "JSON", "Mdoc", "SDJWT", "X509Certificates", "WalletTestSupport"]),
      testTarget(
        "WalletCLI", ["CBOR", "CryptoPrimitives", "JOSE", "JSON", "Mdoc", "X509Certificates", "WalletTestSupport", "dcwallet"]),
      // Writes to a wallet store from a second process, for the store's multi-process tests.
      .executableTarget(
        name: "store-probe",
        dependencies: ["CredentialWallet"],
        path: "Tests/StoreProbe",
        swiftSettings: strictSettings
      ),
      testTarget(
        "CredentialWallet",
        ["CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "JOSE", "JSON", "Mdoc", "OpenID4VP", "SDJWT", "WalletTestSupport", "X509Certificates", "store-probe"]),
    ],
  swiftLanguageModes: [.v6]
)
