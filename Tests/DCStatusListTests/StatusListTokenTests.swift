import DCCBOR
import DCCOSE
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCStatusList
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// Building, reading and verifying Status List Tokens in both forms.
@Suite struct StatusListTokenTests {
  static let uri = "https://issuer.example/statuslists/1"

  static func sampleList() throws -> StatusList {
    var list = StatusList(bits: .two, count: 10_000)
    try list.setStatus(.invalid, at: 3)
    try list.setStatus(.suspended, at: 4)
    try list.setStatus(.applicationSpecific(3), at: 9_999)
    return list
  }

  static func token(
    _ format: StatusListToken.Format, pki: TestPKI, subject: String = uri,
    expiresIn: TimeInterval? = 86_400, ttl: Int? = 3600, list: StatusList? = nil,
    chain: [Certificate]? = nil, signer: (any Signer)? = nil
  ) throws -> StatusListToken {
    try StatusListToken(
      format: format, subject: subject, issuer: "https://issuer.example",
      issuedAt: pki.clock.addingTimeInterval(-60),
      expiresAt: expiresIn.map { pki.clock.addingTimeInterval($0) }, timeToLive: ttl,
      statusList: try list ?? sampleList(),
      certificateChain: (chain ?? [pki.documentSigner]).map(\.derBytes),
      signer: signer ?? pki.dsKey)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func builtTokensReadBackAndVerify(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    let token = try Self.token(format, pki: pki)
    let read = try StatusListToken(bytes: token.encoded)
    #expect(read == token)
    #expect(read.format == format)
    #expect(StatusListToken.format(of: token.encoded) == format)
    #expect(read.subject == Self.uri)
    #expect(read.issuer == "https://issuer.example")
    #expect(read.timeToLive == 3600)
    #expect(read.expiresAt == pki.clock.addingTimeInterval(86_400))
    #expect(read.statusList == (try Self.sampleList()))
    #expect(read.certificateChain == [pki.documentSigner.derBytes])
    let chain = try read.verifySignature(trustAnchors: [pki.iaca], at: pki.clock)
    #expect(chain.leaf == pki.documentSigner)
  }

  @Test func jwtHeaderAndClaimsAreTheDraftsNames() throws {
    let pki = try TestPKI()
    let token = try Self.token(.jwt, pki: pki)
    let jws = try CompactJWS(String(decoding: token.encoded, as: UTF8.self))
    #expect(jws.type == "statuslist+jwt")
    #expect(jws.x5c == [pki.documentSigner.derBytes])
    let claims = try JSONValue(parsing: jws.payload)
    #expect(claims["sub"]?.string == Self.uri)
    #expect(claims["iat"]?.int != nil)
    #expect(claims["exp"]?.int != nil)
    #expect(claims["ttl"]?.int == 3600)
    #expect(claims["status_list"]?["bits"]?.int == 2)
    #expect(claims["status_list"]?["lst"]?.string != nil)
  }

  @Test func cwtHeaderAndClaimsAreTheDraftsKeys() throws {
    let pki = try TestPKI()
    let token = try Self.token(.cwt, pki: pki)
    let item = try CBOR.decode(token.encoded)
    #expect(item.tag == 18)
    let sign1 = try COSESign1(cbor: item)
    #expect(sign1.headers.protected[key: 16]?.text == "application/statuslist+cwt")
    #expect(try sign1.headers.x5chain == [pki.documentSigner.derBytes])
    let claims = try CBOR.decode(try #require(sign1.payload))
    #expect(claims[2]?.text == Self.uri)
    #expect(claims[6]?.int != nil)
    #expect(claims[4]?.int != nil)
    #expect(claims[65534]?.int == 3600)
    #expect(claims[65533]?["bits"]?.int == 2)
    #expect(claims[65533]?["lst"]?.bytes != nil)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func anotherCertificateUnderTheSameAnchorIsTrusted(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    let key = try ECPrivateKey(curve: .p256)
    let statusSigner = try CertificateBuilder.documentSigner(
      commonName: "Status List Signer", country: "UT", publicKey: key.publicKey,
      notBefore: pki.clock.addingTimeInterval(-3600), notAfter: pki.clock.addingTimeInterval(86_400)
    ).issued(by: pki.iaca, signer: pki.iacaKey)
    let token = try Self.token(format, pki: pki, chain: [statusSigner], signer: key)
    #expect(throws: Never.self) {
      try token.verifySignature(trustAnchors: [pki.iaca], at: pki.clock)
    }
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func anotherIssuersTokenIsUntrusted(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    let other = try TestPKI()
    let token = try Self.token(format, pki: other)
    let error = #expect(throws: StatusListError.self) {
      try token.verifySignature(trustAnchors: [pki.iaca], at: pki.clock)
    }
    #expect(error?.code == .untrusted)
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aTokenWithoutAChainIsUntrustedUnlessOneIsGiven(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    let token = try Self.token(format, pki: pki, chain: [])
    let error = #expect(throws: StatusListError.self) {
      try token.verifySignature(trustAnchors: [pki.iaca], at: pki.clock)
    }
    #expect(error?.code == .untrusted)
    // The mdoc status claim's `certificate` stands in for the missing chain.
    try token.verifySignature(
      trustAnchors: [pki.iaca], at: pki.clock, fallbackChain: [pki.documentSigner.derBytes])
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aSignatureByTheWrongKeyDoesNotVerify(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    // The chain names the document signer, but another key signed.
    let token = try Self.token(format, pki: pki, signer: try ECPrivateKey(curve: .p256))
    let error = #expect(throws: StatusListError.self) {
      try token.verifySignature(trustAnchors: [pki.iaca], at: pki.clock)
    }
    #expect(error?.code == .invalidSignature)
  }

  @Test func theJWTTypMustBeStatuslistJWT() throws {
    let pki = try TestPKI()
    let claims: JSONValue = [
      "sub": .string(Self.uri), "iat": 1_700_000_000,
      "status_list": ["bits": 1, "lst": .string(Base64URL.encode(try Zlib.compress([0])))],
    ]
    for typ in ["JWT", "dc+sd-jwt", nil] as [String?] {
      let header: JSONValue = typ.map { ["typ": .string($0)] } ?? [:]
      let jwt = try JWS.sign(
        payload: claims.serializedBytes(), protectedHeader: header, signer: pki.dsKey)
      let error = #expect(throws: StatusListError.self) { try StatusListToken(jwt: jwt) }
      #expect(error?.code == .malformed)
    }
    let good = try JWS.sign(
      payload: claims.serializedBytes(), protectedHeader: ["typ": "statuslist+jwt"],
      signer: pki.dsKey)
    #expect(try StatusListToken(jwt: good).statusList.count == 8)
  }

  @Test func theCWTTypMustBeStatuslistCWT() throws {
    let pki = try TestPKI()
    let claims: CBOR = [
      2: .textString(Self.uri), 6: 1_700_000_000,
      65533: ["bits": 1, "lst": .byteString(try Zlib.compress([0]))],
    ]
    for typ in ["application/cwt", "statuslist+cwt"] {
      let sign1 = try COSESign1.sign(
        payload: claims.encoded(), protected: [16: .textString(typ)], signer: pki.dsKey)
      let error = #expect(throws: StatusListError.self) {
        try StatusListToken(cwt: sign1.cbor(tagged: true).encoded())
      }
      #expect(error?.code == .malformed)
    }
    let good = try COSESign1.sign(
      payload: claims.encoded(), protected: [16: "application/statuslist+cwt"], signer: pki.dsKey)
    #expect(try StatusListToken(cwt: good.cbor(tagged: false).encoded()).statusList.count == 8)
  }

  @Test func requiredClaimsAndTheirTypes() throws {
    let pki = try TestPKI()
    let lst = JSONValue.string(Base64URL.encode(try Zlib.compress([0])))
    let list: JSONValue = ["bits": 1, "lst": lst]
    let cases: [(String, JSONValue)] = [
      ("no sub", ["iat": 1, "status_list": list]),
      ("no iat", ["sub": "https://a.example", "status_list": list]),
      ("no status_list", ["sub": "https://a.example", "iat": 1]),
      ("bits 3", ["sub": "https://a.example", "iat": 1, "status_list": ["bits": 3, "lst": lst]]),
      (
        "lst not base64url",
        ["sub": "https://a.example", "iat": 1, "status_list": ["bits": 1, "lst": "*"]]
      ),
      ("ttl 0", ["sub": "https://a.example", "iat": 1, "ttl": 0, "status_list": list]),
      ("exp text", ["sub": "https://a.example", "iat": 1, "exp": "soon", "status_list": list]),
    ]
    for (name, claims) in cases {
      let jwt = try JWS.sign(
        payload: claims.serializedBytes(), protectedHeader: ["typ": "statuslist+jwt"],
        signer: pki.dsKey)
      #expect(throws: StatusListError.self, "\(name)") { try StatusListToken(jwt: jwt) }
    }
  }

  @Test(arguments: StatusListToken.Format.allCases)
  func aBombTokenIsTooLarge(format: StatusListToken.Format) throws {
    let pki = try TestPKI()
    // A list of 32 MiB compresses to about 32 KiB; reading it stops at the 16 MiB cap.
    let token = try Self.token(
      format, pki: pki, list: StatusList(bits: .one, bytes: [UInt8](repeating: 0, count: 32 << 20)))
    #expect(token.encoded.count < 200_000)
    // Discard the value: were the cap gone, a returned 32 MiB list would be printed.
    let error = #expect(throws: StatusListError.self) {
      _ = try StatusListToken(bytes: token.encoded)
    }
    #expect(error?.code == .tooLarge)
    // Its header alone still says what it is.
    #expect(StatusListToken.format(of: token.encoded) == format)
  }

  @Test func anOversizedTokenIsRefusedBeforeParsing() throws {
    let cap = StatusListLimits.maximumTokenSize
    // A genuine token padded with whitespace past the cap: whole, it is too large to read or
    // to detect, though trimmed it would parse.
    let token = try Self.token(.jwt, pki: try TestPKI())
    let padded = token.encoded + [UInt8](repeating: 0x20, count: cap)
    let error = #expect(throws: StatusListError.self) { try StatusListToken(bytes: padded) }
    #expect(error?.code == .tooLarge)
    #expect(StatusListToken.format(of: padded) == nil)
    #expect(StatusListToken.format(of: token.encoded) == .jwt)
    // Each form's reader has its own cap.
    let jwtShaped = "a." + String(repeating: "a", count: cap) + ".a"
    let jwtError = #expect(throws: StatusListError.self) { try StatusListToken(jwt: jwtShaped) }
    #expect(jwtError?.code == .tooLarge)
    let big = [UInt8](repeating: UInt8(ascii: "a"), count: cap + 1)
    let cwtError = #expect(throws: StatusListError.self) { try StatusListToken(cwt: big) }
    #expect(cwtError?.code == .tooLarge)
  }

  @Test func otherBytesAreNotAStatusListToken() throws {
    #expect(StatusListToken.format(of: Array("hello".utf8)) == nil)
    #expect(StatusListToken.format(of: CBOR.map(["a": 1]).encoded()) == nil)
    let malformedError = #expect(throws: StatusListError.self) {
      try StatusListToken(bytes: [0xFF, 0x00])
    }
    #expect(malformedError?.code == .malformed)
  }
}
