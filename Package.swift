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
  ("DCErrors", []),
  // Hex and base64 (RFC 4648), below every module that reads or writes them.
  ("DCEncoding", ["DCErrors"]),
  ("DCJSON", ["DCErrors"]),
  ("DCHTTP", ["DCErrors"]),
  // ISO 18013-5 proximity transports (issue 14): the transport protocol, the BLE GATT message
  // layer, the loopback TCP development transport, the CoreBluetooth adapter (Apple only).
  ("DCProximityTransport", ["DCErrors", "DCCrypto"]),
  // The development server over GNU libmicrohttpd (Linux and Android; empty elsewhere).
  ("DCHTTPServer", ["DCErrors", "DCHTTP", .target(name: "CDCMicroHTTPD", condition: linuxOnly)]),
  ("DCCBOR", ["DCErrors"]),
  // The one SQLite layer (issue 27): connection, kept statements, transactions, migrations,
  // authenticated rows; the wallet's store and the issuer's state are built on it.
  ("DCStore", ["DCErrors", "DCCrypto", .target(name: "CDCSQLite", condition: linuxOnly)]),
  // The PostgreSQL layer (issue 31) over libpq: pooled connections, bound parameters only,
  // transactions, numbered migrations; the servers' shared state when they run as several
  // instances.
  ("DCPostgreSQL", ["DCErrors", .target(name: "CDCPostgreSQL", condition: linuxOnly)]),
  ("DCCrypto", ["DCErrors", "DCEncoding", .target(name: "CDCOpenSSLShim", condition: linuxOnly)]),
  ("DCHPKE", ["DCErrors", "DCCrypto"]),
  ("DCX509", ["DCErrors", "DCEncoding", "DCCrypto"]),
  ("DCCOSE", ["DCErrors", "DCCBOR", "DCCrypto"]),
  ("DCJOSE", ["DCErrors", "DCEncoding", "DCJSON", "DCCrypto"]),
  ("DCQL", ["DCErrors", "DCEncoding", "DCJSON"]),
  // IETF Token Status List (issue 15): tokens, the zlib codec (CZlib), referenced-token claims
  // and the checker, which fetches over HTTP and checks chains with X509Certificates.
  (
    "DCStatusList",
    [
      "DCErrors", "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCJOSE", "DCCrypto", "DCX509",
      "DCHTTP", "CDCZlib",
    ]
  ),
  // Issue 33: Longfellow zero-knowledge proofs (draft-google-cfrg-libzk): fields, Reed–Solomon,
  // Merkle, transcript, sumcheck, Ligero, circuits (zstd), and the mdoc layer on top.
  (
    "DCZK",
    [
      "DCErrors", "DCCrypto", "DCCBOR", "DCEncoding", "CDCZKShim",
      .target(name: "CDCZstd", condition: linuxOnly),
    ]
  ),
  ("DCMdoc", ["DCErrors", "DCCBOR", "DCCOSE", "DCCrypto", "DCX509"]),
  // Trust at EU scale (issue 29): trusted lists (LoTE, TSL/LOTL, VICAL/RICAL) verified against
  // their operators, registration certificates, trust decisions that name list and entry.
  (
    "DCTrust",
    [
      "DCErrors", "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCJOSE", "DCCrypto", "DCX509",
      "DCHTTP", .target(name: "CDCXMLSecShim", condition: linuxOnly),
    ]
  ),
  ("DCSDJWT", ["DCErrors", "DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509"]),
  // ISO 18013-5 proximity session layer (issue 14): engagement, NFC handover, session encryption.
  (
    "DCMdocProximity",
    ["DCErrors", "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCCrypto", "DCMdoc"]
  ),
  ("DCAPI", ["DCErrors", "DCJSON"]),
  (
    "DCOrgIsoMdoc",
    [
      "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCCrypto", "DCAPI", "DCHPKE", "DCJOSE",
      "DCMdoc",
    ]
  ),
  ("DCRegistration", ["DCErrors", "DCEncoding", "DCJSON", "DCCBOR", "DCAPI"]),
  (
    "DCOpenID4VCI",
    ["DCErrors", "DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509", "DCHTTP"]
  ),
  (
    "DCOpenID4VP",
    [
      "DCErrors", "DCEncoding", "DCJSON",
      "DCCBOR", "DCCrypto", "DCQL", "DCAPI", "DCJOSE", "DCMdoc", "DCSDJWT",
      "DCX509",
      // Issue 16: request_uri / response_uri as HTTPRequest values, HTTPURLPolicy (no I/O).
      "DCHTTP",
    ]
  ),
  (
    "DCVerifier",
    [
      "DCEncoding", "DCJSON",
      "DCCBOR", "DCCrypto", "DCQL", "DCAPI", "DCJOSE", "DCMdoc", "DCOpenID4VP",
      "DCOrgIsoMdoc", "DCSDJWT",
      "DCX509", "DCMdocProximity", "DCProximityTransport",
      "DCHTTP", "DCStatusList", "DCErrors",
      // Issue 31: transactions in SQLite or PostgreSQL, so they outlive an instance.
      "DCStore", "DCPostgreSQL",
      // Issue 33: Longfellow circuits (and, with zk-oracle's mdoc layer, the proof check).
      "DCZK",
      // Issue 29: issuer trust from anchors and verified trusted lists, named in the report.
      "DCTrust",
    ]
  ),
  // The wallet's store (issue 27): credentials, device keys, trust anchors, the activity log,
  // settings and issuance state on the one SQLite layer, below the wallet role, which re-exports
  // it (its values are the wallet's: an app imports DCWallet alone).
  ("DCWalletStore", ["DCErrors", "DCEncoding", "DCJSON", "DCCrypto", "DCX509", "DCStore"]),
  (
    "DCWallet",
    [
      "DCErrors", "DCEncoding", "DCJSON",
      "DCCBOR", "DCCOSE", "DCRegistration", "DCCrypto", "DCQL", "DCAPI",
      "DCJOSE", "DCMdoc",
      "DCOpenID4VP", "DCOrgIsoMdoc", "DCSDJWT", "DCX509",
      "DCHTTP", "DCOpenID4VCI", "DCMdocProximity", "DCProximityTransport",
      // Issue 15: the last known Token Status List status of stored credentials.
      "DCStatusList", "DCWalletStore",
      // Issue 29: trust decisions from anchors and verified trusted lists, and relying-party
      // registration certificates checked against trusted providers.
      "DCTrust",
      // Issue 33: the Longfellow prover, for requests that ask for a zero-knowledge proof.
      "DCZK",
    ]
  ),
  // The issuer role: offers, authorization, tokens, nonces, minting, status publication, and its
  // state (in memory or in SQLite).
  (
    "DCIssuer",
    [
      "DCErrors", "DCEncoding", "DCJSON", "DCCBOR", "DCJOSE", "DCCrypto", "DCX509", "DCHTTP",
      "DCMdoc", "DCSDJWT", "DCStatusList", "DCOpenID4VCI", "DCStore", "DCPostgreSQL",
    ]
  ),
  // The Apple edge, one target per iOS SDK floor (`#available` guards only at run time; a
  // symbol the SDK lacks fails the whole target): 26.0, 27.0, 27.3. Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md.
  (
    "DCIdentityDocumentServicesBridge",
    ["DCRegistration", "DCWallet", "DCAPI", "DCMdoc"]
  ),
  (
    "DCIdentityDocumentServicesBridge27",
    ["DCRegistration", "DCAPI", "DCIdentityDocumentServicesBridge"]
  ),
  (
    "DCIdentityDocumentServicesBridge27_3",
    [
      "DCRegistration", "DCWallet", "DCAPI",
      "DCIdentityDocumentServicesBridge",
      "DCIdentityDocumentServicesBridge27",
    ]
  ),
]

/// What an app imports (docs/ARCHITECTURE.md, "Products"): one library per role, the Apple edge of
/// the wallet role, the format libraries a developer uses on their own, and the protocol modules
/// whose values an app of a role names. Every other module (OpenID4VP, Annex C, the HTTP server,
/// errors, C shims) is built as a dependency of these and is not a product.
let products = [
  // Roles.
  "DCWallet", "DCVerifier", "DCIssuer",
  // The wallet role's Apple edge, one per iOS SDK floor, and its registration planning.
  "DCIdentityDocumentServicesBridge", "DCIdentityDocumentServicesBridge27",
  "DCIdentityDocumentServicesBridge27_3", "DCRegistration",
  // Format libraries.
  "DCEncoding", "DCCBOR", "DCJSON", "DCCrypto", "DCHPKE", "DCX509", "DCCOSE", "DCJOSE", "DCMdoc",
  "DCSDJWT", "DCQL", "DCStatusList", "DCTrust",
  // What an app of a role names beside its role product (Tests/AppConsumer): the DC API request
  // and response envelope and `WebOrigin`; the HTTP values, client and handler protocol the roles
  // speak through; OpenID4VCI offers and metadata (an issuer's configuration, a wallet's offer);
  // the ISO 18013-5 in-person session and its transports (engagement, BLE).
  "DCAPI", "DCHTTP", "DCOpenID4VCI", "DCMdocProximity", "DCProximityTransport",
]

/// One Swift Testing target per module, with its published vectors in `Vectors/`.
func testTarget(_ module: String, _ extra: [Target.Dependency] = []) -> Target {
  .testTarget(
    name: "\(module)Tests",
    dependencies: [.target(name: module), "DCTestSupport"] + extra,
    resources: [.copy("Vectors")],
    swiftSettings: strictSettings
  )
}

let package = Package(
  name: "DigitalCredentials",
  // One floor per platform for the whole package: iOS 17 / macOS 14 is what the formats, the
  // verifier, the issuer and the wallet's store, keys and proximity presentment need. The Digital
  // Credentials API needs iOS 26: every bridge declaration that touches IdentityDocumentServices
  // is `@available(iOS 26.0, *)` (OpenID4VP `@available(iOS 27.3, *)`), so an app below iOS 26
  // must guard it, and the provider extension deploys at iOS 26 or later
  // (Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md, "Products and their SDK floors").
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: products.map { .library(name: $0, targets: [$0]) } + [
    .executable(name: "dcwallet", targets: ["dcwallet"]),
    .executable(name: "dcbench", targets: ["dcbench"]),
  ],
  targets: [
    .systemLibrary(
      name: "CDCOpenSSL",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    // The C helpers over libcrypto (bodies in src/*.c, declarations in include/dc_openssl.h).
    .target(
      name: "CDCOpenSSLShim", dependencies: [.target(name: "CDCOpenSSL", condition: linuxOnly)]),
    // libxml2 + xmlsec1 with its OpenSSL backend (issue 29): the ETSI TS 119 612 trusted lists'
    // XML, canonicalisation and XAdES signatures; the C helpers in CDCXMLSecShim (src/*.c).
    // pkg-config `libxml-2.0` only: xmlsec1's own pkg-config file carries its build configuration
    // as -D flags, which SwiftPM refuses with a "prohibited flag(s)" warning on every build. The
    // libraries are linked by the module map; the shim reaches xmlsec1's headers through its
    // `xmlsec1` link to Debian's /usr/include/xmlsec1 and repeats the defines as Debian builds it
    // (`pkg-config --cflags xmlsec1-openssl`): XMLSEC_NO_SIZE_T changes xmlSecSize, an ABI type.
    .systemLibrary(
      name: "CDCXMLSec",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev", "libxmlsec1-dev"])]
    ),
    .target(
      name: "CDCXMLSecShim", dependencies: [.target(name: "CDCXMLSec", condition: linuxOnly)],
      cSettings: [
        .headerSearchPath("xmlsec1"),
        .define("XMLSEC_CRYPTO_OPENSSL", to: "1"), .define("XMLSEC_NO_SIZE_T"),
        .define("XMLSEC_NO_CRYPTO_DYNAMIC_LOADING", to: "1"), .define("XMLSEC_NO_GOST", to: "1"),
        .define("XMLSEC_NO_GOST2012", to: "1"), .define("XMLSEC_OPENSSL3_ENGINES", to: "1"),
        .define("__XMLSEC_FUNCTION__", to: "__func__"),
      ],
      linkerSettings: [
        .linkedLibrary("xmlsec1-openssl", .when(platforms: [.linux, .android])),
        .linkedLibrary("xmlsec1", .when(platforms: [.linux, .android])),
      ]),
    // libpq (issue 31) for the servers' state on PostgreSQL.
    .systemLibrary(
      name: "CDCPostgreSQL",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]
    ),
    .systemLibrary(
      name: "CDCSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // libqrencode for `dcwallet present --qr` (issue 14): the QR matrix of the mdoc: URI.
    .systemLibrary(
      name: "CDCQRencode",
      pkgConfig: "libqrencode",
      providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
    ),
    // zlib (RFC 1950) for the Token Status List (issue 15); libz is in the Apple SDKs too.
    .systemLibrary(
      name: "CDCZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // Zstandard (RFC 8878, issue 33): Longfellow circuits are distributed zstd-compressed.
    .systemLibrary(
      name: "CDCZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    // Carry-less multiplication for DCZK's GF(2^128) (PCLMULQDQ at run time, portable loop).
    .target(name: "CDCZKShim"),
    .systemLibrary(
      name: "CDCMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
    ),
  ]
    + modules.map {
      .target(name: $0.name, dependencies: $0.dependencies, swiftSettings: strictSettings)
    }
    + [
      .target(
        name: "DCWalletCLI",
        dependencies: [
          "DCEncoding", "DCJSON", "DCCBOR", "DCRegistration", "DCVerifier", "DCWallet",
          "DCCrypto", "DCQL",
          "DCAPI", "DCJOSE", "DCMdoc", "DCOpenID4VP", "DCOrgIsoMdoc", "DCSDJWT",
          "DCX509", "DCHTTP", "DCHTTPServer", "DCOpenID4VCI", "DCIssuer",
          "DCMdocProximity", "DCProximityTransport", "DCStatusList", "DCTrust",
          .target(name: "CDCQRencode", condition: linuxOnly),
        ],
        swiftSettings: strictSettings
      ),
      .executableTarget(
        name: "dcwallet", dependencies: ["DCWalletCLI"], swiftSettings: strictSettings),
      .executableTarget(name: "dcbench-baseline", swiftSettings: strictSettings),
      .executableTarget(
        name: "dcbench",
        dependencies: [
          "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCVerifier", "DCWallet", "DCCrypto",
          "DCQL",
          "DCAPI",
          "DCHPKE", "DCJOSE", "DCMdoc", "DCOpenID4VP", "DCOrgIsoMdoc", "DCSDJWT", "DCX509",
          "DCHTTP", "DCOpenID4VCI", "DCIssuer", "DCMdocProximity", "DCStatusList",
          "DCHTTPServer", "DCZK",
        ],
        swiftSettings: strictSettings
      ),
      .target(
        name: "DCTestSupport", dependencies: ["DCEncoding"], path: "Tests/DCTestSupport",
        swiftSettings: strictSettings),
      // What the OpenID4VCI protocol tests and the issuer's tests share.
      .target(
        name: "DCOpenID4VCITestSupport",
        dependencies: ["DCCrypto", "DCEncoding", "DCJOSE", "DCJSON", "DCOpenID4VCI"],
        path: "Tests/DCOpenID4VCITestSupport",
        swiftSettings: strictSettings
      ),
      // The development PKI (certificates only), for the tests from the status lists up.
      .target(
        name: "DCX509TestSupport",
        dependencies: ["DCCrypto", "DCX509"],
        path: "Tests/DCX509TestSupport",
        swiftSettings: strictSettings
      ),
      // The PKI's issued mdocs, for the tests from the mdoc formats up.
      // What the OpenID4VP tests and the verifier's tests share: the holder's credentials, the
      // verifier's certificates and the wallet side of an exchange (the verifier's side is in
      // DCVerifierTests).
      .target(
        name: "DCOpenID4VPTestSupport",
        dependencies: [
          "DCAPI", "DCCrypto", "DCJOSE", "DCJSON", "DCMdoc", "DCOpenID4VP", "DCQL", "DCSDJWT",
          "DCWalletTestSupport", "DCX509",
        ],
        path: "Tests/DCOpenID4VPTestSupport",
        swiftSettings: strictSettings
      ),
      // What the store's tests and the wallet's share: a scratch directory, a sample credential,
      // the multi-process probe.
      .target(
        name: "DCWalletStoreTestSupport",
        dependencies: ["DCTestSupport", "DCWalletStore"],
        path: "Tests/DCWalletStoreTestSupport",
        swiftSettings: strictSettings
      ),
      // Issue 30: headless Chromium from Debian driven through chromium-driver, and the wallet
      // hand-off a browser test replaces (an init script answering navigator.credentials).
      .target(
        name: "DCBrowserTestSupport",
        dependencies: ["DCEncoding", "DCHTTP", "DCHTTPServer", "DCJSON"],
        path: "Tests/DCBrowserTestSupport",
        swiftSettings: strictSettings
      ),
      .target(
        name: "DCWalletTestSupport",
        dependencies: ["DCCBOR", "DCCrypto", "DCMdoc", "DCX509", "DCX509TestSupport"],
        path: "Tests/DCWalletTestSupport",
        swiftSettings: strictSettings
      ),
      testTarget("DCErrors"),
      testTarget("DCEncoding"),
      testTarget("DCJSON"),
      testTarget("DCCBOR", ["DCJSON"]),
      testTarget("DCHTTP"),
      testTarget("DCHTTPServer", ["DCHTTP"]),
      testTarget("DCProximityTransport", ["DCCrypto"]),
      testTarget("DCCrypto"),
      testTarget("DCStore"),
      testTarget("DCHPKE", ["DCCrypto"]),
      testTarget("DCX509", ["DCCrypto"]),
      testTarget("DCCOSE", ["DCCBOR", "DCCrypto"]),
      testTarget("DCJOSE", ["DCEncoding", "DCJSON", "DCCrypto"]),
      testTarget("DCQL", ["DCJSON"]),
      testTarget(
        "DCStatusList",
        [
          "DCEncoding", "DCJSON", "DCCBOR", "DCCOSE", "DCJOSE", "DCCrypto", "DCX509", "DCHTTP",
          "DCHTTPServer", "DCX509TestSupport",
        ]),
      testTarget(
        "DCTrust",
        ["DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509", "DCX509TestSupport", "DCHTTP"]),
      testTarget(
        "DCMdoc", ["DCCBOR", "DCCOSE", "DCCrypto", "DCX509", "DCWalletTestSupport"]),
      testTarget("DCZK", ["DCCrypto", "DCEncoding"]),
      testTarget("DCMdocProximity", ["DCJSON", "DCCBOR", "DCCOSE", "DCCrypto", "DCMdoc"]),
      testTarget("DCAPI"),
      testTarget(
        "DCOrgIsoMdoc",
        [
          "DCEncoding", "DCJSON",
          "DCCBOR", "DCCOSE", "DCCrypto", "DCAPI", "DCJOSE", "DCMdoc", "DCX509",
          "DCWalletTestSupport",
        ]),
      testTarget("DCRegistration", ["DCJSON", "DCCBOR", "DCAPI"]),
      testTarget(
        "DCVerifier",
        [
          "DCEncoding", "DCJSON",
          "DCCBOR", "DCCOSE", "DCCrypto", "DCAPI", "DCJOSE",
          "DCMdoc", "DCOrgIsoMdoc",
          "DCX509", "DCWalletTestSupport", "DCOpenID4VPTestSupport",
          "DCQL", "DCHTTP", "DCHTTPServer", "DCOpenID4VP", "DCSDJWT", "DCStatusList", "DCTrust",
        ]),
      testTarget("DCSDJWT", ["DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509"]),
      testTarget(
        "DCOpenID4VCI",
        [
          "DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509", "DCHTTP",
          "DCOpenID4VCITestSupport",
        ]),
      testTarget(
        "DCIssuer",
        [
          "DCEncoding", "DCJSON", "DCJOSE", "DCCrypto", "DCX509", "DCHTTP", "DCCBOR", "DCCOSE",
          "DCMdoc", "DCSDJWT", "DCOpenID4VCI", "DCWalletTestSupport", "DCStatusList",
          "DCOpenID4VCITestSupport", "DCStore",
        ]),
      testTarget(
        "DCOpenID4VP",
        [
          "DCEncoding", "DCJSON",
          "DCCBOR", "DCCrypto", "DCQL", "DCAPI", "DCJOSE",
          "DCMdoc", "DCX509", "DCOpenID4VPTestSupport",
        ]),
      testTarget(
        "DCWalletCLI",
        [
          "DCEncoding", "DCJSON",
          "DCCBOR", "DCWallet", "DCCrypto", "DCAPI", "DCJOSE", "DCMdoc",
          "DCOrgIsoMdoc", "DCSDJWT",
          "DCX509", "DCWalletTestSupport", "dcwallet", "DCHTTP", "DCHTTPServer", "DCOpenID4VCI",
          "DCIssuer", "DCStatusList", "DCStore", "DCWalletStore", "DCBrowserTestSupport", "DCTrust",
        ]),
      // Writes to a wallet store from a second process, for the store's multi-process tests.
      .executableTarget(
        name: "dcstore-probe",
        dependencies: [
          "DCWallet", "DCCrypto", "DCAPI", "DCMdoc", "DCOrgIsoMdoc",
          "DCWalletTestSupport",
        ],
        path: "Tests/StoreProbe",
        swiftSettings: strictSettings
      ),
      // What the wallet's tests and the end-to-end tests share: a wallet home in a scratch
      // directory, a wallet holding PIDs and mDLs with its verifier chains (ConsentFixture), a
      // redirect-flow verifier double, an in-process HTTP client.
      .target(
        name: "DCWalletFixtureTestSupport",
        dependencies: [
          "DCAPI", "DCCrypto", "DCEncoding", "DCHTTP", "DCHTTPServer", "DCJOSE", "DCJSON",
          "DCMdoc", "DCOpenID4VCI", "DCOpenID4VP", "DCSDJWT", "DCTestSupport", "DCWallet",
          "DCWalletStoreTestSupport", "DCWalletTestSupport", "DCX509",
        ],
        path: "Tests/DCWalletFixtureTestSupport",
        swiftSettings: strictSettings
      ),
      // The store alone (the wallet home written before the shared SQLite layer, which a
      // wallet opens with its key, is DCWalletTests').
      testTarget(
        "DCWalletStore",
        ["DCCrypto", "DCStore", "DCWalletStoreTestSupport", "dcstore-probe"]),
      testTarget(
        "DCWallet",
        [
          "DCEncoding", "DCJSON",
          "DCCBOR", "DCRegistration", "DCCrypto", "DCQL",
          "DCAPI", "DCJOSE",
          "DCMdoc", "DCOpenID4VP", "DCOrgIsoMdoc", "DCSDJWT", "DCWalletTestSupport", "DCX509",
          "dcstore-probe", "DCHTTP", "DCOpenID4VCI", "DCCOSE",
          "DCStatusList", "DCHTTPServer", "DCStore", "DCWalletStore", "DCWalletFixtureTestSupport",
          "DCWalletStoreTestSupport", "DCTrust",
        ]),
      // Issue 27: the roles together (a wallet answering the verifier, a wallet against the
      // issuer's service, the command line's consent text over both), which no one module's
      // tests may import. Not named after a module: it may depend on anything.
      .testTarget(
        name: "DCEndToEndTests",
        dependencies: [
          "DCAPI", "DCCBOR", "DCCOSE", "DCCrypto", "DCEncoding", "DCHTTP", "DCHTTPServer",
          "DCIssuer", "DCJOSE", "DCJSON", "DCMdoc", "DCMdocProximity", "DCOpenID4VCI",
          "DCOpenID4VP", "DCOrgIsoMdoc", "DCProximityTransport", "DCQL", "DCSDJWT",
          "DCStatusList", "DCStore", "DCTestSupport", "DCVerifier", "DCWallet", "DCWalletCLI",
          "DCWalletStore", "DCTrust",
          "DCWalletFixtureTestSupport", "DCWalletTestSupport", "DCX509",
        ],
        swiftSettings: strictSettings
      ),
    ],
  swiftLanguageModes: [.v6]
)

// Issue 12: the libFuzzer harness (fuzz/Sources/dcfuzz), built only by fuzz/run.sh with
// DCWALLET_FUZZ=1 (release, AddressSanitizer, its own scratch path fuzz/.build). It is a target
// of this package, like a test target, so it reaches the wire parsers an app never calls
// directly (`package` declarations) as well as the public entry points (README, "Fuzzing").
if Context.environment["DCWALLET_FUZZ"] == "1" {
  package.targets.append(
    .executableTarget(
      name: "dcfuzz",
      dependencies: [
        "DCAPI", "DCCBOR", "DCCOSE", "DCCrypto", "DCHTTP", "DCIssuer", "DCJOSE", "DCJSON", "DCMdoc",
        "DCMdocProximity", "DCOpenID4VCI", "DCOpenID4VP", "DCOrgIsoMdoc", "DCProximityTransport",
        "DCQL", "DCRegistration", "DCSDJWT", "DCStatusList", "DCTrust", "DCWallet", "DCVerifier",
        "DCX509",
      ],
      path: "fuzz/Sources/dcfuzz"))
}

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
      name: "DCCryptoOnCryptoKit",
      dependencies: ["DCErrors", "DCEncoding", "CryptoKit", "Security"],
      path: "Tests/AppleShadow/DCCryptoOnCryptoKit", swiftSettings: strictSettings),
    .testTarget(
      name: "AppleShadowTests",
      dependencies: [
        "DCIdentityDocumentServicesBridge", "DCIdentityDocumentServicesBridge27",
        "DCIdentityDocumentServicesBridge27_3", "IdentityDocumentServices",
        "IdentityDocumentServicesUI", "LocalAuthentication", "Security", "CryptoKit",
        "CoreBluetooth", "DCCryptoOnCryptoKit", "DCWallet",
        "DCRegistration",
        "DCAPI", "DCCBOR", "DCCOSE", "DCCrypto", "DCMdoc", "DCOrgIsoMdoc",
        "DCX509", "DCJSON", "DCProximityTransport", "DCWalletTestSupport", "DCTestSupport",
        // The guide's and the example's providers, whose bodies SceneAvailabilityTests checks.
        "IntegrationGuideSnippets", "DCExampleWalletProvider", "SwiftUI",
      ],
      path: "Tests/AppleShadowTests", swiftSettings: strictSettings),
    // The Swift snippets of Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md (extracted by Tests/AppleShadow/extract-guide.sh).
    .target(
      name: "IntegrationGuideSnippets",
      dependencies: [
        "DCIdentityDocumentServicesBridge", "DCIdentityDocumentServicesBridge27",
        "DCIdentityDocumentServicesBridge27_3", "IdentityDocumentServicesUI", "DCWallet",
        "DCAPI", "DCMdoc", "SwiftUI", "UIKit", "ExtensionKit",
        "AppleShadowFoundation", "DCRegistration", "DCX509",
      ],
      path: "Tests/AppleShadow/IntegrationGuideSnippets", swiftSettings: strictSettings),
    // Examples/WalletApp (issue 28): the example wallet app and its identity document provider
    // extension, compiled against the shadow SDK as the guide's snippets are. Each folder is one
    // Xcode target; Shared/ reaches both through symlinks. Examples/README.md.
    .executableTarget(
      name: "DCExampleWalletApp",
      dependencies: [
        "DCIdentityDocumentServicesBridge", "DCIdentityDocumentServicesBridge27_3", "DCWallet",
        "DCRegistration", "DCAPI", "SwiftUI", "UIKit", "AppleShadowFoundation",
      ],
      path: "Examples/WalletApp/WalletApp", exclude: ["WalletApp.entitlements"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "DCExampleWalletProvider",
      dependencies: [
        "DCIdentityDocumentServicesBridge", "DCIdentityDocumentServicesBridge27",
        "DCIdentityDocumentServicesBridge27_3", "IdentityDocumentServicesUI", "ExtensionKit",
        "DCWallet", "DCRegistration", "DCAPI", "DCMdoc", "DCX509", "SwiftUI",
        "AppleShadowFoundation",
      ],
      path: "Examples/WalletApp/WalletProvider",
      exclude: ["WalletProvider.entitlements", "Info.plist"], swiftSettings: strictSettings),
  ]
  let shadowed: [String: [Target.Dependency]] = [
    // OpenSSL stays the backend of the real CryptoPrimitives (Backend_openssl.swift).
    "DCCrypto": [],
    // KeychainKeyStore.
    "DCWalletStore": ["Security", "CryptoKit"],
    "DCProximityTransport": ["CoreBluetooth"],
    "DCIdentityDocumentServicesBridge": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security", "CryptoKit",
      "LocalAuthentication", "AppleShadowFoundation",
    ],
    "DCIdentityDocumentServicesBridge27": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security",
    ],
    "DCIdentityDocumentServicesBridge27_3": [
      "IdentityDocumentServices", "IdentityDocumentServicesUI", "Security",
    ],
  ]
  // Only what the shadow targets need is built: the other test targets and the executables run
  // in the main configuration (this one rebuilds every module in its own scratch path).
  var needed: Set<String> = [
    "AppleShadowTests", "IntegrationGuideSnippets", "DCExampleWalletApp", "DCExampleWalletProvider",
  ]
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
