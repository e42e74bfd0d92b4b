import DCCBOR
import DCCOSE
package import DCCrypto
import DCJOSE
package import DCJSON
package import DCX509
package import Foundation

/// Makes signed registration certificates (ETSI TS 119 475 v1.2.1 clause 5.2) for the
/// development files, the verifier's and issuer's dev setups, and tests.
package struct RegistrationCertificateBuilder: Sendable {
  package var subject: String
  package var name: String
  package var legalName: String?
  package var country = "UT"
  package var registryURI = "https://registry.example/wrp"
  /// Annex A.2: the service provider entitlement.
  package var entitlements = ["https://uri.etsi.org/19475/Entitlement/Service_Provider"]
  package var purpose: [(language: String, value: String)] = []
  package var privacyPolicy: String?
  package var credentials: [RegisteredCredential] = []
  /// Table 8 `provides_attestations`: what an attestation provider is registered to issue.
  package var providedAttestations: [RegisteredCredential] = []
  package var intermediary: (subject: String, name: String)?
  package var issuedAt: Date
  package var expiresAt: Date?
  package var status: (index: Int, uri: String)?
  /// The `typ` to sign with; tests change it to see it refused.
  package var jwtType = RegistrationCertificate.jwtType
  package var cwtType = RegistrationCertificate.cwtType

  package init(subject: String, name: String, issuedAt: Date, expiresAt: Date? = nil) {
    self.subject = subject
    self.name = name
    self.issuedAt = issuedAt
    self.expiresAt = expiresAt
  }

  /// The payload (Tables 7 to 10), as the JWT's JSON.
  package var payload: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("sub", .string(subject)), ("name", .string(name)), ("country", .string(country)),
      ("registry_uri", .string(registryURI)),
      ("entitlements", .array(entitlements.map { .string($0) })),
      ("iat", .integer(Int64(issuedAt.timeIntervalSince1970))),
    ]
    if let legalName { members.append(("sub_ln", .string(legalName))) }
    if let expiresAt { members.append(("exp", .integer(Int64(expiresAt.timeIntervalSince1970)))) }
    if !purpose.isEmpty {
      members.append(
        (
          "purpose",
          .array(purpose.map { ["lang": .string($0.language), "value": .string($0.value)] })
        ))
    }
    if let privacyPolicy { members.append(("privacy_policy", .string(privacyPolicy))) }
    if !credentials.isEmpty { members.append(("credentials", .array(credentials.map(Self.json)))) }
    if !providedAttestations.isEmpty {
      members.append(("provides_attestations", .array(providedAttestations.map(Self.json))))
    }
    if let intermediary {
      members.append(
        (
          "intermediary",
          ["sub": .string(intermediary.subject), "sname": .string(intermediary.name)]
        ))
      members.append(("act", ["sub": .string(intermediary.subject)]))
    }
    if let status {
      members.append(
        (
          "status",
          ["status_list": ["idx": .integer(Int64(status.index)), "uri": .string(status.uri)]]
        ))
    }
    return .object(members)
  }

  /// Annex B.2.9: `{format, meta, claim}` (the spec's singular `claim`).
  static func json(_ credential: RegisteredCredential) -> JSONValue {
    var meta: [(key: String, value: JSONValue)] = []
    if let docType = credential.docType { meta.append(("doctype_value", .string(docType))) }
    if !credential.vctValues.isEmpty {
      meta.append(("vct_values", .array(credential.vctValues.map { .string($0) })))
    }
    var members: [(key: String, value: JSONValue)] = [
      ("format", .string(credential.format)), ("meta", .object(meta)),
    ]
    if let claims = credential.claims {
      members.append(("claim", .array(claims.map { ["path": $0.json] })))
    }
    return .object(members)
  }

  /// The JWT form (clause 5.2.2): `typ` `rc-wrp+jwt`, `x5c`, and the JAdES claimed signing time
  /// `iat` (ETSI TS 119 182-1 §5.1.9, GEN-5.2.1-04).
  package func signedJWT(signer: any Signer, chain: [Certificate]) throws(TrustError) -> [UInt8] {
    let header: JSONValue = [
      "typ": .string(jwtType),
      "x5c": JWS.x5c(chain.map(\.derBytes)),
      "iat": .integer(Int64(issuedAt.timeIntervalSince1970)),
    ]
    do {
      return Array(
        try JWS.sign(payload: payload.serializedBytes(), protectedHeader: header, signer: signer)
          .utf8)
    } catch {
      throw TrustError(.malformed, "signing the registration certificate: \(error.reason)")
    }
  }

  /// The CWT form (clause 5.2.3): a tagged COSE_Sign1 with `typ` (label 16) `rc-wrp+cwt` and
  /// `x5chain` in the protected header, over the payload as a CBOR map with the same keys.
  package func signedCWT(signer: any Signer, chain: [Certificate]) throws(TrustError) -> [UInt8] {
    var protected = CBORMap()
    protected[key: 16] = .textString(cwtType)
    protected[key: COSEHeaderLabel.x5chain] = COSEHeaders.x5chainValue(chain.map(\.derBytes))
    do {
      let message = try COSESign1.sign(
        payload: Self.cbor(payload).encoded(), protected: protected, signer: signer)
      return message.cbor(tagged: true).encoded()
    } catch {
      throw TrustError(.malformed, "signing the registration certificate: \(error.reason)")
    }
  }

  static func cbor(_ json: JSONValue) -> CBOR {
    switch json {
    case .null: .null
    case .bool(let bool): .boolean(bool)
    case .integer(let int): CBOR(Int(int))
    case .number(let double): .double(double)
    case .string(let text): .textString(text)
    case .array(let items): .array(items.map(cbor))
    case .object(let members):
      .map(CBORMap(members.map { (CBOR.textString($0.key), cbor($0.value)) }))
    }
  }

  /// An access certificate subject (ETSI TS 119 411-8): the relying party's semantic identifier
  /// as `organizationIdentifier` (2.5.4.97) and its name as the common name.
  package static func accessCertificateSubject(
    organizationIdentifier: String, commonName: String
  ) -> DistinguishedName {
    let der = DER.sequence([
      DER.set([
        DER.sequence([
          DER.objectIdentifier(.organizationIdentifier), DER.utf8String(organizationIdentifier),
        ])
      ]),
      DER.set([DER.sequence([DER.objectIdentifier(.commonName), DER.utf8String(commonName)])]),
    ])
    // The DER above is well formed by construction.
    return (try? DistinguishedName(derEncoded: der)) ?? DistinguishedName(commonName: commonName)
  }
}

extension RegistrationClaimPath {
  /// The path as the JSON array of Annex B.2.10.
  var json: JSONValue {
    .array(
      components.map {
        switch $0 {
        case .key(let key): .string(key)
        case .index(let index): .integer(Int64(index))
        case .allElements: .null
        }
      })
  }
}
