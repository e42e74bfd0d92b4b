// swift-tools-version: 6.0
// The Digital Credentials wallet SDK. Zero package dependencies: crypto comes from the system's
// OpenSSL 3 `libcrypto` on Linux (CryptoKit on Apple platforms). See ../shared/DESIGN.md.
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let linuxOnly = TargetDependencyCondition.when(platforms: [.linux, .android])

let package = Package(
  name: "DigitalCredentials",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .library(name: "CBOR", targets: ["CBOR"]),
    .library(name: "CryptoPrimitives", targets: ["CryptoPrimitives"]),
    .library(name: "HPKE", targets: ["HPKE"]),
    .library(name: "JOSE", targets: ["JOSE"]),
    .executable(name: "dcbench", targets: ["dcbench"]),
  ],
  targets: [
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    .target(name: "CBOR", swiftSettings: strictSettings),
    .target(
      name: "CryptoPrimitives",
      dependencies: [.target(name: "COpenSSL", condition: linuxOnly)],
      swiftSettings: strictSettings
    ),
    .target(name: "HPKE", dependencies: ["CryptoPrimitives"], swiftSettings: strictSettings),
    .target(name: "JOSE", dependencies: ["CryptoPrimitives"], swiftSettings: strictSettings),
    .executableTarget(
      name: "dcbench",
      dependencies: ["CBOR", "CryptoPrimitives", "HPKE"],
      swiftSettings: strictSettings
    ),
    .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
    .testTarget(
      name: "CBORTests",
      dependencies: ["CBOR", "TestSupport"],
      resources: [.copy("Vectors")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "CryptoPrimitivesTests",
      dependencies: ["CryptoPrimitives", "TestSupport"],
      resources: [.copy("Vectors")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "HPKETests",
      dependencies: ["HPKE", "CryptoPrimitives", "TestSupport"],
      resources: [.copy("Vectors")],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "JOSETests",
      dependencies: ["JOSE", "CryptoPrimitives", "TestSupport"],
      resources: [.copy("Vectors")],
      swiftSettings: strictSettings
    ),
  ],
  swiftLanguageModes: [.v6]
)
