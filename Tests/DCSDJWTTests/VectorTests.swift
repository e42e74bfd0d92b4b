import DCCrypto
import DCJOSE
import DCJSON
import DCSDJWT
import Foundation
import Testing

/// RFC 9901 examples and disclosure vectors (see Vectors/SOURCE.md).
@Suite("SD-JWT vectors (RFC 9901)")
struct VectorTests {
  static let compactExamples = ["simple", "simple_structured", "complex_ekyc", "arf-pid", "jsonld"]
  static let payloadOnlyExamples = [
    "address_only_flat", "address_only_structured", "address_only_recursive",
  ]
  static let jsonExamples = ["json_serialization_flattened", "json_serialization_general"]
  static let allExamples = compactExamples + payloadOnlyExamples + jsonExamples

  /// The KB-JWTs in the examples were signed at this time; verify "now" just after it.
  static let keyBindingTime = Date.unix(1_748_536_865 + 30)

  static func issuerKey(_ vector: JSONValue) throws -> ECPublicKey {
    try JWK(json: try #require(vector["issuer_public_jwk"])).publicKey()
  }

  static func disclosures(_ vector: JSONValue) throws -> [Disclosure] {
    try #require(vector["disclosures"]?.array).map { entry in
      try Disclosure(try #require(entry["disclosure"]?.string))
    }
  }

  @Test("Every disclosure's digest and contents are recomputed", arguments: allExamples)
  func disclosureDigests(_ name: String) throws {
    let vector = try loadVector(name)
    let entries = try #require(vector["disclosures"]?.array)
    #expect(!entries.isEmpty)
    for entry in entries {
      let disclosure = try Disclosure(try #require(entry["disclosure"]?.string))
      #expect(disclosure.digest(.sha256) == entry["digest"]?.string, "\(name): \(disclosure)")
      let contents = try #require(entry["contents"]?.array)
      #expect(contents.first == .string(disclosure.salt))
      #expect(contents.last == disclosure.value)
      #expect(disclosure.name == (contents.count == 3 ? contents[1].string : nil))
    }
  }

  @Test(
    "The issuer signature verifies and the presentation processes to the expected payload",
    arguments: compactExamples)
  func compactPresentation(_ name: String) throws {
    let vector = try loadVector(name)
    let key = try Self.issuerKey(vector)
    let presentation = try SDJWT(serialized: try #require(vector["sd_jwt_presentation"]?.string))
    #expect(
      presentation.issuerSignedJWT.compactSerialization == vector["issuer_signed_jwt"]?.string)
    let isVC = presentation.issuerSignedJWT.type == "dc+sd-jwt"
    let options = SDJWTVerificationOptions(profile: isVC ? .sdJWTVC : .sdJWT)
    let verified = try presentation.verify(
      issuerKey: key, now: Self.keyBindingTime, options: options)
    let expected = try #require(vector["expected_processed_payload"])
    #expect(canonical(verified.payload) == canonical(expected))
    #expect(verified.payload["_sd"] == nil && verified.payload["_sd_alg"] == nil)
    #expect(verified.trust == .issuerKey)
    #expect((verified.holderKey != nil) == (expected["cnf"] != nil))
    // Every presented Disclosure is found at its path with its value.
    for (path, disclosure) in verified.disclosuresByPath {
      #expect(path.value(in: verified.payload) != nil, "\(name): \(path)")
      if disclosure.name != nil {
        #expect(path.components.last == .key(disclosure.name ?? ""))
      }
    }
    #expect(verified.disclosuresByPath.count == presentation.disclosures.count)
  }

  @Test(
    "The full issuance processes, and the holder re-selects the RFC's presentation",
    arguments: compactExamples)
  func issuanceAndSelection(_ name: String) throws {
    let vector = try loadVector(name)
    let jwt = try #require(vector["issuer_signed_jwt"]?.string)
    let all = try Self.disclosures(vector)
    let issuance =
      vector["sd_jwt_issuance"]?.string
      ?? (([jwt] + all.map(\.encoded)).joined(separator: "~") + "~")
    let sdJWT = try SDJWT(serialized: issuance)
    #expect(Set(sdJWT.disclosures) == Set(all))
    let processed = try sdJWT.process()
    #expect(processed.disclosuresByPath.count == all.count)
    // Selecting exactly the RFC's presented Disclosures adds no others: they are closed under
    // "needs the enclosing Disclosure".
    let rfcPresentation = try SDJWT(
      serialized: try #require(vector["sd_jwt_presentation"]?.string))
    let presented = Set(rfcPresentation.disclosures)
    let ours = try SDJWT(
      serialized: try sdJWT.present(where: { presented.contains($1) }, keyBinding: nil))
    #expect(Set(ours.disclosures) == presented)
    #expect(ours.issuerSignedJWT == rfcPresentation.issuerSignedJWT)
  }

  @Test(
    "The KB-JWT verifies: key, typ, aud, nonce and sd_hash",
    arguments: ["simple", "arf-pid", "jsonld"])
  func keyBinding(_ name: String) throws {
    let vector = try loadVector(name)
    let binding = try #require(vector["key_binding"])
    let serialized = try #require(vector["sd_jwt_presentation"]?.string)
    let sdJWT = try SDJWT(serialized: serialized)
    #expect(sdJWT.sdHash == binding["payload"]?["sd_hash"]?.string)
    let isVC = sdJWT.issuerSignedJWT.type == "dc+sd-jwt"
    let result = try SDJWT.verifyPresentation(
      serialized: serialized, issuerKey: try Self.issuerKey(vector),
      expectedAudience: try #require(binding["expected_aud"]?.string),
      expectedNonce: try #require(binding["expected_nonce"]?.string), now: Self.keyBindingTime,
      options: SDJWTVerificationOptions(profile: isVC ? .sdJWTVC : .sdJWT))
    let kb = try #require(result.keyBinding)
    #expect(kb.nonce == "1234567890")
    #expect(kb.audience == "https://verifier.example.org")
    #expect(kb.issuedAt == .unix(1_748_536_865))
    #expect(
      canonical(result.credential.payload)
        == canonical(try #require(vector["expected_processed_payload"])))
    // The same presentation a day later is stale (the reference library would accept it).
    expectSDJWTError(.invalidKeyBinding) {
      try SDJWT.verifyPresentation(
        serialized: serialized, issuerKey: try Self.issuerKey(vector),
        expectedAudience: "https://verifier.example.org", expectedNonce: "1234567890",
        now: Self.keyBindingTime.addingTimeInterval(86_400),
        options: SDJWTVerificationOptions(profile: isVC ? .sdJWTVC : .sdJWT))
    }
  }

  @Test(
    "Section 6 payloads process to the expected payload with every disclosure",
    arguments: payloadOnlyExamples)
  func payloadOnly(_ name: String) throws {
    let vector = try loadVector(name)
    let processed = try ProcessedSDJWT(
      issuerPayload: try #require(vector["sd_jwt_payload"]),
      disclosures: try Self.disclosures(vector))
    // The expected value lists the user claims only, without the registered JWT claims.
    let userClaims = processed.payload.removing("iss").removing("iat").removing("exp")
    #expect(
      canonical(userClaims)
        == canonical(try #require(vector["expected_processed_payload_all_disclosed"])))
  }

  @Test("Section 8 JSON serialization examples, rebuilt as compact", arguments: jsonExamples)
  func jsonSerialization(_ name: String) throws {
    let vector = try loadVector(name)
    let json = try #require(vector["sd_jwt_presentation_json"])
    let payload = try #require(json["payload"]?.string)
    var candidates: [(protected: String, signature: String, header: JSONValue, key: JSONValue)] = []
    if let signatures = json["signatures"]?.array {
      let keys = try #require(vector["issuer_public_jwks"]?.array)
      for (signature, key) in zip(signatures, keys) {
        candidates.append(
          (
            try #require(signature["protected"]?.string),
            try #require(signature["signature"]?.string), try #require(signature["header"]), key
          ))
      }
    } else {
      candidates.append(
        (
          try #require(json["protected"]?.string), try #require(json["signature"]?.string),
          try #require(json["header"]), try #require(vector["issuer_public_jwk"])
        ))
    }
    #expect(!candidates.isEmpty)
    for (index, candidate) in candidates.enumerated() {
      // RFC 9901 §8.1: the Disclosures and KB-JWT sit in the first signature's unprotected header.
      let header = candidates[0].header
      let disclosures = try #require(header["disclosures"]?.array).compactMap(\.string)
      let kb = header["kb_jwt"]?.string ?? ""
      let compact =
        (["\(candidate.protected).\(payload).\(candidate.signature)"] + disclosures)
        .joined(separator: "~") + "~" + kb
      let key = try JWK(json: candidate.key).publicKey()
      let options = SDJWTVerificationOptions(profile: .sdJWT)
      let expected = canonical(try #require(vector["expected_processed_payload"]))
      // The KB-JWT's sd_hash covers the first signature's compact form (RFC 9901 §8.1).
      if index == 0 {
        let result = try SDJWT.verifyPresentation(
          serialized: compact, issuerKey: key, expectedAudience: "https://verifier.example.org",
          expectedNonce: "1234567890", now: Self.keyBindingTime, options: options)
        #expect(canonical(result.credential.payload) == expected)
      } else {
        let result = try SDJWT(serialized: compact).verify(
          issuerKey: key, now: Self.keyBindingTime, options: options)
        #expect(canonical(result.payload) == expected)
      }
    }
  }

  @Test("Disclosure digests of given strings (axle vectors)")
  func digestOfString() throws {
    let vector = try loadVector("sdjwt-disclosures")
    for entry in try #require(vector["digest_of_string"]?.array) {
      let disclosure = try Disclosure(try #require(entry["disclosure"]?.string))
      #expect(disclosure.digest() == entry["digest"]?.string)
      #expect(disclosure.encoded == entry["disclosure"]?.string)
    }
  }

  @Test("Disclosures built from salt, name and value with compact JSON (axle vectors)")
  func createdDisclosures() throws {
    let vector = try loadVector("sdjwt-disclosures")
    let objects = try #require(vector["object_property"]?.array)
    let elements = try #require(vector["array_element"]?.array)
    for entry in objects + elements {
      let value = try #require(entry["value"]?["v"])
      let disclosure = try Disclosure(
        salt: try #require(entry["salt"]?.string), name: entry["key"]?.string, value: value)
      #expect(disclosure.encoded == entry["disclosure"]?.string, "\(entry["name"] ?? "")")
      #expect(disclosure.digest(.sha256) == entry["digest"]?.string)
      let reparsed = try Disclosure(disclosure.encoded)
      #expect(reparsed == disclosure)
    }
    #expect(objects.count == 2 && elements.count == 1)
  }
}
