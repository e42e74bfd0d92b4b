import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCX509
import Foundation

/// `dcwallet dev files`: the development PKI, keys and credentials the README's tour names, so a
/// newcomer can follow it as written. Nothing here is for production: every key is made fresh
/// and written in the clear (private keys with mode 0600).
enum DevCommand {
  static let filesSpec = CommandSpec(
    path: "dcwallet dev files",
    summary:
      "Write a development PKI, keys and credentials for trying the CLI (the README's tour).",
    options: [
      .value("out", "DIR", "where to write them (default: the current directory)"),
      .value("origin-host", "HOST", "the verifier's DNS name (default shop.example)"),
    ],
    discussion: """
      Writes, for the verifier's origin https://HOST:
        iaca.pem            issuer root (IACA): trust it as --issuer; it also anchors the SD-JWT VC issuer
        mdl.cbor            an mDL (IssuerSigned CBOR), device.pem its device key
        reader-root.pem     reader CA (trust it as --reader); reader.pem and reader-key.pem the reader
        pid.txt             an SD-JWT VC PID (urn:eudi:pid:1), holder.pem its device key
        verifier-ca.pem     verifier CA (trust it as --verifier)
        verifier-chain.pem  the request signer's certificate (x509_san_dns:HOST), verifier.pem its key
        query.json          a DCQL query for the PID's given_name and age_over_18
        list-operator.pem   a trusted list operator's certificate (list-operator-key.pem its key)
        trusted-list.lote   an ETSI TS 119 602 LoTE it signed (JAdES), listing the IACA as a PID
                            provider and the reader and verifier CAs as access certificate CAs
        trusted-list.tsl    an ETSI TS 119 612 trusted list (XAdES) listing the IACA (Pub-EAA)
        trusted-list.vical  an ISO 18013-5 VICAL (COSE) listing the IACA for the mDL docType
        unlisted-mdl.cbor   an mDL from an issuer in no list (unlisted-device.pem its device key)
        unlisted-reader.pem a reader chain under a CA in no list (unlisted-reader-key.pem its key)
        access-ca.pem       an access certificate CA (ETSI TS 119 411-8), listed in the LoTE
        access.pem          the verifier's access certificate (organizationIdentifier
                            LEIXG-529900DEVSHOP00001; a reader certificate and x509_san_dns:HOST),
                            access-key.pem its key
        registrar.pem       a registration certificate provider, listed in the LoTE
                            (registrar-key.pem its key)
        registration.jwt    the verifier's registration certificate (ETSI TS 119 475, rc-wrp+jwt):
                            the mDL's family_name, given_name and age_over_18
        issuer-registration.jwt  the issuer's registration certificate (for issuer serve)
      Existing files are never overwritten: the command refuses instead.
      """)

  static let names =
    [
      "iaca.pem", "mdl.cbor", "device.pem", "reader-root.pem", "reader.pem", "reader-key.pem",
      "pid.txt", "holder.pem", "verifier-ca.pem", "verifier-chain.pem", "verifier.pem",
      "query.json",
    ] + DevTrustFiles.names + DevRegistrationFiles.names

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard arguments.first == "files" else {
      if arguments.first == "--help" || arguments.first == "-h" {
        throw HelpShown(text: filesSpec.help)
      }
      throw UsageError(
        arguments.first.map { "unknown dev subcommand '\($0)'" } ?? "dev needs a subcommand: files",
        command: "dcwallet dev")
    }
    let args = try context.parse(filesSpec, Array(arguments.dropFirst()))
    let directory = args.value("out") ?? FileManager.default.currentDirectoryPath
    let host = args.value("origin-host") ?? "shop.example"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    let paths = names.map { (directory as NSString).appendingPathComponent($0) }
    if let existing = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) {
      throw CommandFailure("\(existing) exists; dev files never overwrites (use an empty --out)")
    }
    let files = try makeFiles(verifierHost: host, now: Date())
    for (name, contents) in files.package {
      try Files.write(contents, to: (directory as NSString).appendingPathComponent(name))
    }
    for (name, contents) in files.secret {
      try SecretFile.create(contents, to: (directory as NSString).appendingPathComponent(name))
    }
    context.console.out(
      "wrote \(names.joined(separator: ", ")) in \(directory) (development only; verifier https://\(host))"
    )
  }

  /// The files' contents: package ones, and private keys.
  static func makeFiles(verifierHost: String, now: Date) throws -> (
    package: [(String, [UInt8])], secret: [(String, [UInt8])]
  ) {
    let from = now.addingTimeInterval(-86_400)
    let until = now.addingTimeInterval(86_400 * 365)
    let issuer = try DevelopmentIssuer(name: "Development", from: from, until: until)
    let (iacaKey, iaca, dsKey, ds) = (issuer.iacaKey, issuer.iaca, issuer.dsKey, issuer.ds)
    let deviceKey = try ECPrivateKey(curve: .p256)
    let mdl = try developmentMDL(
      signer: dsKey, chain: [ds], deviceKey: deviceKey, now: now, from: from)
    let readerRootKey = try ECPrivateKey(curve: .p256)
    let readerRoot = try CertificateBuilder.readerRoot(
      commonName: "Development Reader CA", organization: "Verifier Trust Scheme",
      publicKey: readerRootKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: readerRootKey)
    let readerKey = try ECPrivateKey(curve: .p256)
    let reader = try CertificateBuilder.reader(
      commonName: "Development Shop", organization: "Development Shop",
      publicKey: readerKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: readerRoot, signer: readerRootKey)
    let pid = try sdJWTPID(iaca: iaca, iacaKey: iacaKey, now: now, from: from, until: until)
    let (verifierRoot, verifierKey, verifierCert) = try openID4VPVerifierPKI(
      caName: "Development Verifier CA", dnsName: verifierHost, organization: "Development Shop",
      from: from, until: until)
    let query =
      #"{"credentials": [{"id": "pid", "format": "dc+sd-jwt", "meta": {"vct_values": ["urn:eudi:pid:1"]}, "claims": [{"path": ["given_name"]}, {"path": ["age_over_18"]}]}]}"#
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    let registration = try DevRegistrationFiles.files(
      verifierHost: verifierHost, now: now, from: from, until: until)
    let trust = try DevTrustFiles.files(
      DevTrustFiles.Listed(
        iaca: iaca, readerRoot: readerRoot, verifierRoot: verifierRoot,
        accessCA: registration.accessCA, registrar: registration.registrar),
      now: now, from: from, until: until)
    return (
      package: trust.package + registration.package + [
        ("iaca.pem", text(iaca.pemString)), ("mdl.cbor", mdl.bytes),
        ("reader-root.pem", text(readerRoot.pemString)), ("reader.pem", text(reader.pemString)),
        ("pid.txt", text(pid.sdJWT + "\n")), ("verifier-ca.pem", text(verifierRoot.pemString)),
        ("verifier-chain.pem", text(verifierCert.pemString)), ("query.json", text(query + "\n")),
      ],
      secret: trust.secret + registration.secret + [
        ("device.pem", text(deviceKey.pemRepresentation)),
        ("reader-key.pem", text(readerKey.pemRepresentation)),
        ("holder.pem", text(pid.holderKey.pemRepresentation)),
        ("verifier.pem", text(verifierKey.pemRepresentation)),
      ]
    )
  }

  /// Erika Mustermann's development mDL, valid for 90 days, with two decoy digests.
  static func developmentMDL(
    signer dsKey: ECPrivateKey, chain: [Certificate], deviceKey: ECPrivateKey, now: Date,
    from: Date
  ) throws -> IssuerSigned {
    try MdocIssuer(signer: dsKey, certificateChain: chain).issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [
        (
          "org.iso.18013.5.1",
          [
            ("family_name", "Mustermann"), ("given_name", "Erika"),
            ("birth_date", .fullDate(try FullDate("1971-09-01"))), ("age_over_18", true),
            ("age_over_21", true), ("document_number", "D1234567"),
            ("portrait", .byteString(developmentPortrait)),
          ]
        )
      ], deviceKey: deviceKey.publicKey,
      validity: ValidityInfo(
        signed: now, validFrom: from, validUntil: now.addingTimeInterval(86_400 * 90)),
      decoyDigests: 2)
  }

  /// An OpenID4VP verifier CA under the Verifier Trust Scheme and, under it, a request signer
  /// for `dnsName` with its key.
  static func openID4VPVerifierPKI(
    caName: String, dnsName: String, organization: String, from: Date, until: Date
  ) throws -> (root: Certificate, key: ECPrivateKey, leaf: Certificate) {
    let verifierRootKey = try ECPrivateKey(curve: .p256)
    let verifierRoot = try CertificateBuilder.readerRoot(
      commonName: caName, organization: "Verifier Trust Scheme",
      publicKey: verifierRootKey.publicKey, notBefore: from, notAfter: until
    ).selfSigned(signer: verifierRootKey)
    let verifierKey = try ECPrivateKey(curve: .p256)
    let verifierCert = try CertificateBuilder.openID4VPVerifier(
      dnsName: dnsName, organization: organization, publicKey: verifierKey.publicKey,
      notBefore: from, notAfter: until
    ).issued(by: verifierRoot, signer: verifierRootKey)
    return (verifierRoot, verifierKey, verifierCert)
  }

  /// An SD-JWT VC PID whose issuer certificate chains to the IACA and names the `iss` host as a
  /// dNSName and the `iss` URL as a URI SAN (SD-JWT VC §3.5: `iss` is tied to the x5c leaf).
  static func sdJWTPID(
    iaca: Certificate, iacaKey: ECPrivateKey, now: Date, from: Date, until: Date
  ) throws -> (sdJWT: String, holderKey: ECPrivateKey) {
    let issuerURL = "https://pid-issuer.utopia.example"
    let issuerKey = try ECPrivateKey(curve: .p256)
    let issuerCert = try CertificateBuilder(
      subject: DistinguishedName(
        commonName: "Development PID Issuer", organization: "Utopia Registry", country: "UT"),
      publicKey: issuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature),
        .subjectAlternativeNames([.dnsName("pid-issuer.utopia.example"), .uri(issuerURL)]),
      ]
    ).issued(by: iaca, signer: iacaKey)
    let holderKey = try ECPrivateKey(curve: .p256)
    let claims: JSONValue = .object([
      ("given_name", "Erika"), ("family_name", "Mustermann"), ("birthdate", "1971-09-01"),
      ("age_over_18", true), ("address", .object([("locality", "Berlin"), ("country", "DE")])),
    ])
    let pid = try SDJWTIssuer.issue(
      claims: claims,
      selectivelyDisclosable: [
        "given_name", "family_name", "birthdate", "age_over_18", "address.locality", "address",
      ],
      decoys: 2, holderKey: holderKey.publicKey, vct: "urn:eudi:pid:1", issuer: issuerURL,
      issuedAt: now, expiresAt: now.addingTimeInterval(86_400 * 90), signer: issuerKey,
      x5c: [issuerCert], random: SecureRandom())
    return (pid.serialized, holderKey)
  }
}

/// The development mDL's portrait: a 60×80 baseline JPEG (ISO 18013-5 §7.2.1: portrait is a
/// JPEG or JPEG 2000), drawn once by a browser canvas, so a verifier page can show it.
let developmentPortrait: [UInt8] =
  (try? Base64.decode(
    """
    /9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AAB
    AAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAA
    AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFla
    AAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAA
    AChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1
    AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBh
    cmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAc
    AEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQY
    GBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgo
    KCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCABQADwDASIAAhEBAxEB/8QAHAABAAID
    AQEBAAAAAAAAAAAAAAUGBAcIAgED/8QANRAAAQMDAQMICgIDAAAAAAAAAQIDBAAFEQYHITESEzdxg5Gz0RQWIkFR
    VWGBlKEyQhWx4f/EABoBAAIDAQEAAAAAAAAAAAAAAAQFAQIDAAb/xAAhEQADAAIBBAMBAAAAAAAAAAAAAQIDEQQS
    EyExFDJBUf/aAAwDAQACEQMRAD8A3/SlKOAhSvLi0toUtxSUoSMlSjgAVWpWvNMxnS25d2SoHGW0qcHekEVWqmfb
    LTNV6RZ6VGWe+2u8pJtk5iQQMlKVe0B9UneO6pOpTT8ohprwxSlKkgV5cWlttS3FBKEgqUonAAHvr1VY2lyFxtC3
    dxokKLYb3fBSkpP6JqtV0y2WmeqkjVOqtQ3bXN6Vb7Qh1UFKjzTCNwUB/dZ89wrPibKJa2QqXc2WXCP4ttFYH3JF
    WzZhZ2rbpiPICR6TMHPOLxvwf4jqx+yam9PX626ihLl2eT6THQ4WlL5tSMKABIwoA8FCvPZM123Q/wAeOYSlGob1
    ou96YULhDd55tk8rn45IU39SOI+2a2jsz1cdS21bUwpFxjYDmN3OJPBYH6P/AGs21X22XiZcYcCQH34DnMyUFtSe
    QrKhjJAB3pVwzwqj2CALBtiTFhjkRZbS1BA4JSUlWOoKR/qiOJmqcil/physU3jdL8Nv0pSnYlFRmpbYLxYZ1vJA
    L7RSkngFcUnvAqTpUNbWmSnp7RUNFPc5pmC0tJQ/FR6M62eKFo9kg92fvUlbrfCtrKmbdDjxGVK5ZQw0ltJVgDOA
    OOAO6st61oE1yZFw2+6AHU/1dxwJ+Chwz8OOcDH1LTxJBZUMe/lDB6t9Ic3EyRT6VtDzDysdrbemYcS3wob0h6HD
    jsPSFct5bTSUqdVknKiBvOSePxNQlnhf5LaJMuoGY9vjiGhXuU6clWOoKIP1NWUxZD6CnfGSdxVkFY6uI+57qy4M
    RiBEbjRWw2y2MBOc9ZJO8kneSeNE8Pi2q7mTwD8vlQ56I8mRSlKbCoVGTNQWaDJXHm3a3x5CMcpp2ShCk5GRkE5G
    4g1J1zPth6Rrv2PgorTFHW9FarSN/etWnvn1p/Mb86etWnvn1p/Mb865OpW/x1/SncZ1j61ae+fWn8xvzp61ae+f
    Wn8xvzrk6ld8df07uM7Ehy486MiRCfakR155LrSwtKsHBwRuO8EV+9UzY90c2jtvGXVzoWlptGqe0K5n2w9I137H
    wUV0xXM+2HpGu/Y+CituP9imT0UylKUYYilKVxx0xse6ObR23jLq51TNj3RzaO28ZdXOl1/ZhE+kf//Z
    """.filter { !$0.isWhitespace })) ?? []
