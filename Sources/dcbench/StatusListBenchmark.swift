import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCStatusList
import DCX509
import Foundation

/// Checking one index in a Status List Token of 1,000,000 entries at 1 bit (issue 15), 1% of
/// them revoked at random: read the token (JWS or COSE_Sign1 parse, claims, base64url for the
/// JWT), inflate the 125,000-byte list through zlib, verify the ES256 signature with the
/// signer's key, and read the entry. Not included: fetching, and the x5c chain validation
/// (measured separately below: a verifier caches a validated list for its `ttl`).
///
/// Its floor: zlib's inflate of the same list plus one ECDSA P-256 verification.
func statusListBenchmark(_ h: inout Harness) throws {
  let count = 1_000_000
  var list = StatusList(bits: .one, count: count)
  var generator = SystemRandomNumberGenerator()
  for _ in 0..<(count / 100) {
    try list.setStatus(.invalid, at: Int.random(in: 0..<count, using: &generator))
  }
  let now = Date()
  let anchorKey = try ECPrivateKey(curve: .p256)
  let anchor = try CertificateBuilder.iaca(
    commonName: "Bench IACA", country: "UT", publicKey: anchorKey.publicKey,
    notBefore: now - 3600, notAfter: now + 86_400
  ).selfSigned(signer: anchorKey)
  let signerKey = try ECPrivateKey(curve: .p256)
  let signer = try CertificateBuilder.documentSigner(
    commonName: "Bench Status Signer", country: "UT", publicKey: signerKey.publicKey,
    notBefore: now - 3600, notAfter: now + 86_400
  ).issued(by: anchor, signer: anchorKey)
  let index = 777_777
  let expected = try list.status(at: index)
  let compressed = try list.compressed()

  let toVerify = [UInt8](repeating: 7, count: 200)
  let signature = try signerKey.signature(for: toVerify)
  let floor: () throws -> Void = {
    blackHole(
      try Zlib.decompress(compressed, maximumSize: StatusListLimits.maximumDecompressedSize))
    guard signerKey.publicKey.isValidSignature(signature, for: toVerify, digest: .sha256) else {
      throw CommandLineFailure("the floor's signature does not verify")
    }
  }
  for format in StatusListToken.Format.allCases {
    let token = try StatusListToken(
      format: format, subject: "https://issuer.example/statuslists/1", issuedAt: now,
      expiresAt: now + 86_400, timeToLive: 3600, statusList: list,
      certificateChain: [signer.derBytes], signer: signerKey)
    let bytes = token.encoded
    let (_, checkTime, checkRatio) = try h.measurePair(
      "floor: inflate \(list.bytes.count / 1000) KB + ECDSA P-256 verify", floor,
      "check one index, \(format) (\(bytes.count) B: parse, inflate, verify)", iterations: 200
    ) {
      let read = try StatusListToken(bytes: bytes)
      try read.verifySignature(publicKey: signerKey.publicKey)
      guard try read.statusList.status(at: index) == expected else {
        throw CommandLineFailure("wrong status")
      }
    }
    print(
      String(
        format: "  check one index (%@): %.3f ms (aim < 2 ms: %@)", format.rawValue,
        checkTime / 1e6, checkTime < 2e6 ? "met" : "NOT met"))
    Harness.ratio("check (\(format)) / floor", checkRatio, aim: 1.5)
    if format == .jwt, ProcessInfo.processInfo.environment["DCBENCH_DETAIL"] != nil {
      let text = String(decoding: bytes, as: UTF8.self)
      let jws = try CompactJWS(text)
      let claims = try JSONValue(parsing: jws.payload)
      let lst = claims["status_list"]?["lst"]?.string ?? ""
      try h.measure("  detail: CompactJWS(text)", iterations: 200) {
        blackHole(try CompactJWS(text))
      }
      try h.measure("  detail: JSON parse of the claims", iterations: 200) {
        blackHole(try JSONValue(parsing: jws.payload))
      }
      try h.measure("  detail: base64url decode of lst", iterations: 200) {
        blackHole(try Base64URL.decode(lst))
      }
      try h.measure("  detail: ES256 verify", iterations: 200) {
        try jws.verifySignature(with: signerKey.publicKey)
      }
    }
    if format == .jwt {
      try h.measure("  with x5c chain validation to the anchor (jwt)", iterations: 200) {
        let read = try StatusListToken(bytes: bytes)
        try read.verifySignature(trustAnchors: [anchor], at: now)
        blackHole(try read.statusList.status(at: index))
      }
    }
  }
  try h.measure("floor part: inflate alone", iterations: 200) {
    blackHole(
      try Zlib.decompress(compressed, maximumSize: StatusListLimits.maximumDecompressedSize))
  }
  h.measure("floor part: ECDSA P-256 verify alone", iterations: 200) {
    blackHole(signerKey.publicKey.isValidSignature(signature, for: toVerify, digest: .sha256))
  }
  // A bomb: 64 MiB of zeros (about 64 KB compressed) stops at the 16 MiB cap.
  let bomb = try Zlib.compress([UInt8](repeating: 0, count: 64 << 20))
  try h.measure("bomb (\(bomb.count / 1000) KB -> 64 MiB) refused at the 16 MiB cap", iterations: 5)
  {
    do {
      _ = try StatusList(bits: .one, compressed: bomb)
      throw CommandLineFailure("the bomb was not refused")
    } catch let error as StatusListError where error.code == .tooLarge {}
  }
  print(
    """
      memory: a check holds the token (\(compressed.count / 1000) KB compressed here), the \
    decompressed list (\(list.bytes.count / 1000) KB) and one 256 KiB inflate chunk; the output \
    never grows past the cap + 1 byte, so any token costs at most 16 MiB + 256 KiB for the list \
    (plus the token itself, at most 4 MiB), bomb or not
    """)
}
