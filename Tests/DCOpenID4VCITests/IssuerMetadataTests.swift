import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import Foundation
import Testing

/// Credential issuer metadata (OpenID4VCI 1.0 §12.2): the well-known URL, the specification's
/// examples, every check, round trips.
@Suite("Credential issuer metadata")
struct IssuerMetadataTests {
  // MARK: - Well-known URLs

  @Test("§12.2.2: /.well-known/openid-credential-issuer goes between host and path")
  func wellKnownURL() throws {
    // The two examples of §12.2.2.
    #expect(
      try IssuerIdentifier("https://issuer.example.com/tenant").credentialIssuerMetadataURL
        .absoluteString == "https://issuer.example.com/.well-known/openid-credential-issuer/tenant")
    #expect(
      try IssuerIdentifier("https://tenant.issuer.example.com").credentialIssuerMetadataURL
        .absoluteString == "https://tenant.issuer.example.com/.well-known/openid-credential-issuer")
    // A port and a deeper path are kept; a terminating "/" is dropped (RFC 8414 §3.1 rule).
    #expect(
      try IssuerIdentifier("https://issuer.example.com:8443/a/b/").credentialIssuerMetadataURL
        .absoluteString
        == "https://issuer.example.com:8443/.well-known/openid-credential-issuer/a/b")
    #expect(
      try IssuerIdentifier("https://issuer.example.com/").credentialIssuerMetadataURL
        .absoluteString == "https://issuer.example.com/.well-known/openid-credential-issuer")
    #expect(
      try IssuerIdentifier("http://127.0.0.1:8080/x", policy: .development)
        .credentialIssuerMetadataURL.absoluteString
        == "http://127.0.0.1:8080/.well-known/openid-credential-issuer/x")
  }

  @Test("Identifiers: https with a host, no query, fragment or user information")
  func identifiers() throws {
    for bad in [
      "http://issuer.example.com", "https://issuer.example.com?x=1", "https://issuer.example.com#f",
      "https://user@issuer.example.com", "issuer.example.com", "https://", "",
    ] {
      #expect(expectVCIError(.invalidURL) { try IssuerIdentifier(bad) } != nil, "\(bad)")
    }
    expectVCIError(.invalidURL) { try IssuerIdentifier("http://localhost:1") }
    #expect(
      try IssuerIdentifier("http://localhost:1", policy: .development).string
        == "http://localhost:1")
    expectVCIError(.invalidURL) { try IssuerIdentifier("http://example.com", policy: .development) }
  }

  // MARK: - Positive vectors

  @Test("The full metadata example parses (Additional Credential Issuer Metadata Examples)")
  func longExample() throws {
    let metadata = try CredentialIssuerMetadata(
      jsonBytes: vciVector("credential_issuer_metadata_sd_jwt_long"))
    let issuer = try IssuerIdentifier("https://credential-issuer.example.com")
    #expect(try metadata.validated(for: issuer) == metadata)
    #expect(metadata.authorizationServers.map(\.string) == ["https://server.example.com"])
    #expect(
      metadata.credentialEndpoint.absoluteString
        == "https://credential-issuer.example.com/credential")
    #expect(metadata.nonceEndpoint?.absoluteString == "https://credential-issuer.example.com/nonce")
    #expect(metadata.deferredCredentialEndpoint?.path == "/deferred_credential")
    #expect(metadata.notificationEndpoint?.path == "/notification")
    #expect(
      metadata.credentialResponseEncryption
        == CredentialResponseEncryptionMetadata(
          algorithms: ["ECDH-ES"], encryptionMethods: ["A128GCM"], compressionAlgorithms: ["DEF"],
          encryptionRequired: true))
    #expect(metadata.batchSize == 10)
    #expect(metadata.display.map(\.locale) == ["en-US", "fr-FR"])
    #expect(metadata.display[0].logo?.altText == "a square logo of a university")
    let configuration = try #require(metadata.configuration(id: "SD_JWT_VC_example_in_OpenID4VCI"))
    #expect(configuration.format == .sdJWTVC(vct: "SD_JWT_VC_example_in_OpenID4VCI"))
    #expect(metadata.mdocIACAsURI == nil && metadata.signedMetadata == nil)
  }

  /// Wraps a `credential_configurations_supported` fragment of the specification into metadata.
  func wrapped(_ name: String) throws -> CredentialIssuerMetadata {
    let fragment = try JSONValue(parsing: vciVector(name))
    return try CredentialIssuerMetadata(
      json: minimalIssuerMetadata().setting(
        "credential_configurations_supported", to: fragment["credential_configurations_supported"]!)
    )
  }

  @Test("Appendix A.3.2 example: a dc+sd-jwt configuration with a jwt proof and key attestations")
  func sdJWTConfiguration() throws {
    let configuration = try #require(
      try wrapped("credential_metadata_sd_jwt_vc").credentialConfigurations.first)
    #expect(configuration.id == "SD_JWT_VC_example_in_OpenID4VCI")
    #expect(configuration.format == .sdJWTVC(vct: "SD_JWT_VC_example_in_OpenID4VCI"))
    #expect(configuration.format.name == "dc+sd-jwt")
    #expect(configuration.scope == "SD_JWT_VC_example_in_OpenID4VCI")
    #expect(configuration.bindingMethods == ["jwk"])
    #expect(configuration.signingAlgorithms == [.jose("ES256")])
    #expect(
      configuration.proofType("jwt")
        == ProofTypeMetadata(
          name: "jwt", signingAlgorithms: ["ES256"],
          keyAttestationsRequired: KeyAttestationRequirement(
            keyStorage: ["iso_18045_moderate"], userAuthentication: ["iso_18045_moderate"])))
    #expect(
      configuration.display
        == [
          CredentialDisplay(
            name: "IdentityCredential", locale: "en-US",
            logo: DisplayImage(
              uri: "https://university.example.edu/public/logo.png",
              altText: "a square logo of a university"),
            backgroundColor: "#12107c", textColor: "#FFFFFF")
        ])
    #expect(configuration.claims.count == 13)
    #expect(configuration.claims[0].path == [.key("given_name")])
    #expect(
      configuration.claims[0].display == [
        ClaimDisplay(name: "Given Name", locale: "en-US"),
        ClaimDisplay(name: "Vorname", locale: "de-DE"),
      ])
    #expect(configuration.claims[5].path == [.key("address"), .key("street_address")])
  }

  @Test("Appendix A.2.2 example: an mso_mdoc configuration with COSE algorithm numbers")
  func mdocConfiguration() throws {
    let configuration = try #require(
      try wrapped("credential_metadata_mso_mdoc").credentialConfigurations.first)
    #expect(configuration.format == .msoMdoc(doctype: "org.iso.18013.5.1.mDL"))
    #expect(configuration.bindingMethods == ["cose_key"])
    #expect(configuration.signingAlgorithms == [.cose(-7), .cose(-9)])
    #expect(configuration.display.map(\.name) == ["Mobile Driving License", "モバイル運転免許証"])
    #expect(
      configuration.claims[2]
        == ClaimDescription(path: [.key("org.iso.18013.5.1"), .key("birth_date")], mandatory: true))
  }

  @Test("mdoc_iacas_uri, wildcard and index claim paths, unknown formats are kept")
  func extras() throws {
    var value = setting(
      minimalIssuerMetadata(), ["mdoc_iacas_uri"], "https://issuer.example.com/iacas")
    value = setting(
      value, ["credential_configurations_supported", "pid", "credential_metadata", "claims"],
      [["path": ["nationalities", nil]], ["path": ["nationalities", 0]]])
    value = setting(value, ["credential_configurations_supported", "pid", "format"], "dc+sd-jwt")
    value = setting(value, ["credential_configurations_supported", "pid", "vct"], "urn:eudi:pid:1")
    value = setting(value, ["credential_configurations_supported", "ldp", "format"], "ldp_vc")
    let metadata = try CredentialIssuerMetadata(json: value)
    #expect(metadata.mdocIACAsURI?.absoluteString == "https://issuer.example.com/iacas")
    #expect(
      metadata.configuration(id: "pid")?.claims.map(\.path) == [
        [.key("nationalities"), .allElements], [.key("nationalities"), .index(0)],
      ])
    #expect(metadata.configuration(id: "ldp")?.format == .other("ldp_vc"))
    #expect(try CredentialIssuerMetadata(json: metadata.json) == metadata)
  }

  // MARK: - The issuer check and the authorization server

  @Test("§12.2.4: credential_issuer must be exactly the identifier that was asked")
  func issuerCheck() throws {
    let metadata = try CredentialIssuerMetadata(json: minimalIssuerMetadata())
    #expect(try metadata.validated(for: IssuerIdentifier("https://issuer.example.com")) == metadata)
    for other in [
      "https://issuer.example.com/", "https://ISSUER.example.com", "https://issuer.example.com:443",
      "https://evil.example.com",
    ] {
      expectVCIError(.issuerMismatch) { try metadata.validated(for: IssuerIdentifier(other)) }
    }
  }

  @Test("§12.2.4: without authorization_servers the issuer is its own; hints must be listed")
  func authorizationServers() throws {
    let own = try CredentialIssuerMetadata(json: minimalIssuerMetadata())
    #expect(own.authorizationServerIdentifiers.map(\.string) == ["https://issuer.example.com"])
    #expect(try own.authorizationServer(hint: nil).string == "https://issuer.example.com")
    expectVCIError(.issuerMismatch) {
      try own.authorizationServer(hint: IssuerIdentifier("https://issuer.example.com"))
    }
    let listed = try CredentialIssuerMetadata(
      json: setting(
        minimalIssuerMetadata(), ["authorization_servers"],
        ["https://as1.example", "https://as2.example"]))
    #expect(try listed.authorizationServer(hint: nil).string == "https://as1.example")
    #expect(
      try listed.authorizationServer(hint: IssuerIdentifier("https://as2.example")).string
        == "https://as2.example")
    expectVCIError(.issuerMismatch) {
      try listed.authorizationServer(hint: IssuerIdentifier("https://as3.example"))
    }
  }

  // MARK: - Checks

  static let configuration = ["credential_configurations_supported", "mDL"]
  static let jwtProof = configuration + ["proof_types_supported", "jwt"]
  static let credentialMetadata = configuration + ["credential_metadata"]

  /// Each mutation of the minimal metadata breaks exactly one check.
  static let invalid: [(String, [String], JSONValue?, OpenID4VCIErrorCode)] = [
    ("credential_issuer missing", ["credential_issuer"], nil, .invalidMetadata),
    (
      "credential_issuer http", ["credential_issuer"], "http://issuer.example.com", .invalidMetadata
    ),
    ("authorization_servers empty", ["authorization_servers"], [], .invalidMetadata),
    (
      "authorization_servers not https", ["authorization_servers"], ["http://as.example"],
      .invalidMetadata
    ),
    (
      "authorization_servers repeated", ["authorization_servers"],
      ["https://a.example", "https://a.example"], .invalidMetadata
    ),
    ("credential_endpoint missing", ["credential_endpoint"], nil, .invalidMetadata),
    (
      "credential_endpoint http", ["credential_endpoint"], "http://issuer.example.com/c",
      .invalidMetadata
    ),
    ("credential_endpoint relative", ["credential_endpoint"], "/credential", .invalidMetadata),
    ("nonce_endpoint http", ["nonce_endpoint"], "http://issuer.example.com/n", .invalidMetadata),
    (
      "deferred_credential_endpoint not a string", ["deferred_credential_endpoint"], 1,
      .invalidMetadata
    ),
    (
      "notification_endpoint http", ["notification_endpoint"], "http://issuer.example.com/n",
      .invalidMetadata
    ),
    (
      "mdoc_iacas_uri http", ["mdoc_iacas_uri"], "http://issuer.example.com/iacas", .invalidMetadata
    ),
    (
      "credential_response_encryption without alg", ["credential_response_encryption"],
      ["enc_values_supported": ["A128GCM"], "encryption_required": true], .invalidMetadata
    ),
    (
      "credential_response_encryption without enc", ["credential_response_encryption"],
      ["alg_values_supported": ["ECDH-ES"], "encryption_required": true], .invalidMetadata
    ),
    (
      "credential_response_encryption without encryption_required",
      ["credential_response_encryption"],
      ["alg_values_supported": ["ECDH-ES"], "enc_values_supported": ["A128GCM"]], .invalidMetadata
    ),
    (
      "credential_response_encryption with empty alg", ["credential_response_encryption"],
      [
        "alg_values_supported": [], "enc_values_supported": ["A128GCM"],
        "encryption_required": false,
      ], .invalidMetadata
    ),
    ("batch_size missing", ["batch_credential_issuance"], [:], .invalidMetadata),
    ("batch_size 1", ["batch_credential_issuance", "batch_size"], 1, .invalidMetadata),
    (
      "batch_size not an integer", ["batch_credential_issuance", "batch_size"], "10",
      .invalidMetadata
    ),
    ("display empty", ["display"], [], .invalidMetadata),
    (
      "display locale twice", ["display"],
      [["name": "A", "locale": "en"], ["name": "B", "locale": "en"]], .invalidMetadata
    ),
    (
      "display logo without uri", ["display"], [["name": "A", "logo": ["alt_text": "x"]]],
      .invalidMetadata
    ),
    ("signed_metadata not a JWT", ["signed_metadata"], "not.a.jwt", .invalidMetadata),
    (
      "credential_configurations_supported missing", ["credential_configurations_supported"], nil,
      .invalidMetadata
    ),
    (
      "credential_configurations_supported not an object", ["credential_configurations_supported"],
      [], .invalidMetadata
    ),
    ("configuration not an object", configuration, "mso_mdoc", .invalidMetadata),
    ("format missing", configuration + ["format"], nil, .invalidMetadata),
    ("mso_mdoc without doctype", configuration + ["doctype"], nil, .invalidMetadata),
    ("dc+sd-jwt without vct", configuration + ["format"], "dc+sd-jwt", .invalidMetadata),
    ("scope not a string", configuration + ["scope"], 1, .invalidMetadata),
    (
      "binding methods empty", configuration + ["cryptographic_binding_methods_supported"], [],
      .invalidMetadata
    ),
    (
      "signing algorithms empty", configuration + ["credential_signing_alg_values_supported"], [],
      .invalidMetadata
    ),
    (
      "signing algorithm a boolean", configuration + ["credential_signing_alg_values_supported"],
      [true], .invalidMetadata
    ),
    (
      "proof_types_supported not an object", configuration + ["proof_types_supported"], ["jwt"],
      .invalidMetadata
    ),
    ("proof type without algorithms", jwtProof, [:], .invalidMetadata),
    (
      "proof type with empty algorithms", jwtProof + ["proof_signing_alg_values_supported"], [],
      .invalidMetadata
    ),
    (
      "key_attestations_required not an object", jwtProof + ["key_attestations_required"], true,
      .invalidMetadata
    ),
    (
      "key_storage empty", jwtProof + ["key_attestations_required", "key_storage"], [],
      .invalidMetadata
    ),
    (
      "credential display without a name", credentialMetadata + ["display"], [["locale": "en"]],
      .invalidMetadata
    ),
    (
      "credential display locale twice", credentialMetadata + ["display"],
      [["name": "A", "locale": "en"], ["name": "B", "locale": "en"]], .invalidMetadata
    ),
    (
      "credential display background_image without uri", credentialMetadata + ["display"],
      [["name": "A", "background_image": [:]]], .invalidMetadata
    ),
    ("claims empty", credentialMetadata + ["claims"], [], .invalidMetadata),
    (
      "claim without a path", credentialMetadata + ["claims"], [["mandatory": true]],
      .invalidMetadata
    ),
    ("claim with an empty path", credentialMetadata + ["claims"], [["path": []]], .invalidMetadata),
    (
      "claim path with a negative index", credentialMetadata + ["claims"], [["path": ["a", -1]]],
      .invalidMetadata
    ),
    (
      "claim path with a boolean", credentialMetadata + ["claims"], [["path": [true]]],
      .invalidMetadata
    ),
    (
      "claim mandatory not a boolean", credentialMetadata + ["claims"],
      [["path": ["a"], "mandatory": "yes"]], .invalidMetadata
    ),
    (
      "claim display locale twice", credentialMetadata + ["claims"],
      [
        [
          "path": ["a"],
          "display": [["name": "A", "locale": "en"], ["name": "B", "locale": "en"]],
        ]
      ], .invalidMetadata
    ),
  ]

  /// The minimal metadata with every optional member at a valid value, so that each mutation
  /// above removes or breaks exactly one thing.
  static var valid: JSONValue {
    var value = minimalIssuerMetadata()
    value = setting(value, ["batch_credential_issuance", "batch_size"], 2)
    value = setting(value, jwtProof + ["proof_signing_alg_values_supported"], ["ES256"])
    value = setting(
      value, jwtProof + ["key_attestations_required"], ["key_storage": ["iso_18045_high"]])
    value = setting(
      value, configuration + ["cryptographic_binding_methods_supported"], ["cose_key"])
    value = setting(
      value, credentialMetadata + ["display"],
      [["name": "mDL", "locale": "en"], ["name": "mDL", "locale": "de"]])
    value = setting(
      value, credentialMetadata + ["claims"], [["path": ["ns", "a", 0, nil], "mandatory": false]])
    return value
  }

  @Test("The fully populated valid metadata parses")
  func validBaseline() throws {
    let metadata = try CredentialIssuerMetadata(json: Self.valid)
    #expect(metadata.batchSize == 2)
    #expect(metadata.credentialConfigurations[0].proofTypes.count == 1)
  }

  @Test("Each check refuses its case", arguments: 0..<invalid.count)
  func refused(_ index: Int) {
    let (name, path, value, code) = Self.invalid[index]
    let error = expectVCIError(code) {
      try CredentialIssuerMetadata(json: setting(Self.valid, path, value))
    }
    #expect(error != nil, "\(name)")
  }

  @Test("Not an object, not JSON, and over the size limit are refused")
  func notJSON() {
    expectVCIError(.invalidMetadata) { try CredentialIssuerMetadata(json: "x") }
    expectVCIError(.invalidJSON) { try CredentialIssuerMetadata(jsonBytes: Array("{\"a\":".utf8)) }
    expectVCIError(.invalidJSON) {
      try CredentialIssuerMetadata(
        jsonBytes: [UInt8](repeating: 0x20, count: CredentialIssuerMetadata.maximumLength + 1))
    }
  }

  @Test("Loopback http endpoints only under the development policy")
  func development() throws {
    let value = minimalIssuerMetadata(issuer: "http://127.0.0.1:8080")
    let metadata = try CredentialIssuerMetadata(json: value, policy: .development)
    #expect(metadata.credentialEndpoint.absoluteString == "http://127.0.0.1:8080/credential")
    expectVCIError(.invalidMetadata) { try CredentialIssuerMetadata(json: value) }
  }

  // MARK: - Round trips

  @Test("Metadata → JSON → metadata is the identity, for every vector and built metadata")
  func roundTrips() throws {
    let long = try CredentialIssuerMetadata(
      jsonBytes: vciVector("credential_issuer_metadata_sd_jwt_long"))
    #expect(try CredentialIssuerMetadata(json: long.json) == long)
    #expect(try CredentialIssuerMetadata(jsonBytes: long.json.serializedBytes()) == long)
    for name in ["credential_metadata_sd_jwt_vc", "credential_metadata_mso_mdoc"] {
      let metadata = try wrapped(name)
      #expect(try CredentialIssuerMetadata(json: metadata.json) == metadata)
      // The configuration serialises back to the specification's object, member for member.
      let fragment = try JSONValue(parsing: vciVector(name))
      #expect(
        Set(metadata.json["credential_configurations_supported"]!.keys)
          == Set(fragment["credential_configurations_supported"]!.keys))
    }
    let valid = try CredentialIssuerMetadata(json: Self.valid)
    #expect(try CredentialIssuerMetadata(json: valid.json) == valid)
    let built = CredentialIssuerMetadata(
      credentialIssuer: try IssuerIdentifier("https://issuer.example.com/tenant"),
      authorizationServers: [try IssuerIdentifier("https://as.example.com")],
      credentialEndpoint: URL(string: "https://issuer.example.com/tenant/credential?x=1")!,
      nonceEndpoint: URL(string: "https://issuer.example.com/tenant/nonce")!,
      credentialResponseEncryption: CredentialResponseEncryptionMetadata(
        algorithms: ["ECDH-ES"], encryptionMethods: ["A256GCM"], encryptionRequired: false),
      batchSize: 10, display: [IssuerDisplay(name: "Issuer", locale: "en")],
      credentialConfigurations: [
        CredentialConfiguration(
          id: "mDL", format: .msoMdoc(doctype: "org.iso.18013.5.1.mDL"), scope: "mdl",
          bindingMethods: ["cose_key"], signingAlgorithms: [.cose(-7)],
          proofTypes: [
            ProofTypeMetadata(
              name: "jwt", signingAlgorithms: ["ES256"],
              keyAttestationsRequired: KeyAttestationRequirement())
          ],
          display: [
            CredentialDisplay(
              name: "Driving licence",
              backgroundImage: DisplayImage(uri: "data:image/png;base64,AA=="))
          ],
          claims: [
            ClaimDescription(
              path: [.key("org.iso.18013.5.1"), .key("portrait")],
              display: [ClaimDisplay(name: "Photo")])
          ])
      ],
      mdocIACAsURI: URL(string: "https://issuer.example.com/tenant/iacas")!)
    #expect(try CredentialIssuerMetadata(json: built.json) == built)
  }
}
