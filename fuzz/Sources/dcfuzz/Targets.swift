import DCAPI
import DCCBOR
import DCCOSE
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCQL
import DCRegistration
import DCSDJWT
import DCX509
import Foundation

// MARK: - CBOR, DER, PEM

/// CBOR decode; what decodes re-encodes to bytes that decode to the same encoding, and one byte
/// more after a decodable item is refused.
@Sendable func fuzzCBOR(_ bytes: [UInt8]) {
  guard let value = try? CBOR.decode(bytes) else { return }
  let encoded = CBOREncoder().encode(value)
  guard let again = try? CBOR.decode(encoded) else { violated("re-encoded CBOR does not decode") }
  if CBOREncoder().encode(again) != encoded { violated("CBOR decode-encode-decode differs") }
  if (try? CBOR.decode(bytes + [0x00])) != nil { violated("CBOR accepted trailing bytes") }
  _ = try? CBORDecoder().diagnosticNotation(of: bytes)
  _ = try? EncodedCBOR(bytes: bytes)
}

/// DER TLV parsing and X.509 certificate parsing; a parsed certificate keeps its exact bytes.
@Sendable func fuzzDER(_ bytes: [UInt8]) {
  guard (try? DER.parse(bytes)) != nil else { return }
  if (try? DER.parse(bytes + [0x00])) != nil { violated("DER accepted trailing bytes") }
  guard let certificate = try? Certificate(derEncoded: bytes) else { return }
  if certificate.derBytes != bytes { violated("certificate bytes differ from the input") }
  _ = certificate.description
  _ = try? DistinguishedName(derEncoded: bytes)
  _ = try? ECPublicKey(derRepresentation: bytes)
}

/// PEM documents, certificate chains and keys from PEM text.
@Sendable func fuzzPEM(_ bytes: [UInt8]) {
  guard let text = text(bytes) else { return }
  _ = try? PEMDocument.parseAll(text)
  _ = try? PEMDocument(pemString: text)
  _ = try? Certificate.chain(fromPEM: text)
  _ = try? ECPublicKey(pemRepresentation: text)
  _ = try? ECPrivateKey(pemRepresentation: text)
}

// MARK: - COSE

/// COSE_Sign1 from bytes; what parses re-encodes to a value that parses equal.
@Sendable func fuzzCOSESign1(_ bytes: [UInt8]) {
  guard let sign1 = try? COSESign1(bytes: bytes) else { return }
  guard let again = try? COSESign1(cbor: sign1.cbor()) else {
    violated("COSE_Sign1 does not re-parse")
  }
  if again != sign1 { violated("COSE_Sign1 round trip differs") }
  _ = try? COSEMac0(cbor: CBOR.decode(bytes))
}

/// COSE_Key from CBOR; what parses re-encodes to a key that parses equal.
@Sendable func fuzzCOSEKey(_ bytes: [UInt8]) {
  guard let cbor = try? CBOR.decode(bytes), let key = try? COSEKey(cbor: cbor) else { return }
  guard let again = try? COSEKey(cbor: key.cbor) else { violated("COSE_Key does not re-parse") }
  if again != key { violated("COSE_Key round trip differs") }
  _ = try? key.publicKey()
}

// MARK: - mdoc

/// DeviceRequest from bytes, with the round trip.
@Sendable func fuzzDeviceRequest(_ bytes: [UInt8]) {
  guard let request = try? DeviceRequest(bytes: bytes) else { return }
  guard let again = try? DeviceRequest(bytes: request.bytes) else {
    violated("DeviceRequest does not re-parse")
  }
  if again != request { violated("DeviceRequest round trip differs") }
  _ = try? request.useCases
  for document in request.docRequests { _ = document.itemsRequest.requestedElements }
}

/// The Annex C request `data` (deviceRequest + encryptionInfo) as JSON text.
@Sendable func fuzzAnnexCRequest(_ bytes: [UInt8]) {
  guard let json = try? JSONValue(parsing: bytes) else { return }
  guard let request = try? AnnexCRequest(data: json) else { return }
  _ = request.sessionTranscript(origin: fuzzOrigin).bytes
}

/// DeviceResponse from bytes, with the round trip.
@Sendable func fuzzDeviceResponse(_ bytes: [UInt8]) {
  guard let response = try? DeviceResponse(bytes: bytes) else { return }
  guard let again = try? DeviceResponse(bytes: response.bytes) else {
    violated("DeviceResponse does not re-parse")
  }
  if again != response { violated("DeviceResponse round trip differs") }
  _ = try? IssuerSigned(bytes: bytes)
}

/// EncryptedResponse from bytes and from the response `data` JSON.
@Sendable func fuzzEncryptedResponse(_ bytes: [UInt8]) {
  if let response = try? EncryptedResponse(bytes: bytes) {
    guard let again = try? EncryptedResponse(bytes: response.bytes) else {
      violated("EncryptedResponse does not re-parse")
    }
    if again != response { violated("EncryptedResponse round trip differs") }
  }
  if let json = try? JSONValue(parsing: bytes) { _ = try? EncryptedResponse(data: json) }
  _ = try? SessionTranscript(bytes: bytes)
}

// MARK: - JSON and JOSE

/// The JSON parser; parse-serialize-parse gives the same value, trailing garbage is refused.
@Sendable func fuzzJSON(_ bytes: [UInt8]) {
  guard let value = try? JSONValue(parsing: bytes) else { return }
  let serialized = value.serializedBytes()
  guard let again = try? JSONValue(parsing: serialized) else {
    violated("serialized JSON does not parse")
  }
  if again.serializedBytes() != serialized { violated("JSON parse-serialize-parse differs") }
  if (try? JSONValue(parsing: bytes + Array(" x".utf8))) != nil {
    violated("JSON accepted trailing garbage")
  }
}

/// Compact JWS (RFC 7515 §7.1), its header parameters and claims.
@Sendable func fuzzJWS(_ bytes: [UInt8]) {
  guard let text = text(bytes), let jws = try? CompactJWS(text) else { return }
  _ = (jws.keyID, jws.type, jws.contentType)
  if let claims = try? JSONValue(parsing: jws.payload) { _ = try? JWTClaims(json: claims) }
  if let jwk = jws.jwk { _ = try? jwk.publicKey() }
}

/// Compact JWE with ECDH-ES (RFC 7516 §7.1).
@Sendable func fuzzJWE(_ bytes: [UInt8]) {
  guard let text = text(bytes), let jwe = try? CompactJWE(text) else { return }
  _ = try? jwe.ephemeralPublicKey.publicKey()
}

/// JWS JSON serialization (RFC 7515 §7.2), general and flattened; also JWK and JWK sets.
@Sendable func fuzzJWSJSON(_ bytes: [UInt8]) {
  guard let text = text(bytes) else { return }
  _ = try? JWSJSON(text)
  if let json = try? JSONValue(parsing: bytes) {
    if let jwk = try? JWK(json: json) { _ = try? jwk.publicKey() }
    _ = try? JWKSet(json: json)
  }
}

// MARK: - SD-JWT, DCQL, OpenID4VP

/// SD-JWT in its issuance (`jws~d~`) and presentation (`jws~d~kb`) forms, then processed.
@Sendable func fuzzSDJWT(_ bytes: [UInt8]) {
  guard let text = text(bytes) else { return }
  for disclosure in text.split(separator: "~") { _ = try? Disclosure(String(disclosure)) }
  guard let sdJWT = try? SDJWT(serialized: text) else { return }
  _ = try? sdJWT.process()
}

/// A DCQL query as JSON text, then evaluated against an mdoc and an SD-JWT VC (OpenID4VP 1.0 §6.4).
@Sendable func fuzzDCQL(_ bytes: [UInt8]) {
  guard let query = try? DCQLQuery(jsonData: Data(bytes)) else { return }
  let evaluation = query.evaluate(dcqlCredentials)
  _ = evaluation.defaultSelection()
}

let dcqlCredentials: [any DCQLCredential] = [
  DCQLCredentialDescription.mdoc(
    docType: "org.iso.18013.5.1.mDL",
    namespaces: [
      "org.iso.18013.5.1": [
        "family_name": "Mustermann", "given_name": "Erika", "age_over_18": .bool(true),
        "driving_privileges": .array([.object(["vehicle_category_code": "B"])]),
      ]
    ]),
  DCQLCredentialDescription.sdJWTVC(
    vct: "urn:eudi:pid:1",
    claims: .object([
      "given_name": "Erika", "birthdate": "1964-08-12",
      "address": .object(["locality": "Berlin", "postal_code": .integer(10_115)]),
      "nationalities": .array(["DE", "FR"]),
    ])),
]

let fuzzOrigin: WebOrigin = {
  guard let origin = try? WebOrigin("https://verifier.example") else { fatalError("origin") }
  return origin
}()
let fuzzNow = Date(timeIntervalSince1970: 1_767_225_600)

/// The OpenID4VP request `data` (JSON text) read as each protocol: unsigned, signed, multisigned.
@Sendable func fuzzOpenID4VPRequest(_ bytes: [UInt8]) {
  guard let json = try? JSONValue(parsing: bytes) else { return }
  for protocolID in OpenID4VPProtocol.allCases {
    _ = try? AuthorizationRequest(
      protocol: protocolID, data: json, origin: fuzzOrigin, verifierTrustAnchors: [],
      now: fuzzNow)
  }
}

/// The DC API request envelope in every shape, each entry handed to the parser of its protocol.
@Sendable func fuzzRequestEnvelope(_ bytes: [UInt8]) {
  guard let envelope = try? RequestEnvelope(json: bytes) else { return }
  for request in envelope.requests {
    _ = request.skipReason
    if let known = OpenID4VPProtocol(rawValue: request.protocolIdentifier) {
      _ = try? AuthorizationRequest(
        protocol: known, data: request.data, origin: fuzzOrigin, verifierTrustAnchors: [],
        now: fuzzNow)
    } else if request.protocolIdentifier == "org-iso-mdoc" {
      _ = try? AnnexCRequest(data: request.data)
    }
  }
}

// MARK: - Android registry

/// The Android registry blobs built from claims a credential carries (the issuer's bytes): the
/// first byte picks the matcher and format, the rest is SD-JWT claims (JSON) or mdoc name spaces
/// (CBOR). What is built must decode: multipaz data is one CBOR item.
@Sendable func fuzzAndroidRegistry(_ bytes: [UInt8]) {
  guard let selector = bytes.first else { return }
  let rest = Array(bytes.dropFirst())
  let credential: RegisteredCredential
  if selector & 1 == 0 {
    guard let json = try? JSONValue(parsing: rest) else { return }
    credential = .sdJWT(vct: "urn:example:vct", claims: RegisteredClaim.flattening(json))
  } else {
    guard let cbor = try? CBOR.decode(rest), let spaces = cbor.map else { return }
    var nameSpaces: [String: [String: RegisteredClaim]] = [:]
    for (space, elements) in spaces {
      guard let space = space.text, let elements = elements.map else { continue }
      var claims: [String: RegisteredClaim] = [:]
      for (element, value) in elements {
        guard let element = element.text else { continue }
        claims[element] = RegisteredClaim(cbor: value)
      }
      nameSpaces[space] = claims
    }
    credential = .mdoc(docType: "org.iso.18013.5.1.mDL", nameSpaces: nameSpaces)
  }
  let description = CredentialDescription(
    id: "fuzz", display: CredentialDisplayInfo(title: "Fuzz"), credential: credential)
  let matcher = AndroidMatcher.allCases[Int(selector >> 1) % AndroidMatcher.allCases.count]
  guard let data = try? AndroidRegistry.data(for: [description], matcher: matcher) else { return }
  if matcher == .multipaz, (try? CBOR.decode(data)) == nil {
    violated("multipaz registry data is not one CBOR item")
  }
}
