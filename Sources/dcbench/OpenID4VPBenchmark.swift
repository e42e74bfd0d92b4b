import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCQL
import DCSDJWT
import DCVerifier
import DCX509
import Foundation

/// Issue 6: answering unsigned and signed OpenID4VP requests for an SD-JWT VC with 10
/// disclosures, `dc_api.jwt`, against the crypto each must perform; and DCQL evaluation over
/// 1,000 credentials.
func openID4VPBenchmark(_ h: inout Harness) throws {
  let now = Date()
  let issuerKey = try ECPrivateKey(curve: .p256)
  let holderKey = try ECPrivateKey(curve: .p256)
  var members: [(key: String, value: JSONValue)] = []
  for i in 0..<10 { members.append(("claim_\(i)", .string("value \(i)"))) }
  let sdJWT = try SDJWTIssuer.issue(
    claims: .object(members),
    selectivelyDisclosable: (0..<10).map { ClaimPath(dotted: "claim_\($0)") },
    holderKey: holderKey.publicKey,
    vct: "urn:example:bench", issuer: "https://issuer.example", issuedAt: now, signer: issuerKey,
    random: SecureRandom())
  let credential = try SDJWTCredential(id: "sd", sdJWT: sdJWT)
  let claims: [JSONValue] = (0..<10).map { .object([("path", .array([.string("claim_\($0)")]))]) }
  let query: JSONValue = .object([
    (
      "credentials",
      .array([
        .object([
          ("id", "q"), ("format", "dc+sd-jwt"),
          ("meta", .object([("vct_values", .array(["urn:example:bench"]))])),
          ("claims", .array(claims)),
        ])
      ])
    )
  ])
  let origin = "https://verifier.example"
  let rootKey = try ECPrivateKey(curve: .p256)
  let root = try CertificateBuilder.readerRoot(
    commonName: "Bench Verifier CA", publicKey: rootKey.publicKey,
    notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(86_400)
  ).selfSigned(signer: rootKey)
  let leafKey = try ECPrivateKey(curve: .p256)
  let leaf = try CertificateBuilder.openID4VPVerifier(
    dnsName: "verifier.example", publicKey: leafKey.publicKey,
    notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(86_400)
  ).issued(by: root, signer: rootKey)
  let unsigned = try VerifierRequest(dcqlQuery: query, origin: origin, responseMode: .dcAPIJWT)
  let signed = try VerifierRequest(
    dcqlQuery: query, origin: origin, responseMode: .dcAPIJWT,
    signing: .signed(
      .x509SANDNS(dnsName: "verifier.example", certificateChain: [leaf], signer: leafKey)),
    expectedOrigins: [origin])

  func answer(_ request: VerifierRequest) throws -> AuthorizationResponse {
    let parsed = try AuthorizationRequest(
      protocol: request.protocolID, data: request.data, origin: try WebOrigin(origin),
      verifierTrustAnchors: [root], now: now)
    let evaluation = parsed.dcqlQuery.evaluate([credential])
    guard let candidate = evaluation.defaultSelection()["q"]?.first else {
      throw OpenID4VPError(.queryNotSatisfied, "bench")
    }
    return try parsed.respond(
      origin: parsed.origin,
      presentations: [
        "q": [credential.presentation(disclosing: candidate.disclosed, holderKey: holderKey)]
      ], now: now)
  }
  _ = try answer(unsigned)
  _ = try answer(signed)
  if let loop = ProcessInfo.processInfo.environment["DCBENCH_PROFILE_LOOP"], let n = Int(loop) {
    for _ in 0..<n { blackHole(try answer(unsigned)) }
    return
  }

  let message = [UInt8](repeating: 1, count: 400)
  let signature = try holderKey.signature(for: message)
  let plaintext = [UInt8](repeating: 2, count: 2000)
  // Each answer is measured in batches alternating with its floor's (see `measurePair`).
  let unsignedCrypto: () throws -> Void = {
    blackHole(try holderKey.signature(for: message))
    let ephemeral = try ECPrivateKey(curve: .p256)
    blackHole(try ephemeral.sharedSecret(with: rootKey.publicKey))
    blackHole(
      try AES.GCM.seal(
        plaintext, key: [UInt8](repeating: 3, count: 16), nonce: [UInt8](repeating: 4, count: 12)))
  }
  let signedCrypto: () throws -> Void = {
    blackHole(holderKey.publicKey.isValidSignature(signature, for: message))
    blackHole(holderKey.publicKey.isValidSignature(signature, for: message))
    try unsignedCrypto()
  }
  // Each answer is measured in batches alternating with its floor's (see `measurePair`).
  let (unsignedFloor, unsignedAnswer, unsignedRatio) = try h.measurePair(
    "floor: 1 sign + keygen + ECDH + AES-GCM (KB-JWT, JWE)", unsignedCrypto,
    "answer unsigned request (SD-JWT, 10 disclosures, dc_api.jwt)", iterations: 300
  ) {
    blackHole(try answer(unsigned))
  }
  let (signedFloor, signedAnswer, signedRatio) = try h.measurePair(
    "floor + 2 verify (request JWS, verifier certificate)", signedCrypto,
    "answer signed request (x509_san_dns, same)", iterations: 300
  ) {
    blackHole(try answer(signed))
  }
  if ProcessInfo.processInfo.environment["DCBENCH_DETAIL"] != nil {
    try openID4VPDetail(
      &h, unsigned: unsigned, origin: origin, root: root, now: now, credential: credential,
      holderKey: holderKey, message: message, plaintext: plaintext)
  }
  Harness.ratio(
    "unsigned answer / its crypto, ratio of the medians", unsignedAnswer, over: unsignedFloor)
  Harness.ratio("unsigned answer / its crypto", unsignedRatio, aim: 1.5)
  Harness.ratio(
    "signed answer / its crypto, ratio of the medians", signedAnswer, over: signedFloor)
  Harness.ratio("signed answer / its crypto", signedRatio)

  // DCQL: a 5-credential query with credential_sets over 1,000 credentials.
  var wallet: [any DCQLCredential] = []
  for i in 0..<1000 {
    let vct = "urn:example:type-\(i % 20)"
    wallet.append(
      DCQLCredentialDescription.sdJWTVC(
        vct: vct,
        claims: .object([
          "given_name": .string("P\(i)"), "age": .integer(Int64(i % 90)),
          "address": .object(["country": "DE", "locality": "Berlin"]),
        ])))
  }
  let dcql = try DCQLQuery(
    jsonData: Data(
      #"""
      {"credentials": [
        {"id": "a", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:type-1"]}, "claims": [{"path": ["given_name"]}, {"path": ["address", "country"], "values": ["DE"]}]},
        {"id": "b", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:type-2"]}, "claims": [{"path": ["age"], "values": [42]}]},
        {"id": "c", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:type-3", "urn:example:type-4"]}, "claims": [{"id": "x", "path": ["given_name"]}, {"id": "y", "path": ["address", "locality"]}], "claim_sets": [["x", "y"], ["x"]]},
        {"id": "d", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:missing"]}},
        {"id": "e", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:example:type-5"]}, "multiple": true, "claims": [{"path": ["age"]}]}
      ],
      "credential_sets": [{"options": [["a"], ["b"]]}, {"options": [["c", "e"]]}, {"options": [["d"]], "required": false}]}
      """#.utf8))
  let evaluation = h.measure(
    "DCQL: 5-query credential_sets over 1,000 credentials", iterations: 200
  ) {
    blackHole(dcql.evaluate(wallet))
  }
  print(
    String(
      format: "  DCQL evaluation over 1,000 credentials: %.3f ms (aim < 5 ms: %@); satisfied: %@",
      evaluation / 1e6,
      evaluation < 5e6 ? "met" : "NOT met", dcql.evaluate(wallet).isSatisfied ? "yes" : "no"))
}

/// The steps of the unsigned answer, each measured alone (`DCBENCH_DETAIL=1`).
private func openID4VPDetail(
  _ h: inout Harness, unsigned: VerifierRequest, origin: String, root: Certificate, now: Date,
  credential: SDJWTCredential, holderKey: ECPrivateKey, message: [UInt8], plaintext: [UInt8]
) throws {
  let webOrigin = try WebOrigin(origin)
  try h.measure("  detail: AuthorizationRequest (unsigned)", iterations: 300) {
    blackHole(
      try AuthorizationRequest(
        protocol: unsigned.protocolID, data: unsigned.data, origin: webOrigin,
        verifierTrustAnchors: [root], now: now))
  }
  let parsed = try AuthorizationRequest(
    protocol: unsigned.protocolID, data: unsigned.data, origin: webOrigin,
    verifierTrustAnchors: [root], now: now)
  let queryJSON = parsed.dcqlQueryJSON
  try h.measure("  detail: DCQLQuery parse", iterations: 300) {
    blackHole(try DCQLQuery(ClaimValue(queryJSON)))
  }
  let metadata = parsed.parameters["client_metadata"]
  try h.measure("  detail: ClientMetadata + responseEncryption", iterations: 300) {
    blackHole(try ClientMetadata(json: metadata).responseEncryption())
  }
  h.measure("  detail: DCQL evaluate (1 credential)", iterations: 300) {
    blackHole(parsed.dcqlQuery.evaluate([credential]))
  }
  let evaluation = parsed.dcqlQuery.evaluate([credential])
  guard let candidate = evaluation.defaultSelection()["q"]?.first else {
    throw OpenID4VPError(.queryNotSatisfied, "bench")
  }
  try h.measure("  detail: respond (KB-JWT + JWE)", iterations: 300) {
    blackHole(
      try parsed.respond(
        origin: parsed.origin,
        presentations: [
          "q": [credential.presentation(disclosing: candidate.disclosed, holderKey: holderKey)]
        ], now: now))
  }
  let binding = KeyBinding(
    signer: holderKey, audience: "origin:" + origin, nonce: parsed.nonce, issuedAt: now)
  let processed = try credential.sdJWT.process()
  try h.measure("  detail: SD-JWT present (KB-JWT)", iterations: 300) {
    blackHole(
      try credential.sdJWT.present(
        disclosing: candidate.disclosed, keyBinding: binding, processed: processed,
        holderKey: holderKey.publicKey))
  }
  let presented = try credential.sdJWT.present(
    disclosing: candidate.disclosed, keyBinding: binding, processed: processed,
    holderKey: holderKey.publicKey)
  print("  presentation: \(presented.utf8.count) bytes")
  guard let encryption = parsed.responseEncryption else { return }
  let body = Array(presented.utf8) + Array(repeating: UInt8(ascii: "x"), count: 20)
  try h.measure("  detail: JWE encrypt (\(body.count) B)", iterations: 300) {
    blackHole(
      try JWE.encrypt(
        plaintext: body, recipient: encryption.publicKey, enc: encryption.enc,
        kid: encryption.key.kid))
  }
  try h.measure("  detail: sign", iterations: 300) {
    blackHole(try holderKey.signature(for: message))
  }
  try h.measure("  detail: keygen + ECDH", iterations: 300) {
    let ephemeral = try ECPrivateKey(curve: .p256)
    blackHole(try ephemeral.sharedSecret(with: encryption.publicKey))
  }
}
