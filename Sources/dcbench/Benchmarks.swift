import DCCBOR
import DCCrypto
import DCHPKE
import Foundation

struct Benchmark: Sendable {
  let name: String
  let run: @Sendable (inout Harness) async throws -> Void
}

let allBenchmarks: [Benchmark] = [
  Benchmark(name: "cbor", run: cborBenchmark),
  Benchmark(name: "primitives", run: primitivesBenchmark),
  Benchmark(name: "hpke", run: hpkeBenchmark),
  Benchmark(name: "annex-c", run: annexCBenchmark),
  Benchmark(name: "openid4vp", run: openID4VPBenchmark),
  Benchmark(name: "wallet", run: walletBenchmark),
  Benchmark(name: "consent-screen", run: consentScreenBenchmark),
  Benchmark(name: "issuance", run: issuanceBenchmark),
  Benchmark(name: "in-person", run: inPersonBenchmark),
  Benchmark(name: "status-list", run: statusListBenchmark),
  Benchmark(name: "openid4vp-redirect", run: openID4VPRedirectBenchmark),
  Benchmark(name: "verifier-load", run: verifierLoadBenchmark),
  Benchmark(name: "issuer-load", run: issuerLoadBenchmark),
  Benchmark(name: "zk-core", run: zkCoreBenchmark),
  Benchmark(name: "zk", run: zkBenchmark),
  Benchmark(name: "zk-prove", run: zkProveBenchmark),
]

/// HPKE seal of 4 KB with the Annex C suite, against its floor: one key generation and one
/// ECDH, the asymmetric work every seal must do (issue 2).
func hpkeBenchmark(_ h: inout Harness) throws {
  let recipient = try ECPrivateKey(curve: .p256)
  let message = [UInt8](repeating: 0x42, count: 4096)
  let info = [UInt8](repeating: 0x83, count: 120)
  let floor = try h.measure("floor: P-256 keygen + ECDH", iterations: 2000) {
    let ephemeral = try ECPrivateKey(curve: .p256)
    blackHole(try ephemeral.sharedSecret(with: recipient.publicKey))
  }
  let gcm = try h.measure("AES-128-GCM seal 4 KB", iterations: 20000) {
    blackHole(
      try AES.GCM.seal(
        message, key: [UInt8](repeating: 1, count: 16), nonce: [UInt8](repeating: 2, count: 12)))
  }
  let seal = try h.measure("HPKE seal 4 KB (P-256, SHA-256, AES-128-GCM)", iterations: 2000) {
    blackHole(
      try HPKE.seal(message, to: recipient.publicKey, ciphersuite: .p256SHA256AES128GCM, info: info)
    )
  }
  let (enc, ct) = try HPKE.seal(
    message, to: recipient.publicKey, ciphersuite: .p256SHA256AES128GCM, info: info)
  let open = try h.measure("HPKE open 4 KB", iterations: 2000) {
    blackHole(
      try HPKE.open(
        ct, encapsulatedKey: enc, privateKey: recipient, ciphersuite: .p256SHA256AES128GCM,
        info: info))
  }
  Harness.ratio("HPKE seal / floor (keygen + ECDH)", seal, over: floor, aim: 1.3)
  Harness.ratio("HPKE seal / (floor + AES-GCM 4 KB)", seal, over: floor + gcm)
  Harness.ratio("HPKE open / floor", open, over: floor)
}

func primitivesBenchmark(_ h: inout Harness) throws {
  let key = [UInt8](repeating: 1, count: 32)
  let data = [UInt8](repeating: 2, count: 64)
  h.measure("HMAC-SHA256 64 B", iterations: 20000) {
    blackHole(HMAC.authenticationCode(.sha256, for: data, key: key))
  }
  try h.measure("HKDF-Expand SHA256 32 B", iterations: 20000) {
    blackHole(try HKDF.expand(.sha256, pseudoRandomKey: key, info: data, outputByteCount: 32))
  }
  h.measure("SHA-256 64 B", iterations: 20000) { blackHole(SHA256.hash(data: data)) }
  let recipient = try ECPrivateKey(curve: .p256)
  try h.measure("P-256 keygen", iterations: 2000) { blackHole(try ECPrivateKey(curve: .p256)) }
  let scalar = recipient.rawRepresentation
  try h.measure("P-256 private key from scalar (JWE ephemeral)", iterations: 2000) {
    blackHole(try ECPrivateKey(rawRepresentation: scalar, curve: .p256))
  }
  let pub = recipient.publicKey.x963Representation
  try h.measure("P-256 public key import (validated)", iterations: 5000) {
    blackHole(try ECPublicKey(x963Representation: pub, curve: .p256))
  }
}

/// A map shaped like an mDL's issuer-signed namespace: 30 elements, one a 20 KB portrait.
func mdocLikeMap() throws -> CBOR {
  var map = CBORMap()
  map["portrait"] = .byteString((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
  map["birth_date"] = CBOR.fullDate(try FullDate(daysSinceEpoch: 4000))
  map["issue_date"] = CBOR.dateTime(Date(timeIntervalSince1970: 1_700_000_000))
  map["driving_privileges"] = [["vehicle_category_code": "B", "issue_date": "2020-01-01"]]
  for i in 0..<26 {
    map["element_\(i)"] =
      i.isMultiple(of: 2) ? CBOR.textString("value number \(i)") : CBOR(i * 1000)
  }
  return .map(map)
}

/// CBOR decode + encode of an mdoc-like map (issue 2), in µs and MB/s.
func cborBenchmark(_ h: inout Harness) throws {
  let bytes = try mdocLikeMap().encoded()
  let decode = try h.measure("CBOR decode, 30-element map with 20 KB bstr", iterations: 5000) {
    blackHole(try CBOR.decode(bytes))
  }
  let value = try CBOR.decode(bytes)
  let encode = h.measure("CBOR encode (deterministic), same map", iterations: 5000) {
    blackHole(value.encoded())
  }
  let both = try h.measure("CBOR decode + encode", iterations: 5000) {
    blackHole(try CBOR.decode(bytes).encoded())
  }
  let mb = Double(bytes.count) / 1_000_000
  print(
    String(
      format: "  %d bytes: decode %.0f MB/s, encode %.0f MB/s, decode+encode %.0f MB/s",
      bytes.count,
      mb / (decode / 1e9), mb / (encode / 1e9), mb / (both / 1e9)))
}
