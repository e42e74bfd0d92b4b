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
  ("ErrorKit", []),
  ("JSON", ["ErrorKit"]),
  ("HTTP", ["ErrorKit"]),
  // ISO 18013-5 proximity transports (issue 14): the transport protocol, the BLE GATT message
  // layer, the loopback TCP development transport, the CoreBluetooth adapter (Apple only).
  ("ProximityTransport", ["ErrorKit", "CryptoPrimitives"]),
  // The development server over GNU libmicrohttpd (Linux and Android; empty elsewhere).
  ("HTTPServer", ["ErrorKit", "HTTP", .target(name: "CMicroHTTPD", condition: linuxOnly)]),
  ("CBOR", ["ErrorKit"]),
  ("CryptoPrimitives", ["ErrorKit", "JSON", .target(name: "COpenSSLShim", condition: linuxOnly)]),
  ("HPKE", ["ErrorKit", "CryptoPrimitives"]),
  ("X509Certificates", ["ErrorKit", "JSON", "CryptoPrimitives"]),
  ("COSE", ["ErrorKit", "CBOR", "CryptoPrimitives"]),
  ("JOSE", ["ErrorKit", "JSON", "CryptoPrimitives"]),
  ("DCQL", ["ErrorKit", "JSON"]),
  // IETF Token Status List (issue 15): tokens, the zlib codec (CZlib), referenced-token claims
  // and the checker, which fetches over HTTP and checks chains with X509Certificates.
  (
    "StatusList",
    [
      "ErrorKit", "JSON", "CBOR", "COSE", "JOSE", "CryptoPrimitives", "X509Certificates", "HTTP",
      "CZlib",
    ]
  ),
  ("Mdoc", ["ErrorKit", "CBOR", "COSE", "CryptoPrimitives", "X509Certificates"]),
  ("SDJWT", ["ErrorKit", "JSON", "JOSE", "CryptoPrimitives", "X509Certificates"]),
  // ISO 18013-5 proximity session layer (issue 14): engagement, NFC handover, session encryption.
  ("MdocProximity", ["ErrorKit", "JSON", "CBOR", "COSE", "CryptoPrimitives", "Mdoc"]),
  ("DigitalCredentialsAPI", ["ErrorKit", "JSON"]),
  (
    "OrgIsoMdoc",
    ["JSON", "CBOR", "COSE", "CryptoPrimitives", "DigitalCredentialsAPI", "HPKE", "JOSE", "Mdoc"]
  ),
  ("CredentialRegistration", ["ErrorKit", "JSON", "CBOR", "DigitalCredentialsAPI"]),
  (
    "OpenID4VCI",
    [
      "ErrorKit", "JSON", "JOSE", "CryptoPrimitives", "X509Certificates", "HTTP", "CBOR", "Mdoc",
      "SDJWT", "StatusList",
    ]
  ),
  // The issuer's state in SQLite (issue 13): pre-authorized and authorization codes, tokens,
  // nonces, deferred transactions, notifications.
  (
    "IssuerStore",
    ["JSON", "OpenID4VCI", "CryptoPrimitives", .target(name: "CSQLite", condition: linuxOnly)]
  ),
  (
    "OpenID4VP",
    [
      "ErrorKit", "JSON",
      "CBOR", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "JOSE", "Mdoc", "SDJWT",
      "X509Certificates",
      // Issue 16: request_uri / response_uri as HTTPRequest values, HTTPURLPolicy (no I/O).
      "HTTP",
    ]
  ),
  (
    "CredentialVerifier",
    [
      "JSON",
      "CBOR", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "JOSE", "Mdoc", "OpenID4VP",
      "OrgIsoMdoc", "SDJWT",
      "X509Certificates", "MdocProximity", "ProximityTransport",
      "HTTP", "StatusList", "ErrorKit",
    ]
  ),
  (
    "CredentialWallet",
    [
      "ErrorKit", "JSON",
      "CBOR", "COSE", "CredentialRegistration", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI",
      "JOSE", "Mdoc",
      "OpenID4VP", "OrgIsoMdoc", "SDJWT", "X509Certificates",
      "HTTP", "OpenID4VCI", "MdocProximity", "ProximityTransport",
      // Issue 15: the last known Token Status List status of stored credentials.
      "StatusList",
      .target(name: "CSQLite", condition: linuxOnly),
    ]
  ),
  // The Apple edge, one target per iOS SDK floor (`#available` guards only at run time; a
  // symbol the SDK lacks fails the whole target): 26.0, 27.0, 27.3. docs/ios-integration.md.
  (
    "IdentityDocumentServicesBridge",
    ["CredentialRegistration", "CredentialWallet", "DigitalCredentialsAPI", "Mdoc"]
  ),
  (
    "IdentityDocumentServicesBridge27",
    ["CredentialRegistration", "DigitalCredentialsAPI", "IdentityDocumentServicesBridge"]
  ),
  (
    "IdentityDocumentServicesBridge27_3",
    [
      "CredentialRegistration", "CredentialWallet", "DigitalCredentialsAPI",
      "IdentityDocumentServicesBridge",
      "IdentityDocumentServicesBridge27",
    ]
  ),
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
    // The C helpers over libcrypto (bodies in src/*.c, declarations in include/dc_openssl.h).
    .target(name: "COpenSSLShim", dependencies: [.target(name: "COpenSSL", condition: linuxOnly)]),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // libqrencode for `dcwallet present --qr` (issue 14): the QR matrix of the mdoc: URI.
    .systemLibrary(
      name: "CQRencode",
      pkgConfig: "libqrencode",
      providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
    ),
    // zlib (RFC 1950) for the Token Status List (issue 15); libz is in the Apple SDKs too.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
    ),
  ]
    + modules.map {
      .target(name: $0.name, dependencies: $0.dependencies, swiftSettings: strictSettings)
    }
    + [
      .target(
        name: "WalletCLI",
        dependencies: [
          "JSON", "CBOR", "CredentialRegistration", "CredentialVerifier", "CredentialWallet",
          "CryptoPrimitives", "DCQL",
          "DigitalCredentialsAPI", "JOSE", "Mdoc", "OpenID4VP", "OrgIsoMdoc", "SDJWT",
          "X509Certificates", "HTTP", "HTTPServer", "OpenID4VCI", "IssuerStore",
          "MdocProximity", "ProximityTransport", "StatusList",
          .target(name: "CQRencode", condition: linuxOnly),
        ],
        swiftSettings: strictSettings
      ),
      .executableTarget(
        name: "dcwallet", dependencies: ["WalletCLI"], swiftSettings: strictSettings),
      .executableTarget(name: "foundation-baseline", swiftSettings: strictSettings),
      .executableTarget(
        name: "dcbench",
        dependencies: [
          "JSON", "CBOR", "COSE", "CredentialVerifier", "CredentialWallet", "CryptoPrimitives",
          "DCQL",
          "DigitalCredentialsAPI",
          "HPKE", "JOSE", "Mdoc", "OpenID4VP", "OrgIsoMdoc", "SDJWT", "X509Certificates",
          "HTTP", "OpenID4VCI", "MdocProximity", "StatusList",
          "HTTPServer",
        ],
        swiftSettings: strictSettings
      ),
      .target(
        name: "TestSupport", dependencies: ["JSON"], path: "Tests/TestSupport",
        swiftSettings: strictSettings),
      .target(
        name: "WalletTestSupport",
        dependencies: ["CBOR", "CryptoPrimitives", "Mdoc", "X509Certificates"],
        path: "Tests/WalletTestSupport",
        swiftSettings: strictSettings
      ),
      testTarget("ErrorKit", ["CBOR"]),
      testTarget("JSON"),
      testTarget("CBOR", ["JSON"]),
      testTarget("HTTP"),
      testTarget("HTTPServer", ["HTTP"]),
      testTarget("ProximityTransport", ["CryptoPrimitives"]),
      testTarget("CryptoPrimitives"),
      testTarget("HPKE", ["CryptoPrimitives"]),
      testTarget("X509Certificates", ["CryptoPrimitives"]),
      testTarget("COSE", ["CBOR", "CryptoPrimitives"]),
      testTarget("JOSE", ["JSON", "CryptoPrimitives", "X509Certificates"]),
      testTarget("DCQL", ["JSON"]),
      testTarget(
        "StatusList",
        [
          "JSON", "CBOR", "COSE", "JOSE", "CryptoPrimitives", "X509Certificates", "HTTP",
          "HTTPServer", "Mdoc", "WalletTestSupport",
        ]),
      testTarget(
        "Mdoc", ["CBOR", "COSE", "CryptoPrimitives", "X509Certificates", "WalletTestSupport"]),
      testTarget("MdocProximity", ["JSON", "CBOR", "COSE", "CryptoPrimitives", "Mdoc"]),
      testTarget("DigitalCredentialsAPI"),
      testTarget(
        "OrgIsoMdoc",
        [
          "JSON",
          "CBOR", "COSE", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE", "Mdoc",
          "WalletTestSupport",
        ]),
      testTarget("CredentialRegistration", ["JSON", "CBOR", "DigitalCredentialsAPI", "JOSE"]),
      testTarget(
        "CredentialVerifier",
        [
          "JSON",
          "CBOR", "COSE", "CredentialWallet", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE",
          "Mdoc", "OrgIsoMdoc",
          "X509Certificates", "WalletTestSupport",
          "DCQL", "HTTP", "HTTPServer", "OpenID4VP", "SDJWT", "StatusList",
        ]),
      testTarget("SDJWT", ["JSON", "JOSE", "CryptoPrimitives", "X509Certificates"]),
      testTarget(
        "OpenID4VCI",
        [
          "JSON", "JOSE", "CryptoPrimitives", "X509Certificates", "HTTP", "CBOR", "COSE", "Mdoc",
          "SDJWT", "IssuerStore", "WalletTestSupport",
          "StatusList",
        ]),
      testTarget(
        "OpenID4VP",
        [
          "JSON",
          "CBOR", "CredentialVerifier", "CryptoPrimitives", "DCQL", "DigitalCredentialsAPI", "JOSE",
          "Mdoc", "SDJWT",
          "X509Certificates", "WalletTestSupport",
        ]),
      testTarget(
        "WalletCLI",
        [
          "JSON",
          "CBOR", "CredentialWallet", "CryptoPrimitives", "DigitalCredentialsAPI", "JOSE", "Mdoc",
          "OrgIsoMdoc", "SDJWT",
          "X509Certificates", "WalletTestSupport", "dcwallet", "HTTP", "HTTPServer", "OpenID4VCI",
          "IssuerStore", "StatusList",
        ]),
      // Writes to a wallet store from a second process, for the store's multi-process tests.
      .executableTarget(
        name: "store-probe",
        dependencies: [
          "CredentialWallet", "CryptoPrimitives", "DigitalCredentialsAPI", "Mdoc", "OrgIsoMdoc",
          "WalletTestSupport",
        ],
        path: "Tests/StoreProbe",
        swiftSettings: strictSettings
      ),
      testTarget(
        "CredentialWallet",
        [
          "JSON",
          "CBOR", "CredentialRegistration", "CredentialVerifier", "CryptoPrimitives", "DCQL",
          "DigitalCredentialsAPI", "JOSE",
          "Mdoc", "OpenID4VP", "OrgIsoMdoc", "SDJWT", "WalletTestSupport", "X509Certificates",
          "store-probe", "WalletCLI", "HTTP", "OpenID4VCI", "COSE", "MdocProximity",
          "ProximityTransport",
          "StatusList", "HTTPServer",
        ]),
    ],
  swiftLanguageModes: [.v6]
)

// Issue 17: the Apple shadow SDK (test only). With DCWALLET_APPLE_SHADOW=1 the package also
// builds Swift modules named after Apple's frameworks (Tests/AppleShadow/<Framework>), which
// declare the parts of IdentityDocumentServices, CryptoKit, Security, LocalAuthentication,
// CoreBluetooth, SwiftUI, UIKit and ExtensionKit this package uses as Apple documents them, so
// the Apple-only sources compile (and their tests run) on Linux. Build it in its own scratch
// path (`--scratch-path .build/apple-shadow`): `canImport` sees every module of a scratch path.
// docs/ARCHITECTURE.md, "The Apple edge".
if Context.environment["DCWALLET_APPLE_SHADOW"] == "1" {
  func shadow(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(
      name: name, dependencies: dependencies, path: "Tests/AppleShadow/\(name)",
      swiftSettings: strictSettings)
  }
  package.targets += [
    shadow("Security"),
    shadow("AppleShadowFoundation"),
    shadow("CryptoKit", ["Security", "LocalAuthentication"]),
    shadow("LocalAuthentication"),
    shadow("CoreBluetooth"),
    shadow("ExtensionFoundation"),
    shadow("ExtensionKit", ["ExtensionFoundation"]),
    shadow("SwiftUI"),
    shadow("UIKit"),
    shadow("IdentityDocumentServices", ["Security"]),
    shadow(
      "IdentityDocumentServicesUI",
      ["IdentityDocumentServices", "SwiftUI", "ExtensionFoundation", "ExtensionKit"]),
    // The CryptoKit backend as a checked unit of its own: CryptoPrimitives' sources (symlinks)
    // with Backend_cryptokit.swift instead of Backend_openssl.swift.
    .target(
      name: "CryptoPrimitivesOnCryptoKit",
      dependencies: ["ErrorKit", "JSON", "CryptoKit", "Security"],
      path: "Tests/AppleShadow/CryptoPrimitivesOnCryptoKit", swiftSettings: strictSettings),
    .testTarget(
      name: "AppleShadowTests",
      dependencies: [
        "IdentityDocumentServicesBridge", "IdentityDocumentServicesBridge27",
        "IdentityDocumentServicesBridge27_3", "IdentityDocumentServices",
        "IdentityDocumentServicesUI", "LocalAuthentication", "Security", "CryptoKit",
        "CoreBluetooth", "CryptoPrimitivesOnCryptoKit", "CredentialWallet",
        "CredentialRegistration",
        "DigitalCredentialsAPI", "CBOR", "COSE", "CryptoPrimitives", "Mdoc", "OrgIsoMdoc",
        "X509Certificates", "JSON", "ProximityTransport", "WalletTestSupport", "TestSupport",
      ],
      path: "Tests/AppleShadowTests", swiftSettings: strictSettings),
    // The Swift snippets of docs/ios-integration.md (extracted by Tests/AppleShadow/extract-guide.sh).
    .target(
      name: "IntegrationGuideSnippets",
      dependencies: [
        "IdentityDocumentServicesBridge", "IdentityDocumentServicesBridge27",
        "IdentityDocumentServicesBridge27_3", "IdentityDocumentServicesUI", "CredentialWallet",
        "DigitalCredentialsAPI", "Mdoc", "SwiftUI", "UIKit", "ExtensionKit",
        "AppleShadowFoundation", "CredentialRegistration", "X509Certificates",
      ],
      path: "Tests/AppleShadow/IntegrationGuideSnippets", swiftSettings: strictSettings),
  ]
  let shadowed: [String: [Target.Dependency]] = [
    // OpenSSL stays the backend of the real CryptoPrimitives (Backend_openssl.swift).
    "CryptoPrimitives": [],
    "CredentialWallet": ["Security", "CryptoKit"],
    "ProximityTransport": ["CoreBluetooth"],
    "IdentityDocumentServicesBridge": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security", "CryptoKit",
      "LocalAuthentication", "AppleShadowFoundation",
    ],
    "IdentityDocumentServicesBridge27": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security",
    ],
    "IdentityDocumentServicesBridge27_3": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security",
    ],
  ]
  // Only what the shadow targets need is built: the other test targets and the executables run
  // in the main configuration (this one rebuilds every module in its own scratch path).
  var needed: Set<String> = ["AppleShadowTests", "IntegrationGuideSnippets"]
  var pending = Array(needed)
  let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
  while let name = pending.popLast() {
    let dependencies = (byName[name]?.dependencies ?? []) + (shadowed[name] ?? [])
    for dependency in dependencies {
      switch dependency {
      case .targetItem(let name, _), .byNameItem(let name, _):
        if needed.insert(name).inserted { pending.append(name) }
      default: break
      }
    }
  }
  package.targets.removeAll { !needed.contains($0.name) }
  // Every product is named after its one target.
  package.products.removeAll { !needed.contains($0.name) }
  for target in package.targets {
    guard let extra = shadowed[target.name] else { continue }
    target.dependencies += extra
    target.swiftSettings =
      (target.swiftSettings ?? []) + [
        .define("DCWALLET_APPLE_SHADOW"), .define("DCWALLET_OPENSSL_BACKEND"),
      ]
  }
}
